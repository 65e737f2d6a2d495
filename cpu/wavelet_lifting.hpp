// The reversible wavelets' lifting steps (core/shared/wavelet_rules.hpp)
// applied along whole signals, for the serial reference (wavelet_cpu.cpp)
// and the OpenMP schedule (wavelet_omp.cpp).
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
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "core/shared/wavelet_rules.hpp"

namespace cf::lifting {

using std::ptrdiff_t;

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
      int32_t e = even[j], o = odd[j];
      haar_pair(e, o);
      sk[j] = e;
      dk[j] = o;
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
      int32_t e = sk[j], o = dk[j];
      unhaar_pair(e, o);
      even[j] = e;
      odd[j] = o;
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
    for (int j = 0; j < lanes; ++j) dk[j] = predict53(odd[j], left[j], right[j]);
  };
  for (int k = 0; k + 1 < nh; ++k) predict(k, X(2 * k), X(2 * k + 2));
  // Last odd sample: its right neighbour is x[n-1] for odd n, the mirror x[n-2] for even n.
  predict(nh - 1, X(2 * nh - 2), 2 * nh < n ? X(2 * nh) : X(2 * nh - 2));

  auto update = [&](int k, const int32_t *dl, const int32_t *dr) {
    const int32_t *even = X(2 * k);
    int32_t *sk = s + ptrdiff_t(k) * lanes;
    for (int j = 0; j < lanes; ++j) sk[j] = update53(even[j], dl[j], dr[j]);
  };
  update(0, D(0), D(0));  // d[-1] = d[0]
  for (int k = 1; k < nh; ++k) update(k, D(k - 1), D(k));
  if (n % 2) update(nh, D(nh - 1), D(nh - 1));  // d[(n-1)/2] = d[(n-3)/2]
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
    for (int j = 0; j < lanes; ++j) even[j] = unupdate53(sk[j], dl[j], dr[j]);
  };
  unupdate(0, D(0), D(0));
  for (int k = 1; k < nh; ++k) unupdate(k, D(k - 1), D(k));
  if (n % 2) unupdate(nh, D(nh - 1), D(nh - 1));

  auto unpredict = [&](int k, const int32_t *left, const int32_t *right) {
    const int32_t *dk = D(k);
    int32_t *odd = X(2 * k + 1);
    for (int j = 0; j < lanes; ++j) odd[j] = unpredict53(dk[j], left[j], right[j]);
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

}  // namespace cf::lifting
