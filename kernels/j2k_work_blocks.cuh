// What the JPEG 2000 kernels of the encoder (kernels/j2k_transform_kernels.cuh) and
// of the decoder's reconstruction (kernels/j2k_reconstruct_kernels.cuh)
// share about the tile-components' blocks: their geometry, the regions the
// wavelet levels work on, the subbands, and how a launch over every
// tile-component shares its thread blocks: blocks_per_tc per
// tile-component (enough for the largest), block i working on
// tile-component i / blocks_per_tc, threads past its end returning.
#pragma once

#include <cstdint>

namespace cf::cuda::j2k_kernels {

constexpr int kThreads = 256;  // per block of the sample-wise and line kernels

// A tile-component's block (rows of `width`): of the encoder's coefficient
// array, or of the decoder's work blocks.
struct TileComponent {
  unsigned long long offset;
  int width, height;
  int component;
  int frame_x, frame_y;  // the block's top-left sample in the frame's component (T.800 B-12)
  int first_band, bands;
};

// The region one wavelet level splits (a resolution at the block's top-left)
// and the parity of its first column and row on the reference grid.
struct Region {
  std::uint32_t u0, v0;
  int width, height;
};

// A subband's quantisation step (its index into the step table); the level
// kernels place its samples themselves.
struct Band {
  int step_index;
};

__device__ __forceinline__ int tile_component_of(int blocks_per_tc) { return int(blockIdx.x) / blocks_per_tc; }
__device__ __forceinline__ long long item_of(int blocks_per_tc) {
  return (long long)(int(blockIdx.x) % blocks_per_tc) * kThreads + threadIdx.x;
}

// Item i of a tile-component `width` samples wide: its column and row, by a
// 32-bit division wherever i fits one (a 64-bit one costs several times
// more in a kernel that does little else).
__device__ __forceinline__ void column_and_row(long long i, int width, int &x, int &y) {
  if (i <= 0xFFFFFFFFLL) {
    const unsigned u = unsigned(i), w = unsigned(width);
    y = int(u / w);
    x = int(u - unsigned(y) * w);
  } else {
    y = int(i / width);
    x = int(i - (long long)y * width);
  }
}

// The wavelet level kernels' tiles (forward: j2k_transform_kernels.cuh, inverse:
// j2k_reconstruct_kernels.cuh): a thread block per tile of a
// tile-component's region, held in shared memory with `halo` (a filter's
// F::kSteps) more rows and columns on each side, taken from their mirror
// images past the region's edges (whole-sample symmetric extension,
// symmetric_extension.cuh: lifting keeps the extended line symmetric, so a
// mirrored neighbour is what the reference's edge rule reads, and no step
// tests for an edge). Each lifting step updates every held line but the
// outermost, so after the kSteps steps only the halo is wrong and the
// tile's own samples are those of the whole line. A tile holds kLevelHeld
// x kLevelHeld samples, two warps' width, so that no pass over a row
// leaves lanes idle; its own samples are kLevelHeld - 2 halo a side (60
// for the 5/3, 56 for the 9/7), an even number starting at an even row
// and column of the region, so held line i has the absolute parity
// (region start + i) & 1.
constexpr int kLevelHeld = 64;
constexpr int kLevelRows = kThreads / 32;  // rows of a thread block's warps
static_assert(kThreads % 32 == 0 && kLevelHeld == 64, "a row is two passes of a warp's lanes");

// Thread blocks per SM the level kernels are compiled for: their
// barriers stall a block at every step, so enough other blocks must be
// resident to hide them (registers permitting: 8 x 256 threads leave 32 each).
constexpr int kLevelBlocksPerSm = 8;

template <class T>
using HeldTile = T (*)[kLevelHeld];

// Own samples a side of a tile with the halo `halo`.
__host__ __device__ constexpr int level_tile_side(int halo) { return kLevelHeld - 2 * halo; }

// Thread blocks a width x height region's tiles take; block k of a
// tile-component is tile column k % tiles across, tile row k / tiles across.
__host__ __device__ inline int level_tiles(int width, int height, int halo) {
  const int side = level_tile_side(halo);
  return ((width + side - 1) / side) * ((height + side - 1) / side);
}

// A thread block's tile of a region: its first column and row, its own
// columns and rows, and those it holds (with the halo).
struct LevelTile {
  int x0, y0, own_w, own_h, held_w, held_h;
};
__device__ inline bool level_tile(const Region &r, int k, int halo, LevelTile &g) {
  if (k >= level_tiles(r.width, r.height, halo)) return false;
  const int side = level_tile_side(halo), tiles_x = (r.width + side - 1) / side;
  g.x0 = (k % tiles_x) * side;
  g.y0 = (k / tiles_x) * side;
  g.own_w = r.width - g.x0 < side ? r.width - g.x0 : side;
  g.own_h = r.height - g.y0 < side ? r.height - g.y0 : side;
  g.held_w = g.own_w + 2 * halo;
  g.held_h = g.own_h + 2 * halo;
  return true;
}

// A level kernel's thread block: its tile-component (index t), the region
// the level works on there and its tile of it; false when the region has
// no tile for the block (the whole block returns).
struct LevelBlock {
  int t;
  TileComponent tc;
  Region r;
  LevelTile g;
};
template <int halo>
__device__ inline bool level_block(const TileComponent *tcs, const Region *regions, int blocks_per_tc, LevelBlock &b) {
  static_assert(halo % 2 == 0 && level_tile_side(halo) % 2 == 0, "a tile keeps the region's parities");
  b.t = tile_component_of(blocks_per_tc);
  b.tc = tcs[b.t];
  b.r = regions[b.t];
  return level_tile(b.r, int(blockIdx.x) % blocks_per_tc, halo, b.g);
}

// The first held line of a parity (0 or 1) that a step updates: the
// outermost lines lack a neighbour.
__device__ __forceinline__ int first_updated(int first_of_parity) { return first_of_parity == 0 ? 2 : 1; }

// One lifting step down the held columns [c0, c1): every held row of the
// parity `first` (0 or 1) but the outermost, x = op(x, above, below).
template <class T, class Op>
__device__ inline void column_step(HeldTile<T> held, int first, int rows, int c0, int c1, Op op) {
  const int lane = int(threadIdx.x) % 32, row0 = int(threadIdx.x) / 32;
  for (int ly = first_updated(first) + 2 * row0; ly < rows - 1; ly += 2 * kLevelRows)
    for (int lx = c0 + lane; lx < c1; lx += 32) held[ly][lx] = op(held[ly][lx], held[ly - 1][lx], held[ly + 1][lx]);
  __syncthreads();
}

// One lifting step along the held rows [r0, r1): every held column of the
// parity `first` but the outermost, x = op(x, left, right).
template <class T, class Op>
__device__ inline void row_step(HeldTile<T> held, int first, int r0, int r1, int columns, Op op) {
  const int lane = int(threadIdx.x) % 32, row0 = int(threadIdx.x) / 32;
  for (int ly = r0 + row0; ly < r1; ly += kLevelRows)
    for (int lx = first_updated(first) + 2 * lane; lx < columns - 1; lx += 64)
      held[ly][lx] = op(held[ly][lx], held[ly][lx - 1], held[ly][lx + 1]);
  __syncthreads();
}

}  // namespace cf::cuda::j2k_kernels
