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
// One level of 2D_SR (F.3.2) is HOR_SR then VER_SR: unlift_rows (a thread
// block per row: interleave and unscale into a line of shared memory, the
// lifting steps undone one at a time, the row written to tmp), then
// unlift_columns (a thread block per column tile: interleave and unscale
// from tmp into shared memory, every lifting step undone there, the tile's
// rows written back to work).
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/shared/colour_rules.hpp"
#include "core/shared/j2k_dequant_rules.hpp"
#include "core/shared/j2k_idwt_rules.hpp"
#include "kernels/j2k_work_blocks.cuh"
#include "kernels/samples.cuh"

namespace cf::cuda::j2k_reconstruct_kernels {

using j2k_kernels::Band;
using j2k_kernels::ColumnTile;
using j2k_kernels::column_and_row;
using j2k_kernels::first_of_parity;
using j2k_kernels::item_of;
using j2k_kernels::kTileColumns;
using j2k_kernels::kTileHalo;
using j2k_kernels::kTileRows;
using j2k_kernels::kTileThreadRows;
using j2k_kernels::lifts_in_tile;
using j2k_kernels::tile_thread;
using j2k_kernels::TileColumn;
using j2k_kernels::TileThread;
using j2k_kernels::kSharedLine;
using j2k_kernels::kThreads;
using j2k_kernels::LevelArgs;
using j2k_kernels::line_in_shared_memory;
using j2k_kernels::Region;
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
};

template <class W>
__device__ __forceinline__ bool of_type(const std::uint8_t *reversible, int t) {
  return (reversible[t] != 0) == std::is_same_v<W, std::int32_t>;
}

struct DequantiseArgs {
  const std::int32_t *coefficients;
  const TileComponent *tcs;  // first_band, bands: the bands of the kept resolutions
  const Source *sources;
  const std::uint8_t *reversible;
  const Band *bands;   // x, y: in the tile-component's block; step_index: into steps
  const float *steps;  // Delta_b per band (Reconstruction::steps)
  int blocks_per_tc;
  void *work;
};

// load_row's work: each sample of the kept region from its band, the ROI
// scaling undone (H.2) and, for the 9/7, dequantised (E.1.1.1); zero where
// nothing is stored.
template <class W>
__global__ void __launch_bounds__(kThreads) dequantise(const DequantiseArgs a) {
  const int t = tile_component_of(a.blocks_per_tc);
  if (!of_type<W>(a.reversible, t)) return;
  const TileComponent tc = a.tcs[t];
  const long long i = item_of(a.blocks_per_tc);
  if (i >= (long long)tc.width * tc.height) return;
  int x, y;
  column_and_row(i, tc.width, x, y);
  const Source s = a.sources[t];
  if (s.stride == 0) {
    static_cast<W *>(a.work)[tc.offset + i] = W(0);
    return;
  }
  // The bands of the first level, three quarters of the samples, are the
  // table's last: searched first.
  for (int k = tc.bands - 1; k >= 0; --k) {
    const Band b = a.bands[tc.first_band + k];
    if (x < b.x || x >= b.x + b.width || y < b.y || y >= b.y + b.height) continue;
    const std::int32_t q = j2k::quant::roi_descale(a.coefficients[s.offset + (unsigned long long)y * s.stride + x],
                                                   s.roi_shift, s.fraction_bits);
    W *work = static_cast<W *>(a.work);
    if constexpr (std::is_same_v<W, float>)
      work[tc.offset + i] = j2k::quant::dequantise(q, a.steps[b.step_index]);
    else
      work[tc.offset + i] = q;
    return;
  }
}

// HOR_SR of one level: one thread block per row of the region, read
// deinterleaved from work, rebuilt in a line of shared memory (or, when
// longer, in its place in tmp) and left interleaved in tmp.
template <class F>
__global__ void __launch_bounds__(kThreads) unlift_rows(const LevelArgs<typename F::Sample> a) {
  using T = typename F::Sample;
  using S = j2k::dwt::Synthesis<F>;
  T *shared_line = line_in_shared_memory<T>();
  const int t = int(blockIdx.x) / a.blocks_per_tc, y = int(blockIdx.x) % a.blocks_per_tc;
  const TileComponent tc = a.tcs[t];
  const Region r = a.regions[t];
  if (y >= r.height) return;
  const int n = r.width;
  const T *source = a.work + tc.offset + (unsigned long long)y * tc.width;
  T *row = a.tmp + tc.offset + (unsigned long long)y * tc.width;
  T *line = n <= kSharedLine ? shared_line : row;
  const bool odd = (r.u0 & 1) != 0;
  if (n == 1) {
    if (threadIdx.x == 0) row[0] = S::single(source[0], odd);
    return;
  }
  // line[i] has the absolute parity (odd + i) & 1; the high-pass samples are the odd ones.
  const int first_odd = odd ? 0 : 1, first_low = 1 - first_odd, low = j2k::dwt::low_count(n, odd);
  for (int i = threadIdx.x; i < n; i += kThreads) {
    const bool high = ((i - first_low) & 1) != 0;
    line[i] = S::unscaled(source[high ? low + (i - first_odd) / 2 : (i - first_low) / 2], high);
  }
  __syncthreads();
  for (int step = F::kSteps - 1; step >= 0; --step) {
    const int first = F::on_odd(step) ? first_odd : first_low;
    for (int i = first + 2 * int(threadIdx.x); i < n; i += 2 * kThreads)
      line[i] = S::unlifted(step, line[i], j2k::dwt::left_of(line, i), j2k::dwt::right_of(line, i, n));
    __syncthreads();
  }
  if (line != row)
    for (int i = threadIdx.x; i < n; i += kThreads) row[i] = line[i];
}

// VER_SR of one level, a column tile per thread block (ColumnTile): the
// tile's rows of each column interleaved and unscaled from tmp (the
// low-pass rows first there) into shared memory, every lifting step undone
// in turn, then its own rows written to work.
template <class F>
__global__ void __launch_bounds__(kThreads) unlift_columns(const LevelArgs<typename F::Sample> a) {
  using T = typename F::Sample;
  using S = j2k::dwt::Synthesis<F>;
  __shared__ T held[(kTileRows + 2 * kTileHalo) * kTileColumns];
  TileThread th;
  if (!tile_thread(a, F::kSteps, th)) return;
  const ColumnTile &g = th.g;
  const int thread_row = th.thread_row, n = th.n, width = th.tc.width;
  const bool in = th.in, odd = th.odd;
  const T *source = a.tmp + th.tc.offset + th.x;
  T *column = a.work + th.tc.offset + th.x;
  if (n == 1) {
    if (in && thread_row == 0) column[0] = S::single(source[0], odd);
    return;
  }
  const TileColumn<T> line{held + th.lane, g.first};
  const int first_odd = odd ? 0 : 1, first_low = 1 - first_odd, low = j2k::dwt::low_count(n, odd);
  for (int y = g.first + thread_row; y < g.end; y += kTileThreadRows) {
    const bool high = ((y - first_low) & 1) != 0;
    const int row = high ? low + (y - first_odd) / 2 : (y - first_low) / 2;
    if (in) line[y] = S::unscaled(source[(unsigned long long)row * width], high);
  }
  __syncthreads();
  for (int step = F::kSteps - 1; step >= 0; --step) {
    const int from = first_of_parity(g.first, F::on_odd(step) ? first_odd : first_low);
    for (int y = from + 2 * thread_row; y < g.end; y += 2 * kTileThreadRows)
      if (in && lifts_in_tile(g, y, n))
        line[y] = S::unlifted(step, line[y], j2k::dwt::left_of(line, y), j2k::dwt::right_of(line, y, n));
    __syncthreads();
  }
  for (int y = g.y0 + thread_row; y < g.y1; y += kTileThreadRows)
    if (in) column[(unsigned long long)y * width] = line[y];
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

// store_row's work: the inverse colour transform (G.2, G.3), rounding, the
// DC level shift undone and clamping (G.1.2), into the frame.
template <class W, class S>
__global__ void __launch_bounds__(kThreads) store_samples(const StoreArgs a) {
  const int t = tile_component_of(a.blocks_per_tc);
  if (!of_type<W>(a.reversible, t)) return;
  const TileComponent tc = a.tcs[t];
  const long long i = item_of(a.blocks_per_tc);
  if (i >= (long long)tc.width * tc.height) return;
  const int c = tc.component;
  if (a.mct && (c == 1 || c == 2)) return;  // done with component 0
  const int y = int(i / tc.width), x = int(i - (long long)y * tc.width);
  const W *work = static_cast<const W *>(a.work);
  const int n = a.mct && c == 0 ? 3 : 1;
  std::int32_t v[3];
  // Components 1 and 2 of the tile follow component 0 and have its size.
  if constexpr (std::is_same_v<W, float>) {
    float s[3];
    for (int k = 0; k < n; ++k) s[k] = work[a.tcs[t + k].offset + i];
    if (n == 3) j2k::quant::ict_inverse(s);
    for (int k = 0; k < n; ++k) v[k] = j2k::quant::nearest(s[k]);
  } else {
    for (int k = 0; k < n; ++k) v[k] = work[a.tcs[t + k].offset + i];
    if (n == 3) colour::inverse(ColourTransform::Rct, v);
  }
  for (int k = 0; k < n; ++k)
    store<S>(a.planes[c + k], tc.frame_x + x, tc.frame_y + y,
             int(j2k::quant::output_sample(v[k], a.bit_depth[c + k]) << a.shift_up[c + k]));
}

}  // namespace cf::cuda::j2k_reconstruct_kernels
