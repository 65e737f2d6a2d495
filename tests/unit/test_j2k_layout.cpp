// The encoder's geometry (core/codec/j2k_layout.hpp) against T.800 Annex B's
// equations worked by hand: tile rectangles (B-7 to B-10), tile-components
// (B-12), resolutions (B-14), subbands (B-15) and their place in the
// deinterleaved block, code-blocks anchored at the origin (B.7).
#include "check.hpp"
#include "core/codec/j2k_layout.hpp"
#include "cudafilters/error.hpp"

using namespace cf::j2k;

namespace {

bool same(const Rect &r, std::uint32_t x0, std::uint32_t y0, std::uint32_t x1, std::uint32_t y1) {
  return r.x0 == x0 && r.y0 == y0 && r.x1 == x1 && r.y1 == y1;
}

CodestreamParams gray(std::uint32_t w, std::uint32_t h, std::uint32_t levels) {
  CodestreamParams p = one_tile_image(w, h, {Component{}});
  p.levels = levels;
  return p;
}

// 33x17, 2 levels, one tile: every band worked out from B-14 and B-15.
void one_tile() {
  CodestreamParams p = gray(33, 17, 2);
  p.cb_width_exp = p.cb_height_exp = 3;
  const Layout l = make_layout(p);
  CHECK(l.tiles.size() == 1 && l.tile_components.size() == 1 && l.bands.size() == 7);
  CHECK(l.coefficient_count == 33 * 17);
  const TileComponentLayout &tc = l.tile_components[0];
  CHECK(same(tc.resolutions[0], 0, 0, 9, 5));   // ceil(33/4), ceil(17/4)
  CHECK(same(tc.resolutions[1], 0, 0, 17, 9));  // ceil(33/2), ceil(17/2)
  CHECK(same(tc.resolutions[2], 0, 0, 33, 17));
  struct Want {
    Orientation o;
    std::uint32_t level, x0, y0, x1, y1, bx, by;
  } want[] = {
      {Orientation::LL, 2, 0, 0, 9, 5, 0, 0},   {Orientation::HL, 2, 0, 0, 8, 5, 9, 0},
      {Orientation::LH, 2, 0, 0, 9, 4, 0, 5},   {Orientation::HH, 2, 0, 0, 8, 4, 9, 5},
      {Orientation::HL, 1, 0, 0, 16, 9, 17, 0}, {Orientation::LH, 1, 0, 0, 17, 8, 0, 9},
      {Orientation::HH, 1, 0, 0, 16, 8, 17, 9},
  };
  for (int i = 0; i < 7; ++i) {
    const BandLayout &b = l.bands[i];
    CHECK_MSG(b.orientation == want[i].o && b.level == want[i].level &&
                  same(b.band, want[i].x0, want[i].y0, want[i].x1, want[i].y1) && b.buffer_x == want[i].bx &&
                  b.buffer_y == want[i].by,
              "band %d: level %u [%u,%u)x[%u,%u) at (%u,%u)", i, b.level, b.band.x0, b.band.x1, b.band.y0, b.band.y1,
              b.buffer_x, b.buffer_y);
  }
  // HL of level 1: 16x9 in blocks of 8x8: a 2x2 grid, the lower row 1 high.
  const BandLayout &hl = l.bands[4];
  CHECK(hl.grid_width == 2 && hl.grid_height == 2);
  const BlockLayout &last = l.blocks[hl.first_block + 3];
  CHECK(last.x == 17 + 8 && last.y == 8 && last.width == 8 && last.height == 1 && last.band == 4);
  // Every sample of the tile-component is in exactly one code-block.
  std::vector<int> covered(33 * 17, 0);
  for (const BlockLayout &b : l.blocks)
    for (std::uint32_t y = b.y; y < b.y + b.height; ++y)
      for (std::uint32_t x = b.x; x < b.x + b.width; ++x) ++covered[y * 33 + x];
  for (int c : covered) CHECK(c == 1);
}

// Tiles of 10x10 on 33x17: tile (1,1) is [10,20)x[10,17); its bands start at
// odd places, and its code-blocks follow the grid anchored at 0.
void odd_origins() {
  CodestreamParams p = gray(33, 17, 2);
  p.tile_width = p.tile_height = 10;
  p.cb_width_exp = p.cb_height_exp = 2;
  const Layout l = make_layout(p);
  CHECK(l.tiles.size() == 8);  // 4 x 2
  const TileLayout &t = l.tiles[5];
  CHECK(t.index == 5 && same(t.rect, 10, 10, 20, 17));
  CHECK(same(l.tiles[7].rect, 30, 10, 33, 17));
  const TileComponentLayout &tc = l.tile_components[t.first_tile_component];
  CHECK(same(tc.resolutions[0], 3, 3, 5, 5));
  CHECK(same(tc.resolutions[1], 5, 5, 10, 9));
  const BandLayout &hl1 = l.bands[tc.first_band + 4];
  CHECK(hl1.orientation == Orientation::HL && hl1.level == 1);
  CHECK(same(hl1.band, 5, 5, 10, 9));  // x: ceil(9/2), ceil(19/2); y: ceil(10/2), ceil(17/2)
  CHECK(hl1.buffer_x == 5 && hl1.buffer_y == 0);
  const BandLayout &lh1 = l.bands[tc.first_band + 5];
  CHECK(same(lh1.band, 5, 5, 10, 8) && lh1.buffer_y == 4);  // y: ceil(9/2), ceil(16/2)
  // Blocks of 4: HL1 x [5,10) touches cells [4,8) and [8,12).
  CHECK(hl1.grid_width == 2 && hl1.grid_height == 2);
  const BlockLayout &b0 = l.blocks[hl1.first_block], &b1 = l.blocks[hl1.first_block + 1];
  CHECK(b0.x == 5 && b0.width == 3 && b0.y == 0 && b0.height == 3);
  CHECK(b1.x == 8 && b1.width == 2);
  std::size_t total = 0;
  for (const TileComponentLayout &c : l.tile_components) total += std::size_t(c.rect.width()) * c.rect.height();
  CHECK(l.coefficient_count == total && total == 33 * 17);
}

// Subsampled components: a 7x3 image with 2x2 chroma has 4x2 chroma.
void subsampled() {
  CodestreamParams p = one_tile_image(7, 3, {Component{}, Component{8, false, 2, 2}, Component{8, false, 2, 2}});
  p.levels = 1;
  const Layout l = make_layout(p);
  CHECK(same(l.tile_components[1].rect, 0, 0, 4, 2));
  CHECK(l.coefficient_count == 21 + 8 + 8);
}

// Precincts clip the code-blocks (B.7): 33x17, 2 levels, 8 x 8 blocks
// under precincts of 2^2 x 2^3 at resolution 0, 2^3 x 2^1 at 1 and
// 2^4 x 2^4 at 2: blocks of 2^min(3, 2) x 2^min(3, 3) = 4 x 8 in the LL,
// 2^min(3, 2) x 2^min(3, 0) = 4 x 1 in level 2's bands and
// 2^min(3, 3) x 2^min(3, 3) = 8 x 8 in level 1's.
void clipped_blocks() {
  CodestreamParams p = gray(33, 17, 2);
  p.cb_width_exp = p.cb_height_exp = 3;
  p.precinct_width_exp = {2, 3, 4};
  p.precinct_height_exp = {3, 1, 4};
  const Layout l = make_layout(p);
  const struct {
    std::uint32_t xcb, ycb, grid_width, grid_height;
  } want[] = {
      {2, 3, 3, 1},  // LL 9x5: cells of 4 x 8
      {2, 0, 2, 5},  // HL2 8x5: cells of 4 x 1
      {2, 0, 3, 4},  // LH2 9x4
      {2, 0, 2, 4},  // HH2 8x4
      {3, 3, 2, 2},  // HL1 16x9: cells of 8 x 8
      {3, 3, 3, 1},  // LH1 17x8
      {3, 3, 2, 1},  // HH1 16x8
  };
  for (int i = 0; i < 7; ++i) {
    const BandLayout &b = l.bands[i];
    CHECK_MSG(b.block_width_exp == want[i].xcb && b.block_height_exp == want[i].ycb &&
                  b.grid_width == want[i].grid_width && b.grid_height == want[i].grid_height,
              "band %d: blocks 2^%u x 2^%u in a grid of %u x %u", i, b.block_width_exp, b.block_height_exp,
              b.grid_width, b.grid_height);
  }
  // HL2's last block, row 4 and column 1: cells [4,8) x [4,5), right of the 9-wide LL.
  const BlockLayout &last = l.blocks[l.bands[1].first_block + 9];
  CHECK(last.x == 9 + 4 && last.y == 4 && last.width == 4 && last.height == 1);
  std::vector<int> covered(33 * 17, 0);
  for (const BlockLayout &b : l.blocks)
    for (std::uint32_t y = b.y; y < b.y + b.height; ++y)
      for (std::uint32_t x = b.x; x < b.x + b.width; ++x) ++covered[y * 33 + x];
  for (int c : covered) CHECK(c == 1);
}

void refusals() {
  bool threw = false;
  try {
    make_layout(gray(40000, 8, 1));  // resolution 1 spans two maximal precincts: coded
  } catch (const cf::Error &) {
    threw = true;
  }
  CHECK(!threw);
  try {
    CodestreamParams p = gray(8, 8, 1);
    p.cb_width_exp = 11;
    make_layout(p);
  } catch (const cf::Error &e) {
    threw = std::string(e.what()).find("xcb") != std::string::npos;
  }
  CHECK(threw);
}

}  // namespace

int main() {
  one_tile();
  odd_origins();
  subsampled();
  clipped_blocks();
  refusals();
  return cft::test_result();
}
