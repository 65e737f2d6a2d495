// Moving one row of a component between a FrameView (any sample type, any
// row stride and pixel stride) and an int32 work row. Shared by the serial
// and OpenMP backends.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "cudafilters/frame.hpp"

namespace cf::samples {

namespace detail {
template <class T>
void load(const std::uint8_t *p, std::ptrdiff_t step, int n, std::int32_t *out) {
  for (int x = 0; x < n; ++x) {
    T v;
    std::memcpy(&v, p + x * step, sizeof v);
    out[x] = std::int32_t(v);
  }
}

// Values outside T's range are clamped (saturated) to it.
template <class T>
void store(std::uint8_t *p, std::ptrdiff_t step, int n, const std::int32_t *in) {
  constexpr std::int64_t lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
  for (int x = 0; x < n; ++x) {
    const T v = T(std::clamp<std::int64_t>(in[x], lo, hi));
    std::memcpy(p + x * step, &v, sizeof v);
  }
}
}  // namespace detail

// Row y of component c (width samples) into out.
inline void load_row(const FrameView &f, int c, int y, std::int32_t *out) {
  const Component &k = f.components[c];
  const auto *p = static_cast<const std::uint8_t *>(f.sample(c, 0, y));
  const std::ptrdiff_t step = std::ptrdiff_t(k.pixel_stride) * sample_size(f.type);
  switch (f.type) {
    case SampleType::U8: return detail::load<std::uint8_t>(p, step, k.width, out);
    case SampleType::U16: return detail::load<std::uint16_t>(p, step, k.width, out);
    case SampleType::S16: return detail::load<std::int16_t>(p, step, k.width, out);
    case SampleType::S32: return detail::load<std::int32_t>(p, step, k.width, out);
    case SampleType::F32: break;  // not an integer technique's type: refused by core's checks
  }
}

// in (width samples) into row y of component c, clamped to the sample type's range.
inline void store_row(const FrameView &f, int c, int y, const std::int32_t *in) {
  const Component &k = f.components[c];
  auto *p = static_cast<std::uint8_t *>(f.sample(c, 0, y));
  const std::ptrdiff_t step = std::ptrdiff_t(k.pixel_stride) * sample_size(f.type);
  switch (f.type) {
    case SampleType::U8: return detail::store<std::uint8_t>(p, step, k.width, in);
    case SampleType::U16: return detail::store<std::uint16_t>(p, step, k.width, in);
    case SampleType::S16: return detail::store<std::int16_t>(p, step, k.width, in);
    case SampleType::S32: return detail::store<std::int32_t>(p, step, k.width, in);
    case SampleType::F32: break;  // not an integer technique's type: refused by core's checks
  }
}

}  // namespace cf::samples
