// The main window's navigation and size: every view reachable from the two tab rows without a
// scrolling tab bar, the window fitting small screens (1366 x 768; a 1024 x 768 projector with
// large fonts), and every task's first screen working on a projector and a laptop, in English and in
// Chinese, at scale 1 and 1.25: Start in view, no setup panel scrolling sideways, no text cut, no
// status message of another task.
#include "session/SettingNames.h"
#include "task/SessionTask.h"
#include "views/View.h"
#include "window/MainWindow.h"
#include "window/Translations.h"
#include "views/ViewNavigator.h"

#include "ui/WindowFixture.h"

#include <catch2/catch.hpp>

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QMenu>
#include <QRadioButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QStatusBar>
#include <QTabBar>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>

#include "base/InputError.h"

using namespace attnlab;

namespace {

struct ScopedFont {
    QFont saved = QApplication::font();
    explicit ScopedFont(double factor) {
        QFont f = saved;
        f.setPointSizeF(saved.pointSizeF() * factor);
        QApplication::setFont(f);
    }
    ~ScopedFont() { QApplication::setFont(saved); }
};

// Every tab bar of the navigator shows all its tabs in full at the window's width: the group bar,
// and each group's bar while that group is shown.
void requireTabsFit(MainWindow& window) {
    ViewNavigator* nav = window.navigator();
    for (int i = 0; i < nav->groups()->count(); ++i) {
        nav->groups()->setCurrentIndex(i);
        QApplication::processEvents();
        QList<QTabBar*> bars{nav->groups()->tabBar()};
        if (auto* page = qobject_cast<QTabWidget*>(nav->groups()->widget(i))) bars << page->tabBar();
        for (QTabBar* bar : bars) {
            if (bar->count() < 2) continue;
            const int need = bar->sizeHint().width();  // every tab at its full width
            INFO("group " << i << ": tabs " << need << " px in a bar of " << bar->width() << " px");
            CHECK(need <= bar->width());
        }
    }
}

// The window's Start (Run menu, toolbar, F5).
QAction* startAction(MainWindow& window) {
    auto* run = window.findChild<QMenu*>(QStringLiteral("runMenu"));
    REQUIRE(run != nullptr);
    REQUIRE_FALSE(run->actions().isEmpty());
    return run->actions().front();
}

// Whether `w` lies inside the window's client area, drawn (not in a toolbar's overflow menu).
bool shownInWindow(QWidget* w, MainWindow& window) {
    if (w == nullptr || !w->isVisibleTo(&window)) return false;
    const QRect r(w->mapTo(&window, QPoint(0, 0)), w->size());
    return window.rect().contains(r);
}

// Texts of `root` that are cut: a label, check box or button narrower than its text wants, or a
// wrapping label shorter than its wrapped text. Scrolled-away rows count as visible (they are not
// cut, only below).
QStringList cutTexts(QWidget* root) {
    QStringList cut;
    for (QLabel* label : root->findChildren<QLabel*>()) {
        if (!label->isVisibleTo(root) || label->text().isEmpty() || label->pixmap().cacheKey() != 0) continue;
        if (label->wordWrap()) {
            if (label->heightForWidth(label->width()) > label->height() + 1)
                cut << QStringLiteral("label '%1': %2 px high of %3").arg(label->text().left(60)).arg(label->height())
                           .arg(label->heightForWidth(label->width()));
        } else if (label->sizeHint().width() > label->width() + 1) {
            cut << QStringLiteral("label '%1': %2 px of %3").arg(label->text().left(60)).arg(label->width())
                       .arg(label->sizeHint().width());
        }
    }
    for (QAbstractButton* button : root->findChildren<QAbstractButton*>()) {
        if (!button->isVisibleTo(root) || button->text().isEmpty()) continue;
        if (!qobject_cast<QCheckBox*>(button) && !qobject_cast<QRadioButton*>(button) && !qobject_cast<QPushButton*>(button))
            continue;
        if (button->sizeHint().width() > button->width() + 1)
            cut << QStringLiteral("button '%1': %2 px of %3").arg(button->text()).arg(button->width())
                       .arg(button->sizeHint().width());
    }
    return cut;
}

// The setup page's scroll areas that scroll sideways.
QStringList sidewaysScrolling(QWidget* page) {
    QStringList found;
    QList<QScrollArea*> areas = page->findChildren<QScrollArea*>();
    if (auto* self = qobject_cast<QScrollArea*>(page)) areas << self;
    for (QScrollArea* area : areas) {
        if (!area->isVisibleTo(page) && area != page) continue;
        if (area->horizontalScrollBar()->maximum() <= 0) continue;
        // The widest of what it holds, to say what to make narrower.
        QWidget* widest = nullptr;
        for (QWidget* w : area->widget()->findChildren<QWidget*>())
            if (w->isVisibleTo(area) && (!widest || w->minimumSizeHint().width() > widest->minimumSizeHint().width()))
                if (!w->findChild<QWidget*>()) widest = w;  // a leaf: a field, a label, a button
        found << QStringLiteral("%1 px wider than its %2 px; widest leaf: %3 '%4' at %5 px")
                     .arg(area->horizontalScrollBar()->maximum())
                     .arg(area->viewport()->width())
                     .arg(QString::fromLatin1(widest ? widest->metaObject()->className() : "?"),
                          widest ? widest->objectName() : QString())
                     .arg(widest ? widest->minimumSizeHint().width() : 0);
    }
    return found;
}

// The task's data is there (the default dataset, made on first use).
void waitForData(MainWindow& window, Task* task) {
    if (auto* session = dynamic_cast<SessionTask*>(task)) {
        REQUIRE(test::waitUntil([&] { return !session->isLoadingData(); }, 60000));
    } else {
        REQUIRE(test::waitUntil([&] { return !translation(window).isLoadingCorpus(); }, 60000));
    }
    QApplication::processEvents();
}

// Every task's first screen at the window's size and font: Start shown in the window, the setup
// page neither scrolling sideways nor cutting a text, every slider of the shown view usable, and
// the status bar saying nothing of another task's data (translation's default corpus, loaded while
// the window opened).
void requireFirstScreens(MainWindow& window, const QString& where) {
    const QString corpusName = translation(window).corpus().source.displayName();
    REQUIRE_FALSE(corpusName.isEmpty());
    for (Task* task : window.tasks()) {
        test::chooseTask(window, task->id());
        waitForData(window, task);
        QApplication::processEvents();
        INFO(where.toStdString() << ", task " << task->id().toStdString());
        QAction* start = startAction(window);
        CHECK(start->isEnabled());
        QWidget* startButton = nullptr;
        for (QToolBar* bar : window.findChildren<QToolBar*>())
            if (bar->isVisible() && bar->widgetForAction(start) != nullptr) startButton = bar->widgetForAction(start);
        CHECK(shownInWindow(startButton, window));
        for (QToolBar* bar : window.findChildren<QToolBar*>()) {  // every toolbar whole: no ">>" menu
            if (!bar->isVisible()) continue;
            auto* more = bar->findChild<QToolButton*>(QStringLiteral("qt_toolbar_ext_button"));
            INFO("toolbar " << bar->objectName().toStdString() << " overflows");
            CHECK_FALSE((more != nullptr && more->isVisible()));
        }
        const QStringList sideways = sidewaysScrolling(task->setupPage());
        INFO("sideways: " << sideways.join(QStringLiteral("; ")).toStdString());
        CHECK(sideways.isEmpty());
        const QStringList cut = cutTexts(task->setupPage());
        INFO("cut: " << cut.join(QStringLiteral("; ")).toStdString());
        CHECK(cut.isEmpty());
        if (auto* view = window.navigator()->currentWidget()) {
            for (QSlider* slider : view->findChildren<QSlider*>()) {
                if (!slider->isVisibleTo(view) || slider->orientation() != Qt::Horizontal) continue;
                INFO("a slider of the " << window.currentTabName().toStdString() << " view");
                CHECK(slider->width() >= 60);
            }
        }
        const QString message = window.statusBar()->currentMessage();
        INFO("status bar: " << message.toStdString());
        if (task->id() != QLatin1String("translate")) CHECK_FALSE(message.contains(corpusName));
        CHECK_FALSE(message.endsWith(QStringLiteral("…")));  // a load that never ended
    }
}

}  // namespace

TEST_CASE("the navigator groups every view and shows each by name", "[window]") {
    test::WindowFixture f;
    MainWindow& window = *f.window;
    const QStringList names = window.tabNames();
    CHECK(names == QStringList{"corpus", "translate", "probe", "heads", "projector", "curves", "timeline", "maths", "diagnostics",
                               "head-importance", "positions", "compare", "attribution", "experiments", "decoding"});
    CHECK(window.navigator()->groups()->count() == 4);
    for (const QString& name : names) {
        INFO(name.toStdString());
        REQUIRE(window.showTab(name));
        CHECK(window.currentTabName() == name);
        CHECK(window.navigator()->currentWidget() == window.navigator()->widget(name));
        CHECK_FALSE(window.navigator()->titleOf(name).isEmpty());
    }
    CHECK_FALSE(window.showTab(QStringLiteral("no-such-view")));
    CHECK(window.navigator()->groupTitleOf(QStringLiteral("maths")) == QLatin1String("Explain"));
    REQUIRE(window.taskChooser()->count() >= 1);
    CHECK(window.taskChooser()->currentData().toString() == QLatin1String("translate"));
}

// The window's smallest size fits the screen, and its tab rows fit the window at that screen's size.
static void requireFits(QSize screen) {
    test::WindowFixture f;
    MainWindow& window = *f.window;
    const QSize minimum = window.minimumSizeHint();
    INFO("minimum size " << minimum.width() << " x " << minimum.height() << " for a " << screen.width() << " x "
                         << screen.height() << " screen");
    CHECK(minimum.width() <= screen.width());
    CHECK(minimum.height() <= screen.height());
    window.resize(screen);
    window.show();
    QApplication::processEvents();
    requireTabsFit(window);
}

TEST_CASE("the window fits 1366 x 768, and 1024 x 768 with fonts a quarter larger", "[window]") {
    SECTION("1366 x 768") { requireFits(QSize(1366, 740)); }  // less a panel's 28 px
    SECTION("1024 x 768, large fonts") {
        ScopedFont large(1.25);
        requireFits(QSize(1024, 740));
    }
}

TEST_CASE("setting problems are worded with the setup panel's names", "[window]") {
    SettingProblem divide;
    divide.setting = Setting::Heads;
    divide.kind = SettingProblem::Kind::MustDivide;
    divide.value = "3";
    divide.other = Setting::Hidden;
    divide.otherValue = "64";
    CHECK(SettingNames::describe(divide) == QLatin1String("Heads (3) must divide Hidden size (64)"));
    SettingProblem range;
    range.setting = Setting::LearningRate;
    range.value = "0";
    range.low = "0";
    range.high = "10";
    range.lowOpen = true;
    CHECK(SettingNames::describe(range) == QLatin1String("Learning rate must be above 0 and at most 10; it is 0"));
    CHECK(SettingNames::messageOf(ConfigError(range)) == SettingNames::describe(range));
    CHECK(SettingNames::messageOf(ConfigError("plain words")) == QLatin1String("plain words"));
}

// A projector (1024 x 768) and a laptop (1400 x 900), less a panel's 28 px; fonts at 1 and 1.25.
static void requireFirstScreensEverywhere(MainWindow& window, const char* language) {
    for (const QSize screen : {QSize(1024, 740), QSize(1400, 872)}) {
        for (const double scale : {1.0, 1.25}) {
            ScopedFont font(scale);
            window.resize(screen);
            window.show();
            QApplication::processEvents();
            requireFirstScreens(window, QStringLiteral("%1, %2 x %3, fonts x %4")
                                            .arg(QLatin1String(language)).arg(screen.width()).arg(screen.height()).arg(scale));
        }
    }
}

TEST_CASE("every task's first screen works on a projector and a laptop, in English", "[window][layout]") {
    test::WindowFixture f;
    requireFirstScreensEverywhere(*f.window, "English");
}

TEST_CASE("every task's first screen works on a projector and a laptop, in Chinese", "[window][layout]") {
    test::WindowOptions options;
    options.createWindow = false;
    test::WindowFixture f(options);
    Translations translations;
    REQUIRE(translations.install(QStringLiteral("zh_CN")));
    requireFirstScreensEverywhere(f.openWindow(), "zh_CN");
    f.closeWindow();  // before the catalogue is removed
}
