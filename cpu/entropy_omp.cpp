// OpenMP histograms: per component, rows split statically over the threads,
// each counting into its own histogram; then the bins are split and each is
// summed over the threads' histograms.
#include <algorithm>
#include <vector>

#include "cpu/entropy_cpu.hpp"
#include "cpu/omp_threads.hpp"

namespace cf::omp {

void histograms(const FrameView &f, const HistogramShape &shape, std::uint32_t *counts, int threads) {
  std::size_t samples = 0;
  for (int c = 0; c < f.n_components; ++c) samples += std::size_t(f.components[c].width) * f.components[c].height;
  const int team = thread_count(threads, samples);
  // Per-thread histograms, kept between calls by the calling thread.
  // (thread_local: named inside the region, it would be each thread's own.)
  thread_local std::vector<std::vector<std::uint32_t>> cache;
  std::vector<std::vector<std::uint32_t>> &parts = cache;
  if (int(parts.size()) < team) parts.resize(team);
  const std::size_t bins = shape.bins;
#pragma omp parallel num_threads(team)
  {
#ifdef _OPENMP
    const int id = omp_get_thread_num(), n = omp_get_num_threads();
#else
    const int id = 0, n = 1;
#endif
    std::vector<std::uint32_t> &mine = parts[id];
    thread_local std::vector<std::int32_t> row;
    for (int c = 0; c < f.n_components; ++c) {
      mine.assign(bins, 0u);
      row.resize(std::size_t(f.components[c].width));
#pragma omp for schedule(static)
      for (int y = 0; y < f.components[c].height; ++y) entropy::count_row(f, c, y, shape.lo, row.data(), mine.data());
      // (the loop's barrier: every thread has counted)
      std::uint32_t *out = counts + c * bins;
#pragma omp for schedule(static)
      for (std::ptrdiff_t b = 0; b < std::ptrdiff_t(bins); ++b) {
        std::uint32_t sum = 0;
        for (int t = 0; t < n; ++t) sum += parts[t][b];
        out[b] = sum;
      }
    }
  }
}

}  // namespace cf::omp
