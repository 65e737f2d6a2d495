// JPEG 2000 rate allocation (PCRD): the hull of each block's truncation
// points, the segments in slope order, and the layers as prefixes of it.
#include "j2k_rate.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "cudafilters/error.hpp"

namespace cf::j2k {

namespace {

constexpr std::size_t kMaxLayers = 65535;  // T.800 A.6.1: Layers is 16 bits, at least 1

// Empty when the block is usable, otherwise what is wrong with it.
std::string rate_block_check(const RateBlock &b) {
  if (b.passes < 0 || b.passes > kMaxPasses)
    return std::to_string(b.passes) + " coding passes (0 to " + std::to_string(kMaxPasses) + ")";
  if (!(b.weight >= 0.0) || !std::isfinite(b.weight))
    return "weight " + std::to_string(b.weight) + " (a finite value >= 0)";
  if (b.passes > 0 && (!b.lengths || !b.distortion)) return "no pass lengths or distortions";
  for (int k = 0; k < b.passes; ++k) {
    if (b.lengths[k] < 0) return "pass " + std::to_string(k) + "'s length " + std::to_string(b.lengths[k]) + " < 0";
    if (k > 0 && b.lengths[k] < b.lengths[k - 1])
      return "pass " + std::to_string(k) + "'s length " + std::to_string(b.lengths[k]) + " is below pass " +
             std::to_string(k - 1) + "'s " + std::to_string(b.lengths[k - 1]) + " (lengths are cumulative)";
  }
  return {};
}

// Whether the slope from b to c is at least the slope from a to b (all
// lengths strictly rising). |dD| < 2^70 and dL < 2^31: the products fit.
bool not_steeper(const HullPoint &a, const HullPoint &b, const HullPoint &c) {
  return (c.distortion - b.distortion) * (b.bytes - a.bytes) >= (b.distortion - a.distortion) * (c.bytes - b.bytes);
}

// The hull into `hull` (its capacity reused from block to block).
void hull_of_checked(const RateBlock &block, std::vector<HullPoint> &hull) {
  hull.assign(1, HullPoint{});
  __int128 removed = 0;
  for (int k = 1; k <= block.passes; ++k) {
    removed += block.distortion[k - 1];
    // A pass followed by one that adds no bytes goes with it.
    if (k < block.passes && block.lengths[k] == block.lengths[k - 1]) continue;
    const HullPoint p{k, block.lengths[k - 1], removed};
    if (p.bytes <= hull.back().bytes) continue;  // only (0, 0) can have the same length
    while (hull.size() >= 2 && not_steeper(hull[hull.size() - 2], hull.back(), p)) hull.pop_back();
    if (p.distortion > hull.back().distortion) hull.push_back(p);
  }
}

// A key whose unsigned order is the slope's falling order (slopes are
// never NaN): the bits of a double order like its value once a negative
// one has every bit flipped and a positive one its sign bit set; the
// complement then reverses the order.
std::uint64_t falling_key(double slope) {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &slope, sizeof bits);
  const std::uint64_t rising = (bits >> 63) ? ~bits : bits | (std::uint64_t(1) << 63);
  return ~rising;
}

}  // namespace

std::vector<double> block_weights(const Layout &l, const std::vector<double> &band_weights, const CodedBlocks &coded) {
  std::vector<double> w(l.blocks.size());
  for (std::size_t b = 0; b < l.blocks.size(); ++b)
    w[b] = std::ldexp(band_weights[l.bands[l.blocks[b].band].step_index], 2 * coded.results[b].distortion_shift);
  return w;
}

std::vector<RateBlock> rate_blocks(const CodedBlocks &coded, const std::vector<double> &weights) {
  std::vector<RateBlock> blocks;
  rate_blocks(coded, weights, blocks);
  return blocks;
}

void rate_blocks(const CodedBlocks &coded, const std::vector<double> &weights, std::vector<RateBlock> &blocks) {
  const std::size_t n = coded.results.size();
  if (weights.size() != n)
    throw Error("rate allocation: " + std::to_string(weights.size()) + " weights for " + std::to_string(n) +
                " code-blocks (one each)");
  const std::size_t entries = n * static_cast<std::size_t>(kMaxPasses);
  if (coded.pass_lengths.size() < entries || coded.pass_distortion.size() < entries)
    throw Error("rate allocation: pass arrays of " + std::to_string(coded.pass_lengths.size()) + " and " +
                std::to_string(coded.pass_distortion.size()) + " entries for " + std::to_string(n) +
                " code-blocks (kMaxPasses each)");
  blocks.resize(n);
  for (std::size_t b = 0; b < n; ++b)
    blocks[b] = RateBlock{coded.results[b].passes, coded.pass_lengths.data() + b * kMaxPasses,
                          coded.pass_distortion.data() + b * kMaxPasses, weights[b]};
}

std::vector<HullPoint> block_hull(const RateBlock &block) {
  const std::string why = rate_block_check(block);
  if (!why.empty()) throw Error("rate allocation: code-block with " + why);
  std::vector<HullPoint> hull;
  hull_of_checked(block, hull);
  return hull;
}

void RateHulls::build(const std::vector<RateBlock> &blocks) {
  if (blocks.size() > std::numeric_limits<std::uint32_t>::max())
    throw Error("rate allocation: " + std::to_string(blocks.size()) + " code-blocks (at most 2^32 - 1)");
  block_count_ = blocks.size();
  std::size_t passes = 0;
  for (const RateBlock &block : blocks) passes += std::size_t(std::max(block.passes, 0));
  segments_.clear();
  segments_.reserve(passes);  // at most a segment per pass
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const RateBlock &block = blocks[b];
    const std::string why = rate_block_check(block);
    if (!why.empty()) throw Error("rate allocation: code-block " + std::to_string(b) + ": " + why);
    hull_of_checked(block, hull_);
    const auto index = static_cast<std::uint32_t>(b);
    double previous = std::numeric_limits<double>::infinity();
    for (std::size_t i = 1; i < hull_.size(); ++i) {
      const double dd = static_cast<double>(hull_[i].distortion - hull_[i - 1].distortion);
      const double dl = static_cast<double>(hull_[i].bytes - hull_[i - 1].bytes);
      // The exact slopes fall strictly; rounding may at most make two equal,
      // and the tie order (by segment) keeps the block's own order.
      const double slope = std::min(previous, dd / dl * block.weight);
      segments_.push_back(Segment{slope, index, static_cast<std::uint32_t>(hull_[i].passes),
                                  static_cast<std::uint32_t>(hull_[i].bytes)});
      previous = slope;
    }
    if (hull_.back().passes < block.passes)  // passes past the hull remove no error: last of all
      segments_.push_back(Segment{-std::numeric_limits<double>::infinity(), index,
                                  static_cast<std::uint32_t>(block.passes),
                                  static_cast<std::uint32_t>(block.lengths[block.passes - 1])});
  }
  sort_by_falling_slope();
  block_bytes_.assign(block_count_, 0);
  prefix_bytes_.resize(segments_.size() + 1);
  prefix_bytes_[0] = 0;
  for (std::size_t i = 0; i < segments_.size(); ++i) {
    const Segment &s = segments_[i];
    prefix_bytes_[i + 1] = prefix_bytes_[i] + (s.bytes - block_bytes_[s.block]);
    block_bytes_[s.block] = s.bytes;
  }
}

// Segments by falling slope, ties in the order they come (block, then
// passes, as build adds them): several times faster as a radix sort of the
// keys than a comparison sort of the segments themselves.
void RateHulls::sort_by_falling_slope() {
  const std::size_t n = segments_.size();
  std::vector<std::uint64_t> &keys = order_.keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = falling_key(segments_[i].slope);
  const std::vector<std::uint32_t> &order = order_.sort();
  sorted_.resize(n);
  for (std::size_t i = 0; i < n; ++i) sorted_[i] = segments_[order[i]];
  segments_.swap(sorted_);
}

std::string layer_budgets_check(const std::vector<std::size_t> &layer_budgets) {
  if (layer_budgets.empty() || layer_budgets.size() > kMaxLayers)
    return std::to_string(layer_budgets.size()) + " layers (1 to 65535, T.800 A.6.1)";
  for (std::size_t l = 1; l < layer_budgets.size(); ++l)
    if (layer_budgets[l] < layer_budgets[l - 1])
      return "layer " + std::to_string(l) + "'s budget " + std::to_string(layer_budgets[l]) + " is below layer " +
             std::to_string(l - 1) + "'s " + std::to_string(layer_budgets[l - 1]) +
             " (budgets are cumulative, non-decreasing)";
  return {};
}

RateAllocation allocate_layers(const RateHulls &hulls, const std::vector<std::size_t> &layer_budgets) {
  const std::string why = layer_budgets_check(layer_budgets);
  if (!why.empty()) throw Error("rate allocation: " + why);
  const std::size_t layers = layer_budgets.size(), blocks = hulls.block_count();
  const auto &segments = hulls.segments();
  const auto &prefix = hulls.prefix_bytes();
  RateAllocation out;
  out.layers = layers;
  out.passes.assign(blocks * layers, 0);
  out.bytes.assign(blocks * layers, 0);
  out.layer_bytes.resize(layers);
  out.threshold.resize(layers);
  std::vector<std::uint32_t> passes(blocks, 0), bytes(blocks, 0);
  std::size_t taken = 0;
  for (std::size_t l = 0; l < layers; ++l) {
    // The longest prefix within the budget (prefix[0] = 0 always fits).
    const std::uint64_t budget = layer_budgets[l];
    const std::size_t end = std::upper_bound(prefix.begin(), prefix.end(), budget) - prefix.begin() - 1;
    for (; taken < end; ++taken) {
      const auto &s = segments[taken];
      passes[s.block] = s.passes;
      bytes[s.block] = s.bytes;
    }
    for (std::size_t b = 0; b < blocks; ++b) {
      out.passes[b * layers + l] = passes[b];
      out.bytes[b * layers + l] = bytes[b];
    }
    out.layer_bytes[l] = prefix[taken];
    out.threshold[l] = taken ? segments[taken - 1].slope : std::numeric_limits<double>::infinity();
  }
  return out;
}

void fill_last_layer(const RateHulls &hulls, std::uint64_t budget, RateAllocation &a) {
  const std::size_t layers = a.layers, last = layers - 1;
  std::uint64_t total = a.layer_bytes[last];
  std::vector<char> stopped(hulls.block_count(), 0);
  for (const auto &s : hulls.segments()) {
    const std::size_t at = std::size_t(s.block) * layers + last;
    // Segments of a block come in order: this one follows what the block holds.
    if (stopped[s.block] || s.passes <= a.passes[at]) continue;
    const std::uint64_t added = s.bytes - a.bytes[at];
    if (total + added > budget) {
      stopped[s.block] = 1;  // its later segments need this one first
      continue;
    }
    total += added;
    a.passes[at] = s.passes;
    a.bytes[at] = s.bytes;
    a.threshold[last] = std::min(a.threshold[last], s.slope);
  }
  a.layer_bytes[last] = total;
}

RateAllocation allocate_layers(const std::vector<RateBlock> &blocks, const std::vector<std::size_t> &layer_budgets) {
  return allocate_layers(RateHulls(blocks), layer_budgets);
}

std::vector<std::size_t> even_layer_budgets(std::uint64_t total_bytes, std::size_t layers) {
  if (layers < 1 || layers > kMaxLayers)
    throw Error("rate allocation: " + std::to_string(layers) + " layers (1 to 65535, T.800 A.6.1)");
  std::vector<std::size_t> budgets(layers);
  for (std::size_t l = 0; l < layers; ++l)
    budgets[l] = static_cast<std::size_t>(static_cast<unsigned __int128>(total_bytes) * (l + 1) / layers);
  return budgets;
}

void set_layer_contributions(const RateAllocation &allocation, std::size_t block, CodeBlockPlan &plan) {
  if (block >= allocation.passes.size() / std::max<std::size_t>(allocation.layers, 1))
    throw Error("rate allocation: code-block " + std::to_string(block) + " is not in the allocation");
  plan.passes.resize(allocation.layers);
  plan.bytes.resize(allocation.layers);
  std::uint32_t passes = 0, bytes = 0;
  for (std::size_t l = 0; l < allocation.layers; ++l) {
    plan.passes[l] = allocation.passes_at(block, l) - passes;
    plan.bytes[l] = allocation.bytes_at(block, l) - bytes;
    passes = allocation.passes_at(block, l);
    bytes = allocation.bytes_at(block, l);
  }
}

}  // namespace cf::j2k
