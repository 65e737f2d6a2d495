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
  namespace t1 = j2k::t1;
  const int t = int(blockIdx.x) * kHtThreads + int(threadIdx.x);
  if (t >= a.count) return;
  const Block k = a.blocks[t];
  const unsigned long long first_pass = (unsigned long long)k.index * a.max_passes;
  const t1::BlockInput in{a.coefficients + k.coefficient, k.width,           k.height, k.stride,
                          t1::Orientation(k.orientation), t1::kMaxBitplanes, a.style};
  const t1::BlockOutput out{a.work + (unsigned long long)t * a.work_bytes,
                            a.slots + k.slot,
                            k.capacity,
                            a.pass_lengths + first_pass,
                            a.max_passes,
                            a.distortion + first_pass};
  a.results[k.index] = j2k::ht::encode_ht_block(in, out, *a.tables);
}

}  // namespace cf::cuda::j2k_kernels
