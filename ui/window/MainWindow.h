#pragma once
// AttnLab's main window: the setup panel (data, model, training) on the left, the views in the
// middle, grouped by the ViewNavigator (Data, Watch, Explain, Experiments), the training controls in
// the toolbar, progress and ETA in the status bar. Its parts are their own classes: WindowActions
// (actions, menus, toolbar), FigureExport (the export dialogs), WindowSettings and RecentFiles (what
// is kept between runs) and TrainingSession (corpus, training run, lessons, translation requests).
// All LibTorch work happens on the TrainingController's worker thread (and the experiments' and
// comparisons' threads) and all file reading on the CorpusLoader's threads, so the window never
// freezes.
#include "session/CorpusLoader.h"
#include "session/TrainingController.h"
#include "window/ViewNavigator.h"

#include "render/Colormap.h"

#include <QMainWindow>
#include <QMessageBox>

#include <functional>

class QComboBox;
class QFrame;
class QLabel;
class QProgressBar;
class QStackedWidget;
class QToolBox;

namespace attnlab {

class ClassifierTask;
class CompareView;
class CorpusTableModel;
class CorpusView;
class DataPanel;
class DiagnosticsView;
class ExperimentsView;
class FigureExport;
class HeadsView;
class HeatmapWidget;
class ImageTask;
class MathsView;
class ModelSettingsWidget;
class PositionalEncodingView;
class ProbeView;
class RecentFiles;
class TimelineView;
class TrainingChartsView;
class TrainingSession;
class TrainingSettingsWidget;
class TranslateView;
class WindowActions;
struct WindowSettings;

class MainWindow : public QMainWindow {
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // The paths menus, drag and drop and tests share. Loading is asynchronous: corpusLoaded or an
    // error report follows. A corpus that cannot be read leaves the current session untouched.
    void openCorpusFile(const QString& path);
    void openParallelFiles(const QString& sourcePath, const QString& targetPath);
    void loadCorpus(const CorpusSource& source);
    void openModelFile(const QString& path);
    void saveModelTo(const QString& path);
    void startTraining(bool paused = false);
    // The "heads" lesson (a Transformer that trains visibly within seconds) on a built-in dataset.
    void startDemo(const QString& dataset = QStringLiteral("toy-en-zh"));
    // Sets up a lesson (Lessons.h: dataset, model, seed, sentences, view) and starts training it;
    // false for an unknown id. Asks before discarding unsaved training.
    bool startLesson(const QString& id);
    QString currentLesson() const;
    // The views by name: translation's "corpus", "translate", "probe", "heads", "curves", "timeline",
    // "maths", "diagnostics", "compare", "positions", "attribution", "experiments"; text classification's "texts",
    // "classify", "class-curves", "explain", "needle"; the Images task's "image", "image-curves" (a view
    // of another task switches the task first); false for an unknown name.
    bool showTab(const QString& name);
    QString currentTabName() const;
    QStringList tabNames() const;  // the current task's, in navigation order
    ViewNavigator* navigator() const { return navigator_; }
    QComboBox* taskChooser() const { return task_; }
    // "data", "model" or "training": the page of the setup panel to show.
    bool showSetupPage(const QString& name);
    // Writes the figure of the current view (PNG at scale, SVG, PDF; CSV/NPY for heatmaps).
    bool exportCurrentView(const QString& path, double scale, QString* error);

    // Errors that need the user's attention; a message box by default (tests record them instead).
    using ErrorReporter = std::function<void(const QString& title, const QString& message)>;
    void setErrorReporter(ErrorReporter reporter);
    // Questions before unsaved training is discarded (close: Save, Discard or Cancel; a new run or
    // reset: Discard or Cancel), and the notice that a new language applies at the next start (Ok).
    // A message box by default; tests answer them instead.
    using Prompt = std::function<QMessageBox::StandardButton(const QString& title, const QString& text,
                                                             QMessageBox::StandardButtons buttons)>;
    void setPrompt(Prompt prompt);

    TrainingController* controller() const { return controller_; }
    const LoadedCorpus& corpus() const;
    bool isLoadingCorpus() const;
    DataPanel* dataPanel() const { return dataPanel_; }
    ModelSettingsWidget* modelSettings() const { return modelSettings_; }
    TrainingSettingsWidget* trainingSettings() const { return trainingSettings_; }
    CorpusView* corpusView() const { return corpusView_; }
    TranslateView* translateView() const { return translateView_; }
    ProbeView* probeView() const { return probeView_; }
    HeadsView* headsView() const { return headsView_; }
    MathsView* mathsView() const { return mathsView_; }
    TrainingChartsView* chartsView() const { return chartsView_; }
    CompareView* compareView() const { return compareView_; }
    DiagnosticsView* diagnosticsView() const { return diagnosticsView_; }
    PositionalEncodingView* positionsView() const { return positionsView_; }
    TimelineView* timelineView() const { return timelineView_; }
    ExperimentsView* experimentsView() const { return experimentsView_; }
    ClassifierTask* classifier() const { return classifier_; }
    ImageTask* images() const { return images_; }
    CorpusTableModel* corpusTable() const;
    ColormapId colormap() const { return colormap_; }
    void setColormap(ColormapId id);
    void setShowNumbers(bool on);
    // Stores the interface language ("" follows the system; else a Translations::available() code)
    // and says that it applies at the next start.
    void setLanguage(const QString& language);

    static QIcon applicationIcon();

Q_SIGNALS:
    void corpusLoaded();
    void corpusFailed(const QString& message);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void createViews();
    void switchTask(const QString& id);  // a Tasks::all() id: its setup page, views and actions
    WindowSettings windowSettings();  // the settings kept between runs, and where they live
    QWidget* createLessonBar();
    void createStatusBar();
    void connectActions();
    void connectController();
    void connectViews();

    void onStateChanged();
    void onProgress(double fraction, double etaSeconds);
    void onBatch(const BatchReport& report);
    void onEpoch(const EpochMetrics& metrics);
    void onPrepared(const ModelSummary& summary);
    void onModelLoaded(const ModelSummary& summary);
    void onModelAvailable();
    void updateMathsView();  // re-traces the Step by Step view while it is shown
    void updateTitle();
    void updateExportActions();
    HeatmapWidget* currentHeatmap() const;
    void reportError(const QString& title, const QString& message);
    void showStatus(const QString& message, int timeoutMs);
    QMessageBox::StandardButton ask(const QString& title, const QString& text, QMessageBox::StandardButtons buttons,
                                    QMessageBox::StandardButton defaultButton);

    void openCorpusDialog();
    void openParallelDialog();
    void openModelDialog();
    bool saveModelDialog();
    void showAbout();

    TrainingController* controller_;
    TrainingSession* session_;
    WindowActions* actions_;
    FigureExport* export_;
    RecentFiles* recent_;
    ViewNavigator* navigator_;
    quint64 traceRequest_ = 0;
    bool closeAfterSave_ = false;
    bool shuttingDown_ = false;
    QString lastDirectory_;
    ColormapId colormap_ = ColormapId::Viridis;
    bool showNumbers_ = false;
    ErrorReporter errorReporter_;
    Prompt prompt_;

    QComboBox* task_;
    QFrame* lessonBar_;
    QLabel* lessonText_;
    QToolBox* setup_;
    QStackedWidget* setupStack_;
    ClassifierTask* classifier_;
    ImageTask* images_;
    DataPanel* dataPanel_;
    ModelSettingsWidget* modelSettings_;
    TrainingSettingsWidget* trainingSettings_;
    CorpusView* corpusView_;
    TranslateView* translateView_;
    ProbeView* probeView_;
    HeadsView* headsView_;
    MathsView* mathsView_;
    TrainingChartsView* chartsView_;
    CompareView* compareView_;
    DiagnosticsView* diagnosticsView_;
    PositionalEncodingView* positionsView_;
    TimelineView* timelineView_;
    ExperimentsView* experimentsView_;

    QLabel* stateLabel_;
    QLabel* epochLabel_;
    QProgressBar* progress_;
    QLabel* etaLabel_;
};

}  // namespace attnlab
