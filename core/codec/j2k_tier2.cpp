// JPEG 2000 tier-2 coding (T.800 B.9, B.10): the header bit writer, tag
// trees, the codewords of passes and lengths, and the packets of a precinct.
#include "core/codec/j2k_tier2.hpp"

#include <algorithm>

#include "cudafilters/error.hpp"

namespace cf::j2k {

// ---------------------------------------------------------------------------
// Bit writer (B.10.1).

void PacketBitWriter::bit(unsigned b) {
  current_ = current_ << 1 | (b & 1u);
  if (++filled_ < room_) return;
  bytes_.push_back(std::uint8_t(current_));
  room_ = current_ == 0xFF ? 7 : 8;
  current_ = 0;
  filled_ = 0;
}

void PacketBitWriter::bits(std::uint32_t value, unsigned count) {
  for (unsigned i = count; i-- > 0;) bit(value >> i & 1u);
}

std::vector<std::uint8_t> PacketBitWriter::finish() {
  if (filled_ > 0)
    bytes_.push_back(std::uint8_t(current_ << (room_ - filled_)));
  else if (room_ == 7)
    bytes_.push_back(0);  // the last byte was 0xFF: its stuffed bit must follow
  std::vector<std::uint8_t> out;
  out.swap(bytes_);
  current_ = 0;
  filled_ = 0;
  room_ = 8;
  return out;
}

// ---------------------------------------------------------------------------
// Tag tree (B.10.2).

TagTree::TagTree(std::uint32_t width, std::uint32_t height, const std::vector<std::uint32_t> &values) {
  if (values.size() != std::size_t(width) * height)
    throw Error("tag tree: " + std::to_string(values.size()) + " values for a grid of " + std::to_string(width) +
                " x " + std::to_string(height));
  if (width == 0 || height == 0) return;
  Level leaves{width, height, std::vector<Node>(values.size())};
  for (std::size_t i = 0; i < values.size(); ++i) leaves.nodes[i].value = values[i];
  levels_.push_back(std::move(leaves));
  while (levels_.back().width > 1 || levels_.back().height > 1) {
    const Level &below = levels_.back();
    Level up{(below.width + 1) / 2, (below.height + 1) / 2, {}};
    up.nodes.resize(std::size_t(up.width) * up.height);
    for (std::uint32_t y = 0; y < up.height; ++y)
      for (std::uint32_t x = 0; x < up.width; ++x) {
        std::uint32_t m = UINT32_MAX;
        for (std::uint32_t cy = 2 * y; cy < std::min(2 * y + 2, below.height); ++cy)
          for (std::uint32_t cx = 2 * x; cx < std::min(2 * x + 2, below.width); ++cx)
            m = std::min(m, below.nodes[std::size_t(cy) * below.width + cx].value);
        up.nodes[std::size_t(y) * up.width + x].value = m;
      }
    levels_.push_back(std::move(up));
  }
}

std::uint32_t TagTree::value(std::size_t level, std::uint32_t x, std::uint32_t y) const {
  const Level &l = levels_.at(level);
  return l.nodes.at(std::size_t(y) * l.width + x).value;
}

bool TagTree::encode(PacketBitWriter &out, std::uint32_t x, std::uint32_t y, std::uint32_t threshold) {
  if (levels_.empty() || x >= levels_[0].width || y >= levels_[0].height)
    throw Error("tag tree: leaf outside the grid");
  // From the root down to the leaf: a node's value is at least its parent's,
  // so what the decoder knows of the parent bounds the child from below.
  std::uint32_t low = 0;
  for (std::size_t l = levels_.size(); l-- > 0;) {
    Level &level = levels_[l];
    Node &n = level.nodes[std::size_t(y >> l) * level.width + (x >> l)];
    low = std::max(low, n.low);
    while (low < threshold) {
      if (low >= n.value) {  // low == value: say so once
        if (!n.known) out.bit(1), n.known = true;
        break;
      }
      out.bit(0);  // value > low
      ++low;
    }
    n.low = low;
  }
  return levels_[0].nodes[std::size_t(y) * levels_[0].width + x].known;
}

void TagTree::encode_value(PacketBitWriter &out, std::uint32_t x, std::uint32_t y) {
  encode(out, x, y, value(0, x, y) + 1);
}

// ---------------------------------------------------------------------------
// Codewords (B.10.6, B.10.7).

PassesCode passes_codeword(std::uint32_t passes) {
  if (passes == 1) return {0x0, 1};                               // 0
  if (passes == 2) return {0x2, 2};                               // 10
  if (passes <= 5) return {0xC | (passes - 3), 4};                // 11 xx
  if (passes <= 36) return {0x1E0 | (passes - 6), 9};             // 1111 xxxxx
  if (passes <= 164) return {(0x1FFu << 7) | (passes - 37), 16};  // 1111 11111 xxxxxxx
  throw Error("JPEG 2000 packet: " + std::to_string(passes) + " coding passes in one packet (at most 164)");
}

std::uint32_t lblock_increment(std::uint32_t lblock, std::uint32_t passes, std::uint32_t bytes) {
  const std::uint32_t base = lblock + floor_log2(passes);
  std::uint32_t k = 0;
  while (base + k < 32 && (std::uint64_t(bytes) >> (base + k)) != 0) ++k;
  return k;
}

// ---------------------------------------------------------------------------
// Packets (B.9, B.10.3 to B.10.8).

// The segment flags and pass lengths of a block (B.10.7.2), when it has them.
static std::string segments_check(const CodeBlockPlan &cb, std::uint32_t layers) {
  if (cb.ends_segment.empty() && cb.pass_lengths.empty()) return {};
  std::size_t passes = 0;
  for (std::uint32_t p : cb.passes) passes += p;
  if (cb.ends_segment.size() != passes || cb.pass_lengths.size() != passes)
    return "ends_segment and pass_lengths need one entry per coding pass (" + std::to_string(passes) + "), not " +
           std::to_string(cb.ends_segment.size()) + " and " + std::to_string(cb.pass_lengths.size());
  std::size_t pass = 0;
  std::uint64_t sent = 0;
  for (std::uint32_t l = 0; l < layers; ++l) {
    for (std::uint32_t i = 0; i < cb.passes[l]; ++i, ++pass)
      if (pass > 0 && cb.pass_lengths[pass] < cb.pass_lengths[pass - 1])
        return "pass " + std::to_string(pass) + "'s length " + std::to_string(cb.pass_lengths[pass]) +
               " is below the previous pass's " + std::to_string(cb.pass_lengths[pass - 1]);
    sent += cb.bytes[l];
    if (cb.passes[l] > 0 && cb.pass_lengths[pass - 1] != sent)
      return "layer " + std::to_string(l) + " ends at pass " + std::to_string(pass - 1) + " of length " +
             std::to_string(cb.pass_lengths[pass - 1]) + ", its bytes add up to " + std::to_string(sent);
  }
  return {};
}

std::string precinct_plan_check(const PrecinctPlan &plan) {
  if (plan.layers == 0 || plan.layers > 65535) return "layers: " + std::to_string(plan.layers) + " (1..65535)";
  if (plan.subbands.size() != 1 && plan.subbands.size() != 3)
    return std::to_string(plan.subbands.size()) + " subbands (1: LL, or 3: HL, LH, HH)";
  for (std::size_t s = 0; s < plan.subbands.size(); ++s) {
    const PrecinctSubband &sb = plan.subbands[s];
    const std::string where = "subband " + std::to_string(s);
    if (sb.blocks.size() != std::size_t(sb.width) * sb.height)
      return where + ": " + std::to_string(sb.blocks.size()) + " code-blocks for a grid of " +
             std::to_string(sb.width) + " x " + std::to_string(sb.height);
    for (std::size_t b = 0; b < sb.blocks.size(); ++b) {
      const CodeBlockPlan &cb = sb.blocks[b];
      // Built only for a message: a string per block would cost the
      // encoder an allocation per block and frame.
      const auto at = [&] { return where + ", code-block " + std::to_string(b); };
      if (cb.passes.size() != plan.layers || cb.bytes.size() != plan.layers)
        return at() + ": passes and bytes need one entry per layer (" + std::to_string(plan.layers) + ")";
      std::uint64_t total = 0;
      for (std::uint32_t l = 0; l < plan.layers; ++l) {
        if (cb.passes[l] > kMaxPassesPerPacket)
          return at() + ", layer " + std::to_string(l) + ": " + std::to_string(cb.passes[l]) +
                 " passes (at most 164)";
        if (cb.passes[l] == 0 && cb.bytes[l] != 0)
          return at() + ", layer " + std::to_string(l) + ": bytes without coding passes";
        total += cb.bytes[l];
      }
      if (cb.codeword_size() != total)
        return at() + ": " + std::to_string(cb.codeword_size()) + " bytes of data, the layers add up to " +
               std::to_string(total);
      const std::string why = segments_check(cb, plan.layers);
      if (!why.empty()) return at() + ": " + why;
    }
  }
  return {};
}

static std::uint32_t first_layer(const CodeBlockPlan &cb, std::uint32_t layers) {
  for (std::uint32_t l = 0; l < layers; ++l)
    if (cb.passes[l] > 0) return l;
  return layers;  // never: above every threshold a packet codes
}

// The passes a packet adds to a block, cut where codeword segments end
// (B.10.7.2): `passes` passes from pass `first`, `bytes` bytes from byte
// `offset` of the codeword.
using Piece = PacketPiece;
static void pieces_of(const CodeBlockPlan &cb, std::uint32_t first, std::uint32_t passes, std::size_t offset,
                      std::uint32_t bytes, std::vector<Piece> &pieces) {
  pieces.clear();
  if (cb.ends_segment.empty()) return pieces.push_back({passes, bytes});
  std::size_t start = offset;
  std::uint32_t count = 0;
  for (std::uint32_t p = first; p < first + passes; ++p) {
    ++count;
    const bool last = p + 1 == first + passes;
    if (!last && !cb.ends_segment[p]) continue;
    const std::size_t end = last ? offset + bytes : cb.pass_lengths[p];
    pieces.push_back({count, std::uint32_t(end - start)});
    start = end;
    count = 0;
  }
}

PrecinctPacketWriter::PrecinctPacketWriter(PrecinctPlan plan) : plan_(std::move(plan)) {
  const std::string why = precinct_plan_check(plan_);
  if (!why.empty()) throw Error("JPEG 2000 precinct: " + why);
  for (const PrecinctSubband &sb : plan_.subbands) {
    std::vector<std::uint32_t> first, zeros;
    first.reserve(sb.blocks.size());
    zeros.reserve(sb.blocks.size());
    for (const CodeBlockPlan &cb : sb.blocks) {
      first.push_back(first_layer(cb, plan_.layers));
      zeros.push_back(cb.zero_bitplanes);
    }
    inclusion_.emplace_back(sb.width, sb.height, first);
    zero_bitplanes_.emplace_back(sb.width, sb.height, zeros);
    states_.emplace_back(sb.blocks.size());
  }
}

std::size_t PrecinctPacketWriter::write_next(ByteWriter &w, const PacketMarkers &markers) {
  if (layer_ >= plan_.layers)
    throw Error("JPEG 2000 precinct: packet of layer " + std::to_string(layer_) + " asked, the precinct has " +
                std::to_string(plan_.layers) + " layers");
  const std::uint32_t l = layer_++;
  bool any = false;
  for (const PrecinctSubband &sb : plan_.subbands)
    for (const CodeBlockPlan &cb : sb.blocks) any = any || cb.passes[l] > 0;

  PacketBitWriter bits;
  bits.bit(any ? 1 : 0);  // B.10.3: 0 for an empty packet
  if (any)
    for (std::size_t s = 0; s < plan_.subbands.size(); ++s) {
      const PrecinctSubband &sb = plan_.subbands[s];
      for (std::uint32_t y = 0; y < sb.height; ++y)
        for (std::uint32_t x = 0; x < sb.width; ++x) {
          const CodeBlockPlan &cb = sb.blocks[std::size_t(y) * sb.width + x];
          BlockState &st = states_[s][std::size_t(y) * sb.width + x];
          const std::uint32_t passes = cb.passes[l];
          // B.10.4: inclusion.
          if (st.included)
            bits.bit(passes > 0 ? 1 : 0);
          else if (!inclusion_[s].encode(bits, x, y, l + 1))
            continue;
          if (passes == 0) continue;
          // B.10.5: zero bit-planes, at the first inclusion.
          if (!st.included) zero_bitplanes_[s].encode_value(bits, x, y);
          st.included = true;
          // B.10.6: new passes; B.10.7: Lblock increment and lengths.
          const PassesCode code = passes_codeword(passes);
          bits.bits(code.bits, code.length);
          std::vector<Piece> &pieces = pieces_;
          pieces_of(cb, st.passes, passes, st.offset, cb.bytes[l], pieces);
          std::uint32_t k = 0;
          for (const Piece &p : pieces) k = std::max(k, lblock_increment(st.lblock, p.passes, p.bytes));
          for (std::uint32_t i = 0; i < k; ++i) bits.bit(1);
          bits.bit(0);
          st.lblock += k;
          for (const Piece &p : pieces) bits.bits(p.bytes, st.lblock + floor_log2(p.passes));
          st.passes += passes;
        }
    }
  const std::vector<std::uint8_t> header = bits.finish();

  if (markers.sop) {
    w.marker(kSop);
    w.u16(4);  // Lsop
    w.u16(std::uint16_t(markers.sequence));
  }
  w.append(header.data(), header.size());
  if (markers.eph) w.marker(kEph);
  // B.9: the body, the new bytes of each included code-block in header order.
  for (std::size_t s = 0; s < plan_.subbands.size(); ++s) {
    const PrecinctSubband &sb = plan_.subbands[s];
    for (std::size_t b = 0; b < sb.blocks.size(); ++b) {
      const CodeBlockPlan &cb = sb.blocks[b];
      BlockState &st = states_[s][b];
      w.append_later(cb.codeword() + st.offset, cb.bytes[l]);
      st.offset += cb.bytes[l];
    }
  }
  return header.size();
}

}  // namespace cf::j2k
