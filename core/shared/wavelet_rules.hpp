// The reversible wavelets of cudafilters/wavelet.hpp, written once for every
// backend: band sizes, the wrapping int32 arithmetic, one lifting step of
// Haar and of the CDF 5/3, and the order of the 2-D passes. The serial and
// OpenMP backends apply the steps along strided signals
// (cpu/wavelet_lifting.hpp); the CUDA kernels apply them to runs held in
// registers (kernels/wavelet_runs.cuh). Boundary extension is each
// backend's business; the rule it must reproduce is in wavelet.hpp.
//
// Arithmetic: int32, and floor(v / 2^k) is v >> k (an arithmetic shift: what
// GCC, Clang and nvcc do for negative values; C++20 makes it the rule).
// Within wavelet_max_levels no value leaves int32 for U8/U16/S16 input. Out
// of contract (arbitrary coefficients given to the inverse, S32 input) sums
// wrap modulo 2^32, on the CPU as on the GPU, instead of being undefined
// behaviour: add() and sub().
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"
#include "cudafilters/wavelet.hpp"

namespace cf::lifting {

using std::int32_t;

// A signal of n samples splits into low_count(n) low (even positions) and
// high_count(n) high (odd positions) samples, low first.
constexpr int low_count(int n) { return (n + 1) / 2; }  // ceil(n / 2)
constexpr int high_count(int n) { return n / 2; }       // floor(n / 2)

CF_HD int32_t floor_half(int32_t v) { return v >> 1; }     // floor(v / 2)
CF_HD int32_t floor_quarter(int32_t v) { return v >> 2; }  // floor(v / 4)
CF_HD int32_t add(int32_t a, int32_t b) { return int32_t(std::uint32_t(a) + std::uint32_t(b)); }
CF_HD int32_t sub(int32_t a, int32_t b) { return int32_t(std::uint32_t(a) - std::uint32_t(b)); }

// ---------------------------------------------------------------- Haar

// One pair (x_even, x_odd) <-> (s, d): d = x_odd - x_even, s = x_even + floor(d / 2).
CF_HD void haar_pair(int32_t &even, int32_t &odd) {
  odd = sub(odd, even);
  even = add(even, floor_half(odd));
}
// Its inverse: x_even = s - floor(d / 2), x_odd = d + x_even.
CF_HD void unhaar_pair(int32_t &s, int32_t &d) {
  s = sub(s, floor_half(d));
  d = add(d, s);
}

// ---------------------------------------------------------------- CDF 5/3

// Predict: d = x_odd - floor((x_left + x_right) / 2).
CF_HD int32_t predict53(int32_t odd, int32_t left, int32_t right) { return sub(odd, floor_half(add(left, right))); }
// Update:  s = x_even + floor((d_left + d_right + 2) / 4).
CF_HD int32_t update53(int32_t even, int32_t dl, int32_t dr) { return add(even, floor_quarter(add(add(dl, dr), 2))); }
// Their inverses.
CF_HD int32_t unupdate53(int32_t s, int32_t dl, int32_t dr) { return sub(s, floor_quarter(add(add(dl, dr), 2))); }
CF_HD int32_t unpredict53(int32_t d, int32_t left, int32_t right) { return add(d, floor_half(add(left, right))); }

// ---------------------------------------------------------------- 2-D order

// The passes of a 2-D transform of a width x height plane, in the order they
// must run (host code: the backends schedule each pass their own way).
// rows(w, h): lift rows 0..h-1 over their first w samples.
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
