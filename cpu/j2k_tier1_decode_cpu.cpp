// Tier-1 decoding, serial: the reference's order, block by block.
#include "core/shared/j2k_ht_block_decoder_rules.hpp"
#include "cpu/j2k_tier1_decode.hpp"

namespace cf::j2k {

t1::BlockStatus decode_plan_block(const TilePlan &plan, const TileCodewords &cw, const std::vector<BandDecoding> &bands,
                                  std::uint32_t b, std::int32_t *coefficients, BlockScratch &scratch) {
  const BlockCodeword &cb = cw.blocks[b];
  const PlanBlock &blk = cb.block;
  const PlanBand &band = plan.bands[blk.band];
  const BandDecoding &d = bands[blk.band];
  if (!block_decoded(plan, cb, bands)) return t1::BlockStatus::kOk;
  // The codeword in one piece: in place when one chunk holds it all.
  const std::uint8_t *data = cw.data;
  std::size_t length = 0;
  if (cb.chunks.size() == 1) {
    data += cb.chunks[0].offset;
    length = cb.chunks[0].length;
  } else {
    scratch.codeword.clear();
    for (const ByteSpan &c : cb.chunks)
      scratch.codeword.insert(scratch.codeword.end(), cw.data + c.offset, cw.data + c.offset + c.length);
    data = scratch.codeword.data();
    length = scratch.codeword.size();
  }
  scratch.segments.assign(cb.segment_lengths.begin(), cb.segment_lengths.end());
  scratch.work.resize(std::size_t(t1::block_work_bytes(int(blk.rect.width()), int(blk.rect.height()))));
  t1::DecodeInput in{};
  in.data = data;
  in.length = int(length);
  in.segment_lengths = scratch.segments.data();
  in.segments = int(scratch.segments.size());
  in.width = int(blk.rect.width());
  in.height = int(blk.rect.height());
  in.orientation = band.orientation;
  in.style = d.style;
  in.magnitude_bitplanes = d.magnitude_bitplanes;
  in.zero_bitplanes = int(cb.zero_bitplanes);
  in.passes = int(cb.passes);
  in.fraction_bits = d.fraction_bits;
  const PlanComponent &pc = plan.components[band.component];
  const std::size_t stride = pc.stride;
  const t1::DecodeOutput out{coefficients + pc.offset + std::size_t(blk.buffer_y) * stride + blk.buffer_x, int(stride),
                             scratch.work.data()};
  return (in.style & ht::kStyleHt) ? ht::decode_ht_block(in, out, ht::decode_tables()) : t1::decode_block(in, out);
}

}  // namespace cf::j2k

namespace cf::cpu {

std::string j2k_decode_blocks(const j2k::TilePlan &plan, const j2k::TileCodewords &cw,
                              const std::vector<j2k::BandDecoding> &bands, std::int32_t *coefficients) {
  j2k::BlockScratch scratch;
  std::string problem;
  for (std::uint32_t b = 0; b < cw.blocks.size(); ++b) {
    const j2k::t1::BlockStatus s = j2k::decode_plan_block(plan, cw, bands, b, coefficients, scratch);
    if (s != j2k::t1::BlockStatus::kOk && problem.empty()) problem = j2k::block_problem(plan, cw.blocks[b], s);
  }
  return problem;
}

}  // namespace cf::cpu
