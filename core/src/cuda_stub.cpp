// Linked instead of kernels/ when the build has no CUDA.
#include "cuda_bridge.hpp"
#include "cudafilters/error.hpp"

namespace cf::detail {
struct CudaState {};
bool cuda_usable(int, std::string *why) {
  if (why) *why = "this build of cudafilters has no CUDA backend";
  return false;
}
CudaState *cuda_create(int) { throw Error("this build of cudafilters has no CUDA backend"); }
void cuda_destroy(CudaState *) {}
void cuda_synchronize(CudaState *) {}
void cuda_use_legacy_stream(CudaState *, bool) {}
std::string cuda_device_name(const CudaState *) { return "none"; }
void *pinned_alloc(std::size_t, int) { return nullptr; }
void pinned_free(void *) {}
bool memory_info(int, std::size_t *, std::size_t *) { return false; }
void *device_alloc(CudaState *, std::size_t) { throw Error("this build of cudafilters has no CUDA backend"); }
void device_free(CudaState *, void *) {}
void *workspace(CudaState *, std::size_t) { throw Error("this build of cudafilters has no CUDA backend"); }
long long workspace_allocations(const CudaState *) { return 0; }
void copy(CudaState *, void *, const void *, std::size_t, CopyKind) {
  throw Error("this build of cudafilters has no CUDA backend");
}
void zero_async(CudaState *, void *, std::size_t, std::size_t, std::size_t) {
  throw Error("this build of cudafilters has no CUDA backend");
}
}  // namespace cf::detail

namespace cf::cuda {
void wavelet_forward(detail::CudaState *, const WaveletParams &, const FrameView &, const FrameView &) {
  throw Error("this build of cudafilters has no CUDA backend");
}
void wavelet_inverse(detail::CudaState *, const WaveletParams &, const FrameView &, const FrameView &) {
  throw Error("this build of cudafilters has no CUDA backend");
}
void cdf97_forward(detail::CudaState *, const Cdf97Params &, const FrameView &, const FrameView &) {
  throw Error("this build of cudafilters has no CUDA backend");
}
void cdf97_inverse(detail::CudaState *, const Cdf97Params &, const FrameView &, const FrameView &) {
  throw Error("this build of cudafilters has no CUDA backend");
}
void predictor_forward(detail::CudaState *, const PredictorParams &, const FrameView &, const FrameView &) {
  throw Error("this build of cudafilters has no CUDA backend");
}
void predictor_inverse(detail::CudaState *, const PredictorParams &, const FrameView &, const FrameView &) {
  throw Error("this build of cudafilters has no CUDA backend");
}
void hough_detect(detail::CudaState *, const HoughParams &, const HoughGeometry &, const std::int32_t *,
                  const FrameView &, LumaSource, unsigned, HoughResult &, std::vector<HoughPeak> &) {
  throw Error("this build of cudafilters has no CUDA backend");
}
void hough_draw(detail::CudaState *, const std::vector<HoughLine> &, const HoughDrawParams &, const FrameView &,
                const FrameView &) {
  throw Error("this build of cudafilters has no CUDA backend");
}
void halftone(detail::CudaState *, const halftone_rules::Setup &, const FrameView &, const FrameView &) {
  throw Error("this build of cudafilters has no CUDA backend");
}
void colour_transform(detail::CudaState *, bool, ColourTransform, const FrameView &, const FrameView &) {
  throw Error("this build of cudafilters has no CUDA backend");
}
void histograms(detail::CudaState *, const FrameView &, const HistogramShape &, std::uint32_t *) {
  throw Error("this build of cudafilters has no CUDA backend");
}
void dct_transform(detail::CudaState *, bool, const dct::Setup &, const FrameView &, const FrameView &) {
  throw Error("this build of cudafilters has no CUDA backend");
}
}  // namespace cf::cuda
