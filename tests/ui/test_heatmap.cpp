#include "ui/UiTestSupport.h"
#include "widgets/HeadGridWidget.h"
#include "render/HeatmapRenderer.h"
#include "widgets/HeatmapWidget.h"

#include <catch2/catch.hpp>

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>
#include <QToolTip>
#include <QtEndian>

#include <cstring>
#include <iostream>
#include <string>
#include <vector>
#include "TempDir.h"

using namespace attnlab;
using Catch::Matchers::WithinAbs;

namespace {

AttentionMap makeMap(int rows, int cols, std::vector<float> weights) {
    return AttentionMap{rows, cols, std::move(weights)};
}

// A smooth diagonal-ish pattern with every value distinct.
AttentionMap patternMap(int rows, int cols) {
    AttentionMap map{rows, cols, std::vector<float>(static_cast<std::size_t>(rows) * cols)};
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            map.weights[static_cast<std::size_t>(r) * cols + c] = static_cast<float>((r * 31 + c * 17) % 97) / 96.0f;
        }
    }
    return map;
}

QImage renderToImage(const HeatmapRenderer& renderer, QSize size) {
    QImage image(size, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    renderer.paint(painter, QRectF(QPointF(0, 0), QSizeF(size)));
    return image;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    REQUIRE(file.open(QIODevice::ReadOnly));
    return file.readAll();
}

using attnlab::test::str;

TEST_CASE("heatmap cells have the colormap's colour of their weight", "[ui][heatmap]") {
    const AttentionMap map = makeMap(2, 2, {0.0f, 1.0f, 1.0f, 0.0f});
    for (ColormapId id : Colormap::all()) {
        HeatmapRenderer renderer;
        renderer.setMap(map, QStringList{"a", "b"}, QStringList{"x", "y"});
        renderer.setColormap(id);
        renderer.setTitle("two by two");
        const QImage image = renderToImage(renderer, QSize(400, 300));
        const Colormap colormap(id);
        INFO(str(colormap.name()));
        for (int r = 0; r < 2; ++r) {
            for (int c = 0; c < 2; ++c) {
                const QRectF cell = renderer.cellRect(r, c);
                REQUIRE(cell.width() > 10);
                const QPoint centre = cell.center().toPoint();
                CHECK(str(QColor(image.pixel(centre)).name()) == str(QColor(colormap.color(map.at(r, c))).name()));
            }
        }
    }
}

TEST_CASE("heatmap scale modes choose what the colour ends mean", "[ui][heatmap]") {
    const AttentionMap map = makeMap(1, 3, {0.1f, 0.25f, 0.5f});
    HeatmapRenderer renderer;
    renderer.setMap(map, QStringList(), QStringList());
    // Default: [0, largest weight], so the largest weight gets the top colour.
    CHECK(renderer.valueRange() == std::make_pair(0.0, 0.5));
    CHECK(renderer.colorFor(0.5) == renderer.colormap().color(1.0));
    renderer.setScale(ScaleMode::Unit);
    CHECK(renderer.colorFor(0.25) == renderer.colormap().color(0.25));
    renderer.setScale(ScaleMode::Fixed, 0.0, 0.25);
    CHECK(renderer.colorFor(0.25) == renderer.colormap().color(1.0));
    const QImage image = renderToImage(renderer, QSize(300, 200));
    CHECK(image.pixel(renderer.cellRect(0, 2).center().toPoint()) == renderer.colormap().color(1.0));
    CHECK(image.pixel(renderer.cellRect(0, 0).center().toPoint()) == renderer.colormap().color(0.4));
}

TEST_CASE("heatmap hit testing finds the cell under a point", "[ui][heatmap]") {
    HeatmapRenderer renderer;
    renderer.setMap(patternMap(3, 5), QStringList{"a", "b", "c"}, QStringList{"p", "q", "r", "s", "t"});
    renderer.layout(QRectF(0, 0, 500, 400));
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 5; ++c) {
            const std::optional<QPoint> hit = renderer.cellAt(renderer.cellRect(r, c).center());
            REQUIRE(hit.has_value());
            CHECK(hit->x() == c);
            CHECK(hit->y() == r);
        }
    }
    const QRectF matrix = renderer.matrixRect();
    CHECK_FALSE(renderer.cellAt(matrix.topLeft() - QPointF(1, 1)).has_value());
    CHECK_FALSE(renderer.cellAt(QPointF(matrix.right() + 1, matrix.center().y())).has_value());
    CHECK(renderer.cellRect(3, 0).isNull());
    CHECK(renderer.cellRect(0, -1).isNull());
}

TEST_CASE("heatmap labels fall back to indices and long labels keep the matrix inside", "[ui][heatmap]") {
    HeatmapRenderer renderer;
    renderer.setMap(patternMap(3, 4), QStringList{"only one"}, QStringList{"internationalization", "b", "c", "d"});
    CHECK(str(renderer.rowLabel(0)) == "only one");
    CHECK(str(renderer.rowLabel(2)) == "2");
    CHECK(str(renderer.columnLabel(0)) == "internationalization");
    const QSize size = renderer.preferredSize();
    renderer.layout(QRectF(QPointF(0, 0), QSizeF(size)));
    CHECK(QRectF(QPointF(0, 0), QSizeF(size)).contains(renderer.matrixRect()));
    CHECK(QRectF(QPointF(0, 0), QSizeF(size)).contains(renderer.colorBarRect()));
    // Rotated column labels need room above the matrix: at least the longest label's length.
    CHECK(renderer.matrixRect().top() > 60);
}

TEST_CASE("heatmap numbers appear only in cells big enough to hold them", "[ui][heatmap]") {
    HeatmapRenderer renderer;
    renderer.setMap(makeMap(2, 2, {0.0f, 1.0f, 1.0f, 0.0f}), QStringList{"a", "b"}, QStringList{"x", "y"});
    const QImage plain = renderToImage(renderer, QSize(400, 300));
    renderer.setShowNumbers(true);
    const QImage numbered = renderToImage(renderer, QSize(400, 300));
    CHECK(renderer.numbersVisible());
    // The text sits in the middle of the cell, drawn in a colour that contrasts with the cell.
    const QRect cell = renderer.cellRect(0, 0).toRect();
    int changed = 0;
    for (int y = cell.top(); y <= cell.bottom(); ++y) {
        for (int x = cell.left(); x <= cell.right(); ++x) {
            changed += plain.pixel(x, y) != numbered.pixel(x, y) ? 1 : 0;
        }
    }
    CHECK(changed > 20);
    CHECK(HeatmapRenderer::contrastingTextColor(Colormap(ColormapId::Viridis).color(0.0)) == QColor(Qt::white));
    CHECK(HeatmapRenderer::contrastingTextColor(Colormap(ColormapId::Viridis).color(1.0)) != QColor(Qt::white));

    renderer.setMap(patternMap(64, 64), QStringList(), QStringList());
    renderer.layout(QRectF(0, 0, 400, 300));
    CHECK_FALSE(renderer.numbersVisible());
}

TEST_CASE("an empty or malformed map paints a hint instead of crashing", "[ui][heatmap]") {
    HeatmapRenderer renderer;
    CHECK(renderer.isEmpty());
    const QImage empty = renderToImage(renderer, QSize(300, 200));
    CHECK(empty.pixel(0, 0) == QColor(Qt::white).rgb());
    CHECK(empty != [] {
        QImage blank(300, 200, QImage::Format_RGB32);
        blank.fill(Qt::white);
        return blank;
    }());  // the hint text was drawn
    CHECK(str(renderer.emptyText()) == "No attention to show yet");
    CHECK_FALSE(renderer.cellAt(QPointF(150, 100)).has_value());
    CHECK(renderer.preferredSize().isValid());

    renderer.setMap(makeMap(3, 4, {0.5f, 0.5f}), QStringList(), QStringList());  // 2 weights for 12 cells
    CHECK(renderer.isEmpty());
    CHECK(renderer.emptyText().contains("Invalid"));
    renderToImage(renderer, QSize(300, 200));
    test::TempDir dir;
    QString error;
    CHECK_FALSE(renderer.exportFile(dir.filePath("bad.png"), &error));
    CHECK_FALSE(error.isEmpty());
    CHECK_FALSE(QFile::exists(dir.filePath("bad.png")));

    // Zero-sized targets and one-cell maps are fine too.
    renderer.setMap(makeMap(1, 1, {0.3f}), QStringList{"x"}, QStringList{"y"});
    renderToImage(renderer, QSize(1, 1));
    renderToImage(renderer, QSize(40, 30));
}

TEST_CASE("hovering a cell reports its exact weight", "[ui][heatmap]") {
    HeatmapWidget widget;
    widget.resize(480, 360);
    const AttentionMap map = makeMap(2, 3, {0.1f, 0.05f, 0.85f, 0.8312f, 0.1f, 0.0688f});
    widget.setAttention(map, QStringList{"le", "chat"}, QStringList{"the", "cat", "</s>"});
    widget.show();
    REQUIRE(QTest::qWaitForWindowExposed(&widget));
    QSignalSpy hovered(&widget, &HeatmapWidget::cellHovered);

    QTest::mouseMove(&widget, widget.cellRect(1, 0).center().toPoint());
    REQUIRE(hovered.count() == 1);
    const QList<QVariant> args = hovered.takeFirst();
    CHECK(args.at(0).toInt() == 1);
    CHECK(args.at(1).toInt() == 0);
    CHECK_THAT(args.at(2).toDouble(), WithinAbs(0.8312, 1e-6));
    CHECK(str(widget.toolTipFor(1, 0)) == "chat \u2192 the: 0.8312");
    CHECK(str(QToolTip::text()) == "chat \u2192 the: 0.8312");
    CHECK(widget.renderer().options().highlightRow == 1);
    CHECK(widget.renderer().options().highlightColumn == 0);

    QTest::mouseMove(&widget, widget.cellRect(0, 2).center().toPoint());
    REQUIRE(hovered.count() == 1);
    CHECK_THAT(hovered.takeFirst().at(2).toDouble(), WithinAbs(0.85, 1e-6));

    // Outside the matrix: the hover ends.
    QSignalSpy left(&widget, &HeatmapWidget::hoverLeft);
    QTest::mouseMove(&widget, QPoint(2, 2));
    CHECK(left.count() == 1);
    CHECK(widget.renderer().options().highlightRow == -1);

    // Cross-head highlighting from elsewhere.
    widget.highlightToken(-1, 2);
    CHECK(widget.renderer().options().highlightRow == -1);
    CHECK(widget.renderer().options().highlightColumn == 2);
}

TEST_CASE("heatmap widget zooms with keys and keeps hit testing right", "[ui][heatmap]") {
    HeatmapWidget widget;
    widget.resize(400, 300);
    widget.setAttention(patternMap(8, 8), QStringList(), QStringList());
    widget.show();
    REQUIRE(QTest::qWaitForWindowExposed(&widget));
    const qreal before = widget.cellRect(0, 0).width();
    QTest::keyClick(&widget, Qt::Key_Plus);
    QTest::keyClick(&widget, Qt::Key_Plus);
    CHECK(widget.zoom() > 1.4);
    CHECK(widget.cellRect(0, 0).width() > before * 1.4);

    QSignalSpy hovered(&widget, &HeatmapWidget::cellHovered);
    const QRectF cell = widget.cellRect(4, 4);
    REQUIRE(QRectF(widget.rect()).contains(cell.center()));
    QTest::mouseMove(&widget, cell.center().toPoint());
    REQUIRE(hovered.count() == 1);
    CHECK(hovered.first().at(0).toInt() == 4);
    CHECK(hovered.first().at(1).toInt() == 4);

    QTest::keyClick(&widget, Qt::Key_0);
    CHECK(widget.zoom() == 1.0);
    CHECK_THAT(widget.cellRect(0, 0).width(), WithinAbs(before, 1e-9));
}

TEST_CASE("heatmap widget paints with the palette and an empty state", "[ui][heatmap]") {
    HeatmapWidget widget;
    widget.resize(320, 240);
    QPalette dark = widget.palette();
    dark.setColor(QPalette::Window, QColor(30, 30, 34));
    dark.setColor(QPalette::WindowText, QColor(230, 230, 230));
    widget.setPalette(dark);
    const QImage empty = widget.grab().toImage();
    CHECK(QColor(empty.pixel(5, 5)) == QColor(30, 30, 34));
    widget.setAttention(patternMap(4, 4), QStringList{"a", "b", "c", "d"}, QStringList{"e", "f", "g", "h"});
    const QImage filled = widget.grab().toImage();
    CHECK(QColor(filled.pixel(2, 2)) == QColor(30, 30, 34));
    CHECK(filled.pixel(widget.cellRect(1, 1).center().toPoint()) ==
          widget.renderer().colorFor(patternMap(4, 4).at(1, 1)));
    widget.clear();
    CHECK(widget.renderer().isEmpty());
    widget.grab();
}

TEST_CASE("heatmap exports write valid files", "[ui][heatmap]") {
    test::TempDir dir;
    const AttentionMap map = patternMap(3, 4);
    const QStringList rows{"汤姆", "say \"hi\"", "</s>"};
    const QStringList cols{"tom", "a,b", "chases", "</s>"};
    HeatmapRenderer renderer;
    renderer.setMap(map, rows, cols);
    renderer.setTitle("export");
    QString error;

    SECTION("PNG at a scale factor") {
        const QSize logical = renderer.preferredSize();
        for (double scale : {1.0, 2.0}) {
            const QString path = dir.filePath(QStringLiteral("map@%1x.png").arg(scale));
            REQUIRE(renderer.exportFile(path, &error, scale));
            const QImage image(path);
            REQUIRE_FALSE(image.isNull());
            CHECK(image.size() == logical * scale);
        }
        const QImage fixed = [&] {
            REQUIRE(renderer.exportImage(dir.filePath("fixed.png"), ExportFormat::Png, &error, 1.0, QSize(500, 300)));
            return QImage(dir.filePath("fixed.png"));
        }();
        CHECK(fixed.size() == QSize(500, 300));
    }
    SECTION("SVG") {
        REQUIRE(renderer.exportFile(dir.filePath("map.svg"), &error));
        const QByteArray svg = readAll(dir.filePath("map.svg"));
        CHECK(svg.startsWith("<?xml"));
        CHECK(svg.contains("<svg"));
        CHECK(svg.contains("</svg>"));
    }
    SECTION("PDF") {
        REQUIRE(renderer.exportFile(dir.filePath("map.pdf"), &error));
        const QByteArray pdf = readAll(dir.filePath("map.pdf"));
        CHECK(pdf.startsWith("%PDF"));
        CHECK(pdf.trimmed().endsWith("%%EOF"));
    }
    SECTION("CSV with a token header row and one line per target token") {
        REQUIRE(renderer.exportFile(dir.filePath("map.csv"), &error));
        const QString csv = QString::fromUtf8(readAll(dir.filePath("map.csv")));
        QStringList lines = csv.split('\n');
        REQUIRE(lines.last().isEmpty());  // ends with a newline
        lines.removeLast();
        REQUIRE(lines.size() == map.rows + 1);
        CHECK(str(lines[0]) == ",tom,\"a,b\",chases,</s>");
        CHECK(lines[1].startsWith(QString::fromUtf8("汤姆,")));
        CHECK(lines[2].startsWith("\"say \"\"hi\"\"\","));
        for (int r = 0; r < map.rows; ++r) {
            const QString values = lines[r + 1].mid(lines[r + 1].lastIndexOf('"') + 1);
            const QStringList fields = values.split(',', Qt::SkipEmptyParts);
            const QStringList cells = fields.mid(fields.size() - map.cols);
            REQUIRE(cells.size() == map.cols);
            for (int c = 0; c < map.cols; ++c) {
                CHECK(cells[c].toFloat() == map.at(r, c));  // exact: enough digits for float32
            }
        }
    }
    SECTION("NumPy .npy") {
        REQUIRE(renderer.exportFile(dir.filePath("map.npy"), &error));
        const QByteArray npy = readAll(dir.filePath("map.npy"));
        REQUIRE(npy.size() > 10);
        CHECK(npy.left(6) == QByteArray("\x93NUMPY", 6));
        CHECK(npy.at(6) == 1);
        CHECK(npy.at(7) == 0);
        const int headerLength = qFromLittleEndian<quint16>(npy.constData() + 8);
        CHECK((10 + headerLength) % 64 == 0);
        const QByteArray header = npy.mid(10, headerLength);
        CHECK(header.endsWith('\n'));
        CHECK(header.contains("'descr': '<f4'"));
        CHECK(header.contains("'fortran_order': False"));
        CHECK(header.contains("'shape': (3, 4)"));
        REQUIRE(npy.size() == 10 + headerLength + 3 * 4 * 4);
        for (int i = 0; i < 12; ++i) {
            const quint32 bits = qFromLittleEndian<quint32>(npy.constData() + 10 + headerLength + 4 * i);
            float value = 0;
            std::memcpy(&value, &bits, sizeof value);
            CHECK(value == map.weights[i]);
        }
    }
    SECTION("an unwritable path fails with a message and no file") {
        for (const char* name : {"map.png", "map.svg", "map.pdf", "map.csv", "map.npy"}) {
            const QString path = dir.filePath(QStringLiteral("missing-dir/") + name);
            error.clear();
            CHECK_FALSE(renderer.exportFile(path, &error));
            CHECK(error.contains(path));
            CHECK_FALSE(QFile::exists(path));
        }
        CHECK_FALSE(renderer.exportFile(dir.filePath("map.bmp"), &error));
        CHECK(error.contains(".png"));
    }
    SECTION("a failed export leaves the previous file untouched") {
        const QString path = dir.filePath("keep.png");
        REQUIRE(renderer.exportFile(path, &error));
        const QByteArray before = readAll(path);
        CHECK_FALSE(renderer.exportFile(path, &error, 0.0));  // invalid scale
        CHECK_FALSE(error.isEmpty());
        CHECK(readAll(path) == before);
    }
}

TEST_CASE("a 1024 x 1024 map renders", "[ui][heatmap]") {
    const AttentionMap map = patternMap(1024, 1024);
    HeatmapWidget widget;
    widget.resize(900, 900);
    QElapsedTimer timer;
    timer.start();
    widget.setAttention(map, QStringList(), QStringList());
    const QImage first = widget.grab().toImage();  // builds the cell image
    const qint64 firstMs = timer.elapsed();
    timer.restart();
    const int repaints = 5;
    QImage highlighted;
    for (int i = 0; i < repaints; ++i) {
        widget.highlightToken(i * 100, i * 100);
        highlighted = widget.grab().toImage();
    }
    const double repaintMs = static_cast<double>(timer.elapsed()) / repaints;
    std::cout << "1024x1024 heatmap: first paint " << firstMs << " ms, repaint " << repaintMs << " ms\n";
    const QRectF cell = widget.cellRect(512, 700);
    REQUIRE_FALSE(cell.isEmpty());
    const QPoint centre = cell.center().toPoint();
    // Cells are smaller than a pixel here: the pixel shows one of the cells around it.
    bool matches = false;
    for (int r = 510; r <= 514 && !matches; ++r) {
        for (int c = 698; c <= 702 && !matches; ++c) {
            matches = first.pixel(centre) == widget.renderer().colorFor(map.at(r, c));
        }
    }
    CHECK(matches);
    // The last repaint shows the highlight of row and column 400: that row's band differs from the
    // first paint away from column 400, a band far from it does not (but where column 400 crosses it).
    REQUIRE(highlighted.size() == first.size());
    const QRectF column = widget.cellRect(0, 400).united(widget.cellRect(1023, 400)).adjusted(-3, 0, 3, 0);
    auto bandDiffers = [&](int token) {
        const QRectF row = widget.cellRect(token, 0).united(widget.cellRect(token, 1023));
        const int y = static_cast<int>(row.center().y());
        for (int x = static_cast<int>(row.left()); x < static_cast<int>(row.right()); ++x)
            if ((x < column.left() || x > column.right()) && highlighted.pixel(x, y) != first.pixel(x, y)) return true;
        return false;
    };
    CHECK(bandDiffers(400));
    CHECK_FALSE(bandDiffers(900));
}

TEST_CASE("head grid activates heads and follows a token across heads", "[ui][heatmap]") {
    HeadGridWidget grid;
    grid.resize(900, 700);
    std::vector<std::vector<AttentionMap>> layers(8, std::vector<AttentionMap>(8, patternMap(64, 64)));
    grid.setLayers(layers, QStringList(), QStringList());
    REQUIRE(grid.layerCount() == 8);
    REQUIRE(grid.headCount() == 8);
    QElapsedTimer timer;
    timer.start();
    grid.grab();  // builds 64 cell images
    const qint64 firstMs = timer.elapsed();
    timer.restart();
    grid.grab();
    std::cout << "8x8 head grid of 64x64 maps: first paint " << firstMs << " ms, repaint " << timer.elapsed()
              << " ms\n";
    grid.show();
    REQUIRE(QTest::qWaitForWindowExposed(&grid));

    QSignalSpy activated(&grid, &HeadGridWidget::headActivated);
    QSignalSpy layerActivated(&grid, &HeadGridWidget::layerHeadActivated);
    const QRectF thumb = grid.thumbnailRect(2, 5);
    REQUIRE_FALSE(thumb.isEmpty());
    QTest::mouseClick(&grid, Qt::LeftButton, Qt::NoModifier, thumb.center().toPoint());
    REQUIRE(activated.count() == 1);
    CHECK(activated.first().at(0).toInt() == 5);
    REQUIRE(layerActivated.count() == 1);
    CHECK(layerActivated.first().at(0).toInt() == 2);
    CHECK(layerActivated.first().at(1).toInt() == 5);

    QSignalSpy hovered(&grid, &HeadGridWidget::tokenHovered);
    const QRectF other = grid.thumbnailRect(4, 1);
    // The cell in row 10, column 20 of a 64 x 64 thumbnail.
    const QPointF point(other.left() + (20.5 / 64.0) * other.width(), other.top() + (10.5 / 64.0) * other.height());
    QTest::mouseMove(&grid, point.toPoint());
    REQUIRE(hovered.count() >= 1);
    CHECK(hovered.last().at(0).toInt() == 10);
    CHECK(hovered.last().at(1).toInt() == 20);
    for (int l = 0; l < 8; ++l) {
        for (int h = 0; h < 8; ++h) {
            CHECK(grid.thumbnail(l, h)->options().highlightRow == 10);
            CHECK(grid.thumbnail(l, h)->options().highlightColumn == 20);
        }
    }
}

TEST_CASE("head grid of one layer exports images", "[ui][heatmap]") {
    test::TempDir dir;
    HeadGridWidget grid;
    QString error;
    CHECK_FALSE(grid.exportImage(dir.filePath("empty.png"), &error));  // nothing to show yet
    const QImage empty = grid.grab().toImage();  // the empty state paints its message
    REQUIRE_FALSE(empty.isNull());
    CHECK(empty.size() == grid.size() * grid.devicePixelRatio());
    bool drawn = false;
    for (int y = 0; y < empty.height() && !drawn; ++y)
        for (int x = 0; x < empty.width() && !drawn; ++x) drawn = empty.pixel(x, y) != empty.pixel(0, 0);
    CHECK(drawn);
    grid.setHeads(std::vector<AttentionMap>(6, patternMap(5, 7)), QStringList(), QStringList());
    grid.setTitle("Cross-attention, layer 0");
    CHECK_FALSE(grid.showsLayers());
    REQUIRE(grid.exportImage(dir.filePath("grid.png"), &error, 2.0));
    const QImage png(dir.filePath("grid.png"));
    CHECK(png.size() == grid.preferredSize() * 2);
    REQUIRE(grid.exportImage(dir.filePath("grid.svg"), &error));
    CHECK(readAll(dir.filePath("grid.svg")).contains("<svg"));
    REQUIRE(grid.exportImage(dir.filePath("grid.pdf"), &error));
    CHECK(readAll(dir.filePath("grid.pdf")).startsWith("%PDF"));
    CHECK_FALSE(grid.exportImage(dir.filePath("grid.csv"), &error));
    CHECK_FALSE(error.isEmpty());
}

}  // namespace

TEST_CASE("heatmap threshold: each row's largest weights up to the share of its mass keep their colour", "[ui][heatmap]") {
    HeatmapRenderer r;
    r.setMap(AttentionMap{2, 4, {0.5f, 0.3f, 0.15f, 0.05f,  //
                                 0.1f, 0.1f, 0.4f, 0.4f}},
             QStringList{QStringLiteral("a"), QStringLiteral("b")},
             QStringList{QStringLiteral("w"), QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z")});
    for (int c = 0; c < 4; ++c) CHECK(r.keepsCell(0, c));  // share 1: every cell
    const QImage full = r.matrixImage();
    r.setMassShare(0.75);
    // Row 1: 0.5 + 0.3 = 0.8 >= 0.75. Row 2: 0.4 (column 2, first of the tie) + 0.4 = 0.8.
    CHECK(r.keepsCell(0, 0));
    CHECK(r.keepsCell(0, 1));
    CHECK_FALSE(r.keepsCell(0, 2));
    CHECK_FALSE(r.keepsCell(0, 3));
    CHECK_FALSE(r.keepsCell(1, 0));
    CHECK(r.keepsCell(1, 2));
    CHECK(r.keepsCell(1, 3));
    const QImage thresholded = r.matrixImage();
    CHECK(thresholded.pixel(0, 0) == full.pixel(0, 0));  // kept: the same colour
    CHECK(thresholded.pixel(2, 0) != full.pixel(2, 0));  // left out: faded toward white
    CHECK(qGray(thresholded.pixel(2, 0)) > qGray(full.pixel(2, 0)));
    r.setMassShare(0.4);  // row 2: the first 0.4 alone reaches 0.4
    CHECK(r.keepsCell(1, 2));
    CHECK_FALSE(r.keepsCell(1, 3));
}
