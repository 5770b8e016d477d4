#pragma once
// Engine-internal: a network's weights to and from the safetensors container, shared by every
// task's checkpoint. Includes LibTorch; only engine .cpp files include it.
#include <torch/torch.h>

#include <cstdint>
#include <string>

#include "base/io/Safetensors.h"

namespace attnlab {

// The module's named_parameters() in order, as F32 records.
void appendTensors(const torch::nn::Module& module, SafetensorsContent& content);

// The number of weights the module's parameters hold.
std::int64_t weightCount(const torch::nn::Module& module);

// Total number of floats the file holds (compare with the config's count before building a
// network, so that a hostile config cannot make us allocate more than the file's size).
std::int64_t storedWeights(const SafetensorsContent& content);

// Checks every parameter's name and shape against the file first (ModelFileError(path, ...)
// for a missing tensor, a wrong shape, a different tensor count), then copies them in,
// refusing NaN or infinity.
void loadTensorsInto(const SafetensorsContent& content, torch::nn::Module& module, const std::string& path);

}  // namespace attnlab
