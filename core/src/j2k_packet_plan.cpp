// The encoder's packets through the decoder's tile plans and packet order.
#include "j2k_packet_plan.hpp"

#include <algorithm>
#include <cstddef>
#include <string>

#include "cudafilters/error.hpp"

namespace cf::j2k {

namespace {

// What read_header would give of the encoder's main header: the grid alone
// (make_tile_plan reads nothing else).
Header header_of(const CodestreamParams &p) {
  Header h;
  ImageGrid &g = h.grid;
  g.x1 = std::uint32_t(p.x1);
  g.y1 = std::uint32_t(p.y1);
  g.x0 = std::uint32_t(p.x0);
  g.y0 = std::uint32_t(p.y0);
  g.tile_width = std::uint32_t(p.tile_width);
  g.tile_height = std::uint32_t(p.tile_height);
  g.tile_x0 = std::uint32_t(p.tile_x0);
  g.tile_y0 = std::uint32_t(p.tile_y0);
  g.tiles_x = std::uint32_t((p.x1 - p.tile_x0 + p.tile_width - 1) / p.tile_width);
  g.tiles_y = std::uint32_t((p.y1 - p.tile_y0 + p.tile_height - 1) / p.tile_height);
  g.components = p.components;
  return h;
}

// What resolve() would give of COD (and POC): one coding for every component.
ResolvedTile coding_of(const CodestreamParams &p) {
  ResolvedTile t;
  t.coding.sop = p.sop;
  t.coding.eph = p.eph;
  t.coding.progression = p.progression;
  t.coding.layers = p.layers;
  t.coding.mct = p.mct;
  ComponentCoding cc;
  cc.levels = p.levels;
  cc.cb_width_exp = p.cb_width_exp;
  cc.cb_height_exp = p.cb_height_exp;
  cc.cb_style = p.cb_style;
  cc.reversible = p.reversible;
  for (std::uint32_t r = 0; r <= p.levels; ++r) {
    cc.precinct_width_exp.push_back(std::uint8_t(precinct_width_exp(p, r)));
    cc.precinct_height_exp.push_back(std::uint8_t(precinct_height_exp(p, r)));
  }
  t.components.assign(p.components.size(), cc);
  t.poc = p.poc;
  return t;
}

bool same_rect(const Rect &a, const Rect &b) { return a.x0 == b.x0 && a.y0 == b.y0 && a.x1 == b.x1 && a.y1 == b.y1; }

}  // namespace

const BandLayout &layout_band(const Layout &l, const TileLayout &tile, const PlanBand &band) {
  return l.bands[l.tile_components[tile.first_tile_component + band.component].first_band + band.step_index];
}

PacketPlan make_packet_plan(const Layout &l) {
  const Header h = header_of(l.params);
  PacketPlan plan;
  plan.coding = coding_of(l.params);
  plan.tiles.reserve(l.tiles.size());
  for (const TileLayout &tile : l.tiles) {
    TilePlan tp = make_tile_plan(h, tile.index, plan.coding, SIZE_MAX);
    for (const PlanBand &pb : tp.bands) {
      const BandLayout &b = layout_band(l, tile, pb);
      if (!same_rect(b.band, pb.rect) || b.grid_width != pb.grid_width || b.grid_height != pb.grid_height)
        throw Error("JPEG 2000 encoder: tile " + std::to_string(tile.index) + ", component " +
                    std::to_string(pb.component) + ", subband " + std::to_string(pb.step_index) +
                    ": the packets' code-block grid differs from the layout's");
    }
    plan.most_precincts = std::max(plan.most_precincts, tp.precinct_count);
    plan.tile_parts.push_back(
        std::uint32_t(std::min<std::uint64_t>(tile_parts_of(tp, plan.coding, l.params.tile_parts), UINT32_MAX)));
    plan.tiles.push_back(std::move(tp));
  }
  return plan;
}

bool starts_tile_part(TilePartDivision division, const PacketId &before, const PacketId &k) {
  switch (division) {
    case TilePartDivision::Resolution: return k.resolution != before.resolution;
    case TilePartDivision::Layer: return k.layer != before.layer;
    case TilePartDivision::Component: return k.component != before.component;
    case TilePartDivision::None: break;
  }
  return false;
}

std::uint64_t tile_parts_of(const TilePlan &plan, const ResolvedTile &coding, TilePartDivision division) {
  if (division == TilePartDivision::None) return 1;
  ResolvedTile fewer = coding;
  const auto count = [&](std::uint32_t layers) {
    fewer.coding.layers = layers;
    std::uint64_t parts = 1;
    bool first = true;
    PacketId last;
    for_each_packet(plan, fewer, [&](const PacketId &k) {
      if (!first && starts_tile_part(division, last, k)) ++parts;
      first = false;
      last = k;
      return true;
    });
    return parts;
  };
  const std::uint32_t layers = coding.coding.layers;
  if (layers <= 3) return count(layers);
  const std::uint64_t two = count(2), three = count(3);
  return two + std::uint64_t(layers - 2) * (three - two);
}

}  // namespace cf::j2k
