// The Step by Step view wired to a trained model in the controller: the weights it shows are the
// row of the translation's heatmap, its selectors pick the row, kind, layer and head, and the main
// window opens it as the "maths" tab with the Translate view's sentence.
#include "window/MainWindow.h"
#include "views/maths/MathsView.h"
#include "task/translate/TranslationSession.h"
#include "views/translate/TranslateView.h"

#include "base/translation/Datasets.h"

#include <catch2/catch.hpp>

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>

#include <memory>

#include "TinyModels.h"
#include "ui/UiTestSupport.h"
#include "ui/WindowFixture.h"

using namespace attnlab;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using test::waitUntil;

namespace {

const QString kSentence = QStringLiteral("a b c d");

TrainingRequest reverseRequest(Architecture architecture, AttentionKind attention, int epochs) {
    DatasetOptions data;
    data.size = 200;
    data.maxLen = 6;
    data.seed = 3;
    TrainingRequest request;
    request.corpus = std::make_shared<const ParallelCorpus>(generateDataset("reverse", data));
    request.config = test::tinyModel(architecture, attention);
    request.config.dropout = 0.1f;
    request.options.epochs = epochs;
    request.options.batchSize = 16;
    request.options.learningRate = 0.01;
    request.options.seed = 7;
    return request;
}

void train(TranslationSession& controller, const TrainingRequest& request) {
    QSignalSpy finished(&controller, &TranslationSession::finished);
    controller.start(request);
    REQUIRE(waitUntil([&] { return finished.count() == 1; }, 60000));
    REQUIRE(controller.hasModel());
}

Translation translate(TranslationSession& controller, const QString& sentence) {
    QSignalSpy translated(&controller, &TranslationSession::translated);
    const quint64 id = controller.translate(sentence);
    REQUIRE(waitUntil([&] { return translated.count() == 1; }));
    REQUIRE(translated.at(0).at(0).value<quint64>() == id);
    return translated.at(0).at(1).value<Translation>();
}

// The view answered by the controller, as the main window wires them (stale answers dropped).
struct WiredView {
    MathsView view;
    quint64 pending = 0;
    QString error;

    explicit WiredView(TranslationSession& controller) {
        QObject::connect(&view, &MathsView::traceRequested, &view,
                         [this, &controller](const QString& sentence, const TraceRequest& request) {
                             pending = controller.trace(sentence, request);
                         });
        QObject::connect(&controller, &TranslationSession::traced, &view,
                         [this](quint64 id, const AttentionTrace& trace) {
                             if (id == pending) view.setTrace(trace);
                         });
        QObject::connect(&controller, &TranslationSession::traceFailed, &view,
                         [this](quint64 id, const QString& message) {
                             if (id == pending) error = message;
                         });
        view.setModelAvailable(true);
    }

    // Waits for the answer to the request the selectors make now.
    void waitFor(MapKind kind, int layer, int head, int step) {
        REQUIRE(waitUntil([&] {
            const AttentionTrace& t = view.trace();
            return !error.isEmpty() ||
                   (view.hasTrace() && t.kind == kind && t.layer == layer && t.head == head && t.step == step);
        }));
        INFO(error.toStdString());
        REQUIRE(error.isEmpty());
    }
};

// A number as the view writes it ("−0.1234", "−∞").
double shownNumber(const QTableWidget* table, int row, int column) {
    QString text = table->item(row, column)->text();
    text.replace(QChar(0x2212), QLatin1Char('-'));
    if (text.startsWith(QLatin1String("-∞"))) return -std::numeric_limits<double>::infinity();
    bool ok = false;
    const double value = text.toDouble(&ok);
    INFO("cell text: " << text.toStdString());
    REQUIRE(ok);
    return value;
}

// The weights column (what a student reads) and the exact numbers behind it are the heatmap's row.
void checkRowShown(const MathsView& view, const AttentionMap& heatmap, int row,
                   const std::vector<std::string>& keyTokens) {
    const QTableWidget* table = view.table();
    REQUIRE(table->rowCount() == heatmap.cols);
    REQUIRE(keyTokens.size() == static_cast<std::size_t>(heatmap.cols));
    double sum = 0;
    for (int j = 0; j < heatmap.cols; ++j) {
        INFO("row " << row << ", key " << j);
        CHECK(table->item(j, MathsView::TokenColumn)->text() == QString::fromStdString(keyTokens[j]));
        CHECK_THAT(shownNumber(table, j, MathsView::WeightColumn), WithinAbs(heatmap.at(row, j), 0.5e-4 + 1e-6));
        CHECK_THAT(table->item(j, MathsView::WeightColumn)->data(MathsView::kValueRole).toDouble(),
                   WithinAbs(heatmap.at(row, j), 1e-5));
        sum += table->item(j, MathsView::WeightColumn)->data(MathsView::kValueRole).toDouble();
    }
    CHECK_THAT(sum, WithinAbs(1.0, 1e-5));
    CHECK(view.caption(4).contains(QLatin1String("1.0000")));
}

}  // namespace

TEST_CASE("the Step by Step view shows a GRU's weights as its heatmap row, for every output token", "[ui][maths]") {
    TranslationSession controller;
    train(controller, reverseRequest(Architecture::Gru, AttentionKind::Additive, 3));
    const Translation translation = translate(controller, kSentence);
    REQUIRE(translation.outputTokens.size() >= 2);
    const AttentionMap& heatmap = translation.attention.at(MapKind::Cross)[0][0];

    WiredView wired(controller);
    MathsView& view = wired.view;
    view.setSentence(kSentence);
    view.requestTrace();
    wired.waitFor(MapKind::Cross, 0, 0, 0);
    CHECK(view.transformerControls()->isHidden());
    REQUIRE(view.tokenChooser()->count() == static_cast<int>(translation.outputTokens.size()));
    CHECK(view.tokenChooser()->currentIndex() == 0);
    checkRowShown(view, heatmap, 0, translation.sourceTokens);
    CHECK(view.formula()->text().contains(QLatin1String("tanh")));
    CHECK(view.caption(2).contains(QLatin1String("factor is 1")));
    CHECK(view.caption(3).contains(QLatin1String("no padding")));

    // Another output token: another row of the same map.
    const int last = view.tokenChooser()->count() - 1;
    view.tokenChooser()->setCurrentIndex(last);
    wired.waitFor(MapKind::Cross, 0, 0, last);
    checkRowShown(view, heatmap, last, translation.sourceTokens);

    // The context table: one row per source token and the weighted sum below, first dimensions shown.
    const QTableWidget* context = view.contextTable();
    const AttentionTrace& t = view.trace();
    REQUIRE(context->rowCount() == t.keyCount() + 1);
    REQUIRE(context->columnCount() == 2 + MathsView::kShownDimensions);
    for (int i = 0; i < MathsView::kShownDimensions; ++i) {
        double byHand = 0;
        for (int j = 0; j < t.keyCount(); ++j) byHand += shownNumber(context, j, 1) * shownNumber(context, j, 2 + i);
        CHECK_THAT(shownNumber(context, t.keyCount(), 2 + i), WithinAbs(t.context[i], 0.5e-4 + 1e-6));
        CHECK_THAT(byHand, WithinAbs(t.context[i], 0.05));  // rounded inputs, so only roughly
    }

    // A row the translation does not have comes back as a message, answered between batches like the rest.
    QSignalSpy failed(&controller, &TranslationSession::traceFailed);
    TraceRequest tooFar;
    tooFar.step = 99;
    const quint64 id = controller.trace(kSentence, tooFar);
    REQUIRE(waitUntil([&] { return failed.count() == 1; }));
    CHECK(failed.at(0).at(0).value<quint64>() == id);
    CHECK_THAT(failed.at(0).at(1).toString().toStdString(), Contains("output step 99 does not exist"));
}

TEST_CASE("the Step by Step view's Transformer selectors pick the kind, layer, head and token", "[ui][maths]") {
    TranslationSession controller;
    train(controller, reverseRequest(Architecture::Transformer, AttentionKind::None, 8));
    const Translation translation = translate(controller, kSentence);
    REQUIRE(translation.outputTokens.size() >= 2);

    WiredView wired(controller);
    MathsView& view = wired.view;
    view.setSentence(kSentence);
    view.requestTrace();
    wired.waitFor(MapKind::Cross, 0, 0, 0);
    CHECK_FALSE(view.transformerControls()->isHidden());
    REQUIRE(view.layerChooser()->count() == 2);
    REQUIRE(view.headChooser()->count() == 2);
    checkRowShown(view, translation.attention.at(MapKind::Cross)[0][0], 0, translation.sourceTokens);
    INFO(view.caption(2).toStdString());
    CHECK(view.caption(2).contains(QStringLiteral("√8")));

    view.layerChooser()->setCurrentIndex(1);
    wired.waitFor(MapKind::Cross, 1, 0, 0);
    view.headChooser()->setCurrentIndex(1);
    wired.waitFor(MapKind::Cross, 1, 1, 0);
    view.tokenChooser()->setCurrentIndex(1);
    wired.waitFor(MapKind::Cross, 1, 1, 1);
    checkRowShown(view, translation.attention.at(MapKind::Cross)[1][1], 1, translation.sourceTokens);

    // Decoder self-attention starts again from the first token; at the second, the third and later
    // decoder inputs are masked as not written yet.
    view.kindChooser()->setCurrentIndex(view.kindChooser()->findData(static_cast<int>(MapKind::Decoder)));
    wired.waitFor(MapKind::Decoder, 1, 1, 0);
    view.tokenChooser()->setCurrentIndex(1);
    wired.waitFor(MapKind::Decoder, 1, 1, 1);
    std::vector<std::string> decoderInputs{"<s>"};
    decoderInputs.insert(decoderInputs.end(), translation.outputTokens.begin(), translation.outputTokens.end() - 1);
    checkRowShown(view, translation.attention.at(MapKind::Decoder)[1][1], 1, decoderInputs);
    const QTableWidget* table = view.table();
    for (int j = 0; j < table->rowCount(); ++j) {
        INFO("key " << j);
        const bool future = j > 1;
        CHECK(table->item(j, MathsView::MaskColumn)->text().startsWith(QStringLiteral("−∞")) == future);
        if (future) CHECK(table->item(j, MathsView::WeightColumn)->text() == QLatin1String("0.0000"));
    }
    CHECK(view.caption(3).contains(QLatin1String("causal")));

    view.kindChooser()->setCurrentIndex(view.kindChooser()->findData(static_cast<int>(MapKind::Encoder)));
    wired.waitFor(MapKind::Encoder, 1, 1, 0);
    CHECK(view.tokenChooser()->count() == static_cast<int>(translation.sourceTokens.size()));
    checkRowShown(view, translation.attention.at(MapKind::Encoder)[1][1], 0, translation.sourceTokens);
}

TEST_CASE("the main window opens Step by Step as the maths tab with the Translate view's sentence", "[ui][maths]") {
    test::WindowFixture f;
    MainWindow& window = *f.window;
    REQUIRE(window.tabNames().contains(QLatin1String("maths")));
    CHECK(window.navigator()->titleOf(QStringLiteral("maths")) == QLatin1String("Step by Step"));

    train(*translation(window).session(), reverseRequest(Architecture::Gru, AttentionKind::Dot, 2));
    translation(window).translateView()->setSentence(QStringLiteral("b c d"));
    REQUIRE(window.showTab(QStringLiteral("maths")));
    CHECK(window.currentTabName() == QLatin1String("maths"));
    REQUIRE(waitUntil([&] { return translation(window).mathsView()->hasTrace(); }));
    CHECK(translation(window).mathsView()->sentence() == QLatin1String("b c d"));
    CHECK(translation(window).mathsView()->table()->rowCount() == 4);  // b c d </s>
    window.close();
}
