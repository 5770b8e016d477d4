#include "window/WindowActions.h"

#include "session/ClassifierLessons.h"
#include "session/ImageLessons.h"
#include "session/Lessons.h"
#include "window/Translations.h"
#include "window/ViewNavigator.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QStyle>
#include <QToolBar>

#include <utility>

namespace attnlab {

namespace {

QAction* makeAction(QObject* parent, const QIcon& icon, const QString& text, const QKeySequence& shortcut = {},
                    const QString& toolTip = {}) {
    auto* action = new QAction(icon, text, parent);
    if (!shortcut.isEmpty()) action->setShortcut(shortcut);
    if (!toolTip.isEmpty()) action->setToolTip(toolTip);
    return action;
}

}  // namespace

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
    openCorpus = makeAction(this, s->standardIcon(QStyle::SP_DialogOpenButton), tr("&Open Corpus…"),
                            QKeySequence::Open, tr("Open a TSV corpus: one source<TAB>target pair per line"));
    openParallel = makeAction(this, s->standardIcon(QStyle::SP_DirOpenIcon), tr("Open &Aligned Files…"), {},
                              tr("Open two line-aligned files, e.g. train.en and train.fr"));
    openModel = makeAction(this, s->standardIcon(QStyle::SP_FileDialogStart), tr("Open &Model…"),
                           QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O),
                           tr("Open a trained model (.safetensors) to translate and inspect its heads"));
    saveModel = makeAction(this, s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Save Model"), QKeySequence::Save,
                           tr("Save the model as .safetensors (readable from Python too)"));
    saveModelAs = makeAction(this, QIcon(), tr("Save Model &As…"), QKeySequence::SaveAs);
    exportImage = makeAction(this, s->standardIcon(QStyle::SP_DialogSaveButton), tr("&Export Image…"),
                             QKeySequence(Qt::CTRL | Qt::Key_E),
                             tr("Save the heatmap, head grid or chart shown as PNG, SVG or PDF"));
    exportMatrix = makeAction(this, QIcon(), tr("Export &Matrix (CSV, NumPy)…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    exportHeads = makeAction(this, QIcon(), tr("Export All &Heads…"), {}, tr("Write one file per attention head into a folder"));
    quit = makeAction(this, QIcon(), tr("&Quit"), QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    start = makeAction(this, s->standardIcon(QStyle::SP_MediaPlay), tr("&Start"), QKeySequence(Qt::Key_F5),
                       tr("Build a new model from the settings and train it (F5)"));
    resume = makeAction(this, s->standardIcon(QStyle::SP_MediaPlay), tr("&Resume"), QKeySequence(Qt::Key_F5),
                        tr("Continue training (F5)"));
    pause = makeAction(this, s->standardIcon(QStyle::SP_MediaPause), tr("&Pause"), QKeySequence(Qt::Key_F6),
                       tr("Pause after the current batch (F6)"));
    step = makeAction(this, s->standardIcon(QStyle::SP_MediaSkipForward), tr("S&tep"), QKeySequence(Qt::Key_F10),
                      tr("Train exactly one batch, then pause (F10)"));
    stop = makeAction(this, s->standardIcon(QStyle::SP_MediaStop), tr("St&op"), QKeySequence(Qt::SHIFT | Qt::Key_F5),
                      tr("End the run after the current batch; the model stays (Shift+F5)"));
    reset = makeAction(this, s->standardIcon(QStyle::SP_DialogResetButton), tr("Rese&t"), {},
                       tr("Discard the model and the curves"));

    numbers = makeAction(this, QIcon(), tr("Show &Numbers in Cells"), QKeySequence(Qt::CTRL | Qt::Key_N),
                         tr("Write each weight into its cell when the cells are large enough"));
    numbers->setCheckable(true);
    zoomIn = makeAction(this, QIcon(), tr("Zoom &In"), QKeySequence::ZoomIn);
    zoomOut = makeAction(this, QIcon(), tr("Zoom &Out"), QKeySequence::ZoomOut);
    zoomReset = makeAction(this, QIcon(), tr("&Fit Heatmap"), QKeySequence(Qt::CTRL | Qt::Key_0));
    logScale = makeAction(this, QIcon(), tr("&Logarithmic Loss Axis"));
    logScale->setCheckable(true);
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

void WindowActions::createMenus(QMainWindow* window, ViewNavigator* navigator) {
    QMenuBar* bar = window->menuBar();
    QMenu* file = bar->addMenu(tr("&File"));
    file->addAction(openCorpus);
    file->addAction(openParallel);
    recent = file->addMenu(tr("Open &Recent"));
    file->addSeparator();
    file->addActions({openModel, saveModel, saveModelAs});
    file->addSeparator();
    file->addActions({exportImage, exportMatrix, exportHeads});
    file->addSeparator();
    file->addAction(quit);

    QMenu* training = bar->addMenu(tr("&Training"));
    trainingMenu = training;
    training->addActions({start, resume, pause, step, stop});
    training->addSeparator();
    training->addAction(reset);

    QMenu* view = bar->addMenu(tr("&View"));
    view->addMenu(tr("&Colour Map"))->addActions(colormaps->actions());
    view->addAction(numbers);
    view->addSeparator();
    view->addActions({zoomIn, zoomOut, zoomReset});
    view->addSeparator();
    view->addAction(logScale);
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
    showTask(navigator->task(), navigator);
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
    const auto addLesson = [this, lessonsMenu](const QString& title, const QString& summary, const QString& id) {
        QAction* action = lessonsMenu->addAction(title);
        action->setToolTip(summary);
        action->setStatusTip(summary);
        connect(action, &QAction::triggered, this, [this, id] { Q_EMIT lessonChosen(id); });
    };
    for (const Lesson& lesson : lessons()) addLesson(lesson.title, lesson.summary, lesson.id);
    lessonsMenu->addSeparator();  // the text-classification task's
    for (const ClassifierLesson& lesson : classifierLessons()) addLesson(lesson.title, lesson.summary, lesson.id);
    lessonsMenu->addSeparator();  // the Images task's
    for (const ImageLesson& lesson : imageLessons()) addLesson(lesson.title, lesson.summary, lesson.id);

    QMenu* help = bar->addMenu(tr("&Help"));
    help->addAction(about);
    auto* aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

void WindowActions::showTask(const QString& task, ViewNavigator* navigator) {
    const bool translation = task == QLatin1String(ViewNavigator::kTranslation);
    for (QAction* a : {openCorpus, openParallel, openModel, saveModel, saveModelAs, exportHeads, start, resume, pause,
                       step, stop, reset})
        a->setVisible(translation);
    if (trainingMenu) trainingMenu->menuAction()->setVisible(translation);
    // A section shows when a view after it (before the next section) does.
    int shortcut = 0;
    QAction* section = nullptr;
    for (const auto& [name, action] : viewActions_) {
        if (name.isEmpty()) {
            section = action;
            section->setVisible(false);
            continue;
        }
        const bool shown = navigator->taskOf(name) == task;
        action->setVisible(shown);
        if (shown && section) section->setVisible(true);
        action->setShortcut(shown && shortcut < 9 ? QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + shortcut++))
                                                  : QKeySequence());
    }
}

void WindowActions::createToolBar(QMainWindow* window) {
    // Toolbar buttons show the icon text: without it Qt strips only the '&' of a translated
    // "开始(&S)" and the button would read "开始(S)".
    openCorpus->setIconText(tr("Open Corpus…"));
    openModel->setIconText(tr("Open Model…"));
    saveModel->setIconText(tr("Save Model"));
    start->setIconText(tr("Start"));
    resume->setIconText(tr("Resume"));
    pause->setIconText(tr("Pause"));
    step->setIconText(tr("Step"));
    stop->setIconText(tr("Stop"));
    reset->setIconText(tr("Reset"));
    exportImage->setIconText(tr("Export Image…"));
    numbers->setIconText(tr("Numbers"));
    QToolBar* bar = window->addToolBar(tr("Main"));
    bar->setObjectName(QStringLiteral("mainToolBar"));
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->setMovable(false);
    bar->addActions({openCorpus, openModel, saveModel});
    bar->addSeparator();
    bar->addActions({start, resume, pause, step, stop, reset});
    bar->addSeparator();
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

void WindowActions::showLanguage(const QString& code) {
    for (QAction* action : languages->actions()) action->setChecked(action->data().toString() == code);
}

}  // namespace attnlab
