// What tier-1 decoding takes of each subband of a tile's plan, which
// code-blocks it decodes and how a bad block is reported: the same on
// every backend (cpu/j2k_tier1_decode.hpp, kernels/j2k_tier1_decode_cuda.hpp).
// Internal to core/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/codec/j2k_packet_reader.hpp"
#include "core/codec/j2k_tile_plan.hpp"
#include "core/shared/j2k_block_coder_rules.hpp"  // t1::BlockStatus

namespace cf::j2k {

// What tier-1 needs of a subband of the plan (by TilePlan::bands index).
struct BandDecoding {
  bool skip = false;            // a discarded resolution or a component not decoded
  unsigned style = 0;           // code-block style (COD/COC)
  int magnitude_bitplanes = 0;  // Mb (E-2), the ROI shift included
  int fraction_bits = 0;        // t1::DecodeInput::fraction_bits
};

// Whether tier-1 decodes the block: a block of a skipped band, of no pass
// or of a component with nothing stored is left alone.
bool block_decoded(const TilePlan &plan, const BlockCodeword &cb, const std::vector<BandDecoding> &bands);

// What a block's status says, for a problem report (naming the block by its
// number in the tile); empty for kOk.
std::string block_problem(const TilePlan &plan, const BlockCodeword &cb, t1::BlockStatus s);

}  // namespace cf::j2k
