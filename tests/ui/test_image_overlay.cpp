// The image-attention figures of render/ImageOverlay.h: the pixels are hotter where the weight is
// (crisp cells or smoothed), the strip grows with its words, and FigureWriter writes them as PNG, SVG
// and PDF.
#include "render/FigureWriter.h"
#include "render/ImageOverlay.h"

#include <catch2/catch.hpp>

#include <QFile>
#include <QImage>
#include <QPainter>

#include <numeric>
#include "TempDir.h"

using namespace attnlab;

namespace {

Image flatGrey(int side, std::uint8_t value) {
    Image image;
    image.height = image.width = side;
    image.channels = 1;
    image.pixels.assign(static_cast<std::size_t>(side) * side, value);
    return image;
}

QImage rendered(const Figure& figure) {
    QImage out(figure.size, QImage::Format_RGB32);
    out.fill(Qt::white);
    QPainter painter(&out);
    figure.paint(painter, QRectF(QPointF(0, 0), QSizeF(figure.size)));
    return out;
}

int brightness(QRgb c) { return qRed(c) + qGreen(c) + qBlue(c); }

QByteArray head(const QString& path, int bytes) {
    QFile f(path);
    REQUIRE(f.open(QIODevice::ReadOnly));
    return f.read(bytes);
}

}  // namespace

TEST_CASE("toQImage keeps grey and RGB pixels", "[render][image]") {
    Image grey = flatGrey(2, 10);
    grey.pixels[3] = 200;
    const QImage g = toQImage(grey);
    REQUIRE(g.size() == QSize(2, 2));
    CHECK(g.pixel(0, 0) == qRgb(10, 10, 10));
    CHECK(g.pixel(1, 1) == qRgb(200, 200, 200));
    Image rgb;
    rgb.height = 1;
    rgb.width = 2;
    rgb.channels = 3;
    rgb.pixels = {255, 0, 0, 0, 0, 255};
    const QImage c = toQImage(rgb);
    CHECK(c.pixel(0, 0) == qRgb(255, 0, 0));
    CHECK(c.pixel(1, 0) == qRgb(0, 0, 255));
    rgb.pixels.pop_back();  // a size that does not match
    CHECK(toQImage(rgb).isNull());
}

TEST_CASE("an overlay is hotter where the weight is, crisp or smoothed", "[render][image]") {
    const Image image = flatGrey(8, 128);
    const std::vector<float> weights{0.7f, 0.1f, 0.1f, 0.1f};  // the top-left cell of a 2 x 2 grid
    for (bool smooth : {false, true}) {
        OverlayStyle style;
        style.smooth = smooth;
        style.opacity = 0.6;
        const QImage picture = overlayImage(image, weights, 2, 2, style, 64);
        REQUIRE(picture.size() == QSize(64, 64));
        CHECK(brightness(picture.pixel(4, 4)) > brightness(picture.pixel(60, 60)) + 100);
        CHECK(brightness(picture.pixel(4, 4)) > brightness(picture.pixel(60, 4)));
        if (!smooth) {
            CHECK(picture.pixel(60, 4) == picture.pixel(4, 60));  // equal weights, equal crisp cells
            CHECK(picture.pixel(4, 4) == picture.pixel(28, 28));
        } else {
            CHECK(brightness(picture.pixel(28, 28)) < brightness(picture.pixel(4, 4)));  // blended towards the middle
        }
    }
    // Opacity 0 leaves the image as it is; weights of the wrong size draw the image alone.
    OverlayStyle clear;
    clear.opacity = 0.0;
    CHECK(overlayImage(image, weights, 2, 2, clear, 16).pixel(3, 3) == qRgb(128, 128, 128));
    CHECK(overlayImage(image, {1.0f}, 2, 2, OverlayStyle(), 16).pixel(3, 3) == qRgb(128, 128, 128));

    const Figure figure = imageAttentionFigure(image, weights, 2, 2, OverlayStyle(), QStringLiteral("plus (p = 0.9)"), 160);
    CHECK(figure.size.width() > 160);
    CHECK(figure.size.height() > 160);
    const QImage picture = rendered(figure);
    CHECK(brightness(picture.pixel(12 + 10, 12 + 10)) > brightness(picture.pixel(12 + 150, 12 + 150)) + 100);
}

TEST_CASE("the strip has one overlay per word and wraps after six", "[render][image]") {
    const Image image = flatGrey(8, 60);
    const std::vector<float> w{1.0f, 0.0f, 0.0f, 0.0f};
    const auto strip = [&](int words) {
        QStringList list;
        for (int i = 0; i < words; ++i) list << QStringLiteral("w%1").arg(i);
        return imageAttentionStrip(image, std::vector<std::vector<float>>(static_cast<std::size_t>(words), w), list, 2,
                                   2, OverlayStyle(), 80);
    };
    const QSize two = strip(2).size, four = strip(4).size, six = strip(6).size, eight = strip(8).size;
    CHECK(four.width() > two.width());
    CHECK(four.height() == two.height());
    CHECK(eight.width() == six.width());
    CHECK(eight.height() > six.height());
    const QImage picture = rendered(strip(2));
    CHECK(brightness(picture.pixel(12 + 5, 12 + 5)) > brightness(picture.pixel(12 + 75, 12 + 75)));
}

TEST_CASE("image figures are written as PNG, SVG and PDF", "[render][image]") {
    test::TempDir dir;
    const Image image = flatGrey(8, 90);
    const Figure figure =
        imageAttentionFigure(image, {0.5f, 0.2f, 0.2f, 0.1f}, 2, 2, OverlayStyle(), QStringLiteral("ring"), 96);
    const QString png = dir.filePath(QStringLiteral("a.png")), svg = dir.filePath(QStringLiteral("a.svg")),
                  pdf = dir.filePath(QStringLiteral("a.pdf"));
    CHECK_FALSE(FigureWriter::write(png, figure, 2.0).has_value());
    CHECK_FALSE(FigureWriter::write(svg, figure).has_value());
    CHECK_FALSE(FigureWriter::write(pdf, figure).has_value());
    CHECK(head(png, 8) == QByteArray("\x89PNG\r\n\x1a\n", 8));
    CHECK(head(svg, 400).contains("<svg"));
    CHECK(head(pdf, 5) == QByteArray("%PDF-"));
    CHECK(QImage(png).width() == figure.size.width() * 2);
    const Figure strip = imageAttentionStrip(image, {{1, 0, 0, 0}, {0, 0, 0, 1}}, {QStringLiteral("a"), QStringLiteral("b")},
                                             2, 2, OverlayStyle(), 64);
    CHECK_FALSE(FigureWriter::write(dir.filePath(QStringLiteral("s.pdf")), strip).has_value());
    CHECK(head(dir.filePath(QStringLiteral("s.pdf")), 5) == QByteArray("%PDF-"));
}
