// Integer division rounded up, as the JPEG 2000 geometry divides
// coordinates (T.800 B-12 to B-16, ceil(a / b)), written once for every
// layer (CF_HD: host_device.hpp).
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"

namespace cf {

// ceil(a / b) for a >= 0 and b > 0.
CF_HD constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// ceil(a / b) for any a and b > 0 (a coordinate less a subband's offset
// may be negative).
CF_HD constexpr std::int64_t ceil_div_signed(std::int64_t a, std::int64_t b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

}  // namespace cf
