#pragma once
// Attention over an image: the image scaled up with its pixels kept crisp (nearest), a grid of
// weights (a ViT's patches, a captioner's cells, row-major) drawn over it as a colour-mapped layer
// at an opacity, either as crisp cells (nearest) or upsampled bilinearly (smooth), a small colour bar
// and a caption. The views of the Images task and `attnlab-cli render --image` draw the same picture:
// everything is painted with QPainter, so FigureWriter writes it as PNG, SVG or PDF. QtGui only.
#include "render/Colormap.h"
#include "render/FigureWriter.h"
#include "base/vision/ImageData.h"

#include <QColor>
#include <QCoreApplication>
#include <QImage>
#include <QString>
#include <QStringList>

#include <vector>

namespace attnlab {

// Grey (1 channel) or RGB (3 channels) 8-bit pixels as a QImage (Format_RGB32); a null QImage for
// an empty image or a pixel count that does not match its size.
QImage toQImage(const Image& image);

struct OverlayStyle {
    double opacity = 0.6;                     // of the attention layer, 0..1
    bool smooth = true;                       // bilinear upsampling of the weights; false = crisp cells
    ColormapId colormap = ColormapId::Magma;  // weights scaled to their maximum
};

// The weights of a rows x cols grid upsampled to width x height, scaled so the largest is 1 (all
// zero, negative or NaN weights give 0): nearest or bilinear (cell centres aligned). Empty if the
// weights do not match rows * cols.
std::vector<float> upsampleWeights(const std::vector<float>& weights, int rows, int cols, int height, int width,
                                   bool smooth);

// The image at side x side (nearest), with the weights composited over it at the style's opacity.
// Without matching weights, the image alone.
QImage overlayImage(const Image& image, const std::vector<float>& weights, int rows, int cols,
                    const OverlayStyle& style, int side);

// The figure: the overlay at side x side, a colour bar from 0 to the largest weight, the caption
// under the image.
Figure imageAttentionFigure(const Image& image, const std::vector<float>& weights, int rows, int cols,
                            const OverlayStyle& style, const QString& caption, int side = 320);

// One overlay per word (each scaled to its own maximum), the word under it, six to a row, as in the
// captioning papers' figures. perWord[i] are the weights of words[i].
Figure imageAttentionStrip(const Image& image, const std::vector<std::vector<float>>& perWord,
                           const QStringList& words, int rows, int cols, const OverlayStyle& style, int side = 160);

inline constexpr int kStripColumns = 6;

}  // namespace attnlab
