#pragma once
// The translation task (id "translate"): a parallel corpus, a GRU encoder-decoder or a Transformer
// trained on it by the TranslationSession's worker, and the teaching lab's views (Corpus, Translate,
// Live Probe, Heads, Curves, Timeline, Step by Step, Diagnostics, Positions, Compare, Attribution,
// Experiments). Its setup page is the Data / Model / Training tool box; its own actions are Open
// Corpus, Open Aligned Files, Open Recent, Export All Heads, the Training menu and toolbar (Start,
// Pause, Step, Stop, Reset) and the logarithmic loss axis; its status-bar parts show the run's
// state, epoch, progress and ETA. TranslationRun does the corpus, run and lesson work; this class
// wires it to the views and the window.
#include "task/translate/CorpusLoader.h"
#include "task/translate/TranslationSession.h"
#include "task/Task.h"

class QAction;
class QLabel;
class QMenu;
class QProgressBar;
class QToolBox;

namespace attnlab {

class CompareView;
class DecodingView;
class CorpusTableModel;
class CorpusView;
class DataPanel;
class DiagnosticsView;
class ExperimentsView;
class HeadsView;
class ImportanceView;
class ProjectorView;
class MathsView;
class ModelSettingsWidget;
class PositionalEncodingView;
class ProbeView;
class RecentFiles;
class TimelineView;
class TranslationCurvesView;
class TranslationRun;
class TrainingSettingsWidget;
class TranslateView;

class TranslationTask : public Task {
    Q_OBJECT

public:
    explicit TranslationTask(const TaskContext& context);
    ~TranslationTask() override;

    // Task
    QString id() const override;
    QString title() const override;
    QString summary() const override;
    QWidget* setupPage() const override { return page_; }
    bool showSetupPart(const QString& name) override;  // "data", "model", "training"
    QString defaultView() const override { return QStringLiteral("translate"); }
    void activate() override;
    QList<QAction*> fileActions() const override;
    QList<QAction*> toolBarActions() const override;
    QList<QAction*> viewActions() const override;
    QList<QWidget*> statusWidgets() const override;
    ModelSession* modelSession() const override;
    bool hasModel() const override;
    bool isModified() const override;
    bool isBusy() const override;
    void openModel(const QString& path) override { openModelFile(path); }
    void openModelDialog() override;
    void saveModel() override;
    void saveModelAs() override;
    QString titleText() const override;
    QList<LessonCard> lessons() const override;
    bool startLesson(const QString& id) override;
    bool startLessonFile(const LessonFile& lesson) override;
    bool setupAsLesson(LessonFile& lesson, QString* why) const override;
    QString lesson() const override;
    bool acceptsDrop(const QStringList& paths) const override;  // a model or a TSV; or two aligned files
    void openFiles(const QStringList& paths) override;
    void restoreSettings(QSettings& settings) override;
    void saveSettings(QSettings& settings) const override;
    bool confirmClose() override;
    void shutdown() override;

    // Loading is asynchronous: corpusLoaded or an error report follows. A corpus that cannot be read
    // leaves the current session untouched.
    void openCorpusFile(const QString& path);
    void openParallelFiles(const QString& sourcePath, const QString& targetPath);
    void loadCorpus(const CorpusSource& source);
    void openModelFile(const QString& path);
    void saveModelTo(const QString& path);
    void startTraining(bool paused = false);
    RunState runState() const override;
    void run(RunCommand command) override;
    // The "heads" lesson (a Transformer that trains visibly within seconds) on a built-in dataset.
    bool startDemo(const QString& dataset = QStringLiteral("toy-en-zh")) override;

    TranslationSession* session() const { return session_; }
    TranslationRun* runner() const { return runner_; }
    const LoadedCorpus& corpus() const;
    bool isLoadingCorpus() const;
    DataPanel* dataPanel() const { return dataPanel_; }
    ModelSettingsWidget* modelSettings() const { return modelSettings_; }
    TrainingSettingsWidget* trainingSettings() const { return trainingSettings_; }
    CorpusView* corpusView() const { return corpusView_; }
    TranslateView* translateView() const { return translateView_; }
    ProbeView* probeView() const { return probeView_; }
    HeadsView* headsView() const { return headsView_; }
    ImportanceView* importanceView() const { return importanceView_; }
    ProjectorView* projectorView() const { return projectorView_; }
    MathsView* mathsView() const { return mathsView_; }
    TranslationCurvesView* chartsView() const { return chartsView_; }
    CompareView* compareView() const { return compareView_; }
    DiagnosticsView* diagnosticsView() const { return diagnosticsView_; }
    PositionalEncodingView* positionsView() const { return positionsView_; }
    TimelineView* timelineView() const { return timelineView_; }
    ExperimentsView* experimentsView() const { return experimentsView_; }
    CorpusTableModel* corpusTable() const;

Q_SIGNALS:
    void corpusLoaded();
    void corpusFailed(const QString& message);

private:
    void createActions();
    void createViews();
    void createStatusWidgets();
    void connectActions();
    void connectController();
    void connectViews();
    void connectInterpretability();  // TranslationTaskInterpretability.cpp

    void onStateChanged();
    void onProgress(double fraction, double etaSeconds);
    void onBatch(const BatchReport& report);
    void onEpoch(const TranslationEpochMetrics& metrics);
    void onPrepared(const ModelSummary& summary);
    void onModelLoaded(const ModelSummary& summary);
    void onModelAvailable();
    void updateMathsView();  // re-traces the Step by Step view while it is shown
    void openCorpusDialog();
    void openParallelDialog();
    bool saveModelDialog();
    void exportAllHeadsDialog();

    TranslationSession* session_;
    TranslationRun* runner_;
    RecentFiles* recent_;
    quint64 traceRequest_ = 0;
    quint64 ablationRequest_ = 0;
    quint64 headsRequest_ = 0;
    quint64 editRequest_ = 0;
    quint64 projectionRequest_ = 0;  // the Projector view's      // the Translate view's token edit     // the Head Importance view's last measurement  // the Heads view's last ablated translation

    QWidget* page_;
    QToolBox* setup_;
    DataPanel* dataPanel_;
    ModelSettingsWidget* modelSettings_;
    TrainingSettingsWidget* trainingSettings_;
    CorpusView* corpusView_;
    TranslateView* translateView_;
    ProbeView* probeView_;
    HeadsView* headsView_;
    ImportanceView* importanceView_;
    ProjectorView* projectorView_;
    MathsView* mathsView_;
    TranslationCurvesView* chartsView_;
    CompareView* compareView_;
    DecodingView* decodingView_;
    DiagnosticsView* diagnosticsView_;
    PositionalEncodingView* positionsView_;
    TimelineView* timelineView_;
    ExperimentsView* experimentsView_;

    QAction* openCorpus_;
    QAction* openParallel_;
    QMenu* recentMenu_;
    QAction* exportHeads_;
    QAction* logScale_;

    QLabel* stateLabel_;
    QLabel* epochLabel_;
    QProgressBar* progress_;
    QLabel* etaLabel_;
};

}  // namespace attnlab
