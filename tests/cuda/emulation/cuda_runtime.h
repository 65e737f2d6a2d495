// A stand-in for the CUDA runtime API, for running kernels/ on the CPU
// (emulator.hpp): one "device" whose memory is host memory. Only what
// kernels/ and tests/cuda/parity.hpp use. Device allocations are recorded,
// so that copies are checked against their direction and every sample a
// kernel touches against the allocations (cf_emulate_check_access).
#pragma once

#include <cstddef>
#include <cstring>

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorInvalidDevice = 101,
  cudaErrorNoKernelImageForDevice = 209
};
typedef enum cudaError cudaError_t;
typedef struct CUstream_st *cudaStream_t;
enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2, cudaMemcpyDeviceToDevice = 3 };
enum cudaDeviceAttr {
  cudaDevAttrComputeMode = 20,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76
};
enum cudaComputeMode { cudaComputeModeDefault = 0, cudaComputeModeProhibited = 2 };
constexpr unsigned cudaStreamNonBlocking = 1;
#define cudaStreamLegacy ((cudaStream_t)0x1)  // as in the real header; the emulator runs every stream at once
struct cudaDeviceProp {
  char name[256];
};
struct cudaFuncAttributes {
  int numRegs;
};

const char *cudaGetErrorString(cudaError_t e);
const char *cudaGetErrorName(cudaError_t e);
cudaError_t cudaGetLastError();
cudaError_t cudaGetDeviceCount(int *n);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device);
template <class F>
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, F) {
  attr->numRegs = 0;
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaMalloc(void **ptr, std::size_t bytes);
cudaError_t cudaMallocPitch(void **ptr, std::size_t *pitch, std::size_t width, std::size_t height);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemGetInfo(std::size_t *free, std::size_t *total);
cudaError_t cudaMemcpy2D(void *dst, std::size_t dpitch, const void *src, std::size_t spitch, std::size_t width,
                         std::size_t height, cudaMemcpyKind kind);
cudaError_t cudaMemsetAsync(void *p, int value, std::size_t bytes, cudaStream_t stream);
cudaError_t cudaMemset2DAsync(void *p, std::size_t pitch, int value, std::size_t width, std::size_t height,
                              cudaStream_t stream);
cudaError_t cudaMemcpy2DAsync(void *dst, std::size_t dpitch, const void *src, std::size_t spitch, std::size_t width,
                              std::size_t height, cudaMemcpyKind kind, cudaStream_t stream);

// Pinned memory and plain copies (Engine::device_alloc and friends): host
// memory in the emulation.
constexpr unsigned cudaHostAllocPortable = 1;
inline cudaError_t cudaHostAlloc(void **p, std::size_t bytes, unsigned) {
  *p = ::operator new(bytes);
  return cudaSuccess;
}
inline cudaError_t cudaFreeHost(void *p) {
  ::operator delete(p);
  return cudaSuccess;
}
inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, std::size_t bytes, cudaMemcpyKind kind,
                                   cudaStream_t stream) {
  return cudaMemcpy2DAsync(dst, bytes, src, bytes, bytes, 1, kind, stream);
}

// No driver API in the emulation: kernels/cuda_context.cu finds no entry
// points and leaves the (single, emulated) context alone.
enum cudaDriverEntryPointQueryResult { cudaDriverEntryPointSuccess = 0, cudaDriverEntryPointSymbolNotFound = 1 };
constexpr unsigned long long cudaEnableDefault = 0;
inline cudaError_t cudaGetDriverEntryPointByVersion(const char *, void **fn, unsigned, unsigned long long,
                                                    cudaDriverEntryPointQueryResult *status) {
  *fn = nullptr;
  *status = cudaDriverEntryPointSymbolNotFound;
  return cudaErrorInvalidValue;
}

// Emulator controls and checks (emulator.cpp).
namespace cf_emulation {
void set_reverse_order(bool reverse);  // run blocks, and threads within a block, last first
long long launches();
long long blocks();
}  // namespace cf_emulation
void cf_emulate_check_access(const void *p, std::size_t bytes);                // inside a device allocation?
void cf_emulate_check(bool ok, const char *what, const char *file, int line);  // CF_EMU_CHECK
