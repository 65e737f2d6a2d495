// The inverse discrete wavelet transform of JPEG 2000 (ITU-T T.800 Annex F.3)
// on one line and on one level of a tile-component, shared by the serial
// reference, the OpenMP schedule and the CUDA kernels (CF_HD:
// host_device.hpp). It undoes j2k_dwt_rules.hpp and keeps its conventions:
// absolute index parity (even low-pass, odd high-pass), whole-sample
// symmetric extension read from inside the line (left of the first sample
// is the second, right of the last the one before it), and the
// deinterleaved block (low-pass half first).
//
// A line of n samples at the absolute index i0 arrives deinterleaved, its
// ceil(i1 / 2) - ceil(i0 / 2) low-pass samples first; it is interleaved
// (2D_INTERLEAVE, F.3.3, on one line) and then 1D_SR (F.3.6) undoes the
// lifting steps in reverse order with the F.3.8 equations:
//  - Reversible53: int32.  X(2n) = Y(2n) - floor((Y(2n-1) + Y(2n+1) + 2) / 4),
//    then X(2n+1) = Y(2n+1) + floor((X(2n) + X(2n+2)) / 2) (F.3.8.1). The
//    sums wrap modulo 2^32 (wrap_add, wrap_sub), so hostile coefficients give
//    defined bits instead of undefined overflow; valid ones never wrap.
//  - Irreversible97: float. The low-pass (even) samples times K and the
//    high-pass (odd) ones times 1/K first (F.3.8.2, steps 1 and 2), then
//    delta on the even samples, gamma on the odd, beta on the even, alpha on
//    the odd: Y(i) = Y(i) + (-c) (Y(i-1) + Y(i+1)), every product and sum
//    rounded on its own (rounded_float.hpp), in the order written, for
//    identical bits on every backend.
// A line of one sample (1D_SR, F.3.7) is kept at an even i0 and halved at
// an odd one (the 5/3 rounds the half toward zero: exact for what 1D_SD
// doubled).
//
// One level of 2D_SR (F.3.2) on a w x h region of the deinterleaved block
// whose top-left sample has the coordinates (u0, v0): every row (HOR_SR),
// then every column (VER_SR), the reverse of 2D_SD's columns then rows, so
// that the 5/3's floors undo exactly. The LL quarter at the region's
// top-left is the previous level's result.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/shared/host_device.hpp"
#include "core/shared/j2k_dwt_rules.hpp"
#include "core/shared/rounded_float.hpp"

namespace cf::j2k::dwt {

CF_HD std::int32_t wrap_add(std::int32_t a, std::int32_t b) {
  return std::int32_t(std::uint32_t(a) + std::uint32_t(b));
}
CF_HD std::int32_t wrap_sub(std::int32_t a, std::int32_t b) {
  return std::int32_t(std::uint32_t(a) - std::uint32_t(b));
}

// The inverse of filter F, one sample at a time (for unlift() below and the
// CUDA kernels): the forward steps undone from the last to the first, step
// s updating the samples that the forward step s updated (F::on_odd(s)),
// after every sample is scaled (unscaled()).
template <class F>
struct Synthesis;

template <>
struct Synthesis<Reversible53> {
  using Sample = std::int32_t;
  // Step 1 (the update) is undone first, on the even samples; then step 0
  // (the prediction), on the odd ones.
  CF_HD static std::int32_t unlifted(int step, std::int32_t x, std::int32_t left, std::int32_t right) {
    return step == 1 ? wrap_sub(x, wrap_add(wrap_add(left, right), 2) >> 2) : wrap_add(x, wrap_add(left, right) >> 1);
  }
  CF_HD static std::int32_t unscaled(std::int32_t x, bool) { return x; }
  CF_HD static std::int32_t single(std::int32_t x, bool odd_start) { return odd_start ? x / 2 : x; }
};

template <>
struct Synthesis<Irreversible97> {
  using Sample = float;
  using F = Irreversible97;
  // Step s of the forward lifting had the parameter c (alpha, beta, gamma,
  // delta for s = 0..3); undoing it adds -c (Y(i-1) + Y(i+1)).
  CF_HD static float unlifted(int step, float x, float left, float right) {
    const float c = step == 0 ? F::kAlpha : step == 1 ? F::kBeta : step == 2 ? F::kGamma : F::kDelta;
    return rounded::add(x, rounded::mul(-c, rounded::add(left, right)));
  }
  // F.3.8.2 steps 1 and 2: the low-pass samples times K, the high-pass times 1/K.
  CF_HD static float unscaled(float x, bool high) { return rounded::mul(x, high ? F::kInvK : F::kK); }
  CF_HD static float single(float x, bool odd_start) { return odd_start ? rounded::mul(x, 0.5f) : x; }
};

// The inverse lifting of filter F in place on x[0, n), n >= 2, interleaved;
// x[i] has the absolute parity (odd_start + i) & 1.
template <class F>
CF_HD void unlift(typename F::Sample *x, int n, bool odd_start) {
  using S = Synthesis<F>;
  const int first_odd = odd_start ? 0 : 1;
  for (int i = 0; i < n; ++i) x[i] = S::unscaled(x[i], ((i + first_odd) & 1) == 0);
  for (int step = F::kSteps - 1; step >= 0; --step)
    for (int i = F::on_odd(step) ? first_odd : 1 - first_odd; i < n; i += 2)
      x[i] = S::unlifted(step, x[i], left_of(x, i), right_of(x, i, n));
}

// The interleave and 1D_SR of one line: n samples from `in`, low-pass
// first, interleaved into `scratch` (n samples), reconstructed there and
// written to `out` in order. `out` may be `in`.
template <class F>
CF_HD void inverse_line(Strided<const typename F::Sample> in, int n, bool odd_start, typename F::Sample *scratch,
                        Strided<typename F::Sample> out) {
  if (n <= 0) return;
  if (n == 1) {
    out[0] = Synthesis<F>::single(in[0], odd_start);
    return;
  }
  const int low = low_count(n, odd_start), first_low = odd_start ? 1 : 0;
  for (int k = 0; k < low; ++k) scratch[first_low + 2 * k] = in[k];
  for (int k = 0; k < n - low; ++k) scratch[1 - first_low + 2 * k] = in[low + k];
  unlift<F>(scratch, n, odd_start);
  for (int i = 0; i < n; ++i) out[i] = scratch[i];
}

// Row y (HOR_SR) or column x (VER_SR) of a w x h region at data (rows of
// row_stride samples) whose top-left sample has the coordinates (u0, v0),
// reconstructed in place. scratch holds w (rows) or h (columns) samples.
template <class F>
CF_HD void inverse_row(typename F::Sample *data, std::ptrdiff_t row_stride, std::uint32_t u0, int w, int y,
                       typename F::Sample *scratch) {
  typename F::Sample *p = data + std::ptrdiff_t(y) * row_stride;
  inverse_line<F>({p, 1}, w, (u0 & 1) != 0, scratch, {p, 1});
}
template <class F>
CF_HD void inverse_column(typename F::Sample *data, std::ptrdiff_t row_stride, std::uint32_t v0, int h, int x,
                          typename F::Sample *scratch) {
  typename F::Sample *p = data + x;
  inverse_line<F>({p, row_stride}, h, (v0 & 1) != 0, scratch, {p, row_stride});
}

// One level of 2D_SR on the region, in place; scratch holds max(w, h) samples.
template <class F>
CF_HD void inverse_level(typename F::Sample *data, std::ptrdiff_t row_stride, std::uint32_t u0, std::uint32_t v0, int w,
                         int h, typename F::Sample *scratch) {
  for (int y = 0; y < h; ++y) inverse_row<F>(data, row_stride, u0, w, y, scratch);
  for (int x = 0; x < w; ++x) inverse_column<F>(data, row_stride, v0, h, x, scratch);
}

}  // namespace cf::j2k::dwt
