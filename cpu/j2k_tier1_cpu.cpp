// Tier-1 on one thread: the reference every backend matches.
#include <climits>
#include <vector>

#include "core/shared/j2k_ht_block_coder_rules.hpp"
#include "core/shared/j2k_ht_plane_estimate_rules.hpp"
#include "core/shared/j2k_plane_estimate_rules.hpp"
#include "cpu/j2k_tier1.hpp"

namespace cf::j2k {

namespace {
t1::BlockInput block_input(const Layout &l, const std::int32_t *coefficients, unsigned style, std::uint32_t b) {
  const BlockLayout &k = l.blocks[b];
  const TileComponentLayout &tc = l.tile_components[k.tile_component];
  const std::uint32_t stride = tc.rect.width();
  return {coefficients + tc.offset + std::size_t(k.y) * stride + k.x,
          int(k.width),
          int(k.height),
          int(stride),
          l.bands[k.band].orientation,
          t1::kMaxBitplanes,
          style};
}
}  // namespace

void code_block(const Layout &l, const std::int32_t *coefficients, unsigned style, std::uint32_t b, std::uint8_t *work,
                CodedBlocks &out) {
  const t1::BlockInput in = block_input(l, coefficients, style, b);
  const t1::BlockOutput o{work,
                          out.data.data() + out.offset[b],
                          int(out.capacity[b]),
                          out.pass_lengths.data() + std::size_t(b) * kMaxPasses,
                          kMaxPasses,
                          out.pass_distortion.data() + std::size_t(b) * kMaxPasses};
  const t1::PlaneWindow window = out.windows.empty() ? t1::PlaneWindow{} : out.windows[b];
  out.results[b] = (style & ht::kStyleHt) ? ht::encode_ht_block(in, o, ht::encode_tables(), window)
                                          : t1::encode_block(in, o, nullptr, window);
}

void estimate_planes(const Layout &l, const std::int32_t *coefficients, unsigned style, std::uint32_t b,
                     CodedBlocks &out) {
  const t1::BlockInput in = block_input(l, coefficients, style, b);
  const t1::BlockOutput o{nullptr,    nullptr,
                          INT_MAX,    out.pass_lengths.data() + std::size_t(b) * kMaxPasses,
                          kMaxPasses, out.pass_distortion.data() + std::size_t(b) * kMaxPasses};
  t1::PlaneTally tally;
  out.results[b] = (style & ht::kStyleHt) ? ht::estimate_ht_block(in, o) : t1::estimate_block(in, o, tally);
}

}  // namespace cf::j2k

namespace cf::cpu {

void j2k_code_blocks(const j2k::Layout &l, const std::int32_t *coefficients, unsigned style, j2k::CodedBlocks &out) {
  out.packed = nullptr;  // the codewords are in the slots of out.data
  std::vector<std::uint8_t> work(j2k::t1::block_work_bytes(1 << l.params.cb_width_exp, 1 << l.params.cb_height_exp));
  for (std::uint32_t b = 0; b < l.blocks.size(); ++b) j2k::code_block(l, coefficients, style, b, work.data(), out);
}

void j2k_estimate_planes(const j2k::Layout &l, const std::int32_t *coefficients, unsigned style,
                         j2k::CodedBlocks &out) {
  for (std::uint32_t b = 0; b < l.blocks.size(); ++b) j2k::estimate_planes(l, coefficients, style, b, out);
}

}  // namespace cf::cpu
