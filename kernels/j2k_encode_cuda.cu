// CUDA backend of the JPEG 2000 encoder's transform stage and tier-1
// (kernels/j2k_encode_cuda.hpp; device code in kernels/j2k_transform_kernels.cuh). A plan
// holds the layout's tables and every device buffer, made once per
// geometry. A frame: its samples uploaded through the engine's staging (or
// read in place in device memory); the wavelet levels, a launch each, the
// first reading the frame (DC shift, colour transform), each writing its
// high-pass bands (quantised on the irreversible path) into the
// coefficient array and its LL to scratch for the next; tier-1 into fixed
// slots: Part 1 as a warp per code-block forming the contexts and a thread
// per code-block coding them (kernels/j2k_tier1_kernels.cuh), HT as a warp
// per code-block (kernels/j2k_ht_encode_kernels.cuh; at a rate, first a warp per
// block estimates every cleanup plane, and the host picks the window of
// planes each block is coded at); a prefix sum of the
// codewords' lengths and a gather that packs them; then the results, the
// pass lengths and distortions in use, and the packed bytes, are copied
// back through pinned memory (bring_back). All on the engine's stream; two
// waits (the packed length and the passes in use are needed to copy the
// rest), two more for the estimates.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/shared/ceil_div.hpp"
#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/j2k_encode_cuda.hpp"
#include "kernels/j2k_ht_encode_kernels.cuh"
#include "kernels/j2k_tier1_kernels.cuh"
#include "kernels/j2k_transform_kernels.cuh"
#include "kernels/launch.cuh"

namespace cf::cuda {

namespace j2k_launch {

// Declared here, so they win over other families' names in cf::cuda (the
// CPU emulation compiles every kernels/ file into one unit).
using j2k_kernels::Band;
using j2k_kernels::Block;
using j2k_kernels::kThreads;
using j2k_kernels::Region;
using j2k_kernels::TileComponent;

// Device memory of a plan, grown (never shrunk) when a slot layout needs
// more, through the engine's allocator (counted in its allocations).
struct DeviceBytes : detail::DeviceBuffer {
  void reserve(detail::CudaState *s, std::size_t bytes, const char *what) {
    if (bytes <= capacity && ptr) return;
    s->replace(*this, bytes, std::string("the JPEG 2000 ") + what);
  }
  template <class T>
  T *as() const {
    return static_cast<T *>(ptr);
  }
  ~DeviceBytes() {
    if (ptr) cudaFree(ptr);
  }
};

template <class T>
void upload(detail::CudaState *s, DeviceBytes &d, const std::vector<T> &v, const char *what) {
  d.reserve(s, sizeof(T) * v.size(), what);
  if (!v.empty())
    detail::check(cudaMemcpyAsync(d.ptr, v.data(), sizeof(T) * v.size(), cudaMemcpyHostToDevice, s->stream),
                  [&] { return std::string("uploading the JPEG 2000 ") + what; });
}

template <class T>
void download(detail::CudaState *s, T *dst, const DeviceBytes &d, std::size_t count, const char *what) {
  if (count)
    detail::check(cudaMemcpyAsync(dst, d.ptr, sizeof(T) * count, cudaMemcpyDeviceToHost, s->stream),
                  [&] { return std::string("copying back the JPEG 2000 ") + what; });
}

// Room for a code-block's decisions, per sample: a sample takes at most one
// decision per bit-plane from its top one down, one for its sign, and runs
// add fewer than one; the planes exceed the sample depth by the transform's
// and quantisation's gain. A block that needs more is coded whole by one
// thread (the same bytes, slower).
constexpr int kDecisionSlack = 8;

}  // namespace j2k_launch

struct J2kPlan {
  detail::CudaState *state = nullptr;
  int tile_components = 0, blocks = 0;
  std::uint32_t levels = 0;
  bool reversible = true, mct = false;
  std::size_t coefficient_count = 0;
  int sample_blocks = 0;                        // blocks per tile-component of the load without levels
  std::vector<int> level_blocks;                // per level: tiles per tile-component of its kernel
  int work_bytes = 0;                           // tier-1 work area per code-block coded whole
  long long decision_room = 0;                  // bytes of stored decisions per code-block
  int shared_samples = 0, shared_words = 0;     // model_blocks' shared memory, in 32-bit words
  std::vector<j2k_kernels::Block> block_table;  // as on the device, largest first
  std::vector<std::uint32_t> capacity;          // of the slots now laid out
  std::vector<float> step_reciprocals;          // now on the device
  std::vector<unsigned long long> offsets;      // packed codeword offsets, brought back
  std::vector<unsigned long long> slot_start;   // scratch of lay_slots

  j2k_launch::DeviceBytes tcs, regions, bands, reciprocals, block_list;                                  // tables
  j2k_launch::DeviceBytes coefficients, low[2];                                                          // transform
  j2k_launch::DeviceBytes slots, packed, block_work, results, pass_lengths, distortion, packed_offsets;  // tier-1
  j2k_launch::DeviceBytes decisions, pass_ends, models;                                                  // modelling
  j2k_launch::DeviceBytes ht_tables;                            // HT code-blocks: the VLC lookup
  j2k_launch::DeviceBytes windows;                              // the planes each block is coded at (by Layout index)
  j2k_launch::DeviceBytes compact_lengths, compact_distortion;  // the pass entries in use, row after row
  bool has_windows = false;                                     // whether `windows` holds this frame's
};

void J2kPlanDeleter::operator()(J2kPlan *p) const {
  if (!p) return;
  detail::DeviceScope scope(p->state);
  cudaStreamSynchronize(p->state->stream);  // kernels may still use the buffers
  delete p;
  cudaGetLastError();
}

namespace j2k_launch {

using namespace j2k_kernels;

J2kPlan *make_plan(detail::CudaState *s, const j2k::Layout &l) {
  J2kPlanPtr plan(new J2kPlan);
  plan->state = s;  // first: the deleter needs it
  J2kPlan &p = *plan;
  const j2k::CodestreamParams &c = l.params;
  p.tile_components = int(l.tile_components.size());
  p.blocks = int(l.blocks.size());
  p.levels = c.levels;
  p.reversible = c.reversible;
  p.mct = c.mct;
  p.coefficient_count = l.coefficient_count;
  p.level_blocks.assign(p.levels, 0);

  std::vector<TileComponent> tcs;
  std::vector<Region> regions(std::size_t(p.levels) * l.tile_components.size());
  for (std::size_t t = 0; t < l.tile_components.size(); ++t) {
    const j2k::TileComponentLayout &tc = l.tile_components[t];
    const j2k::Component &q = c.components[tc.component];
    // Component coordinates of the tile-component to frame coordinates (B-12).
    const int frame_x = int(tc.rect.x0 - (c.x0 + q.subsample_x - 1) / q.subsample_x);
    const int frame_y = int(tc.rect.y0 - (c.y0 + q.subsample_y - 1) / q.subsample_y);
    tcs.push_back({tc.offset, int(tc.rect.width()), int(tc.rect.height()), int(tc.component), frame_x, frame_y,
                   int(tc.first_band), int(j2k::subband_count(c.levels))});
    p.sample_blocks =
        std::max(p.sample_blocks, int(ceil_div(std::int64_t(tc.rect.width()) * tc.rect.height(), kThreads)));
    // Level lv splits resolution NL - lv + 1.
    const int halo = p.reversible ? j2k::dwt::Reversible53::kSteps : j2k::dwt::Irreversible97::kSteps;
    for (std::uint32_t lv = 1; lv <= p.levels; ++lv) {
      const j2k::Rect &r = tc.resolutions[p.levels - lv + 1];
      regions[(lv - 1) * l.tile_components.size() + t] = {r.x0, r.y0, int(r.width()), int(r.height())};
      p.level_blocks[lv - 1] = std::max(p.level_blocks[lv - 1], level_tiles(int(r.width()), int(r.height()), halo));
    }
  }
  std::vector<Band> bands;
  for (const j2k::BandLayout &b : l.bands) bands.push_back({int(b.step_index)});
  for (std::uint32_t b = 0; b < l.blocks.size(); ++b) {
    const j2k::BlockLayout &k = l.blocks[b];
    const j2k::TileComponentLayout &tc = l.tile_components[k.tile_component];
    const std::uint32_t stride = tc.rect.width();
    p.block_table.push_back({tc.offset + std::size_t(k.y) * stride + k.x, 0, int(stride), int(k.width), int(k.height),
                             int(l.bands[k.band].orientation), 0, int(b)});
  }
  // The largest blocks first, so that the last threads to start are short.
  std::stable_sort(p.block_table.begin(), p.block_table.end(),
                   [](const Block &a, const Block &b) { return a.width * a.height > b.width * b.height; });
  const int cb_width = 1 << c.cb_width_exp, cb_height = 1 << c.cb_height_exp;
  p.work_bytes = j2k::t1::block_work_bytes(cb_width, cb_height);
  std::uint32_t depth = 0;
  for (const j2k::Component &q : c.components) depth = std::max(depth, q.bit_depth);
  p.decision_room = (long long)cb_width * cb_height * (depth + kDecisionSlack);
  p.shared_samples = cb_width * cb_height;
  p.shared_words = p.shared_samples + j2k::t1::stripe_count(cb_height) * cb_width;

  upload(s, p.tcs, tcs, "tile-component table");
  upload(s, p.regions, regions, "resolution table");
  upload(s, p.bands, bands, "subband table");
  upload(s, p.block_list, p.block_table, "code-block table");  // slots laid by lay_slots
  p.coefficients.reserve(s, sizeof(std::int32_t) * p.coefficient_count, "coefficients");
  // The LL of every level but the last (which goes to the coefficients):
  // levels 1, 3, ... in low[0], 2, 4, ... in low[1] (int32 or float samples).
  if (p.levels > 1) p.low[0].reserve(s, sizeof(std::int32_t) * p.coefficient_count, "wavelet scratch");
  if (p.levels > 2) p.low[1].reserve(s, sizeof(std::int32_t) * p.coefficient_count, "wavelet scratch");
  const std::size_t n = std::size_t(p.blocks);
  p.block_work.reserve(s, std::size_t(p.work_bytes) * n, "tier-1 work areas");
  p.results.reserve(s, sizeof(j2k::t1::BlockResult) * n, "block results");
  p.pass_lengths.reserve(s, sizeof(std::int32_t) * n * j2k::kMaxPasses, "pass lengths");
  p.distortion.reserve(s, sizeof(std::int64_t) * n * j2k::kMaxPasses, "pass distortions");
  p.packed_offsets.reserve(s, sizeof(unsigned long long) * (n + 1), "codeword offsets");
  p.decisions.reserve(s, std::size_t(p.decision_room) * n, "tier-1 decisions");
  p.pass_ends.reserve(s, sizeof(std::int32_t) * n * j2k::kMaxPasses, "pass ends");
  p.compact_lengths.reserve(s, sizeof(int) * n * j2k::kMaxPasses, "compact pass lengths");
  p.compact_distortion.reserve(s, sizeof(std::int64_t) * n * j2k::kMaxPasses, "compact pass distortions");
  p.models.reserve(s, sizeof(BlockModel) * n, "block models");
  if (c.cb_style & j2k::ht::kStyleHt) upload(s, p.ht_tables, std::vector{j2k::ht::encode_tables()}, "HT VLC table");
  p.offsets.resize(n + 1);
  p.slot_start.resize(n);
  // The tables' host copies are locals: the uploads must be done.
  detail::check(cudaStreamSynchronize(s->stream), "uploading the JPEG 2000 plan");
  return plan.release();
}

// Slots on the device for the capacities the encoder gives (it grows a
// block's after an overflow): back to back in block order.
void lay_slots(detail::CudaState *s, J2kPlan &p, const std::vector<std::uint32_t> &capacity) {
  if (capacity.size() != std::size_t(p.blocks))
    throw Error("JPEG 2000 encoder: " + std::to_string(capacity.size()) + " codeword slots for " +
                std::to_string(p.blocks) + " code-blocks");
  unsigned long long total = 0;
  for (std::size_t b = 0; b < capacity.size(); ++b) {
    p.slot_start[b] = total;
    total += capacity[b];
  }
  for (Block &k : p.block_table) {
    k.slot = p.slot_start[std::size_t(k.index)];
    k.capacity = int(capacity[std::size_t(k.index)]);
  }
  p.slots.reserve(s, total, "codeword slots");
  p.packed.reserve(s, total, "packed codewords");
  upload(s, p.block_list, p.block_table, "code-block table");  // block_table outlives the copy
  p.capacity = capacity;
}

void set_reciprocals(detail::CudaState *s, J2kPlan &p, const j2k::Layout &l, const std::vector<float> &r) {
  for (const j2k::BandLayout &b : l.bands)
    if (b.step_index >= r.size())
      throw Error("JPEG 2000 transform: subband step " + std::to_string(b.step_index) + " has no reciprocal (" +
                  std::to_string(r.size()) + " given)");
  p.step_reciprocals = r;
  upload(s, p.reciprocals, p.step_reciprocals, "step reciprocals");
}

// Level lv (1 the finest) reads the frame or the LL of level lv - 1, and
// leaves its own LL in low[(lv - 1) % 2], or in the coefficients at the last.
template <class F, class S>
void wavelet_levels(detail::CudaState *s, J2kPlan &p, const FrameArgs &frame) {
  using T = typename F::Sample;
  for (std::uint32_t lv = 1; lv <= p.levels; ++lv) {
    const WaveletLevelArgs<T> a{p.tcs.as<TileComponent>(),
                                p.regions.as<Region>() + std::size_t(lv - 1) * p.tile_components,
                                p.level_blocks[lv - 1],
                                int(1 + 3 * (p.levels - lv)),  // subbands_in_order(): LL, then HL, LH, HH from NL down
                                lv == p.levels,
                                frame,
                                p.low[lv % 2].as<T>(),
                                p.low[(lv - 1) % 2].as<T>(),
                                p.coefficients.as<std::int32_t>(),
                                p.bands.as<Band>(),
                                p.reciprocals.as<float>()};
    const long long blocks = (long long)p.tile_components * a.blocks_per_tc;
    if (lv == 1)
      launch_kernel(s, wavelet_level<F, S>, blocks, kThreads, a, "the JPEG 2000 wavelet level kernel");
    else
      launch_kernel(s, wavelet_level<F, void>, blocks, kThreads, a, "the JPEG 2000 wavelet level kernel");
  }
}

template <class S>
void transform_as(detail::CudaState *s, J2kPlan &p, const FrameArgs &frame) {
  if (p.levels > 0) {
    if (p.reversible)
      wavelet_levels<j2k::dwt::Reversible53, S>(s, p, frame);
    else
      wavelet_levels<j2k::dwt::Irreversible97, S>(s, p, frame);
    return;
  }
  const LoadArgs a{p.tcs.as<TileComponent>(), p.sample_blocks,           frame,
                   p.bands.as<Band>(),        p.reciprocals.as<float>(), p.coefficients.as<std::int32_t>()};
  launch_kernel(s, p.reversible ? load_samples<S, std::int32_t> : load_samples<S, float>,
                (long long)p.tile_components * p.sample_blocks, kThreads, a, "the JPEG 2000 load kernel");
}

void transform(detail::CudaState *s, J2kPlan &p, const J2kInput &in, const j2k::Layout &l) {
  const FrameView &frame = in.frame;
  if (frame.type != SampleType::U8 && frame.type != SampleType::U16)
    throw Error(std::string("JPEG 2000 transform: samples must be U8 or U16, not ") + sample_type_name(frame.type));
  if (std::size_t(frame.n_components) != l.params.components.size())
    throw Error("JPEG 2000 transform: the frame has " + std::to_string(frame.n_components) +
                " components, the layout " + std::to_string(l.params.components.size()));
  const FrameView f = detail::stage_source(s, frame, detail::Slot::Source);
  FrameArgs a{};
  for (int c = 0; c < f.n_components; ++c) {
    a.planes[c] = plane_ref(f, c);
    a.bit_depth[c] = int(l.params.components[std::size_t(c)].bit_depth);
  }
  a.mct = p.mct;
  if (f.type == SampleType::U8)
    transform_as<std::uint8_t>(s, p, a);
  else
    transform_as<std::uint16_t>(s, p, a);
}

// The planes each block is coded at this frame, by Layout index (nullptr:
// every plane).
const j2k::t1::PlaneWindow *windows(J2kPlan &p) {
  return p.has_windows ? p.windows.as<j2k::t1::PlaneWindow>() : nullptr;
}

HtArgs ht_args(J2kPlan &p, unsigned style) {
  return {p.coefficients.as<std::int32_t>(),
          p.block_list.as<Block>(),
          p.blocks,
          style,
          p.ht_tables.as<j2k::ht::EncodeTables>(),
          windows(p),
          p.slots.as<std::uint8_t>(),
          p.block_work.as<std::uint8_t>(),
          p.work_bytes,
          p.pass_lengths.as<int>(),
          p.distortion.as<std::int64_t>(),
          p.results.as<j2k::t1::BlockResult>(),
          j2k::kMaxPasses};
}

// HT code-blocks: a warp each, the whole block.
void code_ht(detail::CudaState *s, J2kPlan &p, unsigned style) {
  launch_kernel(s, code_ht_blocks, ceil_div(p.blocks, kHtWarps), kHtThreads, ht_args(p, style),
                "the JPEG 2000 HT code-block kernel");
}

// Part 1 code-blocks: the contexts a warp per block, then the MQ coding a
// thread per block.
void code_part1(detail::CudaState *s, J2kPlan &p, unsigned style) {
  const ModelArgs m{p.coefficients.as<std::int32_t>(),
                    p.block_list.as<Block>(),
                    style,
                    p.decisions.as<std::uint8_t>(),
                    p.decision_room,
                    p.pass_ends.as<int>(),
                    p.distortion.as<std::int64_t>(),
                    p.models.as<BlockModel>(),
                    windows(p),
                    j2k::kMaxPasses,
                    p.shared_samples,
                    p.shared_words};
  launch_kernel(s, model_blocks, p.blocks, kWarpLanes, m, "the JPEG 2000 tier-1 modelling kernel",
                sizeof(std::uint32_t) * std::size_t(p.shared_words));
  const CodeArgs t{p.coefficients.as<std::int32_t>(),
                   p.block_list.as<Block>(),
                   p.blocks,
                   style,
                   p.decisions.as<std::uint8_t>(),
                   p.decision_room,
                   p.pass_ends.as<int>(),
                   p.models.as<BlockModel>(),
                   p.slots.as<std::uint8_t>(),
                   p.block_work.as<std::uint8_t>(),
                   p.work_bytes,
                   p.pass_lengths.as<int>(),
                   p.distortion.as<std::int64_t>(),
                   p.results.as<j2k::t1::BlockResult>(),
                   windows(p),
                   j2k::kMaxPasses};
  launch_kernel(s, code_decisions, ceil_div(p.blocks, kCodeThreads), kCodeThreads, t,
                "the JPEG 2000 tier-1 coding kernel");
}

void tier1(detail::CudaState *s, J2kPlan &p, unsigned style) {
  if (style & j2k::ht::kStyleHt)
    code_ht(s, p, style);
  else
    code_part1(s, p, style);
  const OffsetArgs o{p.results.as<j2k::t1::BlockResult>(), p.blocks, p.packed_offsets.as<unsigned long long>()};
  launch_kernel(s, codeword_offsets, 1, kScanThreads, o, "the JPEG 2000 codeword offsets kernel");
  const GatherArgs g{p.block_list.as<Block>(), p.slots.as<std::uint8_t>(), p.packed_offsets.as<unsigned long long>(),
                     p.packed.as<std::uint8_t>()};
  launch_kernel(s, gather_codewords, p.blocks, kGatherThreads, g, "the JPEG 2000 codeword gather kernel");
}

// What tier-1 leaves on the device comes back through the engine's pinned
// memory (HostSlot::J2kEncoder), in two rounds: the blocks' results (and,
// when coded, the packed codewords' offsets), then the pass entries some
// block uses (one for lossless HT, of 94), compacted on the device, and the
// codewords. Copies into pageable memory, 2D ones above all, cost
// milliseconds a frame at 4K.
void bring_back(detail::CudaState *s, J2kPlan &p, bool codewords, std::int32_t *coefficients, j2k::CodedBlocks &out) {
  const std::size_t n = std::size_t(p.blocks);
  if (out.results.size() < n || out.pass_lengths.size() < n * j2k::kMaxPasses ||
      out.pass_distortion.size() < n * j2k::kMaxPasses || (codewords && out.offset.size() < n))
    throw Error("JPEG 2000 encoder: the tier-1 results are not sized for " + std::to_string(n) + " code-blocks");
  const std::size_t offsets_bytes = codewords ? sizeof(unsigned long long) * (n + 1) : 0;
  const std::size_t results_bytes = sizeof(j2k::t1::BlockResult) * n;
  auto *host =
      static_cast<std::uint8_t *>(s->reserve_host(detail::HostSlot::J2kEncoder, offsets_bytes + results_bytes));
  if (codewords) download(s, reinterpret_cast<unsigned long long *>(host), p.packed_offsets, n + 1, "codeword offsets");
  download(s, reinterpret_cast<j2k::t1::BlockResult *>(host + offsets_bytes), p.results, n, "block results");
  detail::check(cudaStreamSynchronize(s->stream), "running JPEG 2000 tier-1 on the CUDA stream");
  std::memcpy(out.results.data(), host + offsets_bytes, results_bytes);
  if (codewords) std::memcpy(p.offsets.data(), host, offsets_bytes);

  int passes = 0;
  bool overflow = false;
  for (std::size_t b = 0; b < n; ++b) {
    passes = std::max(passes, out.results[b].passes);
    overflow |= out.results[b].status == j2k::t1::BlockStatus::kOverflow;
  }
  passes = std::min(passes, j2k::kMaxPasses);
  const std::size_t entries = n * std::size_t(passes);
  const unsigned long long total = codewords ? p.offsets[n] : 0;
  host = static_cast<std::uint8_t *>(
      s->reserve_host(detail::HostSlot::J2kEncoder, entries * (sizeof(std::int64_t) + sizeof(int)) + total));
  auto *distortion = reinterpret_cast<std::int64_t *>(host);
  auto *lengths = reinterpret_cast<int *>(host + entries * sizeof(std::int64_t));
  std::uint8_t *bytes = host + entries * (sizeof(std::int64_t) + sizeof(int));
  const CompactArgs c{
      p.pass_lengths.as<int>(),    p.distortion.as<std::int64_t>(),        int(n), j2k::kMaxPasses, passes,
      p.compact_lengths.as<int>(), p.compact_distortion.as<std::int64_t>()};
  launch_kernel(s, compact_passes, ceil_div((long long)entries, kThreads), kThreads, c,
                "the JPEG 2000 pass compaction kernel");
  download(s, distortion, p.compact_distortion, entries, "pass distortions");
  download(s, lengths, p.compact_lengths, entries, "pass lengths");
  if (codewords) download(s, bytes, p.packed, total, "codewords");
  if (overflow && coefficients) download(s, coefficients, p.coefficients, p.coefficient_count, "coefficients");
  detail::check(cudaStreamSynchronize(s->stream), "copying back the JPEG 2000 codewords");
  for (std::size_t b = 0; b < n; ++b) {
    std::memcpy(&out.pass_lengths[b * j2k::kMaxPasses], lengths + b * passes, sizeof(int) * passes);
    std::memcpy(&out.pass_distortion[b * j2k::kMaxPasses], distortion + b * passes, sizeof(std::int64_t) * passes);
  }
  if (codewords) {
    out.packed = bytes;
    for (std::size_t b = 0; b < n; ++b) out.offset[b] = std::size_t(p.offsets[b]);
  }
  s->host_frame_staged = false;
}

}  // namespace j2k_launch

void j2k_transform(detail::CudaState *s, J2kPlanPtr &plan, const J2kInput &in, const j2k::Layout &layout,
                   const std::vector<float> &step_reciprocals) {
  detail::DeviceScope scope(s);
  if (!plan) plan.reset(j2k_launch::make_plan(s, layout));
  J2kPlan &p = *plan;
  if (!p.reversible && (!p.reciprocals.ptr || p.step_reciprocals != step_reciprocals))
    j2k_launch::set_reciprocals(s, p, layout, step_reciprocals);
  j2k_launch::transform(s, p, in, layout);
}

void j2k_estimate_planes(detail::CudaState *s, J2kPlan &p, unsigned style, j2k::CodedBlocks &out) {
  using namespace j2k_launch;
  detail::DeviceScope scope(s);
  if (style & j2k::ht::kStyleHt)
    launch_kernel(s, estimate_ht_blocks, ceil_div(p.blocks, kHtWarps), kHtThreads, ht_args(p, style),
                  "the JPEG 2000 HT plane estimate kernel");
  else
    launch_kernel(s, estimate_blocks, ceil_div(p.blocks, kEstimateWarps), kEstimateWarps * kWarpLanes,
                  EstimateArgs{p.coefficients.as<std::int32_t>(), p.block_list.as<Block>(), p.blocks, style,
                               p.pass_lengths.as<int>(), p.distortion.as<std::int64_t>(),
                               p.results.as<j2k::t1::BlockResult>(), j2k::kMaxPasses},
                  "the JPEG 2000 plane estimate kernel");
  bring_back(s, p, false, nullptr, out);
}

void j2k_code_blocks(detail::CudaState *s, J2kPlan &p, unsigned style, std::int32_t *coefficients,
                     j2k::CodedBlocks &out) {
  detail::DeviceScope scope(s);
  if (p.capacity != out.capacity) j2k_launch::lay_slots(s, p, out.capacity);
  p.has_windows = !out.windows.empty();
  if (p.has_windows) {
    if (out.windows.size() != std::size_t(p.blocks))
      throw Error("JPEG 2000 encoder: " + std::to_string(out.windows.size()) + " plane windows for " +
                  std::to_string(p.blocks) + " code-blocks");
    j2k_launch::upload(s, p.windows, out.windows, "plane windows");
  }
  j2k_launch::tier1(s, p, style);
  j2k_launch::bring_back(s, p, true, coefficients, out);
}

}  // namespace cf::cuda
