// CUDA entry of Hough line detection (kernels/hough_cuda.cu).
// Declared without CUDA headers for core/; builds without CUDA link
// core/src/cuda_stub.cpp instead.
#pragma once

#include <cstdint>
#include <vector>

#include "cudafilters/frame.hpp"
#include "cudafilters/hough.hpp"
#include "kernels/cuda_device.hpp"

namespace cf::cuda {
// Edge map, votes, threshold and peaks of src (host or device memory) on the
// device. Fills out.threshold, out.edge_pixels and, as `want` asks,
// out.edges / out.accumulator; the peaks come in any order.
void hough_detect(detail::CudaState *s, const HoughParams &p, const HoughGeometry &g, const std::int32_t *trig,
                  const FrameView &src, LumaSource luma, unsigned want, HoughResult &out,
                  std::vector<HoughPeak> &peaks);
}  // namespace cf::cuda
