// Warp intrinsics of the CPU emulation: see warp_intrinsics.hpp.
#include "emulator.hpp"

namespace {
constexpr int kWarp = 32;
}  // namespace

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

unsigned __ballot_sync(unsigned mask, int predicate) {
  int all[kWarp];
  cf_emulation::warp_gather(mask, predicate != 0, all);
  unsigned bits = 0;
  for (int i = 0; i < kWarp; ++i) bits |= unsigned(all[i] != 0) << i;
  return bits;
}

int __any_sync(unsigned mask, int predicate) {
  int all[kWarp];
  cf_emulation::warp_gather(mask, predicate != 0, all);
  for (int v : all)
    if (v) return 1;
  return 0;
}
