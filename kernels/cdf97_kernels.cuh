// The CDF 9/7's tile kernel (internal to kernels/): one launch lifts one
// level of every component of a frame, both axes (Mallat) or one (the
// standard layout's row and column levels).
//
// A block of kThreads owns a tile of kTileW x kTileH samples of one
// component's level and loads it with a halo of kHalo samples a side along
// each lifted axis (each of the four steps reads one neighbour). Halo samples
// past the band's edge are loaded from their mirror image (whole-sample
// symmetric extension), which lifts to the same floats as the reference's
// edge rule: the extended signal stays symmetric through every step, and
// float addition commutes. So no step tests for an edge, and the tile's own
// samples end bit for bit as cpu/cdf97_math.hpp's serial lifting leaves
// them (every multiply and add rounded on its own: cdf97_rules.hpp).
//
// Forward: the tile's rows are lifted in shared memory (a row stored with its
// even samples first, so a step's threads touch consecutive words), then each
// thread takes one column into registers, scales it, lifts it there and
// writes its samples straight to their subbands: the low-low quadrant to
// `lo_out`, the rest to `hi_out`. Inverse: the mirror image: the subbands'
// samples loaded in place, columns lifted in registers, then rows in shared
// memory. The loads and stores stay loops, not unrolled: unrolled, their
// code for every sample type overflowed the instruction cache. Between levels a float work plane carries the low band;
// the levels' other bands go straight to the destination, thresholded and
// quantised there.
#pragma once

#include <cstdint>
#include <type_traits>

#include "cudafilters/frame.hpp"
#include "kernels/samples.cuh"
#include "kernels/symmetric_extension.cuh"
#include "kernels/unroll.cuh"

#include "core/shared/cdf97_rules.hpp"

namespace cf::cuda::cdf97_tiles {

constexpr int kThreads = 128;  // one per tile column
constexpr int kTileW = kThreads, kTileH = 32;
constexpr int kHalo = 4;
static_assert(kTileW % 2 == 0 && kTileH % 2 == 0 && kHalo % 2 == 0, "a tile's first loaded sample is even");

// How a level reads a plane: raw samples converted to float (the forward's
// input), coefficients dequantised (the inverse's input), or float work.
enum class Read { Raw, Coefficients };
// How it writes one: float work, thresholded and quantised coefficients
// (the forward's output), or raw samples rounded and clamped (the inverse's).
enum class Write { Work, Coefficients, Raw };

struct Source {
  PlaneRef plane;
  SampleType type;  // picks the kernel's template instance
  Read read;
};
struct Sink {
  PlaneRef plane;
  SampleType type;
  Write write;
};

// One component at one level: the w x h band at the top left of its plane.
// Forward: reads `lo_in`; the low-low quadrant goes to `lo_out`, the rest to
// `hi_out`. Inverse: the low-low quadrant from `lo_in`, the rest from
// `hi_in`, the band to `lo_out`. An axis of fewer than 2 samples is not
// lifted (nor scaled).
struct Band {
  Source lo_in, hi_in;
  Sink lo_out, hi_out;
  int w, h;
  int ll_w, ll_h;  // the final LL band: not thresholded
  bool lift_x, lift_y;
  int tiles_x;
  // Components of one size next to each other (a packed frame's channels)
  // take turns tile by tile, so the bytes they share are read from DRAM
  // once: tile i of the group's `members` goes to member i % members.
  int first_tile, members, member;
};

struct LevelParams {
  Band band[kMaxPlanes];
  int n;
  cdf97::Post post;
};

// Where sample i of a lifted line of n samples lies once deinterleaved.
CF_HD int band_index(int i, int n) { return (i & 1) ? (n + 1) / 2 + i / 2 : i / 2; }

template <class T>
CF_HD T *sample(const PlaneRef &p, int x, int y) {
  return const_cast<T *>(sample_at<T>(p, x, y));
}

// Sample (x, y) of `s` as a float: T is the plane's sample type; integer
// coefficients are dequantised, raw samples converted.
template <class T>
CF_HD float read_sample(const Source &s, int x, int y, float step) {
  const T v = *sample<T>(s.plane, x, y);
  if constexpr (std::is_same_v<T, float>)
    return v;
  else
    return s.read == Read::Coefficients ? cdf97::dequantise(v, step) : float(v);
}

// The raw sample type T's range as floats (S32's top: the largest float below 2^31).
template <class T>
CF_HD void raw_range(float *lo, float *hi) {
  *lo = std::is_signed_v<T> ? -float(1u << (8 * sizeof(T) - 1)) : 0.0f;
  *hi = std::is_same_v<T, std::int32_t> ? 2147483520.0f
        : std::is_signed_v<T>           ? float((1u << (8 * sizeof(T) - 1)) - 1)
                                        : float((1ull << (8 * sizeof(T))) - 1);
}

template <class T>
CF_HD void write_raw(const PlaneRef &p, int x, int y, float v) {
  float lo, hi;
  raw_range<T>(&lo, &hi);
  *sample<T>(p, x, y) = T(cdf97::round_clamp(v, lo, hi));
}

CF_HD void write_sample(const Sink &k, int x, int y, float v, const cdf97::Post &post, bool detail) {
  if (k.write == Write::Work) {
    *sample<float>(k.plane, x, y) = v;
  } else if (k.write == Write::Coefficients) {
    const float c = cdf97::shrink(post, v, detail);
    if (k.type == SampleType::S16)
      *sample<std::int16_t>(k.plane, x, y) = std::int16_t(cdf97::quantise(c, post.step, cdf97::kMaxIndexS16));
    else if (k.type == SampleType::S32)
      *sample<std::int32_t>(k.plane, x, y) = cdf97::quantise(c, post.step, cdf97::kMaxIndexS32);
    else
      *sample<float>(k.plane, x, y) = c;
  } else {
    switch (k.type) {
      case SampleType::U8: return write_raw<std::uint8_t>(k.plane, x, y, v);
      case SampleType::U16: return write_raw<std::uint16_t>(k.plane, x, y, v);
      case SampleType::S16: return write_raw<std::int16_t>(k.plane, x, y, v);
      case SampleType::S32: return write_raw<std::int32_t>(k.plane, x, y, v);
      case SampleType::F32: *sample<float>(k.plane, x, y) = v;
    }
  }
}

// Shared-memory column of tile column j: even columns first.
template <int Span>
CF_HD int column_slot(int j) {
  return (j & 1) * (Span / 2) + j / 2;
}

// The four steps along the rows first..last of a tile in shared memory
// (row r's samples at s[r * Pitch + column_slot(j)]); samples within step + 1
// of the loaded span's ends are left stale, never read for the tile's own.
template <bool Forward, int Span, int Pitch>
__device__ __forceinline__ void lift_rows(float *s, int first, int last) {
  constexpr int kPairs = Span / 2 - 1;  // updates per row and step
  for (int step = 0; step < 4; ++step) {
    const bool odd = cdf97::step_first(Forward, step);
    const float c = cdf97::step_coefficient(Forward, step);
    for (int k = threadIdx.x; k < (last - first) * kPairs; k += kThreads) {
      const int r = first + k / kPairs, m = k % kPairs;
      float *row = s + r * Pitch, *even = row, *oddv = row + Span / 2;
      if (odd)  // sample 2m + 1 between even samples m and m + 1
        oddv[m] = cdf97::lifted(oddv[m], c, even[m], even[m + 1]);
      else  // sample 2m + 2 between odd samples m and m + 1
        even[m + 1] = cdf97::lifted(even[m + 1], c, oddv[m], oddv[m + 1]);
    }
    __syncthreads();
  }
}

// The four steps along a column held in registers (v[r]: row r of the
// loaded span, r even <=> sample even).
template <bool Forward, int Rows>
__device__ __forceinline__ void lift_column(float (&v)[Rows]) {
CF_UNROLL
  for (int step = 0; step < 4; ++step) {
    const int odd = cdf97::step_first(Forward, step);
    const float c = cdf97::step_coefficient(Forward, step);
CF_UNROLL
    for (int r = 1 + (odd ? 0 : 1); r < Rows - 1; r += 2) v[r] = cdf97::lifted(v[r], c, v[r - 1], v[r + 1]);
  }
}

// The band of this block's component and its tile's first sample.
__device__ __forceinline__ const Band &block_tile(const LevelParams &p, int *x0, int *y0) {
  int c = 0;
  while (c + 1 < p.n && int(blockIdx.x) >= p.band[c + 1].first_tile) ++c;
  c -= p.band[c].member;  // the group's first member
  const int i = int(blockIdx.x) - p.band[c].first_tile, members = p.band[c].members;
  const Band &b = p.band[c + i % members];
  const int t = i / members;
  *x0 = t % b.tiles_x * kTileW;
  *y0 = t / b.tiles_x * kTileH;
  return b;
}

// A tile as loaded: its own samples and the halo along each lifted axis; a
// shared-memory row is one word longer than the span.
template <bool X, bool Y>
struct TileShape {
  static constexpr int kHx = X ? kHalo : 0, kHy = Y ? kHalo : 0;
  static constexpr int kSpan = kTileW + 2 * kHx, kRows = kTileH + 2 * kHy, kPitch = kSpan + 1;
};

// X, Y: the level lifts rows, columns (each component's lift_x/lift_y may
// still turn an axis off where its band is a single sample across). In: the
// sample type of every lo_in.
template <class In, bool X, bool Y>
__global__ void __launch_bounds__(kThreads) forward_level(const LevelParams p) {
  using Shape = TileShape<X, Y>;
  constexpr int kHx = Shape::kHx, kHy = Shape::kHy, kSpan = Shape::kSpan, kRows = Shape::kRows, kPitch = Shape::kPitch;
  __shared__ float s[kRows * kPitch];
  int x0, y0;
  const Band &b = block_tile(p, &x0, &y0);
  for (int k = threadIdx.x; k < kRows * kSpan; k += kThreads) {
    const int r = k / kSpan, j = k - r * kSpan;
    s[r * kPitch + column_slot<kSpan>(j)] =
        read_sample<In>(b.lo_in, mirror(x0 - kHx + j, b.w), mirror(y0 - kHy + r, b.h), p.post.step);
  }
  __syncthreads();
  if (X && b.lift_x) lift_rows<true, kSpan, kPitch>(s, 0, kRows);

  const int j = kHx + int(threadIdx.x), x = x0 + int(threadIdx.x);
  if (x >= b.w) return;
  float *column = s + column_slot<kSpan>(j);
  const bool lift_y = Y && b.lift_y;
  {
    float v[kRows];
    CF_UNROLL
    for (int r = 0; r < kRows; ++r) {
      v[r] = column[r * kPitch];
      if (X && b.lift_x) v[r] = cdf97::mul(v[r], (j & 1) ? cdf97::kHighGain : cdf97::kLowGain);
    }
    if (lift_y) {
      lift_column<true>(v);
      CF_UNROLL
      for (int r = 0; r < kRows; ++r) v[r] = cdf97::mul(v[r], (r & 1) ? cdf97::kHighGain : cdf97::kLowGain);
    }
    CF_UNROLL
    for (int r = 0; r < kRows; ++r) column[r * kPitch] = v[r];  // this thread's own column: no barrier
  }
  // A loop, not unrolled: the store's code (every output type) stays small
  // enough for the instruction cache.
  const bool low_x = !(X && b.lift_x) || !(x & 1);
  const int bx = X && b.lift_x ? band_index(x, b.w) : x;
  for (int r = kHy; r < kHy + kTileH; ++r) {
    const int y = y0 + r - kHy;
    if (y >= b.h) break;
    const int by = lift_y ? band_index(y, b.h) : y;
    const bool low = low_x && (!lift_y || !(y & 1));
    write_sample(low ? b.lo_out : b.hi_out, bx, by, column[r * kPitch], p.post, !(bx < b.ll_w && by < b.ll_h));
  }
}

// Coef: the coefficients' sample type (hi_in, and lo_in at the coarsest
// level; finer levels' lo_in is float work).
template <class Coef, bool X, bool Y>
__global__ void __launch_bounds__(kThreads) inverse_level(const LevelParams p) {
  using Shape = TileShape<X, Y>;
  constexpr int kHx = Shape::kHx, kHy = Shape::kHy, kSpan = Shape::kSpan, kRows = Shape::kRows, kPitch = Shape::kPitch;
  __shared__ float s[kRows * kPitch];
  int x0, y0;
  const Band &b = block_tile(p, &x0, &y0);
  const bool lift_x = X && b.lift_x, lift_y = Y && b.lift_y, low_is_work = b.lo_in.type == SampleType::F32;
  // The subbands' samples in place (interleaved), each scaled for the
  // column step; a loop, not unrolled, to keep the code small.
  for (int k = threadIdx.x; k < kRows * kSpan; k += kThreads) {
    const int r = k / kSpan, j = k - r * kSpan;
    const int x = mirror(x0 - kHx + j, b.w), y = mirror(y0 - kHy + r, b.h);
    const int bx = lift_x ? band_index(x, b.w) : x, by = lift_y ? band_index(y, b.h) : y;
    float v;
    if ((!lift_x || !(x & 1)) && (!lift_y || !(y & 1)))
      v = low_is_work ? read_sample<float>(b.lo_in, bx, by, p.post.step)
                      : read_sample<Coef>(b.lo_in, bx, by, p.post.step);
    else
      v = read_sample<Coef>(b.hi_in, bx, by, p.post.step);
    s[r * kPitch + column_slot<kSpan>(j)] = lift_y ? cdf97::mul(v, (r & 1) ? cdf97::kHighInv : cdf97::kLowInv) : v;
  }
  __syncthreads();
  // Columns (all of the span: the rows' halo too), each by one thread in registers.
  for (int j = threadIdx.x; j < kSpan; j += kThreads) {
    float *column = s + column_slot<kSpan>(j);
    float v[kRows];
    CF_UNROLL
    for (int r = 0; r < kRows; ++r) v[r] = column[r * kPitch];
    if (lift_y) lift_column<false>(v);
    CF_UNROLL
    for (int r = 0; r < kRows; ++r)
      column[r * kPitch] = lift_x ? cdf97::mul(v[r], (j & 1) ? cdf97::kHighInv : cdf97::kLowInv) : v[r];
  }
  __syncthreads();
  if (lift_x) lift_rows<false, kSpan, kPitch>(s, kHy, kHy + kTileH);

  const int j = kHx + int(threadIdx.x), x = x0 + int(threadIdx.x);
  if (x >= b.w) return;
  for (int r = kHy; r < kHy + kTileH; ++r) {
    const int y = y0 + r - kHy;
    if (y >= b.h) break;
    write_sample(b.lo_out, x, y, s[r * kPitch + column_slot<kSpan>(j)], p.post, false);
  }
}

}  // namespace cf::cuda::cdf97_tiles
