// The line view (render/LineViewRenderer.h, widgets/LineViewWidget.h): which lines a threshold, the
// head chips and a hovered token keep, against maps written by hand; the draw budget on a
// 200-token, 8-head map; the mouse (hover, chips) and the export.
#include "render/LineViewRenderer.h"
#include "widgets/LineViewWidget.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QTest>

#include <random>
#include <set>
#include <tuple>

#include "TempDir.h"

using namespace attnlab;
using Side = LineViewRenderer::Side;

namespace {

// Two heads over three left and three right tokens; every row sums to 1.
std::vector<AttentionMap> handMaps() {
    return {AttentionMap{3, 3, {0.6f, 0.3f, 0.1f,  //
                                0.2f, 0.2f, 0.6f,  //
                                0.0f, 1.0f, 0.0f}},
            AttentionMap{3, 3, {0.5f, 0.25f, 0.25f,  //
                                0.1f, 0.8f, 0.1f,    //
                                0.34f, 0.33f, 0.33f}}};
}

const QStringList kLeft{QStringLiteral("le"), QStringLiteral("chat"), QStringLiteral("</s>")};
const QStringList kRight{QStringLiteral("the"), QStringLiteral("cat"), QStringLiteral("</s>")};

std::set<std::tuple<int, int, int>> linesOf(const LineViewRenderer& r) {
    std::set<std::tuple<int, int, int>> out;
    for (const auto& l : r.keptLines()) out.insert({l.head, l.row, l.column});
    return out;
}

// Softmax rows over random logits: n x n, heads maps.
std::vector<AttentionMap> randomMaps(int n, int heads, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> logit(0.0f, 2.0f);
    std::vector<AttentionMap> maps;
    for (int h = 0; h < heads; ++h) {
        AttentionMap m{n, n, std::vector<float>(static_cast<std::size_t>(n) * n)};
        for (int r = 0; r < n; ++r) {
            double sum = 0;
            for (int c = 0; c < n; ++c) sum += m.weights[static_cast<std::size_t>(r) * n + c] = std::exp(logit(rng));
            for (int c = 0; c < n; ++c) m.weights[static_cast<std::size_t>(r) * n + c] /= static_cast<float>(sum);
        }
        maps.push_back(std::move(m));
    }
    return maps;
}

QStringList tokens(int n) {
    QStringList out;
    for (int i = 0; i < n; ++i) out << QStringLiteral("w%1").arg(i);
    return out;
}

}  // namespace

TEST_CASE("line view: every positive weight is a line, heaviest first", "[ui][lines]") {
    LineViewRenderer r;
    r.setMaps(handMaps(), kLeft, kRight);
    REQUIRE(r.headCount() == 2);
    const auto kept = r.keptLines();
    CHECK(kept.size() == 16);  // 18 weights, two of them 0
    for (std::size_t i = 1; i < kept.size(); ++i) CHECK(kept[i - 1].weight >= kept[i].weight);
    CHECK(kept.front().weight == 1.0f);
    CHECK(kept.front().head == 0);
    CHECK(kept.front().row == 2);
    CHECK(kept.front().column == 1);
}

TEST_CASE("line view threshold: each row's largest weights up to the share of its mass", "[ui][lines]") {
    LineViewRenderer r;
    r.setMaps(handMaps(), kLeft, kRight);
    r.setThreshold(0.5);
    // Head 1 row 1: 0.6 alone reaches half; row 2: 0.6; row 3: 1.0. Head 2 row 1: 0.5 does; row 2:
    // 0.8; row 3: 0.34 then 0.33 (0.67 >= 0.5).
    CHECK(linesOf(r) == std::set<std::tuple<int, int, int>>{
                            {0, 0, 0}, {0, 1, 2}, {0, 2, 1}, {1, 0, 0}, {1, 1, 1}, {1, 2, 0}, {1, 2, 1}});
    r.setThreshold(0.85);
    // Head 1 row 1: 0.6 + 0.3 = 0.9; row 2: 0.6 + 0.2 (the first 0.2, column 0) = 0.8, + 0.2 = 1.0.
    const auto at85 = linesOf(r);
    CHECK(at85.count({0, 0, 0}) == 1);
    CHECK(at85.count({0, 0, 1}) == 1);
    CHECK(at85.count({0, 0, 2}) == 0);
    CHECK(at85.count({0, 1, 0}) == 1);
    CHECK(at85.count({0, 1, 1}) == 1);
    CHECK(at85.count({0, 1, 2}) == 1);
    r.setThreshold(1.0);
    CHECK(r.keptLines().size() == 16);
}

TEST_CASE("line view: hidden heads and a hovered token keep only their lines", "[ui][lines]") {
    LineViewRenderer r;
    r.setMaps(handMaps(), kLeft, kRight);
    r.setHeadVisible(0, false);
    for (const auto& l : r.keptLines()) CHECK(l.head == 1);
    CHECK(r.keptLines().size() == 9);
    r.setHeadVisible(0, true);
    r.setFocus(Side::Left, 1);
    for (const auto& l : r.keptLines()) CHECK(l.row == 1);
    CHECK(r.keptLines().size() == 6);
    r.setFocus(Side::Right, 2);
    for (const auto& l : r.keptLines()) CHECK(l.column == 2);
    CHECK(r.keptLines().size() == 5);  // head 1: 0.1, 0.6 (the 0 left out); head 2: 0.25, 0.1, 0.33
    r.setFocus(Side::Right, 7);        // no such token: every line
    CHECK(r.keptLines().size() == 16);
    // Maps that do not fit the labels are left out, not read past.
    r.setMaps({AttentionMap{2, 2, {0.5f, 0.5f, 0.5f, 0.5f}}}, kLeft, kRight);
    CHECK(r.isEmpty());
}

TEST_CASE("line view: a 200-token, 8-head map paints within its line budget", "[ui][lines]") {
    LineViewRenderer r;
    r.setMaps(randomMaps(200, 8, 1), tokens(200), tokens(200));
    const auto kept = r.keptLines();
    CHECK(kept.size() == 200u * 200u * 8u);
    QImage image(r.preferredSize(), QImage::Format_ARGB32_Premultiplied);
    QPainter painter(&image);
    r.paint(painter, QRectF(image.rect()), Qt::black, Qt::white);
    painter.end();
    CHECK(r.linesDrawn() == LineViewRenderer::kLineBudget);
    CHECK(r.linesDrawn() + r.linesLeftOut() == static_cast<int>(kept.size()));
    // One token hovered: all of its lines above the visible minimum, well inside the budget.
    r.setFocus(Side::Left, 17);
    std::size_t visible = 0;
    for (const auto& l : r.keptLines()) visible += l.weight >= LineViewRenderer::kMinimumWeight;
    QImage again(r.preferredSize(), QImage::Format_ARGB32_Premultiplied);
    QPainter p2(&again);
    r.paint(p2, QRectF(again.rect()), Qt::black, Qt::white);
    p2.end();
    CHECK(r.linesDrawn() == static_cast<int>(visible));
}

TEST_CASE("line view widget: hover keeps a token's lines, a chip hides a head, export writes", "[ui][lines]") {
    LineViewWidget w;
    w.setMaps(handMaps(), kLeft, kRight);
    w.setTitle(QStringLiteral("Cross-attention, layer 1"));
    w.resize(600, 260);
    w.show();
    REQUIRE(QTest::qWaitForWindowExposed(&w));
    const QPointF chat = w.tokenCenter(Side::Left, 1);
    REQUIRE(chat.x() >= 0);
    QTest::mouseMove(&w, chat.toPoint());
    CHECK(w.renderer().focusSide() == Side::Left);
    CHECK(w.renderer().focusToken() == 1);
    const QPointF cat = w.tokenCenter(Side::Right, 1);
    REQUIRE(cat.x() >= 0);
    QTest::mouseMove(&w, cat.toPoint());
    CHECK(w.renderer().focusSide() == Side::Right);
    CHECK(w.renderer().focusToken() == 1);

    QSignalSpy toggled(&w, &LineViewWidget::headToggled);
    const QPointF chip = w.chipCenter(1);
    REQUIRE(chip.x() >= 0);
    QTest::mouseClick(&w, Qt::LeftButton, Qt::NoModifier, chip.toPoint());
    CHECK_FALSE(w.renderer().isHeadVisible(1));
    REQUIRE(toggled.count() == 1);
    CHECK(toggled.at(0).at(0).toInt() == 1);
    CHECK(toggled.at(0).at(1).toBool() == false);

    test::TempDir out;
    const QString png = out.filePath(QStringLiteral("lines.png"));
    QString error;
    REQUIRE(w.exportImage(png, &error));
    QImage written(png);
    CHECK(written.width() >= 360);
    LineViewWidget empty;
    CHECK_FALSE(empty.exportImage(out.filePath(QStringLiteral("none.png")), &error));
    CHECK_FALSE(error.isEmpty());
}
