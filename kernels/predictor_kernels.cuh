// Kernels of the lossless predictors (internal to kernels/). The arithmetic
// is cpu/predict.hpp, compiled for the device; these kernels only schedule it.
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
// r0 + k, and at step s works on pixel x = s - kSkew * k, so everything it
// needs from rows above was made by lanes k-1 and k-2 at earlier steps and
// is in their registers (five shuffles a step); W and WW are its own last
// outputs. Bands are taken in order through an atomic ticket. The first row
// of a band that does not start a slice needs the last two rows of the band
// above: that band writes them to an int32 edge buffer every kChunk steps and
// then publishes how many steps it has done (__threadfence, then a volatile
// store); the band below reads them once the count is far enough (volatile
// poll with __nanosleep, __threadfence, loads through L2). A warp only waits
// for a band whose ticket came before its own, i.e. a warp that is already
// running, so the launch cannot deadlock, whatever the number of blocks or
// their order. Slices (bands that start a slice) wait for nothing and run
// side by side. Residuals come in and pixels go out through a shared-memory
// tile of 32 rows x kChunk steps per warp, transposed so that global loads
// and stores are row-contiguous; the next chunk's residuals are loaded into
// registers while the current one is computed. Predictions are never stored:
// each one is recomputed from reconstructed pixels.
#pragma once

#include <cstdint>

#include "cpu/predict.hpp"
#include "kernels/samples.cuh"

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
  int up2[S::kWindow], up1[S::kWindow], cur[S::kWindow];
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
  int *edge;              // bands x 2 x w int32: the last two rows of each band
};

struct PredictInverseParams {
  PredictInverseComp comp[kMaxPlanes];
  int n, total_bands;
  int slice_height, threshold;
  predict::Range range;
  int *ticket;    // zero before the launch
  int *progress;  // per band: steps done (published), zero before the launch
};

struct PredictInverseShape {
  static constexpr int kBand = 32;   // rows per warp: one per lane
  static constexpr int kSkew = 2;    // lane k is kSkew pixels behind lane k-1
  static constexpr int kChunk = 32;  // steps between tile exchanges and publications
  static constexpr int kWarps = 4;
  static constexpr int kThreads = 32 * kWarps;
  static constexpr int kRing = 64;   // columns of the edge rows a warp holds
  // Steps of a band: lane 31 reconstructs pixel w-1 at step w-1 + 31 kSkew.
  static constexpr int steps(int w) { return w + (kBand - 1) * kSkew; }
};
static_assert(PredictInverseShape::kSkew >= 2 && PredictInverseShape::kSkew < PredictInverseShape::kChunk,
              "lane k needs lane k-1's pixel x+1 from an earlier step; the edge ring keeps kChunk columns back");

// Device-side synchronisation primitives, replaced by the CPU emulation.
__device__ __forceinline__ int volatile_load(const int *p) { return *static_cast<const volatile int *>(p); }
__device__ __forceinline__ void volatile_store(int *p, int v) { *static_cast<volatile int *>(p) = v; }

template <Predictor P, class TRes, class TOut>
__global__ void __launch_bounds__(PredictInverseShape::kThreads) predict_inverse(PredictInverseParams p) {
  using S = PredictInverseShape;
  constexpr unsigned kAll = 0xffffffffu;
  constexpr int kHist = 2 * S::kSkew;  // own outputs of the last kHist steps
  __shared__ int tiles[S::kWarps][S::kBand][S::kChunk + 1];
  __shared__ int rings[S::kWarps][2][S::kRing];
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  int(*tile)[S::kChunk + 1] = tiles[warp];
  int(*ring)[S::kRing] = rings[warp];

  for (;;) {
    int ticket = 0;
    if (lane == 0) ticket = atomicAdd(p.ticket, 1);
    ticket = __shfl_sync(kAll, ticket, 0);
    if (ticket >= p.total_bands) return;
    int c = 0;
    while (c + 1 < p.n && ticket >= p.comp[c + 1].first_band) ++c;
    const PredictInverseComp &k = p.comp[c];
    const int band = ticket - k.first_band, r0 = band * S::kBand, y = r0 + lane;
    const int top = p.slice_height > 0 ? y - y % p.slice_height : 0;
    const bool has1 = y > top, has2 = y > top + 1;
    // Rows above the band are needed unless it starts a slice (band > 0 then).
    const bool needs_edge = p.slice_height > 0 ? r0 % p.slice_height != 0 : band > 0;
    const int *edge_above = needs_edge ? k.edge + std::ptrdiff_t(band - 1) * 2 * k.w : nullptr;
    int *edge_own = k.edge + std::ptrdiff_t(band) * 2 * k.w;
    const int chunks = (S::steps(k.w) + S::kChunk - 1) / S::kChunk;
    int seen = 0;  // steps of the band above known to be published

    // Residual of tile row r at chunk m, step i: row r0 + r, column m*kChunk - kSkew*r + i.
    auto residual = [&](int r, int m, int i) {
      const int x = m * S::kChunk - S::kSkew * r + i, yy = r0 + r;
      return x >= 0 && x < k.w && yy < k.h ? load<TRes>(k.res, x, yy) : 0;
    };
    int next[S::kBand];
    for (int r = 0; r < S::kBand; ++r) tile[r][lane] = residual(r, 0, lane);
    int hist[kHist + 1] = {};  // hist[j]: own output of step s - j
    __syncwarp();

    for (int m = 0; m < chunks; ++m) {
      if (needs_edge) {
        // This chunk reads edge columns up to m*kChunk + kChunk: made by the
        // band's lane 31 at step (that column) + 31 kSkew.
        const int last = m * S::kChunk + S::kChunk < k.w - 1 ? m * S::kChunk + S::kChunk : k.w - 1;
        const int need = last + (S::kBand - 1) * S::kSkew + 1;
        if (need > seen) {
          if (lane == 0) {
            int v;
            while ((v = volatile_load(p.progress + ticket - 1)) < need) __nanosleep(100);
            seen = v;
          }
          seen = __shfl_sync(kAll, seen, 0);
          __threadfence();
        }
        for (int e = 0; e < 2; ++e) {
          const int x = m * S::kChunk + lane;
          if (x < k.w) ring[e][x % S::kRing] = __ldcg(edge_above + e * k.w + x);
          const int x2 = m * S::kChunk + S::kChunk;
          if (lane == 0 && x2 < k.w) ring[e][x2 % S::kRing] = __ldcg(edge_above + e * k.w + x2);
        }
      }
      if (m + 1 < chunks)
        for (int r = 0; r < S::kBand; ++r) next[r] = residual(r, m + 1, lane);
      __syncwarp();

      for (int i = 0; i < S::kChunk; ++i) {
        const int s = m * S::kChunk + i, x = s - S::kSkew * lane;
        // Row y-1 at x+1, x, x-1 from lane k-1; row y-2 at x+1, x from lane k-2.
        int ne = __shfl_up_sync(kAll, hist[S::kSkew - 1], 1);
        int n = __shfl_up_sync(kAll, hist[S::kSkew], 1);
        int nw = __shfl_up_sync(kAll, hist[S::kSkew + 1], 1);
        int nne = __shfl_up_sync(kAll, hist[2 * S::kSkew - 1], 2);
        int nn = __shfl_up_sync(kAll, hist[2 * S::kSkew], 2);
        const bool active = x >= 0 && x < k.w && y < k.h;
        if (active && lane < 2 && needs_edge) {  // rows above the band: the edge ring
          const int(*row1)[S::kRing] = lane == 0 ? &ring[1] : &ring[0];  // row y-1 (lane 1: from lane 0)
          const int(*row2)[S::kRing] = lane == 0 ? &ring[0] : &ring[1];  // row y-2
          if (lane == 0) {
            n = (*row1)[x % S::kRing];
            if (x > 0) nw = (*row1)[(x - 1) % S::kRing];
            if (x + 1 < k.w) ne = (*row1)[(x + 1) % S::kRing];
          }
          nn = (*row2)[x % S::kRing];
          if (x + 1 < k.w) nne = (*row2)[(x + 1) % S::kRing];
        }
        if (x + 1 >= k.w) ne = n, nne = nn;  // columns clamped to w-1
        if (!has2) nn = n, nne = ne;         // rows clamped to the slice's first row
        const int w_ = hist[1], ww = x >= 2 ? hist[2] : hist[1];
        const predict::Neighbours nb{w_, ww, n, nn, nw, ne, nne};
        int v = 0;
        if (active)
          v = predict::reconstruct(tile[lane][i], predict::prediction(P, p.threshold, p.range, nb, !has1, x == 0),
                                   p.range);
        tile[lane][i] = v;
        for (int j = kHist; j > 1; --j) hist[j] = hist[j - 1];
        hist[1] = v;
      }
      __syncwarp();

      // Pixels out (row-contiguous), the band's last two rows to the edge buffer.
      for (int r = 0; r < S::kBand; ++r) {
        const int x = m * S::kChunk - S::kSkew * r + lane, yy = r0 + r;
        if (x >= 0 && x < k.w && yy < k.h) {
          store<TOut>(k.out, x, yy, tile[r][lane]);
          if (r >= S::kBand - 2) edge_own[(r - (S::kBand - 2)) * k.w + x] = tile[r][lane];
        }
      }
      __syncwarp();
      if (m + 1 < chunks)
        for (int r = 0; r < S::kBand; ++r) tile[r][lane] = next[r];
      __threadfence();
      __syncwarp();
      if (lane == 0) volatile_store(p.progress + ticket, (m + 1) * S::kChunk);
    }
  }
}

}  // namespace cf::cuda
