// CUDA entries of the lossless predictors (kernels/predictor_cuda.cu).
// Declared without CUDA headers for core/; builds without CUDA link
// core/src/cuda_stub.cpp instead.
#pragma once

#include "cudafilters/frame.hpp"
#include "cudafilters/predictor.hpp"
#include "kernels/cuda_device.hpp"

namespace cf::cuda {
// Host or device frames; returns when the output holds the result.
void predictor_forward(detail::CudaState *s, const PredictorParams &p, const FrameView &raw, const FrameView &res);
void predictor_inverse(detail::CudaState *s, const PredictorParams &p, const FrameView &res, const FrameView &raw);
}  // namespace cf::cuda
