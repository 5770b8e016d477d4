#pragma once
// The text-classification task's setup panel: the data (a built-in dataset with gold rationales, this
// machine's gettext catalogues as language identification, or a TSV file), the model (a GRU with
// attention pooling, or a Transformer with [CLS]), the training settings, and the buttons that act on
// them (Train, Stop, Reset, Open Model, Save Model). The window's task switch shows it in place of the
// translation task's panels. Defaults are the CLI's (measured in docs/classification.md).
#include "engine/text/ClassifierTrainer.h"
#include "setup/TaskSetupPanel.h"
#include <QString>

class QCheckBox;
class QComboBox;
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

// The signals (dataChanged, chooseFileRequested: "TSV file…", the window shows
// the file dialog, then setData), setState and setStatus are TaskSetupPanel's.
class ClassifierSetupPanel : public TaskSetupPanel {
    Q_OBJECT
public:
    explicit ClassifierSetupPanel(QWidget* parent = nullptr);

    ClassifierDataChoice data() const;
    void setData(const ClassifierDataChoice& choice);
    ClassifierConfig config() const;
    void setConfig(const ClassifierConfig& config);
    ClassifierTrainingOptions options() const;
    void setOptions(const ClassifierTrainingOptions& options);

private:
    ClassifierTrainingOptions options_;  // the last written: what the Training group does not show comes along
    bool readsFile() const override;
    bool datasetChosen() override;
    void enableRows() override;
    void followUnits(const QString& dataset);  // langid reads characters, the others words

    QSpinBox* length_;
    QComboBox* architecture_;
    QComboBox* pooling_;
    QSpinBox* hops_;
    QSpinBox* hidden_;
    QSpinBox* layers_;
    QSpinBox* heads_;
    QComboBox* pattern_;
    QSpinBox* window_;
    QCheckBox* bidirectional_;
    QComboBox* units_;
    // The configuration last set (a lesson's or a checkpoint's): the fields the panel has no row for
    // (d_ff, dropout, chunk, ...) come from it, so that a lesson trains the model it names.
    ClassifierConfig base_;
};

}  // namespace attnlab
