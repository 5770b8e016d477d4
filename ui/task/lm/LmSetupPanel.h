#pragma once
// The language model's setup panel: the text (the induction set `repeats`, the English messages of
// the gettext catalogues, Debian's fortunes, or a UTF-8 text file with its tokens: characters, words or a learned BPE),
// the model (layers, heads, width, context, attention only, LayerNorm, tied unembedding, positions,
// objective) and the run (steps, warm-up, learning rate, batch size, seed, clip, held-out share). The
// window's Task box shows it for "Language model". Defaults are the CLI's (LmConfig,
// LmTrainingOptions, LmRepeatsOptions).
#include "base/lm/LmConfig.h"
#include "engine/lm/LmTrainer.h"
#include "setup/TaskSetupPanel.h"
#include <QString>

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace attnlab {

struct LmDataChoice {
    QString dataset = QStringLiteral("repeats");  // "repeats", "gettext", "fortunes" or "file"
    QString path;                                 // the text file for "file"
    QString tokens = QStringLiteral("chars");     // a file's: "chars", "words", "bpe"
    int size = 4000;                              // the induction set's lines
    std::uint64_t seed = 1;                       // the induction set's
    bool isFile() const { return dataset == QLatin1String("file"); }
    QString describe() const;  // for messages and the window title
};

class LmSetupPanel : public TaskSetupPanel {
    Q_OBJECT
public:
    explicit LmSetupPanel(QWidget* parent = nullptr);

    LmDataChoice data() const;
    void setData(const LmDataChoice& choice);  // emits dataChanged
    LmConfig config() const;
    void setConfig(const LmConfig& config);
    LmTrainingOptions options() const;
    void setOptions(const LmTrainingOptions& options);

    QComboBox* tokensBox() const { return tokens_; }
    QSpinBox* layersBox() const { return layers_; }

private:
    bool readsFile() const override;
    bool datasetChosen() override;
    void enableRows() override;

    QComboBox* tokens_;
    QSpinBox* layers_;
    QSpinBox* heads_;
    QSpinBox* width_;
    QSpinBox* context_;
    QCheckBox* attentionOnly_;
    QComboBox* norm_;
    QCheckBox* tied_;
    QComboBox* positions_;
    QComboBox* objective_;
    QSpinBox* steps_;
    QSpinBox* warmup_;
    LmConfig config_;  // what the panel has no control for (feed-forward, dropout)
    LmTrainingOptions options_;
};

}  // namespace attnlab
