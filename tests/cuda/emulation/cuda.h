// A stand-in for the CUDA driver API types that kernels/cuda_context.cuh
// names; the emulation has no driver (see cuda_runtime.h).
#pragma once

typedef struct CUctx_st *CUcontext;
typedef int CUdevice;
typedef enum { CUDA_SUCCESS = 0 } CUresult;
#define CUDAAPI
