// The order of a tile's packets (T.800 B.12): the five progressions and
// the progression order changes of POC. Internal to core/.
//
// LRCP and RLCP walk precincts in index order. RPCL, PCRL and CPRL walk
// positions on the reference grid (B.12.1.3 to B.12.1.5): a precinct is
// visited at the first position (y, x) of the tile where its row and column
// begin. Each precinct gets that position once, so the walk is a merge of
// the precincts of each component and resolution by their positions (each
// set already in that order) rather than a scan of every grid point (which
// a tile of 2^32 x 2^32 would make endless); it lists no precinct, so that
// a tile whose packets end early costs no more than they do.
//
// A POC volume sends, for its resolutions and components, the layers below
// its end that no earlier volume sent; without POC one volume covers the
// tile in COD's progression.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/codec/j2k_header.hpp"
#include "core/codec/j2k_tile_plan.hpp"

namespace cf::j2k {

struct PacketId {
  std::uint32_t layer = 0, component = 0, resolution = 0;
  std::uint32_t precinct = 0;  // index within its resolution
};

// Calls `visit` for every packet of the tile in codestream order, until it
// returns false (a truncated tile: the caller stops reading).
void for_each_packet(const TilePlan &plan, const ResolvedTile &coding,
                     const std::function<bool(const PacketId &)> &visit);

}  // namespace cf::j2k
