// Samples of a component plane in device memory, as the kernels address
// them (internal to kernels/): a PlaneRef per component, loads and saturating
// stores of any sample type, and the CPU emulation's access checks.
#pragma once

#include <cstdint>
#include <type_traits>

#include "cudafilters/frame.hpp"

#include "core/shared/host_device.hpp"

namespace cf::cuda {

// Samples of one component: sample (x, y) of type T is at
// base + y * stride + x * step * sizeof(T).
struct PlaneRef {
  unsigned char *base;
  long long stride;  // bytes
  int step;          // samples from one pixel to the next
};

template <class T>
CF_HD const T *sample_at(const PlaneRef &p, int x, int y) {
  const auto *at = reinterpret_cast<const T *>(p.base + y * p.stride + (long long)x * p.step * (long long)sizeof(T));
#ifdef CF_CUDA_EMULATION
  cf_emulate_check_access(at, sizeof(T));  // tests/cuda/emulation: inside a device allocation?
#endif
  return at;
}

// Under the CPU emulation (tests/cuda/emulation), a check of an invariant the
// kernels rely on (a sample index inside its band); nothing on the GPU.
#ifdef CF_CUDA_EMULATION
#define CF_EMU_CHECK(cond) cf_emulate_check((cond), #cond, __FILE__, __LINE__)
#else
#define CF_EMU_CHECK(cond) ((void)0)
#endif

template <class T>
CF_HD int load(const PlaneRef &p, int x, int y) {
  return int(*sample_at<T>(p, x, y));
}

// v saturated to T's range (as the serial reference stores it).
template <class T>
CF_HD T saturate(int v) {
  if constexpr (!std::is_same_v<T, std::int32_t>) {
    constexpr int lo = std::is_signed_v<T> ? -(1 << (8 * sizeof(T) - 1)) : 0;
    constexpr int hi = std::is_signed_v<T> ? (1 << (8 * sizeof(T) - 1)) - 1 : (1 << (8 * sizeof(T))) - 1;
    v = v < lo ? lo : (v > hi ? hi : v);
  }
  return T(v);
}

template <class T>
CF_HD void store(const PlaneRef &p, int x, int y, int v) {
  *const_cast<T *>(sample_at<T>(p, x, y)) = saturate<T>(v);
}

// The sample at byte offset `offset` of p.base, for loops that step offsets
// themselves instead of computing each sample's address.
template <class T>
CF_HD T *sample_at_offset(const PlaneRef &p, long long offset) {
  auto *at = reinterpret_cast<T *>(p.base + offset);
#ifdef CF_CUDA_EMULATION
  cf_emulate_check_access(at, sizeof(T));
#endif
  return at;
}

// Calls f(T{}) with the C++ type of sample type t (host side, to pick a
// kernel's template instance).
template <class F>
void with_sample_type(SampleType t, F &&f) {
  switch (t) {
    case SampleType::U8: return f(std::uint8_t{});
    case SampleType::U16: return f(std::uint16_t{});
    case SampleType::S16: return f(std::int16_t{});
    case SampleType::S32: return f(std::int32_t{});
    case SampleType::F32: return f(float{});
  }
}

// Where component c's samples of a frame are (host side, for kernel parameters).
inline PlaneRef plane_ref(const FrameView &f, int c) {
  const Component &k = f.components[c];
  const MemoryPlane &p = f.planes[k.plane];
  return {static_cast<unsigned char *>(p.data) + k.offset, (long long)p.stride, k.pixel_stride};
}

}  // namespace cf::cuda
