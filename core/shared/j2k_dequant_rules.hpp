// The JPEG 2000 decoder's sample-wise steps around the inverse wavelet
// (ITU-T T.800 Annexes E, G and H), shared by the serial reference, the
// OpenMP schedule and the CUDA kernels (CF_HD: host_device.hpp): the ROI
// scaling undone, dequantisation, the inverse irreversible component
// transform (ICT), and the output sample: rounded, DC level shifted and
// clamped. The inverse reversible component transform is
// cf::colour::inverse(ColourTransform::Rct, v) (colour_rules.hpp).
//
// Float arithmetic is rounded operation by operation (rounded_float.hpp),
// in the order written, so every backend gives the same bits.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/shared/host_device.hpp"
#include "core/shared/rounded_float.hpp"

namespace cf::j2k::quant {

// H.2 (Maxshift): a coefficient whose magnitude is 2^s or more belongs to
// the region of interest and was scaled up by s; it is scaled back down.
// Smaller magnitudes are the background's, kept. s = 0: no ROI; s >= 31: no
// int32 magnitude reaches 2^s, so nothing is scaled. With f fraction bits
// (dequantise below) the threshold is 2^(s + f), and a region coefficient
// keeps its half step (its lowest bit) once scaled down.
CF_HD std::int32_t roi_descale(std::int32_t q, std::uint32_t s, std::uint32_t f = 0) {
  if (s == 0 || s + f >= 31) return q;
  const std::uint32_t m = q < 0 ? 0u - std::uint32_t(q) : std::uint32_t(q);
  if (m < (std::uint32_t(1) << (s + f))) return q;
  const std::int32_t d = std::int32_t((m >> s) | (f ? 1u : 0u));
  return q < 0 ? -d : d;
}

// E.1.1.1: the coefficient of quantisation index q, q Delta_b. A
// decoder that reconstructs between the decision levels (E.1.1.2, the
// parameter r) passes q with f fraction bits and the step Delta_b / 2^f.
CF_HD float dequantise(std::int32_t q, float step) { return rounded::mul(float(q), step); }

// G.3.2, Equation G-6: (Y, Cb, Cr) in v[0..2] to (R, G, B), DC-shifted, in place.
CF_HD void ict_inverse(float v[3]) {
  using rounded::add;
  using rounded::mul;
  const float y = v[0], cb = v[1], cr = v[2];
  v[0] = add(y, mul(1.402f, cr));
  v[1] = add(add(y, mul(-0.34413f, cb)), mul(-0.71414f, cr));
  v[2] = add(y, mul(1.772f, cb));
}

// The nearest integer to a reconstructed float sample, ties to even (the
// IEEE default rounding of rintf); NaN gives 0, magnitudes past 2^30 are
// held there (any of them clamps to the same output sample).
CF_HD std::int32_t nearest(float x) {
  constexpr float kLimit = 1073741824.0f;  // 2^30
  if (!(x == x)) return 0;
  if (x > kLimit) return std::int32_t(kLimit);
  if (x < -kLimit) return -std::int32_t(kLimit);
  return std::int32_t(rintf(x));
}

// G.1.2 undone and the result clamped: a reconstructed sample v of a
// component of `bit_depth` bits (1..16) plus 2^(bit_depth - 1), held to
// [0, 2^bit_depth - 1]. Unsigned components get their samples back; a
// signed component's sample s comes out as s + 2^(bit_depth - 1) (offset
// binary), which keeps every value of its range in an unsigned plane.
CF_HD std::uint32_t output_sample(std::int32_t v, int bit_depth) {
  const std::int64_t s = std::int64_t(v) + (std::int64_t(1) << (bit_depth - 1));
  const std::int64_t top = (std::int64_t(1) << bit_depth) - 1;
  return std::uint32_t(s < 0 ? 0 : s > top ? top : s);
}

}  // namespace cf::j2k::quant
