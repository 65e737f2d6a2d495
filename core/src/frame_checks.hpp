// Checks of frame pairs that several techniques make (internal to core/).
#pragma once

#include "cudafilters/frame.hpp"

namespace cf::detail {

// Throws cf::Error unless src and dst are valid frames (check_frame) with
// the same number of components and the same size for each.
void require_alike(const FrameView &src, const FrameView &dst);

}  // namespace cf::detail
