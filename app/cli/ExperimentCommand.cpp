#include <stdexcept>

#include "Commands.h"

namespace attnlab::cli {

int runExperiment(const Args&) { throw std::runtime_error("experiments are not available yet in this build"); }

}  // namespace attnlab::cli
