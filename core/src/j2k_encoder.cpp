// cf::J2kEncoder: the stages of a frame, and what is kept between frames.
// The backends differ in the transform and tier-1 only (they fill the
// coefficient array and CodedBlocks); quantisation steps, rate allocation
// and tier-2 run here, on the host, from the blocks' summaries.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "core/codec/j2k_layout.hpp"
#include "core/shared/j2k_ht_block_coder_rules.hpp"  // kCandidatePlanes
#include "cpu/j2k_tier1.hpp"
#include "cpu/j2k_transform.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k.hpp"
#include "j2k_codestream.hpp"
#include "j2k_plane_windows.hpp"
#include "j2k_profiles.hpp"
#include "j2k_rate.hpp"
#include "j2k_settings.hpp"
#include "j2k_subband_weights.hpp"
#include "kernels/j2k_encode_cuda.hpp"

namespace cf {

struct J2kEncoder::State {
  // What the plan below was made for.
  bool planned = false;
  J2kSettings asked;     // as the caller gave them
  J2kSettings settings;  // what the encoder codes with: `asked`, or a profile's in their place
  J2kInput shape;        // frame geometry only: data pointers are not compared

  j2k::Layout layout;
  j2k::PacketPlan packets;  // the layout's precincts and packet order
  std::vector<j2k::SubbandStep> steps;
  std::vector<float> step_reciprocals;  // irreversible: what the quantiser multiplies by
  std::vector<double> weights;          // per subband: image squared error of a unit of block distortion
  std::vector<std::int32_t> coefficients;
  j2k::CodedBlocks blocks;
  j2k::CodedBlocks estimates;  // at a rate: every plane's estimated length (no codewords)
  std::vector<std::uint32_t> cumulative_passes;
  std::vector<j2k::PrecinctPlan> precinct_plans;  // tier-2's, their room kept from frame to frame
  j2k::RateRoom rate_room;                        // rate allocation's, the same
  cuda::J2kPlanPtr cuda_plan;                     // device tables and buffers of this plan (cuda backend)
  J2kEncoder::StageTimes times;                   // of the last frame
};

namespace {

bool same_shape(const J2kInput &a, const J2kInput &b) {
  const FrameView &f = a.frame, &g = b.frame;
  if (f.type != g.type || f.n_components != g.n_components || a.bit_depth != b.bit_depth || a.rgb != b.rgb)
    return false;
  for (int c = 0; c < f.n_components; ++c)
    if (f.components[c].width != g.components[c].width || f.components[c].height != g.components[c].height ||
        a.subsampling_x[c] != b.subsampling_x[c] || a.subsampling_y[c] != b.subsampling_y[c])
      return false;
  return true;
}

bool same_precincts(const std::vector<J2kPrecinctSize> &a, const std::vector<J2kPrecinctSize> &b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](const J2kPrecinctSize &x, const J2kPrecinctSize &y) {
    return x.width_exp == y.width_exp && x.height_exp == y.height_exp;
  });
}

bool same_settings(const J2kSettings &a, const J2kSettings &b) {
  return a.reversible == b.reversible && a.levels == b.levels && a.codeblock_width == b.codeblock_width &&
         a.codeblock_height == b.codeblock_height && a.bitrate == b.bitrate && a.layers == b.layers &&
         a.progression == b.progression && a.tile_width == b.tile_width && a.tile_height == b.tile_height &&
         a.codeblock_style == b.codeblock_style && a.block_coder == b.block_coder &&
         a.ht_rate_planes == b.ht_rate_planes && a.part1_planes_below == b.part1_planes_below &&
         a.max_bytes == b.max_bytes && a.markers == b.markers && a.tile_parts == b.tile_parts &&
         same_precincts(a.precincts, b.precincts) && a.profile == b.profile && a.profile_level == b.profile_level;
}

// HT at a target rate codes each block at candidate cleanup planes: every
// plane, or a window of ht_rate_planes (one by default) chosen from
// estimates.
bool ht_candidates(const J2kSettings &s) {
  return s.block_coder == J2kBlockCoder::Ht && (s.bitrate > 0 || s.max_bytes > 0);
}
// HT under max-bytes alone: each block's window reaches down to its last
// plane, so that a frame that fits is coded as without the limit (the
// estimates may point a plane too high).
bool ht_windows_to_bottom(const J2kSettings &s) { return s.bitrate == 0 && s.max_bytes > 0; }
// Tier-1 codes each block at the window of planes that estimates point at:
// HT's candidates with ht_rate_planes; Part 1 at a bitrate with
// part1_planes_below (not under max-bytes alone, where a reversible frame
// that fits must stay lossless whatever the estimates say).
bool coded_in_windows(const J2kSettings &s) {
  if (s.block_coder == J2kBlockCoder::Ht) return ht_candidates(s) && s.ht_rate_planes > 0;
  return s.bitrate > 0 && s.part1_planes_below >= 0;
}

// The codestream bytes a target rate and the byte limit allow (0: no target).
std::uint64_t target_bytes(const j2k::Layout &l, const J2kSettings &s) {
  const std::uint64_t rate =
      std::uint64_t(s.bitrate * double(l.params.x1 - l.params.x0) * double(l.params.y1 - l.params.y0) / 8);
  if (s.bitrate > 0 && s.max_bytes > 0) return std::min(rate, s.max_bytes);
  return s.bitrate > 0 ? rate : s.max_bytes;
}

// Room for a block's codeword: about 1.25 bits per sample and plane, which
// coding rarely exceeds; a block that does is coded again with what it
// needs (grow_overflowed).
std::uint32_t slot_bytes(std::uint32_t area, std::uint32_t planes) {
  return std::uint32_t((std::uint64_t(area) * (planes + 1) * 5 + 31) / 32 + 64);
}

// Slots of `l`'s blocks in `out`, with room for `candidates` cleanup
// passes each (0: one per plane).
void size_slots(const j2k::Layout &l, const std::vector<j2k::SubbandStep> &steps, std::uint32_t candidates,
                j2k::CodedBlocks &out) {
  const std::size_t n = l.blocks.size();
  out.offset.resize(n);
  out.capacity.resize(n);
  out.results.assign(n, {});
  out.pass_lengths.assign(n * j2k::kMaxPasses, 0);
  out.pass_distortion.assign(n * j2k::kMaxPasses, 0);
  std::size_t total = 0;
  for (std::size_t b = 0; b < n; ++b) {
    const j2k::BlockLayout &k = l.blocks[b];
    // Planes a block of this subband may need: its exponent and two guard bits.
    const std::uint32_t planes = steps[l.bands[k.band].step_index].exponent + 2;
    out.offset[b] = total;
    // A cleanup pass at every plane: each about the planes above it.
    out.capacity[b] = slot_bytes(k.width * k.height, planes) * (candidates > 0 ? candidates : (planes + 2) / 2);
    total += out.capacity[b];
  }
  out.data.resize(total);
}

// Blocks whose codeword outgrew their slot get a slot of the size they
// reported and are coded again (serially: it is rare); the slots keep
// that size for later frames.
void grow_overflowed(const j2k::Layout &l, const std::int32_t *coefficients, unsigned style, j2k::CodedBlocks &out) {
  std::vector<std::uint32_t> again;
  for (std::uint32_t b = 0; b < l.blocks.size(); ++b)
    if (out.results[b].status == j2k::t1::BlockStatus::kOverflow) again.push_back(b);
  if (again.empty()) return;
  std::vector<std::uint8_t> data;
  std::size_t total = 0;
  for (std::size_t b = 0; b < l.blocks.size(); ++b) total += out.capacity[b];
  for (std::uint32_t b : again) total += std::uint32_t(out.results[b].bytes) + 64;
  data.resize(total);
  std::size_t at = 0;
  for (std::size_t b = 0; b < l.blocks.size(); ++b) {
    const bool grown = out.results[b].status == j2k::t1::BlockStatus::kOverflow;
    const std::uint32_t capacity = grown ? std::uint32_t(out.results[b].bytes) + 64 : out.capacity[b];
    if (!grown) std::memcpy(data.data() + at, out.codeword(b), std::size_t(out.results[b].bytes));
    out.offset[b] = at;
    out.capacity[b] = capacity;
    at += capacity;
  }
  out.data.swap(data);
  out.packed = nullptr;
  std::vector<std::uint8_t> work(j2k::t1::block_work_bytes(1 << l.params.cb_width_exp, 1 << l.params.cb_height_exp));
  for (std::uint32_t b : again) j2k::code_block(l, coefficients, style, b, work.data(), out);
}

void require_coded(const j2k::CodedBlocks &out) {
  for (std::size_t b = 0; b < out.results.size(); ++b)
    if (out.results[b].status != j2k::t1::BlockStatus::kOk)
      throw Error("JPEG 2000 encoder: code-block " + std::to_string(b) + " failed in tier-1 (status " +
                  std::to_string(int(out.results[b].status)) + ")");
}

// Packet header bits a block's contributions take, as cumulative passes
// and bytes per layer of `a` say (B.10): an inclusion bit, about two bits
// of zero bit-planes at its first, the passes' codeword, Lblock's
// increment and the length; tag trees and several codeword segments are
// estimated, not coded.
std::uint64_t estimated_header_bits(const j2k::RateAllocation &a, std::size_t blocks) {
  std::uint64_t bits = 0;
  for (std::size_t b = 0; b < blocks; ++b) {
    std::uint32_t lblock = j2k::kInitialLblock, passes = 0, bytes = 0;
    for (std::size_t layer = 0; layer < a.layers; ++layer) {
      const std::uint32_t new_passes = a.passes_at(b, layer) - passes, new_bytes = a.bytes_at(b, layer) - bytes;
      bits += 1;
      if (new_passes == 0) continue;
      if (passes == 0) bits += 2;
      const std::uint32_t k = j2k::lblock_increment(lblock, new_passes, new_bytes);
      lblock += k;
      bits += j2k::passes_codeword(std::min(new_passes, j2k::kMaxPassesPerPacket)).length + k + 1 + lblock +
              j2k::floor_log2(new_passes);
      passes += new_passes;
      bytes += new_bytes;
    }
  }
  return bits;
}

// The bytes the blocks' packet headers take at `target`, estimated a
// little high, so that an allocation that leaves them room lands just under
// the target.
std::uint64_t estimated_header_bytes(const j2k::RateHulls &hulls, std::uint64_t target, std::size_t layers) {
  j2k::RateAllocation a = j2k::allocate_layers(hulls, j2k::even_layer_budgets(target, layers));
  j2k::fill_last_layer(hulls, target, a);
  const std::uint64_t bytes = (estimated_header_bits(a, hulls.block_count()) + 7) / 8;
  return bytes + bytes / 32 + 8;
}

// The codestream of `l` with the passes each layer keeps. One layer and no
// rate: every pass. Otherwise rate allocation: layer k ends at (k + 1) /
// layers of the code-block bytes allowed, which are every byte without a
// target, or the target less what headers take; headers depend on what is
// kept, so the allowance is corrected by the distance to the target. A
// byte limit without a rate is a target only for a codestream that
// outgrows it.
void write_with_rate(const j2k::Layout &l, const j2k::PacketPlan &packets, const J2kSettings &s,
                     const std::vector<j2k::SubbandStep> &steps, const std::vector<double> &band_weights,
                     const j2k::CodedBlocks &blocks, std::vector<std::uint32_t> &cumulative,
                     std::vector<j2k::PrecinctPlan> &plans, j2k::RateRoom &room, int copy_threads,
                     std::vector<std::uint8_t> &codestream) {
  const std::uint32_t layers = l.params.layers;
  auto write = [&] {
    j2k::ByteWriter w(std::move(codestream), copy_threads);  // the caller's buffer, its bytes kept
    j2k::write_codestream(l, packets, steps, blocks, cumulative, j2k::kEncoderComment, w, plans);
    codestream = w.take();
  };
  const std::uint64_t target = target_bytes(l, s);
  // Without a rate, every pass (in even layers); a byte limit lets that
  // stand when it fits. HT candidates are not every pass: rate allocation
  // picks among them.
  if (layers == 1 && s.bitrate == 0 && !ht_candidates(s)) {
    cumulative.resize(l.blocks.size());
    for (std::size_t b = 0; b < l.blocks.size(); ++b) cumulative[b] = std::uint32_t(blocks.results[b].passes);
    write();
    if (target == 0 || codestream.size() <= target) return;
  }
  const j2k::RateHulls &hulls = room.build(blocks, j2k::block_weights(l, band_weights, blocks));
  if (s.bitrate == 0) {
    cumulative = j2k::allocate_layers(hulls, j2k::even_layer_budgets(hulls.total_bytes(), layers)).passes;
    write();
    if (target == 0 || codestream.size() <= target) return;
  }
  // The first allowance leaves room for the headers: those of a
  // codestream without a pass (its markers and an empty packet each) and
  // the blocks' own, estimated. It then moves by the distance to the
  // target each time (headers change little with it), twice as far after
  // each further overshoot in a row (coarse truncation points, such as
  // HT's whole cleanup passes, can stay over the target by a few bytes);
  // the largest codestream within the target wins.
  cumulative.assign(l.blocks.size() * layers, 0);
  write();
  std::int64_t allowed =
      std::int64_t(target) - std::int64_t(codestream.size() + estimated_header_bytes(hulls, target, layers));
  std::vector<std::uint32_t> best;
  std::size_t best_size = 0;
  int overshoots = 0;
  for (int attempt = 0; attempt < 16; ++attempt) {
    const std::uint64_t budget = std::uint64_t(std::max<std::int64_t>(allowed, 0));
    j2k::RateAllocation a = j2k::allocate_layers(hulls, j2k::even_layer_budgets(budget, layers));
    j2k::fill_last_layer(hulls, budget, a);
    cumulative = a.passes;
    write();
    const std::int64_t slack = std::int64_t(target) - std::int64_t(codestream.size());
    if (slack >= 0 && codestream.size() > best_size) {
      best = cumulative;
      best_size = codestream.size();
    }
    if ((slack >= 0 && double(slack) <= 0.005 * double(target)) || (slack > 0 && budget >= hulls.total_bytes()) ||
        (slack < 0 && budget == 0))
      break;
    overshoots = slack < 0 ? overshoots + 1 : 0;
    allowed = std::int64_t(budget) + slack * (std::int64_t(1) << std::clamp(overshoots - 1, 0, 20));
  }
  if (best_size > 0 && best_size != codestream.size()) {
    cumulative = best;
    write();
  }
  if (codestream.size() > target)
    throw Error("JPEG 2000 encoder: " +
                (target == s.max_bytes ? "max-bytes " + std::to_string(s.max_bytes)
                                       : "bitrate " + std::to_string(s.bitrate) + " allows " + std::to_string(target)) +
                " bytes, less than the headers need (" + std::to_string(codestream.size()) + ")");
}

}  // namespace

J2kEncoder::J2kEncoder(Engine &engine) : engine_(engine), state_(std::make_unique<State>()) {}
J2kEncoder::~J2kEncoder() = default;

void J2kEncoder::encode(const J2kInput &in, const J2kSettings &asked, std::vector<std::uint8_t> &codestream) {
  State &st = *state_;
  if (!st.planned || !same_shape(in, st.shape) || !same_settings(asked, st.asked)) {
    st.planned = false;
    st.asked = asked;
    st.settings = j2k::profiled(asked, in);
  }
  const J2kSettings &s = st.settings;
  if (!st.planned) {
    st.cuda_plan.reset();
    if (std::string why = j2k::plan_check(in, s, st.layout, st.packets); !why.empty())
      throw Error("JPEG 2000 encoder: " + why);
    const std::uint32_t depth = std::uint32_t(in.bit_depth), levels = std::uint32_t(s.levels);
    if (s.reversible) {
      // The RCT's colour differences need a bit more than the samples.
      st.steps = j2k::reversible_steps(depth + (in.rgb ? 1 : 0), levels);
      st.step_reciprocals.clear();
    } else {
      st.steps = j2k::irreversible_steps(depth, levels);
      st.step_reciprocals = j2k::step_reciprocals(st.steps, depth, levels);
    }
    st.weights = j2k::distortion_weights(s.reversible, st.steps, depth, levels);
    st.coefficients.resize(st.layout.coefficient_count);
    size_slots(st.layout, st.steps,
               !ht_candidates(s)         ? 1u
               : ht_windows_to_bottom(s) ? 0u
                                         : std::uint32_t(s.ht_rate_planes),
               st.blocks);
    st.blocks.windows.clear();
    if (coded_in_windows(s)) {
      st.estimates.results.assign(st.layout.blocks.size(), {});
      st.estimates.pass_lengths.assign(st.layout.blocks.size() * j2k::kMaxPasses, 0);
      st.estimates.pass_distortion.assign(st.layout.blocks.size() * j2k::kMaxPasses, 0);
    }
    st.shape = in;
    st.planned = true;
  } else if (const char *why = check_frame(in.frame); why && *why) {
    throw Error(std::string("JPEG 2000 encoder: ") + why);
  }
  j2k::Layout &l = st.layout;
  // The user's switches and HT's bit (and the candidates' internal one).
  const unsigned style = l.params.cb_style | (ht_candidates(s) ? j2k::ht::kCandidatePlanes : 0u);
  const auto start = std::chrono::steady_clock::now();

  const Backend backend = engine_.backend();
  switch (backend) {
    case Backend::Cuda: cuda::j2k_transform(engine_.cuda(), st.cuda_plan, in, l, st.step_reciprocals); break;
    case Backend::OpenMP:
      omp::j2k_transform(in, l, st.step_reciprocals, st.coefficients.data(), engine_.threads());
      break;
    default: cpu::j2k_transform(in, l, st.step_reciprocals, st.coefficients.data()); break;
  }
  if (coded_in_windows(s)) {
    switch (backend) {
      case Backend::Cuda: cuda::j2k_estimate_planes(engine_.cuda(), *st.cuda_plan, style, st.estimates); break;
      case Backend::OpenMP:
        omp::j2k_estimate_planes(l, st.coefficients.data(), style, st.estimates, engine_.threads());
        break;
      default: cpu::j2k_estimate_planes(l, st.coefficients.data(), style, st.estimates); break;
    }
    require_coded(st.estimates);
    const bool ht = s.block_coder == J2kBlockCoder::Ht;
    const int above = ht ? (s.ht_rate_planes - 1) / 2 : j2k::t1::kMaxBitplanes;
    const int below = !ht                       ? s.part1_planes_below
                      : ht_windows_to_bottom(s) ? j2k::t1::kMaxBitplanes
                                                : s.ht_rate_planes - 1 - above;
    st.blocks.windows = j2k::plane_windows(st.estimates, j2k::block_weights(l, st.weights, st.estimates),
                                           target_bytes(l, s), above, below, st.rate_room);
  }
  switch (backend) {
    case Backend::Cuda:
      cuda::j2k_code_blocks(engine_.cuda(), *st.cuda_plan, style, st.coefficients.data(), st.blocks);
      break;
    case Backend::OpenMP: omp::j2k_code_blocks(l, st.coefficients.data(), style, st.blocks, engine_.threads()); break;
    default: cpu::j2k_code_blocks(l, st.coefficients.data(), style, st.blocks); break;
  }
  grow_overflowed(l, st.coefficients.data(), style, st.blocks);
  require_coded(st.blocks);
  const auto coded = std::chrono::steady_clock::now();

  l.params.guard_bits = j2k::guard_bits_needed(l, st.steps, st.blocks);
  // The codewords' copies into the codestream on the engine's threads,
  // but for the serial backend.
  const int copy_threads = engine_.backend() == Backend::Cpu ? 1 : engine_.threads();
  write_with_rate(l, st.packets, s, st.steps, st.weights, st.blocks, st.cumulative_passes, st.precinct_plans,
                  st.rate_room, copy_threads, codestream);
  const auto ms = [](auto a, auto b) { return std::chrono::duration<double, std::milli>(b - a).count(); };
  st.times = {ms(start, coded), ms(coded, std::chrono::steady_clock::now())};
}

J2kEncoder::StageTimes J2kEncoder::stage_times() const { return state_->times; }

}  // namespace cf
