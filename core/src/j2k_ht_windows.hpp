// HT rate control in two steps: an estimate of every cleanup plane's length
// (ht::estimate_ht_block) goes through the same rate allocation as the real
// candidates, which points at a plane per block; tier-1 then codes only a
// window of planes around it, and rate allocation chooses among those.
// Host-only, internal to core/.
#pragma once

#include <cstdint>
#include <vector>

#include "j2k_coded_blocks.hpp"

namespace cf::j2k {

// Per block of `estimates` (every plane's estimate, as candidates), with
// `weights` as rate allocation takes them: the window of `planes` planes
// (1..32) around the plane that allocating `budget` bytes keeps, (planes -
// 1) / 2 of them above it; clamped to the block's planes, so a block the
// allocation drops gets its top plane alone.
std::vector<ht::CandidateWindow> ht_candidate_windows(const CodedBlocks &estimates, const std::vector<double> &weights,
                                                      std::uint64_t budget, int planes);

}  // namespace cf::j2k
