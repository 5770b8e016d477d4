// The Diagnostics view (attention flags per head, explained) and the Positions view (sinusoidal
// encoding and position similarity), alone and fed by a training run in the main window.
#include "views/diagnostics/DiagnosticsView.h"
#include "window/MainWindow.h"
#include "task/translate/ModelSettingsWidget.h"
#include "views/positions/PositionalEncodingView.h"
#include "views/translate/ProbeView.h"
#include "task/translate/TrainingSettingsWidget.h"

#include "base/PositionalEncoding.h"

#include <catch2/catch.hpp>

#include <QLabel>
#include <QSettings>
#include <QTableWidget>
#include <QTextBrowser>

#include <memory>

#include "TinyModels.h"
#include "ui/UiTestSupport.h"
#include "ui/WindowFixture.h"

using namespace attnlab;

namespace {

using test::waitUntil;

using attnlab::test::str;

// Source "tom chases jerry </s>", output "a b c". Cross-attention: 2 layers x 2 heads; layer 0 head 0 is
// the identity-like alignment, the other three heads park on </s>. Encoder: one layer, one head, uniform.
Translation transformerTranslation() {
    Translation t;
    t.sourceTokens = {"tom", "chases", "jerry", "</s>"};
    t.outputTokens = {"a", "b", "c"};
    const AttentionMap aligned{3, 4, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}};
    const AttentionMap sink{3, 4, {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}};
    t.attention[MapKind::Cross] = {{aligned, sink}, {sink, sink}};
    t.attention[MapKind::Encoder] = {{AttentionMap{4, 4, std::vector<float>(16, 0.25f)}}};
    return t;
}

Translation gruTranslation() {
    Translation t;
    t.sourceTokens = {"the", "cat", "sleeps", "</s>"};
    t.outputTokens = {"le", "chat", "dort"};
    // "the" receives 0.06 in total: uncovered.
    t.attention[MapKind::Cross] = {{AttentionMap{3, 4, {0.02f, 0.90f, 0.08f, 0.0f, 0.02f, 0.08f, 0.90f, 0.0f,
                                                 0.02f, 0.0f, 0.08f, 0.90f}}}};
    return t;
}

QString cell(const QTableWidget* table, int row, int column) {
    const QTableWidgetItem* item = table->item(row, column);
    return item ? item->text() : QString();
}

TEST_CASE("diagnostics view lists each kind's summary, then its heads, with coloured flags", "[ui][diagnostics]") {
    DiagnosticsView view;
    CHECK(view.diagnostics().summaries.empty());
    view.setTranslation(transformerTranslation());
    const QTableWidget* table = view.table();
    // cross summary, its 4 heads, the encoder summary (its single head is not repeated).
    REQUIRE(table->rowCount() == 6);
    CHECK(str(cell(table, 0, DiagnosticsView::KindColumn)) == "cross");
    CHECK(str(cell(table, 0, DiagnosticsView::LayerColumn)) == "all");
    CHECK(str(cell(table, 0, DiagnosticsView::HeadColumn)) == "mean of 4");
    CHECK(str(cell(table, 2, DiagnosticsView::LayerColumn)) == "0");
    CHECK(str(cell(table, 2, DiagnosticsView::HeadColumn)) == "1");
    CHECK(str(cell(table, 5, DiagnosticsView::KindColumn)) == "encoder");
    // Sink mass: three heads of four put everything on </s> -> 0.75, flagged amber.
    CHECK(str(cell(table, 0, DiagnosticsView::SinkColumn)) == "\u26a0 0.75");
    CHECK(table->item(0, DiagnosticsView::SinkColumn)->background().color() != QColor());
    // Head L0 H0 aligns: sink 0 and diagonality 1, both ok (green).
    CHECK(str(cell(table, 1, DiagnosticsView::SinkColumn)) == "\u2713 0.00");
    CHECK(str(cell(table, 1, DiagnosticsView::DiagonalityColumn)) == "\u2713 1.00");
    CHECK(table->item(1, DiagnosticsView::SinkColumn)->background().color() !=
          table->item(0, DiagnosticsView::SinkColumn)->background().color());
    // Coverage of a parked head: all three words unattended.
    CHECK(str(cell(table, 2, DiagnosticsView::CoverageColumn)) == "\u26a0 3 of 3 unattended: tom, chases, jerry");
    // The cross summary covers them through head L0 H0: in the mean of the four heads each word
    // receives 1 / 4 = 0.25 >= 0.1.
    CHECK(str(cell(table, 0, DiagnosticsView::CoverageColumn)) == "\u2713 all 3 attended");
    // Encoder: uniform -> entropy 1 flagged, sink 0.25 (</s>) ok; its diagonality is shown but not judged.
    CHECK(str(cell(table, 5, DiagnosticsView::EntropyColumn)) == "\u26a0 1.00");
    CHECK(str(cell(table, 5, DiagnosticsView::SinkColumn)) == "\u2713 0.25");
    const std::string diagonality = str(cell(table, 5, DiagnosticsView::DiagonalityColumn));
    CHECK(diagonality.find("\u26a0") == std::string::npos);
    CHECK(diagonality.find("\u2713") == std::string::npos);
    CHECK(table->item(5, DiagnosticsView::DiagonalityColumn)->background().style() == Qt::NoBrush);

    // The explanations name each raised finding, where, and what to try.
    const std::string text = str(view.explanations()->toPlainText());
    CHECK(text.find(str(DiagnosticsView::findingTitle(Finding::SinkCross))) != std::string::npos);
    CHECK(text.find(str(DiagnosticsView::findingTitle(Finding::BroadHeads))) != std::string::npos);
    // Sinks: the cross summary and the three parked heads.
    CHECK(text.find("Raised by: cross-attention: all heads, L1 H2, L2 H1, L2 H2") != std::string::npos);
    // Broad heads: the encoder's single map, named by its kind alone.
    CHECK(text.find("Raised by: encoder self-attention\n") != std::string::npos);
    CHECK(text.find("What to try:") != std::string::npos);
    CHECK(text.find("bidirectional") != std::string::npos);
    // The summary line above the table.
    CHECK(str(view.summary()->text()).find("entropy 0.00 \u00b7 diagonality") != std::string::npos);

    // The preview follows the selected row: the mean of the heads, then one head.
    CHECK(view.preview()->renderer().rows() == 3);
    CHECK(view.preview()->renderer().weight(0, 0) == Approx(0.25));
    view.table()->setCurrentCell(1, 0);
    CHECK(view.preview()->renderer().weight(0, 0) == Approx(1.0));
    view.table()->setCurrentCell(5, 0);
    CHECK(view.preview()->renderer().rows() == 4);  // encoder: source x source
    // A live update keeps the selected head.
    view.setTranslation(transformerTranslation());
    CHECK(view.table()->currentRow() == 5);
}

TEST_CASE("diagnostics view explains an uncovered word of a GRU map and shows one row", "[ui][diagnostics]") {
    DiagnosticsView view;
    view.setTranslation(gruTranslation());
    REQUIRE(view.table()->rowCount() == 1);
    CHECK(str(cell(view.table(), 0, DiagnosticsView::LayerColumn)) == "0");
    CHECK(str(cell(view.table(), 0, DiagnosticsView::CoverageColumn)) == "\u26a0 1 of 3 unattended: the");
    const std::string text = str(view.explanations()->toPlainText());
    CHECK(text.find(str(DiagnosticsView::findingTitle(Finding::Uncovered))) != std::string::npos);
    CHECK(text.find("in total, over all output steps: the.") != std::string::npos);
    CHECK(text.find("Raised by: cross-attention") != std::string::npos);
}

TEST_CASE("diagnostics view flags a cross-attention that is the same map for every output step", "[ui][diagnostics]") {
    // A GRU's cross-attention whose four output steps all read the source alike.
    Translation t;
    t.sourceTokens = {"tom", "chases", "jerry", "</s>"};
    t.outputTokens = {"a", "b", "c", "</s>"};
    const std::vector<float> row{0.4f, 0.3f, 0.2f, 0.1f};
    AttentionMap map{4, 4, {}};
    for (int r = 0; r < 4; ++r) map.weights.insert(map.weights.end(), row.begin(), row.end());
    t.attention[MapKind::Cross] = {{map}};
    DiagnosticsView view;
    view.setTranslation(t);
    REQUIRE(view.table()->rowCount() == 1);
    CHECK(str(cell(view.table(), 0, DiagnosticsView::RowSpreadColumn)) == "\u26a0 0.00");
    const std::string text = str(view.explanations()->toPlainText());
    CHECK(text.find(str(DiagnosticsView::findingTitle(Finding::SameRows))) != std::string::npos);
    CHECK(text.find("not using attention to move through the source") != std::string::npos);
    // The diagonal of the GRU fixture differs from row to row: no such flag.
    DiagnosticsView other;
    other.setTranslation(gruTranslation());
    CHECK(str(other.explanations()->toPlainText()).find(str(DiagnosticsView::findingTitle(Finding::SameRows))) ==
          std::string::npos);
}

TEST_CASE("diagnostics view follows the translation, the probe or the latest", "[ui][diagnostics]") {
    DiagnosticsView view;
    CHECK(view.source() == DiagnosticsView::Source::Latest);
    view.setTranslation(gruTranslation());
    CHECK(view.shownTranslation().outputTokens.front() == "le");
    ProbeResult probe;
    probe.translation = transformerTranslation();
    probe.batches = 12;
    probe.epoch = 1;
    view.setProbe(probe);
    CHECK(view.shownTranslation().outputTokens.front() == "a");  // the latest
    view.setSource(DiagnosticsView::Source::Translation);
    CHECK(view.shownTranslation().outputTokens.front() == "le");
    view.setProbe(probe);  // does not take over the Translate view's sentence
    CHECK(view.shownTranslation().outputTokens.front() == "le");
    view.setSource(DiagnosticsView::Source::Probe);
    CHECK(view.shownTranslation().outputTokens.front() == "a");
    view.clear();
    CHECK(view.diagnostics().summaries.empty());
    CHECK(view.table()->rowCount() == 0);
    // A model without attention says so instead of an empty table.
    view.setSource(DiagnosticsView::Source::Latest);
    Translation none = gruTranslation();
    none.attention.clear();
    view.setTranslation(none);
    CHECK(view.table()->rowCount() == 0);
}

TEST_CASE("positions view shows the model's sinusoidal table and the position similarity", "[ui][positions]") {
    PositionalEncodingView view;
    CHECK(view.modelWidth() == 128);
    CHECK(view.positions() == 50);
    CHECK(str(view.formula()->text()).find("sin(pos / 10000") != std::string::npos);
    const HeatmapRenderer& encoding = view.encodingHeatmap()->renderer();
    REQUIRE(encoding.rows() == 50);
    REQUIRE(encoding.columns() == 128);
    const AttentionMap expected = sinusoidalEncoding(50, 128);
    CHECK(encoding.weight(7, 0) == Approx(expected.at(7, 0)));
    CHECK(encoding.weight(7, 0) == Approx(std::sin(7.0)).margin(1e-6));
    CHECK(encoding.weight(7, 1) == Approx(std::cos(7.0)).margin(1e-6));
    CHECK(encoding.valueRange() == std::make_pair(-1.0, 1.0));
    CHECK(encoding.options().colormap == ColormapId::RdBuR);
    CHECK_FALSE(encoding.options().keepAspect);  // fills the view
    const HeatmapRenderer& similarity = view.similarityHeatmap()->renderer();
    REQUIRE(similarity.rows() == 50);
    REQUIRE(similarity.columns() == 50);
    CHECK(similarity.weight(3, 3) == Approx(1.0).margin(1e-6));
    CHECK(similarity.weight(3, 9) == Approx(similarity.weight(10, 16)).margin(1e-5));
    CHECK(similarity.valueRange() == std::make_pair(-1.0, 1.0));

    view.setPositions(8);
    view.setModelWidth(4);
    CHECK(encoding.rows() == 8);
    CHECK(encoding.columns() == 4);
    CHECK(encoding.weight(1, 2) == Approx(std::sin(0.01)).margin(1e-7));

    // A Transformer sets d_model (positions capped by its maximum length); a GRU goes back to 128.
    ModelConfig transformer;
    transformer.architecture = Architecture::Transformer;
    transformer.hidden = 64;
    transformer.maxLength = 20;
    view.setModel(&transformer);
    CHECK(view.modelWidth() == 64);
    CHECK(view.positions() == 20);
    CHECK(view.transformerWidth() == 64);
    CHECK(encoding.columns() == 64);
    ModelConfig gru;
    view.setModel(&gru);
    CHECK(view.modelWidth() == 128);
    CHECK(view.transformerWidth() == 0);
    view.setModel(nullptr);
    CHECK(view.modelWidth() == 128);
}

TEST_CASE("the main window's Diagnostics and Positions tabs follow training", "[ui][diagnostics][positions]") {
    test::WindowFixture f;
    MainWindow& window = *f.window;
    const auto& errors = f.errors;
    f.loadTinyCopy();
    ModelConfig config = test::tinyTransformer(2, 2);
    config.dropout = 0.0f;
    config.maxLength = 16;  // positions() below is the model's maximum length
    translation(window).modelSettings()->setConfig(config);
    TranslationTrainingOptions options = translation(window).trainingSettings()->options();
    options.epochs = 6;  // with one epoch the probe gave no map the diagnostics could summarise
    options.batchSize = 16;
    options.learningRate = 0.01;
    options.seed = 3;
    translation(window).trainingSettings()->setOptions(options);
    translation(window).probeView()->setEveryBatches(1);
    translation(window).probeView()->setSentence(QString::fromStdString(translation(window).corpus().corpus->pairs.at(0).source));

    CHECK(window.showTab(QStringLiteral("diagnostics")));
    CHECK(str(window.currentTabName()) == "diagnostics");
    translation(window).startTraining();
    REQUIRE(waitUntil([&] { return translation(window).session()->state() == TranslationSession::State::Finished; }));
    REQUIRE(waitUntil([&] { return translation(window).probeView()->updates() > 1; }));
    // The probe's Transformer attention: cross, encoder and decoder summaries, 2 layers x 2 heads each.
    REQUIRE(waitUntil([&] { return translation(window).diagnosticsView()->diagnostics().summaries.size() == 3; }));
    CHECK(translation(window).diagnosticsView()->diagnostics().heads.size() == 12);
    CHECK(translation(window).diagnosticsView()->table()->rowCount() == 15);
    CHECK(translation(window).positionsView()->modelWidth() == 16);
    CHECK(translation(window).positionsView()->positions() == 16);
    CHECK(window.showTab(QStringLiteral("positions")));
    CHECK(str(window.currentTabName()) == "positions");
    CHECK(errors.isEmpty());
    window.close();
}

}  // namespace
