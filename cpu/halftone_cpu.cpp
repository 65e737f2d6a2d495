// Serial reference of error-diffusion halftoning: every component plane,
// row by row in scan order, each pixel by cf::halftone_rules::diffuse_span.
// It defines the result the OpenMP and CUDA backends reproduce bit for bit.
#include <cstdint>
#include <vector>

#include "cpu/halftone_cpu.hpp"

namespace cf::cpu {

namespace hr = halftone_rules;

void copy_component(const FrameView &src, const FrameView &dst, int c) {
  const Component &k = src.components[c];
  for (int y = 0; y < k.height; ++y) {
    const auto *s = static_cast<const unsigned char *>(src.sample(c, 0, y));
    auto *d = static_cast<unsigned char *>(dst.sample(c, 0, y));
    for (int x = 0; x < k.width; ++x) d[x * dst.components[c].pixel_stride] = s[x * k.pixel_stride];
  }
}

void halftone(const hr::Setup &s, const FrameView &src, const FrameView &dst) {
  thread_local std::vector<std::int16_t> err;  // kept between calls: no per-frame allocation
  for (int c = 0; c < src.n_components; ++c) {
    if (s.copy_mask >> c & 1) {
      copy_component(src, dst, c);
      continue;
    }
    const Component &k = src.components[c];
    if (err.size() < std::size_t(k.width) * k.height) err.resize(std::size_t(k.width) * k.height);
    const hr::PlaneRef p = hr::plane_ref(src, dst, c, err.data());
    const hr::PixelRules r = hr::pixel_rules(s, c);
    hr::dispatch(s, [&](auto m, auto multi, auto stochastic) {
      for (int y = 0; y < k.height; ++y)
        hr::diffuse_span<decltype(m)::value, decltype(multi)::value, decltype(stochastic)::value>(p, r, s.serpentine, y,
                                                                                                  0, k.width);
    });
  }
}

}  // namespace cf::cpu
