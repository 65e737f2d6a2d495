// Float arithmetic with every product, sum and quotient rounded on its own,
// so the serial, OpenMP and CUDA backends give the same bits (the float
// transforms: cdf97_rules.hpp, dct_rules.hpp). On the GPU the _rn intrinsics
// keep nvcc from fusing them into FMAs; the host build has
// -ffp-contract=off (meson.build) and no fast-math.
#pragma once

#include "core/shared/host_device.hpp"

namespace cf::rounded {

CF_HD float mul(float a, float b) {
#ifdef __CUDA_ARCH__
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
CF_HD float add(float a, float b) {
#ifdef __CUDA_ARCH__
  return __fadd_rn(a, b);
#else
  return a + b;
#endif
}
CF_HD float div(float a, float b) {
#ifdef __CUDA_ARCH__
  return __fdiv_rn(a, b);
#else
  return a / b;
#endif
}

}  // namespace cf::rounded
