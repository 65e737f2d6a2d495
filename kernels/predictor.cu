// CUDA backend of the lossless predictors: stages host frames, then one
// launch for the forward and one persistent launch for the inverse (see
// predictor_kernels.cuh), on the engine's stream, with no host wait until
// the result is in place.
//
// With CF_CUDA_EMULATION defined this compiles as plain C++ for the CPU
// emulation in tests/cuda/emulation, like wavelet.cu.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cuda_bridge.hpp"
#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/launch.cuh"
#include "kernels/predictor_kernels.cuh"

namespace cf::cuda {

namespace {

using detail::CudaState;
using detail::Slot;

// Calls f(TRaw{}, TRes{}) for the supported pairs (predictor_check): U8 -> S16,
// U16 -> S32, S16 -> S32, and S16 -> S16 for inputs in a narrow range.
template <class F>
void with_types(SampleType raw, SampleType res, F &&f) {
  switch (raw) {
    case SampleType::U8: return f(std::uint8_t{}, std::int16_t{});
    case SampleType::U16: return f(std::uint16_t{}, std::int32_t{});
    case SampleType::S16:
      if (res == SampleType::S16) return f(std::int16_t{}, std::int16_t{});
      return f(std::int16_t{}, std::int32_t{});
    default: throw Error(std::string("predictors do not take ") + sample_type_name(raw) + " samples");
  }
}

void forward(CudaState *s, const PredictorParams &pp, const FrameView &raw, const FrameView &res) {
  using Shape = PredictForwardShape;
  PredictForwardParams p{};
  p.n = raw.n_components;
  p.slice_height = pp.slice_height;
  p.threshold = pp.threshold;
  p.range = predict::range_of(raw.type);
  long long tiles = 0;
  for (int c = 0; c < p.n; ++c) {
    PredictForwardComp &k = p.comp[c];
    k.in = plane_ref(raw, c);
    k.out = plane_ref(res, c);
    k.w = raw.components[c].width;
    k.h = raw.components[c].height;
    k.tiles_x = (k.w + Shape::kTileW - 1) / Shape::kTileW;
    k.first_tile = int(tiles);
    tiles += (long long)k.tiles_x * ((k.h + Shape::kTileH - 1) / Shape::kTileH);
    if (tiles > 0x7fffffffLL) throw Error("predictor forward: frame too large");
  }
  with_types(raw.type, res.type, [&](auto traw, auto tres) {
    using TRaw = decltype(traw);
    using TRes = decltype(tres);
    void (*kernel)(PredictForwardParams) = pp.predictor == Predictor::Med   ? predict_forward<Predictor::Med, TRaw, TRes>
                                           : pp.predictor == Predictor::Gap ? predict_forward<Predictor::Gap, TRaw, TRes>
                                                                            : predict_forward<Predictor::Ged, TRaw, TRes>;
    launch_kernel(s, kernel, int(tiles), Shape::kThreads, p, "the predictor forward kernel");
  });
}

void inverse(CudaState *s, const PredictorParams &pp, const FrameView &res, const FrameView &raw) {
  using Shape = PredictInverseShape;
  PredictInverseParams p{};
  p.n = raw.n_components;
  p.slice_height = pp.slice_height;
  p.threshold = pp.threshold;
  p.range = predict::range_of(raw.type);
  // Workspace: ticket, per-band progress, then per component its edge rows.
  std::size_t edge_offset[kMaxPlanes], edge_ints = 0;
  int bands = 0;
  for (int c = 0; c < p.n; ++c) {
    const int w = raw.components[c].width, h = raw.components[c].height;
    PredictInverseComp &k = p.comp[c];
    k.res = plane_ref(res, c);
    k.out = plane_ref(raw, c);
    k.w = w;
    k.h = h;
    k.bands = (h + Shape::kBand - 1) / Shape::kBand;
    k.first_band = bands;
    bands += k.bands;
    edge_offset[c] = edge_ints;
    edge_ints += std::size_t(k.bands) * 2 * w;
  }
  p.total_bands = bands;
  const std::size_t control_bytes = detail::align_up(sizeof(int) * (1 + std::size_t(bands)));
  auto *base = static_cast<unsigned char *>(s->reserve(Slot::Scratch, control_bytes + sizeof(int) * edge_ints));
  p.ticket = reinterpret_cast<int *>(base);
  p.progress = p.ticket + 1;
  for (int c = 0; c < p.n; ++c) p.comp[c].edge = reinterpret_cast<int *>(base + control_bytes) + edge_offset[c];
  detail::check(cudaMemsetAsync(base, 0, control_bytes, s->stream), "clearing the predictor inverse's counters");

  with_types(raw.type, res.type, [&](auto traw, auto tres) {
    using TRaw = decltype(traw);
    using TRes = decltype(tres);
    void (*kernel)(PredictInverseParams) = pp.predictor == Predictor::Med   ? predict_inverse<Predictor::Med, TRes, TRaw>
                                           : pp.predictor == Predictor::Gap ? predict_inverse<Predictor::Gap, TRes, TRaw>
                                                                            : predict_inverse<Predictor::Ged, TRes, TRaw>;
    // A warp per band; more bands than resident warps are fine (tickets).
    const int blocks = (bands + Shape::kWarps - 1) / Shape::kWarps;
    launch_kernel(s, kernel, blocks, Shape::kThreads, p, "the predictor inverse kernel");
  });
}

void check_pair(const FrameView &a, const FrameView &b) {
  if (a.n_components > kMaxPlanes || a.n_components != b.n_components)
    throw Error("raw and residual component counts differ");
}

}  // namespace

void predictor_forward(detail::CudaState *s, const PredictorParams &p, const FrameView &raw, const FrameView &res) {
  check_pair(raw, res);
  detail::DeviceScope scope(s);
  const FrameView in = detail::stage_source(s, raw, Slot::Source);
  const FrameView out = detail::stage_destination(s, res, Slot::Destination);
  forward(s, p, in, out);
  detail::finish_destination(s, res, out);
}

void predictor_inverse(detail::CudaState *s, const PredictorParams &p, const FrameView &res, const FrameView &raw) {
  check_pair(raw, res);
  detail::DeviceScope scope(s);
  const FrameView in = detail::stage_source(s, res, Slot::Source);
  const FrameView out = detail::stage_destination(s, raw, Slot::Destination);
  inverse(s, p, in, out);
  detail::finish_destination(s, raw, out);
}

}  // namespace cf::cuda
