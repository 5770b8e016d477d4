#include "window/WindowActions.h"

#include "task/Task.h"
#include "views/ViewNavigator.h"
#include "widgets/WidgetStyle.h"
#include "window/Translations.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QSlider>
#include <QStyle>
#include <QToolBar>
#include <QToolButton>

#include <cmath>
#include <utility>

namespace attnlab {

QString WindowActions::colormapLabel(ColormapId id) {
    switch (id) {
    case ColormapId::Viridis: return tr("viridis", "colour map");
    case ColormapId::Magma: return tr("magma", "colour map");
    case ColormapId::Cividis: return tr("cividis", "colour map");
    case ColormapId::Bone: return tr("bone", "colour map");
    case ColormapId::Grey: return tr("grey", "colour map");
    case ColormapId::RdBuR: break;  // for signed values only, never in the colour map menu
    }
    return Colormap::nameOf(id);
}

WindowActions::WindowActions(QMainWindow* window) : QObject(window) {
    QStyle* s = window->style();
    openModel = makeAction(this, s->standardIcon(QStyle::SP_FileDialogStart), tr("Open &Model…"),
                           QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O),
                           tr("Open a trained model (.safetensors) of the current task"));
    saveModel = makeAction(this, s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save Model"), QKeySequence::Save,
                           tr("Save the model as .safetensors (readable from Python too)"));
    saveModelAs = makeAction(this, QIcon(), tr("Save Model &As…"), QKeySequence::SaveAs);
    openLesson = makeAction(this, QIcon(), tr("Open &Lesson…"), QKeySequence(),
                            tr("Open a lesson file (.json): its data, model, training and view, then train"));
    saveSetupAsLesson = makeAction(this, QIcon(), tr("Save Setup as Lesso&n…"), QKeySequence(),
                                   tr("Write the current task's data, model, training, probe and view as a lesson file"));
    start = makeAction(this, s->standardIcon(QStyle::SP_MediaPlay), tr("&Start"), QKeySequence(Qt::Key_F5),
                       tr("Build a new model from the setup panel's settings and train it (F5)"));
    resume = makeAction(this, s->standardIcon(QStyle::SP_MediaPlay), tr("&Resume"), QKeySequence(Qt::Key_F5),
                        tr("Continue the paused run (F5)"));
    pause = makeAction(this, s->standardIcon(QStyle::SP_MediaPause), tr("&Pause"), QKeySequence(Qt::Key_F6),
                       tr("Pause after the current batch (F6)"));
    step = makeAction(this, s->standardIcon(QStyle::SP_MediaSkipForward), tr("S&tep"), QKeySequence(Qt::Key_F10),
                      tr("Train exactly one batch, then pause (F10)"));
    stop = makeAction(this, s->standardIcon(QStyle::SP_MediaStop), tr("St&op"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
                      tr("End the run after the current batch; the model stays (Shift+F5)"));
    reset = makeAction(this, s->standardIcon(QStyle::SP_DialogResetButton), tr("Rese&t"), {},
                       tr("Discard the model and its curves"));
    exportImage = makeAction(this, s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Export Image…"),
                             QKeySequence(Qt::CTRL | Qt::Key_E),
                             tr("Save the heatmap, head grid or chart shown as PNG, SVG or PDF"));
    exportMatrix = makeAction(this, QIcon(), tr("Export &Matrix (CSV, NumPy)…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    quit = makeAction(this, QIcon(), tr("&Quit"), QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    numbers = makeAction(this, QIcon(), tr("Show &Numbers in Cells"), QKeySequence(Qt::CTRL | Qt::Key_N),
                         tr("Write each weight into its cell when the cells are large enough"));
    numbers->setCheckable(true);
    zoomIn = makeAction(this, QIcon(), tr("Zoom &In"), QKeySequence::ZoomIn);
    zoomOut = makeAction(this, QIcon(), tr("Zoom &Out"), QKeySequence::ZoomOut);
    zoomReset = makeAction(this, QIcon(), tr("&Fit Heatmap"), QKeySequence(Qt::CTRL | Qt::Key_0));
    about = makeAction(this, QIcon(), tr("&About AttnLab"));
    about->setMenuRole(QAction::AboutRole);

    colormaps = new QActionGroup(this);
    colormaps->setExclusive(true);
    for (ColormapId id : Colormap::all()) {
        auto* action = new QAction(colormapLabel(id), colormaps);
        action->setCheckable(true);
        action->setData(static_cast<int>(id));
        connect(action, &QAction::triggered, this, [this, id] { Q_EMIT colormapChosen(id); });
    }
    languages = new QActionGroup(this);
    languages->setExclusive(true);
}

void WindowActions::createMenus(QMainWindow* window, ViewNavigator* navigator, const QList<Task*>& tasks) {
    for (const Task* task : tasks) tasks_.push_back({task, {}, {}});
    QMenuBar* bar = window->menuBar();
    QMenu* file = bar->addMenu(tr("&File"));
    for (std::size_t i = 0; i < tasks_.size(); ++i) {  // each task's own: Open Corpus, ...
        for (QAction* action : tasks[static_cast<int>(i)]->fileActions()) {
            file->addAction(action);
            tasks_[i].actions << action;
        }
    }
    file->addSeparator();
    file->addActions({openLesson, saveSetupAsLesson});
    file->addSeparator();
    file->addActions({openModel, saveModel, saveModelAs});
    file->addSeparator();
    file->addActions({exportImage, exportMatrix});
    file->addSeparator();
    file->addAction(quit);

    QMenu* runMenu = bar->addMenu(tr("&Run"));
    runMenu->setObjectName(QStringLiteral("runMenu"));
    runMenu->addActions({start, resume, pause, step, stop});
    runMenu->addSeparator();
    runMenu->addAction(reset);

    for (std::size_t i = 0; i < tasks_.size(); ++i) {  // each task's own menus
        for (QMenu* menu : tasks[static_cast<int>(i)]->menus()) tasks_[i].actions << bar->addMenu(menu);
    }

    QMenu* view = bar->addMenu(tr("&View"));
    view->addMenu(tr("&Colour Map"))->addActions(colormaps->actions());
    view->addAction(numbers);
    view->addSeparator();
    view->addActions({zoomIn, zoomOut, zoomReset});
    view->addSeparator();
    for (std::size_t i = 0; i < tasks_.size(); ++i) {  // each task's view settings
        for (QAction* action : tasks[static_cast<int>(i)]->viewActions()) {
            view->addAction(action);
            tasks_[i].actions << action;
        }
    }
    view->addSeparator();
    // Every task's views, by group; showTask() shows the current task's.
    const QStringList names = navigator->allNames();
    QString group;
    for (const QString& name : names) {
        if (navigator->groupTitleOf(name) != group) {
            group = navigator->groupTitleOf(name);
            viewActions_.emplace_back(QString(), view->addSection(group));
        }
        QAction* action = view->addAction(navigator->titleOf(name));
        viewActions_.emplace_back(name, action);
        connect(action, &QAction::triggered, navigator, [navigator, name] { navigator->show(name); });
    }
    view->addSeparator();
    if (auto* dock = window->findChild<QDockWidget*>(QStringLiteral("setupDock"))) {
        QAction* toggle = dock->toggleViewAction();
        toggle->setText(tr("Show &Setup Panel"));
        toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
        view->addAction(toggle);
    }
    view->addSeparator();
    // Language names are written in their own language, so a user lost in the other one finds theirs.
    QMenu* language = view->addMenu(tr("Lan&guage"));
    const QString stored = Translations::storedLanguage();
    const std::pair<QString, QString> choices[] = {
        {tr("System Default"), QString()},
        {QStringLiteral("English"), QString::fromLatin1(Translations::kEnglish)},
        {QStringLiteral("简体中文"), QString::fromLatin1(Translations::kSimplifiedChinese)},
    };
    for (const auto& [name, code] : choices) {
        QAction* action = language->addAction(name);
        action->setCheckable(true);
        action->setData(code);
        action->setChecked(code == stored);
        languages->addAction(action);
        connect(action, &QAction::triggered, this, [this, code = code] { Q_EMIT languageChosen(code); });
    }

    QMenu* lessonsMenu = bar->addMenu(tr("&Lessons"));
    for (const Task* task : tasks) {  // every task's lessons, a section each
        const QList<LessonCard> cards = task->lessons();
        if (cards.isEmpty()) continue;
        if (!lessonsMenu->isEmpty()) lessonsMenu->addSeparator();
        for (const LessonCard& lesson : cards) {
            QAction* action = lessonsMenu->addAction(lesson.title);
            action->setToolTip(lesson.summary);
            action->setStatusTip(lesson.summary);
            connect(action, &QAction::triggered, this, [this, id = lesson.id] { Q_EMIT lessonChosen(id); });
        }
    }

    QMenu* help = bar->addMenu(tr("&Help"));
    help->addAction(about);
    auto* aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

void WindowActions::fitToolBars(QMainWindow* window) {
    if (mainBar_ == nullptr) return;
    auto setStyle = [this](Qt::ToolButtonStyle style) {
        mainBar_->setToolButtonStyle(style);
        for (QAction* action : {start, resume})  // the action that starts a task always says so
            if (auto* button = qobject_cast<QToolButton*>(mainBar_->widgetForAction(action)))
                button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        mainBar_->layout()->invalidate();
    };
    setStyle(Qt::ToolButtonTextBesideIcon);
    // Some room to spare: a row that only just fits shows its last button cut at some font sizes.
    constexpr int kSlack = 24;
    if (mainBar_->sizeHint().width() + kSlack > window->width()) setStyle(Qt::ToolButtonIconOnly);
}

void WindowActions::showTask(const Task* task, ViewNavigator* navigator) {
    for (const TaskParts& parts : tasks_) {
        const bool current = parts.task == task;
        for (QAction* action : parts.actions) action->setVisible(current);
        for (QAction* action : parts.toolBarActions) action->setVisible(current);
    }
    const QString id = task ? task->id() : QString();
    // A section shows when a view after it (before the next section) does.
    int shortcut = 0;
    QAction* section = nullptr;
    for (const auto& [name, action] : viewActions_) {
        if (name.isEmpty()) {
            section = action;
            section->setVisible(false);
            continue;
        }
        const bool shown = navigator->taskOf(name) == id;
        action->setVisible(shown);
        if (shown && section) section->setVisible(true);
        action->setShortcut(shown && shortcut < 9 ? QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + shortcut++))
                                                  : QKeySequence());
    }
}

void WindowActions::createToolBar(QMainWindow* window, const QList<Task*>& tasks) {
    // Toolbar buttons show the icon text: without it Qt strips only the '&' of a translated
    // "开始(&S)" and the button would read "开始(S)".
    openModel->setIconText(tr("Open Model…"));
    saveModel->setIconText(tr("Save Model"));
    exportImage->setIconText(tr("Export Image…"));
    numbers->setIconText(tr("Numbers"));
    start->setIconText(tr("Start"));
    resume->setIconText(tr("Resume"));
    pause->setIconText(tr("Pause"));
    step->setIconText(tr("Step"));
    stop->setIconText(tr("Stop"));
    reset->setIconText(tr("Reset"));
    QToolBar* bar = window->addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->setMovable(false);
    bar->addActions({openModel, saveModel});
    bar->addSeparator();
    bar->addActions({start, resume, pause, step, stop, reset});
    mainBar_ = bar;
    // Each task's own (Open Corpus, ...), after its own separator, shown while the task is current.
    for (std::size_t i = 0; i < tasks_.size() && static_cast<int>(i) < tasks.size(); ++i) {
        const QList<QAction*> own = tasks[static_cast<int>(i)]->toolBarActions();
        if (own.isEmpty()) continue;
        tasks_[i].toolBarActions << bar->addSeparator();
        bar->addActions(own);
        tasks_[i].toolBarActions << own;
    }
    // The look of every map, at the right end of the same toolbar: one toolbar, so that nothing has
    // to share a row with another toolbar (fitToolBars).
    auto* spacer = new QWidget;
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    bar->addWidget(spacer);
    bar->addWidget(new QLabel(tr("Colours ")));
    colormapBox = new QComboBox;
    for (ColormapId id : Colormap::all()) colormapBox->addItem(colormapLabel(id), static_cast<int>(id));
    colormapBox->setToolTip(tr("Colour map of every heatmap; viridis, magma and cividis are perceptually "
                               "uniform and readable in grey."));
    connect(colormapBox, &QComboBox::activated, this,
            [this] { Q_EMIT colormapChosen(static_cast<ColormapId>(colormapBox->currentData().toInt())); });
    bar->addWidget(colormapBox);
    bar->addWidget(new QLabel(tr("  Keep ")));
    massSlider = new QSlider(Qt::Horizontal);
    massSlider->setObjectName(QStringLiteral("massSlider"));
    massSlider->setRange(10, 100);
    massSlider->setSingleStep(5);
    massSlider->setPageStep(10);
    massSlider->setValue(100);
    massSlider->setFixedWidth(90);
    const QString massTip = tr("Threshold: in every heatmap and line view, only each row's largest weights that "
                               "together reach this share of its attention keep their colour (100%: every weight).");
    massSlider->setToolTip(massTip);
    massLabel = new QLabel;
    massLabel->setToolTip(massTip);
    massLabel->setMinimumWidth(massLabel->fontMetrics().horizontalAdvance(QStringLiteral("100%  ")));
    massLabel->setText(tr("%1%").arg(100));
    connect(massSlider, &QSlider::valueChanged, this, [this](int percent) {
        massLabel->setText(tr("%1%").arg(percent));
        Q_EMIT massShareChosen(percent / 100.0);
    });
    bar->addWidget(massSlider);
    bar->addWidget(massLabel);
    bar->addAction(numbers);
    bar->addAction(exportImage);
}

void WindowActions::showColormap(ColormapId id) {
    if (colormapBox != nullptr) {
        const int index = colormapBox->findData(static_cast<int>(id));
        if (index >= 0) colormapBox->setCurrentIndex(index);
    }
    for (QAction* action : colormaps->actions()) action->setChecked(action->data().toInt() == static_cast<int>(id));
}

void WindowActions::showMassShare(double share) {
    if (massSlider == nullptr) return;
    const int percent = static_cast<int>(std::lround(share * 100));
    if (massSlider->value() != percent) massSlider->setValue(percent);
}

void WindowActions::showLanguage(const QString& code) {
    for (QAction* action : languages->actions()) action->setChecked(action->data().toString() == code);
}

}  // namespace attnlab
