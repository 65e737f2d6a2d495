// CUDA entries of the reversible wavelets (kernels/wavelet_cuda.cu).
// Declared without CUDA headers for core/; builds without CUDA link
// core/src/cuda_stub.cpp instead.
#pragma once

#include "cudafilters/frame.hpp"
#include "cudafilters/wavelet.hpp"
#include "kernels/cuda_device.hpp"

namespace cf::cuda {
// src/dst may each be in host or device memory; host frames are staged
// through cached device buffers on the state's stream. Returns when dst holds
// the result.
void wavelet_forward(detail::CudaState *s, const WaveletParams &p, const FrameView &src, const FrameView &dst);
void wavelet_inverse(detail::CudaState *s, const WaveletParams &p, const FrameView &src, const FrameView &dst);
}  // namespace cf::cuda
