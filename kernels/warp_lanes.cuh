// A warp's lanes working together: prefix sums and reductions over the 32
// lanes (full masks: every lane takes part), as the JPEG 2000 kernels use
// them.
#pragma once

#include <cstdint>

namespace cf::cuda::j2k_kernels::warp {

constexpr unsigned kAllLanes = 0xffffffffu;
constexpr int kLanes = 32;

__device__ __forceinline__ int lane_id() { return int(threadIdx.x) % kLanes; }

// The sum of v over the lanes before this one; `total` gets every lane's.
__device__ __forceinline__ int exclusive_sum(int v, int &total) {
  const int lane = lane_id();
  int sum = v;
  for (int d = 1; d < kLanes; d <<= 1) {
    const int below = __shfl_up_sync(kAllLanes, sum, d);
    if (lane >= d) sum += below;
  }
  total = __shfl_sync(kAllLanes, sum, kLanes - 1);
  return sum - v;
}

// The OR of v over the lanes, in every lane.
__device__ __forceinline__ std::uint32_t all_or(std::uint32_t v) {
  for (int d = kLanes / 2; d > 0; d >>= 1) v |= unsigned(__shfl_down_sync(kAllLanes, int(v), d));
  return unsigned(__shfl_sync(kAllLanes, int(v), 0));
}

// The sum of v over the lanes, in lane 0 (lane0_sum) or in every lane.
__device__ __forceinline__ std::int64_t lane0_sum(std::int64_t v) {
  for (int d = kLanes / 2; d > 0; d >>= 1) {
    const unsigned lo = unsigned(__shfl_down_sync(kAllLanes, int(std::uint32_t(v)), d));
    const unsigned hi = unsigned(__shfl_down_sync(kAllLanes, int(std::uint32_t(std::uint64_t(v) >> 32)), d));
    v += std::int64_t((std::uint64_t(hi) << 32) | lo);
  }
  return v;
}
__device__ __forceinline__ std::int64_t all_sum(std::int64_t v) {
  v = lane0_sum(v);
  const unsigned lo = unsigned(__shfl_sync(kAllLanes, int(std::uint32_t(v)), 0));
  const unsigned hi = unsigned(__shfl_sync(kAllLanes, int(std::uint32_t(std::uint64_t(v) >> 32)), 0));
  return std::int64_t((std::uint64_t(hi) << 32) | lo);
}

}  // namespace cf::cuda::j2k_kernels::warp
