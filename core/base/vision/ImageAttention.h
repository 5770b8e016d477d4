#pragma once
// Attention over an image's grid (a ViT's patches, a captioner's cells) against where things are:
// the ground truth of the generated datasets. Grids cover the image evenly: cell (r, c) of a
// rows x cols grid over height x width pixels spans rows [r*height/rows, (r+1)*height/rows).
#include <vector>

#include "ImageData.h"

namespace attnlab {

// The mass on the box: each cell's weight times the share of that cell the box covers. Uniform
// weights give the box's share of the image; all the mass on cells inside the box gives 1.
double massOnBox(const std::vector<float>& weights, int rows, int cols, int height, int width, const Box& box);
// The box's share of the image (what uniform weights put on it).
double boxShare(const Box& box, int height, int width);
// Whether the centre of the cell where the weights peak lies inside the box grown by `marginCells`
// cells on every side: 0 asks for the centre inside the box itself, 0.5 (kPeakMarginCells) for the
// centre within half a cell of it, i.e. the peak cell touching the box (a box smaller than a cell
// may hold no cell's centre at all).
bool peakInBox(const std::vector<float>& weights, int rows, int cols, int height, int width, const Box& box,
               double marginCells = 0);
inline constexpr double kPeakMarginCells = 0.5;

// One map against one box: the mass on the box and where the peak falls.
struct BoxAttention {
    double mass = 0;          // massOnBox
    double share = 0;         // the box's share of the image (what uniform weights would put on it)
    bool peakInside = false;  // peakInBox, margin 0
    bool peakNear = false;    // peakInBox, margin kPeakMarginCells
};
std::vector<BoxAttention> attentionOnBoxes(const std::vector<float>& weights, int rows, int cols, int height, int width,
                                           const std::vector<Box>& boxes);
// The box scaled from an image of fromHeight x fromWidth to one of toHeight x toWidth.
Box scaleBox(const Box& box, int fromHeight, int fromWidth, int toHeight, int toWidth);

}  // namespace attnlab
