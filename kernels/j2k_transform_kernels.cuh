// Device code of the JPEG 2000 encoder's CUDA backend (kernels/j2k_encode_cuda.cu):
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
#include "kernels/symmetric_extension.cuh"
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

// The frame as the first wavelet level (or, without levels, the load)
// reads it.
struct FrameArgs {
  PlaneRef planes[kMaxPlanes];  // component c of the (device) frame
  int bit_depth[kMaxPlanes];
  bool mct;  // colour transform of components 0..2
};

// Sample (x, y) of tile-component tc, as W: DC level shift (G.1.2) and, on
// components 0..2 with mct, the RCT or the ICT (G.2, G.3), whose three
// outputs are each computed from all three inputs (each component's thread
// computes them and keeps its own).
template <class S, class W>
__device__ inline W frame_sample(const FrameArgs &f, const TileComponent &tc, int x, int y) {
  const auto sample = [&](int k) {
    return j2k::quant::dc_shift(std::int32_t(*sample_at<S>(f.planes[k], tc.frame_x + x, tc.frame_y + y)),
                                f.bit_depth[k]);
  };
  const int c = tc.component;
  if (!f.mct || c > 2) return W(sample(c));
  if constexpr (std::is_same_v<W, float>) {
    float v[3] = {float(sample(0)), float(sample(1)), float(sample(2))};
    j2k::quant::ict_forward(v);
    return v[c];
  } else {
    std::int32_t v[3] = {sample(0), sample(1), sample(2)};
    colour::forward(ColourTransform::Rct, v);
    return v[c];
  }
}

// The reciprocal of the step of subband `band` of tile-component tc (the
// irreversible path's; 0 on the reversible one, which has none).
template <class W>
__device__ __forceinline__ float band_reciprocal(const TileComponent &tc, int band, const Band *bands,
                                                 const float *reciprocals) {
  if constexpr (std::is_same_v<W, float>)
    return reciprocals[bands[tc.first_band + band].step_index];
  else
    return 0.0f;
}

// A coefficient as it is stored: the reversible path's integer as it is,
// the irreversible path's float quantised with its band's step (E.1).
__device__ __forceinline__ std::int32_t coefficient(std::int32_t v, float) { return v; }
__device__ __forceinline__ std::int32_t coefficient(float v, float reciprocal) {
  return j2k::quant::quantise(v, reciprocal);
}

struct LoadArgs {
  const TileComponent *tcs;
  int blocks_per_tc;
  FrameArgs frame;
  const Band *bands;
  const float *reciprocals;  // per step index (irreversible)
  std::int32_t *coefficients;
};

// Without wavelet levels: every sample of every tile-component, its one
// band (LL) quantised on the irreversible path.
template <class S, class W>
__global__ void __launch_bounds__(kThreads) load_samples(const LoadArgs a) {
  const int t = tile_component_of(a.blocks_per_tc);
  const TileComponent tc = a.tcs[t];
  const long long i = item_of(a.blocks_per_tc);
  if (i >= (long long)tc.width * tc.height) return;
  int x, y;
  column_and_row(i, tc.width, x, y);
  a.coefficients[tc.offset + i] =
      coefficient(frame_sample<S, W>(a.frame, tc, x, y), band_reciprocal<W>(tc, 0, a.bands, a.reciprocals));
}

// One level of 2D_SD (F.4.2) in one launch, a thread block per tile of the
// level's regions (LevelTile, j2k_work_blocks.cuh): the held samples read
// (the frame at the first level, the previous level's LL after), every
// held column lifted and scaled (VER_SD), then the tile's own rows (HOR_SD),
// as the reference does; then its samples go out deinterleaved: the
// high-pass bands to the coefficients (quantised on the irreversible path),
// LL to `low_out` for the next level, or to the coefficients at the last.
template <class T>
struct WaveletLevelArgs {
  const TileComponent *tcs;
  const Region *regions;  // this level's, per tile-component
  int blocks_per_tc;
  int band;         // this level's HL in each tile-component's band table (LH, HH follow)
  bool last;        // the coarsest level: LL is a band too
  FrameArgs frame;  // the first level's input
  const T *low_in;  // the later levels': the previous level's LL, at each block's top-left
  T *low_out;
  std::int32_t *coefficients;
  const Band *bands;
  const float *reciprocals;
};

// S: the frame's sample type at the first level; void to read low_in.
template <class F, class S>
__global__ void __launch_bounds__(kThreads, kLevelBlocksPerSm)
    wavelet_level(const WaveletLevelArgs<typename F::Sample> a) {
  using T = typename F::Sample;
  constexpr int halo = F::kSteps;
  __shared__ T held_samples[kLevelHeld][kLevelHeld];
  const HeldTile<T> held = held_samples;
  LevelBlock b;
  if (!level_block<halo>(a.tcs, a.regions, a.blocks_per_tc, b)) return;
  const TileComponent &tc = b.tc;
  const Region &r = b.r;
  const LevelTile &g = b.g;
  const int lane = warp::lane_id(), row0 = int(threadIdx.x) / warp::kLanes;
  const unsigned long long stride = (unsigned long long)tc.width;
  for (int ly = row0; ly < g.held_h; ly += kLevelRows) {
    const int y = mirror(g.y0 - halo + ly, r.height);
    for (int lx = lane; lx < g.held_w; lx += warp::kLanes) {
      const int x = mirror(g.x0 - halo + lx, r.width);
      if constexpr (std::is_void_v<S>)
        held[ly][lx] = a.low_in[tc.offset + y * stride + x];
      else
        held[ly][lx] = frame_sample<S, T>(a.frame, tc, x, y);
    }
  }
  __syncthreads();
  const bool odd_x = (r.u0 & 1) != 0, odd_y = (r.v0 & 1) != 0;
  const int first_odd_x = odd_x ? 0 : 1, first_odd_y = odd_y ? 0 : 1;  // held lines of odd absolute index
  for (int step = 0; step < F::kSteps && r.height >= 2; ++step)
    column_step(held, F::on_odd(step) ? first_odd_y : 1 - first_odd_y, g.held_h, 0, g.held_w,
                [step](T x, T left, T right) { return F::lifted(step, x, left, right); });
  for (int ly = halo + row0; ly < halo + g.own_h; ly += kLevelRows) {
    const bool high = ((ly + first_odd_y) & 1) == 0;
    for (int lx = lane; lx < g.held_w; lx += warp::kLanes)
      held[ly][lx] = r.height >= 2 ? F::scaled(held[ly][lx], high) : F::single(held[ly][lx], odd_y);
  }
  __syncthreads();
  for (int step = 0; step < F::kSteps && r.width >= 2; ++step)
    row_step(held, F::on_odd(step) ? first_odd_x : 1 - first_odd_x, halo, halo + g.own_h, g.held_w,
             [step](T x, T left, T right) { return F::lifted(step, x, left, right); });
  // Deinterleaved (2D_DEINTERLEAVE): a warp writes a tile row's low-pass
  // half, then its high-pass half, each to consecutive columns.
  const int low_w = j2k::dwt::low_count(r.width, odd_x), low_h = j2k::dwt::low_count(r.height, odd_y);
  // Scalars, not an array: indexed by a runtime value, an array goes to local memory.
  const float ll = a.last ? band_reciprocal<T>(tc, 0, a.bands, a.reciprocals) : 0.0f;
  const float hl = band_reciprocal<T>(tc, a.band, a.bands, a.reciprocals);
  const float lh = band_reciprocal<T>(tc, a.band + 1, a.bands, a.reciprocals);
  const float hh = band_reciprocal<T>(tc, a.band + 2, a.bands, a.reciprocals);
  for (int i = row0; i < g.own_h; i += kLevelRows) {
    const bool high_y = ((i + first_odd_y) & 1) == 0;
    const int row = (high_y ? low_h : 0) + g.y0 / 2 + (i - (high_y ? first_odd_y : 1 - first_odd_y)) / 2;
    for (int half = 0; half < 2; ++half) {
      const bool high_x = half == 1;
      const int j = 2 * lane + (high_x ? first_odd_x : 1 - first_odd_x);  // the tile's column
      if (j >= g.own_w) continue;
      const T v = held[halo + i][halo + j];
      const T out = r.width >= 2 ? F::scaled(v, high_x) : F::single(v, odd_x);
      const int column = (high_x ? low_w : 0) + g.x0 / 2 + lane;
      const unsigned long long at = tc.offset + row * stride + column;
      CF_EMU_CHECK(row < tc.height && column < tc.width);
      if (high_x || high_y || a.last)
        a.coefficients[at] = coefficient(out, high_x ? (high_y ? hh : hl) : (high_y ? lh : ll));
      else
        a.low_out[at] = out;
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
