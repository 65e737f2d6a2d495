// CUDA entry of error-diffusion halftoning (kernels/halftone_cuda.cu).
// Declared without CUDA headers for core/; builds without CUDA link
// core/src/cuda_stub.cpp instead.
#pragma once

#include "core/shared/halftone_rules.hpp"
#include "cudafilters/frame.hpp"
#include "kernels/cuda_device.hpp"

namespace cf::cuda {
// cf::halftone's rule; returns when dst holds the result.
void halftone(detail::CudaState *s, const halftone_rules::Setup &setup, const FrameView &src, const FrameView &dst);
}  // namespace cf::cuda
