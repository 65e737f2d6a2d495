// CPU halftoning backends (internal). cf::cpu is the serial reference scan;
// cf::omp runs the same per-pixel rule (core/shared/halftone_rules.hpp) as a
// wavefront of rows and must give the same bits.
#pragma once

#include "core/shared/halftone_rules.hpp"
#include "cudafilters/frame.hpp"

namespace cf::cpu {
void halftone(const halftone_rules::Setup &s, const FrameView &src, const FrameView &dst);
// Copies component c of src to dst (the components of Setup::copy_mask).
void copy_component(const FrameView &src, const FrameView &dst, int c);
}  // namespace cf::cpu

namespace cf::omp {
// threads = 0: all cores.
void halftone(const halftone_rules::Setup &s, const FrameView &src, const FrameView &dst, int threads);
}  // namespace cf::omp
