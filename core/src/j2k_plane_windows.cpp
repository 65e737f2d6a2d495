#include "j2k_plane_windows.hpp"

#include <algorithm>

namespace cf::j2k {

std::vector<t1::PlaneWindow> plane_windows(const CodedBlocks &estimates, const std::vector<double> &weights,
                                           std::uint64_t budget, int above, int below, RateRoom &room) {
  const RateHulls &hulls = room.build(estimates, weights);
  const RateAllocation a = allocate_layers(hulls, {std::size_t(std::min<std::uint64_t>(budget, SIZE_MAX))});
  std::vector<t1::PlaneWindow> windows(estimates.results.size());
  for (std::size_t b = 0; b < windows.size(); ++b) {
    const int top_plane = estimates.results[b].passes - 1;  // every plane a candidate: passes = planes
    if (top_plane < 0) continue;                            // nothing to code
    // The plane kept; one above the block's top when it is dropped.
    const int kept = top_plane + 1 - int(a.passes_at(b, 0));
    const int top = std::min(top_plane, kept + above), bottom = std::min(top, std::max(0, kept - below));
    windows[b] = {std::uint8_t(top), std::uint8_t(top - bottom + 1)};
  }
  return windows;
}

}  // namespace cf::j2k
