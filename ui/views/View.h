#pragma once
// What every view of the main window provides. The window keeps no hand-written lists of views to
// clear, re-colour or export: it asks every view registered with the ViewNavigator, through this
// interface alone, for its title, tells it when a run starts, when the model changes or is discarded,
// applies the heatmap look, and exports what it shows.
//
// A new view: a QWidget subclass that also derives from View, in its own folder under views/, and one
// addView() line in its task (ui/task/). See docs/ARCHITECTURE.md, "Adding a view".
#include "render/Colormap.h"

#include <QCoreApplication>
#include <QString>

#include <cstdint>

namespace attnlab {

class AttentionPanel;
class HeatmapWidget;

// What any view may want to know of a task's model, whatever the task.
struct ModelInfo {
    QString task;              // the model's task (base/TaskIds.h): "translate", "classify", ...
    QString architecture;      // "gru", "transformer", "vit", "cnn-gru"
    int layers = 0;            // layers of multi-head attention (0 for a recurrent model)
    int heads = 0;             // heads per layer
    int width = 0;             // d_model, or the hidden size
    int maxPositions = 0;      // positions its positional encoding covers; 0 if it has none
    std::int64_t parameters = 0;
    int batchesPerEpoch = 0;   // of the run (0 for a model opened from a file)
    int epochs = 0;            // planned epochs of the run
    QString origin;            // the data's name, or the file opened
    bool loadedFromFile = false;
};

class View {
    Q_DECLARE_TR_FUNCTIONS(attnlab::View)

public:
    virtual ~View() = default;

    virtual QString viewTitle() const = 0;    // the navigator's label, in the interface language
    virtual QString viewToolTip() const = 0;  // one sentence: what the view shows

    // The model is discarded (Reset, a lesson or the demo starting): forget everything it showed.
    virtual void clearView() {}
    // A training run starts or a model file is opened: forget the previous run's history.
    virtual void runStarted() {}
    // A model is ready (built for training or opened); nullptr when there is none any more.
    virtual void modelChanged(const ModelInfo* model) { (void)model; }
    // Whether a model can answer requests (false while there is none).
    virtual void modelAvailable(bool available) { (void)available; }

    // The heatmap look the View menu sets, for views that draw heatmaps.
    virtual void applyColormap(ColormapId id) { (void)id; }
    virtual void applyShowNumbers(bool on) { (void)on; }

    // The heatmap the View menu's Zoom In / Zoom Out / Fit act on, if the view shows one.
    virtual HeatmapWidget* zoomableHeatmap() const { return nullptr; }

    // What Export Image (PNG, SVG, PDF) and Export Matrix (CSV, NPY) write for this view.
    virtual bool exportsFigure() const { return false; }
    virtual bool exportsMatrix() const { return false; }
    // By the path's extension; false with a one-line message in the interface language.
    virtual bool exportView(const QString& path, double scale, QString* error) const;

protected:
    // The usual export of a view built around one attention panel: its heatmap, or why there is none.
    static bool exportPanel(const AttentionPanel* panel, const QString& path, double scale, QString* error);
    static bool fail(QString* error, const QString& message);
    static bool isMatrixPath(const QString& path);
};

}  // namespace attnlab
