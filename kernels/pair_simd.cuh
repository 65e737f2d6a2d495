// Two 16-bit lanes in one 32-bit word ("pairs"), for kernels that run 8-bit
// samples two at a time (internal to kernels/). On sm_90 each function is one
// instruction (VABSDIFF4, VIADD.16x2, VIMNMX.S16x2, PRMT, LOP3); under the CPU
// emulation (tests/cuda/emulation) they are written out lane by lane.
//
// Plain 32-bit + - << >> on pairs are lane-wise too as long as no lane leaves
// [0, 65535] on the way: callers keep values non-negative with a bias and
// mask off what a right shift brings down from the high lane.
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"

namespace cf::cuda::pairs {

// PRMT: bytes of {b, a} (a = bytes 0..3, b = 4..7) picked by the low 3 bits
// of each nibble of s (__byte_perm ignores the fourth).
CF_HD unsigned byte_perm(unsigned a, unsigned b, unsigned s) {
#ifdef __CUDA_ARCH__
  return __byte_perm(a, b, s);
#else
  const unsigned long long v = (static_cast<unsigned long long>(b) << 32) | a;
  unsigned r = 0;
  for (int i = 0; i < 4; ++i) r |= (unsigned(v >> (8 * ((s >> (4 * i)) & 7u))) & 0xffu) << (8 * i);
  return r;
#endif
}

// |a - b| of each byte.
CF_HD unsigned absdiff_bytes(unsigned a, unsigned b) {
#ifdef __CUDA_ARCH__
  return __vabsdiffu4(a, b);
#else
  unsigned r = 0;
  for (int i = 0; i < 32; i += 8) {
    const int x = int((a >> i) & 0xffu), y = int((b >> i) & 0xffu);
    r |= unsigned(x > y ? x - y : y - x) << i;
  }
  return r;
#endif
}

#ifndef __CUDA_ARCH__
// Lane i of a pair as a signed 16-bit value, and a pair from two lanes.
inline int lane(unsigned p, int i) { return int(std::int16_t(std::uint16_t(p >> (16 * i)))); }
inline unsigned make(int lo, int hi) { return (unsigned(lo) & 0xffffu) | (unsigned(hi) << 16); }
#endif

CF_HD unsigned add16(unsigned a, unsigned b) {  // wraps within each lane
#ifdef __CUDA_ARCH__
  return __vadd2(a, b);
#else
  return make(lane(a, 0) + lane(b, 0), lane(a, 1) + lane(b, 1));
#endif
}

CF_HD unsigned sub16(unsigned a, unsigned b) {  // wraps within each lane
#ifdef __CUDA_ARCH__
  return __vsub2(a, b);
#else
  return make(lane(a, 0) - lane(b, 0), lane(a, 1) - lane(b, 1));
#endif
}

CF_HD unsigned max_s16(unsigned a, unsigned b) {
#ifdef __CUDA_ARCH__
  return __vmaxs2(a, b);
#else
  return make(lane(a, 0) > lane(b, 0) ? lane(a, 0) : lane(b, 0), lane(a, 1) > lane(b, 1) ? lane(a, 1) : lane(b, 1));
#endif
}

CF_HD unsigned min_s16(unsigned a, unsigned b) {
#ifdef __CUDA_ARCH__
  return __vmins2(a, b);
#else
  return make(lane(a, 0) < lane(b, 0) ? lane(a, 0) : lane(b, 0), lane(a, 1) < lane(b, 1) ? lane(a, 1) : lane(b, 1));
#endif
}

// 0xffff in each lane that is negative (as a signed 16-bit value), else 0:
// PRMT with sign replication (selector 0xbb99: every byte the sign of byte 1
// or 3), which the PTX instruction has and __byte_perm does not.
CF_HD unsigned negative_mask(unsigned a) {
#ifdef __CUDA_ARCH__
  unsigned r;
  asm("prmt.b32 %0, %1, 0, 0xbb99;" : "=r"(r) : "r"(a));
  return r;
#else
  return (a & 0x8000u ? 0xffffu : 0u) | (a & 0x80000000u ? 0xffff0000u : 0u);
#endif
}

// mask ? a : b, bit by bit.
CF_HD unsigned select(unsigned mask, unsigned a, unsigned b) { return (mask & a) | (~mask & b); }

// The same value in both lanes.
CF_HD constexpr unsigned splat(unsigned v) { return (v & 0xffffu) * 0x00010001u; }

// Bytes 0 and 2 (even) or 1 and 3 (odd) of a word, each in a 16-bit lane.
CF_HD unsigned even_bytes(unsigned w) { return w & 0x00ff00ffu; }
CF_HD unsigned odd_bytes(unsigned w) { return byte_perm(w, 0, 0x4341u); }

}  // namespace cf::cuda::pairs
