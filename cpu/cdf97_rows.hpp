// Moving rows of a component between a FrameView and a float work row for
// the CDF 9/7 (cudafilters/cdf97.hpp), with the post-processing of each
// coefficient (threshold, quantisation) and the inverse's rounding. Shared
// by the serial reference and the OpenMP schedule; the CUDA kernels do the
// same per sample with the same core/shared/cdf97_rules.hpp functions.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/shared/cdf97_rules.hpp"
#include "core/shared/wavelet_rules.hpp"
#include "cudafilters/cdf97.hpp"

namespace cf::cdf97 {

// Width and height of the final LL band of a w x h component.
struct Extent {
  int w, h;
};
inline Extent ll_extent(const Cdf97Params &p, int w, int h) {
  for (int k = 0; k < p.levels; ++k) {
    w = lifting::low_count(w);
    h = lifting::low_count(h);
  }
  return {w, h};
}

// The reversible wavelets' 2-D pass order, for these levels and layout.
inline WaveletParams pass_order(const Cdf97Params &p) { return WaveletParams(Wavelet::Cdf53, p.levels, p.layout); }

namespace detail {
template <class T, class F>
void each(const FrameView &f, int c, int y, F &&fn) {
  const Component &k = f.components[c];
  auto *p = static_cast<std::uint8_t *>(f.sample(c, 0, y));
  const std::ptrdiff_t step = std::ptrdiff_t(k.pixel_stride) * sizeof(T);
  for (int x = 0; x < k.width; ++x) fn(x, p + x * step);
}
template <class T>
T get(const std::uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T>
void put(std::uint8_t *p, T v) {
  std::memcpy(p, &v, sizeof v);
}
template <class T>
void load_int(const FrameView &f, int c, int y, float *out) {
  each<T>(f, c, y, [&](int x, std::uint8_t *p) { out[x] = float(get<T>(p)); });
}
template <class T>
void store_int(const FrameView &f, int c, int y, const float *in, float lo, float hi) {
  each<T>(f, c, y, [&](int x, std::uint8_t *p) { put<T>(p, T(round_clamp(in[x], lo, hi))); });
}
}  // namespace detail

// Raw samples (U8, U16, S16, S32) -> floats.
inline void load_raw_row(const FrameView &f, int c, int y, float *out) {
  switch (f.type) {
    case SampleType::U8: return detail::load_int<std::uint8_t>(f, c, y, out);
    case SampleType::U16: return detail::load_int<std::uint16_t>(f, c, y, out);
    case SampleType::S16: return detail::load_int<std::int16_t>(f, c, y, out);
    case SampleType::S32: return detail::load_int<std::int32_t>(f, c, y, out);
    case SampleType::F32: return detail::load_int<float>(f, c, y, out);
  }
}

// Coefficients of row y -> F32 or quantised S16/S32, after thresholding the
// detail bands (outside the ll x ll extent).
inline void store_coeff_row(const FrameView &f, int c, int y, const float *in, const Post &post, Extent ll) {
  const bool ll_row = y < ll.h;
  if (f.type == SampleType::F32) {
    detail::each<float>(
        f, c, y, [&](int x, std::uint8_t *p) { detail::put<float>(p, shrink(post, in[x], !(ll_row && x < ll.w))); });
  } else if (f.type == SampleType::S16) {
    detail::each<std::int16_t>(f, c, y, [&](int x, std::uint8_t *p) {
      detail::put<std::int16_t>(
          p, std::int16_t(quantise(shrink(post, in[x], !(ll_row && x < ll.w)), post.step, kMaxIndexS16)));
    });
  } else {
    detail::each<std::int32_t>(f, c, y, [&](int x, std::uint8_t *p) {
      detail::put<std::int32_t>(p, quantise(shrink(post, in[x], !(ll_row && x < ll.w)), post.step, kMaxIndexS32));
    });
  }
}

// F32 coefficients, or S16/S32 indices dequantised with `step`, -> floats.
inline void load_coeff_row(const FrameView &f, int c, int y, float *out, float step) {
  if (f.type == SampleType::F32)
    detail::each<float>(f, c, y, [&](int x, std::uint8_t *p) { out[x] = detail::get<float>(p); });
  else if (f.type == SampleType::S16)
    detail::each<std::int16_t>(
        f, c, y, [&](int x, std::uint8_t *p) { out[x] = dequantise(detail::get<std::int16_t>(p), step); });
  else
    detail::each<std::int32_t>(
        f, c, y, [&](int x, std::uint8_t *p) { out[x] = dequantise(detail::get<std::int32_t>(p), step); });
}

// Floats -> F32 as they are, or an integer type rounded and clamped to its range.
inline void store_raw_row(const FrameView &f, int c, int y, const float *in) {
  switch (f.type) {
    case SampleType::U8: return detail::store_int<std::uint8_t>(f, c, y, in, 0.0f, 255.0f);
    case SampleType::U16: return detail::store_int<std::uint16_t>(f, c, y, in, 0.0f, 65535.0f);
    case SampleType::S16: return detail::store_int<std::int16_t>(f, c, y, in, -32768.0f, 32767.0f);
    case SampleType::S32: return detail::store_int<std::int32_t>(f, c, y, in, -2147483648.0f, 2147483520.0f);
    case SampleType::F32:
      detail::each<float>(f, c, y, [&](int x, std::uint8_t *p) { detail::put<float>(p, in[x]); });
      return;
  }
}

// The whole transform of every component of a frame on a float work plane
// (kept per calling thread). loop(n, scratch, body) runs body(i, tmp) for
// i = 0..n-1 (any order, any threads; tmp: `scratch` floats per thread); the serial and OpenMP backends differ only in
// it.
enum class Direction { Forward, Inverse };

template <class Loop>
void transform(Direction dir, const Cdf97Params &p, const FrameView &src, const FrameView &dst, Loop &&loop) {
  thread_local std::vector<float> work;
  for (int c = 0; c < src.n_components; ++c) {
    const int width = src.components[c].width, height = src.components[c].height;
    if (work.size() < std::size_t(width) * height) work.resize(std::size_t(width) * height);
    float *const plane = work.data();
    const int scratch = std::max(width, height);
    auto row = [&](int y) { return plane + std::ptrdiff_t(y) * width; };
    auto rows = [&](int w, int h) {
      loop(h, scratch, [&](int y, float *tmp) {
        const Signal x{row(y), 1}, t{tmp, 1};
        dir == Direction::Forward ? forward(x, w, t) : inverse(x, w, t);
      });
    };
    auto cols = [&](int w, int h) {
      loop(w, scratch, [&](int x0, float *tmp) {
        const Signal x{plane + x0, width}, t{tmp, 1};
        dir == Direction::Forward ? forward(x, h, t) : inverse(x, h, t);
      });
    };
    const WaveletParams order = pass_order(p);
    if (dir == Direction::Forward) {
      loop(height, scratch, [&](int y, float *) { load_raw_row(src, c, y, row(y)); });
      lifting::forward_passes(order, width, height, rows, cols);
      const Post post = post_of(p);
      const Extent ll = ll_extent(p, width, height);
      loop(height, scratch, [&](int y, float *) { store_coeff_row(dst, c, y, row(y), post, ll); });
    } else {
      loop(height, scratch, [&](int y, float *) { load_coeff_row(src, c, y, row(y), p.quant_step); });
      lifting::inverse_passes(order, width, height, rows, cols);
      loop(height, scratch, [&](int y, float *) { store_raw_row(dst, c, y, row(y)); });
    }
  }
}

}  // namespace cf::cdf97
