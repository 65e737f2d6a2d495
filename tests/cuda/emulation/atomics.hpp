// Atomics for the CPU emulation of CUDA (emulator.hpp). Threads of the
// emulation switch only at barriers and shuffles, so a read-modify-write is
// already atomic. The kernels check global addresses themselves (shared
// arrays are not device allocations).
#pragma once

inline unsigned atomicOr(unsigned *address, unsigned value) {
  const unsigned old = *address;
  *address = old | value;
  return old;
}
inline unsigned atomicAdd(unsigned *address, unsigned value) {
  const unsigned old = *address;
  *address = old + value;
  return old;
}
