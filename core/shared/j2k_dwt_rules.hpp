// The forward discrete wavelet transform of JPEG 2000 (ITU-T T.800 Annex F)
// on one line and on one level of a tile-component, shared by the serial
// reference, the OpenMP schedule and the CUDA kernels (CF_HD:
// host_device.hpp), so all three compute the same thing.
//
// A line of n samples starts at the absolute index i0 (a coordinate of the
// tile-component or of one of its resolutions, T.800 B.5); even absolute
// indices are low-pass, odd ones high-pass (1D_SD, F.4.5). The line is
// extended by whole-sample symmetric extension (PSE, F.4.3): X(i0 - k) =
// X(i0 + k), X(i1 - 1 + k) = X(i1 - 1 - k). A lifting step keeps that
// symmetry (a mirrored index has the parity of its mirror), so each step
// reads its missing neighbours from inside the line: left of the first
// sample is the second, right of the last is the one before it.
//
// The filters (F.4.8):
//  - Reversible53: int32.  Y(2n+1) = X(2n+1) - floor((X(2n) + X(2n+2)) / 2),
//    then Y(2n) = X(2n) + floor((Y(2n-1) + Y(2n+1) + 2) / 4).
//  - Irreversible97: float. Four lifting steps, alpha on the odd samples,
//    beta on the even, gamma on the odd, delta on the even
//    (Y(i) = Y(i) + c * (Y(i-1) + Y(i+1))), then the high-pass (odd) samples
//    times K and the low-pass (even) ones times 1/K, so that the decoder's
//    K and 1/K (F.3.8.2) undo them. Every product and sum is rounded on its
//    own (rounded_float.hpp), in the order written, for identical bits on
//    every backend.
// A line of one sample is kept as it is at an even i0 and doubled at an odd
// one (1D_SD, for both filters; the decoder's 1D_SR halves it).
//
// After the lifting the line is deinterleaved (2D_DEINTERLEAVE, F.4.6): its
// low-pass samples, ceil(i1 / 2) - ceil(i0 / 2) of them, first, then the
// high-pass ones.
//
// One level of the 2-D transform (2D_SD, F.4.2) lifts every column
// (VER_SD), then every row (HOR_SD) of a w x h region whose top-left sample
// has the coordinates (u0, v0); deinterleaving both leaves LL at the
// top-left, HL top-right, LH bottom-left, HH bottom-right. The order
// matters: the 5/3's floors make rows-then-columns another integer result.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/shared/cdf97_lifting.hpp"
#include "core/shared/host_device.hpp"
#include "core/shared/rounded_float.hpp"

namespace cf::j2k::dwt {

// Sample i of a line at p[i * stride].
template <class T>
struct Strided {
  T *p;
  std::ptrdiff_t stride;
  CF_HD T &operator[](int i) const { return p[std::ptrdiff_t(i) * stride]; }
};

// Low-pass samples of a line of n samples whose first has the parity
// `odd_start` (i0 & 1): ceil(i1 / 2) - ceil(i0 / 2).
CF_HD int low_count(int n, bool odd_start) { return odd_start ? n / 2 : (n + 1) / 2; }

// The neighbours of sample i of a line of n >= 2 samples (a pointer or a
// Strided), with the symmetric extension.
template <class Line>
CF_HD auto left_of(const Line &x, int i) {
  return i > 0 ? x[i - 1] : x[1];
}
template <class Line>
CF_HD auto right_of(const Line &x, int i, int n) {
  return i + 1 < n ? x[i + 1] : x[n - 2];
}

// Each filter is its lifting steps, one sample at a time (written once for
// lift() below and the CUDA kernels, which run a step across threads):
// kSteps steps, step s updating the samples of odd absolute index when
// on_odd(s), else the even ones, each from its two neighbours; then each
// sample scaled, the high-pass (odd) ones by one factor, the low-pass by
// another.
struct Reversible53 {
  using Sample = std::int32_t;

  // Predict the odd samples, then update the even ones. floor(v / 2^k) is
  // v >> k (an arithmetic shift, as in colour_rules.hpp).
  static constexpr int kSteps = 2;
  CF_HD static constexpr bool on_odd(int step) { return step == 0; }
  CF_HD static std::int32_t lifted(int step, std::int32_t x, std::int32_t left, std::int32_t right) {
    return step == 0 ? x - ((left + right) >> 1) : x + ((left + right + 2) >> 2);
  }
  CF_HD static std::int32_t scaled(std::int32_t x, bool) { return x; }
  CF_HD static std::int32_t single(std::int32_t x, bool odd_start) { return odd_start ? x * 2 : x; }
};

struct Irreversible97 {
  using Sample = float;

  // T.800 Table F.4's lifting parameters and scaling factor.
  static constexpr float kAlpha = float(cdf97_lifting::kAlpha);
  static constexpr float kBeta = float(cdf97_lifting::kBeta);
  static constexpr float kGamma = float(cdf97_lifting::kGamma);
  static constexpr float kDelta = float(cdf97_lifting::kDelta);
  static constexpr float kK = float(cdf97_lifting::kK);
  static constexpr float kInvK = float(1.0 / cdf97_lifting::kK);

  // alpha on the odd samples, beta on the even, gamma on the odd, delta on
  // the even: x += c * (left + right), each operation rounded on its own.
  static constexpr int kSteps = 4;
  CF_HD static constexpr bool on_odd(int step) { return (step & 1) == 0; }
  CF_HD static float lifted(int step, float x, float left, float right) {
    const float c = step == 0 ? kAlpha : step == 1 ? kBeta : step == 2 ? kGamma : kDelta;
    return rounded::add(x, rounded::mul(c, rounded::add(left, right)));
  }
  CF_HD static float scaled(float x, bool high) { return rounded::mul(x, high ? kK : kInvK); }
  CF_HD static float single(float x, bool odd_start) { return odd_start ? rounded::mul(x, 2.0f) : x; }
};

// The lifting of filter F in place on x[0, n), n >= 2; x[i] has the
// absolute parity (odd_start + i) & 1.
template <class F>
CF_HD void lift(typename F::Sample *x, int n, bool odd_start) {
  const int first_odd = odd_start ? 0 : 1;
  for (int step = 0; step < F::kSteps; ++step)
    for (int i = F::on_odd(step) ? first_odd : 1 - first_odd; i < n; i += 2)
      x[i] = F::lifted(step, x[i], left_of(x, i), right_of(x, i, n));
  for (int i = 0; i < n; ++i) x[i] = F::scaled(x[i], ((i + first_odd) & 1) == 0);
}

// 1D_SD and the deinterleave of one line: n samples from `in`, lifted in
// `scratch` (n samples), written to `out` low-pass first. `out` may be `in`.
template <class F>
CF_HD void forward_line(Strided<const typename F::Sample> in, int n, bool odd_start, typename F::Sample *scratch,
                        Strided<typename F::Sample> out) {
  if (n <= 0) return;
  if (n == 1) {
    out[0] = F::single(in[0], odd_start);
    return;
  }
  for (int i = 0; i < n; ++i) scratch[i] = in[i];
  lift<F>(scratch, n, odd_start);
  const int low = low_count(n, odd_start), first_low = odd_start ? 1 : 0;
  for (int k = 0; k < low; ++k) out[k] = scratch[first_low + 2 * k];
  for (int k = 0; k < n - low; ++k) out[low + k] = scratch[1 - first_low + 2 * k];
}

// Column x (VER_SD) or row y (HOR_SD) of a w x h region at data (rows of
// row_stride samples) whose top-left sample has the coordinates (u0, v0),
// transformed in place. scratch holds h (columns) or w (rows) samples.
template <class F>
CF_HD void forward_column(typename F::Sample *data, std::ptrdiff_t row_stride, std::uint32_t v0, int h, int x,
                          typename F::Sample *scratch) {
  typename F::Sample *p = data + x;
  forward_line<F>({p, row_stride}, h, (v0 & 1) != 0, scratch, {p, row_stride});
}
template <class F>
CF_HD void forward_row(typename F::Sample *data, std::ptrdiff_t row_stride, std::uint32_t u0, int w, int y,
                       typename F::Sample *scratch) {
  typename F::Sample *p = data + std::ptrdiff_t(y) * row_stride;
  forward_line<F>({p, 1}, w, (u0 & 1) != 0, scratch, {p, 1});
}

// One level of 2D_SD on the region, in place; scratch holds max(w, h) samples.
template <class F>
CF_HD void forward_level(typename F::Sample *data, std::ptrdiff_t row_stride, std::uint32_t u0, std::uint32_t v0, int w,
                         int h, typename F::Sample *scratch) {
  for (int x = 0; x < w; ++x) forward_column<F>(data, row_stride, v0, h, x, scratch);
  for (int y = 0; y < h; ++y) forward_row<F>(data, row_stride, u0, w, y, scratch);
}

}  // namespace cf::j2k::dwt
