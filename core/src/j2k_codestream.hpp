// The last stage of the encoder: the main header, then per tile its
// tile-parts, whose packets follow the progression order over the tile's
// precincts, from the coded blocks and the passes rate allocation gave each
// layer. Internal to core/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/codec/j2k_coded_blocks.hpp"
#include "core/codec/j2k_layout.hpp"
#include "core/codec/j2k_markers.hpp"
#include "core/codec/j2k_tier2.hpp"
#include "j2k_packet_plan.hpp"

namespace cf::j2k {

// The least guard bits (at least 2, the usual choice) that give every
// block's planes room below Mb = G + epsilon_b - 1 (T.800 E-2); throws
// cf::Error when even 7 do not.
std::uint32_t guard_bits_needed(const Layout &l, const std::vector<SubbandStep> &steps, const CodedBlocks &blocks);

// Writes the whole codestream of `l`, whose precincts and packet order
// `packets` gives (make_packet_plan of l). cumulative_passes[b * layers +
// l]: the passes of block b in layers 0..l (non-decreasing in l).
// `l.params.guard_bits` must be guard_bits_needed's. Its precinct plans
// are made in `plans` (kept by the caller from one codestream to the next
// of the same layout, so that their room is reused; any content on entry
// is overwritten).
void write_codestream(const Layout &l, const PacketPlan &packets, const std::vector<SubbandStep> &steps,
                      const CodedBlocks &blocks, const std::vector<std::uint32_t> &cumulative_passes,
                      const std::string &comment, ByteWriter &w, std::vector<PrecinctPlan> &plans);

}  // namespace cf::j2k
