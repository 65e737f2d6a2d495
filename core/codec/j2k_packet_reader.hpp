// Tier-2 decoding of one tile (T.800 B.9, B.10): the packet headers, read
// in the tile's packet order, tell each code-block's inclusion, its zero
// bit-planes, its new coding passes and their lengths; the bodies hold the
// bytes. Internal to core/.
//
// A corrupt or truncated tile is read as far as it goes: what the packets
// before the damage gave stays, and TileCodewords::problem says where
// reading stopped (the decoder then decodes what it has, as T.800 allows
// for a truncated codestream).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/codec/j2k_header.hpp"
#include "core/codec/j2k_radix_order.hpp"
#include "core/codec/j2k_tile_plan.hpp"

namespace cf::j2k {

// Bits of a packet header, most significant first; after a byte of 0xFF
// the next byte holds 7 (its top bit is a stuffed 0, B.10.1).
class PacketBitReader {
 public:
  PacketBitReader(const std::uint8_t *data, std::size_t size) : data_(data), size_(size) {}
  // Throws PacketTruncated past the end.
  unsigned bit();
  std::uint32_t bits(unsigned count);  // count <= 32
  // Ends the header: the next byte is the first after it (a header ending
  // in 0xFF is followed by the byte its stuffed bit starts). Returns the
  // header's bytes.
  std::size_t finish();

 private:
  const std::uint8_t *data_;
  std::size_t size_, pos_ = 0;
  unsigned byte_ = 0, left_ = 0;
};

struct PacketTruncated {};

// A tag tree (B.10.2) being decoded: the decoder learns each node's value
// bit by bit, a node's value never below its parent's. A node's lower
// bound is raised to its parent's only when it is visited (the same
// answers as raising it at every visit, since a parent's bound only
// rises), so that only nodes whose bits were read need storing: a tree of
// more than kDenseLeaves leaves keeps those alone, a smaller one every node.
class TagTreeDecoder {
 public:
  static constexpr std::uint32_t kDenseLeaves = 1024;
  TagTreeDecoder() = default;
  TagTreeDecoder(std::uint32_t width, std::uint32_t height);
  // Reads what is needed to know whether leaf (x, y) is below `threshold`.
  // When it is not, *excluded_at (if given) gets the level of the highest
  // node on its path whose bound now reaches `threshold`: every other leaf
  // under that node then answers false to `threshold` without reading a
  // bit or changing anything, so a caller may pass over them.
  bool below(PacketBitReader &in, std::uint32_t x, std::uint32_t y, std::uint32_t threshold,
             int *excluded_at = nullptr);
  // The leaf's value, read whole; refused (throws PacketTruncated) above `limit`.
  std::uint32_t value(PacketBitReader &in, std::uint32_t x, std::uint32_t y, std::uint32_t limit);

 private:
  // A node: its lower bound (bits 0..30) and whether it is its value (bit 31).
  static constexpr std::uint32_t kKnown = 0x80000000u;
  struct Level {
    std::uint32_t width = 0, height = 0;
    std::vector<std::uint32_t> nodes;                       // dense trees
    std::unordered_map<std::uint32_t, std::uint32_t> read;  // sparse trees: the nodes with bits read
  };
  std::vector<Level> levels_;
  bool dense_ = true;
};

// What tier-2 gives tier-1 for one code-block.
struct BlockCodeword {
  std::uint32_t index = 0;  // the tile's code-block number (PlanBand::first_block)
  PlanBlock block;          // where it lies
  std::uint32_t zero_bitplanes = 0;
  std::uint32_t passes = 0;                    // coding passes of the layers kept
  std::vector<ByteSpan> chunks;                // its bytes in TileCodewords::data, in order
  std::vector<std::uint32_t> segment_lengths;  // its codeword segments (B.10.7.2), adding up to the chunks
  // Tier-2's state of the block (it is in the list once included).
  std::uint32_t lblock = 3;
  std::uint32_t passes_read = 0;  // over every layer read
  bool segment_open = false;      // the last segment goes on in the next contribution
  std::uint32_t ht_cleanup = 0;   // HT code-blocks: the cleanup pass, after the placeholders of the first contribution
};

struct TileCodewords {
  // The tile's packet data: its one tile-part where the codestream holds it
  // (read in place, the codestream outliving this), or its tile-parts
  // joined in `joined`.
  const std::uint8_t *data = nullptr;
  std::size_t size = 0;
  std::vector<std::uint8_t> joined;
  // The code-blocks the packets read include, by number; the others have
  // no pass (their coefficients are zero).
  std::vector<BlockCodeword> blocks;
  std::size_t bytes_read = 0;  // of `data`, by the packets read
  std::string problem;         // empty, or why reading stopped early
  // The reader's own: the sort by number, and the blocks' room while it runs.
  RadixOrder by_index;
  std::vector<BlockCodeword> sorting;
};

// Reads every packet of `tile`; contributions of layers from `layers_kept`
// on are read (the later packets need them) but not kept. What it holds
// besides the bytes grows with the packets read: a precinct's tag trees
// are made at its first packet, a code-block's state at its first
// inclusion.
TileCodewords read_tile_packets(const std::uint8_t *codestream, const Header &h, const TilePlan &plan,
                                const ResolvedTile &coding, std::uint32_t layers_kept);
// The same into `out`, reusing what it holds from an earlier tile (a
// decoder's frame after frame): its block list's entries and their lists
// keep their room.
void read_tile_packets(const std::uint8_t *codestream, const Header &h, const TilePlan &plan,
                       const ResolvedTile &coding, std::uint32_t layers_kept, TileCodewords &out);

}  // namespace cf::j2k
