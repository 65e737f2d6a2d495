// The geometry of T.800 Annex B: tiles (B.3), tile-components (B.3),
// resolutions (B.5), subbands (B.5) and code-blocks (B.7), whose size the
// precincts clip. Precincts themselves are the packets' business
// (j2k_packet_plan.hpp).
#include "core/codec/j2k_layout.hpp"

#include <algorithm>
#include <string>

#include "core/shared/ceil_div.hpp"
#include "cudafilters/error.hpp"

namespace cf::j2k {
namespace {
// ceil(a / 2^k) for a possibly negative a (B-15 subtracts half a cell).
std::uint32_t ceil_shift(std::int64_t a, std::uint32_t k) {
  return std::uint32_t(ceil_div_signed(a, std::int64_t(1) << k));
}

Rect scaled(const Rect &r, std::uint32_t k) {
  return {ceil_shift(r.x0, k), ceil_shift(r.y0, k), ceil_shift(r.x1, k), ceil_shift(r.y1, k)};
}

// B-15: the subband of orientation o at decomposition level n >= 1.
Rect band_rect(const Rect &tc, Orientation o, std::uint32_t n) {
  const std::int64_t half = std::int64_t(1) << (n - 1);
  const std::int64_t xo = (o == Orientation::HL || o == Orientation::HH) ? half : 0;
  const std::int64_t yo = (o == Orientation::LH || o == Orientation::HH) ? half : 0;
  return {ceil_shift(std::int64_t(tc.x0) - xo, n), ceil_shift(std::int64_t(tc.y0) - yo, n),
          ceil_shift(std::int64_t(tc.x1) - xo, n), ceil_shift(std::int64_t(tc.y1) - yo, n)};
}

void add_bands(Layout &l, std::uint32_t t) {
  TileComponentLayout &tc = l.tile_components[t];
  const CodestreamParams &p = l.params;
  const std::uint32_t nl = p.levels;
  tc.first_band = std::uint32_t(l.bands.size());
  const std::vector<Subband> order = subbands_in_order(nl);
  for (std::uint32_t i = 0; i < order.size(); ++i) {
    const Subband &s = order[i];
    BandLayout b{s.orientation, s.level, s.resolution, {}, 0, 0, 0, 0, 0, i};
    if (s.orientation == Orientation::LL) {
      b.band = tc.resolutions[0];
    } else {
      b.band = band_rect(tc.rect, s.orientation, s.level);
      // The LL of this level (resolution NL - level) sits before the high-pass halves.
      const Rect &low = tc.resolutions[nl - s.level];
      if (s.orientation != Orientation::LH) b.buffer_x = low.width();
      if (s.orientation != Orientation::HL) b.buffer_y = low.height();
    }
    b.first_block = std::uint32_t(l.blocks.size());
    b.block_width_exp = block_width_exp(p, s.resolution);
    b.block_height_exp = block_height_exp(p, s.resolution);
    if (!b.band.empty()) {
      const std::uint32_t xcb = b.block_width_exp, ycb = b.block_height_exp;
      const std::uint32_t gx0 = b.band.x0 >> xcb, gy0 = b.band.y0 >> ycb;
      b.grid_width = ceil_div(b.band.x1, 1u << xcb) - gx0;
      b.grid_height = ceil_div(b.band.y1, 1u << ycb) - gy0;
      for (std::uint32_t gy = 0; gy < b.grid_height; ++gy)
        for (std::uint32_t gx = 0; gx < b.grid_width; ++gx) {
          const std::uint32_t x0 = std::max(b.band.x0, (gx0 + gx) << xcb);
          const std::uint32_t x1 = std::min(b.band.x1, (gx0 + gx + 1) << xcb);
          const std::uint32_t y0 = std::max(b.band.y0, (gy0 + gy) << ycb);
          const std::uint32_t y1 = std::min(b.band.y1, (gy0 + gy + 1) << ycb);
          l.blocks.push_back({t, std::uint32_t(l.bands.size()), b.buffer_x + x0 - b.band.x0,
                              b.buffer_y + y0 - b.band.y0, x1 - x0, y1 - y0});
        }
    }
    l.bands.push_back(b);
  }
}
}  // namespace

Layout tile_grid(const CodestreamParams &p) {
  if (std::string why = codestream_check(p); !why.empty()) throw Error("JPEG 2000 codestream: " + why);
  Layout l;
  l.params = p;
  const std::uint32_t tiles_x = ceil_div(p.x1 - p.tile_x0, p.tile_width);
  const std::uint32_t tiles_y = ceil_div(p.y1 - p.tile_y0, p.tile_height);
  for (std::uint32_t ty = 0; ty < tiles_y; ++ty)
    for (std::uint32_t tx = 0; tx < tiles_x; ++tx) {
      TileLayout t;
      t.index = ty * tiles_x + tx;
      t.rect.x0 = std::uint32_t(std::max(p.tile_x0 + tx * p.tile_width, p.x0));
      t.rect.y0 = std::uint32_t(std::max(p.tile_y0 + ty * p.tile_height, p.y0));
      t.rect.x1 = std::uint32_t(std::min(p.tile_x0 + (tx + 1) * p.tile_width, p.x1));
      t.rect.y1 = std::uint32_t(std::min(p.tile_y0 + (ty + 1) * p.tile_height, p.y1));
      t.first_tile_component = std::uint32_t(l.tile_components.size());
      for (std::uint32_t c = 0; c < p.components.size(); ++c) {
        const Component &k = p.components[c];
        TileComponentLayout tc;
        tc.tile = t.index;
        tc.component = c;
        // B-12: the tile's corners in the component's coordinates.
        const auto down = [](std::uint32_t v, std::uint32_t s) { return std::uint32_t(ceil_div(v, s)); };
        tc.rect = {down(t.rect.x0, k.subsample_x), down(t.rect.y0, k.subsample_y), down(t.rect.x1, k.subsample_x),
                   down(t.rect.y1, k.subsample_y)};
        tc.offset = l.coefficient_count;
        tc.coefficient_stride = tc.rect.width();
        tc.reversible = p.reversible;
        l.coefficient_count += std::size_t(tc.rect.width()) * tc.rect.height();
        l.tile_components.push_back(std::move(tc));
      }
      l.tiles.push_back(t);
    }
  return l;
}

void add_levels(Layout &l) {
  const CodestreamParams &p = l.params;
  for (std::uint32_t t = 0; t < l.tile_components.size(); ++t) {
    TileComponentLayout &tc = l.tile_components[t];
    for (std::uint32_t r = 0; r <= p.levels; ++r) tc.resolutions.push_back(scaled(tc.rect, p.levels - r));
    add_bands(l, t);
  }
}

Layout make_layout(const CodestreamParams &p) {
  Layout l = tile_grid(p);
  add_levels(l);
  return l;
}

}  // namespace cf::j2k
