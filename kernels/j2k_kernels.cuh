// Device code of the JPEG 2000 encoder's CUDA backend (kernels/j2k_cuda.cu):
// the transform stage (load with DC shift and colour transform, the wavelet
// levels, quantisation) into the coefficient array of core/codec/j2k_layout.hpp,
// and the packing of the codewords back to back (tier-1 is in
// kernels/j2k_tier1_kernels.cuh). Each sample and each line gets the
// operations of the shared rules (j2k_quant_rules.hpp, j2k_dwt_rules.hpp,
// colour_rules.hpp, j2k_block_coder_rules.hpp), so the bits are the serial
// reference's whatever the schedule. Kernels over every tile-component of
// a frame share their thread blocks as j2k_work_blocks.cuh says.
#pragma once

#include <cstdint>
#include <type_traits>

#include "kernels/j2k_work_blocks.cuh"
#include "kernels/samples.cuh"
#include "kernels/warp_lanes.cuh"

#include "core/shared/colour_rules.hpp"
#include "core/shared/j2k_block_coder_rules.hpp"  // BlockResult of the packing
#include "core/shared/j2k_dwt_rules.hpp"
#include "core/shared/j2k_quant_rules.hpp"

namespace cf::cuda::j2k_kernels {

constexpr int kScanThreads = 256;  // the one block of the codeword offsets' prefix sum
constexpr int kGatherThreads = 128;

// A code-block in the order the tier-1 kernel takes them (largest first).
struct Block {
  unsigned long long coefficient;  // its top-left sample in the coefficient array
  unsigned long long slot;         // its slot in the codeword buffer
  int stride, width, height;
  int orientation;  // t1::Orientation
  int capacity;     // bytes of the slot
  int index;        // in Layout::blocks
};

// What a thread coding block k whole passes the block coder (Part 1's
// encode_block or HT's encode_ht_block): its samples, and its slot, work
// area (that of list entry t) and pass arrays.
__device__ inline j2k::t1::BlockInput whole_block_input(const std::int32_t *coefficients, const Block &k,
                                                        unsigned style) {
  namespace t1 = j2k::t1;
  return {coefficients + k.coefficient,   k.width,           k.height, k.stride,
          t1::Orientation(k.orientation), t1::kMaxBitplanes, style};
}
__device__ inline j2k::t1::BlockOutput whole_block_output(const Block &k, int t, std::uint8_t *slots,
                                                          std::uint8_t *work, int work_bytes, int *pass_lengths,
                                                          std::int64_t *distortion, int max_passes) {
  const unsigned long long first_pass = (unsigned long long)k.index * max_passes;
  return {work + (unsigned long long)t * work_bytes,
          slots + k.slot,
          k.capacity,
          pass_lengths + first_pass,
          max_passes,
          distortion + first_pass};
}

// The OR of a block's magnitudes (t1::magnitude_or), a warp's lanes
// sharing the columns; on every lane.
__device__ inline std::uint32_t block_or(const j2k::t1::BlockInput &in) {
  std::uint32_t any = 0;
  for (int y = 0; y < in.height; ++y)
    for (int x = warp::lane_id(); x < in.width; x += warp::kLanes) {
      const std::int32_t v = in.samples[y * in.stride + x];
      any |= v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v);
    }
  return warp::all_or(any);
}

// ---------------------------------------------------------------- transform

struct LoadArgs {
  const TileComponent *tcs;
  int blocks_per_tc;
  PlaneRef planes[kMaxPlanes];  // component c of the (device) frame
  int bit_depth[kMaxPlanes];
  bool mct;    // colour transform of components 0..2 (one thread does all three)
  void *work;  // int32 coefficients (reversible) or float work (irreversible)
};

// One sample of every tile-component: DC level shift (G.1.2) and, on
// components 0..2 with mct, the RCT or the ICT (G.2, G.3).
template <class S, class W>
__global__ void __launch_bounds__(kThreads) load_samples(const LoadArgs a) {
  const int t = tile_component_of(a.blocks_per_tc);
  const TileComponent tc = a.tcs[t];
  const long long i = item_of(a.blocks_per_tc);
  if (i >= (long long)tc.width * tc.height) return;
  const int c = tc.component;
  if (a.mct && (c == 1 || c == 2)) return;  // done with component 0
  const int y = int(i / tc.width), x = int(i - (long long)y * tc.width);
  W *work = static_cast<W *>(a.work);
  const auto sample = [&](int k) {
    return j2k::quant::dc_shift(std::int32_t(*sample_at<S>(a.planes[k], tc.frame_x + x, tc.frame_y + y)),
                                a.bit_depth[k]);
  };
  if (!a.mct || c != 0) {
    work[tc.offset + i] = W(sample(c));
    return;
  }
  // Components 1 and 2 of the tile follow component 0 and have its size.
  const unsigned long long at[3] = {tc.offset + i, a.tcs[t + 1].offset + i, a.tcs[t + 2].offset + i};
  if constexpr (std::is_same_v<W, float>) {
    float v[3] = {float(sample(0)), float(sample(1)), float(sample(2))};
    j2k::quant::ict_forward(v);
    for (int k = 0; k < 3; ++k) work[at[k]] = v[k];
  } else {
    std::int32_t v[3] = {sample(0), sample(1), sample(2)};
    colour::forward(ColourTransform::Rct, v);
    for (int k = 0; k < 3; ++k) work[at[k]] = v[k];
  }
}

// VER_SD of one level, a column tile per thread block (ColumnTile): the
// tile's rows read from work into shared memory, every lifting step in
// turn, then its own rows scaled and deinterleaved (low-pass rows first)
// into tmp, where the row kernel reads them.
template <class F>
__global__ void __launch_bounds__(kThreads) lift_columns(const LevelArgs<typename F::Sample> a) {
  using T = typename F::Sample;
  __shared__ T held[(kTileRows + 2 * kTileHalo) * kTileColumns];
  TileThread th;
  if (!tile_thread(a, F::kSteps, th)) return;
  const ColumnTile &g = th.g;
  const int thread_row = th.thread_row, n = th.n, width = th.tc.width;
  const bool in = th.in, odd = th.odd;
  const T *source = a.work + th.tc.offset + th.x;
  T *column = a.tmp + th.tc.offset + th.x;
  if (n == 1) {
    if (in && thread_row == 0) column[0] = F::single(source[0], odd);
    return;
  }
  const TileColumn<T> line{held + th.lane, g.first};
  for (int y = g.first + thread_row; y < g.end; y += kTileThreadRows)
    if (in) line[y] = source[(unsigned long long)y * width];
  __syncthreads();
  const int first_odd = odd ? 0 : 1, first_low = 1 - first_odd;  // rows of the first high- and low-pass samples
  for (int step = 0; step < F::kSteps; ++step) {
    const int from = first_of_parity(g.first, F::on_odd(step) ? first_odd : first_low);
    for (int y = from + 2 * thread_row; y < g.end; y += 2 * kTileThreadRows)
      if (in && lifts_in_tile(g, y, n))
        line[y] = F::lifted(step, line[y], j2k::dwt::left_of(line, y), j2k::dwt::right_of(line, y, n));
    __syncthreads();
  }
  const int low = j2k::dwt::low_count(n, odd);
  for (int y = g.y0 + thread_row; y < g.y1; y += kTileThreadRows) {
    const bool high = ((y - first_low) & 1) != 0;
    const int row = high ? low + (y - first_odd) / 2 : (y - first_low) / 2;
    if (in) column[(unsigned long long)row * width] = F::scaled(line[y], high);
  }
}

// HOR_SD of one level: one thread block per row, all threads lifting the row
// (as finish_columns left it in tmp) one step at a time in a line of shared
// memory (or in its place in tmp), then writing it deinterleaved into work.
template <class F>
__global__ void __launch_bounds__(kThreads) lift_rows(const LevelArgs<typename F::Sample> a) {
  using T = typename F::Sample;
  T *shared_line = line_in_shared_memory<T>();
  const int t = int(blockIdx.x) / a.blocks_per_tc, y = int(blockIdx.x) % a.blocks_per_tc;
  const TileComponent tc = a.tcs[t];
  const Region r = a.regions[t];
  if (y >= r.height) return;
  const int n = r.width;
  T *row = a.work + tc.offset + (unsigned long long)y * tc.width;
  T *source = a.tmp + tc.offset + (unsigned long long)y * tc.width;
  T *line = n <= kSharedLine ? shared_line : source;
  const bool odd = (r.u0 & 1) != 0;
  if (n == 1) {
    if (threadIdx.x == 0) row[0] = F::single(source[0], odd);
    return;
  }
  if (line != source) {
    for (int i = threadIdx.x; i < n; i += kThreads) line[i] = source[i];
    __syncthreads();
  }
  // line[i] has the absolute parity (odd + i) & 1.
  const int first_odd = odd ? 0 : 1;
  for (int step = 0; step < F::kSteps; ++step) {
    const int first = F::on_odd(step) ? first_odd : 1 - first_odd;
    for (int i = first + 2 * int(threadIdx.x); i < n; i += 2 * kThreads)
      line[i] = F::lifted(step, line[i], j2k::dwt::left_of(line, i), j2k::dwt::right_of(line, i, n));
    __syncthreads();
  }
  const int low = j2k::dwt::low_count(n, odd), first_low = 1 - first_odd;
  for (int i = threadIdx.x; i < n; i += kThreads) {
    const bool high = ((i - first_low) & 1) != 0;
    row[high ? low + (i - first_odd) / 2 : (i - first_low) / 2] = F::scaled(line[i], high);
  }
}

struct QuantiseArgs {
  const float *work;
  std::int32_t *coefficients;
  const TileComponent *tcs;
  const Band *bands;
  const float *reciprocals;  // per step index
  int blocks_per_tc;
};

// The irreversible path's quantisation (E.1), each sample with its band's step.
__global__ void __launch_bounds__(kThreads) quantise(const QuantiseArgs a) {
  const int t = tile_component_of(a.blocks_per_tc);
  const TileComponent tc = a.tcs[t];
  const long long i = item_of(a.blocks_per_tc);
  if (i >= (long long)tc.width * tc.height) return;
  int x, y;
  column_and_row(i, tc.width, x, y);
  // The bands of the first level, three quarters of the samples, are the
  // table's last: searched first.
  for (int k = tc.bands - 1; k >= 0; --k) {
    const Band b = a.bands[tc.first_band + k];
    if (x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height) {
      a.coefficients[tc.offset + i] = j2k::quant::quantise(a.work[tc.offset + i], a.reciprocals[b.step_index]);
      return;
    }
  }
}

// ------------------------------------------------------------ packing

// Bytes a block brings back: its codeword, or nothing when it failed (an
// overflowed block is coded again on the host).
__device__ __forceinline__ unsigned long long used_bytes(const j2k::t1::BlockResult &r) {
  return r.status == j2k::t1::BlockStatus::kOk ? (unsigned long long)r.bytes : 0ull;
}

struct OffsetArgs {
  const j2k::t1::BlockResult *results;
  int count;
  unsigned long long *offsets;  // count + 1: where each codeword goes, then the total
};

// Exclusive prefix sum of the blocks' bytes, in one thread block: each thread
// sums a run of blocks, thread 0 adds up the runs, each thread then places
// its run.
__global__ void __launch_bounds__(kScanThreads) codeword_offsets(const OffsetArgs a) {
  __shared__ unsigned long long run_start[kScanThreads];
  const int per = (a.count + kScanThreads - 1) / kScanThreads;
  const int begin = int(threadIdx.x) * per, end = begin + per < a.count ? begin + per : a.count;
  unsigned long long sum = 0;
  for (int b = begin; b < end; ++b) sum += used_bytes(a.results[b]);
  run_start[threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long total = 0;
    for (int k = 0; k < kScanThreads; ++k) {
      const unsigned long long s = run_start[k];
      run_start[k] = total;
      total += s;
    }
    a.offsets[a.count] = total;
  }
  __syncthreads();
  unsigned long long at = run_start[threadIdx.x];
  for (int b = begin; b < end; ++b) {
    a.offsets[b] = at;
    at += used_bytes(a.results[b]);
  }
}

struct GatherArgs {
  const Block *blocks;
  const std::uint8_t *slots;
  const unsigned long long *offsets;
  std::uint8_t *packed;
};

// One thread block per code-block: its codeword from its slot to its place
// in the packed buffer.
__global__ void __launch_bounds__(kGatherThreads) gather_codewords(const GatherArgs a) {
  const Block k = a.blocks[blockIdx.x];
  const unsigned long long at = a.offsets[k.index], n = a.offsets[k.index + 1] - at;
  for (unsigned long long i = threadIdx.x; i < n; i += kGatherThreads) a.packed[at + i] = a.slots[k.slot + i];
}

// The pass arrays' first `passes` entries of every block, one row after
// another, for one short copy back instead of one per block.
struct CompactArgs {
  const int *lengths;
  const std::int64_t *distortion;
  int blocks, stride, passes;  // stride: entries per block in the arrays above
  int *lengths_out;
  std::int64_t *distortion_out;
};

__global__ void __launch_bounds__(kThreads) compact_passes(const CompactArgs a) {
  const long long i = (long long)blockIdx.x * kThreads + threadIdx.x;
  if (i >= (long long)a.blocks * a.passes) return;
  const long long from = i / a.passes * a.stride + i % a.passes;
  a.lengths_out[i] = a.lengths[from];
  a.distortion_out[i] = a.distortion[from];
}

}  // namespace cf::cuda::j2k_kernels
