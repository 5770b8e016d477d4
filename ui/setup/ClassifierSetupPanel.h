#pragma once
// The text-classification task's setup panel: the data (a built-in dataset with gold rationales, this
// machine's gettext catalogues as language identification, or a TSV file), the model (a GRU with
// attention pooling, or a Transformer with [CLS]), the training settings, and the buttons that act on
// them (Train, Stop, Reset, Open Model, Save Model). The window's task switch shows it in place of the
// translation task's panels. Defaults are the CLI's (measured in docs/classification.md).
#include "engine/ClassifierTrainer.h"
#include "setup/ModelButtons.h"
#include "setup/TrainingBox.h"
#include <QString>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace attnlab {

struct ClassifierDataChoice {
    QString dataset;  // "sentiment", "topic", "needle", "langid", or "file"
    QString path;     // the TSV file for "file"
    int size = 2000;  // texts (langid: per language)
    int length = 0;   // needle's words per text
    std::uint64_t seed = 1;
    // A short label for messages and the window title.
    QString describe() const;
};

class ClassifierSetupPanel : public QWidget {
    Q_OBJECT
public:
    explicit ClassifierSetupPanel(QWidget* parent = nullptr);

    ClassifierDataChoice data() const;
    void setData(const ClassifierDataChoice& choice);
    ClassifierConfig config() const;
    void setConfig(const ClassifierConfig& config);
    ClassifierTrainingOptions options() const;
    void setOptions(const ClassifierTrainingOptions& options);
    // What the session is doing: enables the buttons that fit.
    void setState(bool busy, bool training, bool hasModel);
    void setStatus(const QString& text);  // under the buttons

    QComboBox* datasetBox() const { return dataset_; }
    QPushButton* trainButton() const { return buttons_.train; }
    QPushButton* stopButton() const { return buttons_.stop; }

Q_SIGNALS:
    void dataChanged();  // the corpus must be made again
    void trainRequested();
    void stopRequested();
    void resetRequested();
    void openModelRequested();
    void saveModelRequested();
    void chooseFileRequested();  // "TSV file…": the window shows the file dialog, then setData

private:
    void updateEnabled();

    QComboBox* dataset_;
    QLabel* file_;
    QString path_;
    QSpinBox* size_;
    QSpinBox* length_;
    QSpinBox* dataSeed_;
    QComboBox* architecture_;
    QComboBox* pooling_;
    QSpinBox* hops_;
    QSpinBox* hidden_;
    QSpinBox* layers_;
    QSpinBox* heads_;
    QCheckBox* bidirectional_;
    QComboBox* units_;
    TrainingBox trainingBox_;
    ModelButtons buttons_;
    bool busy_ = false, training_ = false, hasModel_ = false;
};

}  // namespace attnlab
