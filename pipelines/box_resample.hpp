// Resampling of the seeds programs' photos (hough_seeds, cdf97_seeds) to the
// sizes the documents used.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace cfseeds {

// Interleaved RGB (w x h) resampled to W x H: each output pixel the rounded
// mean of the input pixels its footprint covers (a box filter, so that
// shrinking a photo does not alias its texture into false edges), or the
// nearest input pixel along an axis that is enlarged.
inline std::vector<std::uint8_t> box_resample(const std::vector<std::uint8_t> &rgb, int w, int h, int W, int H) {
  std::vector<std::uint8_t> out(std::size_t(W) * H * 3);
  for (int y = 0; y < H; ++y) {
    const int y0 = int(std::int64_t(y) * h / H), y1 = std::max(y0 + 1, int(std::int64_t(y + 1) * h / H));
    for (int x = 0; x < W; ++x) {
      const int x0 = int(std::int64_t(x) * w / W), x1 = std::max(x0 + 1, int(std::int64_t(x + 1) * w / W));
      const long n = long(y1 - y0) * (x1 - x0);
      for (int c = 0; c < 3; ++c) {
        long sum = 0;
        for (int sy = y0; sy < y1; ++sy)
          for (int sx = x0; sx < x1; ++sx) sum += rgb[(std::size_t(sy) * w + sx) * 3 + c];
        out[(std::size_t(y) * W + x) * 3 + c] = std::uint8_t((sum + n / 2) / n);
      }
    }
  }
  return out;
}

}  // namespace cfseeds
