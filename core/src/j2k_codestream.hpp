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

// The index of a packet that divides tile-parts (CodestreamParams::
// tile_part_division): none, its resolution, layer or component.
namespace tile_part_division {
constexpr std::uint8_t kNone = 0, kResolution = 1, kLayer = 2, kComponent = 3;
}
// Whether packet k starts a tile-part after packet `before` in `order`.
bool starts_tile_part(std::uint8_t division, const PacketIndex &before, const PacketIndex &k);
// Tile-parts per tile divided by `division`, for packet_order's loops,
// from the loops' sizes (the settings check, before any order is made: with
// 65535 layers it would be large; the writer counts starts_tile_part).
std::uint64_t tile_parts_per_tile(Progression order, std::uint32_t layers, std::uint32_t levels,
                                  std::uint32_t components, std::uint8_t division);

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
