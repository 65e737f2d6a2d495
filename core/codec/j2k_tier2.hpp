// JPEG 2000 Part 1 tier-2 coding (ITU-T T.800 | ISO/IEC 15444-1, Annex B.9
// and B.10): packet headers and packet bodies, internal to core/.
//
// A packet holds the contributions of one layer of the code-blocks of one
// precinct of one resolution of one component. Its header says, per
// code-block: whether it contributes (inclusion), for its first
// contribution the number of leading zero bit-planes, how many coding passes
// it adds and how many bytes they take; the body then holds those bytes.
//
// The input is a plain description (PrecinctPlan): per code-block and per
// layer the new passes and bytes, fixed by tier-1 and rate allocation before
// any packet is written, since the inclusion tag tree codes, for every
// code-block, the first layer it contributes to.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/codec/j2k_markers.hpp"

namespace cf::j2k {

// Bits of a packet header, most significant first (B.10.1). After a byte of
// 0xFF the next byte carries only 7 bits: its top bit is a stuffed 0, so no
// marker (0xFF followed by a byte above 0x8F) can appear in a header.
class PacketBitWriter {
 public:
  void bit(unsigned b);
  // The `count` lowest bits of `value`, the highest first (count <= 32).
  void bits(std::uint32_t value, unsigned count);
  // Ends the header: pads the last byte with zeros; when the last byte is
  // 0xFF, appends the byte its stuffed bit starts (a header never ends with
  // 0xFF). Returns the header's bytes; the writer is empty again.
  std::vector<std::uint8_t> finish();

 private:
  std::vector<std::uint8_t> bytes_;
  std::uint32_t current_ = 0;  // bits of the byte being filled
  unsigned filled_ = 0;        // how many
  unsigned room_ = 8;          // its capacity: 7 after a byte of 0xFF
};

// A tag tree (B.10.2) over a grid of width x height non-negative leaf
// values: level 0 is the leaves, each next level holds the minimum of 2x2
// nodes of the one below (ceil halves), the last level is a single root.
// The coder keeps, per node, what the decoder already knows, so that coding
// a leaf against a higher threshold in a later packet sends only new bits.
class TagTree {
 public:
  TagTree() = default;
  // values: width * height leaves in raster order.
  TagTree(std::uint32_t width, std::uint32_t height, const std::vector<std::uint32_t> &values);

  std::size_t level_count() const { return levels_.size(); }
  std::uint32_t level_width(std::size_t level) const { return levels_[level].width; }
  std::uint32_t level_height(std::size_t level) const { return levels_[level].height; }
  std::uint32_t value(std::size_t level, std::uint32_t x, std::uint32_t y) const;

  // Codes "is leaf (x, y)'s value below `threshold`?", with every bit the
  // decoder needs to learn it from what earlier calls told. Returns the
  // answer.
  bool encode(PacketBitWriter &out, std::uint32_t x, std::uint32_t y, std::uint32_t threshold);
  // Codes the leaf's value whole (threshold value + 1).
  void encode_value(PacketBitWriter &out, std::uint32_t x, std::uint32_t y);

 private:
  struct Node {
    std::uint32_t value = 0;
    std::uint32_t low = 0;  // the decoder knows value >= low
    bool known = false;     // the decoder knows value itself (== low)
  };
  struct Level {
    std::uint32_t width = 0, height = 0;
    std::vector<Node> nodes;
  };
  std::vector<Level> levels_;
};

// Table B.4: the codeword of `passes` new coding passes (1..164).
struct PassesCode {
  std::uint32_t bits;  // the codeword, its last bit lowest
  unsigned length;     // in bits
};
PassesCode passes_codeword(std::uint32_t passes);
constexpr std::uint32_t kMaxPassesPerPacket = 164;

// Lblock (B.10.7.1): the state of a code-block's length signalling, 3 at its
// first inclusion. For `bytes` bytes of `passes` new passes in one codeword
// segment, the increment k (coded as k ones and a zero) is the least that
// makes bytes fit Lblock + k + floor(log2(passes)) bits.
constexpr std::uint32_t kInitialLblock = 3;
std::uint32_t lblock_increment(std::uint32_t lblock, std::uint32_t passes, std::uint32_t bytes);
constexpr std::uint32_t floor_log2(std::uint32_t v) {
  std::uint32_t r = 0;
  while (v >>= 1) ++r;
  return r;
}

// One code-block's share of every layer.
struct CodeBlockPlan {
  std::uint32_t zero_bitplanes = 0;  // leading zero bit-planes (B.10.5)
  // Per layer: the coding passes it adds and their bytes (both 0 when it
  // adds nothing; passes > 0 with 0 bytes is allowed).
  std::vector<std::uint32_t> passes;
  std::vector<std::uint32_t> bytes;
  // Its codeword: the bytes of all its layers in order (sum of `bytes`),
  // held here, or where `view` points (below).
  std::vector<std::uint8_t> data;
  // Several codeword segments (B.10.7.2), for a code-block whose style
  // terminates the codeword before its end (restart 0x04, bypass 0x01;
  // t1::pass_ends_segment() says where): per coding pass of the block, in
  // order over the layers, 1 where the pass ends a segment, and the
  // codeword's length after the pass (its truncation point; at a layer's
  // last pass, the bytes of the layers so far). A packet's passes are cut
  // where a segment ends, and each piece gets its own length, in
  // Lblock + floor(log2(its passes)) bits. Both empty: a packet's passes
  // are one piece (a codeword of one segment).
  std::vector<std::uint8_t> ends_segment;
  std::vector<std::uint32_t> pass_lengths;
  // When set, the codeword is the `view_size` bytes there, not `data`: the
  // encoder's plans point into its coded blocks rather than copy every
  // codeword once more before the packets copy it into place.
  const std::uint8_t *view = nullptr;
  std::size_t view_size = 0;

  const std::uint8_t *codeword() const { return view ? view : data.data(); }
  std::size_t codeword_size() const { return view ? view_size : data.size(); }
};

// The code-blocks of one subband inside the precinct: a grid of width x
// height (either may be 0), blocks in raster order.
struct PrecinctSubband {
  std::uint32_t width = 0, height = 0;
  std::vector<CodeBlockPlan> blocks;
};

// A precinct: its subbands in the resolution's order (LL; or HL, LH, HH)
// and the number of layers.
struct PrecinctPlan {
  std::uint32_t layers = 1;
  std::vector<PrecinctSubband> subbands;
};

// Empty when the plan is consistent (grid sizes, one entry per layer,
// passes <= 164 per layer, bytes only with passes, data of the right size,
// segment flags and pass lengths: one per pass, lengths rising and meeting
// each layer's bytes); otherwise a message naming what is wrong.
std::string precinct_plan_check(const PrecinctPlan &plan);

// SOP / EPH (T.800 A.8.1, A.8.2): the SOP marker segment (with Nsop, the
// packet's index in the codestream modulo 2^16) before the packet, the EPH
// marker right after its header.
struct PacketMarkers {
  bool sop = false;
  bool eph = false;
  std::uint32_t sequence = 0;
};

// Writes a precinct's packets, one per layer, in layer order; keeps the
// tag trees and the code-blocks' states between them.
// A piece of a block's contribution to a packet: passes ending a codeword
// segment, or the last ones, and their bytes.
struct PacketPiece {
  std::uint32_t passes, bytes;
};

class PrecinctPacketWriter {
 public:
  // Throws cf::Error with precinct_plan_check's message.
  explicit PrecinctPacketWriter(PrecinctPlan plan);

  // Appends the packet of the next layer (header, then body) to `w`;
  // returns its header's bytes without SOP and EPH. Throws cf::Error
  // past the last layer.
  std::size_t write_next(ByteWriter &w, const PacketMarkers &markers);
  std::uint32_t next_layer() const { return layer_; }
  // The plan it was made from, handed back (for its room) once the
  // writer is no longer needed.
  PrecinctPlan take_plan() && { return std::move(plan_); }

 private:
  struct BlockState {
    bool included = false;
    std::uint32_t lblock = kInitialLblock;
    std::size_t offset = 0;    // bytes of `data` already sent
    std::uint32_t passes = 0;  // coding passes already sent
  };
  PrecinctPlan plan_;
  std::vector<TagTree> inclusion_, zero_bitplanes_;  // per subband
  std::vector<std::vector<BlockState>> states_;      // per subband, per block
  std::vector<PacketPiece> pieces_;                  // write_next's scratch, kept for its capacity
  std::uint32_t layer_ = 0;
};

}  // namespace cf::j2k
