// One kernel launch on the engine's stream, or on the CPU emulation of CUDA
// (tests/cuda/emulation) when CF_CUDA_EMULATION is defined (internal to
// kernels/). No launch for an empty grid; throws cf::Error naming `what` when
// the grid is too large or the launch fails.
#pragma once

#include <cstddef>
#include <string>

#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"

namespace cf::cuda {

template <class Params>
void launch_kernel(detail::CudaState *s, void (*kernel)(Params), long long blocks, int threads, const Params &params,
                   const char *what, std::size_t shared_bytes = 0) {
  if (blocks < 1) return;
  if (blocks > 0x7fffffffLL) throw Error(std::string(what) + ": frame too large");
#ifdef CF_CUDA_EMULATION
  (void)s;
  (void)shared_bytes;
  cf_emulate_launch(kernel, int(blocks), threads, params);
#else
  // clang-format would split the launch brackets of a .cuh file.
  // clang-format off
  kernel<<<unsigned(blocks), threads, shared_bytes, s->stream>>>(params);
  // clang-format on
#endif
  detail::check(cudaGetLastError(), [&] { return std::string("launching ") + what; });
}

}  // namespace cf::cuda
