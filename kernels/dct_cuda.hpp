// CUDA entry of the 8x8 DCT (kernels/dct_cuda.cu).
// Declared without CUDA headers for core/; builds without CUDA link
// core/src/cuda_stub.cpp instead.
#pragma once

#include "core/shared/dct_rules.hpp"
#include "cudafilters/frame.hpp"
#include "kernels/cuda_device.hpp"

namespace cf::cuda {
// Forward raw -> coefficients or inverse coefficients -> raw (cf::dct_forward
// and cf::dct_inverse's rule); returns when dst holds the result.
void dct_transform(detail::CudaState *s, bool inverse, const dct::Setup &setup, const FrameView &src,
                   const FrameView &dst);
}  // namespace cf::cuda
