// CDF 9/7 wavelet in float lifting: JPEG 2000's irreversible path (ITU-T
// T.800 Annex F), with optional dead-zone quantisation and thresholding.
//
// 1-D rule for x[0..N-1] (origin 0, even positions -> low band):
//   d steps on odd i, s steps on even i, in this order:
//     x[odd]  += alpha * (x[i-1] + x[i+1])     alpha = -1.586134342
//     x[even] += beta  * (x[i-1] + x[i+1])     beta  = -0.05298011854
//     x[odd]  += gamma * (x[i-1] + x[i+1])     gamma =  0.8829110762
//     x[even] += delta * (x[i-1] + x[i+1])     delta =  0.4435068522
//   then low (even) *= sqrt(2)/K, high (odd) *= K/sqrt(2), K = 1.230174105.
//   Whole-sample symmetric extension: x[-1] = x[1], x[N] = x[N-2]. N = 1
//   passes x[0] unchanged (as T.800 does).
// Normalisation: T.800 scales by 1/K and K, which gives a low-band DC gain
// of 1 and a high-band Nyquist gain of 2. Here both gains are sqrt(2) (the
// Daubechies-Sweldens zeta = sqrt(2)/K = 1.1496): the transform is then
// nearly orthonormal, energy is roughly preserved and one quantisation step
// suits every band. T.800's coefficients are ours times 2^-level (LL),
// with a further factor per high band.
// 2-D order (Mallat, standard) and band geometry as the 5/3 (wavelet.hpp).
//
// Every step is one float multiply or add, rounded (no fused multiply-add,
// no reassociation), in the same order on every backend: cpu, openmp and
// cuda give identical bits.
//
// After the forward transform, in this order:
//   threshold t > 0 (detail bands only; the final LL band is kept):
//     hard: |c| < t -> 0;  soft: |c| < t -> 0, else c - sign(c) t.
//   quant-step q > 0: dead-zone scalar quantisation, integer output (S16
//     for 8-bit input, S32 for 16-bit, as the reversible wavelets):
//     k = sign(c) floor(|c| / q), saturated to +-32767 (S16) or +-2^30 (S32);
//   the inverse reconstructs c' = sign(k) (|k| + 0.5) q (0 for k = 0).
// Without quant-step the output is F32. The inverse rounds to the raw type:
// floor(v + 0.5), clamped to its range.
#pragma once

#include <string>

#include "cudafilters/engine.hpp"
#include "cudafilters/frame.hpp"
#include "cudafilters/wavelet.hpp"

namespace cf {

enum class ThresholdMode { Hard, Soft };
const char *threshold_mode_name(ThresholdMode m);  // "hard", "soft"

struct Cdf97Params {
  int levels = 1;
  Layout layout = Layout::Mallat;
  float quant_step = 0;  // 0: no quantisation (F32 coefficients)
  float threshold = 0;   // 0: none
  ThresholdMode threshold_mode = ThresholdMode::Hard;
};

// F32 without quantisation; with it coefficient_type_for(raw): S16 for U8,
// S32 otherwise.
SampleType cdf97_coefficient_type(const Cdf97Params &p, SampleType raw);

// Levels stop once the low band is 1x1 (at least 1).
int cdf97_max_levels(int width, int height);

// Empty when `p` suits every component of `raw`; otherwise a message naming
// the property ("levels=9 is too deep for component 0 (17x13): at most 5").
std::string cdf97_check(const Cdf97Params &p, const FrameView &raw);

// raw (U8, U16, S16; S32 within +-2^24) -> F32, or with quant-step S16 or S32
// indices (cdf97_coefficient_type(p, raw) is the usual one), planes of the
// components' sizes.
void cdf97_forward(Engine &e, const Cdf97Params &p, const FrameView &src, const FrameView &dst);
// coefficients (F32, or S16/S32 indices when p.quant_step > 0) -> raw (rounded, clamped)
// or F32 (the reconstruction before rounding).
void cdf97_inverse(Engine &e, const Cdf97Params &p, const FrameView &src, const FrameView &dst);

}  // namespace cf
