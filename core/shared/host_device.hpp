// CF_HD marks a function of the shared definitions as callable from host
// and device code: __host__ __device__ under nvcc, a plain inline function
// for the host compiler (the serial and OpenMP backends, and the CPU
// emulation of the kernels in tests/cuda/emulation). Every shared header
// includes this file, so the meaning does not depend on include order.
#pragma once

#if defined(__CUDACC__)
#define CF_HD __host__ __device__ __forceinline__
#else
#define CF_HD inline
#endif
