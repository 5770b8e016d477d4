#include "setup/ModelButtons.h"
#include <QGridLayout>
#include <QLabel>
#include <QStyle>
#include <QVBoxLayout>
#include <QWidget>

namespace attnlab {

ModelButtons ModelButtons::build(QWidget* panel, QVBoxLayout* layout, const QString& prefix) {
    ModelButtons b;
    auto* grid = new QGridLayout;
    b.train = new QPushButton(panel->style()->standardIcon(QStyle::SP_MediaPlay), tr("Train"));
    b.train->setObjectName(prefix + QStringLiteral("Train"));
    b.stop = new QPushButton(panel->style()->standardIcon(QStyle::SP_MediaStop), tr("Stop"));
    b.reset = new QPushButton(tr("Reset"));
    b.reset->setToolTip(tr("Discard the model"));
    b.open = new QPushButton(tr("Open Model…"));
    b.save = new QPushButton(tr("Save Model…"));
    grid->addWidget(b.train, 0, 0);
    grid->addWidget(b.stop, 0, 1);
    grid->addWidget(b.reset, 0, 2);
    grid->addWidget(b.open, 1, 0, 1, 2);
    grid->addWidget(b.save, 1, 2);
    layout->addLayout(grid);
    b.status = new QLabel;
    b.status->setWordWrap(true);
    b.status->setObjectName(prefix + QStringLiteral("Status"));
    layout->addWidget(b.status);
    return b;
}

void ModelButtons::setState(bool busy, bool training, bool hasModel) const {
    train->setEnabled(!busy);
    stop->setEnabled(busy);
    reset->setEnabled(!busy && hasModel);
    open->setEnabled(!busy);
    save->setEnabled(hasModel && !training);
}

}  // namespace attnlab
