#pragma once
// The probe sentence's attention over training. Every probe result of a run is kept as a snapshot
// (its cross-attention, every layer and head), and a slider or Play steps through them on a fixed
// [0, 1] colour scale, so that frames compare. Memory is bounded: at most maxSnapshots() are kept;
// when full, every other one is dropped and from then on only every 2nd (4th, ...) new one stays, so
// the snapshots remain evenly spaced over training. The newest result is always the last frame.
// Exports a small-multiples figure (frames in a grid, one shared colour bar) and a numbered PNG
// sequence (name_001.png, ...), both drawn by HeatmapRenderer at sizes that do not depend on the window.
#include "views/View.h"
#include "widgets/AttentionPanel.h"
#include "render/HeatmapRenderer.h"
#include "task/translate/TranslationTypes.h"

#include <QList>
#include <QSize>
#include <QStringList>
#include <QTimer>
#include <QWidget>

#include <cstdint>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QSlider;
class QToolButton;

namespace attnlab {

class TimelineView : public QWidget, public View {
    Q_OBJECT

public:
    struct Snapshot {
        int epoch = 0;              // epochs completed when it was made
        std::int64_t batches = 0;   // batches trained in the run
        std::int64_t arrival = 0;   // 0-based count of the probe results received before it
        std::vector<std::string> sourceTokens;
        std::vector<std::string> outputTokens;
        LayeredAttention cross;     // [layer][head]; empty for a model without attention
    };

    // View
    QString viewTitle() const override;
    QString viewToolTip() const override;
    HeatmapWidget* zoomableHeatmap() const override;
    void clearView() override;
    void runStarted() override;
    void modelChanged(const ModelInfo* model) override;
    void applyColormap(ColormapId id) override;
    void applyShowNumbers(bool on) override;
    bool exportsFigure() const override;
    bool exportsMatrix() const override;
    bool exportView(const QString& path, double scale, QString* error) const override;

    static constexpr int kDefaultMaxSnapshots = 400;
    // Snapshots also stop growing past this many bytes of weights (a large Transformer on a long
    // sentence): the same thinning applies.
    static constexpr std::int64_t kMaxSnapshotBytes = 256LL << 20;

    // Small-multiples figure geometry, in logical pixels: margins round the figure, gaps between
    // panels, the title row on top and the colour bar strip on the right.
    static constexpr int kFigureMargin = 16;
    static constexpr int kFigureGap = 12;
    static constexpr int kFigureHeader = 36;
    static constexpr int kFigureColorBar = 72;

    explicit TimelineView(QWidget* parent = nullptr);

    // Records a probe result (a result of a model opened from a file is not a training moment and
    // is ignored) and shows it when the view was showing the newest frame.
    void addSnapshot(const ProbeResult& result);
    void clear();
    // Lets the labels say "epoch 3 · batch 20" (batch within the epoch); 0 while unknown.
    void setBatchesPerEpoch(int batches);
    void setMaxSnapshots(int count);  // at least 4; thins at once if more are kept
    int maxSnapshots() const { return maxSnapshots_; }
    int snapshotCount() const { return static_cast<int>(snapshots_.size()); }
    const Snapshot& snapshot(int index) const { return snapshots_.at(static_cast<std::size_t>(index)); }
    std::int64_t receivedCount() const { return arrivals_; }  // since the last clear()
    int keepEvery() const { return stride_; }                 // 1 until the first thinning

    int currentIndex() const { return current_; }  // -1 when empty
    void setCurrentIndex(int index);
    QString frameLabel(int index) const;  // "epoch 3 · batch 20", "before training"

    bool isPlaying() const { return playTimer_.isActive(); }
    void play();  // from the first frame when the last one is shown
    void pause();
    void setFramesPerSecond(int fps);
    int framesPerSecond() const { return fps_; }

    void setColormap(ColormapId id);
    AttentionPanel* attention() const { return attention_; }
    QSlider* slider() const { return slider_; }
    QToolButton* playButton() const { return playButton_; }
    QLabel* positionLabel() const { return position_; }

    // The map shown for a snapshot: the layer and head chosen in the panel (last layer, mean of the
    // heads by default). Empty when the snapshot has no cross-attention.
    AttentionMap mapAt(int index) const;
    // count snapshot indices spread evenly from the first to the last (all of them if fewer).
    QList<int> evenlySpaced(int count) const;

    // The panel size a small-multiples figure uses for these frames when none is given: one size
    // for all panels, from the largest map, independent of the widget.
    QSize defaultPanelSize(const QList<int>& frames) const;
    static QSize figureSize(int frames, int columns, QSize panel);
    // Writes `frames` evenly spaced snapshots in a grid with `columns` columns (PNG at scale, SVG or
    // PDF by extension). An empty panel size picks defaultPanelSize().
    bool exportSmallMultiples(const QString& path, int frames, int columns, QString* error = nullptr,
                              double scale = 1.0, QSize panel = {}) const;
    // Writes every snapshot as directory/baseName_001.png, ... (three digits, more when needed), all of
    // one size so that they make a video.
    bool exportSequence(const QString& directory, const QString& baseName, QStringList* written = nullptr,
                        QString* error = nullptr, double scale = 1.0) const;

Q_SIGNALS:
    void currentIndexChanged(int index);

protected:
    void keyPressEvent(QKeyEvent* event) override;  // Space plays or pauses

private:
    void showCurrent();
    void updateControls();
    void advance();
    void exportGridDialog();
    void exportSequenceDialog();
    void thin();
    HeatmapOptions panelOptions() const;
    std::vector<HeatmapRenderer> panelRenderers(const QList<int>& frames) const;  // titled, unplaced
    QString selectionText() const;
    static std::int64_t bytesOf(const Snapshot& snapshot);

    std::vector<Snapshot> snapshots_;
    std::int64_t arrivals_ = 0;
    std::int64_t bytes_ = 0;
    int stride_ = 1;
    int maxSnapshots_ = kDefaultMaxSnapshots;
    int batchesPerEpoch_ = 0;
    int current_ = -1;
    int fps_ = 5;
    ColormapId colormap_ = ColormapId::Viridis;
    QTimer playTimer_;

    QLabel* sentence_;
    AttentionPanel* attention_;
    QToolButton* playButton_;
    QSlider* slider_;
    QLabel* position_;
    QComboBox* speed_;
    QToolButton* exportGrid_;
    QToolButton* exportFrames_;
    QLabel* status_;
};

}  // namespace attnlab
