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
// Whether the centre of the cell where the weights peak lies inside the box.
bool peakInBox(const std::vector<float>& weights, int rows, int cols, int height, int width, const Box& box);
// The box scaled from an image of fromHeight x fromWidth to one of toHeight x toWidth.
Box scaleBox(const Box& box, int fromHeight, int fromWidth, int toHeight, int toWidth);

}  // namespace attnlab
