// The decoding plan of one tile (T.800 B.5 to B.7).
#include "core/codec/j2k_tile_plan.hpp"

#include <algorithm>
#include <string>

#include "core/shared/ceil_div.hpp"
#include "cudafilters/error.hpp"

namespace cf::j2k {

namespace {

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
  return rect_of(ceil_div_signed(std::int64_t(t.x0) - ox, d), ceil_div_signed(std::int64_t(t.y0) - oy, d),
                 ceil_div_signed(std::int64_t(t.x1) - ox, d), ceil_div_signed(std::int64_t(t.y1) - oy, d));
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

constexpr Orientation kDetail[3] = {Orientation::HL, Orientation::LH, Orientation::HH};

[[noreturn]] void refuse(std::uint32_t tile, const std::string &what) {
  throw Error("JPEG 2000 tile " + std::to_string(tile) + what, ErrorKind::CorruptData);
}

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

  // Precincts and code-blocks are counted as the plan is made; past
  // max_blocks (at most 2^32 - 1: they are numbered in 32 bits) it is refused.
  const std::uint64_t limit = std::min<std::uint64_t>(max_blocks, UINT32_MAX);
  std::uint64_t precincts = 0, blocks = 0;
  const auto count = [&](std::uint64_t &total, std::uint64_t n) {
    total += n;
    if (total > limit)
      refuse(tile, ": more than " + std::to_string(limit) + " code-blocks or precincts, more than its size justifies");
  };
  plan.components.reserve(g.components.size());
  for (std::uint32_t c = 0; c < g.components.size(); ++c) {
    const ComponentCoding &cc = coding.components[c];
    const Component &k = g.components[c];
    if (cc.precinct_width_exp.size() != cc.levels + 1 || cc.precinct_height_exp.size() != cc.levels + 1)
      refuse(tile, ", component " + std::to_string(c) + ": precinct sizes for " +
                       std::to_string(cc.precinct_width_exp.size()) + " resolutions, not " +
                       std::to_string(cc.levels + 1));
    PlanComponent pc;
    pc.levels = cc.levels;
    pc.subsample_x = k.subsample_x;
    pc.subsample_y = k.subsample_y;
    pc.rect = rect_of(ceil_div(plan.rect.x0, k.subsample_x), ceil_div(plan.rect.y0, k.subsample_y),
                      ceil_div(plan.rect.x1, k.subsample_x), ceil_div(plan.rect.y1, k.subsample_y));
    pc.offset = plan.coefficient_count;
    pc.stride = pc.rect.width();
    pc.rows = pc.rect.height();
    plan.coefficient_count += std::size_t(pc.stride) * pc.rows;
    pc.resolutions.reserve(cc.levels + 1);
    for (std::uint32_t r = 0; r <= cc.levels; ++r) {
      PlanResolution pr;
      pr.rect = scaled(pc.rect, cc.levels - r, 0, 0);
      pr.precinct_width_exp = cc.precinct_width_exp[r];
      pr.precinct_height_exp = cc.precinct_height_exp[r];
      if (r > 0 && (pr.precinct_width_exp == 0 || pr.precinct_height_exp == 0))
        refuse(tile, ", component " + std::to_string(c) + ": precinct exponents PPx, PPy of resolution " +
                         std::to_string(r) + " must be at least 1");
      const Cells px = cells(pr.rect.x0, pr.rect.x1, pr.precinct_width_exp);
      const Cells py = cells(pr.rect.y0, pr.rect.y1, pr.precinct_height_exp);
      pr.precincts_x = py.count ? px.count : 0;
      pr.precincts_y = px.count ? py.count : 0;
      pr.first_precinct = std::uint32_t(precincts);
      count(precincts, std::uint64_t(pr.precincts_x) * pr.precincts_y);
      pr.first_band = std::uint32_t(plan.bands.size());
      pr.bands = r == 0 ? 1 : 3;
      const std::uint32_t xcb = std::min(cc.cb_width_exp, r == 0 ? pr.precinct_width_exp : pr.precinct_width_exp - 1);
      const std::uint32_t ycb =
          std::min(cc.cb_height_exp, r == 0 ? pr.precinct_height_exp : pr.precinct_height_exp - 1);
      // The resolution below, whose size places this one's subbands.
      const Rect below = r == 0 ? Rect{} : scaled(pc.rect, cc.levels - r + 1, 0, 0);
      for (std::uint32_t b = 0; b < pr.bands; ++b) {
        PlanBand band;
        band.component = c;
        band.resolution = r;
        band.orientation = r == 0 ? Orientation::LL : kDetail[b];
        const std::uint32_t o = std::uint32_t(band.orientation);
        band.level = r == 0 ? cc.levels : cc.levels - r + 1;
        band.step_index = r == 0 ? 0 : 1 + 3 * (r - 1) + b;
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
        band.first_block = std::uint32_t(blocks);
        count(blocks, std::uint64_t(band.grid_width) * band.grid_height);
        plan.bands.push_back(band);
      }
      pc.resolutions.push_back(pr);
    }
    plan.components.push_back(std::move(pc));
  }
  plan.precinct_count = std::uint32_t(precincts);
  plan.block_count = std::uint32_t(blocks);
  return plan;
}

void place_coefficients(TilePlan &plan, const std::vector<bool> &stored, std::uint32_t reduce) {
  plan.coefficient_count = 0;
  for (std::size_t c = 0; c < plan.components.size(); ++c) {
    PlanComponent &pc = plan.components[c];
    pc.offset = plan.coefficient_count;
    pc.stride = pc.rows = 0;
    if (c >= stored.size() || !stored[c]) continue;
    if (reduce > pc.levels)
      throw Error("JPEG 2000 tile " + std::to_string(plan.tile) + ", component " + std::to_string(c) + ": reduce = " +
                  std::to_string(reduce) + " is more than its " + std::to_string(pc.levels) + " decomposition levels");
    const Rect &kept = pc.resolutions[pc.levels - reduce].rect;
    pc.stride = kept.width();
    pc.rows = kept.height();
    plan.coefficient_count += std::size_t(pc.stride) * pc.rows;
  }
}

PrecinctBand precinct_share(const TilePlan &plan, const PlanResolution &res, std::uint32_t band,
                            std::uint32_t precinct) {
  const PlanBand &b = plan.bands[band];
  PrecinctBand share;
  share.band = band;
  // A precinct of 2^PPx x 2^PPy in the resolution is 2^(PPx-1) x 2^(PPy-1)
  // in a subband of it (B.6).
  const std::uint32_t ex = b.resolution == 0 ? res.precinct_width_exp : res.precinct_width_exp - 1;
  const std::uint32_t ey = b.resolution == 0 ? res.precinct_height_exp : res.precinct_height_exp - 1;
  const std::uint64_t i = precinct % res.precincts_x, j = precinct / res.precincts_x;
  const std::uint64_t x0 = ((res.rect.x0 >> res.precinct_width_exp) + i) << ex;
  const std::uint64_t y0 = ((res.rect.y0 >> res.precinct_height_exp) + j) << ey;
  const std::uint64_t x1 = x0 + (std::uint64_t(1) << ex), y1 = y0 + (std::uint64_t(1) << ey);
  const std::uint64_t bx0 = std::max<std::uint64_t>(x0, b.rect.x0), bx1 = std::min<std::uint64_t>(x1, b.rect.x1);
  const std::uint64_t by0 = std::max<std::uint64_t>(y0, b.rect.y0), by1 = std::min<std::uint64_t>(y1, b.rect.y1);
  if (bx0 < bx1 && by0 < by1) {
    const Cells cx = cells(std::uint32_t(bx0), std::uint32_t(bx1), b.block_width_exp);
    const Cells cy = cells(std::uint32_t(by0), std::uint32_t(by1), b.block_height_exp);
    share.x0 = cx.first - b.grid_x0;
    share.y0 = cy.first - b.grid_y0;
    share.width = cx.count;
    share.height = cy.count;
  }
  return share;
}

PlanBlock plan_block(const TilePlan &plan, std::uint32_t band, std::uint32_t x, std::uint32_t y) {
  const PlanBand &b = plan.bands[band];
  PlanBlock blk;
  blk.band = band;
  const std::uint64_t bx = std::uint64_t(b.grid_x0 + x) << b.block_width_exp;
  const std::uint64_t by = std::uint64_t(b.grid_y0 + y) << b.block_height_exp;
  blk.rect.x0 = std::uint32_t(std::max<std::uint64_t>(bx, b.rect.x0));
  blk.rect.y0 = std::uint32_t(std::max<std::uint64_t>(by, b.rect.y0));
  blk.rect.x1 = std::uint32_t(std::min<std::uint64_t>(bx + (std::uint64_t(1) << b.block_width_exp), b.rect.x1));
  blk.rect.y1 = std::uint32_t(std::min<std::uint64_t>(by + (std::uint64_t(1) << b.block_height_exp), b.rect.y1));
  blk.buffer_x = b.buffer_x + blk.rect.x0 - b.rect.x0;
  blk.buffer_y = b.buffer_y + blk.rect.y0 - b.rect.y0;
  return blk;
}

}  // namespace cf::j2k
