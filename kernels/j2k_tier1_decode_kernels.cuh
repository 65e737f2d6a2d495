// Tier-1 of the JPEG 2000 decoder's CUDA backend (kernels/j2k_tier1_decode_cuda.cu):
// every code-block of a tile through t1::decode_block (or, HT code-blocks,
// ht::decode_ht_block), the serial reference's own decoders
// (core/shared/j2k_block_decoder_rules.hpp, j2k_ht_block_decoder_rules.hpp),
// so the samples are the same.
//
// Each kernel takes its part of the list (HT blocks first): for HT blocks
// read_ht_codes, a thread per block (MEL and VLC), then decode_ht_blocks,
// a warp per block (MagSgn and the rest; j2k_ht_decode_kernels.cuh); for
// Part 1 blocks decode_blocks, one thread per block, alone in its thread
// block.
// The MQ decoder is one long dependent chain per block, with nothing to
// share between the samples of a pass; threads decoding different blocks
// in one warp would branch apart at nearly every decision and wait for each
// other's paths; more warps per SM (a block per warp, several warps per
// thread block) gained nothing measured, as the kernel is bound by the
// instructions it issues. Its context states, a copy of Table C.2's
// transitions and its state words (one per stripe column,
// t1::kMaxDecodeWorkWords of them, 3.2 KB) are in shared memory, with
// Tables D.1 and D.3 by neighbourhood (t1::ContextLabels, 2.3 KB):
// indexed at run time, in the thread they would go to local memory; the
// tables save the decoder the branches of mq_state() and the counting of
// significance_context() and sign_context() (and, given always, the code
// of them inlined at every decision: the kernel's size is what the
// instruction cache holds), and the words the trips to global memory of
// every context it forms. The samples are in global memory.
#pragma once

#include <cstdint>

#include "core/shared/j2k_block_decoder_rules.hpp"
#include "core/shared/j2k_ht_block_decoder_rules.hpp"
#include "kernels/j2k_ht_decode_kernels.cuh"
#include "kernels/j2k_tier1_tables.cuh"

namespace cf::cuda::j2k_decode_kernels {

constexpr int kDecodeThreads = 1;
constexpr int kHtDecodeThreads = 32;
// HT blocks' code readers, 4 to a thread block (so to a warp). Threads of
// a warp reading different blocks part at each branch and wait for each
// other; a warp per block leaves the SMs issue-bound. Measured on an H200,
// 4K RGB lossless, 5531 blocks: 32 to a warp 0.90 ms, 4 0.59 ms, 1 1.12 ms.
constexpr int kHtCodeThreads = 4;

// One code-block to decode, as the host lays it out: offsets into the
// uploaded buffers and the tile's coefficients.
struct DecodeBlock {
  unsigned long long codeword;  // its first byte in DecodeArgs::bytes
  unsigned long long samples;   // its top-left sample in DecodeArgs::coefficients
  unsigned long long work;      // its work area in DecodeArgs::work
  unsigned long long codes;     // HT blocks: its quads' codes in DecodeArgs::ht_codes
  int length;                   // codeword bytes
  int first_segment, segments;  // its lengths in DecodeArgs::segment_lengths
  int width, height, stride;
  int orientation;
  unsigned style;
  int magnitude_bitplanes, zero_bitplanes, passes, fraction_bits;
};

struct DecodeArgs {
  const DecodeBlock *blocks;
  int first, count;  // the kernel's part of `blocks`
  const std::uint8_t *bytes;
  const int *segment_lengths;
  std::uint8_t *work;
  std::int32_t *coefficients;
  int *status;                             // a t1::BlockStatus per entry of `blocks`
  const j2k::ht::DecodeTables *ht_tables;  // HT code-blocks' VLC lookup (read through the cache)
  std::uint32_t *ht_codes;                 // HT code-blocks' quads' codes (ht_codes::pack)
};

// The tier-1 inputs of a block.
__device__ inline void block_io(const DecodeArgs &a, const DecodeBlock &k, j2k::t1::DecodeInput &in,
                                j2k::t1::DecodeOutput &out) {
  in = {};
  in.data = a.bytes + k.codeword;
  in.length = k.length;
  in.segment_lengths = a.segment_lengths + k.first_segment;
  in.segments = k.segments;
  in.width = k.width;
  in.height = k.height;
  in.orientation = j2k::t1::Orientation(k.orientation);
  in.style = k.style;
  in.magnitude_bitplanes = k.magnitude_bitplanes;
  in.zero_bitplanes = k.zero_bitplanes;
  in.passes = k.passes;
  in.fraction_bits = k.fraction_bits;
  out = {a.coefficients + k.samples, k.stride, a.work + k.work};
}

// Thread t decodes Part 1 block first + t and writes its status.
__global__ void __launch_bounds__(kDecodeThreads) decode_blocks(const DecodeArgs a) {
  namespace t1 = j2k::t1;
  __shared__ j2k::MqTransitions table;
  __shared__ t1::ContextLabels labels;
  __shared__ j2k::MqContext contexts[kDecodeThreads][t1::kContextCount];
  __shared__ std::uint16_t work[kDecodeThreads][t1::kMaxDecodeWorkWords];
  j2k_tier1_tables::copy_table(table, j2k_tier1_tables::kMqTransitions, int(threadIdx.x), kDecodeThreads);
  j2k_tier1_tables::copy_table(labels, j2k_tier1_tables::kContextLabels, int(threadIdx.x), kDecodeThreads);
  __syncthreads();
  const int t = int(blockIdx.x) * kDecodeThreads + int(threadIdx.x);
  if (t >= a.count) return;
  t1::DecodeInput in;
  t1::DecodeOutput out;
  block_io(a, a.blocks[a.first + t], in, out);
  out.work = reinterpret_cast<std::uint8_t *>(work[threadIdx.x]);
  a.status[a.first + t] = int(t1::decode_block(in, out, t1::DecodeContexts{contexts[threadIdx.x], table.row, &labels}));
}

// Thread t reads the codes of HT block first + t.
__global__ void __launch_bounds__(kHtCodeThreads) read_ht_codes(const DecodeArgs a) {
  const int t = int(blockIdx.x) * kHtCodeThreads + int(threadIdx.x);
  if (t >= a.count) return;
  const DecodeBlock &k = a.blocks[a.first + t];
  j2k::t1::DecodeInput in;
  j2k::t1::DecodeOutput out;
  block_io(a, k, in, out);
  ht_codes::read_block(in, out, *a.ht_tables, a.ht_codes + k.codes);
}

// Warp t decodes HT block first + t and writes its status.
__global__ void __launch_bounds__(kHtDecodeThreads) decode_ht_blocks(const DecodeArgs a) {
  __shared__ ht_warp::HtDecodeScratch scratch;
  const int t = int(blockIdx.x);
  if (t >= a.count) return;
  const DecodeBlock &k = a.blocks[a.first + t];
  j2k::t1::DecodeInput in;
  j2k::t1::DecodeOutput out;
  block_io(a, k, in, out);
  const j2k::t1::BlockStatus status = ht_warp::decode_block(in, out, *a.ht_tables, a.ht_codes + k.codes, scratch);
  if (threadIdx.x == 0) a.status[a.first + t] = int(status);
}

}  // namespace cf::cuda::j2k_decode_kernels
