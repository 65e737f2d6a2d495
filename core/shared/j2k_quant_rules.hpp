// The JPEG 2000 encoder's sample-wise steps around the wavelet (ITU-T
// T.800 Annexes E and G), shared by the serial reference, the OpenMP
// schedule and the CUDA kernels (CF_HD: host_device.hpp): the DC level
// shift, the irreversible component transform (ICT) and the irreversible
// quantiser. The reversible component transform is
// cf::colour::forward(ColourTransform::Rct, v) (colour_rules.hpp).
//
// Float arithmetic is rounded operation by operation (rounded_float.hpp),
// in the order written, so every backend gives the same bits.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/shared/host_device.hpp"
#include "core/shared/rounded_float.hpp"

namespace cf::j2k::quant {

// G.1.2: an unsigned sample of `bit_depth` bits minus 2^(bit_depth - 1).
CF_HD std::int32_t dc_shift(std::int32_t sample, int bit_depth) {
  return sample - (std::int32_t(1) << (bit_depth - 1));
}

// G.3.1, Equation G-5: (R, G, B) in v[0..2], DC-shifted, to (Y, Cb, Cr), in place.
CF_HD void ict_forward(float v[3]) {
  using rounded::add;
  using rounded::mul;
  const float r = v[0], g = v[1], b = v[2];
  v[0] = add(add(mul(0.299f, r), mul(0.587f, g)), mul(0.114f, b));
  v[1] = add(add(mul(-0.16875f, r), mul(-0.33126f, g)), mul(0.5f, b));
  v[2] = add(add(mul(0.5f, r), mul(-0.41869f, g)), mul(-0.08131f, b));
}

// The largest float under 2^31: quantisation indices are clamped to it.
constexpr float kMaxIndex = 2147483520.0f;

// E.1's deadzone quantiser seen from the encoder: q = sign(c) floor(|c| /
// Delta_b), with 1 / Delta_b given (`reciprocal`, computed on the host from
// the step the decoder reads in QCD). NaN gives 0.
CF_HD std::int32_t quantise(float c, float reciprocal) {
  const float a = c < 0 ? -c : c;
  float k = floorf(rounded::mul(a, reciprocal));
  if (k > kMaxIndex) k = kMaxIndex;
  if (!(k >= 0)) k = 0;  // NaN
  return c < 0 ? -std::int32_t(k) : std::int32_t(k);
}

}  // namespace cf::j2k::quant
