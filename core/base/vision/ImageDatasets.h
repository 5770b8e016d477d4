#pragma once
// Built-in image datasets generated from a seed (the same on every machine), with the ground truth
// for the attention.
//   glyphs: grey images with one small mark (6x6 by default) at a random spot among distractor
//           dashes (short horizontal or vertical strokes that touch nothing, so they never form a
//           mark); the mark's shape is the class (plus, ring, slash, corner), its box is known. A
//           classifier must find the mark; its attention should fall on the box.
#include <cstdint>
#include <string>
#include <vector>

#include "ImageData.h"

namespace attnlab {

struct GlyphOptions {
    int imageSize = 32;  // square, 12..256
    int markSize = 6;    // 4..imageSize/2
    int strokes = 8;     // distractor dashes, 0..64 (fewer where they do not fit)
};

// How many glyphs the CLI and the GUI generate unless told: with 4,500 of them for training the
// default ViT passes 0.94 held-out accuracy in 8 epochs over three seeds; with 1,800, 0.85
// (docs/vision.md).
inline constexpr std::size_t kDefaultGlyphCount = 5000;

// The glyph classes, in label order.
const std::vector<std::string>& glyphClasses();

// `size` images (2..1,000,000), classes balanced (each run of four holds every class once). Throws
// ConfigError for an option out of range.
ImageDataset makeGlyphs(std::size_t size, std::uint64_t seed, const GlyphOptions& options = {});

}  // namespace attnlab
