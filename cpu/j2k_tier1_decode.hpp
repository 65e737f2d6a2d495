// Tier-1 of the JPEG 2000 decoder on the CPU: every code-block tier-2
// included (TileCodewords::blocks) through t1::decode_block into the tile's
// coefficient blocks, which the caller has zeroed (the blocks without a
// pass stay zero). cf::cpu decodes the blocks in order; cf::omp gives them
// to OpenMP threads, with the same samples (blocks are independent).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/codec/j2k_block_decoding.hpp"  // BandDecoding, block_decoded, block_problem
#include "core/codec/j2k_packet_reader.hpp"
#include "core/codec/j2k_tile_plan.hpp"
#include "core/shared/j2k_block_decoder_rules.hpp"

namespace cf::j2k {

// A thread's buffers, kept between blocks.
struct BlockScratch {
  std::vector<std::uint8_t> codeword, work;
  std::vector<int> segments;
};

// Block cw.blocks[b] into `coefficients` (the tile's array, the plan's
// offsets and strides; a block of a skipped band, of no pass or of a
// component with nothing stored is left alone); its status.
t1::BlockStatus decode_plan_block(const TilePlan &plan, const TileCodewords &cw, const std::vector<BandDecoding> &bands,
                                  std::uint32_t b, std::int32_t *coefficients, BlockScratch &scratch);

}  // namespace cf::j2k

namespace cf::cpu {
// The first block's problem, or empty.
std::string j2k_decode_blocks(const j2k::TilePlan &plan, const j2k::TileCodewords &cw,
                              const std::vector<j2k::BandDecoding> &bands, std::int32_t *coefficients);
}  // namespace cf::cpu

namespace cf::omp {
// threads = 0: all cores. The problem of the lowest-numbered bad block, as cpu's.
std::string j2k_decode_blocks(const j2k::TilePlan &plan, const j2k::TileCodewords &cw,
                              const std::vector<j2k::BandDecoding> &bands, std::int32_t *coefficients, int threads);
}  // namespace cf::omp
