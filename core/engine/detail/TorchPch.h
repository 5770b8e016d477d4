// Precompiled header for attnlab_engine: every engine TU needs LibTorch, and
// parsing <torch/torch.h> costs ~30 s per TU on the build machines.
#pragma once
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>
