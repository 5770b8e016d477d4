#pragma once
// Optimisation settings of a run: learning rate, batch size, epochs, seed, threads and the like.
#include "engine/translation/TranslationTrainer.h"

#include <QWidget>

class QDoubleSpinBox;
class QSpinBox;

namespace attnlab {

class TrainingSettingsWidget : public QWidget {
    Q_OBJECT

public:
    explicit TrainingSettingsWidget(QWidget* parent = nullptr);

    TranslationTrainingOptions options() const;
    void setOptions(const TranslationTrainingOptions& options);

Q_SIGNALS:
    void changed();

private:
    QDoubleSpinBox* learningRate_;
    QSpinBox* batch_;
    QSpinBox* epochs_;
    QSpinBox* seed_;
    QSpinBox* threads_;
    QDoubleSpinBox* validation_;
    QDoubleSpinBox* clip_;
    QDoubleSpinBox* teacherForcing_;
    QDoubleSpinBox* coverage_;
    QDoubleSpinBox* guided_;
    int alignmentLayer_ = -1;  // the guided head: kept from setOptions (a lesson's), not shown
    int alignmentHead_ = 0;
};

}  // namespace attnlab
