// The 1-D lifting steps of the reversible wavelets and the order of the 2-D
// passes, shared by the serial reference (wavelet_cpu.cpp) and the OpenMP
// schedule (wavelet_omp.cpp). The rules are those at the top of
// cudafilters/wavelet.hpp; this file is their literal transcription.
//
// A signal here is n samples, and a sample is a vector of `lanes` int32
// values: sample k, lane j lives at x[k * stride + j]. With lanes = 1 and
// stride = 1 that is one row. With stride = the plane's row pitch and lanes =
// the band's width, every row is one sample and one call lifts all columns
// at once, row by row (the column pass touches memory in row order). Each
// lane is an independent 1-D signal, so this is exactly the 1-D definition
// applied to every column.
//
// Forward: low band to samples [0, ceil(n/2)), high band to [ceil(n/2), n).
// Inverse: the reverse. `tmp` holds n * lanes values.
//
// Arithmetic: int32, and floor(v / 2^k) is v >> k (an arithmetic shift: what
// GCC, Clang and nvcc do for negative values; C++20 makes it the rule).
// Within wavelet_max_levels no value leaves int32 for U8/U16/S16 input. Out
// of contract (arbitrary coefficients given to the inverse, S32 input) sums
// wrap modulo 2^32, as they do on the GPU, instead of being undefined
// behaviour: add() and sub() below.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "cudafilters/wavelet.hpp"

namespace cf::lifting {

using std::int32_t;
using std::ptrdiff_t;

constexpr int low_count(int n) { return (n + 1) / 2; }   // ceil(n / 2): even positions
constexpr int high_count(int n) { return n / 2; }        // floor(n / 2): odd positions

inline int32_t floor_half(int32_t v) { return v >> 1; }     // floor(v / 2)
inline int32_t floor_quarter(int32_t v) { return v >> 2; }  // floor(v / 4)
inline int32_t add(int32_t a, int32_t b) { return int32_t(std::uint32_t(a) + std::uint32_t(b)); }
inline int32_t sub(int32_t a, int32_t b) { return int32_t(std::uint32_t(a) - std::uint32_t(b)); }

// Copies the n samples of tmp (dense: sample k at tmp + k * lanes) into x.
inline void copy_back(const int32_t *tmp, int32_t *x, ptrdiff_t stride, int n, int lanes) {
  if (stride == lanes) {
    std::memcpy(x, tmp, sizeof(int32_t) * std::size_t(n) * std::size_t(lanes));
    return;
  }
  for (int k = 0; k < n; ++k)
    std::memcpy(x + k * stride, tmp + ptrdiff_t(k) * lanes, sizeof(int32_t) * std::size_t(lanes));
}

// ---------------------------------------------------------------- Haar

// d[k] = x[2k+1] - x[2k];  s[k] = x[2k] + floor(d[k] / 2);  odd n: s[last] = x[n-1].
inline void haar_forward(int32_t *x, ptrdiff_t stride, int n, int lanes, int32_t *tmp) {
  if (n < 2) return;
  const int nl = low_count(n), nh = high_count(n);
  int32_t *s = tmp, *d = tmp + ptrdiff_t(nl) * lanes;
  for (int k = 0; k < nh; ++k) {
    const int32_t *even = x + 2 * k * stride, *odd = even + stride;
    int32_t *sk = s + ptrdiff_t(k) * lanes, *dk = d + ptrdiff_t(k) * lanes;
    for (int j = 0; j < lanes; ++j) {
      const int32_t dv = sub(odd[j], even[j]);
      dk[j] = dv;
      sk[j] = add(even[j], floor_half(dv));
    }
  }
  if (n % 2) std::memcpy(s + ptrdiff_t(nl - 1) * lanes, x + (n - 1) * stride, sizeof(int32_t) * lanes);
  copy_back(tmp, x, stride, n, lanes);
}

// x[2k] = s[k] - floor(d[k] / 2);  x[2k+1] = d[k] + x[2k];  odd n: x[n-1] = s[last].
inline void haar_inverse(int32_t *x, ptrdiff_t stride, int n, int lanes, int32_t *tmp) {
  if (n < 2) return;
  const int nl = low_count(n), nh = high_count(n);
  const int32_t *s = x, *d = x + nl * stride;
  for (int k = 0; k < nh; ++k) {
    const int32_t *sk = s + k * stride, *dk = d + k * stride;
    int32_t *even = tmp + ptrdiff_t(2 * k) * lanes, *odd = even + lanes;
    for (int j = 0; j < lanes; ++j) {
      const int32_t e = sub(sk[j], floor_half(dk[j]));
      even[j] = e;
      odd[j] = add(dk[j], e);
    }
  }
  if (n % 2) std::memcpy(tmp + ptrdiff_t(n - 1) * lanes, s + (nl - 1) * stride, sizeof(int32_t) * lanes);
  copy_back(tmp, x, stride, n, lanes);
}

// ---------------------------------------------------------------- CDF 5/3

// Predict: d[k] = x[2k+1] - floor((x[2k] + x[2k+2]) / 2), with x[n] = x[n-2].
// Update:  s[k] = x[2k] + floor((d[k-1] + d[k] + 2) / 4), with d[-1] = d[0]
//          and, for odd n, d[(n-1)/2] = d[(n-3)/2].
inline void cdf53_forward(int32_t *x, ptrdiff_t stride, int n, int lanes, int32_t *tmp) {
  if (n < 2) return;
  const int nl = low_count(n), nh = high_count(n);
  int32_t *s = tmp, *d = tmp + ptrdiff_t(nl) * lanes;
  auto X = [&](int i) -> const int32_t * { return x + i * stride; };
  auto D = [&](int k) { return d + ptrdiff_t(k) * lanes; };

  auto predict = [&](int k, const int32_t *left, const int32_t *right) {
    const int32_t *odd = X(2 * k + 1);
    int32_t *dk = D(k);
    for (int j = 0; j < lanes; ++j) dk[j] = sub(odd[j], floor_half(add(left[j], right[j])));
  };
  for (int k = 0; k + 1 < nh; ++k) predict(k, X(2 * k), X(2 * k + 2));
  // Last odd sample: its right neighbour is x[n-1] for odd n, the mirror x[n-2] for even n.
  predict(nh - 1, X(2 * nh - 2), 2 * nh < n ? X(2 * nh) : X(2 * nh - 2));

  auto update = [&](int k, const int32_t *dl, const int32_t *dr) {
    const int32_t *even = X(2 * k);
    int32_t *sk = s + ptrdiff_t(k) * lanes;
    for (int j = 0; j < lanes; ++j) sk[j] = add(even[j], floor_quarter(add(add(dl[j], dr[j]), 2)));
  };
  update(0, D(0), D(0));                                   // d[-1] = d[0]
  for (int k = 1; k < nh; ++k) update(k, D(k - 1), D(k));
  if (n % 2) update(nh, D(nh - 1), D(nh - 1));             // d[(n-1)/2] = d[(n-3)/2]
  copy_back(tmp, x, stride, n, lanes);
}

// Undo update: x[2k] = s[k] - floor((d[k-1] + d[k] + 2) / 4) (same extension),
// then undo predict: x[2k+1] = d[k] + floor((x[2k] + x[2k+2]) / 2), x[n] = x[n-2].
inline void cdf53_inverse(int32_t *x, ptrdiff_t stride, int n, int lanes, int32_t *tmp) {
  if (n < 2) return;
  const int nl = low_count(n), nh = high_count(n);
  auto S = [&](int k) -> const int32_t * { return x + k * stride; };
  auto D = [&](int k) -> const int32_t * { return x + (nl + k) * stride; };
  auto X = [&](int i) { return tmp + ptrdiff_t(i) * lanes; };

  auto unupdate = [&](int k, const int32_t *dl, const int32_t *dr) {
    const int32_t *sk = S(k);
    int32_t *even = X(2 * k);
    for (int j = 0; j < lanes; ++j) even[j] = sub(sk[j], floor_quarter(add(add(dl[j], dr[j]), 2)));
  };
  unupdate(0, D(0), D(0));
  for (int k = 1; k < nh; ++k) unupdate(k, D(k - 1), D(k));
  if (n % 2) unupdate(nh, D(nh - 1), D(nh - 1));

  auto unpredict = [&](int k, const int32_t *left, const int32_t *right) {
    const int32_t *dk = D(k);
    int32_t *odd = X(2 * k + 1);
    for (int j = 0; j < lanes; ++j) odd[j] = add(dk[j], floor_half(add(left[j], right[j])));
  };
  for (int k = 0; k + 1 < nh; ++k) unpredict(k, X(2 * k), X(2 * k + 2));
  unpredict(nh - 1, X(2 * nh - 2), 2 * nh < n ? X(2 * nh) : X(2 * nh - 2));
  copy_back(tmp, x, stride, n, lanes);
}

// ---------------------------------------------------------------- dispatch

inline void forward(Wavelet w, int32_t *x, ptrdiff_t stride, int n, int lanes, int32_t *tmp) {
  if (w == Wavelet::Haar)
    haar_forward(x, stride, n, lanes, tmp);
  else
    cdf53_forward(x, stride, n, lanes, tmp);
}

inline void inverse(Wavelet w, int32_t *x, ptrdiff_t stride, int n, int lanes, int32_t *tmp) {
  if (w == Wavelet::Haar)
    haar_inverse(x, stride, n, lanes, tmp);
  else
    cdf53_inverse(x, stride, n, lanes, tmp);
}

// One row of n samples (contiguous); tmp holds n values.
inline void forward_row(Wavelet w, int32_t *row, int n, int32_t *tmp) { forward(w, row, 1, n, 1, tmp); }
inline void inverse_row(Wavelet w, int32_t *row, int n, int32_t *tmp) { inverse(w, row, 1, n, 1, tmp); }

// ---------------------------------------------------------------- 2-D order

// The passes of a 2-D transform of a width x height plane, in the order they
// must run. rows(w, h): lift rows 0..h-1 over their first w samples.
// cols(w, h): lift columns 0..w-1 over their first h samples.
//   Mallat:   level k: rows then columns of the current LL band (w, h halve, rounding up).
//   Standard: all row levels on whole rows, then all column levels on whole columns.
// The inverse runs the same passes in exactly the reverse order.
template <class Rows, class Cols>
void forward_passes(const WaveletParams &p, int width, int height, Rows &&rows, Cols &&cols) {
  int w = width, h = height;
  if (p.layout == Layout::Mallat) {
    for (int k = 0; k < p.levels; ++k, w = low_count(w), h = low_count(h)) {
      rows(w, h);
      cols(w, h);
    }
    return;
  }
  for (int k = 0; k < p.levels; ++k, w = low_count(w)) rows(w, height);
  for (int k = 0; k < p.levels; ++k, h = low_count(h)) cols(width, h);
}

template <class Rows, class Cols>
void inverse_passes(const WaveletParams &p, int width, int height, Rows &&rows, Cols &&cols) {
  // Band sizes seen by level k (0 = finest): w[k] x h[k].
  constexpr int kMaxLevels = 32;  // a dimension of 2^31 needs 31 levels
  int w[kMaxLevels], h[kMaxLevels];
  const int levels = p.levels < kMaxLevels ? p.levels : kMaxLevels;
  w[0] = width;
  h[0] = height;
  for (int k = 1; k < levels; ++k) {
    w[k] = low_count(w[k - 1]);
    h[k] = low_count(h[k - 1]);
  }
  if (p.layout == Layout::Mallat) {
    for (int k = levels - 1; k >= 0; --k) {
      cols(w[k], h[k]);
      rows(w[k], h[k]);
    }
    return;
  }
  for (int k = levels - 1; k >= 0; --k) cols(width, h[k]);
  for (int k = levels - 1; k >= 0; --k) rows(w[k], height);
}

}  // namespace cf::lifting
