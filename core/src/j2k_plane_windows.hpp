// Rate control in two steps: an estimate of every plane's length (HT:
// ht::estimate_ht_block, a cleanup pass at each plane; Part 1:
// t1::estimate_block, the passes down to each plane) goes through the same
// rate allocation as the real passes, which points at a plane per block;
// tier-1 then codes only a window of planes around it, and rate
// allocation chooses among what was coded. Host-only, internal to core/.
#pragma once

#include <cstdint>
#include <vector>

#include "core/codec/j2k_coded_blocks.hpp"
#include "j2k_rate.hpp"

namespace cf::j2k {

// Per block of `estimates` (every plane's estimate, as candidates), with
// `weights` as rate allocation takes them: the window from `above` planes
// above the plane that allocating `budget` bytes keeps down to `below`
// planes under it, clamped to the block's planes, so a block the
// allocation drops gets its top plane alone. `room`: the hulls' arrays.
std::vector<t1::PlaneWindow> plane_windows(const CodedBlocks &estimates, const std::vector<double> &weights,
                                           std::uint64_t budget, int above, int below, RateRoom &room);

}  // namespace cf::j2k
