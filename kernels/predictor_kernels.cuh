// Kernels of the lossless predictors (internal to kernels/). The arithmetic
// is core/shared/predictor_rules.hpp, compiled for the device; these kernels only schedule it.
//
// Forward (predict_forward): every residual depends on input pixels only.
// A thread owns kRun consecutive pixels of a column strip and walks kRows
// rows down it, keeping a window of kRun + 3 samples (columns x0-2 .. x0+kRun,
// loaded with clamped columns, which is the border rule) of the two rows
// above in registers: one load per sample and row, residuals stored kRun at
// a time. One launch for all components.
//
// Inverse (predict_inverse): one persistent launch. Pixel (x, y) needs W,
// WW of its own row and row y-1 up to x+1 (row y-2's NN, NNE were needed by
// row y-1 first). A warp owns a band of 32 rows; lane k reconstructs row
// r0 + k, and at step s works on pixel x = s - kSkew * k. kSkew is one more
// than the data needs, so what lane k needs from the rows above at step s
// (NE and NNE, or N for MED) was in lane k-1's registers two steps earlier:
// one shuffle a step, off the chain of dependent arithmetic (N, NW, NN are
// the last steps' NE, N, NNE; W and WW its own last outputs). The first lane
// of a band that continues a slice takes the rows above from the band above
// instead: that band writes its last two rows to an edge buffer every kChunk
// steps as self-validating words (sample | 1 << 16, the buffer cleared
// before the launch), and the band below loads them one chunk ahead with
// volatile loads, checking the mark and reloading (with __nanosleep) only
// when the band above is not that far yet; no fences, no counters. Bands
// are taken in order through an atomic ticket, so a warp only ever waits for
// a band whose ticket came before its own, i.e. a warp that is already
// running: no deadlock, whatever the number of blocks or their order.
// Slices (bands that start a slice) wait for nothing and run side by side.
// Residuals come in and pixels go out through a shared-memory tile of 32
// rows x kChunk steps per warp, transposed so that global loads and stores
// are row-contiguous; the next chunk's residuals are loaded into registers
// while the current one is computed. Predictions are never stored: each one
// is recomputed from reconstructed pixels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/shared/predictor_rules.hpp"
#include "kernels/samples.cuh"
#include "kernels/unroll.cuh"

namespace cf::cuda {

// ------------------------------------------------------------------ forward

struct PredictForwardComp {
  PlaneRef in, out;  // raw samples, residuals
  int w, h;
  int tiles_x, first_tile;
};

struct PredictForwardParams {
  PredictForwardComp comp[kMaxPlanes];
  int n;
  int slice_height, threshold;
  predict::Range range;
};

struct PredictForwardShape {
  static constexpr int kRun = 4;    // pixels of a row per thread
  static constexpr int kRows = 8;   // rows per thread
  static constexpr int kWarps = 4;  // warps per block, stacked vertically
  static constexpr int kThreads = 32 * kWarps;
  static constexpr int kTileW = 32 * kRun, kTileH = kRows * kWarps;
  static constexpr int kWindow = kRun + 3;  // columns x0-2 .. x0+kRun
};

template <Predictor P, class TIn, class TOut>
__global__ void __launch_bounds__(PredictForwardShape::kThreads) predict_forward(PredictForwardParams p) {
  using S = PredictForwardShape;
  const int tile = int(blockIdx.x);
  int c = 0;
  while (c + 1 < p.n && tile >= p.comp[c + 1].first_tile) ++c;
  const PredictForwardComp &k = p.comp[c];
  const int local = tile - k.first_tile, ty = local / k.tiles_x, tx = local - ty * k.tiles_x;
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const int x0 = tx * S::kTileW + lane * S::kRun, y_begin = ty * S::kTileH + warp * S::kRows;
  if (x0 >= k.w || y_begin >= k.h) return;
  const int y_end = y_begin + S::kRows < k.h ? y_begin + S::kRows : k.h;

  int col[S::kWindow];  // clamped columns of the window
  for (int j = 0; j < S::kWindow; ++j) col[j] = predict::clamp_(x0 - 2 + j, 0, k.w - 1);
  int up2[S::kWindow] = {}, up1[S::kWindow] = {}, cur[S::kWindow];  // rows above a slice stay 0
  auto load_row = [&](int *row, int y) {
    for (int j = 0; j < S::kWindow; ++j) row[j] = load<TIn>(k.in, col[j], y);
  };
  auto top_of = [&](int y) { return p.slice_height > 0 ? y - y % p.slice_height : 0; };
  {
    const int top = top_of(y_begin);
    if (y_begin - 2 >= top) load_row(up2, y_begin - 2);
    if (y_begin - 1 >= top) load_row(up1, y_begin - 1);
  }
  for (int y = y_begin; y < y_end; ++y) {
    load_row(cur, y);
    const int top = top_of(y);
    const bool has1 = y > top, has2 = y > top + 1;
    int res[S::kRun];
    for (int i = 0; i < S::kRun; ++i) {
      const int j = i + 2;
      const int *u2 = has2 ? up2 : up1;
      const predict::Neighbours nb{cur[j - 1], cur[j - 2], up1[j], u2[j], up1[j - 1], up1[j + 1], u2[j + 1]};
      res[i] = cur[j] - predict::prediction(P, p.threshold, p.range, nb, !has1, x0 + i == 0);
    }
    for (int i = 0; i < S::kRun; ++i)
      if (x0 + i < k.w) store<TOut>(k.out, x0 + i, y, res[i]);
    for (int j = 0; j < S::kWindow; ++j) {
      up2[j] = up1[j];
      up1[j] = cur[j];
    }
  }
}

// ------------------------------------------------------------------ inverse

struct PredictInverseComp {
  PlaneRef res, out;  // residuals, reconstructed samples
  int w, h;
  int bands, first_band;  // bands of 32 rows; tickets first_band .. first_band + bands - 1
  int *edge;              // bands x 2 x w words: the last two rows of each band, 0 = not yet written
};

struct PredictInverseParams {
  PredictInverseComp comp[kMaxPlanes];
  int n, total_bands;
  int slice_height, threshold;
  predict::Range range;
  int *ticket;  // zero before the launch
};

struct PredictInverseShape {
  static constexpr int kBand = 32;  // rows per warp: one per lane
  static constexpr int kWarps = 4;
  static constexpr int kThreads = 32 * kWarps;
  // Lane k is kSkew pixels behind lane k-1. The data needs 1 (MED reads N,
  // NW) or 2 (GAP, GED read NE); one more makes the value a lane receives at
  // step s two steps old, so the shuffle of step s overlaps step s-1 and the
  // chain from pixel to pixel is only the lane's own arithmetic.
  template <Predictor P>
  static constexpr int skew() {
    return P == Predictor::Med ? 2 : 3;
  }
  // Steps of a band: lane 31 reconstructs pixel w-1 at step w-1 + 31 skew.
  static constexpr int steps(int w, int skew) { return w + (kBand - 1) * skew; }
};

// Device-side synchronisation primitives, replaced by the CPU emulation.
__device__ __forceinline__ int volatile_load(const int *p) { return *static_cast<const volatile int *>(p); }
__device__ __forceinline__ void volatile_store(int *p, int v) { *static_cast<volatile int *>(p) = v; }

// Two samples of the raw type (16 bits or fewer) in one shuffled word.
template <class T>
__device__ __forceinline__ int pack2(int lo, int hi) {
  return int((unsigned(lo) & 0xffffu) | (unsigned(hi) << 16));
}
template <class T>
__device__ __forceinline__ int low_of(int v) {
  if constexpr (std::is_signed_v<T>) return int(short(v & 0xffff));
  return v & 0xffff;
}
template <class T>
__device__ __forceinline__ int high_of(int v) {
  if constexpr (std::is_signed_v<T>) return v >> 16;
  return int(unsigned(v) >> 16);
}

// An edge word: a sample (16 bits) and the mark that it has been written.
constexpr int kEdgeWritten = 1 << 16;

// kChunk: steps between residual-tile exchanges and edge writes.
template <Predictor P, class TRes, class TOut, int kChunk>
__global__ void __launch_bounds__(PredictInverseShape::kThreads) predict_inverse(PredictInverseParams p) {
  using S = PredictInverseShape;
  constexpr unsigned kAll = 0xffffffffu;
  constexpr int kSkew = S::skew<P>();
  constexpr bool kReadsNE = P != Predictor::Med;  // and NN, NNE
  static_assert(kChunk >= 8 && kChunk % 8 == 0 && kChunk <= 64, "a chunk spans 8..64 steps");
  __shared__ int tiles[S::kWarps][S::kBand][kChunk + 1];
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  int(*tile)[kChunk + 1] = tiles[warp];
  const predict::Range range = p.range;
  const int threshold = p.threshold;

  for (;;) {
    int ticket = 0;
    if (lane == 0) ticket = atomicAdd(p.ticket, 1);
    ticket = __shfl_sync(kAll, ticket, 0);
    if (ticket >= p.total_bands) return;
    int c = 0;
    while (c + 1 < p.n && ticket >= p.comp[c + 1].first_band) ++c;
    const PlaneRef res = p.comp[c].res, out = p.comp[c].out;
    const int w = p.comp[c].w, h = p.comp[c].h, bands = p.comp[c].bands;
    const int band = ticket - p.comp[c].first_band, r0 = band * S::kBand, y = r0 + lane;
    const int top = p.slice_height > 0 ? y - y % p.slice_height : 0;
    const bool has1 = y > top, has2 = y > top + 1;
    // Rows above the band are needed unless it starts a slice (band > 0 then);
    // the band below needs this one's last rows unless it starts a slice.
    const bool needs_edge = p.slice_height > 0 ? r0 % p.slice_height != 0 : band > 0;
    const bool feeds_below = band + 1 < bands && (p.slice_height > 0 ? (r0 + S::kBand) % p.slice_height != 0 : true);
    const bool edge_lane = needs_edge && lane == 0;
    const int *edge_above = needs_edge ? p.comp[c].edge + std::ptrdiff_t(band - 1) * 2 * w : nullptr;
    int *edge_own = p.comp[c].edge + std::ptrdiff_t(band) * 2 * w;
    const int chunks = (S::steps(w, kSkew) + kChunk - 1) / kChunk;

    // Tile row r of chunk m holds row r0 + r, columns m*kChunk - kSkew*r + i
    // (i < kChunk). Each lane moves columns i = lane, lane + 32, ... of every
    // row, stepping a byte offset from row to row instead of computing each
    // sample's address (these loops, not the steps, took most of a chunk).
    constexpr int kPer = (kChunk + 31) / 32;
    const int rows_in = h - r0;  // tile rows inside the plane (at least 1)
    // Chunk m is interior when every column it touches has two columns left
    // of it and one right of it in the plane: no border rule applies there,
    // so its steps and tile loops skip those checks (most chunks are).
    auto interior = [&](int m) { return m * kChunk - kSkew * (S::kBand - 1) >= 2 && m * kChunk + kChunk < w; };
    auto for_tile = [&](int m, const PlaneRef &plane, int bytes, auto &&f) {
      auto rows = [&](auto checked) {
        constexpr bool kChecked = decltype(checked)::value;
        CF_UNROLL
        for (int q = 0; q < kPer; ++q) {
          const int i = lane + 32 * q;
          if (i >= kChunk) break;
          int x = m * kChunk + i;
          long long offset = r0 * plane.stride + (long long)x * plane.step * bytes;
          const long long next_row = plane.stride - (long long)kSkew * plane.step * bytes;
          CF_UNROLL
          for (int r = 0; r < S::kBand; ++r) {
            f(r, q, i, x, offset, !kChecked || (r < rows_in && unsigned(x) < unsigned(w)));
            x -= kSkew;
            offset += next_row;
          }
        }
      };
      if (rows_in >= S::kBand && interior(m))
        rows(std::false_type{});
      else
        rows(std::true_type{});
    };
    // The residuals of chunk m's tile (0 outside the plane).
    auto fetch = [&](int m, int(&v)[S::kBand * kPer]) {
      for_tile(m, res, int(sizeof(TRes)), [&](int r, int q, int, int, long long offset, bool inside) {
        v[r * kPer + q] = inside ? int(*sample_at_offset<const TRes>(res, offset)) : 0;
      });
    };
    auto park = [&](const int(&v)[S::kBand * kPer]) {
      for (int r = 0; r < S::kBand; ++r) CF_UNROLL
      for (int q = 0; q < kPer; ++q)
        if (lane + 32 * q < kChunk) tile[r][lane + 32 * q] = v[r * kPer + q];
    };
    // The rows above the band at the columns of chunk q, in groups of kGroup
    // columns (lane j: column j of a group): e[0] row r0-1, e[1] row r0-2,
    // as edge words. Columns that are not needed read as written.
    constexpr int kGroup = kChunk < 32 ? kChunk : 32, kGroups = kChunk / kGroup;
    auto edge_load = [&](int q, int(&e)[2][kGroups]) {
      CF_UNROLL
      for (int g = 0; g < kGroups; ++g) {
        const int x = q * kChunk + g * kGroup + lane;
        const bool used = needs_edge && lane < kGroup && x < w;
        e[0][g] = used ? volatile_load(edge_above + w + x) : kEdgeWritten;
        e[1][g] = used ? volatile_load(edge_above + x) : kEdgeWritten;
      }
    };
    // Waits until chunk q's edge words are written (reloading them), then
    // packs them for the shuffle: row r0-1 low, r0-2 high.
    auto edge_ready = [&](int q, int(&e)[2][kGroups], int(&packed)[kGroups]) {
      for (;;) {
        bool written = true;
        for (int g = 0; g < kGroups; ++g) written = written && (e[0][g] & e[1][g] & kEdgeWritten) != 0;
        if (__all_sync(kAll, written)) break;
        __nanosleep(64);
        edge_load(q, e);
      }
      for (int g = 0; g < kGroups; ++g) packed[g] = pack2<TOut>(e[0][g], e[1][g]);
    };
    int next[S::kBand * kPer];
    fetch(0, next);
    park(next);
    // edge_now: chunk m, edge_next: chunk m+1 (both written), far: chunk m+2 (loading).
    int edge_now[kGroups], edge_next[kGroups], far[2][kGroups];
    edge_load(0, far);
    edge_ready(0, far, edge_now);
    edge_load(1, far);
    edge_ready(1, far, edge_next);
    edge_load(2, far);
    // Lane state: own outputs of the last two steps (W, WW), the row above
    // (ne, n of the last step) and two rows above (nne of the last step),
    // and the words sent to the lane below one and two steps ago.
    int w1 = 0, w2 = 0, n1 = 0, ne1 = 0, nne1 = 0, send1 = 0, send2 = 0;
    if constexpr (kReadsNE) {  // lane 0 starts at x = 0: its N, NN (column 0) come before step 0
      const int e0 = __shfl_sync(kAll, edge_now[0], 0);
      ne1 = low_of<TOut>(e0);
      nne1 = high_of<TOut>(e0);
    }
    __syncwarp();

    for (int m = 0; m < chunks; ++m) {
      if (m + 1 < chunks) fetch(m + 1, next);
      const int x0 = m * kChunk - kSkew * lane;
      int rv[kChunk];  // this lane's residuals of the chunk
      CF_UNROLL
      for (int i = 0; i < kChunk; ++i) rv[i] = tile[lane][i];

      // The chunk's steps; kBorders: columns near the plane's edges may occur.
      auto steps = [&](auto borders) {
        constexpr bool kBorders = decltype(borders)::value;
        CF_UNROLL
        for (int i = 0; i < kChunk; ++i) {
          const int x = x0 + i;
          // From lane k-1, two steps old: its pixel (x+1 for GAP/GED, x for
          // MED) and, for GAP/GED, the row above it there (our NNE).
          int recv = __shfl_up_sync(kAll, send2, 1);
          constexpr int kAhead = kReadsNE ? 1 : 0;  // column of the received pixel: x + kAhead
          const int col = i + kAhead;               // column of the chunk that lane 0 needs
          const int e = __shfl_sync(kAll, col < kChunk ? edge_now[col / kGroup] : edge_next[0], col % kGroup);
          if (edge_lane) recv = kReadsNE ? e : low_of<TOut>(e);  // MED sends unpacked pixels
          predict::Neighbours nb;
          if constexpr (kReadsNE) {
            int ne = low_of<TOut>(recv), nne = high_of<TOut>(recv);
            const int n = ne1, nn = nne1;
            if (kBorders && x + 1 >= w) ne = n, nne = nn;  // columns clamped to w-1
            if (!has2) nne = ne;                           // rows clamped to the slice's first row
            nb = {w1, !kBorders || x >= 2 ? w2 : w1, n, has2 ? nn : n, n1, ne, nne};
            n1 = n;
            ne1 = ne;
            nne1 = nne;
          } else {
            const int n = recv;
            nb = {w1, w1, n, n, n1, n, n};
            n1 = n;
          }
          const int pred = predict::prediction(P, threshold, range, nb, !has1, kBorders && x == 0);
          const int v = predict::reconstruct(rv[i], pred, range);
          tile[lane][i] = v;
          w2 = w1;
          w1 = v;
          send2 = send1;
          send1 = kReadsNE ? pack2<TOut>(v, nb.n) : v;
        }
      };
      if (interior(m))
        steps(std::false_type{});
      else
        steps(std::true_type{});
      __syncwarp();

      // Pixels out (row-contiguous), the band's last two rows to the edge buffer.
      for_tile(m, out, int(sizeof(TOut)), [&](int r, int, int i, int x, long long offset, bool inside) {
        if (!inside) return;
        *sample_at_offset<TOut>(out, offset) = saturate<TOut>(tile[r][i]);
        if (feeds_below && r >= S::kBand - 2)
          volatile_store(edge_own + (r - (S::kBand - 2)) * w + x, (tile[r][i] & 0xffff) | kEdgeWritten);
      });
      __syncwarp();
      if (m + 1 < chunks) park(next);
      for (int g = 0; g < kGroups; ++g) edge_now[g] = edge_next[g];
      edge_ready(m + 2, far, edge_next);
      edge_load(m + 3, far);
      __syncwarp();
    }
  }
}

}  // namespace cf::cuda
