#pragma once
// AttnLab's main window: the setup panel (data, model, training) on the left; Corpus, Translate,
// Probe, Heads, Training-curves and the teaching lab's tabs (Step by Step, Timeline, Diagnostics,
// Compare, Positions, Experiments) in the middle; training controls in the toolbar; progress and ETA
// in the status bar. All LibTorch work happens on the TrainingController's worker thread (and the
// experiments' and comparisons' threads) and all file reading on the CorpusLoader's threads, so the
// window never freezes.
#include "CorpusLoader.h"
#include "TrainingController.h"

#include "Colormap.h"

#include <QMainWindow>
#include <QMessageBox>

#include <functional>

class QAction;
class QActionGroup;
class QFrame;
class QComboBox;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QSortFilterProxyModel;
class QTabWidget;
class QTableView;
class QToolBox;

namespace attnlab {

class CompareView;
class CorpusTableModel;
class DataPanel;
class DiagnosticsView;
class ExperimentsView;
class HeadsView;
class MathsView;
class ModelSettingsWidget;
class PositionalEncodingView;
class ProbeView;
class TimelineView;
class TrainingChartsView;
class TrainingSettingsWidget;
class TranslateView;

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
    // Loads a built-in dataset with settings that train visibly within seconds and starts training.
    void startDemo(const QString& dataset = QStringLiteral("toy-en-zh"));
    // Sets up a lesson (Lessons.h: dataset, model, seed, sentences, view) and starts training it;
    // false for an unknown id. Asks before discarding unsaved training.
    bool startLesson(const QString& id);
    QString currentLesson() const { return lesson_; }
    // "corpus", "translate", "probe", "heads", "curves", "timeline", "maths", "diagnostics", "compare",
    // "positions" or "experiments"; false for an unknown name.
    bool showTab(const QString& name);
    QString currentTabName() const;
    QStringList tabNames() const;  // in tab order
    // "data", "model" or "training": the page of the setup panel to show.
    bool showSetupPage(const QString& name);
    // Writes the figure of the current tab (PNG at scale, SVG, PDF; CSV/NPY for heatmaps).
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
    const LoadedCorpus& corpus() const { return corpus_; }
    bool isLoadingCorpus() const { return loader_->isLoading(); }
    DataPanel* dataPanel() const { return dataPanel_; }
    ModelSettingsWidget* modelSettings() const { return modelSettings_; }
    TrainingSettingsWidget* trainingSettings() const { return trainingSettings_; }
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
    CorpusTableModel* corpusTable() const { return tableModel_; }
    QTabWidget* tabs() const { return tabs_; }
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
    void createActions();
    void createMenus();
    void createToolBar();
    void createStatusBar();
    QWidget* createCorpusTab();
    void connectController();
    void restoreSettings();
    void saveSettings() const;

    void onCorpusLoaded(quint64 id, const LoadedCorpus& loaded);
    void onCorpusFailed(quint64 id, const QString& message, const CorpusSource& source);
    void onStateChanged();
    void onProgress(double fraction, double etaSeconds);
    void onBatch(const BatchReport& report);
    void onEpoch(const EpochMetrics& metrics);
    void onPrepared(const ModelSummary& summary);
    void onModelAvailable();
    void requestTranslation(const QString& sentence, int beam);
    void updateProbe();
    void updateMathsView();  // re-traces the Step by Step view while it is shown
    void updateTitle();
    void updateExportActions();
    void addRecent(const CorpusSource& source);
    void rebuildRecentMenu();
    void reportError(const QString& title, const QString& message);
    QMessageBox::StandardButton ask(const QString& title, const QString& text, QMessageBox::StandardButtons buttons,
                                    QMessageBox::StandardButton defaultButton);
    void stepTraining();
    void resetTraining();
    void discardModel();  // no questions asked: the controller reset and every view cleared

    void openCorpusDialog();
    void openParallelDialog();
    void openModelDialog();
    bool saveModelDialog();
    void exportImageDialog();
    void exportMatrixDialog();
    void exportAllHeadsDialog();
    void showAbout();

    TrainingController* controller_;
    CorpusLoader* loader_;
    LoadedCorpus corpus_;
    quint64 loadId_ = 0;
    bool startWhenLoaded_ = false;
    bool closeAfterSave_ = false;
    bool shuttingDown_ = false;
    quint64 translateRequest_ = 0;
    quint64 traceRequest_ = 0;
    QString modelPath_;   // where the current model was saved or loaded from
    QString lastDirectory_;
    ColormapId colormap_ = ColormapId::Viridis;
    bool showNumbers_ = false;
    ErrorReporter errorReporter_;
    Prompt prompt_;

    QString lesson_;
    QFrame* lessonBar_;
    QLabel* lessonText_;
    QToolBox* setup_;
    DataPanel* dataPanel_;
    ModelSettingsWidget* modelSettings_;
    TrainingSettingsWidget* trainingSettings_;
    QTabWidget* tabs_;
    CorpusTableModel* tableModel_;
    QSortFilterProxyModel* tableFilter_;
    QTableView* table_;
    QLineEdit* tableSearch_;
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
    QComboBox* colormapBox_;

    QAction* openCorpusAction_;
    QAction* openParallelAction_;
    QAction* openModelAction_;
    QAction* saveModelAction_;
    QAction* saveModelAsAction_;
    QAction* exportImageAction_;
    QAction* exportMatrixAction_;
    QAction* exportHeadsAction_;
    QAction* quitAction_;
    QAction* startAction_;
    QAction* pauseAction_;
    QAction* resumeAction_;
    QAction* stepAction_;
    QAction* stopAction_;
    QAction* resetAction_;
    QAction* numbersAction_;
    QAction* zoomInAction_;
    QAction* zoomOutAction_;
    QAction* zoomResetAction_;
    QAction* logScaleAction_;
    QActionGroup* colormapGroup_;
    QActionGroup* languageGroup_;
    QMenu* recentMenu_;
    QStringList recent_;
};

}  // namespace attnlab
