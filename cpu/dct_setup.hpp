// What every 8x8 DCT block needs, computed once per call on the host (core
// fills it; the backends and the CUDA kernels read it). Plain data, no code,
// so core/src/cuda_bridge.hpp can pass it without device annotations.
#pragma once

#include "cudafilters/frame.hpp"

namespace cf::dct {

struct Setup {
  float cosine[64];             // C[k][n] at 8 k + n
  float quant[kMaxPlanes][64];  // Q per component, row-major
  float shift;                  // level shift: 128 for U8 input, else 0
  int lo, hi;                   // the inverse's output range
};

}  // namespace cf::dct
