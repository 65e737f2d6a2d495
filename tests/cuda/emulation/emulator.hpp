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
// macros below; kernels/wavelet_cuda.cu calls cf_emulate_launch instead of <<<>>>
// when CF_CUDA_EMULATION is defined.
#pragma once

#include <cstdint>

#include "atomics.hpp"
#include "cuda_runtime.h"

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__  // a hint to nvcc only
#define __launch_bounds__(...)
#define __grid_constant__
#define __shared__ static  // one block at a time: the block's threads share it

struct uint3 {
  unsigned x, y, z;
};
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};
extern uint3 threadIdx, blockIdx;

void __syncthreads();
int __shfl_down_sync(unsigned mask, int value, int delta);
int __shfl_up_sync(unsigned mask, int value, int delta);
int __shfl_sync(unsigned mask, int value, int source_lane);
void __syncwarp(unsigned mask = 0xffffffffu);

// Persistent kernels that wait on each other (kernels/predictor_kernels.cuh):
// one thread runs at a time, so atomics are plain read-modify-writes, fences
// are no-ops, and a thread that sleeps yields to the others of its block
// (which is what lets a spin-wait on another warp make progress).
void __nanosleep(unsigned ns);
inline void __threadfence() {}
inline int atomicAdd(int *p, int v) {
  cf_emulate_check_access(p, sizeof *p);
  const int old = *p;
  *p = old + v;
  return old;
}
template <class T>
T __ldcg(const T *p) {  // a load through L2 only: a plain, checked load here
  cf_emulate_check_access(p, sizeof *p);
  return *p;
}

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
  cf_emulation::run(
      blocks, threads,
      [](void *a) {
        auto *l = static_cast<Launch *>(a);
        l->kernel(*l->params);
      },
      &launch);
}

#include "warp_intrinsics.hpp"  // __syncwarp, __shfl_sync, __all_sync, atomics, __nanosleep
