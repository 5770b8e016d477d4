#include "MainWindow.h"

#include "CompareView.h"
#include "CorpusTableModel.h"
#include "DataPanel.h"
#include "DiagnosticsView.h"
#include "ExperimentsView.h"
#include "FigureDialog.h"
#include "HeadsView.h"
#include "Lessons.h"
#include "MathsView.h"
#include "ModelSettingsWidget.h"
#include "PositionalEncodingView.h"
#include "ProbeView.h"
#include "TimelineView.h"
#include "TrainingChartsView.h"
#include "TrainingSettingsWidget.h"
#include "TranslateView.h"
#include "Translations.h"

#include "Version.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
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
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenuBar>
#include <QMimeData>
#include <QPainter>
#include <QPainterPath>
#include <QProgressBar>
#include <QScrollArea>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QToolBox>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>

#include <climits>
#include <cmath>
#include <iterator>

#include "base/Memory.h"

namespace attnlab {

namespace {

constexpr int kMaxRecent = 8;
constexpr int kShutdownTimeoutMs = 5000;

// The property that names a tab's view for --tab, showTab() and currentTabName().
const char* const kTabNameProperty = "attnlabTabName";

QString recentKey(const CorpusSource& source) {
    return source.kind == CorpusSource::Kind::Parallel ? source.path + QLatin1Char('\n') + source.targetPath
                                                       : source.path;
}

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

// Display names of the colour maps; Colormap::nameOf() stays the untranslated key of settings and CLI.
QString colormapLabel(ColormapId id) {
    switch (id) {
    case ColormapId::Viridis: return MainWindow::tr("viridis", "colour map");
    case ColormapId::Magma: return MainWindow::tr("magma", "colour map");
    case ColormapId::Cividis: return MainWindow::tr("cividis", "colour map");
    case ColormapId::Bone: return MainWindow::tr("bone", "colour map");
    case ColormapId::Grey: return MainWindow::tr("grey", "colour map");
    case ColormapId::RdBuR: break;  // for signed values only, never in the colour map menu
    }
    return Colormap::nameOf(id);
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
    loader_ = new CorpusLoader(this);

    // Setup panel.
    dataPanel_ = new DataPanel;
    modelSettings_ = new ModelSettingsWidget;
    trainingSettings_ = new TrainingSettingsWidget;
    setup_ = new QToolBox;
    setup_->addItem(scrolling(dataPanel_), style()->standardIcon(QStyle::SP_DriveHDIcon), tr("Data"));
    setup_->addItem(scrolling(modelSettings_), style()->standardIcon(QStyle::SP_ComputerIcon), tr("Model"));
    setup_->addItem(scrolling(trainingSettings_), style()->standardIcon(QStyle::SP_MediaPlay), tr("Training"));
    auto* dock = new QDockWidget(tr("Setup"), this);
    dock->setObjectName(QStringLiteral("setupDock"));
    dock->setWidget(setup_);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    dock->setMinimumWidth(320);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    // Views.
    translateView_ = new TranslateView;
    probeView_ = new ProbeView;
    headsView_ = new HeadsView;
    chartsView_ = new TrainingChartsView;
    diagnosticsView_ = new DiagnosticsView;
    positionsView_ = new PositionalEncodingView;
    tabs_ = new QTabWidget;
    tabs_->setDocumentMode(true);
    // Tabs in order; the name is what --tab and showTab() accept.
    // Text only: eleven tabs with icons do not fit beside the setup panel on a 1400-pixel screen.
    auto addView = [this](QWidget* view, const char* name, const QString& title, const QString& toolTip) {
        view->setProperty(kTabNameProperty, QString::fromLatin1(name));
        const int index = tabs_->addTab(view, title);
        tabs_->setTabToolTip(index, toolTip);
    };
    compareView_ = new CompareView(controller_);
    mathsView_ = new MathsView;
    timelineView_ = new TimelineView;
    experimentsView_ = new ExperimentsView;
    addView(createCorpusTab(), "corpus", tr("Corpus"),
            tr("The sentence pairs of the corpus."));
    addView(translateView_, "translate", tr("Translate"),
            tr("Translate a sentence and see the attention behind it."));
    addView(probeView_, "probe", tr("Live Probe"),
            tr("Watch one sentence's attention form while the model trains."));
    addView(headsView_, "heads", tr("Heads"), tr("Every attention head of every layer."));
    addView(chartsView_, "curves", tr("Training Curves"),
            tr("Loss, accuracy and BLEU as training goes on."));
    addView(timelineView_, "timeline", tr("Timeline"),
            tr("Replay the probe sentence's attention over the whole training run."));
    addView(mathsView_, "maths", tr("Step by Step"),
            tr("How one output token's attention is computed, with the model's numbers."));
    addView(diagnosticsView_, "diagnostics", tr("Diagnostics"),
            tr("Is attention healthy? Entropy, diagonality, sinks and coverage per head, with what to try."));
    addView(compareView_, "compare", tr("Compare"),
            tr("Two models on the same sentence, side by side, on one colour scale."));
    addView(positionsView_, "positions", tr("Positions"),
            tr("The Transformer's sinusoidal positional encoding and how alike positions are."));
    addView(experimentsView_, "experiments", tr("Experiments"),
            tr("Measured experiments: the fixed-context bottleneck and the cost of attention as sequences grow."));
    connect(compareView_, &CompareView::loadFailed, this,
            [this](int, const QString& message) { reportError(tr("Cannot Open Model"), message); });
    // The lesson card: what the current lesson shows, above the views; closable.
    lessonBar_ = new QFrame;
    lessonBar_->setObjectName(QStringLiteral("lessonBar"));
    lessonBar_->setFrameShape(QFrame::StyledPanel);
    lessonBar_->setAutoFillBackground(true);
    lessonBar_->setBackgroundRole(QPalette::AlternateBase);
    auto* lessonLayout = new QHBoxLayout(lessonBar_);
    lessonLayout->setContentsMargins(10, 6, 6, 6);
    lessonText_ = new QLabel;
    lessonText_->setWordWrap(true);
    lessonText_->setTextFormat(Qt::RichText);
    auto* closeLesson = new QToolButton;
    closeLesson->setAutoRaise(true);
    closeLesson->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    closeLesson->setToolTip(tr("Hide the lesson card"));
    connect(closeLesson, &QToolButton::clicked, lessonBar_, &QWidget::hide);
    lessonLayout->addWidget(lessonText_, 1);
    lessonLayout->addWidget(closeLesson, 0, Qt::AlignTop);
    lessonBar_->hide();
    auto* central = new QWidget;
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(lessonBar_);
    centralLayout->addWidget(tabs_, 1);
    setCentralWidget(central);

    createActions();
    createMenus();
    createToolBar();
    createStatusBar();
    connectController();

    connect(loader_, &CorpusLoader::loaded, this, &MainWindow::onCorpusLoaded);
    connect(loader_, &CorpusLoader::failed, this, &MainWindow::onCorpusFailed);
    connect(dataPanel_, &DataPanel::generateRequested, this, &MainWindow::loadCorpus);
    connect(dataPanel_, &DataPanel::openTsvRequested, this, &MainWindow::openCorpusDialog);
    connect(dataPanel_, &DataPanel::openParallelRequested, this, &MainWindow::openParallelDialog);
    connect(dataPanel_, &DataPanel::retokenizeRequested, this, &MainWindow::loadCorpus);
    connect(translateView_, &TranslateView::translateRequested, this, &MainWindow::requestTranslation);
    connect(headsView_, &HeadsView::translateRequested, this,
            [this](const QString& sentence, int) { requestTranslation(sentence, translateView_->beam()); });
    connect(probeView_, &ProbeView::probeChanged, this, &MainWindow::updateProbe);
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::updateExportActions);
    // Step by Step: starts from the Translate view's sentence, and follows the model while it is shown.
    connect(mathsView_, &MathsView::traceRequested, this, [this](const QString& sentence, const TraceRequest& r) {
        traceRequest_ = controller_->trace(sentence, r);
    });
    connect(controller_, &TrainingController::traced, this, [this](quint64 id, const AttentionTrace& t) {
        if (id == traceRequest_) mathsView_->setTrace(t);
    });
    connect(controller_, &TrainingController::traceFailed, this, [this](quint64 id, const QString& message) {
        if (id == traceRequest_) mathsView_->setError(message);
    });
    connect(tabs_, &QTabWidget::currentChanged, this, &MainWindow::updateMathsView);
    connect(controller_, &TrainingController::epochFinished, this, &MainWindow::updateMathsView);

    resize(1400, 900);
    restoreSettings();
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

QIcon MainWindow::applicationIcon() {
    // A small attention map: a bright diagonal on a dark field, in viridis.
    QIcon icon;
    for (int size : {16, 32, 48, 64, 128, 256}) {
        QPixmap pixmap(size, size);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.setRenderHint(QPainter::Antialiasing);
        const int n = 4;
        const double margin = size * 0.06;
        const double cell = (size - 2 * margin) / n;
        const double weights[n][n] = {
            {0.92, 0.05, 0.02, 0.01}, {0.10, 0.15, 0.70, 0.05}, {0.05, 0.80, 0.10, 0.05}, {0.02, 0.03, 0.10, 0.85}};
        QPainterPath clip;
        clip.addRoundedRect(QRectF(margin, margin, size - 2 * margin, size - 2 * margin), size * 0.12, size * 0.12);
        painter.setClipPath(clip);
        for (int r = 0; r < n; ++r)
            for (int c = 0; c < n; ++c)
                painter.fillRect(QRectF(margin + c * cell, margin + r * cell, cell + 0.5, cell + 0.5),
                                 QColor::fromRgb(Colormap::color(ColormapId::Viridis, weights[r][c])));
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

// ---------------------------------------------------------------------------------------------
// Construction

QWidget* MainWindow::createCorpusTab() {
    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(12, 12, 12, 12);
    tableSearch_ = new QLineEdit;
    tableSearch_->setPlaceholderText(tr("Filter pairs, e.g. a word"));
    tableSearch_->setClearButtonEnabled(true);
    tableSearch_->setToolTip(tr("Show only the pairs that contain this text on either side."));
    layout->addWidget(tableSearch_);
    tableModel_ = new CorpusTableModel(this);
    tableFilter_ = new QSortFilterProxyModel(this);
    tableFilter_->setSourceModel(tableModel_);
    tableFilter_->setFilterKeyColumn(-1);
    tableFilter_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    table_ = new QTableView;
    table_->setModel(tableFilter_);
    table_->setAlternatingRowColors(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setWordWrap(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 10);
    table_->setToolTip(tr("Double-click a pair to translate its source sentence."));
    layout->addWidget(table_, 1);
    connect(tableSearch_, &QLineEdit::textChanged, tableFilter_, &QSortFilterProxyModel::setFilterFixedString);
    connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        const QModelIndex source = tableFilter_->index(index.row(), CorpusTableModel::SourceColumn);
        const QString sentence = tableFilter_->data(source).toString();
        translateView_->setSentence(sentence);
        headsView_->setSentence(sentence);
        tabs_->setCurrentWidget(translateView_);
        if (controller_->hasModel()) requestTranslation(sentence, translateView_->beam());
    });
    return page;
}

void MainWindow::createActions() {
    QStyle* s = style();
    openCorpusAction_ = new QAction(s->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open Corpus…"), this);
    openCorpusAction_->setShortcut(QKeySequence::Open);
    openCorpusAction_->setToolTip(tr("Open a TSV corpus: one source<TAB>target pair per line"));
    connect(openCorpusAction_, &QAction::triggered, this, &MainWindow::openCorpusDialog);

    openParallelAction_ = new QAction(s->standardIcon(QStyle::SP_DirOpenIcon), tr("Open &Aligned Files…"), this);
    openParallelAction_->setToolTip(tr("Open two line-aligned files, e.g. train.en and train.fr"));
    connect(openParallelAction_, &QAction::triggered, this, &MainWindow::openParallelDialog);

    openModelAction_ = new QAction(s->standardIcon(QStyle::SP_FileDialogStart), tr("Open &Model…"), this);
    openModelAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openModelAction_->setToolTip(tr("Open a trained model (.safetensors) to translate and inspect its heads"));
    connect(openModelAction_, &QAction::triggered, this, &MainWindow::openModelDialog);

    saveModelAction_ = new QAction(s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save Model"), this);
    saveModelAction_->setShortcut(QKeySequence::Save);
    saveModelAction_->setToolTip(tr("Save the model as .safetensors (readable from Python too)"));
    connect(saveModelAction_, &QAction::triggered, this, [this] {
        if (modelPath_.isEmpty() || !modelPath_.endsWith(QLatin1String(".safetensors"))) {
            saveModelDialog();
        } else {
            saveModelTo(modelPath_);
        }
    });
    saveModelAsAction_ = new QAction(tr("Save Model &As…"), this);
    saveModelAsAction_->setShortcut(QKeySequence::SaveAs);
    connect(saveModelAsAction_, &QAction::triggered, this, &MainWindow::saveModelDialog);

    exportImageAction_ = new QAction(s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Export Image…"), this);
    exportImageAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportImageAction_->setToolTip(tr("Save the heatmap, head grid or chart shown as PNG, SVG or PDF"));
    connect(exportImageAction_, &QAction::triggered, this, &MainWindow::exportImageDialog);
    exportMatrixAction_ = new QAction(tr("Export &Matrix (CSV, NumPy)…"), this);
    exportMatrixAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    connect(exportMatrixAction_, &QAction::triggered, this, &MainWindow::exportMatrixDialog);
    exportHeadsAction_ = new QAction(tr("Export All &Heads…"), this);
    exportHeadsAction_->setToolTip(tr("Write one file per attention head into a folder"));
    connect(exportHeadsAction_, &QAction::triggered, this, &MainWindow::exportAllHeadsDialog);

    quitAction_ = new QAction(tr("&Quit"), this);
    quitAction_->setShortcut(QKeySequence::Quit);
    quitAction_->setMenuRole(QAction::QuitRole);
    connect(quitAction_, &QAction::triggered, this, &QWidget::close);

    startAction_ = new QAction(s->standardIcon(QStyle::SP_MediaPlay), tr("&Start"), this);
    startAction_->setShortcut(QKeySequence(Qt::Key_F5));
    startAction_->setToolTip(tr("Build a new model from the settings and train it (F5)"));
    connect(startAction_, &QAction::triggered, this, [this] { startTraining(false); });
    resumeAction_ = new QAction(s->standardIcon(QStyle::SP_MediaPlay), tr("&Resume"), this);
    resumeAction_->setShortcut(QKeySequence(Qt::Key_F5));
    resumeAction_->setToolTip(tr("Continue training (F5)"));
    connect(resumeAction_, &QAction::triggered, controller_, &TrainingController::resume);
    pauseAction_ = new QAction(s->standardIcon(QStyle::SP_MediaPause), tr("&Pause"), this);
    pauseAction_->setShortcut(QKeySequence(Qt::Key_F6));
    pauseAction_->setToolTip(tr("Pause after the current batch (F6)"));
    connect(pauseAction_, &QAction::triggered, controller_, &TrainingController::pause);
    stepAction_ = new QAction(s->standardIcon(QStyle::SP_MediaSkipForward), tr("S&tep"), this);
    stepAction_->setShortcut(QKeySequence(Qt::Key_F10));
    stepAction_->setToolTip(tr("Train exactly one batch, then pause (F10)"));
    connect(stepAction_, &QAction::triggered, this, &MainWindow::stepTraining);
    stopAction_ = new QAction(s->standardIcon(QStyle::SP_MediaStop), tr("St&op"), this);
    stopAction_->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_F5));
    stopAction_->setToolTip(tr("End the run after the current batch; the model stays (Shift+F5)"));
    connect(stopAction_, &QAction::triggered, controller_, &TrainingController::stop);
    resetAction_ = new QAction(s->standardIcon(QStyle::SP_DialogResetButton), tr("Rese&t"), this);
    resetAction_->setToolTip(tr("Discard the model and the curves"));
    connect(resetAction_, &QAction::triggered, this, &MainWindow::resetTraining);

    numbersAction_ = new QAction(tr("Show &Numbers in Cells"), this);
    numbersAction_->setCheckable(true);
    numbersAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_N));
    numbersAction_->setToolTip(tr("Write each weight into its cell when the cells are large enough"));
    connect(numbersAction_, &QAction::toggled, this, &MainWindow::setShowNumbers);

    auto currentHeatmap = [this]() -> HeatmapWidget* {
        QWidget* tab = tabs_->currentWidget();
        if (tab == translateView_) return translateView_->attention()->heatmap();
        if (tab == probeView_) return probeView_->attention()->heatmap();
        if (tab == headsView_) return headsView_->currentHeatmap();
        if (tab == timelineView_) return timelineView_->attention()->heatmap();
        return nullptr;
    };
    zoomInAction_ = new QAction(tr("Zoom &In"), this);
    zoomInAction_->setShortcut(QKeySequence::ZoomIn);
    connect(zoomInAction_, &QAction::triggered, this, [currentHeatmap] {
        if (auto* h = currentHeatmap()) h->zoomIn();
    });
    zoomOutAction_ = new QAction(tr("Zoom &Out"), this);
    zoomOutAction_->setShortcut(QKeySequence::ZoomOut);
    connect(zoomOutAction_, &QAction::triggered, this, [currentHeatmap] {
        if (auto* h = currentHeatmap()) h->zoomOut();
    });
    zoomResetAction_ = new QAction(tr("&Fit Heatmap"), this);
    zoomResetAction_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    connect(zoomResetAction_, &QAction::triggered, this, [currentHeatmap] {
        if (auto* h = currentHeatmap()) h->resetZoom();
    });
    logScaleAction_ = new QAction(tr("&Logarithmic Loss Axis"), this);
    logScaleAction_->setCheckable(true);
    connect(logScaleAction_, &QAction::toggled, chartsView_, &TrainingChartsView::setLogScale);

    colormapGroup_ = new QActionGroup(this);
    colormapGroup_->setExclusive(true);
    for (ColormapId id : Colormap::all()) {
        auto* action = new QAction(colormapLabel(id), colormapGroup_);
        action->setCheckable(true);
        action->setData(static_cast<int>(id));
        connect(action, &QAction::triggered, this, [this, id] { setColormap(id); });
    }
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(openCorpusAction_);
    file->addAction(openParallelAction_);
    recentMenu_ = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    file->addAction(openModelAction_);
    file->addAction(saveModelAction_);
    file->addAction(saveModelAsAction_);
    file->addSeparator();
    file->addAction(exportImageAction_);
    file->addAction(exportMatrixAction_);
    file->addAction(exportHeadsAction_);
    file->addSeparator();
    file->addAction(quitAction_);

    QMenu* training = menuBar()->addMenu(tr("&Training"));
    training->addAction(startAction_);
    training->addAction(resumeAction_);
    training->addAction(pauseAction_);
    training->addAction(stepAction_);
    training->addAction(stopAction_);
    training->addSeparator();
    training->addAction(resetAction_);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    QMenu* colormaps = view->addMenu(tr("&Colour Map"));
    colormaps->addActions(colormapGroup_->actions());
    view->addAction(numbersAction_);
    view->addSeparator();
    view->addAction(zoomInAction_);
    view->addAction(zoomOutAction_);
    view->addAction(zoomResetAction_);
    view->addSeparator();
    view->addAction(logScaleAction_);
    view->addSeparator();
    for (int i = 0; i < tabs_->count(); ++i) {
        auto* action = view->addAction(tabs_->tabText(i));
        action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
        connect(action, &QAction::triggered, this, [this, i] { tabs_->setCurrentIndex(i); });
    }
    view->addSeparator();
    if (auto* dock = findChild<QDockWidget*>(QStringLiteral("setupDock"))) {
        QAction* toggle = dock->toggleViewAction();
        toggle->setText(tr("Show &Setup Panel"));
        toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
        view->addAction(toggle);
    }
    view->addSeparator();
    // Language names are written in their own language, so a user lost in the other one finds theirs.
    QMenu* language = view->addMenu(tr("Lan&guage"));
    languageGroup_ = new QActionGroup(this);
    languageGroup_->setExclusive(true);
    const QString stored = Translations::storedLanguage();
    const std::pair<QString, QString> languages[] = {
        {tr("System Default"), QString()},
        {QStringLiteral("English"), QString::fromLatin1(Translations::kEnglish)},
        {QStringLiteral("简体中文"), QString::fromLatin1(Translations::kSimplifiedChinese)},
    };
    for (const auto& [name, code] : languages) {
        QAction* action = language->addAction(name);
        action->setCheckable(true);
        action->setData(code);
        action->setChecked(code == stored);
        languageGroup_->addAction(action);
        connect(action, &QAction::triggered, this, [this, code = code] { setLanguage(code); });
    }

    QMenu* lessonsMenu = menuBar()->addMenu(tr("&Lessons"));
    for (const Lesson& lesson : lessons()) {
        QAction* action = lessonsMenu->addAction(lesson.title);
        action->setToolTip(lesson.summary);
        action->setStatusTip(lesson.summary);
        connect(action, &QAction::triggered, this, [this, id = lesson.id] { startLesson(id); });
    }

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    auto* about = help->addAction(tr("&About AttnLab"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    auto* aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::createToolBar() {
    // Toolbar buttons show the icon text: without it Qt strips only the '&' of a translated
    // "开始(&S)" and the button would read "开始(S)".
    openCorpusAction_->setIconText(tr("Open Corpus…"));
    openModelAction_->setIconText(tr("Open Model…"));
    saveModelAction_->setIconText(tr("Save Model"));
    startAction_->setIconText(tr("Start"));
    resumeAction_->setIconText(tr("Resume"));
    pauseAction_->setIconText(tr("Pause"));
    stepAction_->setIconText(tr("Step"));
    stopAction_->setIconText(tr("Stop"));
    resetAction_->setIconText(tr("Reset"));
    exportImageAction_->setIconText(tr("Export Image…"));
    QToolBar* bar = addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->setMovable(false);
    bar->addAction(openCorpusAction_);
    bar->addAction(openModelAction_);
    bar->addAction(saveModelAction_);
    bar->addSeparator();
    bar->addAction(startAction_);
    bar->addAction(resumeAction_);
    bar->addAction(pauseAction_);
    bar->addAction(stepAction_);
    bar->addAction(stopAction_);
    bar->addAction(resetAction_);
    bar->addSeparator();
    auto* spacer = new QWidget;
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    bar->addWidget(spacer);
    bar->addWidget(new QLabel(tr("Colours ")));
    colormapBox_ = new QComboBox;
    for (ColormapId id : Colormap::all()) colormapBox_->addItem(colormapLabel(id), static_cast<int>(id));
    colormapBox_->setToolTip(tr("Colour map of every heatmap; viridis, magma and cividis are perceptually "
                                "uniform and readable in grey."));
    connect(colormapBox_, &QComboBox::activated, this,
            [this] { setColormap(static_cast<ColormapId>(colormapBox_->currentData().toInt())); });
    bar->addWidget(colormapBox_);
    numbersAction_->setIconText(tr("Numbers"));
    bar->addAction(numbersAction_);
    bar->addAction(exportImageAction_);
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

void MainWindow::connectController() {
    connect(controller_, &TrainingController::stateChanged, this, &MainWindow::onStateChanged);
    connect(controller_, &TrainingController::progressChanged, this, &MainWindow::onProgress);
    connect(controller_, &TrainingController::prepared, this, &MainWindow::onPrepared);
    connect(controller_, &TrainingController::batchTrained, this, &MainWindow::onBatch);
    connect(controller_, &TrainingController::epochFinished, this, &MainWindow::onEpoch);
    connect(controller_, &TrainingController::probeUpdated, probeView_, &ProbeView::setResult);
    connect(controller_, &TrainingController::probeUpdated, diagnosticsView_, &DiagnosticsView::setProbe);
    connect(controller_, &TrainingController::probeUpdated, timelineView_, &TimelineView::addSnapshot);
    connect(controller_, &TrainingController::prepared, timelineView_,
            [this](const ModelSummary& s) { timelineView_->setBatchesPerEpoch(s.batchesPerEpoch); });
    connect(controller_, &TrainingController::modifiedChanged, this, &MainWindow::updateTitle);
    connect(controller_, &TrainingController::finished, this, [this](bool stopped) {
        statusBar()->showMessage(stopped ? tr("Training stopped; the model is kept for translation and saving.")
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
        startWhenLoaded_ = false;
        reportError(tr("Training Failed"), tr("Training could not go on:\n\n%1").arg(message));
        onModelAvailable();
    });
    connect(controller_, &TrainingController::translated, this, [this](quint64 id, const Translation& t) {
        if (id != translateRequest_) return;  // a newer request is on its way
        translateView_->setTranslation(t);
        headsView_->setTranslation(t);
        diagnosticsView_->setTranslation(t);
    });
    connect(controller_, &TrainingController::translationFailed, this, [this](quint64 id, const QString& message) {
        if (id != translateRequest_) return;
        translateView_->setError(message);
        statusBar()->showMessage(message, 8000);
    });
    connect(controller_, &TrainingController::modelSaved, this, [this](const QString& path) {
        modelPath_ = path;
        statusBar()->showMessage(tr("Saved the model to %1").arg(QDir::toNativeSeparators(path)), 8000);
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
    connect(controller_, &TrainingController::modelLoaded, this, [this](const ModelSummary& summary) {
        modelPath_ = summary.origin;
        chartsView_->clear();
        probeView_->clear();
        diagnosticsView_->clear();
        positionsView_->setModel(&summary.config);
        timelineView_->clear();
        modelSettings_->setConfig(summary.config);
        headsView_->setArchitecture(summary.config.architecture);
        statusBar()->showMessage(tr("Opened %1: %2, %3 parameters")
                                     .arg(QFileInfo(summary.origin).fileName(), architectureName(summary.config),
                                          humanCount(summary.parameters)),
                                 10000);
        onStateChanged();
        onModelAvailable();
        updateProbe();
        updateTitle();
    });
    connect(controller_, &TrainingController::loadFailed, this, [this](const QString& message) {
        reportError(tr("Cannot Open Model"),
                    tr("The model file could not be used:\n\n%1\n\nThe current model stays loaded.").arg(message));
    });
}

// ---------------------------------------------------------------------------------------------
// Settings

void MainWindow::restoreSettings() {
    QSettings settings;
    restoreGeometry(settings.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(settings.value(QStringLiteral("window/state")).toByteArray());
    recent_ = settings.value(QStringLiteral("recentCorpora")).toStringList();
    lastDirectory_ = settings.value(QStringLiteral("lastDirectory"),
                                    QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                         .toString();
    rebuildRecentMenu();

    DatasetOptions data;
    data.size = settings.value(QStringLiteral("data/size"), 2000).toUInt();
    data.seed = settings.value(QStringLiteral("data/seed"), 1).toULongLong();
    data.maxLen = settings.value(QStringLiteral("data/maxLen"), 0).toInt();
    dataPanel_->setDatasetSource(
        CorpusSource::builtin(settings.value(QStringLiteral("data/dataset"), QStringLiteral("toy-en-zh")).toString(),
                              data));

    const QString json = settings.value(QStringLiteral("model/config")).toString();
    if (!json.isEmpty()) {
        try {
            modelSettings_->setConfig(modelConfigFromJson(json.toStdString()));
        } catch (...) {
            // A configuration from another version: keep the defaults.
        }
    }
    TrainingOptions o = trainingSettings_->options();
    o.learningRate = settings.value(QStringLiteral("training/learningRate"), o.learningRate).toDouble();
    o.batchSize = settings.value(QStringLiteral("training/batch"), o.batchSize).toInt();
    o.epochs = settings.value(QStringLiteral("training/epochs"), o.epochs).toInt();
    o.seed = settings.value(QStringLiteral("training/seed"), static_cast<qulonglong>(o.seed)).toULongLong();
    o.threads = settings.value(QStringLiteral("training/threads"), o.threads).toInt();
    o.validationFraction = settings.value(QStringLiteral("training/validation"), o.validationFraction).toDouble();
    o.clip = settings.value(QStringLiteral("training/clip"), o.clip).toDouble();
    o.teacherForcing = settings.value(QStringLiteral("training/teacherForcing"), o.teacherForcing).toDouble();
    trainingSettings_->setOptions(o);

    colormap_ = Colormap::fromName(settings.value(QStringLiteral("view/colormap")).toString())
                    .value_or(ColormapId::Viridis);
    showNumbers_ = settings.value(QStringLiteral("view/numbers"), false).toBool();
    logScaleAction_->setChecked(settings.value(QStringLiteral("view/logScale"), false).toBool());
    probeView_->setSentence(settings.value(QStringLiteral("probe/sentence")).toString());
    probeView_->setEveryBatches(settings.value(QStringLiteral("probe/every"), 5).toInt());
    const int tab = settings.value(QStringLiteral("view/tab"), 1).toInt();
    if (tab >= 0 && tab < tabs_->count()) tabs_->setCurrentIndex(tab);
}

void MainWindow::saveSettings() const {
    QSettings settings;
    settings.setValue(QStringLiteral("window/geometry"), saveGeometry());
    settings.setValue(QStringLiteral("window/state"), saveState());
    settings.setValue(QStringLiteral("recentCorpora"), recent_);
    settings.setValue(QStringLiteral("lastDirectory"), lastDirectory_);
    const CorpusSource data = dataPanel_->datasetSource();
    settings.setValue(QStringLiteral("data/dataset"), data.dataset);
    settings.setValue(QStringLiteral("data/size"), static_cast<qulonglong>(data.options.size));
    settings.setValue(QStringLiteral("data/seed"), static_cast<qulonglong>(data.options.seed));
    settings.setValue(QStringLiteral("data/maxLen"), data.options.maxLen);
    ModelConfig config = modelSettings_->config();
    config.sourceVocab = config.targetVocab = 5;  // not part of the settings; keeps the JSON valid
    settings.setValue(QStringLiteral("model/config"), QString::fromStdString(toJson(config)));
    const TrainingOptions o = trainingSettings_->options();
    settings.setValue(QStringLiteral("training/learningRate"), o.learningRate);
    settings.setValue(QStringLiteral("training/batch"), o.batchSize);
    settings.setValue(QStringLiteral("training/epochs"), o.epochs);
    settings.setValue(QStringLiteral("training/seed"), static_cast<qulonglong>(o.seed));
    settings.setValue(QStringLiteral("training/threads"), o.threads);
    settings.setValue(QStringLiteral("training/validation"), o.validationFraction);
    settings.setValue(QStringLiteral("training/clip"), o.clip);
    settings.setValue(QStringLiteral("training/teacherForcing"), o.teacherForcing);
    settings.setValue(QStringLiteral("view/colormap"), Colormap::nameOf(colormap_));
    settings.setValue(QStringLiteral("view/numbers"), showNumbers_);
    settings.setValue(QStringLiteral("view/logScale"), chartsView_->logScale());
    settings.setValue(QStringLiteral("view/tab"), tabs_->currentIndex());
    settings.setValue(QStringLiteral("probe/sentence"), probeView_->sentence());
    settings.setValue(QStringLiteral("probe/every"), probeView_->everyBatches());
}

// ---------------------------------------------------------------------------------------------
// Corpus

void MainWindow::openCorpusFile(const QString& path) { loadCorpus(CorpusSource::tsv(path)); }

void MainWindow::openParallelFiles(const QString& sourcePath, const QString& targetPath) {
    loadCorpus(CorpusSource::parallel(sourcePath, targetPath));
}

void MainWindow::loadCorpus(const CorpusSource& source) {
    loadId_ = loader_->load(source);
    dataPanel_->setLoading(source.displayName());
    statusBar()->showMessage(tr("Loading %1…").arg(source.displayName()));
}

void MainWindow::onCorpusLoaded(quint64 id, const LoadedCorpus& loaded) {
    if (id != loadId_) return;
    const bool firstCorpus = !corpus_.corpus;
    const QString previousFirst =
        corpus_.corpus && !corpus_.corpus->pairs.empty() ? QString::fromStdString(corpus_.corpus->pairs[0].source)
                                                         : QString();
    corpus_ = loaded;
    tableModel_->setCorpus(loaded.corpus);
    dataPanel_->setLoaded(loaded);
    modelSettings_->setVocabularySizes(loaded.sourceVocabulary, loaded.targetVocabulary);
    if (loaded.source.isFile()) addRecent(loaded.source);
    const std::size_t pairs = loaded.corpus->pairs.size();
    statusBar()->showMessage(
        tr("Loaded %1: %2 sentence pairs.").arg(loaded.source.displayName(), QLocale().toString(static_cast<qulonglong>(pairs))),
        8000);
    // Sentences to start from: the corpus's first pair, unless the user chose their own.
    if (!loaded.corpus->pairs.empty()) {
        const QString first = QString::fromStdString(loaded.corpus->pairs[0].source);
        auto replaceable = [&](const QString& sentence) {
            return sentence.trimmed().isEmpty() || (!firstCorpus && sentence.trimmed() == previousFirst);
        };
        if (replaceable(probeView_->sentence())) {
            probeView_->setSentence(first);
            updateProbe();
        }
        if (replaceable(translateView_->sentence())) {
            translateView_->setSentence(first);
            // A model opened before the corpus arrived shows this sentence at once.
            if (controller_->hasModel()) requestTranslation(first, translateView_->beam());
        }
        if (replaceable(headsView_->sentence())) headsView_->setSentence(first);
    }
    updateTitle();
    Q_EMIT corpusLoaded();
    if (startWhenLoaded_) {
        startWhenLoaded_ = false;
        startTraining(false);
    }
}

void MainWindow::onCorpusFailed(quint64 id, const QString& message, const CorpusSource& source) {
    if (id != loadId_) return;
    startWhenLoaded_ = false;
    if (corpus_.corpus) {
        dataPanel_->setLoaded(corpus_);  // back to what is loaded
    } else {
        dataPanel_->setLoadFailed();
    }
    statusBar()->showMessage(tr("Could not open %1").arg(source.displayName()), 8000);
    const QString keep = corpus_.corpus ? tr("\n\nThe current corpus (%1) stays loaded.")
                                              .arg(corpus_.source.displayName())
                                        : QString();
    reportError(tr("Cannot Open Corpus"), tr("The corpus could not be read:\n\n%1%2").arg(message, keep));
    Q_EMIT corpusFailed(message);
}

void MainWindow::addRecent(const CorpusSource& source) {
    const QString key = recentKey(source);
    recent_.removeAll(key);
    recent_.prepend(key);
    while (recent_.size() > kMaxRecent) recent_.removeLast();
    rebuildRecentMenu();
}

void MainWindow::rebuildRecentMenu() {
    recentMenu_->clear();
    for (const QString& entry : recent_) {
        const QStringList parts = entry.split(QLatin1Char('\n'));
        const QString label = parts.size() == 2 ? QFileInfo(parts[0]).fileName() + QStringLiteral(" + ") +
                                                      QFileInfo(parts[1]).fileName()
                                                : QFileInfo(entry).fileName();
        QAction* action = recentMenu_->addAction(label);
        action->setToolTip(QDir::toNativeSeparators(parts.join(QStringLiteral(" + "))));
        connect(action, &QAction::triggered, this, [this, parts] {
            if (parts.size() == 2) {
                openParallelFiles(parts[0], parts[1]);
            } else {
                openCorpusFile(parts[0]);
            }
        });
    }
    if (!recent_.isEmpty()) {
        recentMenu_->addSeparator();
        recentMenu_->addAction(tr("&Clear Menu"), this, [this] {
            recent_.clear();
            rebuildRecentMenu();
        });
    }
    recentMenu_->setEnabled(!recent_.isEmpty());
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

// ---------------------------------------------------------------------------------------------
// Models and training

void MainWindow::openModelFile(const QString& path) {
    if (controller_->isActive()) {
        reportError(tr("Cannot Open Model"), tr("Stop the training run before opening another model."));
        return;
    }
    statusBar()->showMessage(tr("Opening %1…").arg(QFileInfo(path).fileName()));
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
    statusBar()->showMessage(tr("Saving %1…").arg(QFileInfo(path).fileName()));
    controller_->saveModel(path);
}

bool MainWindow::saveModelDialog() {
    const QString suggested = QDir(lastDirectory_).filePath(
        (corpus_.corpus ? corpus_.source.displayName().section(QLatin1Char('.'), 0, 0) : QStringLiteral("model")) +
        QStringLiteral(".safetensors"));
    QString path = QFileDialog::getSaveFileName(this, tr("Save Model"), modelPath_.isEmpty() ? suggested : modelPath_,
                                                tr("AttnLab models (*.safetensors)"));
    if (path.isEmpty()) return false;
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".safetensors");
    lastDirectory_ = QFileInfo(path).absolutePath();
    saveModelTo(path);
    return true;
}

void MainWindow::startTraining(bool paused) {
    if (controller_->isActive()) return;
    if (!corpus_.corpus) {
        if (loader_->isLoading()) {
            startWhenLoaded_ = true;
            statusBar()->showMessage(tr("Training starts when the corpus is loaded…"));
        } else {
            reportError(tr("No Corpus"), tr("Load a corpus or generate a built-in dataset first."));
        }
        return;
    }
    if (controller_->hasModel() && controller_->isModified()) {
        const auto answer = ask(
            tr("Start a New Run?"),
            tr("Starting builds a new model from the settings. The current model has unsaved training. Discard it?"),
            QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Discard) return;
    }
    TrainingRequest request;
    request.corpus = corpus_.corpus;
    request.config = modelSettings_->config();
    request.options = trainingSettings_->options();
    request.options.tokenizer = corpus_.source.tokenizer;  // what the data panel counted and shows
    chartsView_->clear();
    chartsView_->setPlannedEpochs(request.options.epochs);
    probeView_->clear();
    diagnosticsView_->clear();
    timelineView_->clear();
    modelPath_.clear();
    updateProbe();
    controller_->start(request, paused);
    statusBar()->showMessage(tr("Preparing: tokenizing %1 and building the model…").arg(corpus_.source.displayName()));
}

void MainWindow::startDemo(const QString& dataset) {
    DatasetOptions data;
    data.size = 2000;
    data.seed = 1;
    const CorpusSource source = CorpusSource::builtin(dataset, data);  // the dataset's own tokens
    dataPanel_->setDatasetSource(source);
    ModelConfig config;
    config.architecture = Architecture::Transformer;
    config.hidden = 64;
    config.layers = 2;
    config.heads = 4;
    config.feedForward = 128;
    config.dropout = 0.1f;
    config.maxLength = 41;
    modelSettings_->setConfig(config);
    TrainingOptions options = trainingSettings_->options();
    options.epochs = 20;
    options.batchSize = 32;
    options.learningRate = 0.002;
    options.seed = 1;
    trainingSettings_->setOptions(options);
    probeView_->setEveryBatches(5);
    const bool chinese = dataset == QLatin1String("toy-en-zh");
    const QString probe = chinese ? QStringLiteral("tom chases jerry in the park now")
                                  : QStringLiteral("the small cat sees the red car");
    probeView_->setSentence(probe);
    translateView_->setSentence(chinese ? QStringLiteral("mary draws the cat in the red library this morning")
                                        : QStringLiteral("my mother likes the big dog"));
    headsView_->setSentence(translateView_->sentence());
    startWhenLoaded_ = true;
    loadCorpus(source);
}

bool MainWindow::startLesson(const QString& id) {
    const Lesson lesson = findLesson(id);
    if (lesson.id.isEmpty()) return false;
    if (controller_->isActive() || (controller_->hasModel() && controller_->isModified())) {
        const auto answer = ask(tr("Start the Lesson?"),
                                tr("The lesson trains a new model. The current model and its unsaved training "
                                   "will be discarded."),
                                QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Discard) return true;
    }
    discardModel();
    // The lesson's dataset with its own tokenizer choice (toy-en-zh: Chinese words), whatever the
    // data panel's check box said for the previous corpus.
    const CorpusSource source = CorpusSource::builtin(lesson.dataset, lesson.data);
    dataPanel_->setDatasetSource(source);
    modelSettings_->setConfig(lesson.config);
    trainingSettings_->setOptions(lesson.options);
    probeView_->setEveryBatches(lesson.probeEveryBatches);
    probeView_->setSentence(lesson.probeSentence);
    translateView_->setSentence(lesson.translateSentence);
    headsView_->setSentence(lesson.translateSentence);
    compareView_->setSentence(lesson.translateSentence);
    lessonText_->setText(QStringLiteral("<b>%1</b><br>%2").arg(lesson.title.toHtmlEscaped(), lesson.summary.toHtmlEscaped()));
    lessonBar_->show();
    lesson_ = lesson.id;
    showTab(lesson.tab);
    startWhenLoaded_ = true;
    loadCorpus(source);
    return true;
}

void MainWindow::stepTraining() {
    if (controller_->isActive()) {
        controller_->step();
        return;
    }
    // From a stopped or empty session: build a new model paused, then train its first batch.
    startTraining(true);
    if (controller_->isActive()) controller_->step();
}

void MainWindow::resetTraining() {
    if (controller_->hasModel() && controller_->isModified()) {
        const auto answer = ask(tr("Discard the Model?"), tr("Reset discards the model and its unsaved training."),
                                QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Discard) return;
    }
    discardModel();
    statusBar()->showMessage(tr("Reset: no model."), 5000);
}

void MainWindow::discardModel() {
    controller_->reset();
    chartsView_->clear();
    probeView_->clear();
    timelineView_->clear();
    translateView_->clear();
    headsView_->clear();
    mathsView_->clear();
    diagnosticsView_->clear();
    positionsView_->setModel(nullptr);
    modelPath_.clear();
    onModelAvailable();
    updateTitle();
}

void MainWindow::updateProbe() {
    controller_->setProbe(probeView_->sentence(), probeView_->everyBatches());
}

void MainWindow::requestTranslation(const QString& sentence, int beam) {
    if (sentence.trimmed().isEmpty()) {
        statusBar()->showMessage(tr("Type a sentence to translate."), 5000);
        translateView_->setError(tr("Type a sentence to translate."));
        return;
    }
    if (!controller_->hasModel() && !controller_->isPreparing()) {
        statusBar()->showMessage(tr("There is no model yet: start training or open a model."), 6000);
        return;
    }
    if (translateView_->sentence() != sentence) translateView_->setSentence(sentence);
    if (headsView_->sentence() != sentence) headsView_->setSentence(sentence);
    translateRequest_ = controller_->translate(sentence, beam);
}

void MainWindow::onPrepared(const ModelSummary& s) {
    headsView_->setArchitecture(s.config.architecture);
    positionsView_->setModel(&s.config);
    QString message = tr("Training %1, %2 parameters, on %3 pairs (validating on %4)")
                          .arg(architectureName(s.config), humanCount(s.parameters))
                          .arg(s.trainingPairs)
                          .arg(s.validationPairs);
    if (s.skippedTooLong > 0)
        message += tr("; skipped %1 pairs longer than the maximum length").arg(s.skippedTooLong);
    statusBar()->showMessage(message, 15000);
    onModelAvailable();  // translates the sentence in the Translate view with the new model
}

void MainWindow::onModelAvailable() {
    const bool available = controller_->hasModel() || controller_->isPreparing();
    translateView_->setModelAvailable(available);
    headsView_->setModelAvailable(available);
    compareView_->currentModelChanged();
    mathsView_->setModelAvailable(available);
    if (controller_->hasModel() && !translateView_->sentence().trimmed().isEmpty() &&
        !controller_->isPreparing())
        requestTranslation(translateView_->sentence(), translateView_->beam());
    updateMathsView();
    updateExportActions();
}

void MainWindow::updateMathsView() {
    if (tabs_->currentWidget() != mathsView_ || !controller_->hasModel() || controller_->isPreparing()) return;
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
    statusBar()->showMessage(tr("Epoch %1: validation loss %2, token accuracy %3%, BLEU %4")
                                 .arg(m.epoch)
                                 .arg(m.validationLoss, 0, 'f', 3)
                                 .arg(100.0 * m.tokenAccuracy, 0, 'f', 1)
                                 .arg(m.bleu, 0, 'f', 1),
                             10000);
    if (translateView_->followsTraining() && !translateView_->sentence().trimmed().isEmpty())
        requestTranslation(translateView_->sentence(), translateView_->beam());
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
    startAction_->setVisible(state != State::Paused);
    resumeAction_->setVisible(state == State::Paused);
    startAction_->setEnabled(!active);
    resumeAction_->setEnabled(state == State::Paused);
    pauseAction_->setEnabled(state == State::Running);
    stepAction_->setEnabled(state != State::Running);
    stopAction_->setEnabled(active);
    resetAction_->setEnabled(state != State::Running);
    openModelAction_->setEnabled(!active);
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
    QString title = corpus_.corpus ? corpus_.source.displayName() : tr("no corpus");
    if (!modelPath_.isEmpty()) title = QFileInfo(modelPath_).fileName();
    setWindowTitle(tr("%1[*] — AttnLab").arg(title));
    setWindowModified(controller_->isModified());
    saveModelAction_->setEnabled(controller_->hasModel() || controller_->isPreparing());
    saveModelAsAction_->setEnabled(controller_->hasModel() || controller_->isPreparing());
}

void MainWindow::updateExportActions() {
    QWidget* tab = tabs_->currentWidget();
    const bool figure = tab == translateView_ || tab == probeView_ || tab == headsView_ || tab == chartsView_ ||
                        tab == compareView_ || tab == timelineView_ || tab == experimentsView_;
    exportImageAction_->setEnabled(figure);
    exportMatrixAction_->setEnabled(tab == translateView_ || tab == probeView_ || tab == headsView_ ||
                                    tab == timelineView_);
    exportHeadsAction_->setEnabled(controller_->hasModel());
    saveModelAction_->setEnabled(controller_->hasModel());
    saveModelAsAction_->setEnabled(controller_->hasModel());
}

// ---------------------------------------------------------------------------------------------
// Views and export

void MainWindow::setColormap(ColormapId id) {
    colormap_ = id;
    translateView_->attention()->heatmap()->setColormap(id);
    probeView_->attention()->heatmap()->setColormap(id);
    headsView_->setColormap(id);
    compareView_->setColormap(id);
    timelineView_->setColormap(id);
    const int index = colormapBox_->findData(static_cast<int>(id));
    if (index >= 0) colormapBox_->setCurrentIndex(index);
    for (QAction* action : colormapGroup_->actions()) action->setChecked(action->data().toInt() == static_cast<int>(id));
}

void MainWindow::setShowNumbers(bool on) {
    showNumbers_ = on;
    translateView_->attention()->heatmap()->setShowNumbers(on);
    probeView_->attention()->heatmap()->setShowNumbers(on);
    headsView_->setShowNumbers(on);
    compareView_->setShowNumbers(on);
    timelineView_->attention()->heatmap()->setShowNumbers(on);
    if (numbersAction_->isChecked() != on) numbersAction_->setChecked(on);
}

bool MainWindow::showTab(const QString& name) {
    for (int i = 0; i < tabs_->count(); ++i) {
        if (name.compare(tabs_->widget(i)->property(kTabNameProperty).toString(), Qt::CaseInsensitive) == 0) {
            tabs_->setCurrentIndex(i);
            return true;
        }
    }
    return false;
}

QStringList MainWindow::tabNames() const {
    QStringList names;
    for (int i = 0; i < tabs_->count(); ++i) names << tabs_->widget(i)->property(kTabNameProperty).toString();
    return names;
}

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

QString MainWindow::currentTabName() const {
    const QWidget* tab = tabs_->currentWidget();
    return tab ? tab->property(kTabNameProperty).toString() : QString();
}

bool MainWindow::exportCurrentView(const QString& path, double scale, QString* error) {
    struct ReleaseAfterwards {  // a PDF or a large PNG leaves tens of MB of freed buffers behind
        ~ReleaseAfterwards() { releaseFreeMemory(); }
    } release;
    QWidget* tab = tabs_->currentWidget();
    const auto format = HeatmapRenderer::formatForPath(path);
    const bool matrix = format == ExportFormat::Csv || format == ExportFormat::Npy;
    auto fail = [error](const QString& message) {
        if (error) *error = message;
        return false;
    };
    if (tab == chartsView_) {
        if (matrix) return fail(tr("charts are exported as PNG, SVG or PDF"));
        return chartsView_->exportImage(path, error, scale);
    }
    if (tab == compareView_) {
        if (matrix) return fail(tr("a comparison is exported as PNG, SVG or PDF"));
        return compareView_->exportFigure(path, error, scale);
    }
    if (tab == experimentsView_) {
        if (matrix) return fail(tr("charts are exported as PNG, SVG or PDF"));
        return experimentsView_->exportImage(path, error, scale);
    }
    const HeatmapWidget* heatmap = nullptr;
    if (tab == translateView_) heatmap = translateView_->attention()->hasMap() ? translateView_->attention()->heatmap() : nullptr;
    if (tab == probeView_) heatmap = probeView_->attention()->hasMap() ? probeView_->attention()->heatmap() : nullptr;
    if (tab == timelineView_)
        heatmap = timelineView_->attention()->hasMap() ? timelineView_->attention()->heatmap() : nullptr;
    if (tab == headsView_) {
        if (!matrix) return headsView_->exportFigure(path, error, scale);
        heatmap = headsView_->currentHeatmap();
    }
    if (!heatmap) return fail(tr("there is no heatmap to export in this view yet"));
    return heatmap->exportTo(path, error, scale);
}

void MainWindow::exportImageDialog() {
    const QString base = QDir(lastDirectory_).filePath(currentTabName());
    const QString path = askFigurePath(this, tr("Export Image"), base + QStringLiteral(".png"));
    if (path.isEmpty()) return;
    lastDirectory_ = QFileInfo(path).absolutePath();
    double scale = 1.0;
    if (HeatmapRenderer::formatForPath(path) == ExportFormat::Png) {
        const QStringList scales{tr("1× (screen)"), tr("2× (slides, print)"), tr("4× (poster)")};
        bool ok = false;
        const QString choice =
            QInputDialog::getItem(this, tr("PNG Resolution"), tr("Scale of the image:"), scales, 1, false, &ok);
        if (!ok) return;
        scale = choice == scales[0] ? 1.0 : choice == scales[2] ? 4.0 : 2.0;
    }
    QString error;
    if (exportCurrentView(path, scale, &error)) {
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 8000);
    } else {
        reportError(tr("Export Failed"), error);
    }
}

void MainWindow::exportMatrixDialog() {
    const QString csvFilter = tr("CSV table (*.csv)");
    const QString npyFilter = tr("NumPy array (*.npy)");
    QString selected = csvFilter;
    QString path = QFileDialog::getSaveFileName(this, tr("Export Matrix"),
                                                QDir(lastDirectory_).filePath(QStringLiteral("attention.csv")),
                                                csvFilter + QStringLiteral(";;") + npyFilter, &selected);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += selected == npyFilter ? QStringLiteral(".npy") : QStringLiteral(".csv");
    lastDirectory_ = QFileInfo(path).absolutePath();
    QString error;
    if (exportCurrentView(path, 1.0, &error)) {
        statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 8000);
    } else {
        reportError(tr("Export Failed"), error);
    }
}

void MainWindow::exportAllHeadsDialog() {
    if (!headsView_->showsTransformer() && !headsView_->showsGru()) {
        reportError(tr("Export Failed"), tr("Translate a sentence first (Heads view): there are no heads to export."));
        return;
    }
    const QString directory = QFileDialog::getExistingDirectory(this, tr("Export All Heads Into"), lastDirectory_);
    if (directory.isEmpty()) return;
    lastDirectory_ = directory;
    bool ok = false;
    const QStringList formats{QStringLiteral("png"), QStringLiteral("svg"), QStringLiteral("pdf"), QStringLiteral("csv"),
                              QStringLiteral("npy")};
    const QString format =
        QInputDialog::getItem(this, tr("Export All Heads"), tr("File format:"), formats, 0, false, &ok);
    if (!ok) return;
    QStringList written;
    QString error;
    if (headsView_->exportAllHeads(directory, format, 2.0, &written, &error)) {
        statusBar()->showMessage(tr("Wrote %1 files to %2").arg(written.size()).arg(QDir::toNativeSeparators(directory)),
                                 8000);
    } else {
        reportError(tr("Export Failed"), error);
    }
}

void MainWindow::showAbout() {
    QMessageBox::about(
        this, tr("About AttnLab"),
        tr("<h3>AttnLab %1</h3>"
           "<p>Train small sequence-to-sequence models on a small parallel corpus, type a sentence, and watch "
           "attention heatmaps, every head and the training curves update live.</p>"
           "<p>Revision %2 · Qt %3</p>")
            .arg(QString::fromLatin1(kVersion), QString::fromLatin1(kGitRevision), QString::fromLatin1(qVersion())));
}

void MainWindow::setLanguage(const QString& language) {
    const QString code = Translations::available().contains(language) ? language : QString();
    for (QAction* action : languageGroup_->actions()) action->setChecked(action->data().toString() == code);
    if (code == Translations::storedLanguage()) return;
    Translations::setStoredLanguage(code);
    const QString title = tr("Language");
    const QString text = tr("AttnLab will use the new language the next time it starts.");
    if (prompt_) {
        prompt_(title, text, QMessageBox::Ok);
    } else {
        QMessageBox::information(this, title, text);
    }
}

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

// ---------------------------------------------------------------------------------------------
// Window events

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
            const bool asked = modelPath_.endsWith(QLatin1String(".safetensors")) ? (saveModelTo(modelPath_), true)
                                                                                  : saveModelDialog();
            if (asked) closeAfterSave_ = true;  // the window closes when the worker reports the save
            event->ignore();
            return;
        }
    }
    saveSettings();
    shuttingDown_ = true;
    experimentsView_->stop();  // winds down while training stops; its destructor joins the thread
    statusBar()->showMessage(tr("Stopping training…"));
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
        if (path.endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive)) {
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
