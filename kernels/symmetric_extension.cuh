// Whole-sample symmetric extension of an index (internal to kernels/): how
// every kernel with a halo loads past a band's edge.
#pragma once

#include "core/shared/host_device.hpp"

namespace cf::cuda {

// Index i of the whole-sample symmetric extension of [0, n): period
// 2(n - 1), n = 1 maps every index to 0. Exact for every i, so always a
// sample of the band.
CF_HD int mirror(int i, int n) {
  if (i >= 0 && i < n) return i;
  if (n == 1) return 0;
  const int period = 2 * (n - 1);
  i %= period;
  if (i < 0) i += period;
  return i < n ? i : period - i;
}

}  // namespace cf::cuda
