// The classifier's Explain view alone, fed by hand-made explanations and validation results: the
// word strip's rows, the agreement table, the scatter plot, the class box, its requests, the tau
// histogram and summary, export and clearing.
#include "ui/UiTestSupport.h"
#include "views/classify/ExplainView.h"
#include "widgets/WordStrip.h"

#include <catch2/catch.hpp>

#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QFileInfo>
#include <QImage>
#include <QLineEdit>
#include <QPushButton>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <cmath>
#include <limits>
#include "TempDir.h"

using namespace attnlab;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

using attnlab::test::str;

bool contains(const QString& text, const char* part) { return text.contains(QString::fromUtf8(part)); }

QString cell(const QTableWidget* table, int row, int column) {
    const QTableWidgetItem* item = table->item(row, column);
    return item ? item->text() : QString();
}

// "the movie was great": attention on "great", the gradient methods mostly agree, integrated gradients'
// tau undefined (NaN).
Explanation handMade(bool withAttention = true) {
    Explanation e;
    e.tokens = {"the", "movie", "was", "great"};
    e.classIndex = 1;
    e.label = "positive";
    e.probability = 0.9712;
    if (withAttention) e.methods["attention"] = {0.05, 0.15, 0.10, 0.70};
    e.methods["gradient"] = {0.2, 0.5, 0.1, 1.4};
    e.methods["grad_x_input"] = {-0.1, 0.3, 0.05, 1.1};
    e.methods["integrated_gradients"] = {0.02, 0.4, -0.2, 1.3};
    e.methods["leave_one_out"] = {0.0, 0.04, 0.01, 0.52};
    if (withAttention) {
        e.kendallTau = {{"gradient", 0.6667}, {"grad_x_input", 0.3333}, {"integrated_gradients", kNaN},
                        {"leave_one_out", -0.3333}};
        e.spearman = {{"gradient", 0.8}, {"grad_x_input", 0.4}, {"integrated_gradients", kNaN},
                      {"leave_one_out", -0.4}};
    }
    e.igAttributionSum = 1.52;
    e.igOutputDifference = 1.5;
    e.igSteps = 64;
    return e;
}

FaithfulnessResult handMadeResult(bool baseline) {
    FaithfulnessResult r;
    r.texts = 5;
    r.accuracy = 0.875;
    r.agreement["gradient"] = MethodAgreement{{-1.0, 0.3, 0.25, 0.9, 1.0}, 0.27, 0.25, 0.3};
    r.agreement["grad_x_input"] = MethodAgreement{{0.1, 0.1, 0.3}, 0.1667, 0.1, 0.2};
    r.agreement["integrated_gradients"] = MethodAgreement{{0.5, -0.5}, 0.0, 0.0, 0.05};
    r.agreement["leave_one_out"] = MethodAgreement{{0.7}, 0.7, 0.7, 0.8};
    r.topWordInRationale = kNaN;
    r.permutationMedianChange = 0.0123;
    r.permutationShareSmall = 0.8;
    r.uniformAccuracy = baseline ? 0.85 : kNaN;
    return r;
}

}  // namespace

TEST_CASE("explain view shows one strip row per method, the agreement table and the scatter", "[ui][explain]") {
    ExplainView view;
    CHECK(view.explanation() == nullptr);
    CHECK_FALSE(view.exportsFigure());
    CHECK_FALSE(view.exportsMatrix());
    CHECK(contains(view.placeholderText(), "Train or open a classifier first"));

    view.setExplanation(handMade());
    REQUIRE(view.explanation() != nullptr);
    CHECK(view.exportsFigure());
    CHECK(view.placeholderText().isEmpty());
    CHECK(str(view.headerText()) == "positive (p = 0.97)");

    const WordStrip* strip = view.strip();
    REQUIRE(strip->words() == QStringList({"the", "movie", "was", "great"}));
    const std::vector<WordRow>& rows = strip->rows();
    REQUIRE(rows.size() == 5);
    CHECK(str(rows[0].label) == "Attention");
    CHECK(str(rows[1].label) == "Gradient");
    CHECK(str(rows[2].label) == "Gradient × input");
    CHECK(str(rows[3].label) == "Integrated gradients");
    CHECK(str(rows[4].label) == "Leave one out");
    CHECK(rows[0].values == std::vector<double>{0.05, 0.15, 0.10, 0.70});
    CHECK(rows[2].values == std::vector<double>{-0.1, 0.3, 0.05, 1.1});
    CHECK(rows[4].values == std::vector<double>{0.0, 0.04, 0.01, 0.52});

    const auto* table = view.findChild<QTableWidget*>(QStringLiteral("agreementTable"));
    REQUIRE(table == view.agreementTable());
    REQUIRE(table->rowCount() == 4);
    REQUIRE(table->columnCount() == 3);
    CHECK(str(table->horizontalHeaderItem(1)->text()) == "Kendall τ");
    CHECK(str(table->horizontalHeaderItem(2)->text()) == "Spearman ρ");
    CHECK(str(cell(table, 0, 0)) == "Gradient");
    CHECK(str(cell(table, 0, 1)) == "0.67");
    CHECK(str(cell(table, 0, 2)) == "0.80");
    CHECK(str(cell(table, 2, 0)) == "Integrated gradients");
    CHECK(str(cell(table, 2, 1)) == "–");
    CHECK(str(cell(table, 2, 2)) == "–");
    CHECK(str(cell(table, 3, 1)) == "-0.33");
    CHECK(view.showsComparison());

    CHECK(str(view.completenessText()) ==
          "Integrated gradients: sum of attributions 1.520, logit difference 1.500 (64 steps)");

    // The scatter: attention against integrated gradients by default, one dot per word.
    CHECK(view.scatterMethodBox()->currentData().toString() == QStringLiteral("integrated_gradients"));
    QList<QPointF> points = view.scatterSeries()->points();
    REQUIRE(points.size() == 4);
    CHECK(points[3].x() == Approx(0.70));
    CHECK(points[3].y() == Approx(1.3));
    CHECK(points[2].y() == Approx(-0.2));
    view.scatterMethodBox()->setCurrentIndex(view.scatterMethodBox()->findData(QStringLiteral("leave_one_out")));
    points = view.scatterSeries()->points();
    REQUIRE(points.size() == 4);
    CHECK(points[3].y() == Approx(0.52));

    // A model without attention: four rows, and a note instead of the comparison.
    view.setExplanation(handMade(false));
    REQUIRE(view.strip()->rows().size() == 4);
    CHECK(str(view.strip()->rows()[0].label) == "Gradient");
    CHECK_FALSE(view.showsComparison());
    CHECK(view.agreementTable()->rowCount() == 0);
    CHECK(view.scatterSeries()->points().isEmpty());
}

TEST_CASE("explain view's class box, requests and buttons", "[ui][explain]") {
    ExplainView view;
    auto* classes = view.findChild<QComboBox*>(QStringLiteral("explainClass"));
    auto* button = view.findChild<QPushButton*>(QStringLiteral("explainButton"));
    auto* edit = view.findChild<QLineEdit*>(QStringLiteral("explainText"));
    REQUIRE(classes);
    REQUIRE(button);
    REQUIRE(edit);

    view.setLabels({QStringLiteral("negative"), QStringLiteral("positive")});
    REQUIRE(classes->count() == 3);
    CHECK(str(classes->itemText(0)) == "Predicted class");
    CHECK(classes->itemData(0).toInt() == -1);
    CHECK(str(classes->itemText(2)) == "positive");
    CHECK(classes->itemData(2).toInt() == 1);
    CHECK(view.chosenClass() == -1);

    // The chosen class is kept by name when the labels change.
    classes->setCurrentIndex(2);
    view.setLabels({QStringLiteral("positive"), QStringLiteral("neutral"), QStringLiteral("negative")});
    REQUIRE(classes->count() == 4);
    CHECK(str(classes->currentText()) == "positive");
    CHECK(view.chosenClass() == 0);
    view.setLabels({QStringLiteral("spam"), QStringLiteral("ham")});
    CHECK(view.chosenClass() == -1);
    view.setLabels({QStringLiteral("negative"), QStringLiteral("positive")});

    // Without a model nothing can be asked.
    CHECK_FALSE(button->isEnabled());
    CHECK_FALSE(view.findChild<QPushButton*>(QStringLiteral("permutationButton"))->isEnabled());
    view.modelAvailable(true);
    CHECK(button->isEnabled());
    CHECK_FALSE(contains(view.placeholderText(), "Train or open a classifier first"));

    QSignalSpy explain(&view, &ExplainView::explainRequested);
    view.setText(QStringLiteral("a fine film"));
    CHECK(str(view.text()) == "a fine film");
    classes->setCurrentIndex(2);
    button->click();
    REQUIRE(explain.count() == 1);
    CHECK(str(explain.at(0).at(0).toString()) == "a fine film");
    CHECK(explain.at(0).at(1).toInt() == 1);

    // Return in the line edit asks too, for the predicted class.
    view.show();
    classes->setCurrentIndex(0);
    QTest::keyClick(edit, Qt::Key_Return);
    REQUIRE(explain.count() == 2);
    CHECK(explain.at(1).at(1).toInt() == -1);

    // An empty text asks nothing and says why.
    view.setText(QStringLiteral("   "));
    button->click();
    CHECK(explain.count() == 2);
    CHECK(contains(view.statusText(), "Type a text first"));

    view.setExplainFailed(QStringLiteral("the text has no tokens"));
    CHECK(contains(view.statusText(), "the text has no tokens"));

    // The validation buttons.
    QSignalSpy faithfulness(&view, &ExplainView::faithfulnessRequested);
    QSignalSpy stop(&view, &ExplainView::faithfulnessStopRequested);
    view.findChild<QPushButton*>(QStringLiteral("permutationButton"))->click();
    view.findChild<QPushButton*>(QStringLiteral("baselineButton"))->click();
    REQUIRE(faithfulness.count() == 2);
    CHECK_FALSE(faithfulness.at(0).at(0).toBool());
    CHECK(faithfulness.at(1).at(0).toBool());
    view.setFaithfulnessRunning(true);
    CHECK_FALSE(view.findChild<QPushButton*>(QStringLiteral("permutationButton"))->isEnabled());
    CHECK_FALSE(view.findChild<QPushButton*>(QStringLiteral("baselineButton"))->isEnabled());
    auto* stopButton = view.findChild<QPushButton*>(QStringLiteral("faithfulnessStopButton"));
    REQUIRE(stopButton);
    REQUIRE(stopButton->isEnabled());
    stopButton->click();
    CHECK(stop.count() == 1);
    view.setFaithfulnessFailed(QStringLiteral("no validation text"));
    CHECK(contains(view.faithfulnessMessage(), "no validation text"));
    CHECK_FALSE(view.faithfulnessRunning());
    CHECK(view.findChild<QPushButton*>(QStringLiteral("permutationButton"))->isEnabled());
    CHECK_FALSE(stopButton->isEnabled());
}

TEST_CASE("explain view's tau histogram and validation summary", "[ui][explain]") {
    CHECK(ExplainView::tauHistogram({-1.0, -0.95, 0.0, 0.99, 1.0, kNaN}) ==
          std::vector<int>{2, 0, 0, 0, 0, 1, 0, 0, 0, 2});

    ExplainView view;
    view.modelAvailable(true);
    view.setFaithfulnessRunning(true);
    view.setFaithfulnessProgress(3, 5, QStringLiteral("3 of 5 texts"));
    CHECK(str(view.faithfulnessMessage()) == "3 of 5 texts");

    view.setFaithfulnessResult(handMadeResult(false));
    CHECK_FALSE(view.faithfulnessRunning());
    REQUIRE(view.faithfulnessResult() != nullptr);
    QString summary = view.faithfulnessSummary();
    CHECK(contains(summary, "87.5%"));
    CHECK(contains(summary, "5 validation texts"));
    CHECK(contains(summary, "Gradient: mean τ 0.27, median τ 0.25"));
    CHECK(contains(summary, "Shuffled attention changes the output by 0.012"));
    CHECK(contains(summary, "80.0% of texts change by less than 0.05"));
    CHECK_FALSE(contains(summary, "rationale"));  // NaN: no rationales
    CHECK_FALSE(contains(summary, "Uniform attention"));

    // One bar set per method, counts per bin.
    REQUIRE(view.tauChart()->series().size() == 1);
    const auto* bars = qobject_cast<QBarSeries*>(view.tauChart()->series().front());
    REQUIRE(bars);
    REQUIRE(bars->count() == 4);
    CHECK(str(bars->barSets().front()->label()) == "Gradient");
    CHECK(bars->barSets().front()->count() == ExplainView::kTauBins);
    CHECK(bars->barSets().front()->at(0) == Approx(1.0));  // -1
    CHECK(bars->barSets().front()->at(6) == Approx(2.0));  // 0.25, 0.3
    CHECK(bars->barSets().front()->at(9) == Approx(2.0));  // 0.9, 1

    FaithfulnessResult withRationale = handMadeResult(true);
    withRationale.topWordInRationale = 0.6;
    view.setFaithfulnessResult(withRationale);
    summary = view.faithfulnessSummary();
    CHECK(contains(summary, "Most attended word is a rationale word: 60.0% of texts"));
    CHECK(contains(summary, "Uniform attention, trained the same way: accuracy 85.0% (the model: 87.5%)"));
    REQUIRE(view.tauChart()->series().size() == 1);
}

TEST_CASE("explain view exports the word strip as an image and clears", "[ui][explain]") {
    ExplainView view;
    test::TempDir dir;
    QString error;
    CHECK_FALSE(view.exportView(dir.filePath(QStringLiteral("none.png")), 1.0, &error));
    CHECK(str(error) == "Explain a text first");

    view.setExplanation(handMade());
    const QString png = dir.filePath(QStringLiteral("explain.png"));
    const QString svg = dir.filePath(QStringLiteral("explain.svg"));
    error.clear();
    REQUIRE(view.exportView(png, 1.0, &error));
    CHECK(error.isEmpty());
    CHECK_FALSE(QImage(png).isNull());
    REQUIRE(view.exportView(svg, 1.0, &error));
    CHECK(QFileInfo(svg).size() > 0);
    const QString csv = dir.filePath(QStringLiteral("explain.csv"));
    CHECK_FALSE(view.exportView(csv, 1.0, &error));
    CHECK(str(error) == "The explanation is exported as PNG, SVG or PDF");
    CHECK_FALSE(QFileInfo::exists(csv));

    view.setFaithfulnessResult(handMadeResult(true));
    REQUIRE_FALSE(view.faithfulnessSummary().isEmpty());
    view.clearView();
    CHECK(view.explanation() == nullptr);
    CHECK(view.strip()->isEmpty());
    CHECK(view.agreementTable()->rowCount() == 0);
    CHECK(view.headerText().isEmpty());
    CHECK_FALSE(view.exportsFigure());
    CHECK(view.faithfulnessResult() == nullptr);
    CHECK(view.faithfulnessSummary().isEmpty());
    CHECK(view.tauChart()->series().isEmpty());
    CHECK_FALSE(view.exportView(png, 1.0, &error));

    view.setExplanation(handMade());
    view.runStarted();
    CHECK(view.explanation() == nullptr);
}
