#pragma once
// The first header of every core test unit (tests/CMakeLists.txt precompiles it): LibTorch, then
// Catch2. LibTorch brings glog, whose CHECK aborts the process; the tests mean Catch's, so glog's is
// dropped before Catch defines its own. A test file may include either header again: both are no-ops.
#include <torch/torch.h>
#undef CHECK
#include <catch2/catch.hpp>
