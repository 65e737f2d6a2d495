// Aligned 4-, 8- and 16-byte loads and stores of packed samples (internal to
// kernels/): one instruction on the GPU, a checked plain copy under the CPU
// emulation (tests/cuda/emulation), which has no CUDA vector types.
#pragma once

#include <cstddef>

#include "core/shared/host_device.hpp"

namespace cf::cuda {

template <int N>  // N = 1, 2 or 4 words
struct Words {
  unsigned w[N];
};

template <int N>
CF_HD Words<N> load_words(const unsigned char *p) {
  static_assert(N == 1 || N == 2 || N == 4, "1, 2 or 4 words");
  Words<N> v;
#ifdef CF_CUDA_EMULATION
  cf_emulate_check_access(p, sizeof v);
  for (int i = 0; i < N; ++i) v.w[i] = reinterpret_cast<const unsigned *>(p)[i];
#else
  if constexpr (N == 4) {
    const uint4 q = *reinterpret_cast<const uint4 *>(p);
    v.w[0] = q.x, v.w[1] = q.y, v.w[2] = q.z, v.w[3] = q.w;
  } else if constexpr (N == 2) {
    const uint2 q = *reinterpret_cast<const uint2 *>(p);
    v.w[0] = q.x, v.w[1] = q.y;
  } else {
    v.w[0] = *reinterpret_cast<const unsigned *>(p);
  }
#endif
  return v;
}

template <int N>
CF_HD void store_words(unsigned char *p, const Words<N> &v) {
  static_assert(N == 1 || N == 2 || N == 4, "1, 2 or 4 words");
#ifdef CF_CUDA_EMULATION
  cf_emulate_check_access(p, sizeof v);
  for (int i = 0; i < N; ++i) reinterpret_cast<unsigned *>(p)[i] = v.w[i];
#else
  if constexpr (N == 4) {
    *reinterpret_cast<uint4 *>(p) = make_uint4(v.w[0], v.w[1], v.w[2], v.w[3]);
  } else if constexpr (N == 2) {
    *reinterpret_cast<uint2 *>(p) = make_uint2(v.w[0], v.w[1]);
  } else {
    *reinterpret_cast<unsigned *>(p) = v.w[0];
  }
#endif
}

}  // namespace cf::cuda
