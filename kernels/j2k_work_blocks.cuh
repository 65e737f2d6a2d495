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

template <class T>
struct LevelArgs {
  T *work;  // the tile-components' blocks
  T *tmp;   // as large: the columns' result, which the rows read (and lift in place when longer than shared memory)
  const TileComponent *tcs;
  const Region *regions;  // this level's, per tile-component
  int blocks_per_tc;
  int step;  // the column kernels' lifting step
};

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
