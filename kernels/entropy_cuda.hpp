// CUDA entry of the entropy probe's histograms (kernels/entropy_cuda.cu).
// Declared without CUDA headers for core/; builds without CUDA link
// core/src/cuda_stub.cpp instead.
#pragma once

#include <cstdint>

#include "cudafilters/entropy.hpp"
#include "cudafilters/frame.hpp"
#include "kernels/cuda_device.hpp"

namespace cf::cuda {
// counts: host memory, n_components x shape.bins; returns when they are filled.
void histograms(detail::CudaState *s, const FrameView &f, const HistogramShape &shape, std::uint32_t *counts);
}  // namespace cf::cuda
