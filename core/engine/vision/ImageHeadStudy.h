#pragma once
// The head study of engine/HeadStudy.h for the ViT: its heads over a set of images (converted to
// the model's channels and size), metric accuracy. Torch-free.
#include <cstddef>
#include <vector>

#include "engine/HeadStudy.h"

namespace attnlab {

class ImageClassifier;
struct ImageDataset;

// Every head over the images. Images whose class the model does not know (by name) are skipped;
// InputError(data.name) when none is left.
HeadStudyReport measureImageClassifierHeads(const ImageClassifier& model, const ImageDataset& data,
                                            const HeadStudyOptions& options = {},
                                            const HeadStudyProgress& progress = {});

// The figures with `off` switched off (empty `off` = the plain model).
HeadScore scoreImageClassifierWithAblation(const ImageClassifier& model, const ImageDataset& data,
                                           const std::vector<HeadId>& off, std::size_t limit = 0);

// I_h before normalisation, in head order.
std::vector<double> imageClassifierHeadGradients(const ImageClassifier& model, const ImageDataset& data,
                                                 std::size_t limit = 0);

}  // namespace attnlab
