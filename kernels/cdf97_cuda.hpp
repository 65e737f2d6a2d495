// CUDA entries of the CDF 9/7 (kernels/cdf97_cuda.cu).
// Declared without CUDA headers for core/; builds without CUDA link
// core/src/cuda_stub.cpp instead.
#pragma once

#include "cudafilters/cdf97.hpp"
#include "cudafilters/frame.hpp"
#include "kernels/cuda_device.hpp"

namespace cf::cuda {
// As the reversible wavelets: host or device frames; returns when dst holds the result.
void cdf97_forward(detail::CudaState *s, const Cdf97Params &p, const FrameView &src, const FrameView &dst);
void cdf97_inverse(detail::CudaState *s, const Cdf97Params &p, const FrameView &src, const FrameView &dst);
}  // namespace cf::cuda
