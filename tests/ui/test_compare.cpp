#include "views/compare/CompareView.h"
#include "task/translate/TranslationSession.h"

#include "engine/translation/Seq2SeqModel.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QImage>
#include <QSignalSpy>

#include <algorithm>
#include <cmath>

#include "TempDir.h"
#include "TinyModels.h"
#include "ui/UiTestSupport.h"

using namespace attnlab;
using test::waitUntil;

namespace {

// An untrained model: its weights are random but its attention is real, which is all a comparison
// needs.
QString writeModel(const test::TempDir& dir, const QString& name, const ModelConfig& base, std::uint64_t seed) {
    const std::vector<std::string> words{"the", "cat", "sees", "a", "red", "car"};
    ModelConfig config = base;
    config.dropout = 0.0f;
    const Vocabulary vocabulary = Vocabulary::build({words});
    Seq2SeqModel model(config, vocabulary, vocabulary, TokenizerOptions{}, seed);
    const QString path = dir.filePath(name);
    model.save(path.toStdString());
    return path;
}

double largest(const AttentionMap& map) { return *std::max_element(map.weights.begin(), map.weights.end()); }

}  // namespace

TEST_CASE("compare shows two model files on one colour scale with the models' own attention", "[ui][compare]") {
    test::TempDir dir;
    const QString dotPath = writeModel(dir, QStringLiteral("dot.safetensors"), test::tinyGru(AttentionKind::Dot), 1);
    const QString transformerPath =
        writeModel(dir, QStringLiteral("transformer.safetensors"), test::tinyTransformer(1, 2), 2);

    TranslationSession controller;
    CompareView view(&controller);
    view.resize(1200, 700);
    QSignalSpy loaded(&view, &CompareView::modelLoaded);
    QSignalSpy compared(&view, &CompareView::compared);
    view.loadModelFile(0, dotPath);
    view.loadModelFile(1, transformerPath);
    REQUIRE(waitUntil([&] { return loaded.count() == 2; }));
    CHECK_FALSE(view.usesCurrentModel(0));
    CHECK(view.modelFile(1) == transformerPath);
    CHECK(view.modelDescription(0).contains(QStringLiteral("dot")));
    CHECK(view.modelDescription(1).contains(QStringLiteral("Transformer")));

    view.setSentence(QStringLiteral("the cat sees a red car"));
    view.compare();
    REQUIRE(waitUntil([&] { return compared.count() >= 1 && !view.isBusy(); }));

    // The numbers are the models' own: translating with the file's model gives the same maps.
    const Seq2SeqModel dot = Seq2SeqModel::load(dotPath.toStdString());
    const Translation expected = dot.translate("the cat sees a red car");
    const Translation& shown = view.translation(0);
    REQUIRE(shown.outputTokens == expected.outputTokens);
    const AttentionMap& a = shown.attention.at(MapKind::Cross)[0][0];
    const AttentionMap& e = expected.attention.at(MapKind::Cross)[0][0];
    REQUIRE(a.weights.size() == e.weights.size());
    for (std::size_t i = 0; i < a.weights.size(); ++i) CHECK(a.weights[i] == Approx(e.weights[i]).margin(1e-6));

    // One scale: both heatmaps span 0 .. the larger of the two maps' largest weights.
    REQUIRE(view.panel(0)->hasMap());
    REQUIRE(view.panel(1)->hasMap());
    const double high = std::max(largest(view.panel(0)->heatmap()->renderer().map()),
                                 largest(view.panel(1)->heatmap()->renderer().map()));
    CHECK(view.sharedMaximum() == Approx(high));
    for (int side = 0; side < 2; ++side) {
        const auto range = view.panel(side)->heatmap()->renderer().valueRange();
        CHECK(range.first == 0.0);
        CHECK(range.second == Approx(high));
    }
    // Choosing another head of the Transformer re-fits the shared scale.
    view.panel(1)->setSelection(0, 1);
    const double afterHead = std::max(largest(view.panel(0)->heatmap()->renderer().map()),
                                      largest(view.panel(1)->heatmap()->renderer().map()));
    CHECK(view.panel(0)->heatmap()->renderer().valueRange().second == Approx(afterHead));
    view.setUnitScale(true);
    CHECK(view.panel(0)->heatmap()->renderer().valueRange().second == 1.0);
    CHECK(view.panel(1)->heatmap()->renderer().valueRange().second == 1.0);

    // The figure holds both maps side by side.
    const QString png = dir.filePath(QStringLiteral("compare.png"));
    QString error;
    REQUIRE(view.exportFigure(png, &error, 1.0));
    const QImage image(png);
    const QSize left = view.panel(0)->heatmap()->renderer().preferredSize();
    const QSize right = view.panel(1)->heatmap()->renderer().preferredSize();
    CHECK(image.width() == left.width() + right.width());
    CHECK(image.height() == std::max(left.height(), right.height()));
    CHECK_FALSE(view.exportFigure(dir.filePath(QStringLiteral("compare.csv")), &error));
    CHECK(error.contains(QStringLiteral("compare.csv")));
}

TEST_CASE("compare reports a broken model file and keeps the side's model", "[ui][compare]") {
    test::TempDir dir;
    const QString good = writeModel(dir, QStringLiteral("additive.safetensors"), test::tinyGru(AttentionKind::Additive), 3);
    const QString bad = dir.filePath(QStringLiteral("broken.safetensors"));
    {
        QFile f(bad);
        REQUIRE(f.open(QIODevice::WriteOnly));
        f.write("this is not a model");
    }
    TranslationSession controller;
    CompareView view(&controller);
    QSignalSpy loaded(&view, &CompareView::modelLoaded);
    QSignalSpy failed(&view, &CompareView::loadFailed);
    view.loadModelFile(0, good);
    REQUIRE(waitUntil([&] { return loaded.count() == 1; }));
    view.loadModelFile(0, bad);
    REQUIRE(waitUntil([&] { return failed.count() == 1; }));
    CHECK(failed.at(0).at(1).toString().contains(QStringLiteral("broken.safetensors")));
    CHECK(view.modelFile(0) == good);  // the model that was there stays
    CHECK_FALSE(view.isBusy());
}

TEST_CASE("compare without a current model says what to do instead of waiting", "[ui][compare]") {
    TranslationSession controller;
    CompareView view(&controller);
    QSignalSpy compared(&view, &CompareView::compared);
    view.setSentence(QStringLiteral("the cat"));
    view.compare();
    CHECK_FALSE(view.isBusy());
    CHECK_FALSE(view.panel(0)->hasMap());
    CHECK_FALSE(view.panel(1)->hasMap());
}
