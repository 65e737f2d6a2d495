// Float arithmetic with every product, sum and quotient rounded on its own,
// so the serial, OpenMP and CUDA backends give the same bits (the float
// transforms: cdf97_math.hpp, dct_math.hpp). On the GPU the _rn intrinsics
// keep nvcc from fusing them into FMAs; the host build has
// -ffp-contract=off (meson.build) and no fast-math. CUDA code defines CF_HD
// as __host__ __device__ before including this file.
#pragma once

#ifndef CF_HD
#define CF_HD inline
#endif

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
