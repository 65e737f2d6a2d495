// 8x8 block DCT-II (orthonormal), as in JPEG, on every component plane.
//
// Blocks. A component of w x h samples is cut into 8x8 blocks from its top
// left corner; its coefficient plane is padded_to_blocks(w) x
// padded_to_blocks(h) (the next multiple of 8), one block of 64 coefficients
// per block of samples, in the same place. Blocks that cross the right or
// bottom edge are padded by replication: sample (x, y) outside the component
// reads (min(x, w-1), min(y, h-1)).
//
// Forward, per block (x = sample - shift; shift = 128 for U8 input as in
// JPEG, 0 for S16 input, e.g. a colour stage's coefficients):
//   C[k][n] = a(k) cos((2n + 1) k pi / 16), a(0) = sqrt(1/8), a(k) = sqrt(2/8)
//   rows:    T[y][k] = sum_n C[k][n] x[y][n]        (n = 0..7, in this order)
//   columns: F[v][u] = sum_n C[v][n] T[n][u]
//   stored:  q[v][u] = round(F[v][u] / Q[v][u]), saturated to S16.
// With this orthonormal scaling the DC of a constant block of value s is
// 8 (s - shift), every other coefficient 0.
// Inverse: G = q Q (dequantised), rows then columns of the transposed
// 1-D transform (x[n] = sum_k C[k][n] G[k], k in order), + shift, rounded and
// clamped to the destination's range (to DctParams::input when it is set).
//
// Arithmetic. float (IEEE binary32) with the operation order above, from one
// cosine table computed once in double and rounded to float; each product and
// sum rounded on its own (no fused multiply-add on the GPU), division
// correctly rounded; round() is half away from zero. cpu and openmp run the
// same code and give identical bits. The CUDA kernels are written to compute
// the same bits, but the contract is a tolerance: every CUDA coefficient and
// every reconstructed sample is within 1 of the CPU's (tests check it).
//
// Quantisation. quality 0: Q = 1 everywhere (no quantisation, only
// rounding). quality 1..100: the JPEG tables of ITU-T T.81 Annex K
// (K.1 luminance for the first plane, K.2 chrominance for the others),
// scaled as the IJG library does:
//   scale = quality < 50 ? 5000 / quality : 200 - 2 quality   (integer)
//   Q     = clamp((base * scale + 50) / 100, 1, 255)           (integer)
// so quality 50 is the base table and quality 100 is all ones.
#pragma once

#include <cstdint>
#include <string>

#include "cudafilters/engine.hpp"
#include "cudafilters/frame.hpp"

namespace cf {

constexpr int kDctBlock = 8;
constexpr int kMaxDctQuality = 100;
// The largest difference allowed between CUDA and CPU results, on every
// coefficient and on every reconstructed sample.
constexpr int kDctCudaTolerance = 1;

struct DctParams {
  int quality = 0;  // 0 = no quantisation; 1..100 = IJG-scaled JPEG tables
  // The values the source's samples can take, when narrower than its sample
  // type (a colour stage's coefficients); empty = the sample type's range.
  // The inverse clamps its output to it.
  ValueRange input;

  DctParams() = default;
  explicit DctParams(int q, ValueRange in = {}) : quality(q), input(in) {}
};

// n rounded up to a multiple of kDctBlock.
constexpr int padded_to_blocks(int n) { return (n + kDctBlock - 1) / kDctBlock * kDctBlock; }

// The quantisation table of `plane` (0: luminance, others: chrominance) at
// `quality`, row-major (index 8 v + u), by the rule above.
void dct_quant_table(int quality, int plane, std::uint16_t table[64]);

// Empty when `p` suits source samples of type `raw` (U8, or S16 whose
// values, p.input, keep the coefficients in S16) with coefficients of type
// `coeff` (S16); otherwise a message naming the property or type.
std::string dct_check(const DctParams &p, SampleType raw, SampleType coeff);

// raw (U8, or S16 of an earlier stage) -> S16 coefficients, one plane per
// component of padded_to_blocks(width) x padded_to_blocks(height).
void dct_forward(Engine &e, const DctParams &p, const FrameView &raw, const FrameView &coeff);
// The inverse (lossy when quality > 0, within rounding otherwise).
void dct_inverse(Engine &e, const DctParams &p, const FrameView &coeff, const FrameView &raw);

}  // namespace cf
