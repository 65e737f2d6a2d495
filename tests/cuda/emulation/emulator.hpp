// The CUDA execution model on one CPU thread, enough to run kernels/ without
// a GPU: a block's threads are fibers (own stacks, switched in user space),
// run round robin; __syncthreads and warp shuffles are barriers at which a
// fiber yields; blocks run one after another. A barrier that some thread of
// its block (or warp) never reaches aborts with "deadlock"; a kernel access
// outside every device allocation aborts too.
//
// What it cannot show: timing, races that a different interleaving of warps
// would expose (run it in both orders, set_reverse_order), and anything
// specific to the GPU's memory model. Kernel code compiles as C++ under the
// macros below; kernels/wavelet.cu calls cf_emulate_launch instead of <<<>>>
// when CF_CUDA_EMULATION is defined.
#pragma once

#include <cstdint>

#include "atomics.hpp"
#include "cuda_runtime.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __grid_constant__
#define __shared__ static  // one block at a time: the block's threads share it

struct uint3 {
  unsigned x, y, z;
};
extern uint3 threadIdx, blockIdx;

void __syncthreads();
int __shfl_down_sync(unsigned mask, int value, int delta);
int __shfl_up_sync(unsigned mask, int value, int delta);

namespace cf_emulation {
// Runs body(arg) as `threads` threads of each of `blocks` blocks.
void run(int blocks, int threads, void (*body)(void *), void *arg);
}  // namespace cf_emulation

template <class Params>
void cf_emulate_launch(void (*kernel)(Params), int blocks, int threads, const Params &params) {
  struct Launch {
    void (*kernel)(Params);
    const Params *params;
  } launch{kernel, &params};
  cf_emulation::run(blocks, threads, [](void *a) {
    auto *l = static_cast<Launch *>(a);
    l->kernel(*l->params);
  }, &launch);
}
