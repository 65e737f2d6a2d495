// Serial reference of the histograms.
#include <algorithm>
#include <vector>

#include "cpu/entropy_cpu.hpp"

namespace cf::cpu {

void histograms(const FrameView &f, const HistogramShape &shape, std::uint32_t *counts) {
  thread_local std::vector<std::int32_t> row;
  std::fill(counts, counts + std::size_t(f.n_components) * shape.bins, 0u);
  for (int c = 0; c < f.n_components; ++c) {
    row.resize(std::size_t(f.components[c].width));
    for (int y = 0; y < f.components[c].height; ++y)
      entropy::count_row(f, c, y, shape.lo, row.data(), counts + c * shape.bins);
  }
}

}  // namespace cf::cpu
