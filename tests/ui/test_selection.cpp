// Selecting several output or source tokens in a heatmap and reading their summed attention; and
// signed value ranges (positional encodings) with the diverging colour map.
#include "ui/UiTestSupport.h"
#include "widgets/AttentionPanel.h"
#include "render/HeatmapRenderer.h"
#include "widgets/HeatmapWidget.h"

#include <catch2/catch.hpp>

#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <string>
#include <vector>
#include "TempDir.h"

using namespace attnlab;
using Catch::Matchers::WithinAbs;

namespace {

// Rows: output tokens x, y, z; columns: source tokens a, b, c, d.
//   x: 0.7 0.1 0.1 0.1
//   y: 0.1 0.6 0.2 0.1
//   z: 0.0 0.1 0.3 0.6
AttentionMap sample() {
    return AttentionMap{3, 4, {0.7f, 0.1f, 0.1f, 0.1f, 0.1f, 0.6f, 0.2f, 0.1f, 0.0f, 0.1f, 0.3f, 0.6f}};
}

const QStringList kRows{"x", "y", "z"};
const QStringList kColumns{"a", "b", "c", "d"};

using attnlab::test::str;

struct ShownWidget {
    HeatmapWidget widget;
    ShownWidget() {
        widget.setAttention(sample(), kRows, kColumns);
        widget.resize(560, 420);
        widget.show();
        REQUIRE(QTest::qWaitForWindowExposed(&widget));
    }
    QPoint cell(int row, int column) const { return widget.cellRect(row, column).center().toPoint(); }
    // A point on a row's label (left of the matrix) or a column's label (above it).
    QPoint rowLabel(int row) const {
        const QRectF c = widget.cellRect(row, 0);
        return QPointF(c.left() - 10, c.center().y()).toPoint();
    }
    QPoint columnLabel(int column) const {
        const QRectF c = widget.cellRect(0, column);
        return QPointF(c.center().x(), c.top() - 10).toPoint();
    }
};

TEST_CASE("renderer sums selected rows per column and selected columns per row", "[ui][selection]") {
    HeatmapRenderer renderer;
    renderer.setMap(sample(), kRows, kColumns);
    CHECK(renderer.selectionSums().empty());
    renderer.setSelection({2, 0, 2, 7, -1}, {});  // sorted, duplicates and out-of-range dropped
    CHECK(renderer.selectedRows() == std::vector<int>{0, 2});
    const std::vector<double> rows = renderer.selectionSums();
    REQUIRE(rows.size() == 4);
    // x + z: 0.7 + 0.0, 0.1 + 0.1, 0.1 + 0.3, 0.1 + 0.6
    CHECK_THAT(rows[0], WithinAbs(0.7, 1e-6));
    CHECK_THAT(rows[1], WithinAbs(0.2, 1e-6));
    CHECK_THAT(rows[2], WithinAbs(0.4, 1e-6));
    CHECK_THAT(rows[3], WithinAbs(0.7, 1e-6));
    renderer.setSelection({}, {1, 3});
    CHECK(renderer.selectedRows().empty());
    const std::vector<double> columns = renderer.selectionSums();
    REQUIRE(columns.size() == 3);
    // b + d per output row: 0.1 + 0.1, 0.6 + 0.1, 0.1 + 0.6
    CHECK_THAT(columns[0], WithinAbs(0.2, 1e-6));
    CHECK_THAT(columns[1], WithinAbs(0.7, 1e-6));
    CHECK_THAT(columns[2], WithinAbs(0.7, 1e-6));
    // Rows win when both are given.
    renderer.setSelection({1}, {0});
    CHECK(renderer.selectedRows() == std::vector<int>{1});
    CHECK(renderer.selectedColumns().empty());
}

TEST_CASE("renderer draws the sum strip under the matrix in the colour of the mean", "[ui][selection]") {
    HeatmapRenderer renderer;
    renderer.setScale(ScaleMode::Unit);
    renderer.setMap(sample(), kRows, kColumns);
    QImage before(520, 420, QImage::Format_RGB32);
    before.fill(Qt::white);
    {
        QPainter painter(&before);
        renderer.paint(painter, QRectF(0, 0, 520, 420));
    }
    const QRectF matrixBefore = renderer.matrixRect();
    CHECK(renderer.sumStripRect().isEmpty());

    renderer.setSelection({0, 1}, {});
    QImage image(520, 420, QImage::Format_RGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        renderer.paint(painter, QRectF(0, 0, 520, 420));
    }
    const QRectF strip = renderer.sumStripRect();
    REQUIRE_FALSE(strip.isEmpty());
    // The strip sits under the matrix, as wide as it; the matrix shrank to make room.
    CHECK(strip.top() > renderer.matrixRect().bottom());
    CHECK_THAT(strip.left(), WithinAbs(renderer.matrixRect().left(), 0.01));
    CHECK_THAT(strip.width(), WithinAbs(renderer.matrixRect().width(), 0.01));
    CHECK(renderer.matrixRect().height() <= matrixBefore.height());
    // Column a: x + y = 0.8, mean 0.4 -> the colour map at 0.4. Sample off-centre to miss the number.
    const QRectF a = renderer.sumStripCellRect(0);
    const QPoint corner = (a.topLeft() + QPointF(4, 4)).toPoint();
    CHECK(image.pixel(corner) == renderer.colormap().color(0.4));
    const QRectF b = renderer.sumStripCellRect(1);  // 0.1 + 0.6 = 0.7, mean 0.35
    CHECK(image.pixel((b.topLeft() + QPointF(4, 4)).toPoint()) == renderer.colormap().color(0.35));
    CHECK(renderer.sumStripCellAt(b.center()) == 1);
    CHECK_FALSE(renderer.sumStripCellAt(renderer.cellRect(0, 0).center()).has_value());

    // A column selection puts its strip right of the matrix, before the colour bar.
    renderer.setSelection({}, {3});
    renderer.layout(QRectF(0, 0, 520, 420));
    const QRectF side = renderer.sumStripRect();
    CHECK(side.left() > renderer.matrixRect().right());
    CHECK(side.right() < renderer.colorBarRect().left());
    CHECK_THAT(side.height(), WithinAbs(renderer.matrixRect().height(), 0.01));
    CHECK(renderer.sumStripCellAt(renderer.sumStripCellRect(2).center()) == 2);
}

TEST_CASE("renderer finds the row or column label under a point", "[ui][selection]") {
    HeatmapRenderer renderer;
    renderer.setMap(sample(), kRows, kColumns);
    renderer.layout(QRectF(0, 0, 500, 400));
    const QRectF y = renderer.cellRect(1, 0);
    CHECK(renderer.rowLabelAt(QPointF(y.left() - 10, y.center().y())) == 1);
    const QRectF c = renderer.cellRect(0, 2);
    CHECK(renderer.columnLabelAt(QPointF(c.center().x(), c.top() - 10)) == 2);
    // Anywhere beside the matrix counts, even left of a short label; inside the matrix it is a cell,
    // and outside the figure or below the matrix nothing.
    CHECK(renderer.rowLabelAt(QPointF(1, y.center().y())) == 1);
    CHECK_FALSE(renderer.rowLabelAt(y.center()).has_value());
    CHECK_FALSE(renderer.columnLabelAt(c.center()).has_value());
    CHECK_FALSE(renderer.rowLabelAt(QPointF(-5, y.center().y())).has_value());
    CHECK_FALSE(renderer.columnLabelAt(QPointF(c.center().x(), renderer.matrixRect().bottom() + 5)).has_value());
}

TEST_CASE("Ctrl+click selects several output rows and a plain click clears", "[ui][selection]") {
    ShownWidget shown;
    HeatmapWidget& w = shown.widget;
    QSignalSpy changed(&w, &HeatmapWidget::selectionChanged);
    QSignalSpy clicked(&w, &HeatmapWidget::cellClicked);

    QTest::mouseClick(&w, Qt::LeftButton, Qt::ControlModifier, shown.cell(0, 2));
    QTest::mouseClick(&w, Qt::LeftButton, Qt::ControlModifier, shown.cell(2, 1));
    CHECK(w.selectedRows() == std::vector<int>{0, 2});
    CHECK(changed.count() == 2);
    const std::vector<double> sums = w.selectionSums();
    REQUIRE(sums.size() == 4);
    CHECK_THAT(sums[3], WithinAbs(0.7, 1e-6));
    // Largest sums first: a 0.70, d 0.70, c 0.40, b 0.20.
    CHECK(str(w.selectionSummary()) == "\u03a3 output rows x, z \u2192 a 0.70 \u00b7 d 0.70 \u00b7 c 0.40 \u00b7 b 0.20");
    CHECK(str(w.selectionSummary(2)) == "\u03a3 output rows x, z \u2192 a 0.70 \u00b7 d 0.70 \u00b7 \u2026");
    CHECK(clicked.isEmpty());  // Ctrl+click selects; it is not a plain cell click

    // Ctrl+click on a selected row takes it out again.
    QTest::mouseClick(&w, Qt::LeftButton, Qt::ControlModifier, shown.cell(2, 3));
    CHECK(w.selectedRows() == std::vector<int>{0});

    // The strip's cells tell their sum.
    const QRectF strip = w.renderer().sumStripRect();
    REQUIRE_FALSE(strip.isEmpty());
    CHECK(str(w.toolTipForSum(0)) == "\u03a3 x \u2192 a: 0.7000");

    // A plain click on a cell clears the selection and is an ordinary click.
    QTest::mouseClick(&w, Qt::LeftButton, Qt::NoModifier, shown.cell(1, 1));
    CHECK_FALSE(w.hasSelection());
    CHECK(w.renderer().sumStripRect().isEmpty());
    REQUIRE(clicked.count() == 1);
    CHECK(clicked.at(0).at(0).toInt() == 1);
    CHECK(changed.count() == 4);
}

TEST_CASE("clicking labels selects rows or columns and Escape clears", "[ui][selection]") {
    ShownWidget shown;
    HeatmapWidget& w = shown.widget;
    QSignalSpy changed(&w, &HeatmapWidget::selectionChanged);

    // A column label alone selects that source token; Ctrl adds another.
    QTest::mouseClick(&w, Qt::LeftButton, Qt::NoModifier, shown.columnLabel(1));
    CHECK(w.selectedColumns() == std::vector<int>{1});
    QTest::mouseClick(&w, Qt::LeftButton, Qt::ControlModifier, shown.columnLabel(3));
    CHECK(w.selectedColumns() == std::vector<int>{1, 3});
    CHECK(w.selectedRows().empty());
    // Summed per output row: b + d = 0.2, 0.7, 0.7.
    const std::vector<double> sums = w.selectionSums();
    REQUIRE(sums.size() == 3);
    CHECK_THAT(sums[0], WithinAbs(0.2, 1e-6));
    CHECK_THAT(sums[1], WithinAbs(0.7, 1e-6));
    CHECK(str(w.selectionSummary()) == "\u03a3 source columns b, d \u2192 y 0.70 \u00b7 z 0.70 \u00b7 x 0.20");
    CHECK(str(w.toolTipForSum(1)) == "y \u2192 \u03a3 b, d: 0.7000");
    // While columns are selected, Ctrl+click on a cell adds its column.
    QTest::mouseClick(&w, Qt::LeftButton, Qt::ControlModifier, shown.cell(0, 0));
    CHECK(w.selectedColumns() == std::vector<int>{0, 1, 3});
    // Clicking a row label switches to rows.
    QTest::mouseClick(&w, Qt::LeftButton, Qt::NoModifier, shown.rowLabel(1));
    CHECK(w.selectedRows() == std::vector<int>{1});
    CHECK(w.selectedColumns().empty());
    // Clicking the only selected label again deselects it.
    QTest::mouseClick(&w, Qt::LeftButton, Qt::NoModifier, shown.rowLabel(1));
    CHECK_FALSE(w.hasSelection());
    // Ctrl+Shift+click on a cell starts a column selection.
    QTest::mouseClick(&w, Qt::LeftButton, Qt::ControlModifier | Qt::ShiftModifier, shown.cell(2, 2));
    CHECK(w.selectedColumns() == std::vector<int>{2});
    const int before = changed.count();
    w.setFocus();
    QTest::keyClick(&w, Qt::Key_Escape);
    CHECK_FALSE(w.hasSelection());
    CHECK(changed.count() == before + 1);
    CHECK(changed.count() == 7);
}

TEST_CASE("a selection survives a live update but not a new sentence", "[ui][selection]") {
    ShownWidget shown;
    HeatmapWidget& w = shown.widget;
    w.setSelectedRows({0, 1});
    QSignalSpy changed(&w, &HeatmapWidget::selectionChanged);
    // Same shape (training went on): kept, and the sums follow the new weights.
    AttentionMap later = sample();
    later.weights[0] = 0.4f;
    later.weights[1] = 0.4f;
    w.setAttention(later, kRows, kColumns);
    CHECK(w.selectedRows() == std::vector<int>{0, 1});
    CHECK_THAT(w.selectionSums()[0], WithinAbs(0.5, 1e-6));
    CHECK(changed.count() == 1);
    // Another sentence: cleared.
    w.setAttention(AttentionMap{2, 2, {1, 0, 0, 1}}, QStringList{"p", "q"}, QStringList{"r", "s"});
    CHECK_FALSE(w.hasSelection());
    CHECK(changed.count() == 2);
    // Exports leave the selection out, like the hover marks.
    test::TempDir dir;
    REQUIRE(w.exportTo(dir.filePath("plain.png")));
    w.setSelectedRows({0});
    REQUIRE(w.exportTo(dir.filePath("selected.png")));
    CHECK(QImage(dir.filePath("plain.png")) == QImage(dir.filePath("selected.png")));
}

TEST_CASE("the attention panel sums the selected tokens in a line under the map", "[ui][selection]") {
    AttentionPanel panel;
    Translation t;
    t.sourceTokens = {"a", "b", "c", "d"};
    t.outputTokens = {"x", "y", "z"};
    t.attention[MapKind::Cross] = {{sample()}};
    panel.setTranslation(t);
    panel.resize(600, 480);
    panel.show();
    REQUIRE(QTest::qWaitForWindowExposed(&panel));
    CHECK(panel.selectionInfo()->isVisible());
    CHECK(str(panel.selectionInfo()->text()).find("Ctrl+click") != std::string::npos);  // how to select
    panel.heatmap()->setSelectedRows({1});
    CHECK(str(panel.selectionInfo()->text()) == "\u03a3 output rows y \u2192 b 0.60 \u00b7 c 0.20 \u00b7 a 0.10 \u00b7 d 0.10");
    panel.heatmap()->clearSelection();
    CHECK(str(panel.selectionInfo()->text()).find("Ctrl+click") != std::string::npos);
}

TEST_CASE("signed values map onto a range centred on zero with the diverging map", "[ui][selection][positions]") {
    // RdBu_r (matplotlib): ColorBrewer's RdBu reversed, from dark blue through near-white to dark red.
    const Colormap rdbu(ColormapId::RdBuR);
    CHECK(str(QColor(rdbu.color(0.0)).name()) == "#053061");
    CHECK(str(QColor(rdbu.color(1.0)).name()) == "#67001f");
    // Entry 128 lies at x = 128/255, 0.0196 of the way from the white anchor #f7f7f7 at 0.5 to #fddbc7
    // at 0.6: red 247 + 6 * 0.0196 = 247.12, green 247 - 28 * 0.0196 = 246.45, blue 247 - 48 * 0.0196
    // = 246.06. Entry 127 (x = 0.49804) is 0.9804 of the way from #d1e5f0 at 0.4: 246.25, 246.65, 246.86.
    CHECK(str(QColor(rdbu.at(128)).name()) == "#f7f6f6");
    CHECK(str(QColor(rdbu.at(127)).name()) == "#f6f7f7");
    CHECK(str(rdbu.name()) == "rdbu_r");
    // Not offered for attention weights.
    for (ColormapId id : Colormap::all()) CHECK(id != ColormapId::RdBuR);
    CHECK(Colormap::diverging() == std::vector<ColormapId>{ColormapId::RdBuR});

    HeatmapRenderer renderer;
    renderer.setColormap(ColormapId::RdBuR);
    renderer.setMap(AttentionMap{1, 3, {-1.0f, 0.0f, 1.0f}}, QStringList{"p"}, QStringList{"-1", "0", "1"});
    // DataMax spans [min(0, smallest), largest] = [-1, 1] already.
    CHECK(renderer.valueRange() == std::make_pair(-1.0, 1.0));
    renderer.setScale(ScaleMode::Fixed, -1.0, 1.0);
    CHECK(renderer.colorFor(-1.0) == rdbu.color(0.0));
    CHECK(renderer.colorFor(0.0) == rdbu.at(128));
    CHECK(renderer.colorFor(1.0) == rdbu.color(1.0));
    CHECK(renderer.colorFor(-0.5) == rdbu.color(0.25));
    QImage image(420, 200, QImage::Format_RGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        renderer.paint(painter, QRectF(0, 0, 420, 200));
    }
    CHECK(image.pixel(renderer.cellRect(0, 0).center().toPoint()) == rdbu.color(0.0));
    CHECK(image.pixel(renderer.cellRect(0, 1).center().toPoint()) == rdbu.at(128));
    CHECK(image.pixel(renderer.cellRect(0, 2).center().toPoint()) == rdbu.color(1.0));
    // The colour bar's top is red and its bottom blue: negative values at the bottom.
    const QRectF bar = renderer.colorBarRect();
    const QRgb top = image.pixel(QPointF(bar.center().x(), bar.top() + 3).toPoint());
    const QRgb bottom = image.pixel(QPointF(bar.center().x(), bar.bottom() - 3).toPoint());
    CHECK(qRed(top) > qBlue(top) + 50);
    CHECK(qBlue(bottom) > qRed(bottom) + 50);
    // The tick labels make room for the minus sign.
    CHECK(HeatmapRenderer::colorBarLabelWidth(-1.0, 1.0, renderer.options().font) >
          HeatmapRenderer::colorBarLabelWidth(0.0, 1.0, renderer.options().font));

    // The widget's setValueRange keeps a signed range.
    HeatmapWidget widget;
    widget.setColormap(ColormapId::RdBuR);
    widget.setValueRange(-1.0, 1.0);
    widget.setAttention(AttentionMap{1, 2, {-0.25f, 0.75f}}, QStringList{"p"}, QStringList{"u", "v"});
    CHECK(widget.renderer().valueRange() == std::make_pair(-1.0, 1.0));
    CHECK(widget.renderer().colorFor(-0.25) == rdbu.color(0.375));
    CHECK(str(widget.toolTipFor(0, 0)) == "p \u2192 u: -0.2500");
}

}  // namespace
