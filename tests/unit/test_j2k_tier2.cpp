// JPEG 2000 tier-2 coding (core/codec/j2k_tier2.hpp):
//  1. the header bit writer's stuffing after 0xFF (T.800 B.10.1), by hand;
//  2. a tag tree (B.10.2) worked by hand: its minima, the bits of every
//     leaf, and the same bits spread over three packets of rising threshold;
//  3. Table B.4's codewords, Lblock increments (B.10.7.1), two packet
//     headers of a two-layer precinct and two of a block of two codeword
//     segments (B.10.7.2), bit by bit by hand;
//  4. a packet decoder written here from B.10 (its own bit reader and tag
//     trees), reading back random precincts over several layers, half of
//     their code-blocks in several codeword segments;
//  5. OpenJPEG's opj_decompress decoding a 1x1 image whose single code-block
//     has one cleanup pass (exits 77, skipped, without the tool);
//  6. and code-blocks of several codeword segments (B.10.7.2) over two
//     layers, coded by the tier-1 block coder.
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "core/codec/j2k_tier2.hpp"
#include "core/shared/j2k_block_coder_rules.hpp"
#include "core/shared/j2k_mq_rules.hpp"
#include "cudafilters/error.hpp"
#include "pnm.hpp"
#include "shell.hpp"

using namespace cf::j2k;
using Bytes = std::vector<std::uint8_t>;

static std::string hex(const Bytes &b) {
  std::string s;
  char buf[4];
  for (std::uint8_t v : b) std::snprintf(buf, sizeof buf, "%02X ", v), s += buf;
  return s;
}

static void check_bytes(const Bytes &got, const Bytes &want, const char *what) {
  CHECK_MSG(got == want, "%s: got %s, expected %s", what, hex(got).c_str(), hex(want).c_str());
}

// Writes a string of '0' and '1' (spaces ignored).
static void put(PacketBitWriter &w, const char *bits) {
  for (; *bits; ++bits)
    if (*bits != ' ') w.bit(*bits == '1');
}

// ---------------------------------------------------------------------------
// 1. Stuffing: after a byte of 0xFF the next byte has 7 bits under a 0.

static void bit_writer_stuffing() {
  struct Case {
    const char *bits;
    Bytes want;
  } cases[] = {
      {"101", {0xA0}},                             // padded with zeros
      {"11111110 1", {0xFE, 0x80}},                // 0xFE: no stuffing
      {"11111111 1010101", {0xFF, 0x55}},          // 0 1010101
      {"11111111 1111111 1", {0xFF, 0x7F, 0x80}},  // 0x7F is not 0xFF: 8 bits again
      {"11111111", {0xFF, 0x00}},                  // never ends with 0xFF
      {"11111111 1111111 11111111", {0xFF, 0x7F, 0xFF, 0x00}},
      {"11111111 1111111 11111111 101", {0xFF, 0x7F, 0xFF, 0x50}},  // 0 101 0000
      {"0 11111111 1", {0x7F, 0xC0}},                               // ones across a byte boundary: no 0xFF byte
  };
  for (const Case &c : cases) {
    PacketBitWriter w;
    put(w, c.bits);
    check_bytes(w.finish(), c.want, c.bits);
  }
  PacketBitWriter w;  // bits(): the highest first, and finish() starts afresh
  w.bits(0xFF, 8);
  w.bits(0x2A, 7);
  check_bytes(w.finish(), {0xFF, 0x2A}, "bits(0xFF, 8) bits(0x2A, 7)");
  w.bits(0x1FF, 9);  // 11111111, then 0 1 010101, then 0(0000000)
  w.bits(0x2A, 7);
  check_bytes(w.finish(), {0xFF, 0x55, 0x00}, "bits(0x1FF, 9) bits(0x2A, 7)");
  w.bits(0x5, 3);
  check_bytes(w.finish(), {0xA0}, "after finish");
}

// ---------------------------------------------------------------------------
// 2. A tag tree by hand. Leaves (3 x 2):
//      2 3 4
//      2 5 1
//    level 1 (2 x 1): min(2,3,2,5) = 2, min(4,1) = 1; level 2 (root): 1.
// Coding each leaf whole (threshold value + 1), in raster order, from the
// root down; a node says "value > low" with 0 (low + 1) and "value == low"
// with 1, once; a child starts from its parent's value:
//   (0,0)=2: root 0 1 (=1), node 0 1 (=2), leaf 1 (=2)   -> 01011
//   (1,0)=3: root, node known; leaf from 2: 0 1          -> 01
//   (2,0)=4: root known; node (1,0) from 1: 1; leaf from 1: 0 0 0 1 -> 10001
//   (0,1)=2: leaf from 2: 1                               -> 1
//   (1,1)=5: leaf from 2: 0 0 0 1                         -> 0001
//   (2,1)=1: leaf from 1: 1                               -> 1
// Inclusion-style, thresholds 1, 2, 3 (one packet each), leaves (0,0), (2,1):
//   t=1: (0,0): root 0 (> 0), then low = 1 = t everywhere: "0", not below 1
//        (2,1): nothing new: "", not below 1
//   t=2: (0,0): root 1 (=1); node from 1: 0 (> 1): "10", not below 2
//        (2,1): node (1,0) from 1: 1; leaf from 1: 1: "11", below 2
//   t=3: (0,0): node from 2: 1; leaf from 2: 1: "11", below 3
//        (2,1): known: "", below 3
// so (0,0) has sent 0, 10, 11: the bits 01011 of coding it whole.

static std::string bits_of(const Bytes &bytes, std::size_t count) {  // no 0xFF in these
  std::string s;
  for (std::size_t i = 0; i < count; ++i) s += (bytes[i / 8] >> (7 - i % 8) & 1) ? '1' : '0';
  return s;
}

static void tag_tree_by_hand() {
  const std::vector<std::uint32_t> leaves{2, 3, 4, 2, 5, 1};
  {
    TagTree t(3, 2, leaves);
    CHECK(t.level_count() == 3);
    CHECK(t.level_width(1) == 2 && t.level_height(1) == 1 && t.level_width(2) == 1 && t.level_height(2) == 1);
    CHECK(t.value(1, 0, 0) == 2 && t.value(1, 1, 0) == 1 && t.value(2, 0, 0) == 1);
    const char *want[6] = {"01011", "01", "10001", "1", "0001", "1"};
    for (std::uint32_t i = 0; i < 6; ++i) {
      PacketBitWriter w;
      t.encode_value(w, i % 3, i / 3);
      const Bytes b = w.finish();
      const std::size_t n = std::string(want[i]).size();
      // Trailing bits are padding zeros: compare the first n, and that no
      // more than n were written (the rest of the byte is zero, one byte).
      CHECK_MSG(bits_of(b, n) == want[i] && b.size() == 1 && (b[0] & (0xFF >> n)) == 0, "leaf %u: %s, expected %s", i,
                bits_of(b, 8).c_str(), want[i]);
    }
  }
  {
    TagTree t(3, 2, leaves);
    struct Step {
      std::uint32_t x, y, threshold;
      const char *bits;
      bool below;
    } steps[] = {{0, 0, 1, "0", false}, {2, 1, 1, "", false},  {0, 0, 2, "10", false},
                 {2, 1, 2, "11", true}, {0, 0, 3, "11", true}, {2, 1, 3, "", true}};
    for (const Step &s : steps) {
      // A marker bit 1 after the coded bits shows how many were written.
      PacketBitWriter w;
      const bool below = t.encode(w, s.x, s.y, s.threshold);
      w.bit(1);
      const Bytes b = w.finish();
      const std::string want = std::string(s.bits) + "1";
      CHECK_MSG(
          below == s.below && b.size() == 1 && bits_of(b, want.size()) == want && (b[0] & (0xFF >> want.size())) == 0,
          "leaf (%u,%u) at %u: %s (below %d), expected %s (below %d)", s.x, s.y, s.threshold, bits_of(b, 8).c_str(),
          below, want.c_str(), s.below);
    }
  }
}

// ---------------------------------------------------------------------------
// 3. Table B.4, Lblock, and two headers by hand.

static void passes_codewords() {
  struct Case {
    std::uint32_t passes;
    const char *bits;
  } cases[] = {{1, "0"},
               {2, "10"},
               {3, "1100"},
               {4, "1101"},
               {5, "1110"},
               {6, "111100000"},
               {36, "111111110"},  // 1111 + 30 in 5 bits
               {37, "1111111110000000"},
               {164, "1111111111111111"}};  // 1111 11111 + 127 in 7 bits
  for (const Case &c : cases) {
    const PassesCode code = passes_codeword(c.passes);
    std::string s;
    for (unsigned i = code.length; i-- > 0;) s += (code.bits >> i & 1) ? '1' : '0';
    CHECK_MSG(s == c.bits, "%u passes: %s, Table B.4 says %s", c.passes, s.c_str(), c.bits);
  }
  bool threw = false;
  try {
    passes_codeword(165);
  } catch (const cf::Error &) {
    threw = true;
  }
  CHECK_MSG(threw, "165 passes accepted");
}

static void lblock_by_hand() {
  // bits = Lblock + k + floor(log2(passes)) must hold `bytes`.
  struct Case {
    std::uint32_t lblock, passes, bytes, k;
  } cases[] = {
      {3, 1, 0, 0},    {3, 1, 7, 0},   // 3 bits hold 0..7
      {3, 1, 8, 1},                    // 8 needs 4 bits
      {3, 2, 15, 0},   {3, 2, 16, 1},  // 2 passes: 3 + 1 bits
      {3, 5, 32, 1},                   // floor(log2 5) = 2: 5 bits, 32 needs 6
      {3, 37, 255, 0},                 // floor(log2 37) = 5: 8 bits
      {4, 1, 1000, 6},                 // 1000 needs 10 bits
      {10, 1, 1, 0},                   // Lblock never shrinks
  };
  for (const Case &c : cases)
    CHECK_MSG(lblock_increment(c.lblock, c.passes, c.bytes) == c.k, "Lblock %u, %u passes, %u bytes: k %u, expected %u",
              c.lblock, c.passes, c.bytes, lblock_increment(c.lblock, c.passes, c.bytes), c.k);
}

static CodeBlockPlan block(std::uint32_t zero_bitplanes, std::vector<std::uint32_t> passes,
                           std::vector<std::uint32_t> bytes, std::uint8_t fill) {
  CodeBlockPlan cb{zero_bitplanes, std::move(passes), std::move(bytes), {}, {}, {}};
  std::uint32_t total = 0;
  for (std::uint32_t b : cb.bytes) total += b;
  for (std::uint32_t i = 0; i < total; ++i) cb.data.push_back(std::uint8_t(fill + i));
  return cb;
}

// An LL precinct of 2 x 1 code-blocks, two layers:
//   A: 0 zero bit-planes, layer 0: 1 pass of 3 bytes; layer 1: nothing.
//   B: 1 zero bit-plane, layer 0: nothing; layer 1: 3 passes of 10 bytes.
// Inclusion tree: leaves 0, 1 (A in layer 0, B in layer 1), root 0.
// Zero bit-plane tree: leaves 0, 1, root 0.
// Layer 0: 1 (not empty)
//   A: inclusion at 1: root 1, leaf 1 -> 11; zero planes: root 1, leaf 1 -> 11;
//      passes 1 -> 0; Lblock 3, 3 bytes fit 3 bits: k = 0 -> 0; length 011
//   B: inclusion at 1: root known, leaf 0 (> 0) -> 0
//   = 1 11 11 0 0 011 0 -> 11111000 110(00000) = F8 C0, then A's 3 bytes.
// Layer 1: 1
//   A: included before, nothing new -> 0
//   B: inclusion at 2: leaf from 1: 1; zero planes: leaf 0 1;
//      passes 3 -> 1100; 4 bits (3 + log2 3) hold 10: 0; length 1010
//   = 1 0 1 01 1100 0 1010 -> 10101110 001010(00) = AE 28, then B's 10 bytes.
static void headers_by_hand() {
  PrecinctPlan plan{2, {PrecinctSubband{2, 1, {block(0, {1, 0}, {3, 0}, 0x10), block(1, {0, 3}, {0, 10}, 0x40)}}}};
  PrecinctPacketWriter pw(plan);
  ByteWriter w;
  CHECK(pw.write_next(w, {}) == 2);
  check_bytes(w.bytes(), {0xF8, 0xC0, 0x10, 0x11, 0x12}, "layer 0 packet");
  ByteWriter w1;
  CHECK(pw.write_next(w1, {true, true, 7}) == 2);
  Bytes want{0xFF, 0x91, 0x00, 0x04, 0x00, 0x07, 0xAE, 0x28, 0xFF, 0x92};
  for (int i = 0; i < 10; ++i) want.push_back(std::uint8_t(0x40 + i));
  check_bytes(w1.bytes(), want, "layer 1 packet with SOP and EPH");
  bool threw = false;
  try {
    pw.write_next(w1, {});
  } catch (const cf::Error &) {
    threw = true;
  }
  CHECK_MSG(threw, "a third packet of a two-layer precinct");

  // No block contributes: the empty packet, the single bit 0 (B.10.3).
  PrecinctPlan none{1, {PrecinctSubband{1, 1, {block(0, {0}, {0}, 0)}}}};
  ByteWriter e;
  PrecinctPacketWriter(none).write_next(e, {});
  check_bytes(e.bytes(), {0x00}, "empty packet");

  // Inconsistent plans are refused, naming what is wrong.
  PrecinctPlan bad = plan;
  bad.subbands[0].blocks[1].bytes[0] = 1;
  bad.subbands[0].blocks[1].data.push_back(0);
  const std::string why = precinct_plan_check(bad);
  CHECK_MSG(why.find("bytes without coding passes") != std::string::npos, "check said: %s", why.c_str());
  bad = plan;
  bad.subbands[0].width = 3;
  CHECK(!precinct_plan_check(bad).empty());
  bad = plan;
  bad.subbands[0].blocks[0].data.pop_back();
  CHECK(!precinct_plan_check(bad).empty());
}

// Several codeword segments (B.10.7.2), one LL block of one layer, 12
// passes in two segments as bypass makes them: passes 0-9 (20 bytes), 10-11
// (3 bytes).
//   1 (not empty), inclusion 1, zero bit-planes (0) 1,
//   12 passes: 1111 00110, Lblock 0,
//   20 in 3 + floor(log2 10) = 6 bits: 010100, 3 in 3 + 1 = 4 bits: 0011
//   = 11111110 01100010 1000011(0) = FE 62 86.
// With 70 bytes in the first segment it needs 7 bits: Lblock + 1 (10), and
// the second length takes 5 bits:
//   111 111100110 10 1000110 00011 = 11111110 01101010 00110000 11(000000)
//   = FE 6A 30 C0.
static void segment_headers_by_hand() {
  for (std::uint32_t first : {20u, 70u}) {
    CodeBlockPlan cb = block(0, {12}, {first + 3}, 0x30);
    cb.ends_segment.assign(12, 0);
    cb.ends_segment[9] = cb.ends_segment[11] = 1;
    for (std::uint32_t p = 0; p < 12; ++p) cb.pass_lengths.push_back(p < 10 ? first * (p + 1) / 10 : first + p - 9);
    cb.pass_lengths[11] = first + 3;
    PrecinctPacketWriter pw(PrecinctPlan{1, {PrecinctSubband{1, 1, {cb}}}});
    ByteWriter w;
    pw.write_next(w, {});
    Bytes want = first == 20 ? Bytes{0xFE, 0x62, 0x86} : Bytes{0xFE, 0x6A, 0x30, 0xC0};
    for (std::uint32_t i = 0; i < first + 3; ++i) want.push_back(std::uint8_t(0x30 + i));
    check_bytes(w.bytes(), want, first == 20 ? "two segments" : "two segments, Lblock 4");
  }
  // Flags or lengths that do not fit the passes are refused.
  CodeBlockPlan cb = block(0, {3, 2}, {10, 5}, 0);
  cb.ends_segment = {0, 0, 1, 0, 1};
  cb.pass_lengths = {2, 5, 10, 12, 15};
  PrecinctPlan plan{2, {PrecinctSubband{1, 1, {cb}}}};
  CHECK_MSG(precinct_plan_check(plan).empty(), "%s", precinct_plan_check(plan).c_str());
  plan.subbands[0].blocks[0].pass_lengths[2] = 9;
  std::string why = precinct_plan_check(plan);
  CHECK_MSG(why.find("layer 0 ends at pass 2") != std::string::npos, "check said: %s", why.c_str());
  plan.subbands[0].blocks[0].pass_lengths = {2, 5, 10, 12};
  why = precinct_plan_check(plan);
  CHECK_MSG(why.find("one entry per coding pass") != std::string::npos, "check said: %s", why.c_str());
  plan.subbands[0].blocks[0].pass_lengths = {6, 5, 10, 12, 15};
  why = precinct_plan_check(plan);
  CHECK_MSG(why.find("below the previous") != std::string::npos, "check said: %s", why.c_str());
}

// ---------------------------------------------------------------------------
// 4. A packet decoder from B.10, independent of the writer.

class BitReader {
 public:
  BitReader(const Bytes &b, std::size_t pos) : b_(b), pos_(pos) {}
  unsigned bit() {
    if (left_ == 0) {
      const bool after_ff = pos_ > start_ && have_ && b_.at(pos_ - 1) == 0xFF;
      cur_ = b_.at(pos_++);
      have_ = true;
      left_ = after_ff ? 7 : 8;
      if (after_ff && (cur_ & 0x80)) bad = true;  // the stuffed bit must be 0
    }
    return cur_ >> --left_ & 1u;
  }
  std::uint32_t bits(unsigned n) {
    std::uint32_t v = 0;
    while (n--) v = v << 1 | bit();
    return v;
  }
  // Where the header ends: after its last byte, and after the byte that
  // follows a last 0xFF.
  std::size_t end() const {
    if (have_ && b_.at(pos_ - 1) == 0xFF) return pos_ + 1;
    return pos_;
  }
  bool bad = false;

 private:
  const Bytes &b_;
  std::size_t pos_, start_ = 0;
  std::uint32_t cur_ = 0;
  unsigned left_ = 0;
  bool have_ = false;
};

class TagTreeDecoder {
 public:
  TagTreeDecoder(std::uint32_t w, std::uint32_t h) {
    while (true) {
      dims_.push_back({w, h});
      nodes_.emplace_back(std::size_t(w) * h);
      if (w <= 1 && h <= 1) break;
      w = (w + 1) / 2, h = (h + 1) / 2;
    }
  }
  // Returns whether leaf (x, y) < threshold; its value once known.
  bool decode(BitReader &r, std::uint32_t x, std::uint32_t y, std::uint32_t threshold, std::uint32_t *value = nullptr) {
    std::uint32_t parent = 0;
    Node *n = nullptr;
    for (std::size_t l = nodes_.size(); l-- > 0;) {
      n = &nodes_[l][std::size_t(y >> l) * dims_[l][0] + (x >> l)];
      if (n->low < parent) n->low = parent;
      while (!n->known && n->low < threshold) {
        if (r.bit())
          n->known = true;
        else
          ++n->low;
      }
      parent = n->low;
    }
    if (value) *value = n->low;
    return n->known && n->low < threshold;
  }

 private:
  struct Node {
    std::uint32_t low = 0;
    bool known = false;
  };
  std::vector<std::array<std::uint32_t, 2>> dims_;
  std::vector<std::vector<Node>> nodes_;
};

static std::uint32_t read_passes(BitReader &r) {
  if (!r.bit()) return 1;
  if (!r.bit()) return 2;
  const std::uint32_t two = r.bits(2);
  if (two != 3) return 3 + two;
  const std::uint32_t five = r.bits(5);
  if (five != 31) return 6 + five;
  return 37 + r.bits(7);
}

struct DecodedBlock {
  bool included = false;
  std::uint32_t lblock = 3;
  std::uint32_t zero_bitplanes = 0;
  std::vector<std::uint32_t> passes, bytes;  // per layer
  Bytes data;
  std::uint32_t passes_read = 0;
  std::vector<std::uint32_t> segment_ends;  // the codeword's length at each end of a segment read
};

struct PrecinctDecoder {
  // The decoder knows where segments end (from the code-block style): it
  // reads the plan's ends_segment flags, nothing else of the plan's blocks.
  explicit PrecinctDecoder(const PrecinctPlan &shape) {
    for (const PrecinctSubband &sb : shape.subbands) {
      std::vector<std::vector<std::uint8_t>> ends;
      for (const CodeBlockPlan &cb : sb.blocks) ends.push_back(cb.ends_segment);
      segment_flags.push_back(ends);
      grids.push_back({sb.width, sb.height});
      inclusion.emplace_back(sb.width, sb.height);
      zeros.emplace_back(sb.width, sb.height);
      blocks.emplace_back(sb.blocks.size());
    }
  }
  // Reads layer `layer`'s packet at `pos`; returns the position after it.
  std::size_t read(const Bytes &s, std::size_t pos, std::uint32_t layer, const PacketMarkers &m, bool &ok) {
    if (m.sop) {
      ok = ok && s.at(pos) == 0xFF && s.at(pos + 1) == 0x91 && s.at(pos + 2) == 0 && s.at(pos + 3) == 4 &&
           s.at(pos + 4) == std::uint8_t(m.sequence >> 8) && s.at(pos + 5) == std::uint8_t(m.sequence);
      pos += 6;
    }
    BitReader r(s, pos);
    std::vector<std::vector<std::uint32_t>> lengths(grids.size());
    const bool nonempty = r.bit();
    for (std::size_t b = 0; b < grids.size(); ++b) {
      lengths[b].assign(blocks[b].size(), 0);
      for (std::uint32_t y = 0; y < grids[b][1]; ++y)
        for (std::uint32_t x = 0; x < grids[b][0]; ++x) {
          DecodedBlock &cb = blocks[b][std::size_t(y) * grids[b][0] + x];
          cb.passes.push_back(0);
          cb.bytes.push_back(0);
          if (!nonempty) continue;
          bool in;
          if (cb.included)
            in = r.bit();
          else
            in = inclusion[b].decode(r, x, y, layer + 1);
          if (!in) continue;
          if (!cb.included) {
            std::uint32_t p = 0;
            while (!zeros[b].decode(r, x, y, p + 1, &cb.zero_bitplanes)) ++p;
            cb.included = true;
          }
          const std::uint32_t passes = read_passes(r);
          while (r.bit()) ++cb.lblock;
          // One length per piece: the passes up to each end of a segment,
          // and those after the last one (B.10.7.2).
          const std::vector<std::uint8_t> &ends = segment_flags[b][std::size_t(y) * grids[b][0] + x];
          std::uint32_t total = 0, count = 0;
          for (std::uint32_t p = cb.passes_read; p < cb.passes_read + passes; ++p) {
            ++count;
            const bool last = p + 1 == cb.passes_read + passes;
            if (!last && (ends.empty() || !ends[p])) continue;
            std::uint32_t lg = 0;
            for (std::uint32_t v = count; v > 1; v >>= 1) ++lg;
            total += r.bits(cb.lblock + lg);
            if (!ends.empty() && ends[p]) cb.segment_ends.push_back(std::uint32_t(cb.data.size()) + total);
            count = 0;
          }
          cb.passes_read += passes;
          cb.passes.back() = passes;
          cb.bytes.back() = lengths[b][std::size_t(y) * grids[b][0] + x] = total;
        }
    }
    ok = ok && !r.bad;
    pos = r.end();
    if (m.eph) {
      ok = ok && s.at(pos) == 0xFF && s.at(pos + 1) == 0x92;
      pos += 2;
    }
    for (std::size_t b = 0; b < grids.size(); ++b)
      for (std::size_t i = 0; i < blocks[b].size(); ++i) {
        const std::uint32_t n = lengths[b][i];
        if (pos + n > s.size()) return ok = false, s.size();
        blocks[b][i].data.insert(blocks[b][i].data.end(), s.begin() + long(pos), s.begin() + long(pos + n));
        pos += n;
      }
    return pos;
  }
  std::vector<std::array<std::uint32_t, 2>> grids;
  std::vector<std::vector<std::vector<std::uint8_t>>> segment_flags;
  std::vector<TagTreeDecoder> inclusion, zeros;
  std::vector<std::vector<DecodedBlock>> blocks;
};

static PrecinctPlan random_plan(std::mt19937 &rng) {
  auto below = [&](std::uint32_t n) { return std::uint32_t(rng() % n); };
  PrecinctPlan p;
  p.layers = 1 + below(6);
  const std::uint32_t bands = below(2) ? 1 : 3;
  for (std::uint32_t s = 0; s < bands; ++s) {
    PrecinctSubband sb;
    sb.width = below(9), sb.height = below(9);  // 0 x 0 up to 8 x 8
    if (below(4) == 0) sb.width = sb.height = 1;
    for (std::uint32_t i = 0; i < sb.width * sb.height; ++i) {
      CodeBlockPlan cb;
      cb.zero_bitplanes = below(4) == 0 ? below(40) : below(4);
      const std::uint32_t first = below(p.layers + 2);  // >= layers: never included
      for (std::uint32_t l = 0; l < p.layers; ++l) {
        std::uint32_t passes = 0, bytes = 0;
        if (l >= first && (l == first || below(3) != 0)) {
          const std::uint32_t kind = below(8);
          passes = kind == 0 ? 37 + below(128) : kind == 1 ? 6 + below(31) : 1 + below(5);
          bytes = below(5) == 0 ? below(70000) : below(5) == 0 ? 0 : below(300);
        }
        cb.passes.push_back(passes);
        cb.bytes.push_back(bytes);
        for (std::uint32_t k = 0; k < bytes; ++k) cb.data.push_back(std::uint8_t(rng()));
      }
      if (below(2) == 0) {  // several codeword segments: random ends, rising lengths
        std::uint32_t sent = 0;
        for (std::uint32_t l = 0; l < p.layers; ++l) {
          std::uint32_t at = sent;
          sent += cb.bytes[l];
          for (std::uint32_t i = 0; i < cb.passes[l]; ++i) {
            const bool last = i + 1 == cb.passes[l];
            if (!last) at += below(sent - at + 1) / 2;
            cb.ends_segment.push_back(below(3) == 0 ? 1 : 0);
            cb.pass_lengths.push_back(last ? sent : at);
          }
        }
      }
      sb.blocks.push_back(std::move(cb));
    }
    p.subbands.push_back(std::move(sb));
  }
  return p;
}

static void round_trips() {
  std::mt19937 rng(20240611);
  int packets = 0, empty = 0;
  std::size_t segments = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const PrecinctPlan plan = random_plan(rng);
    PrecinctPacketWriter pw(plan);
    ByteWriter w;
    std::vector<PacketMarkers> marks;
    for (std::uint32_t l = 0; l < plan.layers; ++l) {
      const PacketMarkers m{rng() % 2 == 0, rng() % 2 == 0, std::uint32_t(trial * 7 + l)};
      const std::size_t before = w.size();
      pw.write_next(w, m);
      marks.push_back(m);
      ++packets;
      if (w.size() - before == 1u + (m.sop ? 6 : 0) + (m.eph ? 2 : 0)) ++empty;
    }
    PrecinctDecoder dec(plan);
    std::size_t pos = 0;
    bool ok = true;
    for (std::uint32_t l = 0; l < plan.layers && ok; ++l) pos = dec.read(w.bytes(), pos, l, marks[l], ok);
    ok = ok && pos == w.size();
    for (std::size_t s = 0; s < plan.subbands.size() && ok; ++s)
      for (std::size_t b = 0; b < plan.subbands[s].blocks.size() && ok; ++b) {
        const CodeBlockPlan &want = plan.subbands[s].blocks[b];
        const DecodedBlock &got = dec.blocks[s][b];
        bool ever = false;
        for (std::uint32_t p : want.passes) ever = ever || p > 0;
        std::vector<std::uint32_t> want_ends;
        for (std::size_t p = 0; p < want.ends_segment.size(); ++p)
          if (want.ends_segment[p]) want_ends.push_back(want.pass_lengths[p]);
        ok = got.passes == want.passes && got.bytes == want.bytes && got.data == want.data && got.included == ever &&
             (!ever || got.zero_bitplanes == want.zero_bitplanes) && got.segment_ends == want_ends;
        segments += want_ends.size();
      }
    CHECK_MSG(ok, "trial %d: %u layers, %zu subbands: the decoder reads back something else", trial, plan.layers,
              plan.subbands.size());
    if (!ok) return;
  }
  CHECK_MSG(empty > 20, "only %d empty packets in the round trips", empty);
  CHECK_MSG(segments > 1000, "only %zu segment ends in the round trips", segments);
  std::printf("%d packets read back (%d empty), %zu segment lengths\n", packets, empty, segments);
}

// ---------------------------------------------------------------------------
// 5. OpenJPEG decodes one code-block of one cleanup pass.
//
// A 1x1 8-bit image, 0 decomposition levels, reversible: the LL band has
// epsilon = 8, so Mb = guard bits + epsilon - 1 = 9 magnitude bit-planes
// (T.800 E.1.1.1). Sample 128 +- 1 is coefficient +-1 after the DC shift:
// 8 leading zero bit-planes, and one cleanup pass on bit-plane 0. In a
// block one sample high the stripe column is not a full column of 4, so no
// run-length coding: the pass codes significance 1 in context 0 (no
// significant neighbour; state 4 at the start, Table D.7), then the sign in
// context 9 (no neighbours, XOR bit 0: Table D.3; state 0) as the sign
// itself. FLUSH ends the codeword.

static Bytes one_pass_codeword(int negative) {
  std::uint8_t buf[16];
  MqEncoder mq;
  mq.init(buf, sizeof buf);
  MqContext significance = mq_context(4, 0), sign = mq_context(0, 0);
  mq.encode(significance, 1);
  mq.encode(sign, negative);
  mq.flush();
  return Bytes(buf, buf + mq.bytes());
}

static Bytes one_sample_codestream(int negative) {
  CodestreamParams p = one_tile_image(1, 1, {Component{8, false, 1, 1}});
  p.levels = 0;
  ByteWriter w;
  write_main_header(w, p, reversible_steps(8, 0), kEncoderComment);
  const std::size_t sot = begin_tile_part(w, 0, 0, 1);
  write_sod(w);
  const Bytes cw = one_pass_codeword(negative);
  CodeBlockPlan cb{8, {1}, {std::uint32_t(cw.size())}, cw, {}, {}};
  PrecinctPacketWriter pw(PrecinctPlan{1, {PrecinctSubband{1, 1, {cb}}}});
  const std::size_t at = w.size();
  pw.write_next(w, {});
  // By hand: 1 (not empty), inclusion 1, zero bit-planes 00000000 1,
  // passes 0, Lblock 0, length in 3 bits: 1100 0000 0010 0LLL.
  if (cw.size() < 8) {
    const Bytes head(w.bytes().begin() + long(at), w.bytes().begin() + long(at + 2));
    check_bytes(head, {0xC0, std::uint8_t(0x20 | cw.size())}, "the packet header of one pass");
  }
  end_tile_part(w, sot);
  write_eoc(w);
  return w.bytes();
}

// 6. OpenJPEG decodes a code-block of several codeword segments (bypass,
// restart) sent in two layers, the first cut inside a segment: a 29 x 23
// 8-bit image, 0 decomposition levels, one code-block coded by
// t1::encode_block, the packets written by PrecinctPacketWriter, COD
// carrying the style. The whole image must come back.
static void opj_segments(const std::string &dir) {
  const std::uint32_t w = 29, h = 23;
  Bytes image(w * h);
  std::mt19937 rng(11);
  for (std::uint32_t i = 0; i < w * h; ++i) image[i] = std::uint8_t((i % w) * 7 + (i / w) * 3 + rng() % 40);
  namespace t1 = cf::j2k::t1;
  const unsigned styles[] = {0x00, 0x01, 0x04, 0x05, 0x15, 0x23, 0x3F};
  int count = 0;
  for (unsigned style : styles)
    for (int split : {3, 10, 11, 12, 16}) {
      CodestreamParams p = one_tile_image(w, h, {Component{8, false, 1, 1}});
      p.levels = 0;
      p.layers = 2;
      p.cb_style = std::uint8_t(style);
      const std::vector<SubbandStep> steps = reversible_steps(8, 0);
      const int mb = int(p.guard_bits + steps[0].exponent) - 1;  // T.800 E.1.1.2
      std::vector<std::int32_t> coeff(image.begin(), image.end());
      for (std::int32_t &c : coeff) c -= 128;  // the DC level shift
      std::vector<std::uint8_t> work(t1::block_work_bytes(int(w), int(h))), out(8192);
      std::vector<int> lengths(t1::max_pass_count(mb));
      const t1::BlockInput in{coeff.data(), int(w), int(h), int(w), t1::Orientation::LL, mb, style};
      const t1::BlockResult r = t1::encode_block(
          in, {work.data(), out.data(), int(out.size()), lengths.data(), int(lengths.size()), nullptr});
      CHECK_MSG(r.status == t1::BlockStatus::kOk && r.passes > split, "style 0x%02X: status %d, %d passes", style,
                int(r.status), r.passes);
      if (r.status != t1::BlockStatus::kOk || r.passes <= split) return;
      CodeBlockPlan cb;
      cb.zero_bitplanes = std::uint32_t(r.zero_bitplanes);
      cb.passes = {std::uint32_t(split), std::uint32_t(r.passes - split)};
      cb.bytes = {std::uint32_t(lengths[split - 1]), std::uint32_t(r.bytes - lengths[split - 1])};
      cb.data.assign(out.begin(), out.begin() + r.bytes);
      for (int q = 0; q < r.passes; ++q) {
        cb.ends_segment.push_back(t1::pass_ends_segment(style, q, r.passes) ? 1 : 0);
        cb.pass_lengths.push_back(std::uint32_t(lengths[q]));
      }
      ByteWriter wr;
      write_main_header(wr, p, steps, kEncoderComment);
      const std::size_t sot = begin_tile_part(wr, 0, 0, 1);
      write_sod(wr);
      PrecinctPacketWriter pw(PrecinctPlan{2, {PrecinctSubband{1, 1, {cb}}}});
      pw.write_next(wr, {});
      pw.write_next(wr, {});
      end_tile_part(wr, sot);
      write_eoc(wr);

      const std::string j2k = dir + "/segments_" + std::to_string(style) + "_" + std::to_string(split) + ".j2k";
      std::ofstream(j2k, std::ios::binary)
          .write(reinterpret_cast<const char *>(wr.bytes().data()), std::streamsize(wr.size()));
      std::string log;
      const int rc = cft::run_command("opj_decompress -i '" + j2k + "' -o '" + j2k + ".pgm'", log);
      CHECK_MSG(rc == 0 && log.find("[ERROR]") == std::string::npos && log.find("[WARNING]") == std::string::npos,
                "%s: opj_decompress (%d):\n%s", j2k.c_str(), rc, log.c_str());
      std::uint32_t gw = 0, gh = 0;
      const Bytes got = cft::read_pgm8(j2k + ".pgm", gw, gh);
      std::size_t differ = got.size() == image.size() ? 0 : image.size();
      for (std::size_t i = 0; i < got.size() && i < image.size(); ++i) differ += got[i] != image[i];
      CHECK_MSG(gw == w && gh == h && differ == 0, "%s (style 0x%02X, %d passes, split after %d): %ux%u, %zu differ",
                j2k.c_str(), style, r.passes, split, gw, gh, differ);
      ++count;
    }
  std::printf("%d two-layer codestreams of segmented code-blocks decoded by opj_decompress\n", count);
}

static int opj_one_pass() {
  std::string out;
  if (!cft::have_tool("opj_decompress")) {
    std::printf("SKIP: opj_decompress not found (Debian package libopenjp2-tools): packets not decoded\n");
    return cft::kSkip;
  }
  std::string dir = (std::filesystem::temp_directory_path() / "cf_j2k_tier2_XXXXXX").string();
  if (!mkdtemp(dir.data())) {
    CHECK_MSG(false, "cannot make a temporary directory");
    return 0;
  }
  for (int negative = 0; negative < 2; ++negative) {
    const std::string j2k = dir + "/one" + std::to_string(negative) + ".j2k", pgm = j2k + ".pgm";
    const Bytes cs = one_sample_codestream(negative);
    std::ofstream(j2k, std::ios::binary).write(reinterpret_cast<const char *>(cs.data()), std::streamsize(cs.size()));
    const int rc = cft::run_command("opj_decompress -i '" + j2k + "' -o '" + pgm + "'", out);
    CHECK_MSG(rc == 0 && out.find("[ERROR]") == std::string::npos && out.find("[WARNING]") == std::string::npos,
              "opj_decompress (%d):\n%s", rc, out.c_str());
    std::uint32_t w = 0, h = 0;
    const Bytes got = cft::read_pgm8(pgm, w, h);
    const int sample = got.empty() ? -1 : got[0];
    const int want = negative ? 127 : 129;
    CHECK_MSG(w == 1 && h == 1 && sample == want, "%s: %ux%u 8-bit PGM, sample %d, expected %d", j2k.c_str(), w, h,
              sample, want);
  }
  std::printf("one-pass code-blocks decoded by opj_decompress\n");
  opj_segments(dir);
  if (!cft::failures()) std::filesystem::remove_all(dir);
  return 0;
}

int main() {
  bit_writer_stuffing();
  tag_tree_by_hand();
  passes_codewords();
  lblock_by_hand();
  headers_by_hand();
  segment_headers_by_hand();
  round_trips();
  if (cft::failures()) return cft::test_result();
  const int skip = opj_one_pass();
  if (skip && !cft::failures()) return skip;
  return cft::test_result();
}
