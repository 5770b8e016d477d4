#include <stdexcept>

#include "Commands.h"

namespace attnlab::cli {

// Implemented with the GUI's heatmap renderer (issue: desktop GUI); until then it
// says so instead of pretending.
int runRender(const Args&) { throw std::runtime_error("render is not available yet in this build"); }

}  // namespace attnlab::cli
