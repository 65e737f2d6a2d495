// Tier-2 decoding (T.800 B.9, B.10).
#include "core/codec/j2k_packet_reader.hpp"

#include <algorithm>
#include <climits>
#include <unordered_map>

#include "core/codec/j2k_packet_order.hpp"
#include "core/codec/j2k_tier2.hpp"               // floor_log2, kInitialLblock
#include "core/shared/j2k_block_coder_rules.hpp"  // pass_ends_segment
#include "core/shared/j2k_ht_rules.hpp"

namespace cf::j2k {

// ---------------------------------------------------------------------------
// Bit reader (B.10.1).

unsigned PacketBitReader::bit() {
  if (left_ == 0) {
    if (pos_ >= size_) throw PacketTruncated{};
    left_ = byte_ == 0xFF ? 7 : 8;  // after 0xFF, the top bit is stuffed
    byte_ = data_[pos_++];
  }
  --left_;
  return (byte_ >> left_) & 1u;
}

std::uint32_t PacketBitReader::bits(unsigned count) {
  std::uint32_t v = 0;
  for (unsigned i = 0; i < count; ++i) v = v << 1 | bit();
  return v;
}

std::size_t PacketBitReader::finish() {
  if (byte_ == 0xFF) {  // its stuffed bit starts the next byte, which belongs to the header
    if (pos_ >= size_) throw PacketTruncated{};
    ++pos_;
  }
  byte_ = 0;
  left_ = 0;
  return pos_;
}

// ---------------------------------------------------------------------------
// Tag tree (B.10.2).

TagTreeDecoder::TagTreeDecoder(std::uint32_t width, std::uint32_t height) {
  if (width == 0 || height == 0) return;
  dense_ = std::uint64_t(width) * height <= kDenseLeaves;
  for (;;) {
    levels_.push_back({width, height, {}, {}});
    if (dense_) levels_.back().nodes.assign(std::size_t(width) * height, 0);
    if (width == 1 && height == 1) break;
    width = (width + 1) / 2;
    height = (height + 1) / 2;
  }
}

bool TagTreeDecoder::below(PacketBitReader &in, std::uint32_t x, std::uint32_t y, std::uint32_t threshold,
                           int *excluded_at) {
  std::uint32_t low = 0;
  bool known = false;
  for (std::size_t l = levels_.size(); l-- > 0;) {
    Level &level = levels_[l];
    const std::uint32_t i = (y >> l) * level.width + (x >> l);
    std::uint32_t v = 0;
    if (dense_) {
      v = level.nodes[i];
    } else if (const auto at = level.read.find(i); at != level.read.end()) {
      v = at->second;
    }
    known = (v & kKnown) != 0;
    if (known || (v & ~kKnown) > low) low = v & ~kKnown;  // else at least its parent's
    if (!known && low < threshold) {
      while (!known && low < threshold) {
        if (in.bit())
          known = true;
        else
          ++low;
      }
      v = low | (known ? kKnown : 0);
      if (dense_)
        level.nodes[i] = v;
      else
        level.read[i] = v;
    }
    if (low >= threshold) {
      // Every node below inherits the bound: no bit is read under it.
      if (excluded_at) *excluded_at = int(l);
      return false;
    }
  }
  return known;  // the leaf, known below the threshold (false for an empty tree)
}

// Asking below() for thresholds 1, 2, ... in turn until the leaf is known
// reads the same bits as asking once for the highest: a node reads nothing
// while its parent is unknown, so either way each node on the path reads
// its bits, root first, until it is known or reaches the threshold. Once
// is one walk from the root instead of one per value.
std::uint32_t TagTreeDecoder::value(PacketBitReader &in, std::uint32_t x, std::uint32_t y, std::uint32_t limit) {
  if (!below(in, x, y, limit + 1)) throw PacketTruncated{};  // a value no code-block can have: corrupt data
  // A known leaf learnt its value from a bit read at it, so it is stored.
  const Level &leaves = levels_[0];
  const std::uint32_t i = y * leaves.width + x;
  return (dense_ ? leaves.nodes[i] : leaves.read.at(i)) & ~kKnown;
}

// ---------------------------------------------------------------------------
// Packets.

namespace {

// Whether pass `pass` of the block ends a codeword segment (besides the last
// pass of a contribution): Part 1's rule for the style, or HT's (T.814:
// the placeholders and the cleanup pass one segment, the refinement passes
// another).
bool ends_segment(std::uint8_t style, const BlockCodeword &cb, std::uint32_t pass) {
  if (style & ht::kStyleHt) return ht::pass_ends_segment(int(pass), int(cb.ht_cleanup));
  return t1::pass_ends_segment(style, int(pass), INT_MAX);
}

// The number of new coding passes (Table B.4).
std::uint32_t read_passes(PacketBitReader &in) {
  if (!in.bit()) return 1;
  if (!in.bit()) return 2;
  const std::uint32_t a = in.bits(2);
  if (a != 3) return 3 + a;
  const std::uint32_t b = in.bits(5);
  if (b != 31) return 6 + b;
  return 37 + in.bits(7);
}

// A block's contribution to one packet, as its header says.
struct Contribution {
  std::uint32_t block;  // in TileCodewords::blocks
  std::uint32_t passes;
  std::uint32_t first_piece, pieces;  // into the packet's piece lengths
};

constexpr std::uint32_t kMaxZeroBitplanes = 74;  // no more magnitude bit-planes in any code-block (E-2)

class TileReader {
 public:
  TileReader(const TilePlan &plan, const ResolvedTile &coding, std::uint32_t layers_kept, TileCodewords &out)
      : plan_(plan), coding_(coding), kept_(layers_kept), out_(out) {}

  void set_sources(const std::uint8_t *packed, std::size_t packed_size) {
    packed_ = packed;
    packed_size_ = packed_size;
  }

  std::size_t position() const { return pos_; }
  // Blocks included: out.blocks[0, used()).
  std::size_t used() const { return used_; }

  // Reads one packet; false when the data ran out or is corrupt.
  bool read(const PacketId &id) {
    const PlanResolution &res = plan_.components[id.component].resolutions[id.resolution];
    const std::size_t precinct = res.first_precinct + id.precinct;
    const std::uint8_t style = coding_.components[id.component].cb_style;
    const bool headers_packed = packed_ != nullptr;
    try {
      if (coding_.coding.sop) skip_sop();
      // The header: from the packed headers, or from the data.
      const std::uint8_t *src = headers_packed ? packed_ : out_.data;
      const std::size_t size = headers_packed ? packed_size_ : out_.size;
      std::size_t &at = headers_packed ? packed_pos_ : pos_;
      PacketBitReader in(src + at, size - at);
      contributions_.clear();
      pieces_.clear();
      if (in.bit()) read_header_blocks(in, id, res, precinct, style);
      at += in.finish();
      if (coding_.coding.eph && at + 2 <= size && src[at] == 0xFF && src[at + 1] == 0x92) at += 2;
      // The body: the bytes of each contribution, in header order.
      for (const Contribution &c : contributions_) take_body(c, id.layer, style);
    } catch (const PacketTruncated &) {
      out_.problem = "packet of layer " + std::to_string(id.layer) + ", component " + std::to_string(id.component) +
                     ", resolution " + std::to_string(id.resolution) + ", precinct " + std::to_string(id.precinct) +
                     ": the data ends or is corrupt";
      return false;
    }
    return true;
  }

 private:
  void skip_sop() {
    const std::uint8_t *b = out_.data;
    if (pos_ + 6 <= out_.size && b[pos_] == 0xFF && b[pos_ + 1] == 0x91) pos_ += 6;  // SOP, Lsop = 4, Nsop
  }

  void read_header_blocks(PacketBitReader &in, const PacketId &id, const PlanResolution &res, std::size_t precinct,
                          std::uint8_t style) {
    auto [at, first_packet] = precincts_.try_emplace(precinct);
    std::vector<BandState> &bands = at->second;
    if (first_packet)
      for (std::uint32_t b = 0; b < res.bands; ++b) {
        const PrecinctBand share = precinct_share(plan_, res, res.first_band + b, id.precinct);
        bands.push_back(
            {share, TagTreeDecoder(share.width, share.height), TagTreeDecoder(share.width, share.height), {}});
      }
    const std::uint32_t threshold = id.layer + 1;
    for (BandState &s : bands) {
      const std::uint32_t w = s.share.width;
      const std::uint64_t end = std::uint64_t(w) * s.share.height;
      // The share's code-blocks in raster order (B.10.4): those included
      // before read a bit each; the others ask the inclusion tree, and the
      // run after one that a node excludes with all its leaves is passed
      // over (answering without a bit, it would change nothing).
      std::vector<Included> &included = included_;
      included.clear();
      std::size_t next = 0;  // in s.included
      for (std::uint64_t pos = 0; pos < end;) {
        const std::uint64_t before = next < s.included.size() ? s.included[next].pos : end;
        if (pos == before) {
          included.push_back(s.included[next++]);
          if (in.bit()) contribute(in, included.back().slot, style);
          ++pos;
          continue;
        }
        const std::uint32_t x = std::uint32_t(pos % w), y = std::uint32_t(pos / w);
        int level = -1;
        if (!s.inclusion.below(in, x, y, threshold, &level)) {
          // The blocks after it under the node that excludes it: their rows
          // from here when the node spans every column, else the rest of
          // its columns in this row (those included before still read
          // their bit).
          const std::uint64_t x1 = (std::uint64_t(x >> level) + 1) << level;
          const std::uint64_t y1 = std::min<std::uint64_t>((std::uint64_t(y >> level) + 1) << level, s.share.height);
          const std::uint64_t run_end =
              (x >> level) == 0 && x1 >= w ? y1 * w : std::uint64_t(y) * w + std::min<std::uint64_t>(x1, w);
          pos = std::min(run_end, before);
          continue;
        }
        // B.10.5: zero bit-planes, at the first inclusion.
        const std::uint32_t slot = std::uint32_t(used_);
        BlockCodeword &cb = next_block();
        cb.zero_bitplanes = s.zero_bitplanes.value(in, x, y, kMaxZeroBitplanes);
        const PlanBand &band = plan_.bands[s.share.band];
        cb.index = band.first_block + (s.share.y0 + y) * band.grid_width + s.share.x0 + x;
        cb.block = plan_block(plan_, s.share.band, s.share.x0 + x, s.share.y0 + y);
        included.push_back({pos, slot});
        contribute(in, included.back().slot, style);
        ++pos;
      }
      s.included.swap(included);
    }
  }

  // A new block at the end of the list in use: an entry kept from the
  // list's last use when there is one (its chunk and segment lists keep
  // their room), so a stream of frames allocates little per block.
  BlockCodeword &next_block() {
    if (used_ == out_.blocks.size()) {
      out_.blocks.emplace_back();
    } else {
      BlockCodeword &cb = out_.blocks[used_];
      std::vector<ByteSpan> chunks = std::move(cb.chunks);
      std::vector<std::uint32_t> segments = std::move(cb.segment_lengths);
      cb = BlockCodeword{};
      chunks.clear();
      segments.clear();
      cb.chunks = std::move(chunks);
      cb.segment_lengths = std::move(segments);
    }
    return out_.blocks[used_++];
  }

  // A block's contribution to the packet, from its passes on (B.10.6,
  // B.10.7): new passes, Lblock, one length per segment piece.
  void contribute(PacketBitReader &in, std::uint32_t slot, std::uint8_t style) {
    BlockCodeword &cb = out_.blocks[slot];
    const std::uint32_t passes = read_passes(in);
    // HT: the first contribution's placeholders fix the cleanup pass; one HT set at most follows it.
    if ((style & ht::kStyleHt) && cb.passes_read == 0) cb.ht_cleanup = std::uint32_t(ht::cleanup_pass(int(passes)));
    if ((style & ht::kStyleHt) && cb.passes_read + passes > cb.ht_cleanup + 3) throw PacketTruncated{};
    while (in.bit())
      if (++cb.lblock > 32) throw PacketTruncated{};
    Contribution c{slot, passes, std::uint32_t(pieces_.size()), 0};
    std::uint32_t count = 0;
    for (std::uint32_t p = cb.passes_read; p < cb.passes_read + passes; ++p) {
      ++count;
      const bool last = p + 1 == cb.passes_read + passes;
      if (!last && !ends_segment(style, cb, p)) continue;
      const std::uint32_t width = cb.lblock + floor_log2(count);
      if (width > 32) throw PacketTruncated{};
      pieces_.push_back(in.bits(width));
      ++c.pieces;
      count = 0;
    }
    contributions_.push_back(c);
  }

  // The contribution's bytes, appended to its block when its layer is kept.
  void take_body(const Contribution &c, std::uint32_t layer, std::uint8_t style) {
    BlockCodeword &cb = out_.blocks[c.block];
    const bool keep = layer < kept_;
    std::uint32_t pass = cb.passes_read;
    for (std::uint32_t i = 0; i < c.pieces; ++i) {
      std::uint64_t length = pieces_[c.first_piece + i];
      const bool short_data = pos_ + length > out_.size;
      if (short_data) length = out_.size - pos_;
      if (keep) {
        if (length > 0) cb.chunks.push_back({pos_, std::size_t(length)});
        if (cb.segment_open && !cb.segment_lengths.empty())
          cb.segment_lengths.back() += std::uint32_t(length);
        else
          cb.segment_lengths.push_back(std::uint32_t(length));
      }
      pos_ += std::size_t(length);
      // The piece's passes: up to the next segment end, or the contribution's last.
      std::uint32_t end = pass;
      while (end + 1 < cb.passes_read + c.passes && !ends_segment(style, cb, end)) ++end;
      cb.segment_open = !ends_segment(style, cb, end);
      if (keep) cb.passes += end + 1 - pass;
      pass = end + 1;
      if (short_data) {
        cb.passes_read += c.passes;
        throw PacketTruncated{};
      }
    }
    cb.passes_read += c.passes;
  }

  const TilePlan &plan_;
  const ResolvedTile &coding_;
  std::uint32_t kept_;
  TileCodewords &out_;
  // A precinct's share of one of its subbands, as tier-2 goes: made at the
  // precinct's first packet, so that precincts without packets cost nothing.
  struct Included {
    std::uint64_t pos;   // in the share, raster order
    std::uint32_t slot;  // its place in TileCodewords::blocks
  };
  struct BandState {
    PrecinctBand share;
    TagTreeDecoder inclusion, zero_bitplanes;
    std::vector<Included> included;  // the share's code-blocks included so far, in raster order
  };
  std::unordered_map<std::size_t, std::vector<BandState>> precincts_;  // by the tile's precinct number
  std::vector<Included> included_;  // a share's list being made, swapped with its own
  const std::uint8_t *packed_ = nullptr;
  std::size_t packed_size_ = 0, packed_pos_ = 0;
  std::size_t pos_ = 0;   // in out_.data
  std::size_t used_ = 0;  // entries of out_.blocks in use
  std::vector<Contribution> contributions_;
  std::vector<std::uint32_t> pieces_;
};

}  // namespace

void read_tile_packets(const std::uint8_t *codestream, const Header &h, const TilePlan &plan,
                       const ResolvedTile &coding, std::uint32_t layers_kept, TileCodewords &out) {
  const TileHeaders &t = h.tiles[plan.tile];
  out.joined.clear();
  out.bytes_read = 0;
  out.problem.clear();
  if (t.parts.size() == 1) {  // no copy: a frame's megabytes stay where they are
    out.data = codestream + t.parts[0].offset;
    out.size = t.parts[0].length;
  } else {
    std::size_t total = 0;
    for (const ByteSpan &s : t.parts) total += s.length;
    out.joined.reserve(total);
    for (const ByteSpan &s : t.parts)
      out.joined.insert(out.joined.end(), codestream + s.offset, codestream + s.offset + s.length);
    out.data = out.joined.data();
    out.size = out.joined.size();
  }
  // Room for every block the data can include (each takes a header bit
  // at least), so the list is not moved as it grows.
  const std::size_t header_bits = 8 * (out.size + (t.headers_packed ? t.packed.size() : 0)) + 1;
  out.blocks.reserve(std::min<std::size_t>(plan.block_count, header_bits));
  TileReader reader(plan, coding, layers_kept, out);
  if (t.headers_packed) reader.set_sources(t.packed.data(), t.packed.size());
  for_each_packet(plan, coding, [&](const PacketId &id) { return reader.read(id); });
  out.bytes_read = reader.position();
  out.blocks.resize(reader.used());
  // By number: a radix sort of the numbers, then each block swapped into
  // place (swaps, not moves, so that every entry keeps its lists' room).
  std::vector<std::uint64_t> &keys = out.by_index.keys(out.blocks.size());
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = out.blocks[i].index;
  const std::vector<std::uint32_t> &order = out.by_index.sort();
  out.sorting.resize(out.blocks.size());
  for (std::size_t i = 0; i < order.size(); ++i) std::swap(out.sorting[i], out.blocks[order[i]]);
  out.blocks.swap(out.sorting);
}

TileCodewords read_tile_packets(const std::uint8_t *codestream, const Header &h, const TilePlan &plan,
                                const ResolvedTile &coding, std::uint32_t layers_kept) {
  TileCodewords out;
  read_tile_packets(codestream, h, plan, coding, layers_kept, out);
  return out;
}

}  // namespace cf::j2k
