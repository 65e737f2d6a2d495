// CF_UNROLL: #pragma unroll for the device compiler only (the host compiler
// of the CPU emulation warns about it). Internal to kernels/.
#pragma once

#ifndef CF_UNROLL
#ifdef __CUDA_ARCH__
#define CF_UNROLL _Pragma("unroll")
#else
#define CF_UNROLL
#endif
#endif
