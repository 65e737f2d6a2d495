// Where the packets of one tile of a codestream being decoded put their
// data (T.800 B.5 to B.7): the tile's components, their resolutions,
// precincts, subbands and code-blocks, from the tile's resolved coding
// (each component with its own levels, code-block size and precinct
// sizes). Internal to core/.
//
// Coefficients of a tile-component go in a block of its width x height in
// the layout of T.800's 2D_DEINTERLEAVE, as in the encoder (j2k_layout.hpp):
// the subbands of level n sit to the right of and below the resolution
// they refine, so a code-block is a rectangle of its tile-component's block.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "j2k_header.hpp"
#include "j2k_layout.hpp"  // Rect

namespace cf::j2k {

struct PlanBlock {
  std::uint32_t band = 0;                    // index into TilePlan::bands
  Rect rect;                                 // in the subband's coordinates
  std::uint32_t buffer_x = 0, buffer_y = 0;  // its top-left in the tile-component's block
};

struct PlanBand {
  Orientation orientation = Orientation::LL;
  std::uint32_t component = 0, resolution = 0;
  std::uint32_t level = 0;       // decomposition level (NL for LL; 0 when NL = 0)
  std::uint32_t step_index = 0;  // its position in subbands_in_order() (QCD's order)
  Rect rect;                     // in its own coordinates (B-15)
  std::uint32_t buffer_x = 0, buffer_y = 0;
  std::uint32_t block_width_exp = 0, block_height_exp = 0;  // xcb', ycb' (B.7)
  // Code-block grid: cells [grid_x0, grid_x0 + grid_width) x ... of the
  // 2^xcb' x 2^ycb' grid anchored at 0; block (gx, gy) is
  // TilePlan::blocks[first_block + (gy - grid_y0) * grid_width + gx - grid_x0].
  std::uint32_t grid_x0 = 0, grid_y0 = 0, grid_width = 0, grid_height = 0;
  std::uint32_t first_block = 0;
};

// A precinct's share of one subband: the cells of the band's code-block
// grid it holds (relative to the band's grid: x0 and y0 count from
// grid_x0 and grid_y0).
struct PrecinctBand {
  std::uint32_t band = 0;
  std::uint32_t x0 = 0, y0 = 0, width = 0, height = 0;
};

struct PlanPrecinct {
  std::vector<PrecinctBand> bands;  // 1 (LL) or 3 (HL, LH, HH)
};

struct PlanResolution {
  Rect rect;                                                        // in the resolution's coordinates (B-14)
  std::uint32_t precinct_width_exp = 15, precinct_height_exp = 15;  // PPx, PPy
  std::uint32_t precincts_x = 0, precincts_y = 0;                   // B-16; 0 when the resolution is empty
  std::uint32_t first_precinct = 0;                                 // into TilePlan::precincts
};

struct PlanComponent {
  Rect rect;  // the tile-component in the component's coordinates (B-12)
  std::uint32_t levels = 0;
  std::uint32_t subsample_x = 1, subsample_y = 1;
  std::size_t offset = 0;                   // of its block in the tile's coefficient array
  std::vector<PlanResolution> resolutions;  // r = 0..NL
};

struct TilePlan {
  std::uint32_t tile = 0;
  Rect rect;  // on the reference grid (B-7 to B-10)
  std::vector<PlanComponent> components;
  std::vector<PlanBand> bands;
  std::vector<PlanPrecinct> precincts;
  std::vector<PlanBlock> blocks;
  std::size_t coefficient_count = 0;
};

// The plan of tile `tile` of `h` coded as `coding` says. Resolutions and
// subbands may be empty (more levels than a side's size is legal). Throws
// cf::Error when the plan would hold more than `max_blocks` code-blocks or
// precincts (the caller's bound, from the size it will decode), before
// allocating them.
TilePlan make_tile_plan(const Header &h, std::uint32_t tile, const ResolvedTile &coding, std::size_t max_blocks);

}  // namespace cf::j2k
