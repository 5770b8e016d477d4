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
#include "task/translate/TrainingSession.h"
#include "views/ViewNavigator.h"
#include "widgets/WidgetStyle.h"
#include "views/attribution/AttributionView.h"
#include "views/compare/CompareView.h"
#include "views/decoding/DecodingView.h"
#include "views/corpus/CorpusView.h"
#include "views/curves/TrainingChartsView.h"
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
    controller_ = new TrainingController(this);
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

    TrainingSession::Parts parts;
    parts.controller = controller_;
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
    session_ = new TrainingSession(parts, h.ask, h.reportError, h.status, this);
    recent_ = new RecentFiles(recentMenu_, this);

    connectActions();
    connectController();
    connectViews();
    connectInterpretability();
    onStateChanged();
}

TranslationTask::~TranslationTask() { controller_->shutdown(kShutdownTimeoutMs); }

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
    chartsView_ = new TrainingChartsView;
    timelineView_ = new TimelineView;
    mathsView_ = new MathsView;
    diagnosticsView_ = new DiagnosticsView;
    positionsView_ = new PositionalEncodingView;
    compareView_ = new CompareView(controller_);
    decodingView_ = new DecodingView(controller_);
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
    n->addView(ViewGroup::Explain, QStringLiteral("attribution"), new AttributionView(controller_), task);
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
    if (!session_->corpus().corpus && !session_->isLoadingCorpus()) loadCorpus(dataPanel_->datasetSource());
}

void TranslationTask::connectActions() {
    connect(openCorpus_, &QAction::triggered, this, &TranslationTask::openCorpusDialog);
    connect(openParallel_, &QAction::triggered, this, &TranslationTask::openParallelDialog);
    connect(exportHeads_, &QAction::triggered, this, &TranslationTask::exportAllHeadsDialog);
    connect(logScale_, &QAction::toggled, chartsView_, &TrainingChartsView::setLogScale);
    connect(recent_, &RecentFiles::openTsv, this, &TranslationTask::openCorpusFile);
    connect(recent_, &RecentFiles::openParallel, this, &TranslationTask::openParallelFiles);
}

void TranslationTask::connectController() {
    connect(controller_, &TrainingController::stateChanged, this, &TranslationTask::onStateChanged);
    connect(controller_, &TrainingController::progressChanged, this, &TranslationTask::onProgress);
    connect(controller_, &TrainingController::prepared, this, &TranslationTask::onPrepared);
    connect(controller_, &TrainingController::batchTrained, this, &TranslationTask::onBatch);
    connect(controller_, &TrainingController::epochFinished, this, &TranslationTask::onEpoch);
    connect(controller_, &TrainingController::probeUpdated, probeView_, &ProbeView::setResult);
    connect(controller_, &TrainingController::probeUpdated, diagnosticsView_, &DiagnosticsView::setProbe);
    connect(controller_, &TrainingController::probeUpdated, timelineView_, &TimelineView::addSnapshot);
    connect(controller_, &TrainingController::probeUpdated, this, &TranslationTask::actionsChanged);  // the Probe view's exports
    connect(controller_, &TrainingController::modifiedChanged, this, &TranslationTask::titleChanged);
    connect(controller_, &TrainingController::finished, this, [this](bool stopped) {
        hooks().status(stopped ? tr("Training stopped; the model is kept for translation and saving.")
                               : tr("Training finished."),
                       8000);
    });
    connect(controller_, &TrainingController::diverged, this, [this](int epoch, int batch, const QString& message) {
        hooks().reportError(
            tr("Training Diverged"),
            tr("Training diverged at epoch %1, batch %2: the loss or a gradient became infinite or NaN.\n\n"
               "The weights from before that batch are kept: you can still translate with them and save "
               "them. A lower learning rate or gradient clipping usually helps.\n\n%3")
                .arg(epoch)
                .arg(batch)
                .arg(message));
    });
    connect(controller_, &TrainingController::failed, this, [this](const QString& message) {
        hooks().reportError(tr("Training Failed"), tr("Training could not go on:\n\n%1").arg(message));
        onModelAvailable();
    });
    connect(controller_, &TrainingController::translated, this, [this](quint64 id, const Translation& t) {
        if (id == editRequest_) {  // the Translate view's token edit
            translateView_->setEditedTranslation(t);
            Q_EMIT actionsChanged();
            return;
        }
        if (!session_->isCurrentTranslation(id)) return;  // a newer request is on its way
        translateView_->setTranslation(t);
        headsView_->setTranslation(t);
        diagnosticsView_->setTranslation(t);
        Q_EMIT actionsChanged();
    });
    connect(controller_, &TrainingController::translationFailed, this, [this](quint64 id, const QString& message) {
        if (id == ablationRequest_) {
            headsView_->setAblationFailed(message);
            return;
        }
        if (id == editRequest_) {
            translateView_->setError(message);
            return;
        }
        if (!session_->isCurrentTranslation(id)) return;
        translateView_->setError(message);
        hooks().status(message, 8000);
    });
    connect(controller_, &TrainingController::modelSaved, this, [this](const QString& path) {
        session_->setModelPath(path);
        hooks().status(tr("Saved the model to %1").arg(QDir::toNativeSeparators(path)), 8000);
        Q_EMIT titleChanged();
    });
    connect(controller_, &TrainingController::saveFailed, this, [this](const QString& message) {
        hooks().reportError(tr("Cannot Save Model"), tr("The model was not saved:\n\n%1").arg(message));
    });
    connect(controller_, &TrainingController::modelLoaded, this, &TranslationTask::onModelLoaded);
    connect(controller_, &TrainingController::loadFailed, this, [this](const QString& message) {
        hooks().reportError(
            tr("Cannot Open Model"),
            tr("The model file could not be used:\n\n%1\n\nThe current model stays loaded.").arg(message));
    });
    // Step by Step: starts from the Translate view's sentence, and follows the model while it is shown.
    connect(controller_, &TrainingController::traced, this, [this](quint64 id, const AttentionTrace& t) {
        if (id == traceRequest_) mathsView_->setTrace(t);
    });
    connect(controller_, &TrainingController::traceFailed, this, [this](quint64 id, const QString& message) {
        if (id == traceRequest_) mathsView_->setError(message);
    });
    connect(controller_, &TrainingController::epochFinished, this, &TranslationTask::updateMathsView);
    connect(controller_, &TrainingController::tokenExplained, this, &TranslationTask::actionsChanged);
}

void TranslationTask::connectViews() {
    connect(session_, &TrainingSession::corpusLoaded, this, &TranslationTask::corpusLoaded);
    connect(session_, &TrainingSession::corpusLoaded, this, &TranslationTask::dataReady);
    connect(session_, &TrainingSession::corpusFailed, this, &TranslationTask::corpusFailed);
    connect(session_, &TrainingSession::corpusFileLoaded, recent_, &RecentFiles::add);
    connect(session_, &TrainingSession::titleChanged, this, &TranslationTask::titleChanged);
    connect(session_, &TrainingSession::modelDiscarded, this, [this] {
        onModelAvailable();
        Q_EMIT titleChanged();
    });
    connect(session_, &TrainingSession::lessonStarted, this, &TranslationTask::lessonStarted);
    connect(dataPanel_, &DataPanel::generateRequested, this, &TranslationTask::loadCorpus);
    connect(dataPanel_, &DataPanel::openTsvRequested, this, &TranslationTask::openCorpusDialog);
    connect(dataPanel_, &DataPanel::openParallelRequested, this, &TranslationTask::openParallelDialog);
    connect(dataPanel_, &DataPanel::reloadRequested, this, &TranslationTask::loadCorpus);
    connect(corpusView_, &CorpusView::sentenceChosen, this, [this](const QString& sentence) {
        translateView_->setSentence(sentence);
        headsView_->setSentence(sentence);
        navigator()->show(QStringLiteral("translate"));
        if (controller_->hasModel()) session_->translate(sentence, translateView_->beam());
    });
    connect(translateView_, &TranslateView::translateRequested, session_, &TrainingSession::translate);
    connect(headsView_, &HeadsView::translateRequested, this,
            [this](const QString& sentence, int) { session_->translate(sentence, translateView_->beam()); });
    connect(translateView_, &TranslateView::editRequested, this, [this](const QStringList& words, int beam) {
        if (controller_->hasModel()) editRequest_ = controller_->translateWords(words, beam);
    });
    connect(probeView_, &ProbeView::probeChanged, session_, &TrainingSession::updateProbe);
    connect(mathsView_, &MathsView::traceRequested, this, [this](const QString& sentence, const TraceRequest& r) {
        traceRequest_ = controller_->trace(sentence, r);
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

void TranslationTask::loadCorpus(const CorpusSource& source) { session_->loadCorpus(source); }

const LoadedCorpus& TranslationTask::corpus() const { return session_->corpus(); }

bool TranslationTask::isLoadingCorpus() const { return session_->isLoadingCorpus(); }

CorpusTableModel* TranslationTask::corpusTable() const { return corpusView_->table(); }

void TranslationTask::startTraining(bool paused) { session_->start(paused); }

RunState TranslationTask::runState() const {
    using State = TrainingController::State;
    const State state = controller_->state();
    RunState s;
    s.pausable = true;
    s.paused = state == State::Paused;
    s.start = s.paused || !controller_->isActive();
    s.pause = state == State::Running;
    s.step = state != State::Running;
    s.stop = controller_->isActive();
    s.reset = state != State::Running;
    return s;
}

void TranslationTask::run(RunCommand command) {
    switch (command) {
    case RunCommand::Start:
        if (controller_->state() == TrainingController::State::Paused) {
            controller_->resume();
        } else {
            startTraining(false);
        }
        break;
    case RunCommand::Pause: controller_->pause(); break;
    case RunCommand::Step: session_->step(); break;
    case RunCommand::Stop: controller_->stop(); break;
    case RunCommand::Reset: session_->reset(); break;
    }
}

bool TranslationTask::startDemo(const QString& dataset) {
    session_->startDemo(dataset);
    return true;
}

QString TranslationTask::lesson() const { return session_->lesson(); }

bool TranslationTask::hasModel() const { return controller_->hasModel(); }

bool TranslationTask::isModified() const { return controller_->isModified(); }

bool TranslationTask::isBusy() const { return controller_->isActive(); }

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
    if (controller_->isActive()) {
        hooks().reportError(tr("Cannot Open Model"), tr("Stop the training run before opening another model."));
        return;
    }
    hooks().status(tr("Opening %1…").arg(QFileInfo(path).fileName()), 0);
    controller_->loadModel(path);
}

void TranslationTask::openModelDialog() {
    const QString path = TaskSupport::askOpenModelPath(windowWidget(), tr("Open Model"), lastDirectory());
    if (path.isEmpty()) return;
    openModelFile(path);
}

void TranslationTask::saveModelTo(const QString& path) {
    if (!controller_->hasModel()) {
        hooks().reportError(tr("Cannot Save Model"), tr("There is no model yet: train one first."));
        return;
    }
    hooks().status(tr("Saving %1…").arg(QFileInfo(path).fileName()), 0);
    controller_->saveModel(path);
}

void TranslationTask::saveModel() {
    const QString path = session_->modelPath();
    if (path.isEmpty() || !path.endsWith(QLatin1String(".safetensors"))) {
        saveModelDialog();
    } else {
        saveModelTo(path);
    }
}

void TranslationTask::saveModelAs() { saveModelDialog(); }

bool TranslationTask::saveModelDialog() {
    const LoadedCorpus& loaded = session_->corpus();
    const QString current = session_->modelPath();
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
    session_->setModelPath(summary.origin);
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
    session_->updateProbe();
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
    const bool available = controller_->hasModel() || controller_->isPreparing();
    for (View* view : navigator()->viewsOf(id())) view->modelAvailable(available);
    session_->translateCurrentSentence();
    updateMathsView();
    exportHeads_->setEnabled(controller_->hasModel());
    Q_EMIT actionsChanged();
}

void TranslationTask::updateMathsView() {
    if (navigator()->currentWidget() != mathsView_ || !controller_->hasModel() || controller_->isPreparing()) return;
    if (!mathsView_->submittedSentence().isEmpty()) {
        mathsView_->refresh();
    } else if (!translateView_->sentence().trimmed().isEmpty()) {
        mathsView_->setSentence(translateView_->sentence());
        mathsView_->requestTrace();
    }
}

void TranslationTask::onBatch(const BatchReport& r) {
    chartsView_->addBatch(r);
    const ModelSummary& s = controller_->summary();
    epochLabel_->setText(tr("Epoch %1/%2 · batch %3/%4").arg(r.epoch).arg(s.epochs).arg(r.batch).arg(r.batchesPerEpoch));
}

void TranslationTask::onEpoch(const EpochMetrics& m) {
    chartsView_->addEpoch(m);
    hooks().status(tr("Epoch %1: validation loss %2, token accuracy %3%, BLEU %4")
                       .arg(m.epoch)
                       .arg(m.validationLoss, 0, 'f', 3)
                       .arg(100.0 * m.tokenAccuracy, 0, 'f', 1)
                       .arg(m.bleu, 0, 'f', 1),
                   10000);
    if (translateView_->followsTraining() && !translateView_->sentence().trimmed().isEmpty())
        session_->translate(translateView_->sentence(), translateView_->beam());
}

void TranslationTask::onProgress(double fraction, double etaSeconds) {
    progress_->setValue(static_cast<int>(std::lround(fraction * 1000)));
    if (controller_->state() == TrainingController::State::Running && etaSeconds >= 0) {
        etaLabel_->setText(tr("ETA %1").arg(formatDuration(etaSeconds)));
    } else if (controller_->state() != TrainingController::State::Running) {
        etaLabel_->clear();
    }
}

void TranslationTask::onStateChanged() {
    using State = TrainingController::State;
    const State state = controller_->state();
    const bool active = controller_->isActive();
    exportHeads_->setEnabled(controller_->hasModel());
    modelSettings_->setEnabled(!active);
    trainingSettings_->setEnabled(!active);
    switch (state) {
    case State::Idle: stateLabel_->setText(controller_->hasModel() ? tr("Model ready") : tr("Idle")); break;
    case State::Running: stateLabel_->setText(tr("● Training")); break;
    case State::Paused: stateLabel_->setText(tr("❚❚ Paused")); break;
    case State::Finished: stateLabel_->setText(tr("✓ Finished")); break;
    }
    if (state == State::Idle && !controller_->hasModel()) {
        epochLabel_->clear();
        progress_->setValue(0);
    }
    if (state != State::Running) etaLabel_->clear();
    Q_EMIT actionsChanged();
}

QString TranslationTask::titleText() const {
    if (!session_->modelPath().isEmpty()) return QFileInfo(session_->modelPath()).fileName();
    const LoadedCorpus& loaded = session_->corpus();
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
    if (!controller_->hasModel() || !controller_->isModified()) return true;
    const auto answer = hooks().ask(tr("Save the Model?"),
                                    tr("The model has training that is not saved. Save it before closing?"),
                                    QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Cancel) return false;
    if (answer != QMessageBox::Save) return true;
    controller_->stop();  // nothing may change the weights between saving and closing
    QString path = session_->modelPath();
    if (!path.endsWith(QLatin1String(".safetensors"))) {
        const LoadedCorpus& loaded = session_->corpus();
        const QString name =
            (loaded.corpus ? loaded.source.displayName().section(QLatin1Char('.'), 0, 0) : QStringLiteral("model")) +
            QStringLiteral(".safetensors");
        path = TaskSupport::askSaveModelPath(windowWidget(), tr("Save Model"), lastDirectory(), name);
        if (path.isEmpty()) return false;
    }
    // Closing waits for the save: the worker answers after its current batch.
    QEventLoop loop;
    bool saved = false;
    connect(controller_, &TrainingController::modelSaved, &loop, [&] {
        saved = true;
        loop.quit();
    });
    connect(controller_, &TrainingController::saveFailed, &loop, [&] { loop.quit(); });
    saveModelTo(path);
    loop.exec();
    return saved;
}

void TranslationTask::shutdown() {
    experimentsView_->stop();  // winds down while training stops; its destructor joins the thread
    hooks().status(tr("Stopping training…"), 0);
    controller_->shutdown(kShutdownTimeoutMs);
}

}  // namespace attnlab
