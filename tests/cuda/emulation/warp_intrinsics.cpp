// Warp intrinsics of the CPU emulation: see warp_intrinsics.hpp.
#include <cstring>

#include "emulator.hpp"

namespace {
constexpr int kWarp = 32;
}  // namespace

void __syncwarp(unsigned mask) {
  int all[kWarp];
  cf_emulation::warp_gather(mask, 0, all);
}

int __shfl_sync(unsigned mask, int value, int src_lane) {
  int all[kWarp];
  cf_emulation::warp_gather(mask, value, all);
  return all[src_lane % kWarp];
}

unsigned __shfl_sync(unsigned mask, unsigned value, int src_lane) {
  return unsigned(__shfl_sync(mask, int(value), src_lane));
}

int __all_sync(unsigned mask, int predicate) {
  int all[kWarp];
  cf_emulation::warp_gather(mask, predicate != 0, all);
  for (int v : all)
    if (!v) return 0;
  return 1;
}

int __any_sync(unsigned mask, int predicate) {
  int all[kWarp];
  cf_emulation::warp_gather(mask, predicate != 0, all);
  for (int v : all)
    if (v) return 1;
  return 0;
}

unsigned atomicAdd(unsigned *address, unsigned value) {
  cf_emulate_check_access(address, sizeof *address);
  const unsigned old = *address;  // one fiber runs at a time: no interleaving here
  *address = old + value;
  return old;
}

void __nanosleep(unsigned) { cf_emulation::yield_thread(); }
void __threadfence() {}

cudaError_t cudaMemsetAsync(void *ptr, int value, std::size_t bytes, cudaStream_t) {
  if (bytes) cf_emulate_check_access(ptr, bytes);
  std::memset(ptr, value, bytes);
  return cudaSuccess;
}
