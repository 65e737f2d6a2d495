// Linked instead of kernels/ when the build has no CUDA.
#include "cudafilters/error.hpp"
#include "kernels/cdf97_cuda.hpp"
#include "kernels/colour_cuda.hpp"
#include "kernels/cuda_device.hpp"
#include "kernels/dct_cuda.hpp"
#include "kernels/entropy_cuda.hpp"
#include "kernels/halftone_cuda.hpp"
#include "kernels/hough_cuda.hpp"
#include "kernels/hough_draw_cuda.hpp"
#include "kernels/j2k_encode_cuda.hpp"
#include "kernels/j2k_tier1_decode_cuda.hpp"
#include "kernels/predictor_cuda.hpp"
#include "kernels/wavelet_cuda.hpp"

namespace cf {
namespace {
[[noreturn]] void no_cuda() { throw Error("this build of cudafilters has no CUDA backend"); }
}  // namespace
}  // namespace cf

namespace cf::detail {
struct CudaState {};
bool cuda_usable(int, std::string *why) {
  if (why) *why = "this build of cudafilters has no CUDA backend";
  return false;
}
CudaState *cuda_create(int) { no_cuda(); }
void cuda_destroy(CudaState *) {}
void cuda_synchronize(CudaState *) {}
void cuda_use_legacy_stream(CudaState *, bool) {}
std::string cuda_device_name(const CudaState *) { return "none"; }
void *pinned_alloc(std::size_t, int) { return nullptr; }
void pinned_free(void *) {}
bool memory_info(int, std::size_t *, std::size_t *) { return false; }
void *device_alloc(CudaState *, std::size_t) { no_cuda(); }
void device_free(CudaState *, void *) {}
void *workspace(CudaState *, std::size_t) { no_cuda(); }
long long workspace_allocations(const CudaState *) { return 0; }
void copy(CudaState *, void *, const void *, std::size_t, CopyKind) { no_cuda(); }
void zero_async(CudaState *, void *, std::size_t, std::size_t, std::size_t) { no_cuda(); }
}  // namespace cf::detail

namespace cf::cuda {
void wavelet_forward(detail::CudaState *, const WaveletParams &, const FrameView &, const FrameView &) { no_cuda(); }
void wavelet_inverse(detail::CudaState *, const WaveletParams &, const FrameView &, const FrameView &) { no_cuda(); }
void cdf97_forward(detail::CudaState *, const Cdf97Params &, const FrameView &, const FrameView &) { no_cuda(); }
void cdf97_inverse(detail::CudaState *, const Cdf97Params &, const FrameView &, const FrameView &) { no_cuda(); }
void predictor_forward(detail::CudaState *, const PredictorParams &, const FrameView &, const FrameView &) {
  no_cuda();
}
void predictor_inverse(detail::CudaState *, const PredictorParams &, const FrameView &, const FrameView &) {
  no_cuda();
}
void hough_detect(detail::CudaState *, const HoughParams &, const HoughGeometry &, const std::int32_t *,
                  const FrameView &, LumaSource, unsigned, HoughResult &, std::vector<HoughPeak> &) {
  no_cuda();
}
void hough_draw(detail::CudaState *, const std::vector<HoughLine> &, const HoughDrawParams &, const FrameView &,
                const FrameView &) {
  no_cuda();
}
void halftone(detail::CudaState *, const halftone_rules::Setup &, const FrameView &, const FrameView &) { no_cuda(); }
void colour_transform(detail::CudaState *, bool, ColourTransform, const FrameView &, const FrameView &) { no_cuda(); }
void histograms(detail::CudaState *, const FrameView &, const HistogramShape &, std::uint32_t *) { no_cuda(); }
void dct_transform(detail::CudaState *, bool, const dct::Setup &, const FrameView &, const FrameView &) { no_cuda(); }
struct J2kPlan {};
void J2kPlanDeleter::operator()(J2kPlan *p) const { delete p; }
void j2k_transform(detail::CudaState *, J2kPlanPtr &, const J2kInput &, const j2k::Layout &,
                   const std::vector<float> &) {
  no_cuda();
}
void j2k_estimate_planes(detail::CudaState *, J2kPlan &, unsigned, j2k::CodedBlocks &) { no_cuda(); }
void j2k_code_blocks(detail::CudaState *, J2kPlan &, unsigned, std::int32_t *, j2k::CodedBlocks &) { no_cuda(); }
std::string j2k_decode_blocks(detail::CudaState *, const j2k::TilePlan &, const j2k::TileCodewords &,
                              const std::vector<j2k::BandDecoding> &, std::int32_t *) {
  no_cuda();
}
std::string j2k_decode_blocks_to_host(detail::CudaState *, const j2k::TilePlan &, const j2k::TileCodewords &,
                                      const std::vector<j2k::BandDecoding> &, std::int32_t *) {
  no_cuda();
}
std::vector<std::string> j2k_decode_tiles(detail::CudaState *, const std::vector<J2kTileBlocks> &, std::int32_t *,
                                          std::size_t) {
  no_cuda();
}
std::int32_t *j2k_frame_coefficients(detail::CudaState *, std::size_t) { no_cuda(); }
void j2k_reconstruct(detail::CudaState *, const j2k::Layout &, const std::int32_t *, const j2k::Reconstruction &,
                     const FrameView &) {
  no_cuda();
}
}  // namespace cf::cuda
