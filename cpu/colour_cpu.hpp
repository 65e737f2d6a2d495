// CPU colour-transform backends (internal). cf::cpu is the serial reference;
// cf::omp splits the same rows over OpenMP threads and gives the same bits.
// transform_row() is the whole technique on one row; the backends only say
// which thread does which row.
#pragma once

#include <cstdint>

#include "core/shared/colour_rules.hpp"
#include "cpu/samples.hpp"
#include "cudafilters/colour.hpp"
#include "cudafilters/frame.hpp"

namespace cf::colour {

enum class Direction { Forward, Inverse };

// Row y of src -> row y of dst; `work` holds n_components x width int32.
// Components 3 and beyond (alpha) pass unchanged.
inline void transform_row(Direction d, ColourTransform t, const FrameView &src, const FrameView &dst, int y,
                          std::int32_t *work) {
  const int w = src.components[0].width, n = src.n_components;
  for (int c = 0; c < n; ++c) samples::load_row(src, c, y, work + std::ptrdiff_t(c) * w);
  for (int x = 0; x < w; ++x) {
    std::int32_t v[3] = {work[x], work[w + x], work[2 * w + x]};
    if (d == Direction::Forward)
      forward(t, v);
    else
      inverse(t, v);
    work[x] = v[0];
    work[w + x] = v[1];
    work[2 * w + x] = v[2];
  }
  for (int c = 0; c < n; ++c) samples::store_row(dst, c, y, work + std::ptrdiff_t(c) * w);
}

}  // namespace cf::colour

namespace cf::cpu {
void colour_transform(colour::Direction d, ColourTransform t, const FrameView &src, const FrameView &dst);
}  // namespace cf::cpu

namespace cf::omp {
// threads = 0: all cores.
void colour_transform(colour::Direction d, ColourTransform t, const FrameView &src, const FrameView &dst, int threads);
}  // namespace cf::omp
