// Which code-blocks tier-1 decodes and what a bad one's status says, for
// every backend.
#include "core/codec/j2k_block_decoding.hpp"

namespace cf::j2k {

bool block_decoded(const TilePlan &plan, const BlockCodeword &cb, const std::vector<BandDecoding> &bands) {
  return !bands[cb.block.band].skip && cb.passes > 0 && plan.components[plan.bands[cb.block.band].component].stride > 0;
}

std::string block_problem(const TilePlan &plan, const BlockCodeword &cb, t1::BlockStatus s) {
  const char *why = nullptr;
  switch (s) {
    case t1::BlockStatus::kOk: return {};
    case t1::BlockStatus::kTooManyBitplanes: why = "more magnitude bit-planes than the decoder takes (30)"; break;
    case t1::BlockStatus::kBadZeroBitplanes: why = "more zero bit-planes than the subband has"; break;
    case t1::BlockStatus::kBadPasses: why = "more coding passes than its bit-planes allow"; break;
    case t1::BlockStatus::kBadSegments: why = "codeword segment lengths that do not fit its passes or data"; break;
    case t1::BlockStatus::kCorrupt:
      why =
          "bytes that contradict its coder (a segmentation symbol other than 1010, or HT codewords past its "
          "tables or planes): corrupt data";
      break;
    default: why = "an impossible size or style"; break;
  }
  return "code-block " + std::to_string(cb.index) + " of component " +
         std::to_string(plan.bands[cb.block.band].component) + ": " + why;
}

}  // namespace cf::j2k
