// How many OpenMP threads a call gets (shared by the OpenMP backends).
#pragma once

#include <algorithm>
#include <cstddef>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace cf::omp {

// Samples per thread below which another thread costs more (fork, a barrier
// after every pass) than it saves.
constexpr std::size_t kMinSamplesPerThread = 32 * 1024;

// `threads` (0 = all cores) is an upper bound. A frame gets no more threads
// than it has work for, nor more than there are processors: every pass ends
// at a barrier, and a barrier waiting for a thread that has no core costs a
// scheduler time slice. Small frames therefore run on one thread.
inline int thread_count(int threads, std::size_t samples) {
#ifdef _OPENMP
  const std::size_t wanted = threads > 0 ? std::size_t(threads) : std::size_t(omp_get_max_threads());
  const std::size_t cores = std::size_t(std::max(1, omp_get_num_procs()));
  const std::size_t useful = std::max<std::size_t>(1, samples / kMinSamplesPerThread);
  return int(std::min({wanted, cores, useful}));
#else
  (void)threads;
  (void)samples;
  return 1;
#endif
}

}  // namespace cf::omp
