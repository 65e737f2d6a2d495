// CPU predictor backends (internal). cf::cpu is the serial reference that
// defines the correct result; cf::omp schedules the same rows over OpenMP
// threads and must give the same bits. Frames are validated by core/.
#pragma once

#include <cstdint>

#include "cudafilters/frame.hpp"
#include "cudafilters/predictor.hpp"

namespace cf::cpu {
void predictor_forward(const PredictorParams &p, const FrameView &raw, const FrameView &res);
void predictor_inverse(const PredictorParams &p, const FrameView &res, const FrameView &raw);

// Rows [y_begin, y_end) of component c (shared with the OpenMP schedule).
// Forward: any rows (it reads the rows above y_begin it needs).
// Inverse: y_begin must start a slice, y_end end one (or the component).
void predictor_forward_rows(const PredictorParams &p, const FrameView &raw, const FrameView &res, int c, int y_begin,
                            int y_end);
void predictor_inverse_rows(const PredictorParams &p, const FrameView &res, const FrameView &raw, int c, int y_begin,
                            int y_end);
}  // namespace cf::cpu

namespace cf::omp {
// threads = 0: all cores.
void predictor_forward(const PredictorParams &p, const FrameView &raw, const FrameView &res, int threads);
void predictor_inverse(const PredictorParams &p, const FrameView &res, const FrameView &raw, int threads);
}  // namespace cf::omp
