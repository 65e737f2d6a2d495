// The 8x8 DCT's arithmetic (the definition at the top of cudafilters/dct.hpp),
// shared by the serial reference, the OpenMP schedule and the CUDA kernels
// (CF_HD: host_device.hpp), so all of them sum the same products in the
// same order.
#pragma once

#include <cmath>
#include <cstdint>

#include "core/shared/host_device.hpp"
#include "core/shared/rounded_float.hpp"
#include "cudafilters/frame.hpp"

namespace cf::dct {

// What every 8x8 block needs, computed once per call on the host (core fills
// it; the backends and the kernels read it).
struct Setup {
  float cosine[64];             // C[k][n] at 8 k + n
  float quant[kMaxPlanes][64];  // Q per component, row-major
  float shift;                  // level shift: 128 for U8 input, else 0
  int lo, hi;                   // the inverse's output range
};

// Each product and sum rounded on its own (rounded_float.hpp).
using rounded::add;
using rounded::mul;

// sum_{i=0..7} a[i * as] * b[i * bs], in order of i.
CF_HD float dot8(const float *a, int as, const float *b, int bs) {
  float acc = mul(a[0], b[0]);
  for (int i = 1; i < 8; ++i) acc = add(acc, mul(a[i * as], b[i * bs]));
  return acc;
}

// Half away from zero, saturated to [lo, hi] first (so any float converts).
CF_HD int round_clamp(float v, int lo, int hi) {
  const float r = roundf(v);
  return r < float(lo) ? lo : (r > float(hi) ? hi : int(r));
}

// Coefficient f with quantiser q: round(f / q), S16. Sample c of a stored
// coefficient plane, dequantised: c q.
CF_HD int quantise(float f, float q) { return round_clamp(f / q, -32768, 32767); }
CF_HD float dequantise(int c, float q) { return mul(float(c), q); }

// Forward of one block: x (row-major, level-shifted) -> q (rounded,
// quantised, saturated to S16). tmp: 64 floats of scratch.
CF_HD void forward_block(const Setup &s, int plane, const float *x, float *tmp, int *q) {
  for (int y = 0; y < 8; ++y)
    for (int k = 0; k < 8; ++k) tmp[8 * y + k] = dot8(s.cosine + 8 * k, 1, x + 8 * y, 1);
  for (int v = 0; v < 8; ++v)
    for (int u = 0; u < 8; ++u) {
      q[8 * v + u] = quantise(dot8(s.cosine + 8 * v, 1, tmp + u, 8), s.quant[plane][8 * v + u]);
    }
}

// Inverse of one block: g (dequantised coefficients, row-major) -> samples
// rounded and clamped to [s.lo, s.hi]. tmp: 64 floats of scratch.
CF_HD void inverse_block(const Setup &s, const float *g, float *tmp, int *out) {
  for (int v = 0; v < 8; ++v)
    for (int n = 0; n < 8; ++n) tmp[8 * v + n] = dot8(s.cosine + n, 8, g + 8 * v, 1);
  for (int y = 0; y < 8; ++y)
    for (int n = 0; n < 8; ++n)
      out[8 * y + n] = round_clamp(add(dot8(s.cosine + y, 8, tmp + n, 8), s.shift), s.lo, s.hi);
}

}  // namespace cf::dct
