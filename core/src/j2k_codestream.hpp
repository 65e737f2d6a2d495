// The last stage of the encoder: the main header, then per tile one
// tile-part whose packets follow the progression order, from the coded
// blocks and the passes rate allocation gave each layer. Internal to core/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "j2k_coded_blocks.hpp"
#include "j2k_layout.hpp"
#include "j2k_markers.hpp"
#include "j2k_tier2.hpp"

namespace cf::j2k {

// The packets of a tile in progression order: (layer, resolution,
// component), the precinct being 0 (one per resolution).
struct PacketIndex {
  std::uint32_t layer, resolution, component;
};
std::vector<PacketIndex> packet_order(Progression order, std::uint32_t layers, std::uint32_t levels,
                                      std::uint32_t components);

// Whether packet k starts a tile-part after packet `before` in packet_order.
bool starts_tile_part(TilePartDivision division, const PacketIndex &before, const PacketIndex &k);
// The tile-parts per tile that starts_tile_part makes along packet_order,
// from the loops' sizes alone (with 65535 layers the order itself is large).
std::uint64_t tile_parts_per_tile(Progression order, std::uint32_t layers, std::uint32_t levels,
                                  std::uint32_t components, TilePartDivision division);

// The least guard bits (at least 2, the usual choice) that give every
// block's planes room below Mb = G + epsilon_b - 1 (T.800 E-2); throws
// cf::Error when even 7 do not.
std::uint32_t guard_bits_needed(const Layout &l, const std::vector<SubbandStep> &steps, const CodedBlocks &blocks);

// Writes the whole codestream. cumulative_passes[b * layers + l]: the passes
// of block b in layers 0..l (non-decreasing in l). `l.params.guard_bits`
// must be guard_bits_needed's. Its precinct plans are made in `plans`
// (kept by the caller from one codestream to the next of the same layout,
// so that their room is reused; any content on entry is overwritten).
void write_codestream(const Layout &l, const std::vector<SubbandStep> &steps, const CodedBlocks &blocks,
                      const std::vector<std::uint32_t> &cumulative_passes, const std::string &comment, ByteWriter &w,
                      std::vector<PrecinctPlan> &plans);

}  // namespace cf::j2k
