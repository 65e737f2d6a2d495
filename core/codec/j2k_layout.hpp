// Where every sample of a JPEG 2000 encoding goes (T.800 Annex B): tiles,
// tile-components, resolutions, subbands and code-blocks, computed once per
// geometry and read by every backend. Internal to core/.
//
// Coefficients live in one int32 array: each tile-component is a
// width x height block of it (rows of `width`), holding the wavelet
// decomposition in the layout T.800's 2D_DEINTERLEAVE gives: after each
// level, the low-pass half (of ceil(u1/2) - ceil(u0/2) columns for the
// columns u0..u1-1) before the high-pass half, and the same for rows; the
// next level works on the top-left LL quarter. A subband is thus a
// rectangle of the tile-component's block, and a code-block a rectangle of
// the subband.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/codec/j2k_markers.hpp"

namespace cf::j2k {

// A half-open rectangle [x0, x1) x [y0, y1).
struct Rect {
  std::uint32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  std::uint32_t width() const { return x1 - x0; }
  std::uint32_t height() const { return y1 - y0; }
  bool empty() const { return x1 <= x0 || y1 <= y0; }
};

struct BandLayout {
  Orientation orientation;
  std::uint32_t level;                       // decomposition level (0 for the LL of NL = 0)
  std::uint32_t resolution;                  // 0..NL
  Rect band;                                 // in the subband's own coordinates (T.800 B-15)
  std::uint32_t buffer_x = 0, buffer_y = 0;  // its top-left in the tile-component's block
  // Code-blocks: the grid of cells of 2^xcb' x 2^ycb' (the code-block size
  // clipped to the precincts, T.800 B.7) anchored at 0 in band
  // coordinates, the cells the band touches, in raster order.
  std::uint32_t grid_width = 0, grid_height = 0;
  std::uint32_t first_block = 0;                            // index into Layout::blocks
  std::uint32_t step_index = 0;                             // index into Layout::steps (the subband's position in QCD)
  std::uint32_t block_width_exp = 0, block_height_exp = 0;  // xcb', ycb'
};

struct BlockLayout {
  std::uint32_t tile_component;  // index into Layout::tile_components
  std::uint32_t band;            // index into Layout::bands
  // Rectangle in the tile-component's block (buffer coordinates).
  std::uint32_t x = 0, y = 0, width = 0, height = 0;
};

struct TileComponentLayout {
  std::uint32_t tile = 0, component = 0;
  Rect rect;               // in the component's coordinates (T.800 B-12)
  std::size_t offset = 0;  // of its block in the coefficient array
  // Entries per row of its block: rect.width(), or where the decoder keeps
  // only the resolutions it rebuilds, the width of the last of them,
  // NL - reduce (the block is then that resolution's region, which the
  // kept subbands fill).
  std::uint32_t coefficient_stride = 0;
  // False where the decoder stored nothing: every coefficient is zero
  // (no code-block of the kept resolutions has a pass).
  bool coded = true;
  std::uint32_t first_band = 0;   // its 3 NL + 1 bands follow in Layout::bands, in subbands_in_order()
  std::vector<Rect> resolutions;  // r = 0..NL, in resolution coordinates (B-14)
  // Its wavelet: the 5/3 (true) or the 9/7 (COD's or COC's transform; the
  // encoder's layout takes CodestreamParams::reversible for all).
  bool reversible = true;
};

struct TileLayout {
  std::uint32_t index = 0;                 // Isot
  Rect rect;                               // on the reference grid (B-7 to B-10)
  std::uint32_t first_tile_component = 0;  // its components follow in order
};

struct Layout {
  CodestreamParams params;
  std::vector<TileLayout> tiles;
  std::vector<TileComponentLayout> tile_components;
  std::vector<BandLayout> bands;
  std::vector<BlockLayout> blocks;
  std::size_t coefficient_count = 0;  // int32 entries of the coefficient array
};

// Throws cf::Error with codestream_check's message.
Layout make_layout(const CodestreamParams &p);
// make_layout in two steps, so that the levels can be checked against the
// tile-components before their subbands and code-blocks are made: the
// tiles and tile-components of p (codestream_check's error), then each
// tile-component's resolutions, subbands and code-blocks.
Layout tile_grid(const CodestreamParams &p);
void add_levels(Layout &l);

}  // namespace cf::j2k
