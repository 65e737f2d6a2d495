// Helpers of the DCT tests (unit, emulated CUDA, GPU): coefficient frames
// padded to whole 8x8 blocks, largest sample difference, PSNR.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>

#include "cudafilters/dct.hpp"
#include "frames.hpp"

namespace cft::dct {

// Tight S16 planes, one per component of `raw`, padded to whole blocks.
inline OwnedFrame make_coefficients(const cf::FrameView &raw) {
  cf::PlanarLayout l;
  l.n = raw.n_components;
  for (int c = 0; c < l.n; ++c) {
    l.width[c] = cf::padded_to_blocks(raw.components[c].width);
    l.height[c] = cf::padded_to_blocks(raw.components[c].height);
  }
  OwnedFrame f;
  f.bytes.assign(cf::planar_size(l, cf::SampleType::S16), 0);
  f.view = cf::planar_view(f.bytes.data(), l, cf::SampleType::S16, cf::Memory::Host);
  return f;
}

// max |a - b| over every sample of every component (same geometry).
inline long max_difference(const cf::FrameView &a, const cf::FrameView &b) {
  long m = 0;
  for (int c = 0; c < a.n_components; ++c)
    for (int y = 0; y < a.components[c].height; ++y)
      for (int x = 0; x < a.components[c].width; ++x)
        m = std::max(m, long(std::llabs(read_sample(a, c, x, y) - read_sample(b, c, x, y))));
  return m;
}

// PSNR (dB) of b against a over all samples of all components, peak 255;
// infinity when identical.
inline double psnr(const cf::FrameView &a, const cf::FrameView &b) {
  double se = 0;
  long long n = 0;
  for (int c = 0; c < a.n_components; ++c)
    for (int y = 0; y < a.components[c].height; ++y)
      for (int x = 0; x < a.components[c].width; ++x, ++n) {
        const double d = double(read_sample(a, c, x, y) - read_sample(b, c, x, y));
        se += d * d;
      }
  return se == 0 ? INFINITY : 10 * std::log10(255.0 * 255.0 / (se / double(n)));
}

}  // namespace cft::dct
