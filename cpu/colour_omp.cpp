// OpenMP schedule of the colour transforms: rows split statically over the
// threads, each row computed by the reference's colour::transform_row.
#include <vector>

#include "cpu/colour_cpu.hpp"
#include "cpu/omp_threads.hpp"

namespace cf::omp {

void colour_transform(colour::Direction d, ColourTransform t, const FrameView &src, const FrameView &dst, int threads) {
  const int w = src.components[0].width, h = src.components[0].height;
  const std::size_t row = std::size_t(src.n_components) * w;
#pragma omp parallel num_threads(thread_count(threads, row *h))
  {
    thread_local std::vector<std::int32_t> work;  // per OpenMP thread, kept between frames
    work.resize(row);
#pragma omp for schedule(static)
    for (int y = 0; y < h; ++y) colour::transform_row(d, t, src, dst, y, work.data());
  }
}

}  // namespace cf::omp
