#include "render/Colormap.h"

#include <catch2/catch.hpp>

#include <QColor>
#include <QString>

#include <cmath>
#include <limits>
#include <string>

using attnlab::Colormap;
using attnlab::ColormapId;

namespace {

std::string hex(QRgb rgb) { return QColor(rgb).name().toStdString(); }

double luminance(QRgb rgb) {
    auto linear = [](int channel) {
        const double c = channel / 255.0;
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(qRed(rgb)) + 0.7152 * linear(qGreen(rgb)) + 0.0722 * linear(qBlue(rgb));
}

TEST_CASE("colormap endpoints equal matplotlib's", "[ui][colormap]") {
    // matplotlib.colors.to_hex(matplotlib.colormaps[name](0.0 or 1.0))
    CHECK(hex(Colormap(ColormapId::Viridis).color(0.0)) == "#440154");
    CHECK(hex(Colormap(ColormapId::Viridis).color(1.0)) == "#fde725");
    CHECK(hex(Colormap(ColormapId::Magma).color(0.0)) == "#000004");
    CHECK(hex(Colormap(ColormapId::Magma).color(1.0)) == "#fcfdbf");
    CHECK(hex(Colormap(ColormapId::Cividis).color(0.0)) == "#00224e");
    CHECK(hex(Colormap(ColormapId::Cividis).color(1.0)) == "#fee838");
    CHECK(hex(Colormap(ColormapId::Bone).color(0.0)) == "#000000");
    CHECK(hex(Colormap(ColormapId::Bone).color(1.0)) == "#ffffff");
    CHECK(hex(Colormap(ColormapId::Grey).color(0.0)) == "#000000");
    CHECK(hex(Colormap(ColormapId::Grey).color(1.0)) == "#ffffff");
}

TEST_CASE("colormap interior entries equal matplotlib's", "[ui][colormap]") {
    // matplotlib picks entry floor(t * 256) of its 256-entry table.
    CHECK(hex(Colormap(ColormapId::Viridis).color(0.5)) == "#21918c");
    CHECK(hex(Colormap(ColormapId::Magma).color(0.5)) == "#b73779");
    CHECK(hex(Colormap(ColormapId::Grey).color(0.5)) == "#808080");
    // Entry 64 of bone from its segment data: red 0.652778 * (64/255) / 0.746032, green and blue
    // on their first segments.
    CHECK(hex(Colormap(ColormapId::Bone).at(64)) == "#38384e");
    CHECK(Colormap::indexFor(0.5) == 128);
    CHECK(Colormap::indexFor(0.999) == 255);
    CHECK(Colormap::indexFor(1.0 / 256.0) == 1);
}

TEST_CASE("colormap clamps out-of-range values", "[ui][colormap]") {
    for (ColormapId id : Colormap::all()) {
        const Colormap map(id);
        CHECK(map.color(-0.5) == map.color(0.0));
        CHECK(map.color(7.0) == map.color(1.0));
        CHECK(map.color(std::numeric_limits<double>::quiet_NaN()) == map.color(0.0));
        CHECK(map.color(std::numeric_limits<double>::infinity()) == map.color(1.0));
        CHECK(map.at(-3) == map.table().front());
        CHECK(map.at(300) == map.table().back());
    }
}

TEST_CASE("every colormap gets lighter from low to high", "[ui][colormap]") {
    // A heatmap is read by lightness: a larger weight must never look darker.
    for (ColormapId id : Colormap::all()) {
        const Colormap map(id);
        INFO(map.name().toStdString());
        for (int i = 8; i < Colormap::kSize; i += 8) {
            CHECK(luminance(map.at(i)) > luminance(map.at(i - 8)));
        }
        for (QRgb entry : map.table()) {
            REQUIRE(qAlpha(entry) == 255);
        }
    }
}

TEST_CASE("colormap names parse case-insensitively", "[ui][colormap]") {
    CHECK(Colormap::names().join(",").toStdString() == "viridis,magma,cividis,bone,grey");
    for (ColormapId id : Colormap::all()) {
        CHECK(Colormap::fromName(Colormap::nameOf(id)) == id);
        CHECK(Colormap::fromName(Colormap::nameOf(id).toUpper()) == id);
    }
    CHECK(Colormap::fromName("Viridis") == ColormapId::Viridis);
    CHECK(Colormap::fromName(" magma ") == ColormapId::Magma);
    CHECK(Colormap::fromName("gray") == ColormapId::Grey);
    CHECK(Colormap::fromName("GREY") == ColormapId::Grey);
    CHECK_FALSE(Colormap::fromName("jet").has_value());
    CHECK_FALSE(Colormap::fromName("").has_value());
    CHECK(Colormap(ColormapId::Cividis).name().toStdString() == "cividis");
}

}  // namespace
