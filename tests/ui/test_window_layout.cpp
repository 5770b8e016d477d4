// The main window's navigation and size: every view reachable from the two tab rows without a
// scrolling tab bar, and the window fitting small screens (1366 x 768; a 1024 x 768 projector with
// large fonts).
#include "session/SettingNames.h"
#include "views/View.h"
#include "window/MainWindow.h"
#include "views/ViewNavigator.h"

#include "ui/WindowFixture.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QComboBox>
#include <QTabBar>
#include <QTabWidget>

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
