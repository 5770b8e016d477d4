#pragma once
// Engine-internal: what the vision models hold, and images as tensors. Includes LibTorch; only
// engine .cpp files include it.
#include <torch/torch.h>

#include "EvalModeGuard.h"
#include "engine/vision/ImageModels.h"
#include "engine/nn/networks/VisionNets.h"

namespace attnlab {

struct ImageClassifier::Impl {
    VitConfig config;
    std::vector<std::string> classes;
    nn::VitNet net{nullptr};
};

struct ImageCaptioner::Impl {
    CaptionerConfig config;
    Vocabulary vocabulary;
    nn::CaptionerNet net{nullptr};
};

// Images already at the model's channels and size -> [B, C, S, S] floats in 0..1.
torch::Tensor imagesTensor(const std::vector<const Image*>& images);
// One image of any size and channels, converted (toModelInput) -> [1, C, S, S].
torch::Tensor imageTensor(const Image& image, int channels, int size);

}  // namespace attnlab
