// The encoder's precincts and packet order (T.800 B.6 to B.12), taken from
// the decoder: the encoder's codestream seen as the decoder reads its
// headers (SIZ's grid, COD's coding for every component, no POC), so that
// one definition of precincts (make_tile_plan, precinct_share) and of the
// five progressions (for_each_packet) serves both directions. Internal to
// core/.
#pragma once

#include <cstdint>
#include <vector>

#include "core/codec/j2k_header.hpp"
#include "core/codec/j2k_layout.hpp"
#include "core/codec/j2k_packet_order.hpp"
#include "core/codec/j2k_tile_plan.hpp"

namespace cf::j2k {

struct PacketPlan {
  ResolvedTile coding;                    // COD's, for every component
  std::vector<TilePlan> tiles;            // per tile of the layout, in its order
  std::vector<std::uint32_t> tile_parts;  // per tile: the tile-parts its division makes
  std::uint32_t most_precincts = 0;       // in any one tile
};

// The packet plan of `l`, its subbands and code-block grids checked against
// the layout's (the two follow the same equations; a difference throws
// cf::Error rather than writes packets of the wrong blocks).
PacketPlan make_packet_plan(const Layout &l);

// The layout's subband of the plan's band `band` in tile `tile`.
const BandLayout &layout_band(const Layout &l, const TileLayout &tile, const PlanBand &band);

// Whether packet k starts a tile-part after packet `before` of the tile's
// order: wherever the division's index changes.
bool starts_tile_part(TilePartDivision division, const PacketId &before, const PacketId &k);

// The tile-parts starts_tile_part makes along the packets of the tile. From
// two layers on the count grows by the same amount per layer (the layers
// repeat the other loops whole, per resolution, or innermost), so it is
// counted on at most three layers whatever their number.
std::uint64_t tile_parts_of(const TilePlan &plan, const ResolvedTile &coding, TilePartDivision division);

}  // namespace cf::j2k
