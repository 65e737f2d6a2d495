// CF_UNROLL and CF_NO_UNROLL: #pragma unroll and #pragma unroll 1 for the
// device compiler only (the host compiler of the CPU emulation warns about
// them). Internal to kernels/.
#pragma once

#ifndef CF_UNROLL
#ifdef __CUDA_ARCH__
#define CF_UNROLL _Pragma("unroll")
#else
#define CF_UNROLL
#endif
#endif

// Keeps a loop rolled (nvcc unrolls short constant-trip loops on its own).
#ifndef CF_NO_UNROLL
#ifdef __CUDA_ARCH__
#define CF_NO_UNROLL _Pragma("unroll 1")
#else
#define CF_NO_UNROLL
#endif
#endif
