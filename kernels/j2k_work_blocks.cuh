// What the JPEG 2000 kernels of the encoder (kernels/j2k_kernels.cuh) and
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

// A subband's rectangle in its tile-component's block, and its step.
struct Band {
  int x, y, width, height;
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

// The column kernels' tiles: a strip of kTileColumns columns of a region,
// kTileRows of its rows at a time (a thread per column, kTileThreadRows
// rows of threads), lifted in shared memory through every step of a level
// in one launch. A tile holds, besides its own rows, F::kSteps rows on
// either side (at most kTileHalo): each step reads one row further than
// the next, so its own rows come out as the whole column's lifting makes
// them; the rows it holds beyond them are read, never written back.
constexpr int kTileColumns = 32;
constexpr int kTileRows = 64;
constexpr int kTileHalo = 4;  // the 9/7's steps, the most of any filter
constexpr int kTileThreadRows = kThreads / kTileColumns;
static_assert(kThreads % kTileColumns == 0, "a whole number of rows of threads");

// Thread blocks a width x height region's column tiles take (strips times
// row tiles); block k of a tile-component is strip k % strips, row tile
// k / strips.
__host__ __device__ inline int column_tiles(int width, int height) {
  return ((width + kTileColumns - 1) / kTileColumns) * ((height + kTileRows - 1) / kTileRows);
}

// Tile k of region r: its first column x0, its own rows [y0, y1) and the
// rows it holds [first, end) (`halo` more on each side, within the
// region); false when the region has no tile k.
struct ColumnTile {
  int x0, y0, y1, first, end;
};
__device__ inline bool column_tile(const Region &r, int k, int halo, ColumnTile &t) {
  if (r.width <= 0 || r.height <= 0 || k >= column_tiles(r.width, r.height)) return false;
  const int strips = (r.width + kTileColumns - 1) / kTileColumns;
  t.x0 = (k % strips) * kTileColumns;
  t.y0 = (k / strips) * kTileRows;
  t.y1 = t.y0 + kTileRows < r.height ? t.y0 + kTileRows : r.height;
  t.first = t.y0 > halo ? t.y0 - halo : 0;
  t.end = t.y1 + halo < r.height ? t.y1 + halo : r.height;
  return true;
}

// One column of a tile in shared memory, indexed by the region's row.
template <class T>
struct TileColumn {
  T *p;  // the tile's row `first`, this column
  int first;
  __device__ T &operator[](int row) const { return p[(row - first) * kTileColumns]; }
};

// Whether row y (of a column of n >= 2 rows) can be lifted from what the
// tile holds: the rows left_of and right_of read for it are there.
__device__ inline bool lifts_in_tile(const ColumnTile &t, int y, int n) {
  return (y == 0 || y - 1 >= t.first) && (y + 1 == n || y + 1 < t.end);
}

// The first row at or after `from` of the parity of row `parity_row`.
__device__ inline int first_of_parity(int from, int parity_row) { return from + ((from - parity_row) & 1); }

template <class T>
struct LevelArgs {
  T *work;  // the tile-components' blocks
  T *tmp;   // as large: the columns' result, which the rows read (and lift in place when longer than shared memory)
  const TileComponent *tcs;
  const Region *regions;  // this level's, per tile-component
  int blocks_per_tc;
};

// A column kernel's thread: its tile-component and tile, its column x
// (lane of the tile) and row of threads, and the region's height and row
// parity; false when the block has no tile there (the whole block returns).
struct TileThread {
  TileComponent tc;
  ColumnTile g;
  int lane, thread_row, x;
  int n;     // rows of the region
  bool in;   // x is a column of the region
  bool odd;  // the region's first row is odd on the reference grid
};
template <class T>
__device__ inline bool tile_thread(const LevelArgs<T> &a, int halo, TileThread &th) {
  const int t = tile_component_of(a.blocks_per_tc);
  th.tc = a.tcs[t];
  const Region r = a.regions[t];
  if (!column_tile(r, int(blockIdx.x) % a.blocks_per_tc, halo, th.g)) return false;
  th.lane = int(threadIdx.x) % kTileColumns;
  th.thread_row = int(threadIdx.x) / kTileColumns;
  th.x = th.g.x0 + th.lane;
  th.n = r.height;
  th.in = th.x < r.width;
  th.odd = (r.v0 & 1) != 0;
  return true;
}

// Samples of the row kernel's line in shared memory (48 KiB, the limit
// without opting in); longer rows are lifted in tmp.
constexpr int kSharedLine = 48 * 1024 / 4;

// The row kernels' line: their dynamic shared memory (launched with
// sizeof(T) * kSharedLine bytes), or the CPU emulation's.
template <class T>
__device__ __forceinline__ T *line_in_shared_memory() {
#ifdef CF_CUDA_EMULATION
  return static_cast<T *>(cf_emulate_dynamic_shared(sizeof(T) * kSharedLine));
#else
  extern __shared__ unsigned char shared_bytes[];
  return reinterpret_cast<T *>(shared_bytes);
#endif
}

}  // namespace cf::cuda::j2k_kernels
