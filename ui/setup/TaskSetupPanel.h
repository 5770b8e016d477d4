#pragma once
// What the setup panels of the tasks with one model each (ClassifierSetupPanel, ImageSetupPanel)
// share: the signals their task connects, the Data group's first rows (the dataset list, the chosen
// file's name, how many items, the data seed), the group boxes' forms, the Training group
// (setup/TrainingBox.h), the status line below them (what the data is, how the run went; it wraps),
// and the session's state that enables them. A panel builds its own groups between addDataGroup() and finish(), and says through three
// functions what its datasets need (readsFile, datasetChosen, enableRows). The run itself is started,
// stopped and reset from the window's Run menu and toolbar (Task::run), not from the panel.
//
// The panel's texts stay in the panel's own translation context: every label this class shows is
// given to it, already translated, by the panel.
#include "setup/TrainingBox.h"

#include <QList>
#include <QString>
#include <QVariant>
#include <QWidget>

#include <cstdint>
#include <initializer_list>
#include <utility>

class QComboBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QSpinBox;
class QVBoxLayout;

namespace attnlab {

class TaskSetupPanel : public QWidget {
    Q_OBJECT
public:
    // What the session is doing: enables the rows that fit.
    void setState(bool busy, bool training, bool hasModel);
    void setStatus(const QString& text);  // the line under the groups
    QString status() const;

    QComboBox* datasetBox() const { return dataset_; }

Q_SIGNALS:
    void dataChanged();  // the data must be made again
    void chooseFileRequested();  // a file or folder: the task shows the dialog, then the panel's setData

protected:
    explicit TaskSetupPanel(QWidget* parent);

    // The rows of the Data group, in this order: the dataset list, the chosen file's name, the item
    // count, the panel's own rows, the data seed. The spin boxes are the panel's (makeSpinBox).
    struct DataRows {
        QString title;         // the group's title
        QString datasetLabel;  // the dataset list's label
        QString sizeLabel;
        QSpinBox* size = nullptr;
        QList<std::pair<QString, QWidget*>> more;
        QString seedLabel;
        QSpinBox* seed = nullptr;
    };
    // The Data group added first to the panel; the dataset list (named datasetName for the tests) is
    // empty: the panel adds its datasets. Editing a spin box of it asks for the data again.
    void addDataGroup(const QString& datasetName, const DataRows& rows);
    // `box` added to the panel below the groups so far; the form to fill it with.
    QFormLayout* addGroup(QGroupBox* box);
    // The end of the panel's constructor: the status line (objectName prefix + "Status"), the
    // stretch below, combo boxes that do not widen the dock, the dataset list's reaction, the state.
    void finish(const QString& prefix, std::initializer_list<QComboBox*> combos);

    // The Data group shows `dataset`, its file and its numbers, without signals; fileText (a
    // translated "File: %1") names the file.
    void showData(const QString& dataset, const QString& path, int size, std::uint64_t seed,
                  const QString& fileText);
    QString datasetName() const;  // the list's current data

    // Enables what fits the session's state, the data and the model; shows the file's name.
    void updateEnabled();
    static void selectData(QComboBox* box, const QVariant& value);
    // A spin box from low to high showing value, with a tooltip (makeSpinBox, setup/TrainingBox.h).
    static QSpinBox* spin(int low, int high, int value, const QString& tip) { return makeSpinBox(low, high, value, tip); }

    // Whether the chosen dataset is read from the file or folder the learner picks.
    virtual bool readsFile() const = 0;
    // Another dataset was chosen: the panel follows (defaults, units); true to ask for a file first.
    virtual bool datasetChosen() = 0;
    // The panel's own rows and groups, enabled or shown as the data and the model allow.
    virtual void enableRows() = 0;

    QVBoxLayout* layout_;
    QComboBox* dataset_ = nullptr;
    QLabel* file_ = nullptr;
    QString path_;
    QSpinBox* size_ = nullptr;
    QSpinBox* dataSeed_ = nullptr;
    TrainingBox trainingBox_;
    QLabel* status_ = nullptr;
    bool busy_ = false, training_ = false, hasModel_ = false;
};

}  // namespace attnlab
