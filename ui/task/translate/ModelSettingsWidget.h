#pragma once
// The model's configuration as a form whose widgets cannot express an invalid one: the heads combo
// offers only divisors of the hidden size, settings of the other architecture are disabled.
#include "base/translation/ModelConfig.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace attnlab {

class ModelSettingsWidget : public QWidget {
    Q_OBJECT

public:
    explicit ModelSettingsWidget(QWidget* parent = nullptr);

    // Vocabulary sizes are left 0: the trainer fills them in from the corpus.
    ModelConfig config() const;
    void setConfig(const ModelConfig& config);
    // Used for the parameter estimate (0: unknown).
    void setVocabularySizes(std::size_t source, std::size_t target);

    // Divisors of hidden up to 16, offered as head counts (exposed for tests).
    static QList<int> headChoices(int hidden);

Q_SIGNALS:
    void changed();

private:
    void updateEnabled();
    void updateHeads();
    void updateEstimate();
    // The layer count follows the architecture's default (1 for a GRU, 2 for a Transformer) unless
    // it was changed by hand.
    void followArchitectureDefaults();

    QComboBox* architecture_;
    QComboBox* attention_;
    QSpinBox* window_;
    QCheckBox* bidirectional_;
    QComboBox* query_;
    QSpinBox* hidden_;
    QSpinBox* layers_;
    QComboBox* heads_;
    QComboBox* pattern_;  // a Transformer's self-attention pattern
    QSpinBox* chunk_;     // its chunk size or stride; 0 = automatic
    QSpinBox* feedForward_;
    QDoubleSpinBox* dropout_;
    QComboBox* dropoutOn_;
    QSpinBox* maxLength_;
    QLabel* estimate_;
    std::size_t sourceVocabulary_ = 0;
    std::size_t targetVocabulary_ = 0;
    Architecture shownArchitecture_ = Architecture::Gru;
};

}  // namespace attnlab
