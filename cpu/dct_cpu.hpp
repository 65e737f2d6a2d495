// CPU backends of the 8x8 DCT (internal). cf::cpu is the serial reference;
// cf::omp schedules the same block rows (dct_block_rows) over OpenMP threads,
// so both give identical bits. Frames and parameters are validated by core/.
#pragma once

#include "core/shared/dct_rules.hpp"
#include "cudafilters/frame.hpp"

namespace cf::cpu {
// Block rows [by_begin, by_end) of component c: forward (raw -> coefficients)
// or inverse (coefficients -> raw).
void dct_block_rows(bool inverse, const dct::Setup &s, const FrameView &src, const FrameView &dst, int c, int by_begin,
                    int by_end);
void dct_transform(bool inverse, const dct::Setup &s, const FrameView &src, const FrameView &dst);
}  // namespace cf::cpu

namespace cf::omp {
// threads = 0: all cores.
void dct_transform(bool inverse, const dct::Setup &s, const FrameView &src, const FrameView &dst, int threads);
}  // namespace cf::omp
