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

#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/launch.cuh"
#include "kernels/predictor_cuda.hpp"
#include "kernels/predictor_forward_pairs.cuh"
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

bool aligned(const void *p, long long stride, int bytes) {
  return reinterpret_cast<std::uintptr_t>(p) % bytes == 0 && stride % bytes == 0;
}

// The pair kernels address a plane with 32-bit offsets (PredictForwardU8Plane).
bool int_offsets(long long stride, int h) { return stride > 0 && stride * h < (1LL << 31); }

// The pair kernels (predictor_forward_pairs.cuh) of predictor pr.
void (*planar_pairs_kernel(Predictor pr))(PredictForwardU8Params) {
  return pr == Predictor::Med   ? predict_forward_planar_pairs<Predictor::Med>
         : pr == Predictor::Gap ? predict_forward_planar_pairs<Predictor::Gap>
                                : predict_forward_planar_pairs<Predictor::Ged>;
}
void (*pixel_pairs_kernel(Predictor pr))(PredictForwardU8Params) {
  return pr == Predictor::Med   ? predict_forward_pairs<Predictor::Med>
         : pr == Predictor::Gap ? predict_forward_pairs<Predictor::Gap>
                                : predict_forward_pairs<Predictor::Ged>;
}

// U8 -> S16 on aligned planes (predictor_forward_pairs.cuh): planar
// components (8-byte rows in, 16-byte rows out), or 3 or 4 components
// interleaved in 4-byte pixels (8 in, 4 out). False when the frame is neither.
bool forward_u8(CudaState *s, const PredictorParams &pp, const FrameView &raw, const FrameView &res) {
  if (raw.type != SampleType::U8 || res.type != SampleType::S16) return false;
  using Planar = PredictForwardPlanarPairsShape;
  using Pixels = PredictForwardPairsShape;
  PredictForwardU8Params p{};
  p.slice_height = pp.slice_height;
  p.threshold = pp.threshold;
  p.range = predict::range_of(raw.type);
  long long tiles = 0;
  auto add_plane = [&](PredictForwardU8Plane &k, int w, int h, int tile_w, int tile_h) {
    k.w = w;
    k.h = h;
    k.tiles_x = (w + tile_w - 1) / tile_w;
    k.first_tile = int(tiles);
    tiles += (long long)k.tiles_x * ((h + tile_h - 1) / tile_h);
  };
  bool planar = true;
  for (int c = 0; c < raw.n_components; ++c) {
    const PlaneRef in = plane_ref(raw, c), out = plane_ref(res, c);
    const int h = raw.components[c].height;
    planar = planar && in.step == 1 && out.step == 1 && aligned(in.base, in.stride, 8) &&
             aligned(out.base, out.stride, 16) && int_offsets(in.stride, h) && int_offsets(out.stride, h);
  }
  if (planar) {
    p.n = raw.n_components;
    for (int c = 0; c < p.n; ++c) {
      PredictForwardU8Plane &k = p.plane[c];
      const PlaneRef in = plane_ref(raw, c), out = plane_ref(res, c);
      k.in = in.base;
      k.in_stride = int(in.stride);
      k.out[0] = out.base;
      k.out_stride[0] = int(out.stride);
      add_plane(k, raw.components[c].width, raw.components[c].height, Planar::kTileW, Planar::kTileH);
    }
    if (tiles > 0x7fffffffLL) return false;
    launch_kernel(s, planar_pairs_kernel(pp.predictor), tiles, Planar::kThreads, p, "the predictor forward kernel");
    return true;
  }
  // Interleaved: every component in one memory plane, 4-byte pixels, full size.
  const int n = raw.n_components;
  if (n < 3 || n > 4) return false;
  const PlaneRef in0 = plane_ref(raw, 0);
  const unsigned char *pixel = in0.base;
  for (int c = 0; c < n; ++c) pixel = std::min<const unsigned char *>(pixel, plane_ref(raw, c).base);
  PredictForwardU8Plane &k = p.plane[0];
  for (int c = 0; c < n; ++c) {
    const PlaneRef in = plane_ref(raw, c), out = plane_ref(res, c);
    const long long b = in.base - pixel;
    if (raw.components[c].plane != raw.components[0].plane || in.step != 4 || b > 3 || k.out[b] ||
        raw.components[c].width != raw.components[0].width || raw.components[c].height != raw.components[0].height ||
        out.step != 1 || !aligned(out.base, out.stride, 4) || !int_offsets(out.stride, raw.components[c].height))
      return false;
    k.out[b] = out.base;
    k.out_stride[b] = int(out.stride);
  }
  if (!aligned(pixel, in0.stride, 8) || !int_offsets(in0.stride, raw.components[0].height)) return false;
  k.in = pixel;
  k.in_stride = int(in0.stride);
  p.n = 1;
  add_plane(k, raw.components[0].width, raw.components[0].height, Pixels::kTileW, Pixels::kTileH);
  if (tiles > 0x7fffffffLL) return false;
  launch_kernel(s, pixel_pairs_kernel(pp.predictor), tiles, Pixels::kThreads, p, "the predictor forward kernel");
  return true;
}

void forward(CudaState *s, const PredictorParams &pp, const FrameView &raw, const FrameView &res) {
  if (forward_u8(s, pp, raw, res)) return;
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
    void (*kernel)(PredictForwardParams) = pp.predictor == Predictor::Med ? predict_forward<Predictor::Med, TRaw, TRes>
                                           : pp.predictor == Predictor::Gap
                                               ? predict_forward<Predictor::Gap, TRaw, TRes>
                                               : predict_forward<Predictor::Ged, TRaw, TRes>;
    launch_kernel(s, kernel, int(tiles), Shape::kThreads, p, "the predictor forward kernel");
  });
}

template <class TRes, class TRaw>
void (*inverse_kernel(Predictor pr))(PredictInverseParams) {
  constexpr int kChunk = 32;  // steps per tile exchange (16: per-chunk costs show; 64: registers spill)
  return pr == Predictor::Med   ? predict_inverse<Predictor::Med, TRes, TRaw, kChunk>
         : pr == Predictor::Gap ? predict_inverse<Predictor::Gap, TRes, TRaw, kChunk>
                                : predict_inverse<Predictor::Ged, TRes, TRaw, kChunk>;
}

void inverse(CudaState *s, const PredictorParams &pp, const FrameView &res, const FrameView &raw) {
  using Shape = PredictInverseShape;
  PredictInverseParams p{};
  p.n = raw.n_components;
  p.slice_height = pp.slice_height;
  p.threshold = pp.threshold;
  p.range = predict::range_of(raw.type);
  // Workspace: the ticket, then per component its edge rows; all zero (not
  // written) before the launch.
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
  const std::size_t control_bytes = detail::align_up(sizeof(int)), bytes = control_bytes + sizeof(int) * edge_ints;
  auto *base = static_cast<unsigned char *>(s->reserve(Slot::Scratch, bytes));
  p.ticket = reinterpret_cast<int *>(base);
  for (int c = 0; c < p.n; ++c) p.comp[c].edge = reinterpret_cast<int *>(base + control_bytes) + edge_offset[c];
  detail::check(cudaMemsetAsync(base, 0, bytes, s->stream), "clearing the predictor inverse's workspace");

  with_types(raw.type, res.type, [&](auto traw, auto tres) {
    using TRaw = decltype(traw);
    using TRes = decltype(tres);
    void (*kernel)(PredictInverseParams) = inverse_kernel<TRes, TRaw>(pp.predictor);
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
