// The predictors' forward for pixels of 4 bytes (RGBA, BGRx, ...: 3 or 4
// components) with S16 residuals (internal to kernels/), two samples per
// instruction: GAP and GED are bound by arithmetic when written one sample at
// a time. The results are core/shared/predictor_rules.hpp's, bit for bit.
//
// A pixel word splits into two pairs (pair_simd.cuh): E = bytes 0 and 2,
// O = bytes 1 and 3, each in a 16-bit lane, so a pixel's components run two
// at a time through 16-bit arithmetic. A byte-wise |a - b| of two pairs
// (VABSDIFF4) is the pair of their differences. Gradients are shared between
// neighbouring pixels and rows: per row and pixel the kernel computes
// h = |X - X_west| and v = |X - X_above| once, and
//   GAP dh = |W-WW| + |N-NW| + |N-NE| = h(W) + h(N) + h(NE)
//       dv = |W-NW| + |N-NN| + |NE-NNE| = v(W) + v(N) + v(NE)
//   GED gh = |WW-W| + |NW-N| = h(W) + h(N),  gv = |NW-W| + |NN-N| = v(W) + v(N)
// A row that starts a slice has v = 0: on the slice's second row NN and NNE
// are N and NE (the border rule), whose distances are then 0.
//
// Values stay non-negative in their lanes through a bias (GAP + 64, GED +
// 128), which also makes a right shift of a pair the floor division that
// core/shared/predictor_rules.hpp's >> is; bits a shift brings down from the high lane are
// masked off once, after the selects.
//
// A lane owns kPix columns of kRows rows: it loads each row once as one
// 8-byte word and takes the window's outer columns from its neighbour lanes
// (__shfl). Warps overlap: lanes 0 and 31 only supply those neighbours to
// lanes 1 .. 30, which write the residuals, each component's as one word, so
// no lane loads a column of its own row twice or waits on a second load.
// Columns and rows outside the frame are clamped when loaded, which is the
// border rule for columns; a lane whose run leaves the frame gathers its
// columns one by one.
#pragma once

#include <cstdint>

#include "core/shared/predictor_rules.hpp"
#include "kernels/pair_simd.cuh"
#include "kernels/samples.cuh"
#include "kernels/unroll.cuh"
#include "kernels/vector_access.cuh"

namespace cf::cuda {

// Strides are positive and a plane's h * stride is below 2^31 (checked on
// the host), so offsets are 32-bit.
struct PredictForwardU8Plane {
  const unsigned char *in;  // 4-byte pixels: the pixel's first byte
  int in_stride;
  unsigned char *out[4];  // residual plane of the pixel's byte b (4-byte pixels), or out[0]; nullptr: none
  int out_stride[4];
  int w, h, tiles_x, first_tile;
};

struct PredictForwardU8Params {
  PredictForwardU8Plane plane[kMaxPlanes];
  int n;
  int slice_height, threshold;
  predict::Range range;
};

namespace pair_predict {

using namespace pairs;

// Predictions of one pair plus kBias, within [kBias, kBias + 255].
struct Gap {
  static constexpr unsigned kBias = 64;
  CF_HD static unsigned predict(unsigned w, unsigned n, unsigned nw, unsigned ne, unsigned dh, unsigned dv, unsigned) {
    const unsigned d = sub16(dv, dh), nd = sub16(dh, dv), ad = max_s16(d, nd);
    const unsigned e = select(negative_mask(nd), w, n);        // d > 0: W
    const unsigned t = ((w + n) << 1) + ne + splat(256) - nw;  // 4t + 256: 1 .. 1531
    const unsigned e4 = e << 2;
    const unsigned half = (t + e4 + splat(256)) >> 3;         // (t + E) / 2 + 64
    const unsigned quarter = (3 * t + e4 + splat(256)) >> 4;  // (3t + E) / 4 + 64
    const unsigned plain = t >> 2;                            // t + 64
    // ad <= T as the sign of ad - (T + 1): subtracting a constant keeps
    // VIADD.16x2 one instruction (T - ad would negate ad lane by lane).
    const unsigned upto80 = negative_mask(sub16(ad, splat(81)));
    const unsigned upto32 = negative_mask(sub16(ad, splat(33)));
    const unsigned upto8 = negative_mask(sub16(ad, splat(9)));
    const unsigned blend = select(upto32, select(upto8, plain, quarter), half) & 0x01ff01ffu;  // each < 512
    const unsigned v = select(upto80, blend, e + splat(kBias));
    return min_s16(max_s16(v, splat(kBias)), splat(kBias + 255));
  }
};

struct Ged {
  static constexpr unsigned kBias = 128;
  // gh, gv in dh, dv; threshold (at most 1024: |gv - gh| <= 510) in both lanes.
  CF_HD static unsigned predict(unsigned w, unsigned n, unsigned nw, unsigned, unsigned gh, unsigned gv,
                                unsigned threshold) {
    const unsigned g = sub16(gv, gh);
    const unsigned over = negative_mask(sub16(threshold, g));   // gv - gh > T: W
    const unsigned under = negative_mask(add16(g, threshold));  // gv - gh < -T: N
    const unsigned s = w + n;
    const unsigned blend = (((s << 1) + s + splat(512) - (nw << 1)) >> 2) & 0x03ff03ffu;  // (3W + 3N - 2NW) / 4 + 128
    const unsigned v = select(over, w + splat(kBias), select(under, n + splat(kBias), blend));
    return min_s16(max_s16(v, splat(kBias)), splat(kBias + 255));
  }
};

struct Med {
  static constexpr unsigned kBias = 0;
  CF_HD static unsigned predict(unsigned w, unsigned n, unsigned nw, unsigned, unsigned, unsigned, unsigned) {
    // The median of W, N and W + N - NW (in [lo, hi], no clamp needed).
    return max_s16(min_s16(w, n), min_s16(max_s16(w, n), sub16(w + n, nw)));
  }
};

template <Predictor P>
using Of = std::conditional_t<P == Predictor::Gap, Gap, std::conditional_t<P == Predictor::Ged, Ged, Med>>;

}  // namespace pair_predict

// Rows of a lane that start a slice (no row above), one row after another
// without a division per row: m counts rows since the slice's first row.
struct SliceTops {
  int m, slice_height;  // slice_height 0: the whole frame, m = the row itself
  // Starting at row y; y = -1, above the frame, has m = -1 and counts as a
  // slice's first row (no row above it either).
  __device__ __forceinline__ SliceTops(int y, int slice_height_) : slice_height(slice_height_) {
    m = y < 0 ? -1 : slice_height > 0 ? y % slice_height : y;
  }
  __device__ __forceinline__ bool top() const { return m <= 0; }
  __device__ __forceinline__ void next() {
    if (++m == slice_height) m = 0;
  }
};

// What both kernels know about their lane: its plane (found from the block
// among p.n planes), its first column x0 and first row y_begin. A warp's
// lanes 1 .. 30 own S::kTileW columns; lane 0 holds the kPix columns left of
// them and lane 31 the kPix right of them.
struct PairLane {
  static constexpr int kOutLanes = 30;
  const PredictForwardU8Plane *plane;
  const unsigned char *in;  // plane->in, plane->in_stride
  int in_stride;
  int w, h, x0, y_begin, slice_height;
  bool loads_whole;    // all kPix columns in the frame: one vector load per row
  bool writes;         // lanes 1 .. 30 with columns in the frame
  bool writes_whole;   // writes all kPix columns
  unsigned threshold;  // GED's, in both lanes (at most 1024: |gv - gh| <= 510)

  // False when the lane's whole warp is outside its plane.
  template <class S>
  __device__ __forceinline__ bool locate(const PredictForwardU8Params &p) {
    const int tile = int(blockIdx.x);
    int c = 0;
    while (c + 1 < p.n && tile >= p.plane[c + 1].first_tile) ++c;
    plane = &p.plane[c];
    in = plane->in;
    in_stride = plane->in_stride;
    w = plane->w;
    h = plane->h;
    const int local = tile - plane->first_tile, ty = local / plane->tiles_x, tx = local - ty * plane->tiles_x;
    const int lane = int(threadIdx.x) % 32;
    const int wx0 = tx * S::kTileW;
    x0 = wx0 + (lane - 1) * S::kPix;
    y_begin = ty * S::kTileH + int(threadIdx.x) / 32 * S::kRows;
    slice_height = p.slice_height;
    loads_whole = x0 >= 0 && x0 + S::kPix <= w;
    writes = lane >= 1 && lane <= kOutLanes && x0 < w;
    writes_whole = writes && x0 + S::kPix <= w;
    threshold = pairs::splat(unsigned(predict::min_(p.threshold, 1024)));
    return wx0 < w && y_begin < h;
  }
  // The frame row of the lane's row j (j = 0 is y_begin - 2), clamped.
  __device__ __forceinline__ int row_of(int j) const { return predict::clamp_(y_begin - 2 + j, 0, h - 1); }
  // The lane's row j as kWords words of kBytes-byte columns (4: pixels, 1:
  // samples); columns outside the frame are clamped, one by one.
  template <int kWords, int kBytes>
  __device__ __forceinline__ void load_row(int j, Words<kWords> &row) const {
    constexpr int kPerWord = 4 / kBytes;  // columns in a word
    const unsigned char *const at = in + row_of(j) * in_stride;
    if (loads_whole) {
      row = load_words<kWords>(at + x0 * kBytes);
      return;
    }
    for (int q = 0; q < kWords; ++q) {
      unsigned v = 0;
      for (int b = 0; b < kPerWord; ++b) {
        const unsigned char *const c = at + predict::clamp_(x0 + q * kPerWord + b, 0, w - 1) * kBytes;
        v |= (kBytes == 4 ? load_words<1>(c).w[0] : unsigned(*c)) << (8 * kBytes * b);
      }
      row.w[q] = v;
    }
  }
  // The lane's rows j = 0 .. kRows + 1 (frame rows y_begin-2 ..) as kWords
  // words of kBytes-byte columns, all loaded first so that many loads are in
  // flight (loading a few rows ahead of the row being made instead measured
  // 2-8% slower on the H100). Rows y_begin-2 and y_begin-1 come first (only
  // for the rows above), then each of kRows rows: split(words, cur, up,
  // starts) makes a row from its words and the row above, emit(y, top, cur,
  // up) writes it (rows inside the plane).
  template <class S, class Row, int kWords, int kBytes, class Split, class Emit>
  __device__ __forceinline__ void walk(Split &&split, Emit &&emit) const {
    constexpr int kN = S::kRows + 2;
    Words<kWords> rows[kN];
    CF_UNROLL
    for (int j = 0; j < kN; ++j) load_row<kWords, kBytes>(j, rows[j]);
    SliceTops tops(y_begin - 1, slice_height);
    Row up{}, cur{};                 // set by split before use (value-initialised for the host compiler's warning)
    split(rows[0], cur, cur, true);  // row y_begin-2: only its samples are used, for row y_begin-1's v
    split(rows[1], up, cur, tops.top());
    CF_UNROLL
    for (int j = 2; j < kN; ++j) {
      const int y = y_begin + j - 2;
      tops.next();
      const bool top = tops.top();
      split(rows[j], cur, up, top);
      if (y < h) emit(y, top, cur, up);
      up = cur;
    }
  }
};

// Both kernels' blocks: kWarps warps stacked vertically, a lane kPix columns
// (one 8-byte load) of kRows rows, a warp writing 30 lanes' columns;
// kMinBlocks blocks per SM bounds the registers. pipelines/pair_shapes times
// other shapes; on the H100 these two were within 5% of the fastest shape
// tried for each predictor, 8 rows per lane up to 12% slower.
template <int kPixels, int kRowsPerLane, int kWarpsPerBlock, int kBlocksPerSM = 4>
struct PairShape {
  static constexpr int kPix = kPixels;  // columns of a row per lane
  static constexpr int kRows = kRowsPerLane;
  static constexpr int kWarps = kWarpsPerBlock;
  static constexpr int kThreads = 32 * kWarps;
  static constexpr int kMinBlocks = kBlocksPerSM;
  static constexpr int kTileW = PairLane::kOutLanes * kPix, kTileH = kRows * kWarps;
};

using PredictForwardPairsShape = PairShape<2, 4, 8>;        // 4-byte pixels
using PredictForwardPlanarPairsShape = PairShape<8, 4, 4>;  // samples

// One row of a lane's window as pairs: pixels x0-2 .. x0+kPix, and the
// gradients of x0-1 .. x0+kPix.
template <class S>
struct PairRow {
  static constexpr int kWin = S::kPix + 3;   // pixels x0-2 .. x0+kPix
  static constexpr int kGrad = S::kPix + 2;  // gradients of pixels x0-1 .. x0+kPix
  unsigned e[kWin], o[kWin];
  unsigned he[kGrad], ho[kGrad], ve[kGrad], vo[kGrad];
};

// p.plane[0] holds the pixels (NC = 4 layout of PredictForwardU8Params).
template <Predictor P, class S = PredictForwardPairsShape>
__global__ void __launch_bounds__(S::kThreads, S::kMinBlocks) predict_forward_pairs(PredictForwardU8Params p) {
  using Row = PairRow<S>;
  using Pred = pair_predict::Of<P>;
  using namespace pairs;
  constexpr unsigned kAll = 0xffffffffu;
  PairLane l{};
  if (!l.locate<S>(p)) return;  // the whole warp
  const PredictForwardU8Plane &k = *l.plane;
  const int x0 = l.x0;
  // Row j as pairs; `above` is row j-1's, unused (v = 0) when row j starts a slice.
  auto split = [&](const Words<S::kPix> &row, Row &r, const Row &above, bool starts) {
    unsigned px[Row::kWin];
    px[0] = __shfl_up_sync(kAll, row.w[0], 1);
    px[1] = __shfl_up_sync(kAll, row.w[1], 1);
    CF_UNROLL
    for (int q = 0; q < S::kPix; ++q) px[q + 2] = row.w[q];
    px[S::kPix + 2] = __shfl_down_sync(kAll, row.w[0], 1);
    CF_UNROLL
    for (int i = 0; i < Row::kWin; ++i) {
      r.e[i] = even_bytes(px[i]);
      r.o[i] = odd_bytes(px[i]);
    }
    CF_UNROLL
    for (int g = 0; g < Row::kGrad; ++g) {  // pixel g + 1 of the window
      r.he[g] = absdiff_bytes(r.e[g + 1], r.e[g]);
      r.ho[g] = absdiff_bytes(r.o[g + 1], r.o[g]);
      r.ve[g] = starts ? 0u : absdiff_bytes(r.e[g + 1], above.e[g + 1]);
      r.vo[g] = starts ? 0u : absdiff_bytes(r.o[g + 1], above.o[g + 1]);
    }
  };
  l.walk<S, Row, S::kPix, 4>(split, [&](int y, bool top, const Row &cur, const Row &up) {
    if (!l.writes) return;
    unsigned re[S::kPix], ro[S::kPix];  // residual pairs of each pixel
    CF_UNROLL
    for (int i = 0; i < S::kPix; ++i) {
      const int c = i + 2, g = i + 1;  // the pixel in the window and in the gradients
      if (top) {                       // first row of a slice: W (the frame's first pixel: mid, fixed below)
        re[i] = sub16(cur.e[c], cur.e[c - 1]);
        ro[i] = sub16(cur.o[c], cur.o[c - 1]);
        continue;
      }
      const unsigned dhe = cur.he[g - 1] + up.he[g] + (P == Predictor::Gap ? up.he[g + 1] : 0u);
      const unsigned dho = cur.ho[g - 1] + up.ho[g] + (P == Predictor::Gap ? up.ho[g + 1] : 0u);
      const unsigned dve = cur.ve[g - 1] + up.ve[g] + (P == Predictor::Gap ? up.ve[g + 1] : 0u);
      const unsigned dvo = cur.vo[g - 1] + up.vo[g] + (P == Predictor::Gap ? up.vo[g + 1] : 0u);
      const unsigned pe = Pred::predict(cur.e[c - 1], up.e[c], up.e[c - 1], up.e[c + 1], dhe, dve, l.threshold);
      const unsigned po = Pred::predict(cur.o[c - 1], up.o[c], up.o[c - 1], up.o[c + 1], dho, dvo, l.threshold);
      re[i] = sub16(cur.e[c] + splat(Pred::kBias), pe);
      ro[i] = sub16(cur.o[c] + splat(Pred::kBias), po);
    }
    if (x0 == 0) {  // column 0: N, or mid on a slice's first row
      const unsigned mid = splat(unsigned(p.range.mid));
      re[0] = sub16(cur.e[2], top ? mid : up.e[2]);
      ro[0] = sub16(cur.o[2], top ? mid : up.o[2]);
    }
    // Component b of the pixel word: byte b, i.e. lane b / 2 of E (b even) or O (b odd).
    if (l.writes_whole) {
      CF_UNROLL
      for (int b = 0; b < 4; ++b) {
        if (!k.out[b]) continue;
        const unsigned *pairs_of = b % 2 ? ro : re;
        Words<S::kPix / 2> v;
        CF_UNROLL
        for (int q = 0; q < S::kPix / 2; ++q)
          v.w[q] = byte_perm(pairs_of[2 * q], pairs_of[2 * q + 1], b < 2 ? 0x5410u : 0x7632u);
        store_words<S::kPix / 2>(k.out[b] + (y * k.out_stride[b] + x0 * 2), v);
      }
      return;
    }
    for (int b = 0; b < 4; ++b) {
      if (!k.out[b]) continue;
      const unsigned *pairs_of = b % 2 ? ro : re;
      const PlaneRef ref{k.out[b], k.out_stride[b], 1};
      for (int i = 0; i < S::kPix; ++i)
        if (x0 + i < l.w) store<std::int16_t>(ref, x0 + i, y, int(std::int16_t(pairs_of[i] >> (16 * (b / 2)))));
    }
  });
}

// Planar components (GRAY8, I420, Y444, ...): a lane owns kPix = 8 samples of
// a row (two words) and takes the word left of them and the one right from
// its neighbour lanes (window words 0 .. 3, own words 1 and 2). Word j's
// samples 4j+0..3 split into E = samples 0, 2 and O = samples 1, 3, so the
// west neighbour of E is the odd samples one to the left, OW = (O[j-1] high
// lane, O[j] low lane), that of O is E itself, and the east neighbour of O is
// EW[j+1] = (E[j] high, E[j+1] low): one PRMT each. Gradients shift the same
// way (hOW, hEE, vOW, vEE).
template <class S>
struct PlanarPairRow {
  static constexpr int kN = S::kPix / 4 + 2;  // window words: left, own, right
  unsigned e[kN], o[kN], ow[kN], ew[kN];      // ow, ew from word 1
  unsigned he[kN], ho[kN], how[kN], hee[kN];  // he, how from word 1; hee to word kN-2
  unsigned ve[kN], vo[kN], vow[kN], vee[kN];
};

template <Predictor P, class S = PredictForwardPlanarPairsShape>
__global__ void __launch_bounds__(S::kThreads, S::kMinBlocks) predict_forward_planar_pairs(PredictForwardU8Params p) {
  using Row = PlanarPairRow<S>;
  using Pred = pair_predict::Of<P>;
  using namespace pairs;
  constexpr unsigned kAll = 0xffffffffu, kHighLow = 0x5432u;  // (a's high lane, b's low lane)
  constexpr int kN = Row::kN, kOwn = S::kPix / 4;
  PairLane l{};
  if (!l.locate<S>(p)) return;  // the whole warp
  const PredictForwardU8Plane &k = *l.plane;
  const int x0 = l.x0;
  auto split = [&](const Words<kOwn> &row, Row &r, const Row &above, bool starts) {
    unsigned words[kN];
    words[0] = __shfl_up_sync(kAll, row.w[kOwn - 1], 1);
    words[kN - 1] = __shfl_down_sync(kAll, row.w[0], 1);  // only its first sample is used
    CF_UNROLL
    for (int q = 0; q < kOwn; ++q) words[q + 1] = row.w[q];
    CF_UNROLL
    for (int i = 0; i < kN; ++i) {
      r.e[i] = even_bytes(words[i]);
      r.o[i] = odd_bytes(words[i]);
      r.ho[i] = absdiff_bytes(r.o[i], r.e[i]);
      r.ve[i] = starts ? 0u : absdiff_bytes(r.e[i], above.e[i]);
      r.vo[i] = starts ? 0u : absdiff_bytes(r.o[i], above.o[i]);
    }
    CF_UNROLL
    for (int i = 1; i < kN; ++i) {
      r.ow[i] = byte_perm(r.o[i - 1], r.o[i], kHighLow);
      r.ew[i] = byte_perm(r.e[i - 1], r.e[i], kHighLow);
      r.he[i] = absdiff_bytes(r.e[i], r.ow[i]);
      r.how[i] = byte_perm(r.ho[i - 1], r.ho[i], kHighLow);
      r.vow[i] = byte_perm(r.vo[i - 1], r.vo[i], kHighLow);
    }
    CF_UNROLL
    for (int i = 1; i < kN - 1; ++i) {
      r.hee[i] = byte_perm(r.he[i], r.he[i + 1], kHighLow);
      r.vee[i] = byte_perm(r.ve[i], r.ve[i + 1], kHighLow);
    }
  };
  l.walk<S, Row, kOwn, 1>(split, [&](int y, bool top, const Row &cur, const Row &up) {
    if (!l.writes) return;
    unsigned res[2 * kOwn];  // samples 0,1 then 2,3 of each own word
    CF_UNROLL
    for (int q = 1; q <= kOwn; ++q) {
      unsigned re, ro;  // residuals of E (samples 0, 2) and O (samples 1, 3)
      if (top) {        // first row of a slice: W (the frame's first sample: mid, fixed below)
        re = sub16(cur.e[q], cur.ow[q]);
        ro = sub16(cur.o[q], cur.e[q]);
      } else {
        const bool gap = P == Predictor::Gap;
        const unsigned dhe = cur.how[q] + up.he[q] + (gap ? up.ho[q] : 0u);
        const unsigned dve = cur.vow[q] + up.ve[q] + (gap ? up.vo[q] : 0u);
        const unsigned dho = cur.he[q] + up.ho[q] + (gap ? up.hee[q] : 0u);
        const unsigned dvo = cur.ve[q] + up.vo[q] + (gap ? up.vee[q] : 0u);
        const unsigned pe = Pred::predict(cur.ow[q], up.e[q], up.ow[q], up.o[q], dhe, dve, l.threshold);
        const unsigned po = Pred::predict(cur.e[q], up.o[q], up.e[q], up.ew[q + 1], dho, dvo, l.threshold);
        re = sub16(cur.e[q] + splat(Pred::kBias), pe);
        ro = sub16(cur.o[q] + splat(Pred::kBias), po);
      }
      if (q == 1 && x0 == 0) {  // column 0 (low lane of E): N, or mid on a slice's first row
        const unsigned first = sub16(cur.e[1], top ? splat(unsigned(p.range.mid)) : up.e[1]);
        re = (re & 0xffff0000u) | (first & 0xffffu);
      }
      res[2 * (q - 1)] = byte_perm(re, ro, 0x5410u);
      res[2 * (q - 1) + 1] = byte_perm(re, ro, 0x7632u);
    }
    if (l.writes_whole) {
      Words<2 * kOwn> v;
      CF_UNROLL
      for (int q = 0; q < 2 * kOwn; ++q) v.w[q] = res[q];
      store_words<2 * kOwn>(k.out[0] + (y * k.out_stride[0] + x0 * 2), v);
    } else {
      const PlaneRef ref{k.out[0], k.out_stride[0], 1};
      for (int i = 0; i < S::kPix; ++i)
        if (x0 + i < l.w) store<std::int16_t>(ref, x0 + i, y, int(std::int16_t(res[i / 2] >> (16 * (i % 2)))));
    }
  });
}

}  // namespace cf::cuda
