// The arithmetic of error-diffusion halftoning, written once for every
// backend: the methods' weight tables, the per-pixel step (the rule at the
// top of cudafilters/halftone.hpp, transcribed literally) and the gather of
// one span of a row. Plain C++ for cpu/; the same functions are
// __host__ __device__ for kernels/ (CF_HD), so the CUDA code cannot drift
// from the reference.
//
// Errors are stored per pixel (int16, |e'| <= 1020) and gathered: a pixel
// sums w * e' over the sources that reach it. That sum is an integer, so it
// does not depend on the order of its terms, and the gather equals the
// textbook scatter exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "core/shared/host_device.hpp"
#include "cudafilters/halftone.hpp"

namespace cf::halftone_rules {

struct Tap {
  int dx, dy, w;  // target = (x + d*dx, y + dy) for a row scanned in direction d
};

// Up to 13 taps (Stevenson-Arce); reach_x/reach_y: the largest |dx| and dy.
struct Kernel {
  int divisor, reach_x, reach_y, n;
  Tap taps[13];
};

// The weight tables keep their rows.
// clang-format off
CF_HD constexpr Kernel kernel_of(HalftoneMethod m) {
  switch (m) {
    case HalftoneMethod::FloydSteinberg:
      return {16, 1, 1, 4, {{1, 0, 7}, {-1, 1, 3}, {0, 1, 5}, {1, 1, 1}}};
    case HalftoneMethod::StevensonArce:
      return {200, 3, 3, 12,
              {{2, 0, 32}, {-3, 1, 12}, {-1, 1, 26}, {1, 1, 30}, {3, 1, 16}, {-2, 2, 12}, {0, 2, 26},
               {2, 2, 12}, {-3, 3, 5}, {-1, 3, 12}, {1, 3, 12}, {3, 3, 5}}};
    case HalftoneMethod::Burkes:
      return {32, 2, 1, 7, {{1, 0, 8}, {2, 0, 4}, {-2, 1, 2}, {-1, 1, 4}, {0, 1, 8}, {1, 1, 4}, {2, 1, 2}}};
    case HalftoneMethod::Sierra:
      return {32, 2, 2, 10,
              {{1, 0, 5}, {2, 0, 3}, {-2, 1, 2}, {-1, 1, 4}, {0, 1, 5}, {1, 1, 4}, {2, 1, 2}, {-1, 2, 2},
               {0, 2, 3}, {1, 2, 2}}};
    case HalftoneMethod::Stucki:
      return {42, 2, 2, 12,
              {{1, 0, 8}, {2, 0, 4}, {-2, 1, 2}, {-1, 1, 4}, {0, 1, 8}, {1, 1, 4}, {2, 1, 2}, {-2, 2, 1},
               {-1, 2, 2}, {0, 2, 4}, {1, 2, 2}, {2, 2, 1}}};
    case HalftoneMethod::JarvisJudiceNinke:
    default:
      return {48, 2, 2, 12,
              {{1, 0, 7}, {2, 0, 5}, {-2, 1, 3}, {-1, 1, 5}, {0, 1, 7}, {1, 1, 5}, {2, 1, 3}, {-2, 2, 1},
               {-1, 2, 3}, {0, 2, 5}, {1, 2, 3}, {2, 2, 1}}};
  }
}
// clang-format on

// Everything a backend needs besides the frames, prepared once per call by core.
struct Setup {
  HalftoneMethod method;
  bool serpentine;
  int levels, threshold;
  int stochastic_scale;  // P = floor(p * 65536 + 0.5), 0..65536
  std::uint64_t seed, frame;
  unsigned copy_mask;
  unsigned char table[256];  // quantise(u) for u in 0..255
};

constexpr int kMinValue = -255, kMaxValue = 510;  // the clamp of u
constexpr int kMaxError = 1020;                   // |e'| <= 2 * 510

// Row direction: +1 left to right, -1 right to left (odd rows, serpentine).
CF_HD int direction(bool serpentine, int y) { return serpentine && (y & 1) ? -1 : 1; }

// floor((sum + D/2) / D) for |sum| <= D * kMaxError, as one unsigned division.
CF_HD int rounded_mean(int sum, int divisor) {
  constexpr int kBias = 2048;  // > kMaxError: keeps the dividend positive
  return int(unsigned(sum + divisor / 2 + kBias * divisor) / unsigned(divisor)) - kBias;
}

CF_HD std::uint64_t mix64(std::uint64_t z) {  // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

CF_HD std::uint64_t plane_key(std::uint64_t seed, std::uint64_t frame, int plane) {
  return mix64(mix64(mix64(seed ^ 0x9E3779B97F4A7C15ULL) ^ frame) ^ std::uint64_t(plane));
}

// e * (1 + r), r = P * s / 2^32 in (-p, p), rounded to nearest.
CF_HD int stochastic_error(int e, int scale, std::uint64_t key, int x, int y) {
  const std::uint64_t h = mix64(key ^ (std::uint64_t(unsigned(y)) << 32 | unsigned(x)));
  const std::int64_t s = 2 * std::int64_t(h >> 48) - 65535;
  return e + int((std::int64_t(e) * scale * s + (std::int64_t(1) << 31)) >> 32);
}

// What one pixel needs besides its value and incoming sum.
struct PixelRules {
  int threshold, scale;  // threshold: of the binary compare
  std::uint64_t key;
  const unsigned char *table;  // used when Multi
};

// One pixel: value v, incoming sum A. Writes the output sample to *out and
// returns the diffused error e'. Multi: levels > 2 (table); Stochastic: p > 0.
template <bool Multi, bool Stochastic>
CF_HD int diffuse(int v, int sum, int divisor, const PixelRules &r, int x, int y, int *out) {
  int u = v + rounded_mean(sum, divisor);
  u = u < kMinValue ? kMinValue : u > kMaxValue ? kMaxValue : u;
  int q;
  if (Multi)
    q = r.table[u < 0 ? 0 : u > 255 ? 255 : u];
  else
    q = u >= r.threshold ? 255 : 0;
  *out = q;
  const int e = u - q;
  return Stochastic ? stochastic_error(e, r.scale, r.key, x, y) : e;
}

// One component plane and its error plane (int16 per pixel, row pitch in elements).
struct PlaneRef {
  const unsigned char *src;
  unsigned char *dst;
  std::ptrdiff_t src_stride, dst_stride;  // bytes
  int src_step, dst_step;                 // bytes from one pixel to the next
  int width, height;
  std::int16_t *err;
  std::ptrdiff_t err_stride;
};

// The incoming sum of (x, y) from the stored errors. Checked: test every
// source against the plane's borders (near a border only).
template <HalftoneMethod M, bool Checked>
CF_HD int gather(const PlaneRef &p, bool serpentine, int x, int y) {
  constexpr Kernel k = kernel_of(M);
  int sum = 0;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int i = 0; i < k.n; ++i) {
    const int ys = y - k.taps[i].dy;
    const int xs = x - direction(serpentine, ys) * k.taps[i].dx;
    if (Checked && (ys < 0 || xs < 0 || xs >= p.width)) continue;
    sum += k.taps[i].w * p.err[ys * p.err_stride + xs];
  }
  return sum;
}

// Pixels [s0, s1) of row y in scan order (scan position s is x = s, or
// width-1-s on a right-to-left row), in order.
template <HalftoneMethod M, bool Multi, bool Stochastic>
CF_HD void diffuse_span(const PlaneRef &p, const PixelRules &r, bool serpentine, int y, int s0, int s1) {
  constexpr Kernel k = kernel_of(M);
  const int d = direction(serpentine, y);
  const bool top = y < k.reach_y;
  for (int s = s0; s < s1; ++s) {
    const int x = d > 0 ? s : p.width - 1 - s;
    const bool inside = !top && x >= k.reach_x && x < p.width - k.reach_x;
    const int sum = inside ? gather<M, false>(p, serpentine, x, y) : gather<M, true>(p, serpentine, x, y);
    int q;
    const int e = diffuse<Multi, Stochastic>(p.src[y * p.src_stride + std::ptrdiff_t(x) * p.src_step], sum, k.divisor,
                                             r, x, y, &q);
    p.err[y * p.err_stride + x] = std::int16_t(e);
    p.dst[y * p.dst_stride + std::ptrdiff_t(x) * p.dst_step] = static_cast<unsigned char>(q);
  }
}

// Calls f(method, multi, stochastic) with std::integral_constant tags for
// the setup's combination, so each runs as its own specialised loop:
// f = [&](auto m, auto multi, auto stochastic) { run<decltype(m)::value, ...>(); }.
template <class F>
void dispatch(const Setup &s, F &&f) {
  auto with_flags = [&](auto method) {
    const bool multi = s.levels > 2, stochastic = s.stochastic_scale > 0;
    using T = std::true_type;
    using N = std::false_type;
    if (multi && stochastic)
      f(method, T{}, T{});
    else if (multi)
      f(method, T{}, N{});
    else if (stochastic)
      f(method, N{}, T{});
    else
      f(method, N{}, N{});
  };
  using HM = HalftoneMethod;
  switch (s.method) {
    case HM::FloydSteinberg: return with_flags(std::integral_constant<HM, HM::FloydSteinberg>{});
    case HM::StevensonArce: return with_flags(std::integral_constant<HM, HM::StevensonArce>{});
    case HM::Burkes: return with_flags(std::integral_constant<HM, HM::Burkes>{});
    case HM::Sierra: return with_flags(std::integral_constant<HM, HM::Sierra>{});
    case HM::Stucki: return with_flags(std::integral_constant<HM, HM::Stucki>{});
    case HM::JarvisJudiceNinke: return with_flags(std::integral_constant<HM, HM::JarvisJudiceNinke>{});
  }
}

// Component c of src/dst as a PlaneRef over the error plane `err` (tight rows).
inline PlaneRef plane_ref(const FrameView &src, const FrameView &dst, int c, std::int16_t *err) {
  const Component &ks = src.components[c], &kd = dst.components[c];
  return {static_cast<const unsigned char *>(src.sample(c, 0, 0)),
          static_cast<unsigned char *>(dst.sample(c, 0, 0)),
          src.planes[ks.plane].stride,
          dst.planes[kd.plane].stride,
          ks.pixel_stride,
          kd.pixel_stride,
          ks.width,
          ks.height,
          err,
          ks.width};
}

inline PixelRules pixel_rules(const Setup &s, int plane) {
  // The binary compare "u >= T" sees u clamped to 0..255: with T = 0 every
  // u is white, which comparing the unclamped u with kMinValue also gives.
  return {s.threshold == 0 ? kMinValue : s.threshold, s.stochastic_scale, plane_key(s.seed, s.frame, plane), s.table};
}

}  // namespace cf::halftone_rules
