// JPEG 2000 rate allocation: post-compression rate-distortion optimisation
// (PCRD, T.800 Annex J.14's informative description of EBCOT), choosing
// for every quality layer how many coding passes of each code-block it
// holds. Host-only, internal to core/.
//
// Per block, the truncation points are (0, 0) and (L_k, D_k) for k passes:
// L_k the codeword's length after pass k, D_k the weighted squared error
// passes 1..k remove. Points of equal length count as one, the one of most
// passes: a point whose next pass adds 0 bytes is not a truncation point,
// nor is a point of length 0 other than (0, 0). The candidates are the
// vertices of the upper convex hull from (0, 0): slopes dD/dL strictly
// positive and strictly decreasing. The hull is built from the blocks'
// integers (the weight is a common factor of one block), so it is exact.
//
// Every hull segment of every block (from one hull point to the next) gets
// its weighted slope weight * dD / dL; the segments are ordered by slope,
// largest first, ties by block then segment, a total order, so a block's
// segments come in their own order. A block's passes after its last hull
// vertex (they remove no more error) form one last segment, ordered after
// all others, so a budget that fits everything keeps every pass. A layer
// with budget B holds the longest prefix of that order whose bytes do not
// exceed B: every segment above the prefix's last slope is in it, none
// below, so unless it reaches the trailing segments no choice of truncation
// points of at most its bytes removes more error (the Lagrangian argument:
// each block's point maximises D - lambda L).
//
// Only integer sums and per-segment quotients are computed: the result does
// not depend on threads or summation order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/codec/j2k_coded_blocks.hpp"
#include "core/codec/j2k_layout.hpp"
#include "core/codec/j2k_radix_order.hpp"
#include "core/codec/j2k_tier2.hpp"

namespace cf::j2k {

// One code-block as rate allocation sees it.
struct RateBlock {
  int passes = 0;                            // 0..kMaxPasses
  const std::int32_t *lengths = nullptr;     // passes entries: codeword length after each pass, non-decreasing
  const std::int64_t *distortion = nullptr;  // passes entries: squared error each pass removes
  double weight = 1.0;  // finite, >= 0: converts the block's distortion units into image squared error
};

// Per block of `l`: its subband's weight (band_weights by step index),
// scaled back by the block's distortion shift (blocks of more than 24
// planes count distortion in units of 4^s).
std::vector<double> block_weights(const Layout &l, const std::vector<double> &band_weights, const CodedBlocks &coded);

// Block b of `coded` with weight weights[b] (one value per subband,
// repeated for its blocks).
std::vector<RateBlock> rate_blocks(const CodedBlocks &coded, const std::vector<double> &weights);
void rate_blocks(const CodedBlocks &coded, const std::vector<double> &weights, std::vector<RateBlock> &out);

// A hull point: `passes` coding passes, `bytes` of codeword, and the
// squared error they remove, in the block's own units (unweighted, exact).
struct HullPoint {
  int passes = 0;
  std::int64_t bytes = 0;
  __int128 distortion = 0;
};

// Block b's truncation points, (0 passes) first: the convex hull described
// above, in order of rising length. Throws cf::Error on a bad block.
std::vector<HullPoint> block_hull(const RateBlock &block);

// The blocks' hull segments in allocation order, built once so that a
// caller shrinking budgets after measuring packet headers can allocate
// again cheaply. An encoder keeps one and builds it again each frame: its
// arrays keep their room.
class RateHulls {
 public:
  RateHulls() = default;
  // Throws cf::Error naming the block and the rule when a block is bad
  // (passes out of range, lengths negative or decreasing, a missing array,
  // a weight negative or not finite).
  explicit RateHulls(const std::vector<RateBlock> &blocks) { build(blocks); }
  void build(const std::vector<RateBlock> &blocks);

  std::size_t block_count() const { return block_count_; }
  // Code-block bytes of every pass of every block.
  std::uint64_t total_bytes() const { return prefix_bytes_.back(); }

  struct Segment {
    double slope;  // weighted dD/dL; -infinity for a block's trailing passes
    std::uint32_t block;
    std::uint32_t passes;  // the block's cumulative passes once the segment is in
    std::uint32_t bytes;   // the block's cumulative bytes once the segment is in
  };
  const std::vector<Segment> &segments() const { return segments_; }
  // Bytes of the first i segments, i = 0..segments().size().
  const std::vector<std::uint64_t> &prefix_bytes() const { return prefix_bytes_; }

 private:
  void sort_by_falling_slope();

  std::size_t block_count_ = 0;
  std::vector<Segment> segments_;
  std::vector<std::uint64_t> prefix_bytes_;
  // Room reused from build to build.
  std::vector<HullPoint> hull_;
  RadixOrder order_;
  std::vector<std::uint32_t> block_bytes_;
  std::vector<Segment> sorted_;
};

// An encoder's rate allocation from frame to frame: the blocks as rate
// allocation sees them and their hulls, built again in the same room.
struct RateRoom {
  std::vector<RateBlock> blocks;
  RateHulls hulls;
  // The hulls of `coded`'s blocks with their weights (rate_blocks).
  const RateHulls &build(const CodedBlocks &coded, const std::vector<double> &weights) {
    rate_blocks(coded, weights, blocks);
    hulls.build(blocks);
    return hulls;
  }
};

struct RateAllocation {
  std::size_t layers = 0;
  // Block b's cumulative passes in layers 0..l at [b * layers + l]:
  // non-decreasing in l, always a hull point (or every pass).
  std::vector<std::uint32_t> passes;
  // Block b's cumulative bytes at the same index.
  std::vector<std::uint32_t> bytes;
  // Per layer: the code-block bytes of layers 0..l.
  std::vector<std::uint64_t> layer_bytes;
  // Per layer: the slope of the last segment it holds (+infinity when it
  // holds none): every segment of a larger slope is in, none of a smaller.
  std::vector<double> threshold;

  std::uint32_t passes_at(std::size_t block, std::size_t layer) const { return passes[block * layers + layer]; }
  std::uint32_t bytes_at(std::size_t block, std::size_t layer) const { return bytes[block * layers + layer]; }
};

// Empty when the budgets are usable (1..65535 layers, T.800 A.6.1's Layers;
// non-decreasing), otherwise a message naming what is wrong.
std::string layer_budgets_check(const std::vector<std::size_t> &layer_budgets);

// layer_budgets[l]: the most code-block bytes layers 0..l may hold
// together (non-decreasing; SIZE_MAX or anything >= total_bytes() holds
// every pass). Throws cf::Error with layer_budgets_check's message.
RateAllocation allocate_layers(const RateHulls &hulls, const std::vector<std::size_t> &layer_budgets);
// The same from the blocks (builds the hulls).
RateAllocation allocate_layers(const std::vector<RateBlock> &blocks, const std::vector<std::size_t> &layer_budgets);

// Tops up the last layer of `a` (made by allocate_layers from `hulls`):
// the segments the slope order stopped at are too big for what is left,
// but later ones, each the next segment of its block, may fit; they are
// added in slope order while `budget` allows. A rate target is then met to
// within a segment of a small block rather than one of the largest. The
// earlier layers are left as they are.
void fill_last_layer(const RateHulls &hulls, std::uint64_t budget, RateAllocation &a);

// Budgets without a rate target: layer l ends at (l + 1) / layers of
// total_bytes (rounded down; the last is total_bytes).
std::vector<std::size_t> even_layer_budgets(std::uint64_t total_bytes, std::size_t layers);

// Block b's share of each layer for tier-2: fills plan.passes and
// plan.bytes (new passes and bytes per layer) from the allocation.
void set_layer_contributions(const RateAllocation &allocation, std::size_t block, CodeBlockPlan &plan);

}  // namespace cf::j2k
