// Lossless predictors: residual = pixel - prediction, per component plane.
//
// Neighbours of pixel X at (x, y), all causal (already coded):
//            NN  NNE
//        NW  N   NE
//    WW  W   X
//
// MED (LOCO-I / JPEG-LS median edge detector):
//   NW >= max(W, N) -> min(W, N);  NW <= min(W, N) -> max(W, N);  else W + N - NW.
// GAP (CALIC's gradient-adjusted predictor, Wu & Memon 1997):
//   dh = |W - WW| + |N - NW| + |N - NE|,  dv = |W - NW| + |N - NN| + |NE - NNE|
//   dv - dh >  80 -> W;  dv - dh < -80 -> N;  otherwise, with t = (W + N)/2 + (NE - NW)/4:
//   dv - dh > 32 -> (t + W)/2;  > 8 -> (3t + W)/4;  < -32 -> (t + N)/2;  < -8 -> (3t + N)/4;  else t.
//   Integers only: with t4 = 2(W + N) + NE - NW (= 4t exactly) the five cases are
//   t4 >> 2, (t4 + 4W) >> 3, (3 t4 + 4W) >> 4 (and the same with N): each is
//   floor() of the exact rational value, one arithmetic shift, no rounding of t.
// GED (gradient edge detection, Avramovic & Reljin 2010; five neighbours, threshold T):
//   gv = |NW - W| + |NN - N|,  gh = |WW - W| + |NW - N|
//   gv - gh > T -> W;  gv - gh < -T -> N;  else floor((3W + 3N - 2NW) / 4) (an arithmetic shift).
// Every prediction is then clamped to the sample range of the raw type.
//
// Border rule (identical on every backend). Each slice (slice_height rows,
// the last one shorter; 0 = the whole frame is one slice) is coded on its own:
//   - the slice's first pixel (x = 0, first row) is predicted by the middle of
//     the range (128 for 8-bit, 32768 for 16-bit, 0 for signed input);
//   - the rest of its first row by W; the rest of its first column by N;
//   - everywhere else the predictor's formula, with neighbour coordinates
//     clamped into the slice: columns to [0, width-1], rows to the slice's
//     first row (so WW = W at x = 1, NE = N and NNE = NN at the last column,
//     NN = N and NNE = NE on the slice's second row).
// That is "the nearest pixel that exists and is already coded", which keeps
// slices and borders cheap in entropy; a fixed value (the thesis used 128)
// would cost bits on every first row of a slice.
//
// Types. Raw U8 -> S16 residuals (|r| <= 255); U16 or S16 (coefficients of an
// earlier stage) -> S32; S16 whose values lie in a declared range
// (PredictorParams::input, e.g. [-255, 255] after a colour stage) -> S16
// when residual_range() fits it, so a chain keeps one sample format.
// Residual bound, from the formulas above, for inputs in [lo, hi], d = hi - lo:
// MED's prediction is W, N or W + N - NW strictly between them: in [lo, hi].
// GAP: 4t = 2(W + N) + NE - NW lies in [4 lo - d, 4 hi + d], so t and its
// blends with W or N overshoot [lo, hi] by at most d/4 (floored). GED:
// (3W + 3N - 2NW) / 4 lies in [lo - d/2, hi + d/2], floored: at most
// ceil(d/2) below lo, floor(d/2) above hi. The border predictions are W, N
// (in [lo, hi]) and the middle of the type (may lie outside). So every
// prediction lies in P = [min(mid, lo - ceil(d/2)), max(mid, hi + ceil(d/2))]
// clamped to the type's range, and every residual in [lo - P.hi, hi - P.lo]:
// [-765, 765] for [-255, 255] (at most 2d whenever mid lies in [lo, hi]).
// The range only selects the residual type: predictions are clamped to the
// sample type's range, never to `input`, so forward and inverse compute the
// same bits with or without it. The inverse recomputes every prediction from pixels
// it has already reconstructed (nothing else is stored or sent):
// pixel = clamp(r + prediction) to the raw range, r first clamped to
// [-2^17, 2^17] so the sum stays in int32; both clamps leave residuals from
// the forward unchanged and make arbitrary residual input deterministic.
#pragma once

#include <string>

#include "cudafilters/engine.hpp"
#include "cudafilters/frame.hpp"

namespace cf {

enum class Predictor { Med, Gap, Ged };
const char *predictor_name(Predictor p);  // "med", "gap", "ged"

constexpr int kDefaultGedThreshold = 40;
constexpr int kMaxGedThreshold = 1 << 20;  // gradients of 16-bit input stay below 2^18

struct PredictorParams {
  Predictor predictor = Predictor::Med;
  int threshold = kDefaultGedThreshold;  // GED only
  int slice_height = 0;                  // rows per independent slice; 0 = whole frame
  // The values the input samples can take when narrower than their type
  // (coefficients of a colour stage: colour_output_range()); empty = the
  // type's range. Input outside it is outside the contract: residuals may
  // saturate to the residual type (on every backend the same way).
  ValueRange input;

  PredictorParams() = default;
  PredictorParams(Predictor p, int t, int slices, ValueRange in = {})
      : predictor(p), threshold(t), slice_height(slices), input(in) {}
};

// Every prediction, and every residual, of inputs in `input` (empty: the
// type's range) of sample type `raw` lies in these ranges (see the top of
// this file for the derivation).
ValueRange prediction_range(ValueRange input, SampleType raw);
ValueRange residual_range(ValueRange input, SampleType raw);

// Narrowest residual sample type for a raw (or earlier-stage) sample type:
// S16 for U8, and for S16 whose residual_range(input) fits S16; otherwise
// S32 (U16, S16). S32 input is not supported (its residuals need 33 bits).
SampleType residual_type_for(SampleType raw, ValueRange input = {});

// Empty when `p` suits raw frames of type `raw` (values in p.input) with
// residuals of type `residual`: residual_type_for(raw, p.input), or S32 for
// S16 input; otherwise a message naming the parameter or type.
std::string predictor_check(const PredictorParams &p, SampleType raw, SampleType residual);

// raw -> residuals (one plane per component, each the component's size).
void predictor_forward(Engine &e, const PredictorParams &p, const FrameView &raw, const FrameView &residuals);
// residuals -> raw, bit for bit (see the top of this file for the exact rule).
void predictor_inverse(Engine &e, const PredictorParams &p, const FrameView &residuals, const FrameView &raw);

}  // namespace cf
