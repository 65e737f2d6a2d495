// Warp-synchronous intrinsics, atomics and spin-wait hooks for the CPU
// emulation (emulator.hpp), as the halftone wavefront kernel and the HT
// code-block kernel use them.
// Warp operations are barriers of the warp's 32 fibers (full masks only);
// __nanosleep yields to the other threads of the block, so a warp that
// spins on a flag lets the warp it waits for run. Blocks still run one
// after another: a kernel may only wait on work of its own block or of
// blocks that ran before (the halftone kernel's tickets guarantee it).
#pragma once

#include <cstddef>

#include "cuda_runtime.h"

namespace cf_emulation {
void warp_gather(unsigned mask, int value, int out[32]);  // every lane's value
void yield_thread();
}  // namespace cf_emulation

// (__syncwarp, the int __shfl_sync, __nanosleep and __threadfence are in
// emulator.hpp; atomics in emulator_atomics.hpp.)
unsigned __shfl_sync(unsigned mask, unsigned value, int src_lane);
int __all_sync(unsigned mask, int predicate);
unsigned __ballot_sync(unsigned mask, int predicate);
inline int __ffs(int v) { return __builtin_ffs(v); }
inline int __popc(unsigned v) { return __builtin_popcount(v); }
int __any_sync(unsigned mask, int predicate);
