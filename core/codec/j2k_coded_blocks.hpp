// What tier-1 leaves for rate allocation and tier-2: each code-block's
// codeword, its truncation points and what each coding pass gains, in
// arrays of one shape on every backend (CUDA fills device copies of them
// and brings them back). Internal to core/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/shared/j2k_block_coder_rules.hpp"
#include "core/shared/j2k_ht_block_coder_rules.hpp"

namespace cf::j2k {

// Passes a block can have: magnitudes are int32, so at most 32 bit-planes.
constexpr int kMaxPasses = t1::max_pass_count(t1::kMaxBitplanes);

struct CodedBlocks {
  // Block b's codeword is at codeword(b). capacity[b] is the room of the
  // slot it is coded into: at data[offset[b]] on the host backends; the
  // cuda backend codes into device slots of that size and leaves the
  // codewords packed one after another in the engine's pinned memory,
  // `packed` (offset[b] counting from it), read there by tier-2 instead of
  // copied once more: valid until the engine's next frame.
  std::vector<std::uint8_t> data;
  const std::uint8_t *packed = nullptr;
  std::vector<std::size_t> offset;
  std::vector<std::uint32_t> capacity;
  // Per block: status, passes, bytes; zero_bitplanes counted from
  // t1::kMaxBitplanes (the encoder fixes Mb only once every block is coded).
  std::vector<t1::BlockResult> results;
  // Block b's pass p at [b * kMaxPasses + p]: the codeword's length after
  // it (a truncation point) and the squared error it removes, in the units
  // t1::BlockOutput::pass_distortion states.
  std::vector<std::int32_t> pass_lengths;
  std::vector<std::int64_t> pass_distortion;
  // HT candidates (ht::kCandidatePlanes): block b's planes, set before
  // tier-1 codes it; empty: every plane of every block.
  std::vector<t1::PlaneWindow> windows;

  const std::uint8_t *codeword(std::size_t b) const { return (packed ? packed : data.data()) + offset[b]; }
};

}  // namespace cf::j2k
