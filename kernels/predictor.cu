// placeholder, replaced below
#include "cuda_bridge.hpp"
#include "cudafilters/error.hpp"
namespace cf::cuda {
void predictor_forward(detail::CudaState *, const PredictorParams &, const FrameView &, const FrameView &) {
  throw Error("not yet");
}
void predictor_inverse(detail::CudaState *, const PredictorParams &, const FrameView &, const FrameView &) {
  throw Error("not yet");
}
}  // namespace cf::cuda
