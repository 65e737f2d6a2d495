// The per-pixel and per-cell rules of Hough line detection (the definitions
// at the top of cudafilters/hough.hpp), written once for the serial
// reference, the OpenMP schedule and the CUDA kernels (CF_HD:
// host_device.hpp). Integer arithmetic only.
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"
#include "cudafilters/hough.hpp"

namespace cf::hough {

constexpr int kTrigShift = 15;  // Q15 table

// Edge map values.
constexpr std::uint8_t kEdge = 255;
// Canny classes before hysteresis.
constexpr std::uint8_t kWeak = 1, kStrong = 2;

CF_HD int luma_rgb(int r, int g, int b) { return hough_luma(r, g, b); }

CF_HD int clamp_index(int i, int n) { return i < 0 ? 0 : i >= n ? n - 1 : i; }

// Sobel of a 3x3 neighbourhood n[row * 3 + col] (row 0 above, col 0 left).
CF_HD void sobel(const int *n, int &gx, int &gy) {
  gx = (n[2] + 2 * n[5] + n[8]) - (n[0] + 2 * n[3] + n[6]);
  gy = (n[6] + 2 * n[7] + n[8]) - (n[0] + 2 * n[1] + n[2]);
}
CF_HD int magnitude(int gx, int gy) { return (gx < 0 ? -gx : gx) + (gy < 0 ? -gy : gy); }

// Canny: the gradient direction as one of four sectors, and the two
// neighbours NMS compares with: offsets (dx, dy) of the neighbour "behind"
// (the one at -dx, -dy is "ahead").
//   0: |gy| <= tan(22.5) |gx|       compare left/right
//   2: |gy| >= tan(67.5) |gx|       compare up/down
//   1: gx, gy of the same sign      compare (-1,-1)/(+1,+1)
//   3: opposite signs               compare (+1,-1)/(-1,+1)
CF_HD int canny_sector(int gx, int gy) {
  const int ax = gx < 0 ? -gx : gx, ay = gy < 0 ? -gy : gy;
  if (ay * 32768 <= ax * 13573) return 0;
  if (ay * 32768 >= ax * 79109) return 2;
  return (gx < 0) == (gy < 0) ? 1 : 3;
}
CF_HD void sector_offset(int sector, int &dx, int &dy) {
  dx = sector == 2 ? 0 : sector == 3 ? 1 : -1;
  dy = sector == 0 ? 0 : -1;
}
// Class of a pixel with magnitude m whose neighbours behind/ahead have mb/ma.
CF_HD std::uint8_t canny_class(int m, int mb, int ma, int low, int high) {
  if (!(m > mb && m >= ma) || m < low) return 0;
  return m >= high ? kStrong : kWeak;
}

// rho bin of pixel (x, y) at the angle whose Q15 cos/sin are c, s.
// |x c + y s| <= diag * (2^15 + 1) < 2^31, and the biased value is in
// [0, 2^32) because rho_offset * rho_step >= diag + 2 (see hough.hpp).
CF_HD int rho_bin(int x, int y, int c, int s, int rho_step, int rho_offset) {
  const unsigned biased = unsigned(x * c + y * s) + (unsigned(rho_offset * rho_step) << kTrigShift) +
                          (unsigned(rho_step) << (kTrigShift - 1));
  return int((biased >> kTrigShift) / unsigned(rho_step));
}

// Is cell (t, r) of acc (theta_bins rows of rho_bins) a peak: v >= threshold,
// v > 0, and the largest of its window (ties: the smaller index wins);
// beyond theta's ends the window wraps with rho mirrored.
CF_HD bool is_peak(const std::uint32_t *acc, int theta_bins, int rho_bins, int t, int r, int radius,
                   std::uint32_t threshold) {
  const std::uint32_t v = acc[(long long)t * rho_bins + r];
  if (v == 0 || v < threshold) return false;
  const long long self = (long long)t * rho_bins + r;
  for (int dt = -radius; dt <= radius; ++dt) {
    int tt = t + dt;
    bool mirror = false;
    while (tt < 0) tt += theta_bins, mirror = !mirror;
    while (tt >= theta_bins) tt -= theta_bins, mirror = !mirror;
    for (int dr = -radius; dr <= radius; ++dr) {
      int rr = r + dr;
      if (rr < 0 || rr >= rho_bins) continue;
      if (mirror) rr = rho_bins - 1 - rr;
      const long long other = (long long)tt * rho_bins + rr;
      if (other == self) continue;
      const std::uint32_t u = acc[other];
      if (u > v || (u == v && other < self)) return false;
    }
  }
  return true;
}

// The automatic threshold (hough.hpp): smallest v in [1, max + 1] with
// 256 (n v - S) >= 0 and (256 (n v - S))^2 >= K^2 (n Q - S^2).
CF_HD std::uint32_t auto_threshold(std::uint64_t n, std::uint64_t sum, std::uint64_t squares, std::uint32_t max,
                                   int k_q8) {
  if (n == 0) return 1;
  using u128 = unsigned __int128;
  const u128 spread = u128(n) * squares - u128(sum) * sum;  // n^2 var >= 0
  const u128 k2 = u128(k_q8) * u128(k_q8);
  std::uint64_t lo = 1, hi = std::uint64_t(max) + 1;  // hi always passes or is the "none" answer
  while (lo < hi) {
    const std::uint64_t v = lo + (hi - lo) / 2;
    const u128 nv = u128(n) * v;
    bool pass = false;
    if (nv >= u128(sum)) {
      const u128 d = (nv - sum) * 256;
      pass = d * d >= k2 * spread;
    }
    if (pass)
      hi = v;
    else
      lo = v + 1;
  }
  return std::uint32_t(lo);
}

}  // namespace cf::hough
