#include "ImageDatasets.h"

#include "base/InputError.h"
#include "base/SeededRandom.h"

namespace attnlab {

namespace {

void set(Image& im, int y, int x) {
    if (y >= 0 && y < im.height && x >= 0 && x < im.width) im.pixels[static_cast<std::size_t>(y) * im.width + x] = 255;
}

// The mark of class k in the box (n x n, top-left at y, x): a plus, a ring, a slash, a corner.
void drawMark(Image& im, int k, int y, int x, int n) {
    for (int i = 0; i < n; ++i) {
        switch (k) {
        case 0:  // plus
            set(im, y + n / 2, x + i);
            set(im, y + i, x + n / 2);
            break;
        case 1:  // ring: the box's outline
            set(im, y, x + i);
            set(im, y + n - 1, x + i);
            set(im, y + i, x);
            set(im, y + i, x + n - 1);
            break;
        case 2:  // slash: the anti-diagonal, two pixels thick
            set(im, y + i, x + n - 1 - i);
            if (i < n - 1) set(im, y + i, x + n - 2 - i);
            break;
        default:  // corner: the top and left edges
            set(im, y, x + i);
            set(im, y + i, x);
            break;
        }
    }
}

bool overlaps(const Box& b, int y, int x, int margin) {
    return y >= b.top - margin && y < b.top + b.height + margin && x >= b.left - margin && x < b.left + b.width + margin;
}

}  // namespace

const std::vector<std::string>& glyphClasses() {
    static const std::vector<std::string> classes{"plus", "ring", "slash", "corner"};
    return classes;
}

ImageDataset makeGlyphs(std::size_t size, std::uint64_t seed, const GlyphOptions& o) {
    if (size < 2 || size > 1000000) throw ConfigError("glyphs: the number of images must be between 2 and 1000000");
    if (o.imageSize < 12 || o.imageSize > 256) throw ConfigError("glyphs: the image size must be between 12 and 256");
    if (o.markSize < 4 || o.markSize > o.imageSize / 2)
        throw ConfigError("glyphs: the mark size must be between 4 and half the image size");
    if (o.strokes < 0 || o.strokes > 64) throw ConfigError("glyphs: the distractor strokes must be between 0 and 64");
    SeededRandom rng(seed);
    ImageDataset d;
    d.name = "glyphs";
    d.classes = glyphClasses();
    const int classes = static_cast<int>(d.classes.size());
    std::vector<int> order;
    for (std::size_t i = 0; i < size; ++i) {
        if (order.empty()) {
            for (int k = 0; k < classes; ++k) order.push_back(k);
            rng.shuffle(order);
        }
        const int k = order.back();
        order.pop_back();
        Image im;
        im.height = im.width = o.imageSize;
        im.channels = 1;
        im.pixels.assign(static_cast<std::size_t>(o.imageSize) * o.imageSize, 0);
        const int n = o.markSize;
        Box box{rng.range(0, o.imageSize - n), rng.range(0, o.imageSize - n), n, n};
        drawMark(im, k, box.top, box.left, n);
        // Distractors: short horizontal or vertical dashes (2 to 4 pixels), each touching nothing else
        // and kept two pixels off the mark, so that no two of them make a plus, a corner or a ring
        // and none is diagonal like the slash: the mark's shape alone tells the class.
        for (int s = 0; s < o.strokes; ++s) {
            for (int attempt = 0; attempt < 10; ++attempt) {
                const int length = rng.range(2, 4);
                const bool vertical = rng.below(2) == 1;
                const int y = rng.range(0, o.imageSize - (vertical ? length : 1));
                const int x = rng.range(0, o.imageSize - (vertical ? 1 : length));
                bool free = true;
                for (int t = 0; t < length && free; ++t) {
                    const int py = y + (vertical ? t : 0), px = x + (vertical ? 0 : t);
                    if (overlaps(box, py, px, 2)) free = false;
                    for (int ny = py - 1; ny <= py + 1 && free; ++ny)
                        for (int nx = px - 1; nx <= px + 1 && free; ++nx)
                            if (ny >= 0 && ny < o.imageSize && nx >= 0 && nx < o.imageSize &&
                                im.pixels[static_cast<std::size_t>(ny) * o.imageSize + nx] != 0)
                                free = false;
                }
                if (!free) continue;
                for (int t = 0; t < length; ++t) set(im, y + (vertical ? t : 0), x + (vertical ? 0 : t));
                break;
            }
        }
        d.images.push_back(std::move(im));
        d.labels.push_back(k);
        d.boxes.push_back(box);
    }
    return d;
}

}  // namespace attnlab
