// The decoding lab (views/decoding/DecodingView): greedy, sampling and beam search on a model the
// controller holds, each step's distribution and attention, the Transformer's key/value cache with its
// counted multiply-adds, the beam tree, and the figures it exports.
#include "views/decoding/DecodingCharts.h"
#include "views/decoding/DecodingView.h"
#include "task/translate/TranslationSession.h"
#include "widgets/WordStrip.h"

#include "engine/translation/Seq2SeqModel.h"

#include <catch2/catch.hpp>

#include <QFileInfo>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

#include "TempDir.h"
#include "TinyModels.h"
#include "ui/UiTestSupport.h"

using namespace attnlab;
using test::waitUntil;

namespace {

const char* const kSentence = "the cat sees a red car";

// An untrained model: random weights, real attention, long outputs (it rarely draws </s>).
QString writeModel(const test::TempDir& dir, const QString& name, const ModelConfig& base) {
    const std::vector<std::string> words{"the", "cat", "sees", "a", "red", "car"};
    ModelConfig config = base;
    config.dropout = 0.0f;
    const Vocabulary vocabulary = Vocabulary::build({words});
    Seq2SeqModel model(config, vocabulary, vocabulary, TokenizerOptions{}, 7);
    const QString path = dir.filePath(name);
    model.save(path.toStdString());
    return path;
}

void load(TranslationSession& controller, const QString& path) {
    QSignalSpy loaded(&controller, &TranslationSession::modelLoaded);
    controller.loadModel(path);
    REQUIRE(waitUntil([&] { return loaded.count() == 1; }));
}

void decodeAndWait(DecodingView& view) {
    QSignalSpy decoded(&view, &DecodingView::decoded);
    view.decode();
    REQUIRE(waitUntil([&] { return decoded.count() == 1; }));
    REQUIRE(view.error().isEmpty());
}

}  // namespace

TEST_CASE("the decoding lab steps through greedy and sampled translations with the Transformer's cache",
          "[ui][decoding]") {
    test::TempDir dir;
    const QString path = writeModel(dir, QStringLiteral("transformer.safetensors"), test::tinyTransformer(2, 2));
    const Seq2SeqModel model = Seq2SeqModel::load(path.toStdString());
    TranslationSession controller;
    load(controller, path);
    DecodingView view(&controller);
    view.resize(1300, 900);
    view.setSentence(QString::fromLatin1(kSentence));

    // Greedy: the model's own greedy translation, each step keeping one token.
    view.setMethod(DecodingView::Method::Greedy);
    decodeAndWait(view);
    REQUIRE(view.results().size() == 1);
    const Translation greedy = model.translate(kSentence);
    const Translation& shown = view.results().front();
    CHECK(shown.outputTokens == greedy.outputTokens);
    REQUIRE(view.stepCount() == static_cast<int>(shown.steps.size()));
    REQUIRE(view.stepCount() >= 3);
    CHECK(view.currentStep() == 0);
    REQUIRE(view.candidates(0)->hasStep());
    CHECK(view.candidates(0)->step().keptCount == 1);
    CHECK(view.candidates(0)->step().chosen == shown.outputTokens.front());
    // The step's attention over the source, as a row of weights summing to 1.
    WordStrip* strip = view.attentionStrip(0);
    REQUIRE(strip->rows().size() == 1);
    CHECK(strip->words().size() == static_cast<int>(shown.sourceTokens.size()));
    double sum = 0;
    for (double w : strip->rows().front().values) sum += w;
    CHECK(sum == Approx(1.0).epsilon(1e-4));

    // The cache grows by one row per step; the counts are the hand count's (tests/base/test_decoding_cost):
    // with the cache, per layer 4 d^2 (q, k, v, output) + 2 d^2 (cross q, output) + 2 S d + 2 d f +
    // 2 (t + 1) d; without, every one of the t + 1 positions again and causal attention over the prefix.
    REQUIRE(view.showsCache());
    CHECK(view.cacheTable()->shownRows() == 1);
    view.setStep(2);
    CHECK(view.currentStep() == 2);
    CHECK(view.cacheTable()->shownRows() == 3);
    const std::int64_t d = 16, f = 32, L = 2, V = static_cast<std::int64_t>(model.targetVocabulary().size());
    const auto S = static_cast<std::int64_t>(shown.sourceTokens.size());
    const std::int64_t position = 4 * d * d + 2 * d * d + 2 * S * d + 2 * d * f;
    CHECK(view.stepCost().withCache == L * (position + 2 * 3 * d) + d * V);
    CHECK(view.stepCost().withoutCache == L * (3 * position + d * (1 + 2 + 3) * 2) + d * V);
    const StepCost first = view.stepCost();
    CHECK(view.costText().contains(QLocale().toString(static_cast<qlonglong>(first.withCache))));
    CHECK(view.costText().contains(QLocale().toString(static_cast<qlonglong>(first.withoutCache))));
    view.setStep(view.stepCount() + 5);  // clamped
    CHECK(view.currentStep() == view.stepCount() - 1);
    CHECK(view.cacheTable()->shownRows() == view.stepCount());

    // Sampling: three samples with seeds 5, 6, 7, each the model's own sample for that seed.
    view.setMethod(DecodingView::Method::Sampling);
    view.setSampling(1.0, 0, 1.0, 5, 3);
    decodeAndWait(view);
    REQUIRE(view.results().size() == 3);
    for (int s = 0; s < 3; ++s) {
        INFO("sample " << s);
        DecodeOptions options;
        options.sample = true;
        options.seed = static_cast<std::uint64_t>(5 + s);
        CHECK(view.results()[static_cast<std::size_t>(s)].outputTokens == model.translate(kSentence, options).outputTokens);
        CHECK(view.candidates(s)->hasStep());
    }
    // Top-k 2: at most two tokens kept at every step, the cut drawn below them.
    view.setSampling(1.0, 2, 1.0, 5, 1);
    decodeAndWait(view);
    REQUIRE(view.results().size() == 1);
    for (const DecodingStep& step : view.results().front().steps) CHECK(step.keptCount <= 2);

    // Figures: PNG of the charts and the cache; a matrix format is refused with a message.
    QString error;
    const QString png = dir.filePath(QStringLiteral("decoding.png"));
    REQUIRE(view.exportView(png, 1.0, &error));
    CHECK(QFileInfo(png).size() > 1000);
    CHECK_FALSE(view.exportView(dir.filePath(QStringLiteral("decoding.csv")), 1.0, &error));
    CHECK_FALSE(error.isEmpty());
}

TEST_CASE("the decoding lab draws beam search as a tree whose marked path is the translation", "[ui][decoding]") {
    test::TempDir dir;
    const QString path = writeModel(dir, QStringLiteral("gru.safetensors"), test::tinyGru(AttentionKind::Additive));
    const Seq2SeqModel model = Seq2SeqModel::load(path.toStdString());
    TranslationSession controller;
    load(controller, path);
    DecodingView view(&controller);
    view.resize(1300, 900);
    view.setSentence(QString::fromLatin1(kSentence));

    // A GRU has no key/value cache: the cache panel stays away.
    decodeAndWait(view);
    CHECK_FALSE(view.showsCache());

    view.setMethod(DecodingView::Method::Beam);
    view.setBeamWidth(3);
    decodeAndWait(view);
    REQUIRE(view.results().size() == 1);
    DecodeOptions beam;
    beam.beam = 3;
    const Translation expected = model.translate(kSentence, beam);
    const Translation& shown = view.results().front();
    CHECK(shown.outputTokens == expected.outputTokens);
    BeamTreeWidget* tree = view.beamTree();
    REQUIRE(tree->tree().size() == shown.beamTree.size());
    REQUIRE(!shown.beamTree.empty());
    // The best path is selected at first; clicking another box selects it.
    REQUIRE(tree->selected() >= 0);
    CHECK(shown.beamTree[static_cast<std::size_t>(tree->selected())].best);
    const QRectF box = tree->nodeRect(0);
    QTest::mouseClick(tree, Qt::LeftButton, {}, box.center().toPoint());
    CHECK(tree->selected() == 0);

    QString error;
    const QString svg = dir.filePath(QStringLiteral("beam.svg"));
    REQUIRE(view.exportView(svg, 1.0, &error));
    CHECK(QFileInfo(svg).size() > 1000);
}

TEST_CASE("the decoding lab without a model or a sentence says what to do", "[ui][decoding]") {
    TranslationSession controller;
    DecodingView view(&controller);
    view.setSentence(QString::fromLatin1(kSentence));
    view.decode();
    CHECK_FALSE(view.isBusy());
    CHECK(view.results().empty());
    CHECK_FALSE(view.exportsFigure());
    QString error;
    CHECK_FALSE(view.exportView(QStringLiteral("/tmp/never.png"), 1.0, &error));
    CHECK_FALSE(error.isEmpty());
}
