// An independent, straightforward implementation of the halftoning rule of
// cudafilters/halftone.hpp for the tests: the textbook scatter (each pixel
// pushes w * e' into an accumulator of each neighbour ahead), the weight
// tables typed in again as the matrices the literature prints (current pixel
// at row 0, column R), quantisation by searching the level list, int64
// arithmetic throughout, no floating point. It shares no code with cpu/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cudafilters/halftone.hpp"

namespace cft::halftone_ref {

struct Matrix {
  int divisor, radius;                 // columns -radius..radius
  std::vector<std::vector<int>> rows;  // rows[0] = the current row (entries right of the pixel)
};

inline Matrix matrix(cf::HalftoneMethod m) {
  using M = cf::HalftoneMethod;
  switch (m) {
    case M::FloydSteinberg: return {16, 1, {{0, 0, 7}, {3, 5, 1}}};
    case M::StevensonArce:
      return {200,
              3,
              {{0, 0, 0, 0, 0, 32, 0}, {12, 0, 26, 0, 30, 0, 16}, {0, 12, 0, 26, 0, 12, 0}, {5, 0, 12, 0, 12, 0, 5}}};
    case M::Burkes: return {32, 2, {{0, 0, 0, 8, 4}, {2, 4, 8, 4, 2}}};
    case M::Sierra: return {32, 2, {{0, 0, 0, 5, 3}, {2, 4, 5, 4, 2}, {0, 2, 3, 2, 0}}};
    case M::Stucki: return {42, 2, {{0, 0, 0, 8, 4}, {2, 4, 8, 4, 2}, {1, 2, 4, 2, 1}}};
    case M::JarvisJudiceNinke: return {48, 2, {{0, 0, 0, 7, 5}, {3, 5, 7, 5, 3}, {1, 3, 5, 3, 1}}};
  }
  return {1, 0, {}};
}

inline std::int64_t floor_div(std::int64_t a, std::int64_t b) {  // b > 0
  const std::int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

// Level k of L: 255 k / (L - 1) rounded half up.
inline int level(int k, int L) { return int(floor_div(510LL * k + (L - 1), 2LL * (L - 1))); }

inline int quantise(int u, int L, int T) {
  const int c = u < 0 ? 0 : u > 255 ? 255 : u;
  int k = 0;
  while (k + 1 <= L - 2 && level(k + 1, L) <= c) ++k;
  const int lo = level(k, L), hi = level(k + 1, L);
  const int boundary = lo + int(-floor_div(-std::int64_t(hi - lo) * T, 255));  // ceil
  return c >= boundary ? hi : lo;
}

inline std::uint64_t splitmix_finaliser(std::uint64_t z) {
  z ^= z >> 30;
  z *= 0xbf58476d1ce4e5b9ULL;
  z ^= z >> 27;
  z *= 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return z;
}

// One plane (w x h, tight) with the rule's parameters; returns the output plane.
inline std::vector<std::uint8_t> halftone_plane(const cf::HalftoneParams &p, std::uint64_t frame, int plane, int w,
                                                int h, const std::vector<std::uint8_t> &in) {
  const Matrix m = matrix(p.method);
  const std::int64_t P = std::int64_t(p.stochastic * 65536.0 + 0.5);
  const std::uint64_t key = splitmix_finaliser(
      splitmix_finaliser(splitmix_finaliser(p.seed ^ 0x9E3779B97F4A7C15ULL) ^ frame) ^ std::uint64_t(plane));
  std::vector<std::int64_t> acc(std::size_t(w) * h, 0);
  std::vector<std::uint8_t> out(std::size_t(w) * h);
  for (int y = 0; y < h; ++y) {
    const int d = (p.serpentine && y % 2 == 1) ? -1 : 1;
    for (int i = 0; i < w; ++i) {
      const int x = d == 1 ? i : w - 1 - i;
      const std::int64_t A = acc[std::size_t(y) * w + x];
      std::int64_t u = in[std::size_t(y) * w + x] + floor_div(A + m.divisor / 2, m.divisor);
      if (u < -255) u = -255;
      if (u > 510) u = 510;
      const int q = quantise(int(u), p.levels, p.threshold);
      out[std::size_t(y) * w + x] = std::uint8_t(q);
      std::int64_t e = u - q;
      if (P > 0) {
        const std::uint64_t hsh = splitmix_finaliser(key ^ ((std::uint64_t(y) << 32) | std::uint64_t(x)));
        const std::int64_t s = 2 * std::int64_t(hsh >> 48) - 65535;
        e = e + floor_div(e * P * s + (std::int64_t(1) << 31), std::int64_t(1) << 32);
      }
      for (std::size_t dy = 0; dy < m.rows.size(); ++dy)
        for (int col = 0; col < 2 * m.radius + 1; ++col) {
          const int wgt = m.rows[dy][col];
          if (!wgt) continue;
          const int tx = x + d * (col - m.radius), ty = y + int(dy);
          if (tx < 0 || tx >= w || ty >= h) continue;
          acc[std::size_t(ty) * w + tx] += wgt * e;
        }
    }
  }
  return out;
}

}  // namespace cft::halftone_ref
