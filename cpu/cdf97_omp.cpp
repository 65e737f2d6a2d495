// OpenMP schedule of the CDF 9/7: the serial reference's steps
// (cdf97_rows.hpp), each pass's rows or columns shared over the threads.
// Every sample gets the same operations in the same order, so the bits
// are the reference's.
#include <vector>

#include "cpu/cdf97_cpu.hpp"
#include "cpu/cdf97_rows.hpp"
#include "cpu/omp_threads.hpp"

namespace cf::omp {

namespace {
void run(cdf97::Direction dir, const Cdf97Params &p, const FrameView &src, const FrameView &dst, int threads) {
  cdf97::transform(dir, p, src, dst, [&](int n, int scratch, auto &&body) {
    const int team = thread_count(threads, std::size_t(n) * std::size_t(scratch));
#pragma omp parallel num_threads(team)
    {
      thread_local std::vector<float> tmp;
      if (tmp.size() < std::size_t(scratch)) tmp.resize(std::size_t(scratch));
#pragma omp for schedule(static)
      for (int i = 0; i < n; ++i) body(i, tmp.data());
    }
  });
}
}  // namespace

void cdf97_forward(const Cdf97Params &p, const FrameView &src, const FrameView &dst, int threads) {
  run(cdf97::Direction::Forward, p, src, dst, threads);
}
void cdf97_inverse(const Cdf97Params &p, const FrameView &src, const FrameView &dst, int threads) {
  run(cdf97::Direction::Inverse, p, src, dst, threads);
}

}  // namespace cf::omp
