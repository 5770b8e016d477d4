#include "setup/TaskSetupPanel.h"
#include "setup/LessonControls.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

namespace attnlab {

TaskSetupPanel::TaskSetupPanel(QWidget* parent) : QWidget(parent), layout_(new QVBoxLayout(this)) {}

QFormLayout* TaskSetupPanel::addGroup(QGroupBox* box) {
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout_->addWidget(box);
    return form;
}

void TaskSetupPanel::addDataGroup(const QString& datasetName, const DataRows& rows) {
    QFormLayout* form = addGroup(new QGroupBox(rows.title));
    dataset_ = new QComboBox;
    dataset_->setObjectName(datasetName);
    file_ = new QLabel;
    file_->setWordWrap(true);
    file_->hide();
    size_ = rows.size;
    dataSeed_ = rows.seed;
    form->addRow(rows.datasetLabel, dataset_);
    form->addRow(file_);
    form->addRow(rows.sizeLabel, size_);
    for (const auto& [label, field] : rows.more) form->addRow(label, field);
    form->addRow(rows.seedLabel, dataSeed_);
    markLessonControls({{dataset_, "dataset"}, {size_, "size"}, {dataSeed_, "data_seed"}});
    QList<QWidget*> fields{size_, dataSeed_};
    for (const auto& row : rows.more) fields.append(row.second);
    for (QWidget* field : fields)
        if (auto* spin = qobject_cast<QSpinBox*>(field))
            connect(spin, &QSpinBox::editingFinished, this, &TaskSetupPanel::dataChanged);
}

void TaskSetupPanel::finish(const QString& prefix, std::initializer_list<QComboBox*> combos) {
    status_ = new QLabel;
    status_->setWordWrap(true);
    status_->setObjectName(prefix + QStringLiteral("Status"));
    layout_->addWidget(status_);
    layout_->addStretch(1);
    // Long entries must not widen the dock: the boxes show what fits and the list shows it all.
    QList<QComboBox*> boxes{dataset_};
    boxes.append(QList<QComboBox*>(combos));
    for (QComboBox* box : boxes) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(12);
    }
    connect(dataset_, &QComboBox::currentIndexChanged, this, [this] {
        if (datasetChosen()) {
            Q_EMIT chooseFileRequested();
            return;
        }
        updateEnabled();
        Q_EMIT dataChanged();
    });
    updateEnabled();
}

void TaskSetupPanel::showData(const QString& dataset, const QString& path, int size, std::uint64_t seed,
                              const QString& fileText) {
    {
        const QSignalBlocker block(dataset_);
        path_ = path;
        selectData(dataset_, dataset);
        size_->setValue(size);
        dataSeed_->setValue(static_cast<int>(seed));
    }
    file_->setText(path_.isEmpty() ? QString() : fileText.arg(QFileInfo(path_).fileName()));
    file_->setToolTip(path_);
}

QString TaskSetupPanel::datasetName() const { return dataset_->currentData().toString(); }

void TaskSetupPanel::selectData(QComboBox* box, const QVariant& value) {
    const int index = box->findData(value);
    if (index >= 0) box->setCurrentIndex(index);
}

void TaskSetupPanel::setState(bool busy, bool training, bool hasModel) {
    busy_ = busy;
    training_ = training;
    hasModel_ = hasModel;
    updateEnabled();
}

void TaskSetupPanel::setStatus(const QString& text) { status_->setText(text); }

QString TaskSetupPanel::status() const { return status_->text(); }

void TaskSetupPanel::updateEnabled() {
    enableRows();
    file_->setVisible(readsFile() && !path_.isEmpty());
}

}  // namespace attnlab
