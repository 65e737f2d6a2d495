// Tile kernels of the reversible wavelets (internal to kernels/).
//
// One launch does one level of one pass kind for every component of a frame:
// Mallat levels lift rows and columns (LX and LY), the standard layout's row
// levels only rows (LX) and its column levels only columns (LY). A block (the
// inverse) or a warp (the forward) owns a tile of one component's band; tiles
// are numbered over a flat list of (component, tile), and components of the same
// size take turns tile by tile, so the channels of a packed pixel are read
// from DRAM once and then hit in L2.
//
// Forward, one warp (forward_level): a strip of Strip::kWidth columns and
// tile_h rows (chosen per launch). Lane l holds kCols consecutive columns and
// walks down the strip two rows at a time: it reads each row (one vector
// load where the strip lies inside an aligned band, else sample by sample at
// offsets extended once per strip), lifts it along x (neighbours by shuffle,
// the strip's halo by lanes 0 and 31), lifts along y in registers (keeping
// the last even row and d row), and stores each subband's run of samples
// with one vector store, or sample by sample at the band's edge. No shared
// memory and no block barrier; the 5/3 lifts 3 rows of halo per strip.
// Inverse, one block: the mirror image. Columns first, reading the
// interleaved coefficients with their halo (for the 5/3, one column before
// the tile and two after), then rows by shuffle, storing samples.
//
// Shared memory (inverse): kHeight x 67 int32 (8.4 KiB) for the 5/3, 8 KiB
// for Haar; 32 to 40 registers. The forward: 64 registers at most (8 blocks
// of 128 threads per SM), the vector path's loop without spills.
#pragma once

#include <cstdint>
#include <type_traits>

#include "cudafilters/frame.hpp"
#include "kernels/samples.cuh"
#include "kernels/wavelet_runs.cuh"

namespace cf::cuda {

// Launch configuration of the inverse (the forward's: Strip).
struct Tile {
  static constexpr int kWarp = 32;
  static constexpr int kPairs = kWarp;       // pairs of a tile row: one per lane
  static constexpr int kWidth = 2 * kPairs;  // samples of a tile row
  static constexpr int kHeight = 32;         // rows of a tile
  static constexpr int kRun = 8;             // rows a thread lifts in registers
  static constexpr int kThreads = 256;
  static constexpr int kWarps = kThreads / kWarp;
  static constexpr int kRuns = kHeight / kRun;
};
static_assert(Tile::kHeight % Tile::kRun == 0 && Tile::kRun % 2 == 0, "runs cover whole pairs of rows");
static_assert(Tile::kThreads % Tile::kWarp == 0, "whole warps");

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

// Components of equal size form a group; within a group, tile i (counted
// from first_tile) is tile i / members of component comp[i % members].
struct TileGroup {
  int first_tile;
  int members;
  int comp[kMaxPlanes];
};

template <class Band>
struct LevelParams {
  Band band[kMaxPlanes];
  TileGroup group[kMaxPlanes];
  int n_groups;
  int tiles;   // in all groups
  int tile_h;  // rows of a tile (the forward kernel's strips vary by level)
};

struct TilePos {
  int c, x0, y0;
};

// Where tile `tile` (numbered over all groups) of tile_w x tile_h samples is.
template <class Band>
CF_HD TilePos locate(const LevelParams<Band> &p, int tile, int tile_w, int tile_h) {
  int g = 0;
  while (g + 1 < p.n_groups && tile >= p.group[g + 1].first_tile) ++g;
  const TileGroup &grp = p.group[g];
  const int local = tile - grp.first_tile;
  const int index = local / grp.members;
  const int c = grp.comp[local - index * grp.members];
  const int tiles_x = p.band[c].tiles_x;
  const int ty = index / tiles_x;
  return {c, (index - ty * tiles_x) * tile_w, ty * tile_h};
}

constexpr unsigned kFullMask = 0xffffffffu;

// ------------------------------------------------------------------ forward

// Launch geometry of the forward kernel: a warp lifts a strip of kWidth
// columns and LevelParams::tile_h rows (even, chosen per launch), lane l
// holding columns x0 + kCols l .. + kCols - 1 and walking down the strip.
struct Strip {
  static constexpr int kWarp = 32;
  static constexpr int kCols = 4;  // columns per lane: one 4-, 8- or 16-byte load
  static constexpr int kWidth = kWarp * kCols;
  static constexpr int kThreads = 128;
  static constexpr int kWarps = kThreads / kWarp;
  static constexpr int kMinBlocks = 4;  // per SM (__launch_bounds__)
  // Strip heights tried, tallest first (a 5/3 strip also lifts 3 rows of
  // halo), until a launch has about kTargetWarps strips: enough warps to keep
  // every SM of a large GPU busy.
  static constexpr int kMaxRows = 64, kMinRows = 8;
  static constexpr long long kTargetWarps = 4000;
  static constexpr int kPairsAhead = 2;  // 5/3: pairs of rows loaded ahead of use
};
static_assert(Strip::kCols % 2 == 0 && Strip::kMinRows % 2 == 0, "strips cover whole pairs");

// N samples of T read or written as one aligned access.
template <class T, int N>
struct alignas(N * sizeof(T)) Pack {
  T v[N];
};

template <class T>
CF_HD int clamp_to(int v) {
  if constexpr (std::is_same_v<T, std::int32_t>) {
    return v;
  } else {
    constexpr int lo = std::is_signed_v<T> ? -(1 << (8 * sizeof(T) - 1)) : 0;
    constexpr int hi = std::is_signed_v<T> ? (1 << (8 * sizeof(T) - 1)) - 1 : (1 << (8 * sizeof(T))) - 1;
    return v < lo ? lo : (v > hi ? hi : v);
  }
}

CF_HD void check_access(const void *at, int bytes) {
#ifdef CF_CUDA_EMULATION
  cf_emulate_check_access(at, std::size_t(bytes));
#else
  (void)at, (void)bytes;
#endif
}

template <class T>
CF_HD int load_at(const unsigned char *at) {
  check_access(at, sizeof(T));
  return int(*reinterpret_cast<const T *>(at));
}

// Forward stores: Sat clamps to T's range like the serial reference; without
// it the values are known to fit (wavelet_check bounds every coefficient).
template <class T, bool Sat>
CF_HD void store_at(unsigned char *at, int v) {
  check_access(at, sizeof(T));
  *reinterpret_cast<T *>(at) = T(Sat ? clamp_to<T>(v) : v);
}

// Is every access of `bytes` at base + y * stride + k * bytes aligned?
CF_HD bool aligned(const PlaneRef &p, int bytes) {
  return p.step == 1 && ((reinterpret_cast<unsigned long long>(p.base) | (unsigned long long)p.stride) % bytes) == 0;
}

// Where a lane reads its columns: one Pack at column x when the strip lies
// in the band and the plane allows it (the same for the whole warp), else one
// sample at each of the precomputed (extended) byte offsets.
template <Wavelet W, bool LX, class TIn>
struct RowReader {
  static constexpr int N = Strip::kCols;
  bool vec;
  int x;                    // first column of the lane
  int off[N];               // byte offsets of the columns in a row
  int left2, left1, right;  // 5/3 row halo: x0 - 2 and x0 - 1 (lane 0), x0 + kWidth (lane 31)

  CF_HD RowReader(const ForwardBand &b, int x0, int lane) {
    x = x0 + N * lane;
    const int size = b.in.step * int(sizeof(TIn));
    vec = x0 + Strip::kWidth <= b.w && aligned(b.in, N * sizeof(TIn));
    CF_UNROLL
    for (int i = 0; i < N; ++i)
      off[i] = (LX ? lift::extend_forward<W>(x + i, b.w) : (x + i < b.w ? x + i : b.w - 1)) * size;
    if (vec) off[0] = x * int(sizeof(TIn));
    left2 = mirror(x0 - 2, b.w) * size;
    left1 = mirror(x0 - 1, b.w) * size;
    right = mirror(x0 + Strip::kWidth, b.w) * size;
  }

  // A row of the lane's columns as loaded, before any arithmetic. Loading
  // rows ahead into these keeps several rows' loads in flight per warp; a
  // walk that waits for each row before asking for the next is bound by
  // memory latency, not bandwidth (ncu: 14-28% of DRAM bandwidth).
  template <bool Vec>
  struct Raw {
    Pack<std::conditional_t<Vec, TIn, int>, N> s;
    int left2 = 0, left1 = 0, right = 0;  // the 5/3 row halo (lanes 0 and 31)
  };

  template <bool Vec>
  CF_HD void load(const unsigned char *at, int lane, Raw<Vec> &r) const {
    if constexpr (Vec) {
      check_access(at + off[0], N * sizeof(TIn));
      r.s = *reinterpret_cast<const Pack<TIn, N> *>(at + off[0]);
    } else {
      CF_UNROLL
      for (int i = 0; i < N; ++i) r.s.v[i] = load_at<TIn>(at + off[i]);
    }
    if constexpr (LX && W == Wavelet::Cdf53) {
      if (lane == Strip::kWarp - 1) r.right = load_at<TIn>(at + right);
      if (lane == 0) r.left1 = load_at<TIn>(at + left1), r.left2 = load_at<TIn>(at + left2);
    }
  }

  // The loaded row, lifted along x if LX: v[even] = s at x + i, v[odd] = d
  // at x + i.
  template <bool Vec>
  CF_HD void lift(const Raw<Vec> &r, int lane, int (&v)[N]) const {
    CF_UNROLL
    for (int i = 0; i < N; ++i) v[i] = int(r.s.v[i]);
    if constexpr (LX && W == Wavelet::Haar) {
      CF_UNROLL
      for (int i = 0; i < N; i += 2) lift::haar_pair(v[i], v[i + 1]);
    } else if constexpr (LX) {
      int next = __shfl_down_sync(kFullMask, v[0], 1);  // x at x + N
      if (lane == Strip::kWarp - 1) next = r.right;
      CF_UNROLL
      for (int i = 1; i < N; i += 2) v[i] = lift::predict53(v[i], v[i - 1], i + 1 < N ? v[i + 1] : next);
      int prev = __shfl_up_sync(kFullMask, v[N - 1], 1);  // d at x - 1
      if (lane == 0) prev = lift::predict53(r.left1, r.left2, v[0]);
      CF_UNROLL
      for (int i = 0; i < N; i += 2) v[i] = lift::update53(v[i], i == 0 ? prev : v[i - 1], v[i + 1]);
    }
  }

  // The row at `at` (in the band), loaded and lifted.
  template <bool Vec>
  CF_HD void row(const unsigned char *at, int lane, int (&v)[N]) const {
    Raw<Vec> r;
    load(at, lane, r);
    lift(r, lane, v);
  }
};

// Stores a lane's lifted rows, one after another from the strip's first:
// with LX, s (even i) at column x / 2 + i / 2 and d at wl + x / 2 + i / 2;
// without, all at x + i. With LY, rows of kind 0 (low along y) go to row
// y / 2 of `lo` (low-x) and `hi` (high-x), rows of kind 1 to row hl + y / 2 of
// `hi`; without, rows y. Only columns inside the band are stored. The lane
// keeps a pointer per row kind and x half, advanced a row per store.
template <bool LX, bool LY, class TOut, bool Sat>
struct RowWriter {
  static constexpr int N = Strip::kCols, M = LX ? N / 2 : N;  // samples per run
  static constexpr int kKinds = LY ? 2 : 1, kHalves = LX ? 2 : 1;
  bool vec;
  unsigned char *at[kKinds][kHalves];
  long long stride_lo, stride_hi;
  int elem_lo, elem_hi;  // bytes from one sample to the next
  int valid[kHalves];    // samples of a run inside the band

  CF_HD RowWriter(const ForwardBand &b, int x0, int y0, int lane) {
    const int x = x0 + N * lane;
    constexpr int bytes = M * sizeof(TOut);
    vec = x0 + Strip::kWidth <= b.w && aligned(b.lo, bytes) && aligned(b.hi, bytes) &&
          (!LX || (b.wl * sizeof(TOut)) % bytes == 0);
    const int by = LY ? y0 >> 1 : y0;
    CF_UNROLL
    for (int k = 0; k < kKinds; ++k) CF_UNROLL
    for (int h = 0; h < kHalves; ++h) {
      const PlaneRef &p = k == 0 && h == 0 ? b.lo : b.hi;
      const int bx = LX ? (h ? b.wl : 0) + (x >> 1) : x;
      at[k][h] = p.base + (long long)(k ? b.hl + by : by) * p.stride + (long long)bx * p.step * int(sizeof(TOut));
    }
    stride_lo = b.lo.stride, stride_hi = b.hi.stride;
    elem_lo = b.lo.step * int(sizeof(TOut)), elem_hi = b.hi.step * int(sizeof(TOut));
    valid[0] = LX ? (b.w - x + 1) >> 1 : b.w - x;
    if (LX) valid[kHalves - 1] = (b.w - x) >> 1;
  }

  // The next row of kind k.
  template <bool Vec>
  CF_HD void row(int k, const int (&v)[N]) {
    CF_UNROLL
    for (int h = 0; h < kHalves; ++h) {
      int r[M];
      CF_UNROLL
      for (int i = 0; i < M; ++i) r[i] = LX ? v[2 * i + h] : v[i];
      if constexpr (Vec) {
        Pack<TOut, M> pk;
        CF_UNROLL
        for (int i = 0; i < M; ++i) pk.v[i] = TOut(Sat ? clamp_to<TOut>(r[i]) : r[i]);
        check_access(at[k][h], sizeof(pk));
        *reinterpret_cast<Pack<TOut, M> *>(at[k][h]) = pk;
      } else {
        CF_UNROLL
        for (int i = 0; i < M; ++i)
          if (i < valid[h]) store_at<TOut, Sat>(at[k][h] + i * (k == 0 && h == 0 ? elem_lo : elem_hi), r[i]);
      }
      at[k][h] += k == 0 && h == 0 ? stride_lo : stride_hi;
    }
  }
};

// One warp's strip: rows [y0, end) of the band, the lanes' columns read as
// Packs (VecIn) and stored as Packs (VecOut), or sample by sample.
template <Wavelet W, bool LX, bool LY, class TIn, class TOut, bool Sat, bool VecIn, bool VecOut>
__device__ __forceinline__ void forward_strip(const ForwardBand &b, const RowReader<W, LX, TIn> &in,
                                              RowWriter<LX, LY, TOut, Sat> out, int lane, int y0, int end) {
  constexpr int N = Strip::kCols;
  const long long stride = b.in.stride;
  // Row y of the input, extended beyond the band's ends.
  auto row_at = [&](int y) {
    if (y < 0 || y >= b.h) y = lift::extend_forward<W>(y, b.h);
    return b.in.base + y * stride;
  };
  auto fetch = [&](const unsigned char *at, int(&v)[N]) { in.template row<VecIn>(at, lane, v); };
  if constexpr (!LY) {
    const unsigned char *at = b.in.base + y0 * stride;
    for (int y = y0; y < end; ++y, at += stride) {
      int v[N];
      fetch(at, v);
      out.template row<VecOut>(0, v);
    }
  } else if constexpr (W == Wavelet::Haar) {
    const unsigned char *at = b.in.base + y0 * stride;
    for (int y = y0; y < end; y += 2, at += 2 * stride) {
      int e[N], o[N];
      fetch(at, e);
      fetch(y + 1 < b.h ? at + stride : at, o);  // the unpaired last row pairs with itself
      CF_UNROLL
      for (int i = 0; i < N; ++i) lift::haar_pair(e[i], o[i]);
      out.template row<VecOut>(0, e);
      if (y + 1 < end) out.template row<VecOut>(1, o);
    }
  } else {
    // Down the strip two rows at a time, keeping the last even row (e) and
    // the last d row (dp): d(y + 1) needs rows y, y + 1, y + 2, and s(y)
    // needs d(y - 1) and d(y + 1). The pairs of rows of the next kAhead
    // steps are loaded before they are needed, into a ring the unrolled
    // inner loop indexes with constants (so it stays in registers).
    constexpr int kAhead = Strip::kPairsAhead;
    using Raw = typename RowReader<W, LX, TIn>::template Raw<VecIn>;
    int e[N], dp[N], o[N];
    fetch(row_at(y0 - 2), e);
    fetch(row_at(y0 - 1), dp);
    fetch(row_at(y0), o);
    CF_UNROLL
    for (int i = 0; i < N; ++i) dp[i] = lift::predict53(dp[i], e[i], o[i]), e[i] = o[i];
    Raw ring[kAhead][2];
    CF_UNROLL
    for (int k = 0; k < kAhead; ++k)
      if (y0 + 2 * k < end)
        in.load(row_at(y0 + 2 * k + 1), lane, ring[k][0]), in.load(row_at(y0 + 2 * k + 2), lane, ring[k][1]);
    for (int y = y0; y < end; y += 2 * kAhead) {
      CF_UNROLL
      for (int k = 0; k < kAhead; ++k) {
        const int yk = y + 2 * k;
        if (yk >= end) break;  // the same for the whole warp
        int n[N];
        in.lift(ring[k][0], lane, o);
        in.lift(ring[k][1], lane, n);
        const int ahead = yk + 2 * kAhead;
        if (ahead < end) in.load(row_at(ahead + 1), lane, ring[k][0]), in.load(row_at(ahead + 2), lane, ring[k][1]);
        CF_UNROLL
        for (int i = 0; i < N; ++i) {
          o[i] = lift::predict53(o[i], e[i], n[i]);
          e[i] = lift::update53(e[i], dp[i], o[i]);
        }
        out.template row<VecOut>(0, e);
        if (yk + 1 < end) out.template row<VecOut>(1, o);
        CF_UNROLL
        for (int i = 0; i < N; ++i) e[i] = n[i], dp[i] = o[i];
      }
    }
  }
}

// At most 64 registers: 8 blocks of 128 threads per SM.
template <Wavelet W, bool LX, bool LY, class TIn, class TOut, bool Sat>
__global__ void __launch_bounds__(Strip::kThreads, Strip::kMinBlocks)
    forward_level(const __grid_constant__ LevelParams<ForwardBand> p) {
  const int lane = threadIdx.x % Strip::kWarp;
  const int strip = blockIdx.x * Strip::kWarps + threadIdx.x / Strip::kWarp;
  if (strip >= p.tiles) return;  // whole warps
  const TilePos t = locate(p, strip, Strip::kWidth, p.tile_h);
  const ForwardBand &b = p.band[t.c];
  const RowReader<W, LX, TIn> in(b, t.x0, lane);
  const RowWriter<LX, LY, TOut, Sat> out(b, t.x0, t.y0, lane);
  const int end = t.y0 + p.tile_h < b.h ? t.y0 + p.tile_h : b.h;  // rows stored: [y0, end)
  // Strips inside the band on aligned planes (all but the last column of
  // strips, on common frames) take the vector path; the choice is the same
  // for the whole warp.
  if (in.vec && out.vec)
    forward_strip<W, LX, LY, TIn, TOut, Sat, true, true>(b, in, out, lane, t.y0, end);
  else if (in.vec)
    forward_strip<W, LX, LY, TIn, TOut, Sat, true, false>(b, in, out, lane, t.y0, end);
  else
    forward_strip<W, LX, LY, TIn, TOut, Sat, false, false>(b, in, out, lane, t.y0, end);
}

// ------------------------------------------------------------------ inverse

template <Wavelet W, bool LX, bool LY, class TLo, class THi, class TOut>
__global__ void __launch_bounds__(Tile::kThreads) inverse_level(const __grid_constant__ LevelParams<InverseBand> p) {
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

  const TilePos t = locate(p, blockIdx.x, Tile::kWidth, Tile::kHeight);
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
