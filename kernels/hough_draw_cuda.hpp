// CUDA entry of drawing Hough lines (kernels/hough_draw_cuda.cu).
// Declared without CUDA headers for core/; builds without CUDA link
// core/src/cuda_stub.cpp instead.
#pragma once

#include <vector>

#include "cudafilters/frame.hpp"
#include "cudafilters/hough.hpp"
#include "kernels/cuda_device.hpp"

namespace cf::cuda {
// dst = src with the visible lines drawn (the rule of
// core/shared/hough_draw_rules.hpp); host or device frames; returns when dst
// holds the result.
void hough_draw(detail::CudaState *s, const std::vector<HoughLine> &lines, const HoughDrawParams &d,
                const FrameView &src, const FrameView &dst);
}  // namespace cf::cuda
