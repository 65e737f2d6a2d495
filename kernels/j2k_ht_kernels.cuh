// HT code-blocks on CUDA: a thread per code-block through the same
// encode_ht_block as the host backends, so the bytes are theirs. Alone in
// its thread block, as the decoder's threads are: threads coding different
// blocks in one warp would branch apart at every quad and wait for each
// other's paths. The VLC lookup (12 KB) is read from global memory through
// the caches; each thread keeps its two rows of exponents in local memory.
#pragma once

#include "core/shared/j2k_ht_block_coder_rules.hpp"
#include "kernels/j2k_kernels.cuh"

namespace cf::cuda::j2k_kernels {

constexpr int kHtThreads = 1;

struct HtArgs {
  const std::int32_t *coefficients;
  const Block *blocks;
  int count;
  unsigned style;
  const j2k::ht::EncodeTables *tables;
  std::uint8_t *slots;
  std::uint8_t *work;  // work_bytes per block of the list (MEL's bytes)
  int work_bytes;
  int *pass_lengths;         // max_passes per block, by Layout index
  std::int64_t *distortion;  // likewise
  j2k::t1::BlockResult *results;
  int max_passes;
};

__global__ void __launch_bounds__(kHtThreads) code_ht_blocks(const HtArgs a) {
  const int t = int(blockIdx.x) * kHtThreads + int(threadIdx.x);
  if (t >= a.count) return;
  const Block k = a.blocks[t];
  a.results[k.index] = j2k::ht::encode_ht_block(
      whole_block_input(a.coefficients, k, a.style),
      whole_block_output(k, t, a.slots, a.work, a.work_bytes, a.pass_lengths, a.distortion, a.max_passes), *a.tables);
}

}  // namespace cf::cuda::j2k_kernels
