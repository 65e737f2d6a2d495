// CPU histogram backends (internal). cf::cpu counts row after row; cf::omp
// counts rows into one histogram per thread and sums them bin by bin. Both
// use count_row(), and integer sums do not depend on their order, so the
// histograms are identical.
#pragma once

#include <cstdint>

#include "cpu/samples.hpp"
#include "cudafilters/entropy.hpp"

namespace cf::entropy {

// Adds row y of component c to counts (bins from lo); `row` holds width int32.
inline void count_row(const FrameView &f, int c, int y, std::int64_t lo, std::int32_t *row, std::uint32_t *counts) {
  samples::load_row(f, c, y, row);
  for (int x = 0; x < f.components[c].width; ++x) ++counts[std::int64_t(row[x]) - lo];
}

}  // namespace cf::entropy

namespace cf::cpu {
// counts: n_components x shape.bins, zeroed here.
void histograms(const FrameView &f, const HistogramShape &shape, std::uint32_t *counts);
}  // namespace cf::cpu

namespace cf::omp {
void histograms(const FrameView &f, const HistogramShape &shape, std::uint32_t *counts, int threads);
}  // namespace cf::omp
