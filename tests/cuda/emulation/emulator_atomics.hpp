// Atomics, __syncthreads_or and dynamic shared memory for the CPU emulation
// (emulator.hpp), as the Hough kernels use them. Threads are fibers that
// switch only at barriers, so a read-modify-write is atomic as written.
// Callers check global addresses themselves (hough_kernels.cuh: dev()).
#pragma once

#include <cstddef>
#include <vector>

#include "emulator.hpp"

template <class T>
T atomicAdd(T *p, T v) {
  const T old = *p;
  *p = old + v;
  return old;
}

template <class T>
T atomicMax(T *p, T v) {
  const T old = *p;
  if (v > old) *p = v;
  return old;
}

// Every thread's predicate, or-ed: three block barriers around one flag that
// the block's threads share (one block runs at a time).
inline int __syncthreads_or(int predicate) {
  static int flag = 0;
  __syncthreads();
  if (predicate) flag = 1;
  __syncthreads();
  const int result = flag;
  __syncthreads();
  if (threadIdx.x == 0) flag = 0;
  return result;
}

// extern __shared__: one buffer for the running block, grown between launches.
inline void *cf_emulate_dynamic_shared(std::size_t bytes) {
  static std::vector<unsigned char> buffer;
  if (buffer.size() < bytes) buffer.resize(bytes);
  return buffer.data();
}
