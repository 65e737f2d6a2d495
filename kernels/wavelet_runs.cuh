// The reversible wavelets' lifting steps (core/shared/wavelet_rules.hpp)
// applied to runs in registers, with the kernels' boundary extension
// (internal to kernels/).
//
// The kernels work on tiles with a halo: a signal is extended beyond its ends
// and then lifted as if it were infinite. For the 5/3 that extension is
// whole-sample symmetric (x[-i] = x[i], x[n-1+i] = x[n-1-i]), which is exactly
// JPEG 2000's boundary rule: it gives d[-1] = d[0], x[n] = x[n-2] and, for odd
// n, d[(n-1)/2] = d[(n-3)/2], in both directions. Haar needs no halo, only a
// rule for the unpaired last sample of an odd length: the forward reads its
// missing partner as a copy of it (d = 0, s = x[n-1]); the inverse reads the
// missing detail as 0 (x[n-1] = s).
//
// A "run" is a short signal held in registers (a thread's column segment):
// v[0 .. kRun + lo + hi) with `lo` samples of halo before the kRun outputs and
// `hi` after; the first output sits at an even position.
#pragma once

#include "core/shared/wavelet_rules.hpp"
#include "kernels/symmetric_extension.cuh"
#include "kernels/unroll.cuh"

namespace cf::cuda::lift {

using lifting::haar_pair;
using lifting::predict53;
using lifting::unhaar_pair;
using lifting::unpredict53;
using lifting::unupdate53;
using lifting::update53;

// ---------------------------------------------------------------- halos

// Samples of halo a run needs before (lo) and after (hi) its outputs.
template <Wavelet W, bool Inverse>
struct Halo {
  // 5/3 forward: d[-1] needs x[-2], x[-1]; the last d needs x[+1] past the end.
  // 5/3 inverse: x[0] needs d[-1]; the last odd output needs x[end] = s, d around it.
  static constexpr int lo = W == Wavelet::Haar ? 0 : (Inverse ? 1 : 2);
  static constexpr int hi = W == Wavelet::Haar ? 0 : (Inverse ? 2 : 1);
};

// Index of the sample the forward transform reads for position i (i >= 0
// for Haar, which has no halo before its outputs).
template <Wavelet W>
CF_HD int extend_forward(int i, int n) {
  if (W == Wavelet::Haar) return i < n ? i : n - 1;  // unpaired last sample: partner = itself
  return mirror(i, n);
}

// Index of the coefficient the inverse reads for interleaved position i, or
// -1 when it must read 0 (Haar's missing detail of an odd length).
template <Wavelet W>
CF_HD int extend_inverse(int i, int n) {
  if (W == Wavelet::Haar) return i < n ? i : -1;
  return mirror(i, n);
}

// ---------------------------------------------------------------- runs

// Forward lifting of a run v[0 .. kRun + lo + hi) whose v[lo] is at an even
// position; afterwards v[lo + i] holds the coefficient of position i
// (interleaved: s at even, d at odd positions). kRun is even.
template <Wavelet W, int kRun>
CF_HD void forward_run(int *v) {
  static_assert(kRun % 2 == 0, "runs cover whole pairs");
  if constexpr (W == Wavelet::Haar) {
    CF_UNROLL
    for (int i = 0; i < kRun; i += 2) haar_pair(v[i], v[i + 1]);
  } else {
    // v[0] is position -2: odd positions are odd indices.
    CF_UNROLL
    for (int i = 1; i <= kRun + 1; i += 2) v[i] = predict53(v[i], v[i - 1], v[i + 1]);
    CF_UNROLL
    for (int i = 2; i <= kRun; i += 2) v[i] = update53(v[i], v[i - 1], v[i + 1]);
  }
}

// Inverse lifting of an interleaved run (v[lo] at an even position);
// afterwards v[lo + i] holds sample i.
template <Wavelet W, int kRun>
CF_HD void inverse_run(int *v) {
  static_assert(kRun % 2 == 0, "runs cover whole pairs");
  if constexpr (W == Wavelet::Haar) {
    CF_UNROLL
    for (int i = 0; i < kRun; i += 2) unhaar_pair(v[i], v[i + 1]);
  } else {
    // v[0] is position -1: even positions are odd indices.
    CF_UNROLL
    for (int i = 1; i <= kRun + 1; i += 2) v[i] = unupdate53(v[i], v[i - 1], v[i + 1]);
    CF_UNROLL
    for (int i = 2; i <= kRun; i += 2) v[i] = unpredict53(v[i], v[i - 1], v[i + 1]);
  }
}

}  // namespace cf::cuda::lift
