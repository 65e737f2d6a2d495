// Per-pixel arithmetic of the lossless predictors: the formulas and the
// border rule of cudafilters/predictor.hpp, written once and used by the
// serial reference, the OpenMP schedule and the CUDA kernels (compiled for
// the device through CF_HD). Nothing here knows how pixels are
// scheduled: callers gather the neighbours, this file predicts.
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"
#include "cudafilters/predictor.hpp"

namespace cf::predict {

// Sample range of the raw type and the first pixel's prediction.
struct Range {
  int lo, hi, mid;
};
inline Range range_of(SampleType raw) {
  switch (raw) {
    case SampleType::U8: return {0, 255, 128};
    case SampleType::U16: return {0, 65535, 32768};
    default: return {-32768, 32767, 0};  // S16 coefficients of an earlier stage
  }
}

// The causal neighbours of one pixel, coordinates already clamped into the slice.
struct Neighbours {
  int w, ww, n, nn, nw, ne, nne;
};

CF_HD int abs_(int v) { return v < 0 ? -v : v; }
CF_HD int min_(int a, int b) { return a < b ? a : b; }
CF_HD int max_(int a, int b) { return a > b ? a : b; }
CF_HD int clamp_(int v, int lo, int hi) { return v < lo ? lo : (v > hi ? hi : v); }

// The predictors are written as selects, not early returns: the same values,
// but straight-line code on the GPU, where lanes would otherwise diverge.
CF_HD int med(const Neighbours &p) {
  const int lo = min_(p.w, p.n), hi = max_(p.w, p.n);
  const int v = p.nw <= lo ? hi : p.w + p.n - p.nw;
  return p.nw >= hi ? lo : v;  // NW >= max wins (both hold only when W = N = NW)
}

CF_HD int gap(const Neighbours &p) {
  const int dh = abs_(p.w - p.ww) + abs_(p.n - p.nw) + abs_(p.n - p.ne);
  const int dv = abs_(p.w - p.nw) + abs_(p.n - p.nn) + abs_(p.ne - p.nne);
  const int d = dv - dh, ad = abs_(d);
  const int e = d > 0 ? p.w : p.n;               // d > 0: the W side, d < 0: the N side
  const int t4 = 2 * (p.w + p.n) + p.ne - p.nw;  // 4t
  // All three blends first, then selects: written as nested ?: the GPU
  // compiler branched per pixel, which kept the inverse from overlapping
  // one pixel's work with the next.
  const int half = (t4 + 4 * e) >> 3;         // |d| in (32, 80]: (t + E) / 2
  const int quarter = (3 * t4 + 4 * e) >> 4;  // |d| in (8, 32]: (3t + E) / 4
  const int plain = t4 >> 2;                  // |d| <= 8: t
  const int blend = ad > 32 ? half : ad > 8 ? quarter : plain;
  return ad > 80 ? e : blend;  // |d| > 80: E itself
}

CF_HD int ged(const Neighbours &p, int threshold) {
  const int gv = abs_(p.nw - p.w) + abs_(p.nn - p.n);
  const int gh = abs_(p.ww - p.w) + abs_(p.nw - p.n);
  const int v = gv - gh < -threshold ? p.n : (3 * p.w + 3 * p.n - 2 * p.nw) >> 2;
  return gv - gh > threshold ? p.w : v;  // threshold >= 0: at most one test holds
}

// The prediction of a pixel. top: first row of its slice; left: first
// column. There only the neighbours the border rule names matter (W on the
// top row, N in the left column); the others must hold sample values (zero,
// say): the formula is evaluated anyway and then not used.
CF_HD int prediction(Predictor kind, int threshold, const Range &r, const Neighbours &p, bool top, bool left) {
  const int v = kind == Predictor::Med ? med(p) : kind == Predictor::Gap ? gap(p) : ged(p, threshold);
  const int border = top ? (left ? r.mid : p.w) : p.n;
  return top || left ? border : clamp_(v, r.lo, r.hi);
}

// Residuals of the forward stay within +-(hi - lo) <= 65535; clamping r first
// keeps r + prediction in int32 for any residual input (see predictor.hpp).
constexpr int kResidualLimit = 1 << 17;
CF_HD int reconstruct(int residual, int prediction, const Range &r) {
  return clamp_(clamp_(residual, -kResidualLimit, kResidualLimit) + prediction, r.lo, r.hi);
}

// Neighbours of pixel x (0 < x < w) from rows given as anything indexable:
// cur = the pixel's row (only x-1 and x-2 are read), up1 = the row above,
// up2 = two rows above (pass up1 again on the slice's second row). Columns
// are clamped into [0, w-1] as the border rule says.
template <class Up, class Cur>
CF_HD Neighbours gather(const Up &up2, const Up &up1, const Cur &cur, int x, int w) {
  const int e = x + 1 < w ? x + 1 : w - 1, ww = x >= 2 ? x - 2 : 0;
  return {int(cur[x - 1]), int(cur[ww]), int(up1[x]), int(up2[x]), int(up1[x - 1]), int(up1[e]), int(up2[e])};
}

// ---------------------------------------------------------------- whole rows

// Residuals of one row of w pixels. up1 = nullptr on the slice's first row.
inline void forward_row(const PredictorParams &p, const Range &r, const std::int32_t *up2, const std::int32_t *up1,
                        const std::int32_t *cur, int w, std::int32_t *out) {
  Neighbours first{};
  first.n = up1 ? up1[0] : 0;
  out[0] = cur[0] - prediction(p.predictor, p.threshold, r, first, !up1, true);
  if (!up1) {  // first row of the slice: only W
    for (int x = 1; x < w; ++x) {
      Neighbours nb{};
      nb.w = cur[x - 1];
      out[x] = cur[x] - prediction(p.predictor, p.threshold, r, nb, true, false);
    }
    return;
  }
  for (int x = 1; x < w; ++x)
    out[x] = cur[x] - prediction(p.predictor, p.threshold, r, gather(up2, up1, cur, x, w), false, false);
}

// The inverse of forward_row on pixels [x_begin, x_end) of the row: row
// holds residuals there on entry and pixels on return; pixels before x_begin
// (and the rows above, up to x_end) must be reconstructed already.
inline void inverse_row(const PredictorParams &p, const Range &r, const std::int32_t *up2, const std::int32_t *up1,
                        std::int32_t *row, int w, int x_begin, int x_end) {
  int x = x_begin;
  if (x == 0 && x < x_end) {
    Neighbours first{};
    first.n = up1 ? up1[0] : 0;
    row[0] = reconstruct(row[0], prediction(p.predictor, p.threshold, r, first, !up1, true), r);
    x = 1;
  }
  if (!up1) {
    for (; x < x_end; ++x) {
      Neighbours nb{};
      nb.w = row[x - 1];
      row[x] = reconstruct(row[x], prediction(p.predictor, p.threshold, r, nb, true, false), r);
    }
    return;
  }
  for (; x < x_end; ++x)
    row[x] = reconstruct(row[x], prediction(p.predictor, p.threshold, r, gather(up2, up1, row, x, w), false, false), r);
}

// Rows above y within its slice (slice_height 0 = one slice): nullptr when y
// is the slice's first row; up2 is up1 on its second row.
struct SliceRows {
  int first;  // the slice's first row
  CF_HD static SliceRows of(int y, int slice_height) { return {slice_height > 0 ? y - y % slice_height : 0}; }
  CF_HD bool has_up1(int y) const { return y > first; }
  CF_HD bool has_up2(int y) const { return y > first + 1; }
};

}  // namespace cf::predict
