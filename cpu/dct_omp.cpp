// OpenMP schedule of the 8x8 DCT: the reference's block rows (every
// component's) split over the threads; each block is computed by the same
// code, so the bits are the reference's.
#include <utility>
#include <vector>

#include "cpu/dct_cpu.hpp"
#include "cpu/omp_threads.hpp"

namespace cf::omp {

void dct_transform(bool inverse, const dct::Setup &s, const FrameView &src, const FrameView &dst, int threads) {
  std::vector<std::pair<int, int>> rows;  // (component, block row)
  std::size_t samples = 0;
  for (int c = 0; c < src.n_components; ++c) {
    const Component &k = src.components[c];
    for (int by = 0; by < (k.height + 7) / 8; ++by) rows.emplace_back(c, by);
    samples += std::size_t(k.width) * k.height;
  }
  const int n = int(rows.size());
#pragma omp parallel for schedule(static) num_threads(thread_count(threads, samples))
  for (int i = 0; i < n; ++i)
    cpu::dct_block_rows(inverse, s, src, dst, rows[i].first, rows[i].second, rows[i].second + 1);
}

}  // namespace cf::omp
