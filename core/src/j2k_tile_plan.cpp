// The decoding plan of one tile (T.800 B.5 to B.7).
#include "j2k_tile_plan.hpp"

#include <algorithm>
#include <string>

#include "cudafilters/error.hpp"

namespace cf::j2k {

namespace {

std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }
std::int64_t floor_div(std::int64_t a, std::int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

Rect rect_of(std::int64_t x0, std::int64_t y0, std::int64_t x1, std::int64_t y1) {
  Rect r;
  r.x0 = std::uint32_t(x0);
  r.y0 = std::uint32_t(y0);
  r.x1 = std::uint32_t(std::max(x0, x1));
  r.y1 = std::uint32_t(std::max(y0, y1));
  return r;
}

// The rectangle of the tile-component `t` (in component coordinates) seen
// at `shift` levels down, with the offsets of a subband's orientation (B-15;
// xob = yob = 0 for a resolution, B-14).
Rect scaled(const Rect &t, std::uint32_t shift, std::uint32_t xob, std::uint32_t yob) {
  const std::int64_t d = std::int64_t(1) << shift;
  const std::int64_t ox = shift == 0 ? 0 : (std::int64_t(1) << (shift - 1)) * xob;
  const std::int64_t oy = shift == 0 ? 0 : (std::int64_t(1) << (shift - 1)) * yob;
  return rect_of(ceil_div(std::int64_t(t.x0) - ox, d), ceil_div(std::int64_t(t.y0) - oy, d),
                 ceil_div(std::int64_t(t.x1) - ox, d), ceil_div(std::int64_t(t.y1) - oy, d));
}

// Cells [first, end) of a grid of 2^e anchored at 0 that [x0, x1) touches.
struct Cells {
  std::uint32_t first = 0, count = 0;
};
Cells cells(std::uint32_t x0, std::uint32_t x1, std::uint32_t e) {
  if (x1 <= x0) return {};
  const std::int64_t d = std::int64_t(1) << e;
  const std::int64_t first = floor_div(x0, d);
  return {std::uint32_t(first), std::uint32_t(ceil_div(x1, d) - first)};
}

// A tile-component's resolution and subband rectangles, and how many
// precincts and code-blocks they make (counted before anything is made).
struct Counts {
  std::uint64_t precincts = 0, blocks = 0;
};

constexpr Orientation kDetail[3] = {Orientation::HL, Orientation::LH, Orientation::HH};

}  // namespace

TilePlan make_tile_plan(const Header &h, std::uint32_t tile, const ResolvedTile &coding, std::size_t max_blocks) {
  const ImageGrid &g = h.grid;
  TilePlan plan;
  plan.tile = tile;
  const std::uint64_t p = tile % g.tiles_x, q = tile / g.tiles_x;
  plan.rect.x0 = std::uint32_t(std::max<std::uint64_t>(g.tile_x0 + p * g.tile_width, g.x0));
  plan.rect.y0 = std::uint32_t(std::max<std::uint64_t>(g.tile_y0 + q * g.tile_height, g.y0));
  plan.rect.x1 = std::uint32_t(std::min<std::uint64_t>(g.tile_x0 + (p + 1) * g.tile_width, g.x1));
  plan.rect.y1 = std::uint32_t(std::min<std::uint64_t>(g.tile_y0 + (q + 1) * g.tile_height, g.y1));

  // First the counts, so that a plan too large is refused before it is made.
  Counts total;
  for (std::size_t c = 0; c < g.components.size(); ++c) {
    const ComponentCoding &cc = coding.components[c];
    const Component &k = g.components[c];
    const Rect tc = rect_of(ceil_div(plan.rect.x0, k.subsample_x), ceil_div(plan.rect.y0, k.subsample_y),
                            ceil_div(plan.rect.x1, k.subsample_x), ceil_div(plan.rect.y1, k.subsample_y));
    if (cc.precinct_width_exp.size() != cc.levels + 1 || cc.precinct_height_exp.size() != cc.levels + 1)
      throw Error("JPEG 2000 tile " + std::to_string(tile) + ", component " + std::to_string(c) +
                  ": precinct sizes for " + std::to_string(cc.precinct_width_exp.size()) + " resolutions, not " +
                  std::to_string(cc.levels + 1));
    for (std::uint32_t r = 0; r <= cc.levels; ++r) {
      const Rect res = scaled(tc, cc.levels - r, 0, 0);
      const std::uint32_t ppx = cc.precinct_width_exp[r], ppy = cc.precinct_height_exp[r];
      if (r > 0 && (ppx == 0 || ppy == 0))
        throw Error("JPEG 2000 tile " + std::to_string(tile) + ", component " + std::to_string(c) +
                    ": precinct exponents PPx, PPy of resolution " + std::to_string(r) + " must be at least 1");
      const Cells px = cells(res.x0, res.x1, ppx), py = cells(res.y0, res.y1, ppy);
      total.precincts += std::uint64_t(px.count) * py.count;
      const std::uint32_t xcb = std::min(cc.cb_width_exp, r == 0 ? ppx : ppx - 1);
      const std::uint32_t ycb = std::min(cc.cb_height_exp, r == 0 ? ppy : ppy - 1);
      for (int b = 0; b < (r == 0 ? 1 : 3); ++b) {
        const std::uint32_t o = r == 0 ? 0 : std::uint32_t(kDetail[b]);
        const Rect band = r == 0 ? res : scaled(tc, cc.levels - r + 1, o & 1u, o >> 1);
        total.blocks += std::uint64_t(cells(band.x0, band.x1, xcb).count) * cells(band.y0, band.y1, ycb).count;
      }
    }
    if (total.blocks > max_blocks || total.precincts > max_blocks)
      throw Error("JPEG 2000 tile " + std::to_string(tile) + ": more than " + std::to_string(max_blocks) +
                  " code-blocks or precincts, more than its size justifies");
  }

  plan.precincts.reserve(std::size_t(total.precincts));
  plan.blocks.reserve(std::size_t(total.blocks));
  for (std::uint32_t c = 0; c < g.components.size(); ++c) {
    const ComponentCoding &cc = coding.components[c];
    const Component &k = g.components[c];
    PlanComponent pc;
    pc.levels = cc.levels;
    pc.subsample_x = k.subsample_x;
    pc.subsample_y = k.subsample_y;
    pc.rect = rect_of(ceil_div(plan.rect.x0, k.subsample_x), ceil_div(plan.rect.y0, k.subsample_y),
                      ceil_div(plan.rect.x1, k.subsample_x), ceil_div(plan.rect.y1, k.subsample_y));
    pc.offset = plan.coefficient_count;
    plan.coefficient_count += std::size_t(pc.rect.width()) * pc.rect.height();
    for (std::uint32_t r = 0; r <= cc.levels; ++r) {
      PlanResolution pr;
      pr.rect = scaled(pc.rect, cc.levels - r, 0, 0);
      pr.precinct_width_exp = cc.precinct_width_exp[r];
      pr.precinct_height_exp = cc.precinct_height_exp[r];
      const Cells px = cells(pr.rect.x0, pr.rect.x1, pr.precinct_width_exp);
      const Cells py = cells(pr.rect.y0, pr.rect.y1, pr.precinct_height_exp);
      pr.precincts_x = py.count ? px.count : 0;
      pr.precincts_y = px.count ? py.count : 0;
      pr.first_precinct = std::uint32_t(plan.precincts.size());
      plan.precincts.resize(plan.precincts.size() + std::size_t(pr.precincts_x) * pr.precincts_y);
      const std::uint32_t xcb = std::min(cc.cb_width_exp, r == 0 ? pr.precinct_width_exp : pr.precinct_width_exp - 1);
      const std::uint32_t ycb =
          std::min(cc.cb_height_exp, r == 0 ? pr.precinct_height_exp : pr.precinct_height_exp - 1);
      // The resolution below, whose size places this one's subbands.
      const Rect below = r == 0 ? Rect{} : scaled(pc.rect, cc.levels - r + 1, 0, 0);
      for (int b = 0; b < (r == 0 ? 1 : 3); ++b) {
        PlanBand band;
        band.component = c;
        band.resolution = r;
        band.orientation = r == 0 ? Orientation::LL : kDetail[b];
        const std::uint32_t o = std::uint32_t(band.orientation);
        band.level = r == 0 ? cc.levels : cc.levels - r + 1;
        band.step_index = r == 0 ? 0 : 1 + 3 * (r - 1) + std::uint32_t(b);
        band.rect = r == 0 ? pr.rect : scaled(pc.rect, band.level, o & 1u, o >> 1);
        band.buffer_x = (o & 1u) ? below.width() : 0;
        band.buffer_y = (o >> 1) ? below.height() : 0;
        band.block_width_exp = xcb;
        band.block_height_exp = ycb;
        const Cells gx = cells(band.rect.x0, band.rect.x1, xcb), gy = cells(band.rect.y0, band.rect.y1, ycb);
        band.grid_x0 = gx.first;
        band.grid_y0 = gy.first;
        band.grid_width = gy.count ? gx.count : 0;
        band.grid_height = gx.count ? gy.count : 0;
        band.first_block = std::uint32_t(plan.blocks.size());
        const std::uint32_t index = std::uint32_t(plan.bands.size());
        for (std::uint32_t y = 0; y < band.grid_height; ++y)
          for (std::uint32_t x = 0; x < band.grid_width; ++x) {
            PlanBlock blk;
            blk.band = index;
            const std::uint64_t bx = std::uint64_t(band.grid_x0 + x) << xcb, by = std::uint64_t(band.grid_y0 + y)
                                                                                  << ycb;
            blk.rect.x0 = std::uint32_t(std::max<std::uint64_t>(bx, band.rect.x0));
            blk.rect.y0 = std::uint32_t(std::max<std::uint64_t>(by, band.rect.y0));
            blk.rect.x1 = std::uint32_t(std::min<std::uint64_t>(bx + (std::uint64_t(1) << xcb), band.rect.x1));
            blk.rect.y1 = std::uint32_t(std::min<std::uint64_t>(by + (std::uint64_t(1) << ycb), band.rect.y1));
            blk.buffer_x = band.buffer_x + blk.rect.x0 - band.rect.x0;
            blk.buffer_y = band.buffer_y + blk.rect.y0 - band.rect.y0;
            plan.blocks.push_back(blk);
          }
        // Each precinct's share of the band: a precinct of 2^PPx x 2^PPy in
        // the resolution is 2^(PPx-1) x 2^(PPy-1) in a subband of it (B.6).
        const std::uint32_t ex = r == 0 ? pr.precinct_width_exp : pr.precinct_width_exp - 1;
        const std::uint32_t ey = r == 0 ? pr.precinct_height_exp : pr.precinct_height_exp - 1;
        for (std::uint32_t j = 0; j < pr.precincts_y; ++j)
          for (std::uint32_t i = 0; i < pr.precincts_x; ++i) {
            const std::uint64_t x0 = std::uint64_t(px.first + i) << ex, y0 = std::uint64_t(py.first + j) << ey;
            const std::uint64_t x1 = x0 + (std::uint64_t(1) << ex), y1 = y0 + (std::uint64_t(1) << ey);
            PrecinctBand share;
            share.band = index;
            const std::uint64_t bx0 = std::max<std::uint64_t>(x0, band.rect.x0);
            const std::uint64_t bx1 = std::min<std::uint64_t>(x1, band.rect.x1);
            const std::uint64_t by0 = std::max<std::uint64_t>(y0, band.rect.y0);
            const std::uint64_t by1 = std::min<std::uint64_t>(y1, band.rect.y1);
            if (bx0 < bx1 && by0 < by1) {
              const Cells cx = cells(std::uint32_t(bx0), std::uint32_t(bx1), xcb);
              const Cells cy = cells(std::uint32_t(by0), std::uint32_t(by1), ycb);
              share.x0 = cx.first - band.grid_x0;
              share.y0 = cy.first - band.grid_y0;
              share.width = cx.count;
              share.height = cy.count;
            }
            plan.precincts[pr.first_precinct + std::size_t(j) * pr.precincts_x + i].bands.push_back(share);
          }
        plan.bands.push_back(band);
      }
      pc.resolutions.push_back(pr);
    }
    plan.components.push_back(std::move(pc));
  }
  return plan;
}

}  // namespace cf::j2k
