// CPU CDF 9/7 backends (internal). cf::cpu is the serial reference; cf::omp
// schedules the same steps over OpenMP threads and gives the same bits.
#pragma once

#include "cudafilters/cdf97.hpp"

namespace cf::cpu {
void cdf97_forward(const Cdf97Params &p, const FrameView &src, const FrameView &dst);
void cdf97_inverse(const Cdf97Params &p, const FrameView &src, const FrameView &dst);
}  // namespace cf::cpu

namespace cf::omp {
// threads = 0: all cores.
void cdf97_forward(const Cdf97Params &p, const FrameView &src, const FrameView &dst, int threads);
void cdf97_inverse(const Cdf97Params &p, const FrameView &src, const FrameView &dst, int threads);
}  // namespace cf::omp
