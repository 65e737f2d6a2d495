// CPU wavelet backends (internal). cf::cpu is the serial reference that
// defines the correct result; cf::omp schedules the same lifting steps over
// OpenMP threads and must give the same bits.
#pragma once

#include "cudafilters/frame.hpp"
#include "cudafilters/wavelet.hpp"

namespace cf::cpu {
void wavelet_forward(const WaveletParams &p, const FrameView &src, const FrameView &dst);
void wavelet_inverse(const WaveletParams &p, const FrameView &src, const FrameView &dst);
}  // namespace cf::cpu

namespace cf::omp {
// threads = 0: all cores.
void wavelet_forward(const WaveletParams &p, const FrameView &src, const FrameView &dst, int threads);
void wavelet_inverse(const WaveletParams &p, const FrameView &src, const FrameView &dst, int threads);
}  // namespace cf::omp
