// Tile kernels of the reversible wavelets (internal to kernels/).
//
// One launch does one level of one pass kind for every component of a frame:
// Mallat levels lift rows and columns (LX and LY), the standard layout's row
// levels only rows (LX) and its column levels only columns (LY). A block owns
// a Tile::kWidth x Tile::kHeight tile of one component's band; blocks are
// numbered over a flat list of (component, tile), and components of the same
// size take turns tile by tile, so the channels of a packed pixel are read
// from DRAM once and then hit in L2.
//
// Forward, one block:
//   1. rows: a warp loads tile rows from global memory (all of its rows
//      first, to keep enough loads in flight), lane l holding the pair
//      (x0 + 2l, x0 + 2l + 1), neighbours by shuffle and the tile's halo
//      loaded by lanes 0 and 31; it lifts each row and stores the low and
//      high halves to shared memory: tile[r][0..32) = s, tile[r][32..64) = d.
//      The rows above and below the tile that the column lifting needs
//      (2 above, 1 below for the 5/3) are lifted too.
//   2. columns: a thread lifts a run of Tile::kRun rows of one tile column in
//      registers and writes each coefficient to its subband: low-low to
//      `lo` (the next level's input in scratch, or the output at the last
//      level), the rest to `hi` (the output). A warp covers 32 consecutive
//      columns of one subband, so every store is coalesced.
// Inverse, one block: the mirror image. Columns first, reading the
// interleaved coefficients with their halo (for the 5/3, one column before
// the tile and two after), then rows by shuffle, storing samples.
//
// Shared memory: forward (kHeight + 3) x 64 int32 (8.75 KiB), inverse
// kHeight x 67 int32 (8.4 KiB) for the 5/3; 8 KiB for Haar. ptxas (sm_90):
// 32 to 48 registers, no spills; 5 or more blocks of 256 threads per SM.
#pragma once

#include <cstdint>
#include <type_traits>

#include "cudafilters/frame.hpp"
#include "kernels/lifting.cuh"

namespace cf::cuda {

// Launch configuration, in one place.
struct Tile {
  static constexpr int kWarp = 32;
  static constexpr int kPairs = kWarp;        // pairs of a tile row: one per lane
  static constexpr int kWidth = 2 * kPairs;   // samples of a tile row
  static constexpr int kHeight = 32;          // rows of a tile
  static constexpr int kRun = 8;              // rows a thread lifts in registers
  static constexpr int kThreads = 256;
  static constexpr int kWarps = kThreads / kWarp;
  static constexpr int kRuns = kHeight / kRun;
};
static_assert(Tile::kHeight % Tile::kRun == 0 && Tile::kRun % 2 == 0, "runs cover whole pairs of rows");
static_assert(Tile::kThreads % Tile::kWarp == 0, "whole warps");

// Samples of one component: sample (x, y) of type T is at
// base + y * stride + x * step * sizeof(T).
struct PlaneRef {
  unsigned char *base;
  long long stride;  // bytes
  int step;          // samples from one pixel to the next
};

template <class T>
CF_HD const T *sample_at(const PlaneRef &p, int x, int y) {
  const auto *at = reinterpret_cast<const T *>(p.base + y * p.stride + (long long)x * p.step * (long long)sizeof(T));
#ifdef CF_CUDA_EMULATION
  cf_emulate_check_access(at, sizeof(T));  // tests/cuda/emulation: inside a device allocation?
#endif
  return at;
}

// Under the CPU emulation (tests/cuda/emulation), a check of an invariant the
// kernels rely on (a sample index inside its band); nothing on the GPU.
#ifdef CF_CUDA_EMULATION
#define CF_EMU_CHECK(cond) cf_emulate_check((cond), #cond, __FILE__, __LINE__)
#else
#define CF_EMU_CHECK(cond) ((void)0)
#endif

template <class T>
CF_HD int load(const PlaneRef &p, int x, int y) {
  return int(*sample_at<T>(p, x, y));
}

// Stores v, saturated to T's range (as the serial reference does).
template <class T>
CF_HD void store(const PlaneRef &p, int x, int y, int v) {
  if constexpr (!std::is_same_v<T, std::int32_t>) {
    constexpr int lo = std::is_signed_v<T> ? -(1 << (8 * sizeof(T) - 1)) : 0;
    constexpr int hi = std::is_signed_v<T> ? (1 << (8 * sizeof(T) - 1)) - 1 : (1 << (8 * sizeof(T))) - 1;
    v = v < lo ? lo : (v > hi ? hi : v);
  }
  *const_cast<T *>(sample_at<T>(p, x, y)) = T(v);
}

// One component's band at one level. w x h is the band in the interleaved
// (spatial) domain; wl = ceil(w / 2) and hl = ceil(h / 2) are where its high
// halves start (used only along lifted axes).
struct ForwardBand {
  PlaneRef in;  // the band to transform
  PlaneRef lo;  // low-low coefficients (low along every lifted axis)
  PlaneRef hi;  // every other coefficient
  int w, h, wl, hl;
  int tiles_x;
};

struct InverseBand {
  PlaneRef lo;   // low-low coefficients
  PlaneRef hi;   // every other coefficient
  PlaneRef out;  // the reconstructed band
  int w, h, wl, hl;
  int tiles_x;
};

// Components of equal size form a group; within a group, block b works on
// tile b / members of component comp[b % members].
struct TileGroup {
  int first_block;
  int members;
  int comp[kMaxPlanes];
};

template <class Band>
struct LevelParams {
  Band band[kMaxPlanes];
  TileGroup group[kMaxPlanes];
  int n_groups;
};

struct TilePos {
  int c, x0, y0;
};

template <class Band>
CF_HD TilePos locate(const LevelParams<Band> &p, int block) {
  int g = 0;
  while (g + 1 < p.n_groups && block >= p.group[g + 1].first_block) ++g;
  const TileGroup &grp = p.group[g];
  const int local = block - grp.first_block;
  const int tile = local / grp.members;
  const int c = grp.comp[local - tile * grp.members];
  const int tiles_x = p.band[c].tiles_x;
  const int ty = tile / tiles_x;
  return {c, (tile - ty * tiles_x) * Tile::kWidth, ty * Tile::kHeight};
}

constexpr unsigned kFullMask = 0xffffffffu;

// ------------------------------------------------------------------ forward

template <Wavelet W, bool LX, bool LY, class TIn, class TOut>
__global__ void __launch_bounds__(Tile::kThreads)
    forward_level(const __grid_constant__ LevelParams<ForwardBand> p) {
  using Halo = lift::Halo<W, false>;
  constexpr int kAbove = LY ? Halo::lo : 0, kBelow = LY ? Halo::hi : 0;
  constexpr int kRows = Tile::kHeight + kAbove + kBelow;
  constexpr int kRunLen = Tile::kRun + kAbove + kBelow;
  __shared__ int tile[kRows][Tile::kWidth];

  const TilePos t = locate(p, blockIdx.x);
  const ForwardBand &b = p.band[t.c];
  const int lane = threadIdx.x % Tile::kWarp, warp = threadIdx.x / Tile::kWarp;

  // 1. Rows: warp w takes tile rows w, w + kWarps, ... (tile row r is band
  // row y0 - kAbove + r). All of a warp's loads are issued before any is
  // used, to keep enough bytes in flight.
  constexpr int kRowIters = (kRows + Tile::kWarps - 1) / Tile::kWarps;
  int s[kRowIters], d[kRowIters];
  int h0[kRowIters], h1[kRowIters];  // halo: lane 0 x[x0 - 2], x[x0 - 1]; lane 31 x[x0 + kWidth]
  CF_UNROLL
  for (int it = 0; it < kRowIters; ++it) {
    const int r = warp + it * Tile::kWarps;
    if (r >= kRows) break;  // the same for the whole warp
    const int y = lift::extend_forward<W>(t.y0 - kAbove + r, b.h);
    // LX: lane l holds the pair (x0 + 2l, x0 + 2l + 1); otherwise x0 + l and x0 + kPairs + l.
    const int xs = LX ? t.x0 + 2 * lane : t.x0 + lane, xd = LX ? xs + 1 : xs + Tile::kPairs;
    CF_EMU_CHECK(y >= 0 && y < b.h);
    s[it] = load<TIn>(b.in, lift::extend_forward<W>(xs, b.w), y);
    d[it] = load<TIn>(b.in, lift::extend_forward<W>(xd, b.w), y);
    if constexpr (LX && W == Wavelet::Cdf53) {
      if (lane == 0) {
        h0[it] = load<TIn>(b.in, lift::mirror(t.x0 - 2, b.w), y);
        h1[it] = load<TIn>(b.in, lift::mirror(t.x0 - 1, b.w), y);
      } else if (lane == Tile::kWarp - 1) {
        h0[it] = load<TIn>(b.in, lift::mirror(t.x0 + Tile::kWidth, b.w), y);
      }
    }
  }
  CF_UNROLL
  for (int it = 0; it < kRowIters; ++it) {
    const int r = warp + it * Tile::kWarps;
    if (r >= kRows) break;
    if constexpr (LX && W == Wavelet::Haar) {
      lift::haar_pair(s[it], d[it]);
    } else if constexpr (LX) {
      int right = __shfl_down_sync(kFullMask, s[it], 1);  // x at x + 2
      if (lane == Tile::kWarp - 1) right = h0[it];
      d[it] = lift::predict53(d[it], s[it], right);
      int left = __shfl_up_sync(kFullMask, d[it], 1);  // d at x - 1
      if (lane == 0) left = lift::predict53(h1[it], h0[it], s[it]);
      s[it] = lift::update53(s[it], left, d[it]);
    }
    tile[r][lane] = s[it];
    tile[r][Tile::kPairs + lane] = d[it];
  }
  __syncthreads();

  // 2. Columns. Tile column j: with LX, x0 + 2j (low) for j < kPairs, else
  // x0 + 2(j - kPairs) + 1 (high); without, x0 + j.
  for (int item = threadIdx.x; item < Tile::kWidth * Tile::kRuns; item += Tile::kThreads) {
    const int j = item % Tile::kWidth, run = item / Tile::kWidth;
    int v[kRunLen];
    CF_UNROLL
    for (int i = 0; i < kRunLen; ++i) v[i] = tile[run * Tile::kRun + i][j];
    if constexpr (LY) lift::forward_run<W, Tile::kRun>(v);

    const bool high_x = LX && j >= Tile::kPairs;
    const int x = LX ? t.x0 + 2 * (j % Tile::kPairs) + int(high_x) : t.x0 + j;
    if (x >= b.w) continue;
    const int bx = LX ? (high_x ? b.wl : 0) + (x >> 1) : x;
    CF_UNROLL
    for (int i = 0; i < Tile::kRun; ++i) {
      const int y = t.y0 + run * Tile::kRun + i;
      if (y >= b.h) break;
      const bool high_y = LY && (y & 1);
      const int by = LY ? (high_y ? b.hl : 0) + (y >> 1) : y;
      store<TOut>(high_x || high_y ? b.hi : b.lo, bx, by, v[kAbove + i]);
    }
  }
}

// ------------------------------------------------------------------ inverse

template <Wavelet W, bool LX, bool LY, class TLo, class THi, class TOut>
__global__ void __launch_bounds__(Tile::kThreads)
    inverse_level(const __grid_constant__ LevelParams<InverseBand> p) {
  using Halo = lift::Halo<W, true>;
  constexpr int kAbove = LY ? Halo::lo : 0, kBelow = LY ? Halo::hi : 0;
  constexpr int kRunLen = Tile::kRun + kAbove + kBelow;
  // Tile columns. With LX: the low (even) columns x0 + 2j, j in [0, kLow),
  // then the high (odd) columns x0 + 2j + 1, j in [-kHighBefore, kPairs + 1)
  // for the 5/3 (its row lifting needs d[-1], and s and d at x0 + kWidth),
  // [0, kPairs) for Haar. Without LX: x0 + j, j in [0, kWidth).
  constexpr bool kXHalo = LX && W == Wavelet::Cdf53;
  constexpr int kLow = Tile::kPairs + (kXHalo ? 1 : 0);
  constexpr int kHighBefore = kXHalo ? 1 : 0;
  constexpr int kHigh0 = kLow + kHighBefore;  // tile column of x0 + 1
  constexpr int kCols = kHigh0 + Tile::kPairs + (kXHalo ? 1 : 0);
  __shared__ int tile[Tile::kHeight][kCols];

  const TilePos t = locate(p, blockIdx.x);
  const InverseBand &b = p.band[t.c];
  const int lane = threadIdx.x % Tile::kWarp, warp = threadIdx.x / Tile::kWarp;

  // 1. Columns: run `run` of column `col` covers tile rows [run * kRun, +kRun),
  // reading interleaved rows from y0 + run * kRun - kAbove.
  for (int item = threadIdx.x; item < kCols * Tile::kRuns; item += Tile::kThreads) {
    const int col = item % kCols, run = item / kCols;
    const int x = !LX ? t.x0 + col : col < kLow ? t.x0 + 2 * col : t.x0 + 2 * (col - kHigh0) + 1;
    // The subband follows the parity of the extended index: the same as x's
    // wherever the value is used, and in bounds for rows and columns far
    // past a small band, where the extension clamps.
    const int xs = lift::extend_inverse<W>(x, b.w);  // < 0: reads as 0
    const bool high_x = LX && (xs & 1);
    const int bx = LX ? (high_x ? b.wl : 0) + (xs >> 1) : xs;
    int v[kRunLen];
    CF_UNROLL
    for (int i = 0; i < kRunLen; ++i) {
      const int y = t.y0 + run * Tile::kRun - kAbove + i;
      const int ys = lift::extend_inverse<W>(y, b.h);
      const bool high_y = LY && (ys & 1);
      const int by = LY ? (high_y ? b.hl : 0) + (ys >> 1) : ys;
      if (xs < 0 || ys < 0) {
        v[i] = 0;
      } else if (high_x || high_y) {
        CF_EMU_CHECK(bx < b.w && by < b.h);
        v[i] = load<THi>(b.hi, bx, by);
      } else {
        CF_EMU_CHECK(bx < (LX ? b.wl : b.w) && by < (LY ? b.hl : b.h));
        v[i] = load<TLo>(b.lo, bx, by);
      }
    }
    if (LY && b.h > 1) lift::inverse_run<W, Tile::kRun>(v);
    CF_UNROLL
    for (int i = 0; i < Tile::kRun; ++i) tile[run * Tile::kRun + i][col] = v[kAbove + i];
  }
  __syncthreads();

  // 2. Rows: a warp reconstructs one tile row, lane l the pair at x0 + 2l.
  for (int r = warp; r < Tile::kHeight; r += Tile::kWarps) {
    const int y = t.y0 + r;
    if (y >= b.h) break;  // the same for the whole warp
    if constexpr (LX) {
      int e = tile[r][lane], o = tile[r][kHigh0 + lane];  // s, d
      if (b.w > 1) {
        if constexpr (W == Wavelet::Haar) {
          lift::unhaar_pair(e, o);
        } else {
          int left = __shfl_up_sync(kFullMask, o, 1);  // d at x - 1
          if (lane == 0) left = tile[r][kHigh0 - 1];
          e = lift::unupdate53(e, left, o);
          int right = __shfl_down_sync(kFullMask, e, 1);  // x[x + 2]
          if (lane == Tile::kWarp - 1)
            right = lift::unupdate53(tile[r][Tile::kPairs], o, tile[r][kHigh0 + Tile::kPairs]);
          o = lift::unpredict53(o, e, right);
        }
      }
      const int x = t.x0 + 2 * lane;
      if (x < b.w) store<TOut>(b.out, x, y, e);
      if (x + 1 < b.w) store<TOut>(b.out, x + 1, y, o);
    } else {
      const int x = t.x0 + lane;
      if (x < b.w) store<TOut>(b.out, x, y, tile[r][lane]);
      if (x + Tile::kPairs < b.w) store<TOut>(b.out, x + Tile::kPairs, y, tile[r][Tile::kPairs + lane]);
    }
  }
}

}  // namespace cf::cuda
