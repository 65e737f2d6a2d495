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

#include "core/codec/j2k_header.hpp"
#include "core/codec/j2k_layout.hpp"  // Rect

namespace cf::j2k {

// A code-block of the plan: its subband, and where it lies.
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
  // 2^xcb' x 2^ycb' grid anchored at 0; block (gx, gy) is the tile's
  // code-block number first_block + (gy - grid_y0) * grid_width + gx - grid_x0
  // (plan_block gives it).
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

struct PlanResolution {
  Rect rect;                                                        // in the resolution's coordinates (B-14)
  std::uint32_t precinct_width_exp = 15, precinct_height_exp = 15;  // PPx, PPy
  std::uint32_t precincts_x = 0, precincts_y = 0;                   // B-16; 0 when the resolution is empty
  std::uint32_t first_precinct = 0;                                 // the tile's number of its first precinct
  std::uint32_t first_band = 0, bands = 0;                          // its subbands in TilePlan::bands (1 or 3)
};

struct PlanComponent {
  Rect rect;  // the tile-component in the component's coordinates (B-12)
  std::uint32_t levels = 0;
  std::uint32_t subsample_x = 1, subsample_y = 1;
  // Its coefficients in the tile's array: `rows` rows of `stride` entries
  // from `offset`, the top-left region of its 2D_DEINTERLEAVE block (the
  // resolutions kept hold it: make_tile_plan stores the whole
  // tile-component, place_coefficients less); stride 0: none stored.
  std::size_t offset = 0;
  std::uint32_t stride = 0, rows = 0;
  std::vector<PlanResolution> resolutions;  // r = 0..NL
};

// The geometry of a tile's packets and code-blocks. Its size depends on the
// components and levels only: precincts and code-blocks are numbered, not
// listed (precinct_share and plan_block make them), so that a tile whose
// packets carry little costs little whatever its size.
struct TilePlan {
  std::uint32_t tile = 0;
  Rect rect;  // on the reference grid (B-7 to B-10)
  std::vector<PlanComponent> components;
  std::vector<PlanBand> bands;  // per component, per resolution, in subbands_in_order()
  std::uint32_t precinct_count = 0, block_count = 0;
  std::size_t coefficient_count = 0;
};

// The plan of tile `tile` of `h` coded as `coding` says, every
// tile-component stored whole. Resolutions and subbands may be empty (more
// levels than a side's size is legal). Throws cf::Error when the tile has
// more than `max_blocks` code-blocks or precincts (the caller's bound, from
// the size it will decode).
TilePlan make_tile_plan(const Header &h, std::uint32_t tile, const ResolvedTile &coding, std::size_t max_blocks);

// Lays the coefficients out again: component c stored when stored[c] (c
// beyond stored.size(): not stored), as the region of resolution NL - reduce
// only (what the subbands of the resolutions kept cover); the others get
// none. reduce is at most every stored component's NL.
void place_coefficients(TilePlan &plan, const std::vector<bool> &stored, std::uint32_t reduce);

// Precinct `precinct` (its index in resolution `res` of the plan) in
// subband `band` of that resolution.
PrecinctBand precinct_share(const TilePlan &plan, const PlanResolution &res, std::uint32_t band,
                            std::uint32_t precinct);

// The code-block at (x, y) of band `band`'s grid (from grid_x0, grid_y0).
PlanBlock plan_block(const TilePlan &plan, std::uint32_t band, std::uint32_t x, std::uint32_t y);

}  // namespace cf::j2k
