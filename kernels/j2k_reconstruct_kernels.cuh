// Device code of the JPEG 2000 decoder's reconstruction on CUDA
// (kernels/j2k_reconstruct_cuda.cu): the steps of
// cpu/j2k_reconstruct_stages.hpp spread over threads. Each sample and each
// line gets the operations of the shared rules (j2k_dequant_rules.hpp,
// j2k_idwt_rules.hpp, colour_rules.hpp), so the bits are the serial
// reference's whatever the schedule.
//
// The work blocks of every tile-component of the frame lie in one buffer
// (int32 for the 5/3, float for the 9/7; both 4 bytes), each the region of
// the kept resolution with rows of its width: TileComponent::offset, width
// and height describe it, frame_x and frame_y place it in the reduced
// component. A kernel of one sample type skips the tile-components of the
// other (their regions are empty, or `reversible` says so). Thread blocks
// are shared over the tile-components as j2k_work_blocks.cuh says.
//
// One level of 2D_SR (F.3.2), HOR_SR then VER_SR, is one launch of
// wavelet_level_inverse, a thread block per tile of the rebuilt region
// (LevelTile, j2k_work_blocks.cuh); its deepest level reads the
// coefficients, ROI scaling undone and dequantised as it loads them.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/shared/colour_rules.hpp"
#include "core/shared/j2k_dequant_rules.hpp"
#include "core/shared/j2k_idwt_rules.hpp"
#include "kernels/j2k_work_blocks.cuh"
#include "kernels/samples.cuh"
#include "kernels/symmetric_extension.cuh"
#include "kernels/unroll.cuh"

namespace cf::cuda::j2k_reconstruct_kernels {

using j2k_kernels::Band;
using j2k_kernels::column_and_row;
using j2k_kernels::column_step;
using j2k_kernels::HeldTile;
using j2k_kernels::item_of;
using j2k_kernels::kLevelBlocksPerSm;
using j2k_kernels::kLevelHeld;
using j2k_kernels::kLevelRows;
using j2k_kernels::kThreads;
using j2k_kernels::level_block;
using j2k_kernels::LevelBlock;
using j2k_kernels::LevelTile;
using j2k_kernels::Region;
using j2k_kernels::row_step;
using j2k_kernels::tile_component_of;
using j2k_kernels::TileComponent;

// Where tier-1 left a tile-component's coefficients (its block in the
// frame's coefficient array) and how they are scaled back; stride 0: none
// stored, every coefficient zero.
struct Source {
  unsigned long long offset;
  int stride;
  std::uint32_t roi_shift;      // RGN's SPrgn, 0: none
  std::uint32_t fraction_bits;  // of the 9/7 indices (j2k_dequant_rules.hpp)
  int levels;                   // wavelet levels the frame rebuilds (0: dequantise loads it whole)
};

// The step of subband `band` of tile-component tc (the 9/7's; 0 for the
// 5/3, which has none).
template <class W>
__device__ __forceinline__ float band_step(const TileComponent &tc, int band, const Band *bands, const float *steps) {
  if constexpr (std::is_same_v<W, float>)
    return steps[bands[tc.first_band + band].step_index];
  else
    return 0.0f;
}

// Coefficient (x, y) of the tile-component's block, of a band with the
// step `step`: the ROI scaling undone (H.2) and, for the 9/7, dequantised
// (E.1.1.1); zero where nothing is stored.
template <class W>
__device__ __forceinline__ W coefficient(const std::int32_t *coefficients, const Source &s, int x, int y, float step) {
  if (s.stride == 0) return W(0);
  const std::int32_t q = j2k::quant::roi_descale(coefficients[s.offset + (unsigned long long)y * s.stride + x],
                                                 s.roi_shift, s.fraction_bits);
  if constexpr (std::is_same_v<W, float>)
    return j2k::quant::dequantise(q, step);
  else
    return q;
}

template <class W>
__device__ __forceinline__ bool of_type(const std::uint8_t *reversible, int t) {
  return (reversible[t] != 0) == std::is_same_v<W, std::int32_t>;
}

struct DequantiseArgs {
  const std::int32_t *coefficients;
  const TileComponent *tcs;  // first_band, bands: the bands of the kept resolutions
  const Source *sources;
  const std::uint8_t *reversible;
  const Band *bands;   // step_index: into steps
  const float *steps;  // Delta_b per band (Reconstruction::steps)
  int blocks_per_tc;
  void *work;
};

// The tile-components the wavelet levels do not rebuild (Source::levels
// 0): each sample of the kept region from its band (coefficient()).
template <class W>
__global__ void __launch_bounds__(kThreads) dequantise(const DequantiseArgs a) {
  const int t = tile_component_of(a.blocks_per_tc);
  if (!of_type<W>(a.reversible, t)) return;
  const Source s = a.sources[t];
  if (s.levels > 0) return;
  const TileComponent tc = a.tcs[t];
  const long long i = item_of(a.blocks_per_tc);
  if (i >= (long long)tc.width * tc.height) return;
  int x, y;
  column_and_row(i, tc.width, x, y);
  W *work = static_cast<W *>(a.work);
  // Without levels the kept region is the one band LL (band 0).
  work[tc.offset + i] = coefficient<W>(a.coefficients, s, x, y, band_step<W>(tc, 0, a.bands, a.steps));
}

template <class T>
struct InverseLevelArgs {
  const TileComponent *tcs;  // first_band, bands: the bands of the kept resolutions
  const Source *sources;
  const Band *bands;
  const float *steps;
  const Region *regions;  // this level's, per tile-component (empty: not rebuilt here)
  int blocks_per_tc;
  int level;   // 1 the finest
  int reduce;  // levels left out: level reduce + 1 is the last rebuilt
  const std::int32_t *coefficients;
  const T *low_in;  // the LL of the levels below a tile-component's deepest: level + 1's result
  T *out;           // this level's result, at each block's top-left (rows of TileComponent::width)
};

// One level of 2D_SR: the held samples read interleaved (2D_INTERLEAVE)
// from the deinterleaved block: LL from the level below's result, or from
// the coefficients at a tile-component's deepest level, the high-pass
// bands from the coefficients; every held row unscaled and its lifting
// undone (HOR_SR), then the tile's own columns (VER_SR), as the reference
// does; the tile's own samples written to `out`.
template <class F>
__global__ void __launch_bounds__(kThreads, kLevelBlocksPerSm)
    wavelet_level_inverse(const InverseLevelArgs<typename F::Sample> a) {
  using T = typename F::Sample;
  using S = j2k::dwt::Synthesis<F>;
  constexpr int halo = F::kSteps;
  __shared__ T held_samples[kLevelHeld][kLevelHeld];
  const HeldTile<T> held = held_samples;
  LevelBlock b;
  if (!level_block<halo>(a.tcs, a.regions, a.blocks_per_tc, b)) return;
  const TileComponent &tc = b.tc;
  const Region &r = b.r;
  const LevelTile &g = b.g;
  const Source s = a.sources[b.t];
  const bool deepest = a.level == a.reduce + s.levels;
  const int band = 1 + 3 * (a.reduce + s.levels - a.level);  // this level's HL: subbands_in_order()
  const int lane = int(threadIdx.x) % 32, row0 = int(threadIdx.x) / 32;
  const bool odd_x = (r.u0 & 1) != 0, odd_y = (r.v0 & 1) != 0;
  const int first_odd_x = odd_x ? 0 : 1, first_odd_y = odd_y ? 0 : 1;  // region lines of odd absolute index
  const int low_w = j2k::dwt::low_count(r.width, odd_x), low_h = j2k::dwt::low_count(r.height, odd_y);
  const unsigned long long stride = (unsigned long long)tc.width;
  // Scalars, not an array: indexed by a runtime value, an array goes to local memory.
  const float ll = deepest ? band_step<T>(tc, 0, a.bands, a.steps) : 0.0f;
  const float hl = band_step<T>(tc, band, a.bands, a.steps), lh = band_step<T>(tc, band + 1, a.bands, a.steps);
  const float hh = band_step<T>(tc, band + 2, a.bands, a.steps);
  for (int ly = row0; ly < g.held_h; ly += kLevelRows) {
    const int y = mirror(g.y0 - halo + ly, r.height);
    const bool high_y = ((y + first_odd_y) & 1) == 0;
    const int row = high_y ? low_h + (y - first_odd_y) / 2 : (y - 1 + first_odd_y) / 2;
    for (int lx = lane; lx < g.held_w; lx += 32) {
      const int x = mirror(g.x0 - halo + lx, r.width);
      const bool high_x = ((x + first_odd_x) & 1) == 0;
      const int column = high_x ? low_w + (x - first_odd_x) / 2 : (x - 1 + first_odd_x) / 2;
      const T v = high_x || high_y || deepest
                      ? coefficient<T>(a.coefficients, s, column, row, high_x ? (high_y ? hh : hl) : (high_y ? lh : ll))
                      : a.low_in[tc.offset + row * stride + column];
      held[ly][lx] = r.width >= 2 ? S::unscaled(v, high_x) : S::single(v, odd_x);
    }
  }
  __syncthreads();
  for (int step = F::kSteps - 1; step >= 0 && r.width >= 2; --step)
    row_step(held, F::on_odd(step) ? first_odd_x : 1 - first_odd_x, 0, g.held_h, g.held_w,
             [step](T x, T left, T right) { return S::unlifted(step, x, left, right); });
  for (int ly = row0; ly < g.held_h; ly += kLevelRows) {
    const bool high = ((ly + first_odd_y) & 1) == 0;
    for (int lx = halo + lane; lx < halo + g.own_w; lx += 32)
      held[ly][lx] = r.height >= 2 ? S::unscaled(held[ly][lx], high) : S::single(held[ly][lx], odd_y);
  }
  __syncthreads();
  for (int step = F::kSteps - 1; step >= 0 && r.height >= 2; --step)
    column_step(held, F::on_odd(step) ? first_odd_y : 1 - first_odd_y, g.held_h, halo, halo + g.own_w,
                [step](T x, T left, T right) { return S::unlifted(step, x, left, right); });
  for (int i = row0; i < g.own_h; i += kLevelRows)
    for (int j = lane; j < g.own_w; j += 32)
      a.out[tc.offset + (unsigned long long)(g.y0 + i) * stride + g.x0 + j] = held[halo + i][halo + j];
}

struct StoreArgs {
  const TileComponent *tcs;
  const std::uint8_t *reversible;
  PlaneRef planes[kMaxPlanes];  // component c of the (device) frame
  int bit_depth[kMaxPlanes];
  int shift_up[kMaxPlanes];
  bool mct;  // components 0..2 through the inverse RCT or ICT (one thread does all three)
  int blocks_per_tc;
  const void *work;
};

// Samples a thread of store_samples stores, kThreads apart: fewer thread
// blocks (those of components 1 and 2 under a colour transform do
// nothing) and each thread's table reads shared by its samples.
constexpr int kStoreItems = 4;

// store_row's work: the inverse colour transform (G.2, G.3), rounding, the
// DC level shift undone and clamping (G.1.2), into the frame.
template <class W, class S>
__global__ void __launch_bounds__(kThreads) store_samples(const StoreArgs a) {
  const int t = tile_component_of(a.blocks_per_tc);
  if (!of_type<W>(a.reversible, t)) return;
  const TileComponent tc = a.tcs[t];
  const int c = tc.component;
  if (a.mct && (c == 1 || c == 2)) return;  // done with component 0
  const int n = a.mct && c == 0 ? 3 : 1;
  // Components 1 and 2 of the tile follow component 0 and have its size.
  const W *work = static_cast<const W *>(a.work);
  const W *from[3] = {work + tc.offset, work + (n == 3 ? a.tcs[t + 1].offset : 0),
                      work + (n == 3 ? a.tcs[t + 2].offset : 0)};
  const long long items = (long long)tc.width * tc.height;
  const long long first = (long long)(int(blockIdx.x) % a.blocks_per_tc) * kThreads * kStoreItems + threadIdx.x;
  for (int k = 0; k < kStoreItems; ++k) {
    const long long i = first + (long long)k * kThreads;
    if (i >= items) return;
    int x, y;
    column_and_row(i, tc.width, x, y);
    // Loops over the three components unrolled, so that the arrays stay
    // in registers.
    std::int32_t v[3] = {0, 0, 0};
    if constexpr (std::is_same_v<W, float>) {
      float s[3] = {0, 0, 0};
      CF_UNROLL
      for (int m = 0; m < 3; ++m)
        if (m < n) s[m] = from[m][i];
      if (n == 3) j2k::quant::ict_inverse(s);
      CF_UNROLL
      for (int m = 0; m < 3; ++m) v[m] = j2k::quant::nearest(s[m]);
    } else {
      CF_UNROLL
      for (int m = 0; m < 3; ++m)
        if (m < n) v[m] = from[m][i];
      if (n == 3) colour::inverse(ColourTransform::Rct, v);
    }
    CF_UNROLL
    for (int m = 0; m < 3; ++m)
      if (m < n)
        store<S>(a.planes[c + m], tc.frame_x + x, tc.frame_y + y,
                 int(j2k::quant::output_sample(v[m], a.bit_depth[c + m]) << a.shift_up[c + m]));
  }
}

}  // namespace cf::cuda::j2k_reconstruct_kernels
