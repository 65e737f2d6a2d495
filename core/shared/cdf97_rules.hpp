// The CDF 9/7 arithmetic of cudafilters/cdf97.hpp on one 1-D signal and one
// coefficient, shared by the serial reference, the OpenMP schedule and the
// CUDA kernels (CF_HD: host_device.hpp), so all three compute the same thing.
//
// Bit-identical results need every multiply and add rounded on its own, in
// the same order: on the device __fmul_rn/__fadd_rn/__fdiv_rn (never fused
// into an FMA); on the host plain float operations, which the build keeps
// unfused (-ffp-contract=off in meson.build; no -ffast-math).
#pragma once

#include <cmath>
#include <cstdint>

#include "core/shared/cdf97_lifting.hpp"
#include "core/shared/host_device.hpp"
#include "core/shared/rounded_float.hpp"

#include "cudafilters/cdf97.hpp"

namespace cf::cdf97 {

constexpr float kAlpha = float(cdf97_lifting::kAlpha), kBeta = float(cdf97_lifting::kBeta),
                kGamma = float(cdf97_lifting::kGamma), kDelta = float(cdf97_lifting::kDelta);
// sqrt(2)/K and K/sqrt(2) with K = 1.230174105 (see cdf97.hpp), and their inverses.
constexpr float kLowGain = 1.1496043988f, kHighGain = 0.86986445169f;
constexpr float kLowInv = 0.86986445169f, kHighInv = 1.1496043988f;

using rounded::add;
using rounded::div;
using rounded::mul;

// A signal of n floats, sample i at p[i * stride].
struct Signal {
  float *p;
  long long stride;
  CF_HD float &operator[](int i) const { return p[i * stride]; }
};

// The four lifting steps: step k (0..3) adds c * (left + right) to the
// samples of one parity. Forward: alpha on odd, beta on even, gamma on odd,
// delta on even; the inverse undoes them in reverse order (-delta on even
// first).
CF_HD float step_coefficient(bool forward, int k) {
  if (forward) return k == 0 ? kAlpha : k == 1 ? kBeta : k == 2 ? kGamma : kDelta;
  return k == 0 ? -kDelta : k == 1 ? -kGamma : k == 2 ? -kBeta : -kAlpha;
}
CF_HD int step_first(bool forward, int k) { return (forward ? k + 1 : k) & 1; }

// One sample of a step, rounded operation by operation.
CF_HD float lifted(float x, float c, float left, float right) { return add(x, mul(c, add(left, right))); }

// x[i] += c * (x[i-1] + x[i+1]) for i = first, first+2, ... < n, with
// x[-1] = x[1] and x[n] = x[n-2] (n >= 2).
CF_HD void lift(Signal x, int n, int first, float c) {
  for (int i = first; i < n; i += 2) {
    const float left = i > 0 ? x[i - 1] : x[1];
    const float right = i + 1 < n ? x[i + 1] : x[n - 2];
    x[i] = lifted(x[i], c, left, right);
  }
}

// Forward 1-D transform in place: low band to [0, ceil(n/2)), high band to
// [ceil(n/2), n). tmp holds n samples.
CF_HD void forward(Signal x, int n, Signal tmp) {
  if (n < 2) return;
  for (int k = 0; k < 4; ++k) lift(x, n, step_first(true, k), step_coefficient(true, k));
  const int nl = (n + 1) / 2;
  for (int i = 0; i < n; ++i) tmp[(i & 1) ? nl + i / 2 : i / 2] = mul(x[i], (i & 1) ? kHighGain : kLowGain);
  for (int i = 0; i < n; ++i) x[i] = tmp[i];
}

// The inverse of forward(): the same steps undone in reverse order.
CF_HD void inverse(Signal x, int n, Signal tmp) {
  if (n < 2) return;
  const int nl = (n + 1) / 2;
  for (int i = 0; i < n; ++i) tmp[i] = mul(x[(i & 1) ? nl + i / 2 : i / 2], (i & 1) ? kHighInv : kLowInv);
  for (int k = 0; k < 4; ++k) lift(tmp, n, step_first(false, k), step_coefficient(false, k));
  for (int i = 0; i < n; ++i) x[i] = tmp[i];
}

// What is done to a coefficient after the transform. `detail`: not in the
// final LL band (only detail bands are thresholded).
struct Post {
  float threshold, step;
  bool soft;
};
CF_HD Post post_of(const Cdf97Params &p) {
  return {p.threshold, p.quant_step, p.threshold_mode == ThresholdMode::Soft};
}

CF_HD float shrink(const Post &q, float c, bool detail) {
  if (!detail || !(q.threshold > 0)) return c;
  const float a = c < 0 ? -c : c;
  if (a < q.threshold) return 0.0f;
  if (!q.soft) return c;
  return c < 0 ? add(c, q.threshold) : add(c, -q.threshold);
}

// Largest quantisation index of an S16 or S32 output.
constexpr float kMaxIndexS16 = 32767.0f, kMaxIndexS32 = 1073741824.0f;

CF_HD std::int32_t quantise(float c, float step, float max_index) {
  const float a = c < 0 ? -c : c;
  float k = floorf(div(a, step));
  if (!(k <= max_index)) k = max_index;  // also NaN
  return c < 0 ? -std::int32_t(k) : std::int32_t(k);
}

CF_HD float dequantise(std::int32_t k, float step) {
  if (k == 0) return 0.0f;
  const float m = mul(add(float(k < 0 ? -k : k), 0.5f), step);
  return k < 0 ? -m : m;
}

// floor(v + 0.5) clamped to [lo, hi].
CF_HD std::int32_t round_clamp(float v, float lo, float hi) {
  float r = floorf(add(v, 0.5f));
  r = r < lo ? lo : (r > hi ? hi : r);
  if (r != r) r = lo;  // NaN
  return std::int32_t(r);
}

}  // namespace cf::cdf97
