// CUDA entry of the reversible colour transforms (kernels/colour_cuda.cu).
// Declared without CUDA headers for core/; builds without CUDA link
// core/src/cuda_stub.cpp instead.
#pragma once

#include "cudafilters/colour.hpp"
#include "cudafilters/frame.hpp"
#include "kernels/cuda_device.hpp"

namespace cf::cuda {
// Forward or inverse; returns when dst holds the result.
void colour_transform(detail::CudaState *s, bool inverse, ColourTransform t, const FrameView &src,
                      const FrameView &dst);
}  // namespace cf::cuda
