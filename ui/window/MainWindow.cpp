#include "window/MainWindow.h"

#include "base/lesson/Lesson.h"
#include "base/TaskIds.h"
#include "base/io/Safetensors.h"
#include "task/BuiltinTasks.h"
#include "views/View.h"
#include "widgets/HeadGridWidget.h"
#include "widgets/HeatmapWidget.h"
#include "widgets/LineViewWidget.h"
#include "window/FigureExport.h"
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
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QScreen>
#include <QSignalBlocker>
#include <QStackedWidget>
#include <QStatusBar>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace attnlab {

MainWindow::MainWindow(QWidget* parent) : MainWindow(taskFactories(), parent) {}

MainWindow::MainWindow(const std::vector<TaskFactory>& factories, QWidget* parent) : QMainWindow(parent) {
    setWindowIcon(applicationIcon());
    setAcceptDrops(true);
    setDocumentMode(true);

    // The task chosen first, then its setup page.
    auto* setupPage = new QWidget;
    auto* setupLayout = new QVBoxLayout(setupPage);
    setupLayout->setContentsMargins(0, 0, 0, 0);
    auto* taskRow = new QHBoxLayout;
    taskRow->setContentsMargins(8, 6, 8, 2);
    auto* taskLabel = new QLabel(tr("Task:"));
    task_ = new QComboBox;
    task_->setToolTip(tr("What you work on: its data, models and views."));
    taskLabel->setBuddy(task_);
    taskRow->addWidget(taskLabel);
    taskRow->addWidget(task_, 1);
    setupLayout->addLayout(taskRow);
    setupStack_ = new QStackedWidget;  // one page per task
    setupLayout->addWidget(setupStack_, 1);
    auto* dock = new QDockWidget(tr("Setup"), this);
    dock->setObjectName(QStringLiteral("setupDock"));
    dock->setWidget(setupPage);
    dock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable);
    dock->setMinimumWidth(300);
    addDockWidget(Qt::LeftDockWidgetArea, dock);

    navigator_ = new ViewNavigator;
    createTasks(factories);
    auto* central = new QWidget;
    auto* centralLayout = new QVBoxLayout(central);
    centralLayout->setContentsMargins(0, 0, 0, 0);
    centralLayout->setSpacing(0);
    centralLayout->addWidget(createLessonBar());
    centralLayout->addWidget(navigator_, 1);
    setCentralWidget(central);

    actions_ = new WindowActions(this);
    actions_->createMenus(this, navigator_, tasks_);
    actions_->createToolBar(this, tasks_);
    export_ = new FigureExport(
        this, navigator_, &lastDirectory_, [this](const QString& t, const QString& m) { reportError(t, m); },
        [this](const QString& m) { showStatus(m, 8000); });
    connectActions();

    // 1400 x 900 where the screen has room; never larger than the screen (1366 x 768 laptops, projectors).
    resize(screen() != nullptr ? QSize(1400, 900).boundedTo(screen()->availableGeometry().size()) : QSize(1400, 900));
    WindowSettings settings = windowSettings();
    settings.restore();
    lastDirectory_ = settings.lastDirectory;
    colormap_ = settings.colormap;
    showNumbers_ = settings.showNumbers;
    setColormap(colormap_);
    setShowNumbers(showNumbers_);
    if (!tasks_.isEmpty()) {
        switchTask(tasks_.front()->id());
        showTab(settings.viewName);
    }
    updateTitle();
    updateActions();
}

MainWindow::~MainWindow() {
    if (!shuttingDown_) {
        for (Task* t : tasks_) t->shutdown();
    }
}

void MainWindow::createTasks(const std::vector<TaskFactory>& factories) {
    TaskContext context;
    context.window = this;
    context.navigator = navigator_;
    context.lastDirectory = &lastDirectory_;
    context.hooks = TaskHooks{[this](const QString& t, const QString& x, QMessageBox::StandardButtons b,
                                     QMessageBox::StandardButton d) { return ask(t, x, b, d); },
                              [this](const QString& t, const QString& m) { reportError(t, m); },
                              [this](const QString& m, int timeout) { showStatus(m, timeout); }};
    for (const TaskFactory& make : factories) {
        // A task's status messages belong to it: they show while it is current and wait while it is
        // not (a load or a run in the background never speaks in another task's status bar); its
        // questions and errors always reach the user.
        const int index = static_cast<int>(tasks_.size());
        statuses_.emplace_back();
        context.hooks.status = [this, index](const QString& m, int timeout) {
            TaskStatus& status = statuses_[static_cast<std::size_t>(index)];
            status.message = m;
            status.until = timeout > 0 ? QDeadlineTimer(timeout) : QDeadlineTimer(QDeadlineTimer::Forever);
            if (current_ != nullptr && tasks_.value(index) == current_) showTaskStatus(index);
        };
        Task* t = make(context);
        t->setParent(this);
        tasks_ << t;
        task_->addItem(t->title(), t->id());
        task_->setItemData(task_->count() - 1, t->summary(), Qt::ToolTipRole);
        setupStack_->addWidget(t->setupPage());
        for (QWidget* part : t->statusWidgets()) {
            statusBar()->addPermanentWidget(part);
            part->hide();
        }
        connect(t, &Task::lessonStarted, this, [this, t](const QString& title, const QString& summary) {
            lessonCards_[t] = QStringLiteral("<b>%1</b><br>%2").arg(title.toHtmlEscaped(), summary.toHtmlEscaped());
            showLessonCard();
        });
        connect(t, &Task::titleChanged, this, &MainWindow::updateTitle);
        connect(t, &Task::actionsChanged, this, &MainWindow::updateActions);
    }
}

WindowSettings MainWindow::windowSettings() {
    WindowSettings settings;
    settings.window = this;
    settings.tasks = tasks_;
    settings.navigator = navigator_;
    settings.lastDirectory = lastDirectory_;
    settings.colormap = colormap_;
    settings.showNumbers = showNumbers_;
    return settings;
}

Task* MainWindow::task(const QString& id) const {
    for (Task* t : tasks_)
        if (t->id() == id) return t;
    return nullptr;
}

bool MainWindow::switchTask(const QString& id) {
    Task* next = task(id);
    if (next == nullptr) next = task(windowTaskOf(id));  // a model task: "caption" -> "images"
    if (next == nullptr) return false;
    const int index = task_->findData(next->id());
    {
        const QSignalBlocker quiet(task_);
        task_->setCurrentIndex(index);
    }
    if (next == current_) return true;
    if (current_ != nullptr) current_->deactivate();
    for (Task* t : tasks_) {
        for (QWidget* part : t->statusWidgets()) part->setVisible(t == next);
    }
    current_ = next;
    showTaskStatus(static_cast<int>(tasks_.indexOf(next)));
    navigator_->setTask(next->id(), next->defaultView());
    setupStack_->setCurrentWidget(next->setupPage());
    next->activate();
    actions_->showTask(next, navigator_);
    actions_->fitToolBars(this);
    showLessonCard();
    updateTitle();
    updateActions();
    return true;
}

void MainWindow::connectActions() {
    WindowActions* a = actions_;
    connect(a->openModel, &QAction::triggered, this, [this] {
        if (current_) current_->openModelDialog();
    });
    connect(a->saveModel, &QAction::triggered, this, [this] {
        if (current_) current_->saveModel();
    });
    connect(a->saveModelAs, &QAction::triggered, this, [this] {
        if (current_) current_->saveModelAs();
    });
    const std::pair<QAction*, RunCommand> runs[] = {{a->start, RunCommand::Start}, {a->resume, RunCommand::Start},
                                                    {a->pause, RunCommand::Pause}, {a->step, RunCommand::Step},
                                                    {a->stop, RunCommand::Stop},   {a->reset, RunCommand::Reset}};
    for (const auto& [action, command] : runs) {
        connect(action, &QAction::triggered, this, [this, command = command] { runCurrent(command); });
    }
    connect(a->exportImage, &QAction::triggered, export_, &FigureExport::imageDialog);
    connect(a->exportMatrix, &QAction::triggered, export_, &FigureExport::matrixDialog);
    connect(a->quit, &QAction::triggered, this, &QWidget::close);
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
    connect(a->about, &QAction::triggered, this, &MainWindow::showAbout);
    connect(a, &WindowActions::colormapChosen, this, &MainWindow::setColormap);
    connect(a, &WindowActions::massShareChosen, this, &MainWindow::setMassShare);
    connect(a, &WindowActions::languageChosen, this, &MainWindow::setLanguage);
    connect(a, &WindowActions::lessonChosen, this, &MainWindow::startLesson);
    connect(a->openLesson, &QAction::triggered, this, &MainWindow::openLessonDialog);
    connect(a->saveSetupAsLesson, &QAction::triggered, this, &MainWindow::saveLessonDialog);
    connect(task_, &QComboBox::currentIndexChanged, this, [this] { switchTask(task_->currentData().toString()); });
    connect(navigator_, &ViewNavigator::currentChanged, this, &MainWindow::updateActions);
}

HeatmapWidget* MainWindow::currentHeatmap() const {
    const View* view = navigator_->currentView();
    return view != nullptr ? view->zoomableHeatmap() : nullptr;
}

bool MainWindow::startLesson(const QString& id) {
    for (Task* t : tasks_) {
        for (const LessonCard& card : t->lessons()) {
            if (card.id.compare(id, Qt::CaseInsensitive) != 0) continue;
            switchTask(t->id());
            return t->startLesson(id);
        }
    }
    return false;
}

bool MainWindow::startDemo(const QString& dataset) {
    Task* before = current_;
    for (Task* t : tasks_) {
        switchTask(t->id());
        if (t->startDemo(dataset)) return true;
    }
    if (before != nullptr) switchTask(before->id());
    return false;
}

void MainWindow::showLessonCard() {
    // Each task's lesson card shows with its task; one the user closed stays closed.
    const auto card = lessonCards_.constFind(current_);
    if (card == lessonCards_.constEnd()) {
        lessonBar_->hide();
        return;
    }
    lessonText_->setText(card.value());
    lessonBar_->show();
}

QString MainWindow::currentLesson() const { return current_ ? current_->lesson() : QString(); }

bool MainWindow::isLessonFile(const QString& path) {
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) return false;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return false;
    return file.read(4096).contains(kLessonFormat);
}

bool MainWindow::openLesson(const QString& path) {
    LessonFile lesson;
    try {
        lesson = readLessonFile(path.toStdString());
    } catch (const std::exception& e) {
        reportError(tr("Cannot Open Lesson"), QString::fromStdString(e.what()));
        return false;
    }
    const QString windowTask = QString::fromStdString(tasks::windowTaskOf(lesson.task));
    for (Task* t : tasks_) {
        if (t->id() != windowTask) continue;
        switchTask(t->id());
        return t->startLessonFile(lesson);
    }
    reportError(tr("Cannot Open Lesson"), tr("%1: task: this AttnLab has no %2 task.").arg(path, windowTask));
    return false;
}

bool MainWindow::saveSetupAsLesson(const QString& path) {
    if (current_ == nullptr) return false;
    LessonFile lesson;
    // The id: the file's name in letters, digits, '-' and '_'.
    QString id;
    for (const QChar c : QFileInfo(path).completeBaseName())
        id += (c.isLetterOrNumber() && c.unicode() < 128) || c == QLatin1Char('-') || c == QLatin1Char('_') ? c : QLatin1Char('-');
    lesson.id = (id.isEmpty() ? QStringLiteral("lesson") : id.left(64)).toStdString();
    QString why;
    if (!current_->setupAsLesson(lesson, &why)) {
        reportError(tr("Cannot Save Lesson"), why);
        return false;
    }
    try {
        writeLessonFile(path.toStdString(), lesson);
        readLessonFile(path.toStdString());  // what was written reads back
    } catch (const std::exception& e) {
        reportError(tr("Cannot Save Lesson"), QString::fromStdString(e.what()));
        return false;
    }
    showStatus(tr("Saved the setup as the lesson %1.").arg(QDir::toNativeSeparators(path)), 6000);
    return true;
}

void MainWindow::openLessonDialog() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Lesson"), lastDirectory_,
                                                      tr("AttnLab lessons (*.json);;All files (*)"));
    if (path.isEmpty()) return;
    lastDirectory_ = QFileInfo(path).absolutePath();
    openLesson(path);
}

void MainWindow::saveLessonDialog() {
    QString path = QFileDialog::getSaveFileName(this, tr("Save Setup as Lesson"),
                                                QDir(lastDirectory_).filePath(QStringLiteral("lesson.json")),
                                                tr("AttnLab lessons (*.json)"));
    if (path.isEmpty()) return;
    if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) path += QStringLiteral(".json");
    lastDirectory_ = QFileInfo(path).absolutePath();
    saveSetupAsLesson(path);
}

void MainWindow::openFiles(const QStringList& paths) {
    // A model opens in the task that trains it, whichever task is shown (a captioner given on the
    // command line or dropped on the translation task goes to Images); a file whose task is not
    // known stays with the current task, which says what is wrong with it.
    if (paths.size() == 1 && paths.front().endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive)) {
        const auto metadata = peekSafetensorsMetadata(paths.front().toStdString());
        const auto task = metadata.find("task");
        const std::string id = task != metadata.end() ? task->second : tasks::untaggedCheckpointTask();
        if (!metadata.empty() && !id.empty()) switchTask(QString::fromStdString(id));
    } else if (current_ == nullptr || !current_->claimsFiles(paths)) {
        for (Task* t : tasks_)
            if (t->claimsFiles(paths)) {
                switchTask(t->id());
                break;
            }
    }
    if (current_ && !paths.isEmpty()) current_->openFiles(paths);
}

void MainWindow::updateTitle() {
    const QString title = current_ ? current_->titleText() : QString();
    setWindowTitle(tr("%1[*] — AttnLab").arg(title));
    setWindowModified(current_ && current_->isModified());
}

void MainWindow::runCurrent(RunCommand command) {
    if (current_ == nullptr) return;
    const RunState state = current_->runState();
    const bool allowed = (command == RunCommand::Start && state.start) || (command == RunCommand::Pause && state.pause) ||
                         (command == RunCommand::Step && state.step) || (command == RunCommand::Stop && state.stop) ||
                         (command == RunCommand::Reset && state.reset);
    if (allowed) current_->run(command);
}

void MainWindow::updateActions() {
    const RunState run = current_ ? current_->runState() : RunState{};
    actions_->start->setVisible(!run.paused);
    actions_->resume->setVisible(run.paused);
    actions_->start->setEnabled(run.start && !run.paused);
    actions_->resume->setEnabled(run.start && run.paused);
    actions_->pause->setVisible(run.pausable);
    actions_->step->setVisible(run.pausable);
    actions_->pause->setEnabled(run.pause);
    actions_->step->setEnabled(run.step);
    actions_->stop->setEnabled(run.stop);
    actions_->reset->setEnabled(run.reset);
    const bool model = current_ && current_->hasModel();
    actions_->exportImage->setEnabled(export_->currentExportsFigure());
    actions_->exportMatrix->setEnabled(export_->currentExportsMatrix());
    actions_->saveModel->setEnabled(model);
    actions_->saveModelAs->setEnabled(model);
    actions_->openModel->setEnabled(current_ && !current_->isBusy());
}

// ---- views ------------------------------------------------------------------------------------------

void MainWindow::setColormap(ColormapId id) {
    colormap_ = id;
    for (View* view : navigator_->views()) view->applyColormap(id);
    actions_->showColormap(id);
}

void MainWindow::setMassShare(double share) {
    HeatmapWidget::setDefaultMassShare(share);
    share = HeatmapWidget::defaultMassShare();  // clamped
    for (View* view : navigator_->views()) {
        auto* widget = dynamic_cast<QWidget*>(view);
        if (widget == nullptr) continue;
        for (HeatmapWidget* h : widget->findChildren<HeatmapWidget*>())
            if (!h->property("attnlabNoThreshold").toBool()) h->setMassShare(share);
        for (HeadGridWidget* g : widget->findChildren<HeadGridWidget*>()) g->setMassShare(share);
        for (LineViewWidget* l : widget->findChildren<LineViewWidget*>()) l->setThreshold(share);
    }
    actions_->showMassShare(share);
}

void MainWindow::setShowNumbers(bool on) {
    showNumbers_ = on;
    for (View* view : navigator_->views()) view->applyShowNumbers(on);
    if (actions_->numbers->isChecked() != on) actions_->numbers->setChecked(on);
}

bool MainWindow::showTab(const QString& name) {
    const QString owner = navigator_->taskOf(name);
    if (owner.isEmpty()) return false;
    switchTask(owner);  // a view of another task
    return navigator_->show(name);
}

QString MainWindow::currentTabName() const { return navigator_->currentName(); }

QStringList MainWindow::tabNames() const { return navigator_->names(); }

bool MainWindow::showSetupPage(const QString& name) { return current_ && current_->showSetupPart(name); }

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

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    if (actions_ != nullptr) actions_->fitToolBars(this);
}

void MainWindow::changeEvent(QEvent* event) {
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::FontChange && actions_ != nullptr) actions_->fitToolBars(this);
}

void MainWindow::showStatus(const QString& message, int timeoutMs) { statusBar()->showMessage(message, timeoutMs); }

void MainWindow::showTaskStatus(int index) {
    if (index < 0 || static_cast<std::size_t>(index) >= statuses_.size()) return;
    const TaskStatus& status = statuses_[static_cast<std::size_t>(index)];
    if (status.message.isEmpty() || status.until.hasExpired()) {
        statusBar()->clearMessage();
        return;
    }
    const qint64 left = status.until.remainingTime();  // -1: forever
    showStatus(status.message, left < 0 ? 0 : static_cast<int>(std::max<qint64>(left, 1)));
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // Every task with unsaved training asks (Save, Discard, Cancel); a save ends before the window goes.
    for (Task* t : tasks_) {
        if (!t->confirmClose()) {
            event->ignore();
            return;
        }
    }
    windowSettings().save();
    shuttingDown_ = true;
    for (Task* t : tasks_) t->shutdown();
    event->accept();
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    const QList<QUrl> urls = event->mimeData()->urls();
    QStringList paths;
    for (const QUrl& url : urls) {
        if (!url.isLocalFile()) return;
        paths << url.toLocalFile();
    }
    if (paths.size() == 1 && isLessonFile(paths.front())) {  // a lesson, whatever the task
        event->acceptProposedAction();
        return;
    }
    const bool claimed = std::any_of(tasks_.begin(), tasks_.end(), [&](const Task* t) { return t->claimsFiles(paths); });
    if (paths.isEmpty() || !current_ || (!claimed && !current_->acceptsDrop(paths))) return;
    event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls()) paths << url.toLocalFile();
    if (paths.size() == 1 && isLessonFile(paths.front())) {
        event->acceptProposedAction();
        openLesson(paths.front());
        return;
    }
    if (!current_) return;
    const bool model = paths.size() == 1 && paths.front().endsWith(QLatin1String(".safetensors"), Qt::CaseInsensitive);
    const bool claimed = std::any_of(tasks_.begin(), tasks_.end(), [&](const Task* t) { return t->claimsFiles(paths); });
    if (!model && !claimed && !current_->acceptsDrop(paths)) return;
    openFiles(paths);  // a model goes to the task that trains it
    event->acceptProposedAction();
}

}  // namespace attnlab
