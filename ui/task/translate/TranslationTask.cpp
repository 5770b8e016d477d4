#include "task/translate/TranslationTask.h"

#include "base/TaskIds.h"
#include "base/translation/ModelConfig.h"
#include "task/translate/Lessons.h"
#include "task/translate/DataPanel.h"
#include "task/translate/ModelSettingsWidget.h"
#include "task/translate/TrainingSettingsWidget.h"
#include "task/LessonSetup.h"
#include "task/TaskSupport.h"
#include "task/translate/RecentFiles.h"
#include "task/translate/TranslationRun.h"
#include "views/ViewNavigator.h"
#include "widgets/WidgetStyle.h"
#include "views/attribution/AttributionView.h"
#include "views/compare/CompareView.h"
#include "views/decoding/DecodingView.h"
#include "views/corpus/CorpusView.h"
#include "views/translate/TranslationCurvesView.h"
#include "views/diagnostics/DiagnosticsView.h"
#include "views/experiments/ExperimentsView.h"
#include "views/heads/HeadsView.h"
#include "views/heads/ImportanceView.h"
#include "views/heads/ProjectorView.h"
#include "views/maths/MathsView.h"
#include "views/positions/PositionalEncodingView.h"
#include "views/timeline/TimelineView.h"
#include "views/translate/ProbeView.h"
#include "views/translate/TranslateView.h"

#include <QAction>
#include <QDir>
#include <QEventLoop>
#include <QFileDialog>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QProgressBar>
#include <QSettings>
#include <QStandardPaths>
#include <QStyle>
#include <QToolBox>

#include <cmath>
#include <iterator>

namespace attnlab {

namespace {

constexpr int kShutdownTimeoutMs = 5000;

QString formatDuration(double seconds) {
    const long long s = std::llround(seconds);
    if (s >= 3600) return QStringLiteral("%1:%2:%3").arg(s / 3600).arg(s / 60 % 60, 2, 10, QLatin1Char('0'))
                                                   .arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

QString humanCount(std::int64_t n) {
    if (n >= 1000000) return QStringLiteral("%1 M").arg(static_cast<double>(n) / 1e6, 0, 'f', 2);
    if (n >= 1000) return QStringLiteral("%1 k").arg(static_cast<double>(n) / 1e3, 0, 'f', 1);
    return QString::number(n);
}

QString architectureName(const ModelConfig& c) {
    if (c.architecture == Architecture::Transformer)
        return TranslationTask::tr("Transformer (%1 layers, %2 heads)").arg(c.layers).arg(c.heads);
    return TranslationTask::tr("GRU with %1 attention").arg(QString::fromStdString(toString(c.attention)));
}

// What the views are told of a translation model.
ModelInfo modelInfoOf(const ModelSummary& s) {
    ModelInfo m;
    const bool transformer = s.config.architecture == Architecture::Transformer;
    m.task = QString::fromLatin1(tasks::kTranslate);
    m.architecture = transformer ? QStringLiteral("transformer") : QStringLiteral("gru");
    m.layers = transformer ? s.config.layers : 0;
    m.heads = transformer ? s.config.heads : 1;
    m.width = s.config.hidden;
    m.maxPositions = transformer ? s.config.maxLength : 0;
    m.parameters = s.parameters;
    m.batchesPerEpoch = s.batchesPerEpoch;
    m.epochs = s.epochs;
    m.origin = s.origin;
    m.loadedFromFile = s.loadedFromFile;
    return m;
}

}  // namespace

TranslationTask::TranslationTask(const TaskContext& context) : Task(context) {
    session_ = new TranslationSession(this);
    dataPanel_ = new DataPanel;
    modelSettings_ = new ModelSettingsWidget;
    trainingSettings_ = new TrainingSettingsWidget;
    QStyle* style = windowWidget()->style();
    setup_ = new QToolBox;
    setup_->addItem(TaskSupport::scrollPage(dataPanel_), style->standardIcon(QStyle::SP_DriveHDIcon), tr("Data"));
    setup_->addItem(TaskSupport::scrollPage(modelSettings_), style->standardIcon(QStyle::SP_ComputerIcon), tr("Model"));
    setup_->addItem(TaskSupport::scrollPage(trainingSettings_), style->standardIcon(QStyle::SP_MediaPlay),
                    tr("Training"));
    page_ = setup_;
    createActions();
    createViews();
    createStatusWidgets();

    TranslationRun::Parts parts;
    parts.controller = session_;
    parts.data = dataPanel_;
    parts.model = modelSettings_;
    parts.training = trainingSettings_;
    parts.navigator = navigator();
    parts.corpus = corpusView_;
    parts.translate = translateView_;
    parts.probe = probeView_;
    parts.heads = headsView_;
    parts.compare = compareView_;
    parts.decoding = decodingView_;
    parts.charts = chartsView_;
    const TaskHooks& h = hooks();
    runner_ = new TranslationRun(parts, h.ask, h.reportError, h.status, this);
    recent_ = new RecentFiles(recentMenu_, this);

    connectActions();
    connectController();
    connectViews();
    connectInterpretability();
    onStateChanged();
}

TranslationTask::~TranslationTask() { session_->shutdown(kShutdownTimeoutMs); }

QString TranslationTask::id() const { return QString::fromLatin1(tasks::kTranslate); }

QString TranslationTask::title() const { return tr("Translation"); }

QString TranslationTask::summary() const {
    return tr("Sequence to sequence: a GRU encoder-decoder with classic attention, or a Transformer, translating "
              "a parallel corpus.");
}

void TranslationTask::createActions() {
    QStyle* s = windowWidget()->style();
    openCorpus_ = makeAction(this, s->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open Corpus…"),
                             QKeySequence::Open, tr("Open a TSV corpus: one source<TAB>target pair per line"));
    openCorpus_->setIconText(tr("Open Corpus…"));
    openParallel_ = makeAction(this, s->standardIcon(QStyle::SP_DirOpenIcon), tr("Open &Aligned Files…"), {},
                               tr("Open two line-aligned files, e.g. train.en and train.fr"));
    recentMenu_ = new QMenu(tr("Open &Recent"), windowWidget());
    exportHeads_ = makeAction(this, QIcon(), tr("Export All &Heads…"), {},
                              tr("Write one file per attention head into a folder"));
    logScale_ = makeAction(this, QIcon(), tr("&Logarithmic Loss Axis"));
    logScale_->setCheckable(true);
}

QList<QAction*> TranslationTask::fileActions() const {
    return {openCorpus_, openParallel_, recentMenu_->menuAction(), exportHeads_};
}

QList<QAction*> TranslationTask::toolBarActions() const {
    return {openCorpus_};
}

QList<QAction*> TranslationTask::viewActions() const { return {logScale_}; }

QList<QWidget*> TranslationTask::statusWidgets() const { return {stateLabel_, epochLabel_, progress_, etaLabel_}; }

void TranslationTask::createViews() {
    corpusView_ = new CorpusView;
    translateView_ = new TranslateView;
    probeView_ = new ProbeView;
    headsView_ = new HeadsView;
    importanceView_ = new ImportanceView;
    projectorView_ = new ProjectorView;
    chartsView_ = new TranslationCurvesView;
    timelineView_ = new TimelineView;
    mathsView_ = new MathsView;
    diagnosticsView_ = new DiagnosticsView;
    positionsView_ = new PositionalEncodingView;
    compareView_ = new CompareView(session_);
    decodingView_ = new DecodingView(session_);
    experimentsView_ = new ExperimentsView;
    // The name is what --tab, lessons and showTab() accept.
    ViewNavigator* n = navigator();
    const QString task = id();
    n->addView(ViewGroup::Data, QStringLiteral("corpus"), corpusView_, task);
    n->addView(ViewGroup::Watch, QStringLiteral("translate"), translateView_, task);
    n->addView(ViewGroup::Watch, QStringLiteral("probe"), probeView_, task);
    n->addView(ViewGroup::Watch, QStringLiteral("heads"), headsView_, task);
    // In Watch, not Explain: eight Explain tabs would not fit 1024 px with large fonts.
    n->addView(ViewGroup::Watch, QStringLiteral("projector"), projectorView_, task);
    n->addView(ViewGroup::Watch, QStringLiteral("curves"), chartsView_, task);
    n->addView(ViewGroup::Watch, QStringLiteral("timeline"), timelineView_, task);
    n->addView(ViewGroup::Explain, QStringLiteral("maths"), mathsView_, task);
    n->addView(ViewGroup::Explain, QStringLiteral("diagnostics"), diagnosticsView_, task);
    n->addView(ViewGroup::Explain, QStringLiteral("head-importance"), importanceView_, task);
    n->addView(ViewGroup::Explain, QStringLiteral("positions"), positionsView_, task);
    n->addView(ViewGroup::Explain, QStringLiteral("compare"), compareView_, task);
    n->addView(ViewGroup::Explain, QStringLiteral("attribution"), new AttributionView(session_), task);
    n->addView(ViewGroup::Experiments, QStringLiteral("experiments"), experimentsView_, task);
    // In Experiments: a seventh Explain tab would not fit 1024 px with large fonts.
    n->addView(ViewGroup::Experiments, QStringLiteral("decoding"), decodingView_, task);
}

void TranslationTask::createStatusWidgets() {
    stateLabel_ = new QLabel;
    stateLabel_->setMinimumWidth(90);
    epochLabel_ = new QLabel;
    progress_ = new QProgressBar;
    progress_->setRange(0, 1000);
    progress_->setTextVisible(true);
    progress_->setFixedWidth(220);
    progress_->setFormat(QStringLiteral("%p%"));
    etaLabel_ = new QLabel;
    etaLabel_->setMinimumWidth(110);
}

bool TranslationTask::showSetupPart(const QString& name) {
    const char* const pages[] = {"data", "model", "training"};
    for (int i = 0; i < static_cast<int>(std::size(pages)); ++i) {
        if (name.compare(QLatin1String(pages[i]), Qt::CaseInsensitive) == 0) {
            setup_->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

void TranslationTask::activate() {
    // A corpus is ready at once, so Start works on first launch.
    if (!runner_->corpus().corpus && !runner_->isLoadingCorpus()) loadCorpus(dataPanel_->datasetSource());
}

void TranslationTask::connectActions() {
    connect(openCorpus_, &QAction::triggered, this, &TranslationTask::openCorpusDialog);
    connect(openParallel_, &QAction::triggered, this, &TranslationTask::openParallelDialog);
    connect(exportHeads_, &QAction::triggered, this, &TranslationTask::exportAllHeadsDialog);
    connect(logScale_, &QAction::toggled, chartsView_, &TranslationCurvesView::setLogScale);
    connect(recent_, &RecentFiles::openTsv, this, &TranslationTask::openCorpusFile);
    connect(recent_, &RecentFiles::openParallel, this, &TranslationTask::openParallelFiles);
}

void TranslationTask::connectController() {
    connect(session_, &TranslationSession::stateChanged, this, &TranslationTask::onStateChanged);
    connect(session_, &TranslationSession::progressChanged, this, &TranslationTask::onProgress);
    connect(session_, &TranslationSession::prepared, this, &TranslationTask::onPrepared);
    connect(session_, &TranslationSession::batchTrained, this, &TranslationTask::onBatch);
    connect(session_, &TranslationSession::epochFinished, this, &TranslationTask::onEpoch);
    connect(session_, &TranslationSession::probeUpdated, probeView_, &ProbeView::setResult);
    connect(session_, &TranslationSession::probeUpdated, diagnosticsView_, &DiagnosticsView::setProbe);
    connect(session_, &TranslationSession::probeUpdated, timelineView_, &TimelineView::addSnapshot);
    connect(session_, &TranslationSession::probeUpdated, this, &TranslationTask::actionsChanged);  // the Probe view's exports
    connect(session_, &TranslationSession::modifiedChanged, this, &TranslationTask::titleChanged);
    connect(session_, &TranslationSession::finished, this, [this](bool stopped) {
        hooks().status(stopped ? tr("Training stopped; the model is kept for translation and saving.")
                               : tr("Training finished."),
                       8000);
    });
    connect(session_, &TranslationSession::diverged, this, [this](int epoch, int batch, const QString& message) {
        hooks().reportError(
            tr("Training Diverged"),
            tr("Training diverged at epoch %1, batch %2: the loss or a gradient became infinite or NaN.\n\n"
               "The weights from before that batch are kept: you can still translate with them and save "
               "them. A lower learning rate or gradient clipping usually helps.\n\n%3")
                .arg(epoch)
                .arg(batch)
                .arg(message));
    });
    connect(session_, &TranslationSession::failed, this, [this](const QString& message) {
        hooks().reportError(tr("Training Failed"), tr("Training could not go on:\n\n%1").arg(message));
        onModelAvailable();
    });
    connect(session_, &TranslationSession::translated, this, [this](quint64 id, const Translation& t) {
        if (id == editRequest_) {  // the Translate view's token edit
            translateView_->setEditedTranslation(t);
            Q_EMIT actionsChanged();
            return;
        }
        if (!runner_->isCurrentTranslation(id)) return;  // a newer request is on its way
        translateView_->setTranslation(t);
        headsView_->setTranslation(t);
        diagnosticsView_->setTranslation(t);
        Q_EMIT actionsChanged();
    });
    connect(session_, &TranslationSession::translationFailed, this, [this](quint64 id, const QString& message) {
        if (id == ablationRequest_) {
            headsView_->setAblationFailed(message);
            return;
        }
        if (id == editRequest_) {
            translateView_->setError(message);
            return;
        }
        if (!runner_->isCurrentTranslation(id)) return;
        translateView_->setError(message);
        hooks().status(message, 8000);
    });
    connect(session_, &TranslationSession::modelSaved, this, [this](const QString& path) {
        runner_->setModelPath(path);
        hooks().status(tr("Saved the model to %1").arg(QDir::toNativeSeparators(path)), 8000);
        Q_EMIT titleChanged();
    });
    connect(session_, &TranslationSession::saveFailed, this, [this](const QString& message) {
        hooks().reportError(tr("Cannot Save Model"), tr("The model was not saved:\n\n%1").arg(message));
    });
    connect(session_, &TranslationSession::modelLoaded, this, &TranslationTask::onModelLoaded);
    connect(session_, &TranslationSession::loadFailed, this, [this](const QString& message) {
        hooks().reportError(
            tr("Cannot Open Model"),
            tr("The model file could not be used:\n\n%1\n\nThe current model stays loaded.").arg(message));
    });
    // Step by Step: starts from the Translate view's sentence, and follows the model while it is shown.
    connect(session_, &TranslationSession::traced, this, [this](quint64 id, const AttentionTrace& t) {
        if (id == traceRequest_) mathsView_->setTrace(t);
    });
    connect(session_, &TranslationSession::traceFailed, this, [this](quint64 id, const QString& message) {
        if (id == traceRequest_) mathsView_->setError(message);
    });
    connect(session_, &TranslationSession::epochFinished, this, &TranslationTask::updateMathsView);
    connect(session_, &TranslationSession::tokenExplained, this, &TranslationTask::actionsChanged);
}

void TranslationTask::connectViews() {
    connect(runner_, &TranslationRun::corpusLoaded, this, &TranslationTask::corpusLoaded);
    connect(runner_, &TranslationRun::corpusLoaded, this, &TranslationTask::dataReady);
    connect(runner_, &TranslationRun::corpusFailed, this, &TranslationTask::corpusFailed);
    connect(runner_, &TranslationRun::corpusFileLoaded, recent_, &RecentFiles::add);
    connect(runner_, &TranslationRun::titleChanged, this, &TranslationTask::titleChanged);
    connect(runner_, &TranslationRun::modelDiscarded, this, [this] {
        onModelAvailable();
        Q_EMIT titleChanged();
    });
    connect(runner_, &TranslationRun::lessonStarted, this, &TranslationTask::lessonStarted);
    connect(dataPanel_, &DataPanel::generateRequested, this, &TranslationTask::loadCorpus);
    connect(dataPanel_, &DataPanel::openTsvRequested, this, &TranslationTask::openCorpusDialog);
    connect(dataPanel_, &DataPanel::openParallelRequested, this, &TranslationTask::openParallelDialog);
    connect(dataPanel_, &DataPanel::reloadRequested, this, &TranslationTask::loadCorpus);
    connect(corpusView_, &CorpusView::sentenceChosen, this, [this](const QString& sentence) {
        translateView_->setSentence(sentence);
        headsView_->setSentence(sentence);
        navigator()->show(QStringLiteral("translate"));
        if (session_->hasModel()) runner_->translate(sentence, translateView_->beam());
    });
    connect(translateView_, &TranslateView::translateRequested, runner_, &TranslationRun::translate);
    connect(headsView_, &HeadsView::translateRequested, this,
            [this](const QString& sentence, int) { runner_->translate(sentence, translateView_->beam()); });
    connect(translateView_, &TranslateView::editRequested, this, [this](const QStringList& words, int beam) {
        if (session_->hasModel()) editRequest_ = session_->translateWords(words, beam);
    });
    connect(probeView_, &ProbeView::probeChanged, runner_, &TranslationRun::updateProbe);
    connect(mathsView_, &MathsView::traceRequested, this, [this](const QString& sentence, const TraceRequest& r) {
        traceRequest_ = session_->trace(sentence, r);
    });
    connect(compareView_, &CompareView::loadFailed, this,
            [this](int, const QString& message) { hooks().reportError(tr("Cannot Open Model"), message); });
    connect(navigator(), &ViewNavigator::currentChanged, this, &TranslationTask::updateMathsView);
}

// ---- corpus, model and training ---------------------------------------------------------------------

void TranslationTask::openCorpusFile(const QString& path) { loadCorpus(CorpusSource::tsv(path)); }

void TranslationTask::openParallelFiles(const QString& sourcePath, const QString& targetPath) {
    loadCorpus(CorpusSource::parallel(sourcePath, targetPath));
}

void TranslationTask::loadCorpus(const CorpusSource& source) { runner_->loadCorpus(source); }

const LoadedCorpus& TranslationTask::corpus() const { return runner_->corpus(); }

bool TranslationTask::isLoadingCorpus() const { return runner_->isLoadingCorpus(); }

CorpusTableModel* TranslationTask::corpusTable() const { return corpusView_->table(); }

void TranslationTask::startTraining(bool paused) { runner_->start(paused); }

RunState TranslationTask::runState() const {
    using State = TranslationSession::State;
    const State state = session_->state();
    RunState s;
    s.pausable = true;
    s.paused = state == State::Paused;
    s.start = s.paused || !session_->isActive();
    s.pause = state == State::Running;
    s.step = state != State::Running;
    s.stop = session_->isActive();
    s.reset = state != State::Running;
    return s;
}

void TranslationTask::run(RunCommand command) {
    switch (command) {
    case RunCommand::Start:
        if (session_->state() == TranslationSession::State::Paused) {
            session_->resume();
        } else {
            startTraining(false);
        }
        break;
    case RunCommand::Pause: session_->pause(); break;
    case RunCommand::Step: runner_->step(); break;
    case RunCommand::Stop: session_->stop(); break;
    case RunCommand::Reset: runner_->reset(); break;
    }
}

bool TranslationTask::startDemo(const QString& dataset) {
    runner_->startDemo(dataset);
    return true;
}

QString TranslationTask::lesson() const { return runner_->lesson(); }

ModelSession* TranslationTask::modelSession() const { return session_; }

bool TranslationTask::hasModel() const { return session_->hasModel(); }

bool TranslationTask::isModified() const { return session_->isModified(); }

bool TranslationTask::isBusy() const { return session_->isActive(); }

void TranslationTask::openCorpusDialog() {
    const QString path =
        QFileDialog::getOpenFileName(windowWidget(), tr("Open Corpus"), lastDirectory(),
                                     tr("Tab-separated corpora (*.tsv *.txt *.tab);;All files (*)"));
    if (path.isEmpty()) return;
    lastDirectory() = QFileInfo(path).absolutePath();
    openCorpusFile(path);
}

void TranslationTask::openParallelDialog() {
    const QString source = QFileDialog::getOpenFileName(windowWidget(), tr("Open the Source-Language File"),
                                                        lastDirectory(), tr("Text files (*)"));
    if (source.isEmpty()) return;
    lastDirectory() = QFileInfo(source).absolutePath();
    const QString target = QFileDialog::getOpenFileName(
        windowWidget(),
        tr("Open the Target-Language File (line by line aligned with %1)").arg(QFileInfo(source).fileName()),
        lastDirectory(), tr("Text files (*)"));
    if (target.isEmpty()) return;
    openParallelFiles(source, target);
}

void TranslationTask::openModelFile(const QString& path) {
    if (session_->isActive()) {
        hooks().reportError(tr("Cannot Open Model"), tr("Stop the training run before opening another model."));
        return;
    }
    hooks().status(tr("Opening %1…").arg(QFileInfo(path).fileName()), 0);
    session_->loadModel(path);
}

void TranslationTask::openModelDialog() {
    const QString path = TaskSupport::askOpenModelPath(windowWidget(), tr("Open Model"), lastDirectory());
    if (path.isEmpty()) return;
    openModelFile(path);
}

void TranslationTask::saveModelTo(const QString& path) {
    if (!session_->hasModel()) {
        hooks().reportError(tr("Cannot Save Model"), tr("There is no model yet: train one first."));
        return;
    }
    hooks().status(tr("Saving %1…").arg(QFileInfo(path).fileName()), 0);
    session_->saveModel(path);
}

void TranslationTask::saveModel() {
    const QString path = runner_->modelPath();
    if (path.isEmpty() || !path.endsWith(QLatin1String(".safetensors"))) {
        saveModelDialog();
    } else {
        saveModelTo(path);
    }
}

void TranslationTask::saveModelAs() { saveModelDialog(); }

bool TranslationTask::saveModelDialog() {
    const LoadedCorpus& loaded = runner_->corpus();
    const QString current = runner_->modelPath();
    const QString name =
        (loaded.corpus ? loaded.source.displayName().section(QLatin1Char('.'), 0, 0) : QStringLiteral("model")) +
        QStringLiteral(".safetensors");
    const QString path = TaskSupport::askSaveModelPath(windowWidget(), tr("Save Model"), lastDirectory(),
                                                       current.isEmpty() ? name : current);
    if (path.isEmpty()) return false;
    saveModelTo(path);
    return true;
}

void TranslationTask::exportAllHeadsDialog() {
    if (!headsView_->showsTransformer() && !headsView_->showsGru()) {
        hooks().reportError(tr("Export Failed"),
                            tr("Translate a sentence first (Heads view): there are no heads to export."));
        return;
    }
    const QString directory =
        QFileDialog::getExistingDirectory(windowWidget(), tr("Export All Heads Into"), lastDirectory());
    if (directory.isEmpty()) return;
    lastDirectory() = directory;
    bool ok = false;
    const QStringList formats{QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf"),
                              QStringLiteral("csv"), QStringLiteral("npy")};
    const QString format =
        QInputDialog::getItem(windowWidget(), tr("Export All Heads"), tr("File format:"), formats, 0, false, &ok);
    if (!ok) return;
    QStringList written;
    QString error;
    if (headsView_->exportAllHeads(directory, format, 2.0, &written, &error)) {
        hooks().status(tr("Wrote %1 files to %2").arg(written.size()).arg(QDir::toNativeSeparators(directory)), 8000);
    } else {
        hooks().reportError(tr("Export Failed"), error);
    }
}

void TranslationTask::onModelLoaded(const ModelSummary& summary) {
    runner_->setModelPath(summary.origin);
    const ModelInfo info = modelInfoOf(summary);
    for (View* view : navigator()->viewsOf(id())) {
        view->runStarted();
        view->modelChanged(&info);
    }
    modelSettings_->setConfig(summary.config);
    hooks().status(tr("Opened %1: %2, %3 parameters")
                       .arg(QFileInfo(summary.origin).fileName(), architectureName(summary.config),
                            humanCount(summary.parameters)),
                   10000);
    onStateChanged();
    onModelAvailable();
    runner_->updateProbe();
    Q_EMIT titleChanged();
}

void TranslationTask::onPrepared(const ModelSummary& s) {
    const ModelInfo info = modelInfoOf(s);
    for (View* view : navigator()->viewsOf(id())) view->modelChanged(&info);
    QString message = tr("Training %1, %2 parameters, on %3 pairs (validating on %4)")
                          .arg(architectureName(s.config), humanCount(s.parameters))
                          .arg(s.trainingPairs)
                          .arg(s.validationPairs);
    if (s.skippedTooLong > 0)
        message += tr("; skipped %1 pairs longer than the maximum length").arg(s.skippedTooLong);
    hooks().status(message, 15000);
    onModelAvailable();  // translates the sentence in the Translate view with the new model
}

void TranslationTask::onModelAvailable() {
    const bool available = session_->hasModel() || session_->isPreparing();
    for (View* view : navigator()->viewsOf(id())) view->modelAvailable(available);
    runner_->translateCurrentSentence();
    updateMathsView();
    exportHeads_->setEnabled(session_->hasModel());
    Q_EMIT actionsChanged();
}

void TranslationTask::updateMathsView() {
    if (navigator()->currentWidget() != mathsView_ || !session_->hasModel() || session_->isPreparing()) return;
    if (!mathsView_->submittedSentence().isEmpty()) {
        mathsView_->refresh();
    } else if (!translateView_->sentence().trimmed().isEmpty()) {
        mathsView_->setSentence(translateView_->sentence());
        mathsView_->requestTrace();
    }
}

void TranslationTask::onBatch(const BatchReport& r) {
    chartsView_->addBatch(r);
    const ModelSummary& s = session_->summary();
    epochLabel_->setText(tr("Epoch %1/%2 · batch %3/%4").arg(r.epoch).arg(s.epochs).arg(r.batch).arg(r.batchesPerEpoch));
}

void TranslationTask::onEpoch(const TranslationEpochMetrics& m) {
    chartsView_->addEpoch(m);
    hooks().status(tr("Epoch %1: validation loss %2, token accuracy %3%, BLEU %4")
                       .arg(m.epoch)
                       .arg(m.validationLoss, 0, 'f', 3)
                       .arg(100.0 * m.tokenAccuracy, 0, 'f', 1)
                       .arg(m.bleu, 0, 'f', 1),
                   10000);
    if (translateView_->followsTraining() && !translateView_->sentence().trimmed().isEmpty())
        runner_->translate(translateView_->sentence(), translateView_->beam());
}

void TranslationTask::onProgress(double fraction, double etaSeconds) {
    progress_->setValue(static_cast<int>(std::lround(fraction * 1000)));
    if (session_->state() == TranslationSession::State::Running && etaSeconds >= 0) {
        etaLabel_->setText(tr("ETA %1").arg(formatDuration(etaSeconds)));
    } else if (session_->state() != TranslationSession::State::Running) {
        etaLabel_->clear();
    }
}

void TranslationTask::onStateChanged() {
    using State = TranslationSession::State;
    const State state = session_->state();
    const bool active = session_->isActive();
    exportHeads_->setEnabled(session_->hasModel());
    modelSettings_->setEnabled(!active);
    trainingSettings_->setEnabled(!active);
    switch (state) {
    case State::Idle: stateLabel_->setText(session_->hasModel() ? tr("Model ready") : tr("Idle")); break;
    case State::Running: stateLabel_->setText(tr("● Training")); break;
    case State::Paused: stateLabel_->setText(tr("❚❚ Paused")); break;
    case State::Finished: stateLabel_->setText(tr("✓ Finished")); break;
    }
    if (state == State::Idle && !session_->hasModel()) {
        epochLabel_->clear();
        progress_->setValue(0);
    }
    if (state != State::Running) etaLabel_->clear();
    Q_EMIT actionsChanged();
}

QString TranslationTask::titleText() const {
    if (!runner_->modelPath().isEmpty()) return QFileInfo(runner_->modelPath()).fileName();
    const LoadedCorpus& loaded = runner_->corpus();
    return loaded.corpus ? loaded.source.displayName() : tr("no corpus");
}

bool TranslationTask::acceptsDrop(const QStringList& paths) const { return paths.size() == 1 || paths.size() == 2; }

void TranslationTask::openFiles(const QStringList& paths) {
    if (paths.size() == 2) {
        openParallelFiles(paths[0], paths[1]);
    } else if (paths.size() == 1) {
        if (paths[0].endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive)) {
            openModelFile(paths[0]);
        } else {
            openCorpusFile(paths[0]);
        }
    }
}

// ---- closing (the settings: TranslationTaskSetup.cpp) -------------------------------------------------

bool TranslationTask::confirmClose() {
    if (!session_->hasModel() || !session_->isModified()) return true;
    const auto answer = hooks().ask(tr("Save the Model?"),
                                    tr("The model has training that is not saved. Save it before closing?"),
                                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel) return false;
    if (answer != QMessageBox::Save) return true;
    session_->stop();  // nothing may change the weights between saving and closing
    QString path = runner_->modelPath();
    if (!path.endsWith(QLatin1String(".safetensors"))) {
        const LoadedCorpus& loaded = runner_->corpus();
        const QString name =
            (loaded.corpus ? loaded.source.displayName().section(QLatin1Char('.'), 0, 0) : QStringLiteral("model")) +
            QStringLiteral(".safetensors");
        path = TaskSupport::askSaveModelPath(windowWidget(), tr("Save Model"), lastDirectory(), name);
        if (path.isEmpty()) return false;
    }
    // Closing waits for the save: the worker answers after its current batch.
    QEventLoop loop;
    bool saved = false;
    connect(session_, &TranslationSession::modelSaved, &loop, [&] {
        saved = true;
        loop.quit();
    });
    connect(session_, &TranslationSession::saveFailed, &loop, [&] { loop.quit(); });
    saveModelTo(path);
    loop.exec();
    return saved;
}

void TranslationTask::shutdown() {
    experimentsView_->stop();  // winds down while training stops; its destructor joins the thread
    hooks().status(tr("Stopping training…"), 0);
    session_->shutdown(kShutdownTimeoutMs);
}

}  // namespace attnlab
