// The translation views offer Export Image / Export Matrix only while they show a map (found by the
// soak: an export of the Heads or Probe view before its first answer, or for an output that ended at
// once, failed with "no attention / heatmap to export yet" while the action was enabled).
#include "views/heads/HeadsView.h"
#include "views/translate/ProbeView.h"
#include "views/translate/TranslateView.h"

#include <catch2/catch.hpp>

#include <QTemporaryDir>

using namespace attnlab;

namespace {

// Source "the cat sleeps </s>", output "le chat dort": a GRU's one cross-attention map.
Translation gruTranslation() {
    Translation t;
    t.sourceTokens = {"the", "cat", "sleeps", "</s>"};
    t.outputTokens = {"le", "chat", "dort"};
    t.attention[MapKind::Cross] = {{AttentionMap{3, 4, {0.7f, 0.1f, 0.1f, 0.1f, 0.1f, 0.7f, 0.1f, 0.1f,
                                                        0.1f, 0.1f, 0.7f, 0.1f}}}};
    return t;
}

// The model ended its output at once: no output token, so no attention.
Translation emptyOutput() {
    Translation t;
    t.sourceTokens = {"the", "cat", "sleeps", "</s>"};
    return t;
}

}  // namespace

TEST_CASE("translation views export only while they show a map", "[export]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    QString error;

    SECTION("Heads") {
        HeadsView view;
        CHECK_FALSE(view.exportsFigure());
        CHECK_FALSE(view.exportsMatrix());
        view.setTranslation(emptyOutput());
        CHECK_FALSE(view.exportsFigure());
        CHECK_FALSE(view.exportView(dir.filePath(QStringLiteral("heads.png")), 1.0, &error));
        view.setTranslation(gruTranslation());
        CHECK(view.exportsFigure());
        CHECK(view.exportsMatrix());
        CHECK(view.exportView(dir.filePath(QStringLiteral("heads.png")), 1.0, &error));
        view.clearView();
        CHECK_FALSE(view.exportsFigure());
    }
    SECTION("Probe") {
        ProbeView view;
        CHECK_FALSE(view.exportsFigure());
        ProbeResult none;
        none.translation = emptyOutput();
        view.setResult(none);
        CHECK_FALSE(view.exportsFigure());
        CHECK_FALSE(view.exportsMatrix());
        ProbeResult result;
        result.translation = gruTranslation();
        view.setResult(result);
        CHECK(view.exportsFigure());
        CHECK(view.exportsMatrix());
        CHECK(view.exportView(dir.filePath(QStringLiteral("probe.svg")), 1.0, &error));
        view.runStarted();
        CHECK_FALSE(view.exportsFigure());
    }
    SECTION("Translate") {
        TranslateView view;
        CHECK_FALSE(view.exportsFigure());
        view.setTranslation(gruTranslation());
        CHECK(view.exportsFigure());
        CHECK(view.exportsMatrix());
        CHECK(view.exportView(dir.filePath(QStringLiteral("translate.csv")), 1.0, &error));
        view.clearView();
        CHECK_FALSE(view.exportsFigure());
    }
}
