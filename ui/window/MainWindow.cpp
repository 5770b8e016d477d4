#include "window/MainWindow.h"

#include "base/Memory.h"
#include "setup/DataPanel.h"
#include "setup/ModelSettingsWidget.h"
#include "setup/TrainingSettingsWidget.h"
#include "views/attribution/AttributionView.h"
#include "views/compare/CompareView.h"
#include "views/corpus/CorpusView.h"
#include "views/curves/TrainingChartsView.h"
#include "views/diagnostics/DiagnosticsView.h"
#include "views/experiments/ExperimentsView.h"
#include "views/heads/HeadsView.h"
#include "views/maths/MathsView.h"
#include "views/positions/PositionalEncodingView.h"
#include "views/timeline/TimelineView.h"
#include "views/translate/ProbeView.h"
#include "views/translate/TranslateView.h"
#include "widgets/AttentionPanel.h"
#include "widgets/HeatmapWidget.h"
#include "session/ClassifierLessons.h"
#include "session/ImageLessons.h"
#include "session/Lessons.h"
#include "window/ClassifierTask.h"
#include "window/ImageTask.h"
#include "window/FigureExport.h"
#include "window/RecentFiles.h"
#include "window/TrainingSession.h"
#include "window/Tasks.h"
#include "window/Translations.h"
#include "window/WindowActions.h"
#include "window/WindowSettings.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QProgressBar>
#include <QScreen>
#include <QScrollArea>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QToolBox>
#include <QUrl>
#include <QVBoxLayout>

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
        return MainWindow::tr("Transformer (%1 layers, %2 heads)").arg(c.layers).arg(c.heads);
    return MainWindow::tr("GRU with %1 attention").arg(QString::fromStdString(toString(c.attention)));
}

QScrollArea* scrolling(QWidget* page) {
    auto* area = new QScrollArea;
    area->setWidget(page);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent) {
    setWindowIcon(applicationIcon());
    setAcceptDrops(true);
    setDocumentMode(true);
    controller_ = new TrainingController(this);

    // Setup panel.
    dataPanel_ = new DataPanel;
    modelSettings_ = new ModelSettingsWidget;
    trainingSettings_ = new TrainingSettingsWidget;
    setup_ = new QToolBox;
    setup_->addItem(scrolling(dataPanel_), style()->standardIcon(QStyle::SP_DriveHDIcon), tr("Data"));
    setup_->addItem(scrolling(modelSettings_), style()->standardIcon(QStyle::SP_ComputerIcon), tr("Model"));
    setup_->addItem(scrolling(trainingSettings_), style()->standardIcon(QStyle::SP_MediaPlay), tr("Training"));
    // The task chosen first, then its data, model and training settings.
    auto* setupPage = new QWidget;
    auto* setupLayout = new QVBoxLayout(setupPage);
    setupLayout->setContentsMargins(0, 0, 0, 0);
    auto* taskRow = new QHBoxLayout;
    taskRow->setContentsMargins(8, 6, 8, 2);
    auto* taskLabel = new QLabel(tr("Task:"));
    task_ = new QComboBox;
    for (const TaskInfo& task : Tasks::all()) {
        task_->addItem(task.title, task.id);
        task_->setItemData(task_->count() - 1, task.summary, Qt::ToolTipRole);
    }
    task_->setToolTip(tr("What you work on: its data, models and views."));
    taskLabel->setBuddy(task_);
    taskRow->addWidget(taskLabel);
    taskRow->addWidget(task_, 1);
    setupLayout->addLayout(taskRow);
    setupStack_ = new QStackedWidget;  // one page per task: the translation panels, the classifier's
    setupStack_->addWidget(setup_);
    setupLayout->addWidget(setupStack_, 1);
    auto* dock = new QDockWidget(tr("Setup"), this);
    dock->setObjectName(QStringLiteral("setupDock"));
    dock->setWidget(setupPage);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    dock->setMinimumWidth(300);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    createViews();
    auto* central = new QWidget;
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(createLessonBar());
    centralLayout->addWidget(navigator_, 1);
    setCentralWidget(central);

    TrainingSession::Parts parts;
    parts.controller = controller_;
    parts.data = dataPanel_;
    parts.model = modelSettings_;
    parts.training = trainingSettings_;
    parts.navigator = navigator_;
    parts.corpus = corpusView_;
    parts.translate = translateView_;
    parts.probe = probeView_;
    parts.heads = headsView_;
    parts.compare = compareView_;
    parts.charts = chartsView_;
    session_ = new TrainingSession(
        parts, [this](const QString& t, const QString& x, QMessageBox::StandardButtons b,
                      QMessageBox::StandardButton d) { return ask(t, x, b, d); },
        [this](const QString& t, const QString& m) { reportError(t, m); },
        [this](const QString& m, int timeout) { showStatus(m, timeout); }, this);

    actions_ = new WindowActions(this);
    actions_->createMenus(this, navigator_);
    actions_->createToolBar(this);
    recent_ = new RecentFiles(actions_->recent, this);
    export_ = new FigureExport(
        this, navigator_, headsView_, &lastDirectory_, [this](const QString& t, const QString& m) { reportError(t, m); },
        [this](const QString& m) { showStatus(m, 8000); });
    createStatusBar();
    connectActions();
    connectController();
    connectViews();

    // 1400 x 900 where the screen has room; never larger than the screen (1366 x 768 laptops, projectors).
    resize(screen() != nullptr ? QSize(1400, 900).boundedTo(screen()->availableGeometry().size()) : QSize(1400, 900));
    WindowSettings settings = windowSettings();
    settings.restore();
    lastDirectory_ = settings.lastDirectory;
    colormap_ = settings.colormap;
    showNumbers_ = settings.showNumbers;
    actions_->logScale->setChecked(settings.logScale);
    setColormap(colormap_);
    setShowNumbers(showNumbers_);
    onStateChanged();
    onModelAvailable();
    updateTitle();
    // A corpus is ready at once, so Start works on first launch.
    loadCorpus(dataPanel_->datasetSource());
}

MainWindow::~MainWindow() {
    if (!shuttingDown_) controller_->shutdown(kShutdownTimeoutMs);
}

WindowSettings MainWindow::windowSettings() {
    WindowSettings settings;
    settings.window = this;
    settings.recent = recent_;
    settings.data = dataPanel_;
    settings.model = modelSettings_;
    settings.training = trainingSettings_;
    settings.probe = probeView_;
    settings.navigator = navigator_;
    settings.lastDirectory = lastDirectory_;
    settings.colormap = colormap_;
    settings.showNumbers = showNumbers_;
    settings.logScale = chartsView_->logScale();
    return settings;
}

void MainWindow::createViews() {
    corpusView_ = new CorpusView;
    translateView_ = new TranslateView;
    probeView_ = new ProbeView;
    headsView_ = new HeadsView;
    chartsView_ = new TrainingChartsView;
    timelineView_ = new TimelineView;
    mathsView_ = new MathsView;
    diagnosticsView_ = new DiagnosticsView;
    positionsView_ = new PositionalEncodingView;
    compareView_ = new CompareView(controller_);
    experimentsView_ = new ExperimentsView;
    // The translation task's views; the name is what --tab, lessons and showTab() accept.
    navigator_ = new ViewNavigator;
    navigator_->addView(ViewGroup::Data, QStringLiteral("corpus"), corpusView_);
    navigator_->addView(ViewGroup::Watch, QStringLiteral("translate"), translateView_);
    navigator_->addView(ViewGroup::Watch, QStringLiteral("probe"), probeView_);
    navigator_->addView(ViewGroup::Watch, QStringLiteral("heads"), headsView_);
    navigator_->addView(ViewGroup::Watch, QStringLiteral("curves"), chartsView_);
    navigator_->addView(ViewGroup::Watch, QStringLiteral("timeline"), timelineView_);
    navigator_->addView(ViewGroup::Explain, QStringLiteral("maths"), mathsView_);
    navigator_->addView(ViewGroup::Explain, QStringLiteral("diagnostics"), diagnosticsView_);
    navigator_->addView(ViewGroup::Explain, QStringLiteral("positions"), positionsView_);
    navigator_->addView(ViewGroup::Explain, QStringLiteral("compare"), compareView_);
    navigator_->addView(ViewGroup::Explain, QStringLiteral("attribution"), new AttributionView(controller_));
    navigator_->addView(ViewGroup::Experiments, QStringLiteral("experiments"), experimentsView_);
    // The text-classification task registers its own views (task "classify").
    const TaskHooks hooks{[this](const QString& t, const QString& x, QMessageBox::StandardButtons b,
                                 QMessageBox::StandardButton d) { return ask(t, x, b, d); },
                          [this](const QString& t, const QString& m) { reportError(t, m); },
                          [this](const QString& m, int timeout) { showStatus(m, timeout); }};
    classifier_ = new ClassifierTask(this, navigator_, hooks);
    setupStack_->addWidget(classifier_->panelPage());
    images_ = new ImageTask(this, navigator_, hooks);  // the Images task's (task "images")
    setupStack_->addWidget(images_->panelPage());
}

void MainWindow::switchTask(const QString& id) {
    const int index = task_->findData(id);
    if (index < 0) return;
    task_->setCurrentIndex(index);  // re-enters through currentIndexChanged once; then equal
    if (navigator_->task() == id) return;
    navigator_->setTask(id);
    const bool classify = id == QLatin1String(ClassifierTask::kId), images = id == QLatin1String(ImageTask::kId);
    setupStack_->setCurrentIndex(classify ? 1 : images ? 2 : 0);
    if (classify) classifier_->activate();
    if (images) images_->activate();
    for (QWidget* part : {static_cast<QWidget*>(stateLabel_), static_cast<QWidget*>(epochLabel_),
                          static_cast<QWidget*>(progress_), static_cast<QWidget*>(etaLabel_)})
        part->setVisible(!classify && !images);  // the translation run's state; the others' are in their panels
    actions_->showTask(id, navigator_);
    updateTitle();
}

void MainWindow::createStatusBar() {
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
    statusBar()->addPermanentWidget(stateLabel_);
    statusBar()->addPermanentWidget(epochLabel_);
    statusBar()->addPermanentWidget(progress_);
    statusBar()->addPermanentWidget(etaLabel_);
}

void MainWindow::connectActions() {
    WindowActions* a = actions_;
    connect(a->openCorpus, &QAction::triggered, this, &MainWindow::openCorpusDialog);
    connect(a->openParallel, &QAction::triggered, this, &MainWindow::openParallelDialog);
    connect(a->openModel, &QAction::triggered, this, &MainWindow::openModelDialog);
    connect(a->saveModel, &QAction::triggered, this, [this] {
        const QString path = session_->modelPath();
        if (path.isEmpty() || !path.endsWith(QLatin1String(".safetensors"))) {
            saveModelDialog();
        } else {
            saveModelTo(path);
        }
    });
    connect(a->saveModelAs, &QAction::triggered, this, &MainWindow::saveModelDialog);
    connect(a->exportImage, &QAction::triggered, export_, &FigureExport::imageDialog);
    connect(a->exportMatrix, &QAction::triggered, export_, &FigureExport::matrixDialog);
    connect(a->exportHeads, &QAction::triggered, export_, &FigureExport::allHeadsDialog);
    connect(a->quit, &QAction::triggered, this, &QWidget::close);
    connect(a->start, &QAction::triggered, this, [this] { startTraining(false); });
    connect(a->resume, &QAction::triggered, controller_, &TrainingController::resume);
    connect(a->pause, &QAction::triggered, controller_, &TrainingController::pause);
    connect(a->step, &QAction::triggered, session_, &TrainingSession::step);
    connect(a->stop, &QAction::triggered, controller_, &TrainingController::stop);
    connect(a->reset, &QAction::triggered, session_, &TrainingSession::reset);
    connect(a->numbers, &QAction::toggled, this, &MainWindow::setShowNumbers);
    connect(a->zoomIn, &QAction::triggered, this, [this] {
        if (auto* h = currentHeatmap()) h->zoomIn();
    });
    connect(a->zoomOut, &QAction::triggered, this, [this] {
        if (auto* h = currentHeatmap()) h->zoomOut();
    });
    connect(a->zoomReset, &QAction::triggered, this, [this] {
        if (auto* h = currentHeatmap()) h->resetZoom();
    });
    connect(a->logScale, &QAction::toggled, chartsView_, &TrainingChartsView::setLogScale);
    connect(a->about, &QAction::triggered, this, &MainWindow::showAbout);
    connect(a, &WindowActions::colormapChosen, this, &MainWindow::setColormap);
    connect(a, &WindowActions::languageChosen, this, &MainWindow::setLanguage);
    connect(a, &WindowActions::lessonChosen, this, &MainWindow::startLesson);
    connect(recent_, &RecentFiles::openTsv, this, &MainWindow::openCorpusFile);
    connect(recent_, &RecentFiles::openParallel, this, &MainWindow::openParallelFiles);
}

HeatmapWidget* MainWindow::currentHeatmap() const {
    const View* view = navigator_->currentView();
    return view != nullptr ? view->zoomableHeatmap() : nullptr;
}

void MainWindow::connectController() {
    connect(controller_, &TrainingController::stateChanged, this, &MainWindow::onStateChanged);
    connect(controller_, &TrainingController::progressChanged, this, &MainWindow::onProgress);
    connect(controller_, &TrainingController::prepared, this, &MainWindow::onPrepared);
    connect(controller_, &TrainingController::batchTrained, this, &MainWindow::onBatch);
    connect(controller_, &TrainingController::epochFinished, this, &MainWindow::onEpoch);
    connect(controller_, &TrainingController::probeUpdated, probeView_, &ProbeView::setResult);
    connect(controller_, &TrainingController::probeUpdated, diagnosticsView_, &DiagnosticsView::setProbe);
    connect(controller_, &TrainingController::probeUpdated, timelineView_, &TimelineView::addSnapshot);
    connect(controller_, &TrainingController::modifiedChanged, this, &MainWindow::updateTitle);
    connect(controller_, &TrainingController::finished, this, [this](bool stopped) {
        showStatus(stopped ? tr("Training stopped; the model is kept for translation and saving.")
                           : tr("Training finished."),
                   8000);
    });
    connect(controller_, &TrainingController::diverged, this, [this](int epoch, int batch, const QString& message) {
        reportError(tr("Training Diverged"),
                    tr("Training diverged at epoch %1, batch %2: the loss or a gradient became infinite or NaN.\n\n"
                       "The weights from before that batch are kept: you can still translate with them and save "
                       "them. A lower learning rate or gradient clipping usually helps.\n\n%3")
                        .arg(epoch)
                        .arg(batch)
                        .arg(message));
    });
    connect(controller_, &TrainingController::failed, this, [this](const QString& message) {
        reportError(tr("Training Failed"), tr("Training could not go on:\n\n%1").arg(message));
        onModelAvailable();
    });
    connect(controller_, &TrainingController::translated, this, [this](quint64 id, const Translation& t) {
        if (!session_->isCurrentTranslation(id)) return;  // a newer request is on its way
        translateView_->setTranslation(t);
        headsView_->setTranslation(t);
        diagnosticsView_->setTranslation(t);
    });
    connect(controller_, &TrainingController::translationFailed, this, [this](quint64 id, const QString& message) {
        if (!session_->isCurrentTranslation(id)) return;
        translateView_->setError(message);
        showStatus(message, 8000);
    });
    connect(controller_, &TrainingController::modelSaved, this, [this](const QString& path) {
        session_->setModelPath(path);
        showStatus(tr("Saved the model to %1").arg(QDir::toNativeSeparators(path)), 8000);
        updateTitle();
        if (closeAfterSave_) {
            closeAfterSave_ = false;
            close();
        }
    });
    connect(controller_, &TrainingController::saveFailed, this, [this](const QString& message) {
        closeAfterSave_ = false;
        reportError(tr("Cannot Save Model"), tr("The model was not saved:\n\n%1").arg(message));
    });
    connect(controller_, &TrainingController::modelLoaded, this, &MainWindow::onModelLoaded);
    connect(controller_, &TrainingController::loadFailed, this, [this](const QString& message) {
        reportError(tr("Cannot Open Model"),
                    tr("The model file could not be used:\n\n%1\n\nThe current model stays loaded.").arg(message));
    });
    // Step by Step: starts from the Translate view's sentence, and follows the model while it is shown.
    connect(controller_, &TrainingController::traced, this, [this](quint64 id, const AttentionTrace& t) {
        if (id == traceRequest_) mathsView_->setTrace(t);
    });
    connect(controller_, &TrainingController::traceFailed, this, [this](quint64 id, const QString& message) {
        if (id == traceRequest_) mathsView_->setError(message);
    });
    connect(controller_, &TrainingController::epochFinished, this, &MainWindow::updateMathsView);
}

void MainWindow::connectViews() {
    connect(session_, &TrainingSession::corpusLoaded, this, &MainWindow::corpusLoaded);
    connect(session_, &TrainingSession::corpusFailed, this, &MainWindow::corpusFailed);
    connect(session_, &TrainingSession::corpusFileLoaded, recent_, &RecentFiles::add);
    connect(session_, &TrainingSession::titleChanged, this, &MainWindow::updateTitle);
    connect(session_, &TrainingSession::modelDiscarded, this, [this] {
        onModelAvailable();
        updateTitle();
    });
    const auto showLesson = [this](const QString& title, const QString& summary) {
        lessonText_->setText(QStringLiteral("<b>%1</b><br>%2").arg(title.toHtmlEscaped(), summary.toHtmlEscaped()));
        lessonBar_->show();
    };
    connect(session_, &TrainingSession::lessonStarted, this, showLesson);
    connect(classifier_, &ClassifierTask::lessonStarted, this, showLesson);
    connect(classifier_, &ClassifierTask::titleChanged, this, &MainWindow::updateTitle);
    connect(classifier_, &ClassifierTask::viewsChanged, this, &MainWindow::updateExportActions);
    connect(images_, &ImageTask::lessonStarted, this, showLesson);
    connect(images_, &ImageTask::titleChanged, this, &MainWindow::updateTitle);
    connect(images_, &ImageTask::viewsChanged, this, &MainWindow::updateExportActions);
    connect(controller_, &TrainingController::tokenExplained, this, &MainWindow::updateExportActions);
    connect(task_, &QComboBox::currentIndexChanged, this, [this] { switchTask(task_->currentData().toString()); });
    connect(dataPanel_, &DataPanel::generateRequested, this, &MainWindow::loadCorpus);
    connect(dataPanel_, &DataPanel::openTsvRequested, this, &MainWindow::openCorpusDialog);
    connect(dataPanel_, &DataPanel::openParallelRequested, this, &MainWindow::openParallelDialog);
    connect(dataPanel_, &DataPanel::reloadRequested, this, &MainWindow::loadCorpus);
    connect(corpusView_, &CorpusView::sentenceChosen, this, [this](const QString& sentence) {
        translateView_->setSentence(sentence);
        headsView_->setSentence(sentence);
        navigator_->show(QStringLiteral("translate"));
        if (controller_->hasModel()) session_->translate(sentence, translateView_->beam());
    });
    connect(translateView_, &TranslateView::translateRequested, session_, &TrainingSession::translate);
    connect(headsView_, &HeadsView::translateRequested, this,
            [this](const QString& sentence, int) { session_->translate(sentence, translateView_->beam()); });
    connect(probeView_, &ProbeView::probeChanged, session_, &TrainingSession::updateProbe);
    connect(mathsView_, &MathsView::traceRequested, this, [this](const QString& sentence, const TraceRequest& r) {
        traceRequest_ = controller_->trace(sentence, r);
    });
    connect(compareView_, &CompareView::loadFailed, this,
            [this](int, const QString& message) { reportError(tr("Cannot Open Model"), message); });
    connect(navigator_, &ViewNavigator::currentChanged, this, &MainWindow::updateExportActions);
    connect(navigator_, &ViewNavigator::currentChanged, this, &MainWindow::updateMathsView);
}

// ---- corpus, model and training ---------------------------------------------------------------------

void MainWindow::openCorpusFile(const QString& path) { loadCorpus(CorpusSource::tsv(path)); }

void MainWindow::openParallelFiles(const QString& sourcePath, const QString& targetPath) {
    loadCorpus(CorpusSource::parallel(sourcePath, targetPath));
}

void MainWindow::loadCorpus(const CorpusSource& source) { session_->loadCorpus(source); }

const LoadedCorpus& MainWindow::corpus() const { return session_->corpus(); }

bool MainWindow::isLoadingCorpus() const { return session_->isLoadingCorpus(); }

CorpusTableModel* MainWindow::corpusTable() const { return corpusView_->table(); }

void MainWindow::startTraining(bool paused) { session_->start(paused); }

void MainWindow::startDemo(const QString& dataset) { session_->startDemo(dataset); }

bool MainWindow::startLesson(const QString& id) {
    if (!findClassifierLesson(id).id.isEmpty()) {
        switchTask(QString::fromLatin1(ClassifierTask::kId));
        return classifier_->startLesson(id);
    }
    if (!findImageLesson(id).id.isEmpty()) {
        switchTask(QString::fromLatin1(ImageTask::kId));
        return images_->startLesson(id);
    }
    if (findLesson(id).id.isEmpty()) return false;
    switchTask(QString::fromLatin1(ViewNavigator::kTranslation));
    return session_->startLesson(id);
}

QString MainWindow::currentLesson() const {
    if (navigator_->task() == QLatin1String(ImageTask::kId)) return images_->lesson();
    return navigator_->task() == QLatin1String(ClassifierTask::kId) ? classifier_->lesson() : session_->lesson();
}

void MainWindow::openCorpusDialog() {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open Corpus"), lastDirectory_,
                                     tr("Tab-separated corpora (*.tsv *.txt *.tab);;All files (*)"));
    if (path.isEmpty()) return;
    lastDirectory_ = QFileInfo(path).absolutePath();
    openCorpusFile(path);
}

void MainWindow::openParallelDialog() {
    const QString source = QFileDialog::getOpenFileName(this, tr("Open the Source-Language File"), lastDirectory_,
                                                        tr("Text files (*)"));
    if (source.isEmpty()) return;
    lastDirectory_ = QFileInfo(source).absolutePath();
    const QString target = QFileDialog::getOpenFileName(
        this, tr("Open the Target-Language File (line by line aligned with %1)").arg(QFileInfo(source).fileName()),
        lastDirectory_, tr("Text files (*)"));
    if (target.isEmpty()) return;
    openParallelFiles(source, target);
}

void MainWindow::openModelFile(const QString& path) {
    if (controller_->isActive()) {
        reportError(tr("Cannot Open Model"), tr("Stop the training run before opening another model."));
        return;
    }
    showStatus(tr("Opening %1…").arg(QFileInfo(path).fileName()), 0);
    controller_->loadModel(path);
}

void MainWindow::openModelDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Model"), lastDirectory_,
                                                      tr("AttnLab models (*.safetensors);;All files (*)"));
    if (path.isEmpty()) return;
    lastDirectory_ = QFileInfo(path).absolutePath();
    openModelFile(path);
}

void MainWindow::saveModelTo(const QString& path) {
    if (!controller_->hasModel()) {
        reportError(tr("Cannot Save Model"), tr("There is no model yet: train one first."));
        return;
    }
    showStatus(tr("Saving %1…").arg(QFileInfo(path).fileName()), 0);
    controller_->saveModel(path);
}

bool MainWindow::saveModelDialog() {
    const LoadedCorpus& loaded = session_->corpus();
    const QString suggested = QDir(lastDirectory_).filePath(
        (loaded.corpus ? loaded.source.displayName().section(QLatin1Char('.'), 0, 0) : QStringLiteral("model")) +
        QStringLiteral(".safetensors"));
    const QString current = session_->modelPath();
    QString path = QFileDialog::getSaveFileName(this, tr("Save Model"), current.isEmpty() ? suggested : current,
                                                tr("AttnLab models (*.safetensors)"));
    if (path.isEmpty()) return false;
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".safetensors");
    lastDirectory_ = QFileInfo(path).absolutePath();
    saveModelTo(path);
    return true;
}

void MainWindow::onModelLoaded(const ModelSummary& summary) {
    session_->setModelPath(summary.origin);
    for (View* view : navigator_->viewsOf(ViewNavigator::kTranslation)) {
        view->runStarted();
        view->modelChanged(&summary);
    }
    modelSettings_->setConfig(summary.config);
    showStatus(tr("Opened %1: %2, %3 parameters")
                   .arg(QFileInfo(summary.origin).fileName(), architectureName(summary.config),
                        humanCount(summary.parameters)),
               10000);
    onStateChanged();
    onModelAvailable();
    session_->updateProbe();
    updateTitle();
}

void MainWindow::onPrepared(const ModelSummary& s) {
    for (View* view : navigator_->viewsOf(ViewNavigator::kTranslation)) view->modelChanged(&s);
    QString message = tr("Training %1, %2 parameters, on %3 pairs (validating on %4)")
                          .arg(architectureName(s.config), humanCount(s.parameters))
                          .arg(s.trainingPairs)
                          .arg(s.validationPairs);
    if (s.skippedTooLong > 0)
        message += tr("; skipped %1 pairs longer than the maximum length").arg(s.skippedTooLong);
    showStatus(message, 15000);
    onModelAvailable();  // translates the sentence in the Translate view with the new model
}

void MainWindow::onModelAvailable() {
    const bool available = controller_->hasModel() || controller_->isPreparing();
    for (View* view : navigator_->viewsOf(ViewNavigator::kTranslation)) view->modelAvailable(available);
    session_->translateCurrentSentence();
    updateMathsView();
    updateExportActions();
}

void MainWindow::updateMathsView() {
    if (navigator_->currentWidget() != mathsView_ || !controller_->hasModel() || controller_->isPreparing()) return;
    if (!mathsView_->submittedSentence().isEmpty()) {
        mathsView_->refresh();
    } else if (!translateView_->sentence().trimmed().isEmpty()) {
        mathsView_->setSentence(translateView_->sentence());
        mathsView_->requestTrace();
    }
}

void MainWindow::onBatch(const BatchReport& r) {
    chartsView_->addBatch(r);
    const ModelSummary& s = controller_->summary();
    epochLabel_->setText(tr("Epoch %1/%2 · batch %3/%4").arg(r.epoch).arg(s.epochs).arg(r.batch).arg(r.batchesPerEpoch));
}

void MainWindow::onEpoch(const EpochMetrics& m) {
    chartsView_->addEpoch(m);
    showStatus(tr("Epoch %1: validation loss %2, token accuracy %3%, BLEU %4")
                   .arg(m.epoch)
                   .arg(m.validationLoss, 0, 'f', 3)
                   .arg(100.0 * m.tokenAccuracy, 0, 'f', 1)
                   .arg(m.bleu, 0, 'f', 1),
               10000);
    if (translateView_->followsTraining() && !translateView_->sentence().trimmed().isEmpty())
        session_->translate(translateView_->sentence(), translateView_->beam());
}

void MainWindow::onProgress(double fraction, double etaSeconds) {
    progress_->setValue(static_cast<int>(std::lround(fraction * 1000)));
    if (controller_->state() == TrainingController::State::Running && etaSeconds >= 0) {
        etaLabel_->setText(tr("ETA %1").arg(formatDuration(etaSeconds)));
    } else if (controller_->state() != TrainingController::State::Running) {
        etaLabel_->clear();
    }
}

void MainWindow::onStateChanged() {
    using State = TrainingController::State;
    const State state = controller_->state();
    const bool active = controller_->isActive();
    WindowActions* a = actions_;
    a->start->setVisible(state != State::Paused);
    a->resume->setVisible(state == State::Paused);
    a->start->setEnabled(!active);
    a->resume->setEnabled(state == State::Paused);
    a->pause->setEnabled(state == State::Running);
    a->step->setEnabled(state != State::Running);
    a->stop->setEnabled(active);
    a->reset->setEnabled(state != State::Running);
    a->openModel->setEnabled(!active);
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
    updateExportActions();
}

void MainWindow::updateTitle() {
    const LoadedCorpus& loaded = session_->corpus();
    QString title = loaded.corpus ? loaded.source.displayName() : tr("no corpus");
    if (!session_->modelPath().isEmpty()) title = QFileInfo(session_->modelPath()).fileName();
    const bool classify = navigator_->task() == QLatin1String(ClassifierTask::kId);
    const bool images = navigator_->task() == QLatin1String(ImageTask::kId);
    if (classify) title = classifier_->titleFor().isEmpty() ? tr("no corpus") : classifier_->titleFor();
    if (images) title = images_->titleFor().isEmpty() ? tr("no images") : images_->titleFor();
    setWindowTitle(tr("%1[*] — AttnLab").arg(title));
    setWindowModified(classify ? classifier_->session()->isModified()
                               : images ? images_->session()->isModified() : controller_->isModified());
    actions_->saveModel->setEnabled(controller_->hasModel() || controller_->isPreparing());
    actions_->saveModelAs->setEnabled(controller_->hasModel() || controller_->isPreparing());
}

void MainWindow::updateExportActions() {
    actions_->exportImage->setEnabled(export_->currentExportsFigure());
    actions_->exportMatrix->setEnabled(export_->currentExportsMatrix());
    actions_->exportHeads->setEnabled(controller_->hasModel());
    actions_->saveModel->setEnabled(controller_->hasModel());
    actions_->saveModelAs->setEnabled(controller_->hasModel());
}

// ---- views ------------------------------------------------------------------------------------------

void MainWindow::setColormap(ColormapId id) {
    colormap_ = id;
    for (View* view : navigator_->views()) view->applyColormap(id);
    actions_->showColormap(id);
}

void MainWindow::setShowNumbers(bool on) {
    showNumbers_ = on;
    for (View* view : navigator_->views()) view->applyShowNumbers(on);
    if (actions_->numbers->isChecked() != on) actions_->numbers->setChecked(on);
}

bool MainWindow::showTab(const QString& name) {
    if (!navigator_->taskOf(name).isEmpty()) switchTask(navigator_->taskOf(name));  // a view of another task
    return navigator_->show(name);
}

QString MainWindow::currentTabName() const { return navigator_->currentName(); }

QStringList MainWindow::tabNames() const { return navigator_->names(); }

bool MainWindow::showSetupPage(const QString& name) {
    const char* const pages[] = {"data", "model", "training"};
    for (int i = 0; i < static_cast<int>(std::size(pages)); ++i) {
        if (name.compare(QLatin1String(pages[i]), Qt::CaseInsensitive) == 0) {
            setup_->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

bool MainWindow::exportCurrentView(const QString& path, double scale, QString* error) {
    return export_->exportCurrentView(path, scale, error);
}

// ---- questions, errors and window events ------------------------------------------------------------

void MainWindow::setErrorReporter(ErrorReporter reporter) { errorReporter_ = std::move(reporter); }

void MainWindow::setPrompt(Prompt prompt) { prompt_ = std::move(prompt); }

QMessageBox::StandardButton MainWindow::ask(const QString& title, const QString& text,
                                            QMessageBox::StandardButtons buttons,
                                            QMessageBox::StandardButton defaultButton) {
    if (prompt_) return prompt_(title, text, buttons);
    return QMessageBox::question(this, title, text, buttons, defaultButton);
}

void MainWindow::reportError(const QString& title, const QString& message) {
    if (errorReporter_) {
        errorReporter_(title, message);
        return;
    }
    QMessageBox::warning(this, title, message);
}

void MainWindow::showStatus(const QString& message, int timeoutMs) { statusBar()->showMessage(message, timeoutMs); }

void MainWindow::closeEvent(QCloseEvent* event) {
    if (controller_->hasModel() && controller_->isModified()) {
        const auto answer = ask(tr("Save the Model?"),
                                tr("The model has training that is not saved. Save it before closing?"),
                                QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
        if (answer == QMessageBox::Cancel) {
            event->ignore();
            return;
        }
        if (answer == QMessageBox::Save) {
            controller_->stop();  // nothing may change the weights between saving and closing
            const QString path = session_->modelPath();
            const bool asked =
                path.endsWith(QLatin1String(".safetensors")) ? (saveModelTo(path), true) : saveModelDialog();
            if (asked) closeAfterSave_ = true;  // the window closes when the worker reports the save
            event->ignore();
            return;
        }
    }
    if (!classifier_->confirmClose() || !images_->confirmClose()) {
        event->ignore();
        return;
    }
    windowSettings().save();
    shuttingDown_ = true;
    classifier_->shutdown();
    images_->shutdown();
    experimentsView_->stop();  // winds down while training stops; its destructor joins the thread
    showStatus(tr("Stopping training…"), 0);
    controller_->shutdown(kShutdownTimeoutMs);
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || urls.size() > 2) return;
    for (const QUrl& url : urls)
        if (!url.isLocalFile()) return;
    event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1) {
        const QString path = urls[0].toLocalFile();
        if (navigator_->task() == QLatin1String(ImageTask::kId)) {
            images_->openDropped(path);  // a model, an image folder, a caption list or an image
        } else if (navigator_->task() == QLatin1String(ClassifierTask::kId)) {
            classifier_->openDropped(path);  // a classifier, or a text<TAB>label file
        } else if (path.endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive)) {
            openModelFile(path);
        } else {
            openCorpusFile(path);
        }
    } else if (urls.size() == 2) {
        openParallelFiles(urls[0].toLocalFile(), urls[1].toLocalFile());
    }
    event->acceptProposedAction();
}

}  // namespace attnlab
