// Serial reference of the 8x8 DCT: block after block, with core/shared/dct_rules.hpp.
#include "cpu/dct_cpu.hpp"

#include <algorithm>
#include <cstring>

namespace cf::cpu {

namespace {
template <class T>
int load_as(const void *at) {
  T v;
  std::memcpy(&v, at, sizeof v);
  return int(v);
}
int load(const FrameView &f, int c, int x, int y) {
  const void *at = f.sample(c, x, y);
  switch (f.type) {
    case SampleType::U8: return load_as<std::uint8_t>(at);
    case SampleType::U16: return load_as<std::uint16_t>(at);
    case SampleType::S16: return load_as<std::int16_t>(at);
    case SampleType::S32: return load_as<std::int32_t>(at);
    case SampleType::F32: break;  // refused by dct_check before any load
  }
  return 0;
}
// v is already inside the destination's range (round_clamp): no saturation here.
void store(const FrameView &f, int c, int x, int y, int v) {
  void *at = f.sample(c, x, y);
  if (f.type == SampleType::U8)
    *static_cast<std::uint8_t *>(at) = std::uint8_t(v);
  else if (f.type == SampleType::S16) {
    const auto s = std::int16_t(v);
    std::memcpy(at, &s, sizeof s);
  }
}

// Block (bx, by) of component c, replicated past the edges, level-shifted.
void load_block(const dct::Setup &s, const FrameView &f, int c, int bx, int by, float *x) {
  const Component &k = f.components[c];
  for (int y = 0; y < 8; ++y)
    for (int n = 0; n < 8; ++n) {
      const int sx = std::min(bx * 8 + n, k.width - 1), sy = std::min(by * 8 + y, k.height - 1);
      x[8 * y + n] = float(load(f, c, sx, sy)) - s.shift;
    }
}
}  // namespace

void dct_block_rows(bool inverse, const dct::Setup &s, const FrameView &src, const FrameView &dst, int c, int by_begin,
                    int by_end) {
  const Component &out = dst.components[c], &in = src.components[c];
  const int blocks_x = (std::max(in.width, out.width) + 7) / 8;
  float x[64], tmp[64];
  int v[64];
  for (int by = by_begin; by < by_end; ++by)
    for (int bx = 0; bx < blocks_x; ++bx) {
      if (!inverse) {
        load_block(s, src, c, bx, by, x);
        dct::forward_block(s, c, x, tmp, v);
      } else {
        for (int i = 0; i < 64; ++i)
          x[i] = dct::dequantise(load(src, c, bx * 8 + i % 8, by * 8 + i / 8), s.quant[c][i]);
        dct::inverse_block(s, x, tmp, v);
      }
      // The inverse writes only the samples inside the component.
      for (int i = 0; i < 64; ++i) {
        const int px = bx * 8 + i % 8, py = by * 8 + i / 8;
        if (px < out.width && py < out.height) store(dst, c, px, py, v[i]);
      }
    }
}

void dct_transform(bool inverse, const dct::Setup &s, const FrameView &src, const FrameView &dst) {
  for (int c = 0; c < src.n_components; ++c)
    dct_block_rows(inverse, s, src, dst, c, 0, (src.components[c].height + 7) / 8);
}

}  // namespace cf::cpu
