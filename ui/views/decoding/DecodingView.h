#pragma once
// The decoding lab (Experiments ▸ Decoding): how the trained model turns next-token distributions into
// a translation. Greedy takes the most probable token at every step; sampling draws from the
// distribution at a temperature, cut by top-k and top-p (several samples side by side, seeds S, S+1,
// ...); beam search keeps the best few hypotheses and is drawn as a tree. Each step shows the
// distribution with the cut, the token chosen and the cross-attention it used; for a Transformer,
// the key/value cache grows by one row per step with the new query's weights over it, and the
// multiply-adds with and without the cache (base/translation/DecodingCost.h) are counted.
//
// Requests go to the TranslationSession (answered between batches); the view keeps the answers of
// its newest request only.
#include "views/View.h"

#include "base/AttentionMap.h"
#include "base/translation/DecodingCost.h"
#include "base/translation/ModelConfig.h"
#include "render/FigureWriter.h"

#include <QWidget>

#include <map>
#include <vector>

class QBoxLayout;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QSlider;
class QSpinBox;
class QStackedWidget;
class QToolButton;

namespace attnlab {

class BeamTreeWidget;
class CacheTable;
class CandidateChart;
class TranslationSession;
class WordStrip;

class DecodingView : public QWidget, public View {
    Q_OBJECT

public:
    enum class Method { Greedy = 0, Sampling = 1, Beam = 2 };
    static constexpr int kMaxSamples = 3;

    explicit DecodingView(TranslationSession* controller, QWidget* parent = nullptr);
    ~DecodingView() override;

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    void clearView() override;
    void modelChanged(const ModelInfo* model) override;
    void modelAvailable(bool available) override;
    bool exportsFigure() const override;
    bool exportView(const QString& path, double scale, QString* error) const override;

    QString sentence() const;
    void setSentence(const QString& sentence);
    Method method() const;
    void setMethod(Method method);
    // Sampling's controls: temperature (0.01-5), top-k (0 = off), top-p (0.05-1), the first seed and
    // how many samples side by side (1-3).
    void setSampling(double temperature, int topK, double topP, int seed, int samples);
    void setBeamWidth(int width);

    // Decodes the sentence with the current model and method; decoded() follows (or a message).
    void decode();
    bool isBusy() const { return !pending_.empty(); }
    // The answers shown: one per sample (greedy: one; beam: one, with its tree).
    const std::vector<Translation>& results() const { return results_; }
    QString error() const { return error_; }

    // Stepping (greedy and sampling): steps 0 .. stepCount()-1, the longest sample's.
    int stepCount() const;
    int currentStep() const { return step_; }
    void setStep(int step);

    CandidateChart* candidates(int sample) const;
    WordStrip* attentionStrip(int sample) const;
    BeamTreeWidget* beamTree() const { return tree_; }
    CacheTable* cacheTable() const { return cacheTable_; }
    bool showsCache() const;
    // The first sample's costs at the current step and summed up to it (Transformer only).
    StepCost stepCost() const;
    StepCost costSoFar() const;
    QString costText() const;

Q_SIGNALS:
    void decoded();

protected:
    void showEvent(QShowEvent* event) override;

private:
    struct Column {
        QWidget* box = nullptr;
        QLabel* header = nullptr;
        CandidateChart* chart = nullptr;
        QLabel* attentionTitle = nullptr;
        WordStrip* attention = nullptr;
    };

    void onTranslated(quint64 id, const Translation& translation);
    void onFailed(quint64 id, const QString& message);
    void showResults();
    void showStep();
    void showBeamNode(int node);
    void updateControls();
    void showMessage(const QString& message);
    DecoderShape decoderShape() const;
    Figure figure() const;

    TranslationSession* controller_;
    QLineEdit* input_;
    QPushButton* decodeButton_;
    QComboBox* method_;
    QWidget* samplingControls_;
    QDoubleSpinBox* temperature_;
    QSpinBox* topK_;
    QDoubleSpinBox* topP_;
    QSpinBox* seed_;
    QSpinBox* samples_;
    QWidget* beamControls_;
    QSpinBox* beamWidth_;
    QWidget* stepRow_;
    QToolButton* previous_;
    QToolButton* next_;
    QSlider* stepSlider_;
    QLabel* stepLabel_;
    QStackedWidget* pages_;
    QLabel* placeholder_;
    std::vector<Column> columns_;
    QBoxLayout* stepsBody_;
    QGroupBox* cacheBox_;
    QComboBox* cacheLayer_;
    QComboBox* cacheHead_;
    QLabel* cacheCost_;
    CacheTable* cacheTable_;
    BeamTreeWidget* tree_;
    QLabel* nodeInfo_;
    WordStrip* nodeStrip_;
    QLabel* status_;

    bool haveModel_ = false;
    bool transformer_ = false;
    ModelConfig config_;             // of the model the results came from
    std::map<quint64, int> pending_;  // the controller's request id -> result slot
    std::vector<Translation> results_;
    Method resultMethod_ = Method::Greedy;
    QString error_;
    int step_ = 0;
};

}  // namespace attnlab
