#pragma once
// The buttons under a task's setup panel (Train, Stop, Reset, Open Model…, Save Model…) and the status
// line below them, as ClassifierSetupPanel and ImageSetupPanel show them. add() builds them into the
// panel's layout and connects them to the panel's signals of the same names (trainRequested,
// stopRequested, resetRequested, openModelRequested, saveModelRequested).
#include <QCoreApplication>
#include <QPushButton>
#include <QString>

class QLabel;
class QVBoxLayout;
class QWidget;

namespace attnlab {

class ModelButtons {
    Q_DECLARE_TR_FUNCTIONS(attnlab::ModelButtons)
public:
    QPushButton* train = nullptr;
    QPushButton* stop = nullptr;
    QPushButton* reset = nullptr;
    QPushButton* open = nullptr;
    QPushButton* save = nullptr;
    QLabel* status = nullptr;

    // The buttons and the status line added to `layout` of `panel`; objectName prefix + "Train" and
    // prefix + "Status" (the tests find them by these).
    template <typename Panel>
    static ModelButtons add(Panel* panel, QVBoxLayout* layout, const QString& prefix) {
        const ModelButtons b = build(panel, layout, prefix);
        QObject::connect(b.train, &QPushButton::clicked, panel, &Panel::trainRequested);
        QObject::connect(b.stop, &QPushButton::clicked, panel, &Panel::stopRequested);
        QObject::connect(b.reset, &QPushButton::clicked, panel, &Panel::resetRequested);
        QObject::connect(b.open, &QPushButton::clicked, panel, &Panel::openModelRequested);
        QObject::connect(b.save, &QPushButton::clicked, panel, &Panel::saveModelRequested);
        return b;
    }

    // What the session is doing: Train and Open while idle, Stop while busy, Reset an idle model,
    // Save a model not training.
    void setState(bool busy, bool training, bool hasModel) const;

private:
    static ModelButtons build(QWidget* panel, QVBoxLayout* layout, const QString& prefix);
};

}  // namespace attnlab
