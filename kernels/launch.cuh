// One kernel launch on the engine's stream, or on the CPU emulation of CUDA
// (tests/cuda/emulation) when CF_CUDA_EMULATION is defined (internal to
// kernels/). Throws cf::Error naming `what` when the launch fails.
#pragma once

#include <string>

#include "kernels/cuda_state.cuh"

namespace cf::cuda {

template <class Params>
void launch_kernel(detail::CudaState *s, void (*kernel)(Params), int blocks, int threads, const Params &params,
                   const char *what) {
#ifdef CF_CUDA_EMULATION
  cf_emulate_launch(kernel, blocks, threads, params);
  (void)s;
#else
  kernel<<<blocks, threads, 0, s->stream>>>(params);
#endif
  detail::check(cudaGetLastError(), [&] { return std::string("launching ") + what; });
}

}  // namespace cf::cuda
