// Tier-1 of the JPEG 2000 encoder's CUDA backend (kernels/j2k_encode_cuda.cu) in
// two kernels, so that the parallel part runs on whole warps and only the
// MQ coder's strictly serial part on one thread per code-block:
//
//   model_blocks: one warp per code-block forms the contexts of every pass
//     (T.800 D.3) and stores the decisions, one byte each (pack_decision),
//     with the count at the end of each pass and each pass's distortion.
//   code_decisions: one thread per code-block feeds them to t1::PassCoder,
//     the serial reference's own pass and segment coder.
//
// The warp takes a stripe 32 columns at a time, a lane per column, and
// finds what the serial stripe scan would: a sample's context counts a
// neighbour as significant when it was at the start of the pass or became
// so earlier in the scan (the columns to the left, the rows above in its
// column, the stripes above). Refinement changes no significance, so its
// contexts are direct; in the cleanup pass every uncoded sample is coded, so
// the new significance is known at once (its bit) and only the contexts
// need the left lane's; in the significance propagation pass whether a
// sample is coded depends on what became significant before it, so the
// lanes iterate to the fixed point (new significance only flows to the
// right and down, so the iteration reaches the serial scan's result; rarely
// more than two rounds). The lanes then write their columns' decisions in
// scan order (a prefix sum of their counts).
//
// The block's samples and its state (one word per stripe column: 4 rows of
// significance, sign, refined, coded in this plane) are in shared memory.
// A block with more decisions than its room is coded whole by
// t1::encode_block in code_decisions (the bytes are the same, only slower).
#pragma once

#include <climits>
#include <cstdint>

#include "core/shared/j2k_block_coder_rules.hpp"
#include "core/shared/j2k_plane_estimate_rules.hpp"
#include "kernels/j2k_tier1_tables.cuh"
#include "kernels/j2k_transform_kernels.cuh"  // Block
#include "kernels/warp_lanes.cuh"

namespace cf::cuda::j2k_kernels {

constexpr unsigned kAllLanes = warp::kAllLanes;
constexpr int kWarpLanes = warp::kLanes;
// Code-blocks per thread block of code_decisions: one. Threads coding
// different blocks in one warp branch apart at nearly every decision, and
// each block is one long dependent chain, so a warp per block (32 resident
// per SM) hides the latencies best.
constexpr int kCodeThreads = 1;

// What model_blocks leaves for code_decisions, per code-block.
struct BlockModel {
  int planes;     // bit-planes from the top non-zero one (0: an all-zero block)
  int decisions;  // formed (more than the room: none kept)
};

using j2k::t1::ColumnBits;
using j2k::t1::kCodedShift;
using j2k::t1::kNegShift;
using j2k::t1::kRefinedShift;
using j2k::t1::kSigShift;
using j2k::t1::neighbour_mask;
using j2k::t1::with_new;

struct Tier1Shared {
  std::int32_t *samples;  // the block's, rows of `width`
  std::uint32_t *words;   // stripe s, column x at s * width + x
  int width, height, stripes;
};

__device__ __forceinline__ ColumnBits column_bits(const Tier1Shared &b, int s, int x) {
  if (x < 0 || x >= b.width) return {0, 0};
  const std::uint32_t c = b.words[s * b.width + x];
  ColumnBits v{((c >> kSigShift) & 15u) << 1, ((c >> kNegShift) & 15u) << 1};
  if (s > 0) {
    const std::uint32_t u = b.words[(s - 1) * b.width + x];  // its row 3 is the row above
    v.sig |= (u >> (kSigShift + 3)) & 1u;
    v.neg |= (u >> (kNegShift + 3)) & 1u;
  }
  if (s + 1 < b.stripes) {
    const std::uint32_t d = b.words[(s + 1) * b.width + x];  // its row 0 is the row below
    v.sig |= ((d >> kSigShift) & 1u) << 5;
    v.neg |= ((d >> kNegShift) & 1u) << 5;
  }
  return v;
}

// A lane's decisions for its column, in scan order.
struct ColumnDecisions {
  std::uint8_t v[12];  // at most 10: a run, its position, a sign, then 3 rows with their signs
  int n = 0;
  std::int64_t distortion = 0;
  __device__ __forceinline__ void put(int label, int d, int flip = 0) {
    v[n++] = j2k::t1::pack_decision(label, d, flip);
  }
};

// One lane's column of one stripe in one pass.
struct ColumnPass {
  int kind, plane, shift;
  bool causal, full_stripe;
  j2k::t1::Orientation orientation;
  unsigned valid;                // rows inside the block
  unsigned bits, negative_rows;  // the samples' bits on the plane, their signs
  std::uint32_t magnitude[4];
  ColumnBits left, own,
      right;  // left: as it ends this pass (but for the lane's own new rows); own, right: at its start
};

// Row r has just become significant: its sign (D.3.2), in the context of
// its neighbours m (signs: negative).
__device__ __forceinline__ void code_sign(const ColumnPass &c, unsigned m, unsigned negative, int r,
                                          ColumnDecisions &out) {
  const j2k::t1::SignContext sc = j2k::t1::sign_context(m, negative);
  out.put(sc.label, int((c.negative_rows >> r) & 1u), sc.xor_bit);
  out.distortion += j2k::t1::distortion_gain(c.magnitude[r], c.plane, c.shift);
}

// Row r's neighbours when the scan reaches it: new_rows, the column's rows
// new in this pass, count above r.
__device__ __forceinline__ unsigned mask_at_visit(const ColumnPass &c, const ColumnBits &left, unsigned new_rows, int r,
                                                  unsigned &negative) {
  const ColumnBits own = with_new(c.own, new_rows & ((1u << r) - 1), c.negative_rows);
  return neighbour_mask(left, own, c.right, r, c.causal, negative);
}

// Significance decision of row r, and its sign when it becomes significant.
__device__ __forceinline__ void code_row(const ColumnPass &c, const ColumnBits &left, unsigned new_rows, int r,
                                         ColumnDecisions &out) {
  unsigned negative;
  const unsigned m = mask_at_visit(c, left, new_rows, r, negative);
  const int b = int((c.bits >> r) & 1u);
  out.put(j2k::t1::significance_context(c.orientation, m), b);
  if (b) code_sign(c, m, negative, r, out);
}

// The left column as it ends the pass: lane 0's is in the previous chunk
// and final already; the others get the left lane's new rows. Every lane
// calls it (a shuffle).
__device__ __forceinline__ ColumnBits left_after(const ColumnPass &c, unsigned new_rows) {
  const unsigned l = unsigned(__shfl_up_sync(kAllLanes, int(new_rows), 1));
  const unsigned ln = unsigned(__shfl_up_sync(kAllLanes, int(new_rows & c.negative_rows), 1));
  return int(threadIdx.x) % kWarpLanes == 0 ? c.left : with_new(c.left, l, ln);
}

// D.3.1 for a column: the insignificant rows with a significant neighbour
// when the scan reaches them. Which rows those are depends on what became
// significant before them, so the warp iterates: each round every lane
// recomputes its column from its left lane's last result, until no lane
// changes. Returns the new rows (their bits); `coded` gets the rows coded.
__device__ __forceinline__ unsigned propagate(const ColumnPass &c, unsigned candidates, unsigned &coded) {
  unsigned new_rows = 0;
  coded = 0;
  if (!__any_sync(kAllLanes, candidates != 0)) return 0;
  for (;;) {
    const ColumnBits left = left_after(c, new_rows);
    unsigned next = 0, now = 0, negative;
    for (int r = 0; r < 4; ++r)
      if (((candidates >> r) & 1u) && mask_at_visit(c, left, next, r, negative) != 0) {
        now |= 1u << r;
        next |= c.bits & (1u << r);
      }
    const bool changed = __any_sync(kAllLanes, next != new_rows);
    new_rows = next;
    coded = now;
    if (!changed) return new_rows;
  }
}

__device__ __forceinline__ void significance_column(const ColumnPass &c, ColumnDecisions &out, std::uint32_t &word) {
  const unsigned sig = (word >> kSigShift) & 15u;
  unsigned coded;
  const unsigned new_rows = propagate(c, c.valid & ~sig, coded);
  const ColumnBits left = left_after(c, new_rows);
  for (int r = 0; r < 4; ++r)
    if ((coded >> r) & 1u) code_row(c, left, new_rows, r, out);
  word |= (new_rows << kSigShift) | ((new_rows & c.negative_rows) << kNegShift) | (coded << kCodedShift);
}

// D.3.3: the rows significant before this plane and not coded in it yet.
__device__ __forceinline__ void refinement_column(const ColumnPass &c, ColumnDecisions &out, std::uint32_t &word) {
  const unsigned refine = c.valid & (word >> kSigShift) & ~(word >> kCodedShift) & 15u;
  for (int r = 0; r < 4; ++r)
    if ((refine >> r) & 1u) {
      unsigned negative;
      const unsigned m = neighbour_mask(c.left, c.own, c.right, r, c.causal, negative);
      out.put(j2k::t1::refinement_context(((word >> (kRefinedShift + r)) & 1u) != 0, m), int((c.bits >> r) & 1u));
      out.distortion += j2k::t1::distortion_gain(c.magnitude[r], c.plane, c.shift);
    }
  word |= refine << kRefinedShift;
}

// D.3.4: every row still uncoded, a run of a whole insignificant stripe
// column first where it applies; the new rows are the uncoded 1 bits.
__device__ __forceinline__ void cleanup_column(const ColumnPass &c, ColumnDecisions &out, std::uint32_t &word) {
  namespace t1 = j2k::t1;
  const unsigned uncoded = c.valid & ~(word >> kSigShift) & ~(word >> kCodedShift) & 15u;
  const unsigned new_rows = uncoded & c.bits;
  const ColumnBits left = left_after(c, new_rows);
  unsigned negative;
  bool run = c.full_stripe && uncoded == 15u;
  for (int r = 0; run && r < 4; ++r) run = neighbour_mask(left, c.own, c.right, r, c.causal, negative) == 0;
  int r = 0;
  if (run) {
    while (r < 4 && ((c.bits >> r) & 1u) == 0) ++r;
    out.put(t1::kRunLengthContext, r < 4 ? 1 : 0);
    if (r < 4) {  // the first significant row, two bits, then its sign
      out.put(t1::kUniformContext, r >> 1);
      out.put(t1::kUniformContext, r & 1);
      code_sign(c, neighbour_mask(left, c.own, c.right, r, c.causal, negative), negative, r, out);
      ++r;
    }
  }
  for (; r < 4; ++r)
    if ((uncoded >> r) & 1u) code_row(c, left, new_rows, r, out);
  word = (word | (new_rows << kSigShift) | ((new_rows & c.negative_rows) << kNegShift)) & ~(15u << kCodedShift);
}

// Models a lane's stripe column in one pass and updates its state word.
// Every lane of the warp calls it (the shuffles need them all), lanes past
// the block's width with nothing to code.
__device__ __forceinline__ void model_column(const ColumnPass &c, ColumnDecisions &out, std::uint32_t &word) {
  if (c.kind == 0) significance_column(c, out, word);
  if (c.kind == 1) refinement_column(c, out, word);
  if (c.kind == 2) cleanup_column(c, out, word);
}

struct ModelArgs {
  const std::int32_t *coefficients;
  const Block *blocks;
  unsigned style;
  std::uint8_t *decisions;  // decision_room bytes per block, by Layout index
  long long decision_room;
  int *pass_ends;            // max_passes per block: decisions formed by the end of each pass
  std::int64_t *distortion;  // likewise: the squared error each pass removes
  BlockModel *models;
  const j2k::t1::PlaneWindow *windows;  // by Layout index; nullptr: every plane
  int max_passes;
  int shared_samples;  // the sample array's part of the dynamic shared memory (in words)
  int shared_words;    // all of it: then the stripe columns' state words
};

// One warp per code-block (blocks[blockIdx.x]).
__global__ void __launch_bounds__(kWarpLanes) model_blocks(const ModelArgs a) {
  namespace t1 = j2k::t1;
#ifdef CF_CUDA_EMULATION
  std::uint32_t *shared =
      static_cast<std::uint32_t *>(cf_emulate_dynamic_shared(sizeof(std::uint32_t) * a.shared_words));
#else
  extern __shared__ std::uint32_t shared[];
#endif
  const Block k = a.blocks[blockIdx.x];
  const int lane = int(threadIdx.x);
  Tier1Shared b{reinterpret_cast<std::int32_t *>(shared), shared + a.shared_samples, k.width, k.height,
                t1::stripe_count(k.height)};
  std::uint32_t any = 0;
  for (int i = lane; i < b.width * b.height; i += kWarpLanes) {
    const std::int32_t v = a.coefficients[k.coefficient + (unsigned long long)(i / b.width) * k.stride + i % b.width];
    b.samples[i] = v;
    any |= v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v);
  }
  for (int i = lane; i < b.stripes * b.width; i += kWarpLanes) b.words[i] = 0;
  for (int d = kWarpLanes / 2; d > 0; d >>= 1) any |= unsigned(__shfl_down_sync(kAllLanes, int(any), d));
  const int planes = t1::bitplanes_of(unsigned(__shfl_sync(kAllLanes, int(any), 0)));
  __syncwarp();
  const t1::BlockResult plan =
      t1::planned_result(planes, t1::kMaxBitplanes, a.windows ? a.windows[k.index] : t1::PlaneWindow{});
  std::uint8_t *decisions = a.decisions + (unsigned long long)k.index * a.decision_room;
  const unsigned long long first_pass = (unsigned long long)k.index * a.max_passes;
  long long count = 0;
  for (int pass = 0; pass < plan.passes; ++pass) {
    ColumnPass c{};
    c.kind = t1::pass_kind(pass);
    c.plane = planes - 1 - (pass + 2) / 3;
    c.shift = plan.distortion_shift;
    c.causal = (a.style & t1::kStyleVerticalCausal) != 0;
    c.orientation = t1::Orientation(k.orientation);
    std::int64_t distortion = 0;
    for (int s = 0; s < b.stripes; ++s) {
      const int rows = t1::stripe_rows(s, b.height), y0 = s * t1::kStripeHeight;
      c.full_stripe = rows == t1::kStripeHeight;
      for (int x0 = 0; x0 < b.width; x0 += kWarpLanes) {
        const int x = x0 + lane;
        const bool inside = x < b.width;
        c.valid = inside ? (1u << rows) - 1 : 0u;
        c.bits = c.negative_rows = 0;
        for (int r = 0; r < rows && inside; ++r) {
          const std::int32_t v = b.samples[(y0 + r) * b.width + x];
          c.magnitude[r] = v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v);
          c.bits |= ((c.magnitude[r] >> c.plane) & 1u) << r;
          c.negative_rows |= (v < 0 ? 1u : 0u) << r;
        }
        c.left = column_bits(b, s, x - 1);
        c.own = column_bits(b, s, x);
        c.right = column_bits(b, s, x + 1);
        std::uint32_t word = inside ? b.words[s * b.width + x] : 0u;
        ColumnDecisions out;
        model_column(c, out, word);
        int total;
        const long long at = count + warp::exclusive_sum(out.n, total);
        if (at + out.n <= a.decision_room)
          for (int i = 0; i < out.n; ++i) decisions[at + i] = out.v[i];
        count += total;
        distortion += out.distortion;
        __syncwarp();  // every lane has read its neighbours' words
        if (inside) b.words[s * b.width + x] = word;
        __syncwarp();
      }
    }
    if (c.kind == 2 && (a.style & t1::kStyleSegmentation)) {
      if (lane == 0 && count + 4 <= a.decision_room)
        for (int i = 0; i < 4; ++i) decisions[count + i] = t1::pack_decision(t1::kUniformContext, 1 - (i & 1), 0);
      count += 4;
    }
    distortion = warp::lane0_sum(distortion);
    if (lane == 0) {
      a.pass_ends[first_pass + pass] = int(count < a.decision_room ? count : a.decision_room);
      a.distortion[first_pass + pass] = distortion;
    }
  }
  if (lane == 0) a.models[k.index] = {planes, int(count < 0x7fffffff ? count : 0x7fffffff)};
}

struct CodeArgs {
  const std::int32_t *coefficients;
  const Block *blocks;
  int count;
  unsigned style;
  const std::uint8_t *decisions;
  long long decision_room;
  const int *pass_ends;
  const BlockModel *models;
  std::uint8_t *slots;
  std::uint8_t *work;  // work_bytes per thread, for the blocks coded whole
  int work_bytes;
  int *pass_lengths;         // max_passes per block, by Layout index
  std::int64_t *distortion;  // likewise (filled by model_blocks, but for the blocks coded whole)
  j2k::t1::BlockResult *results;
  const j2k::t1::PlaneWindow *windows;  // by Layout index; nullptr: every plane
  int max_passes;
};

// Decision i of a block's stored decisions, loaded 16 at a time (the room
// of a block is a multiple of 16 bytes). The next 16 are loaded while the
// current ones are coded, so that the coder does not wait on memory at
// every 16th decision.
struct DecisionReader {
  const uint4 *words;
  int last;  // the word holding the block's last decision
  uint4 now{}, next;
  __device__ DecisionReader(const std::uint8_t *decisions, int count)
      : words(reinterpret_cast<const uint4 *>(decisions)), last(count > 0 ? (count - 1) >> 4 : 0), next(words[0]) {}
  __device__ __forceinline__ std::uint8_t at(int i) {
    if ((i & 15) == 0) {
      now = next;
      const int w = (i >> 4) + 1;
      next = words[w < last ? w : last];
    }
    const int k = (i >> 2) & 3;
    const unsigned w = k == 0 ? now.x : k == 1 ? now.y : k == 2 ? now.z : now.w;
    return std::uint8_t(w >> (8 * (i & 3)));
  }
};

// A block whose decisions did not fit their room, coded whole by
// encode_block: rare, and out of line so that the decision loop of
// code_decisions stays small.
__device__ __noinline__ void code_whole_block(const CodeArgs &a, const Block &k, int t, const std::uint32_t *table) {
  a.results[k.index] = j2k::t1::encode_block(
      whole_block_input(a.coefficients, k, a.style),
      whole_block_output(k, t, a.slots, a.work, a.work_bytes, a.pass_lengths, a.distortion, a.max_passes), table,
      a.windows ? a.windows[k.index] : j2k::t1::PlaneWindow{});
}

// One thread per code-block: its decisions through the pass coder, or the
// whole block through encode_block when they did not fit. The loop is one
// decision per round whatever the pass, so that the threads of a warp stay
// together; the MQ transitions come from a copy of Table C.2's in shared
// memory.
__global__ void __launch_bounds__(kCodeThreads) code_decisions(const CodeArgs a) {
  namespace t1 = j2k::t1;
  __shared__ j2k::MqTransitions table;
  __shared__ j2k::MqContext contexts[kCodeThreads][t1::kContextCount];
  j2k_tier1_tables::copy_table(table, j2k_tier1_tables::kMqTransitions, int(threadIdx.x), kCodeThreads);
  __syncthreads();
  const int t = int(blockIdx.x) * kCodeThreads + int(threadIdx.x);
  if (t >= a.count) return;
  const Block k = a.blocks[t];
  const BlockModel m = a.models[k.index];
  const unsigned long long first_pass = (unsigned long long)k.index * a.max_passes;
  if (m.decisions > a.decision_room) {
    code_whole_block(a, k, t, table.row);
    return;
  }
  t1::BlockResult res =
      t1::planned_result(m.planes, t1::kMaxBitplanes, a.windows ? a.windows[k.index] : t1::PlaneWindow{});
  if (res.passes > 0) {
    DecisionReader d(a.decisions + (unsigned long long)k.index * a.decision_room, m.decisions);
    const int *ends = a.pass_ends + first_pass;
    int *lengths = a.pass_lengths + first_pass;
    t1::PassCoder coder(a.style, res.passes, a.slots + k.slot, k.capacity, contexts[threadIdx.x]);
    coder.use_table(table.row);
    for (int i = 0, pass = 0, end = ends[0];;) {
      while (i == end) {  // a pass ends here (maybe several: a pass may have no decision)
        coder.end_pass(pass, lengths);
        if (++pass == res.passes) break;
        end = ends[pass];
      }
      if (pass == res.passes) break;
      const std::uint8_t v = d.at(i++);
      coder.code(t1::decision_label(v), t1::decision_bit(v), t1::decision_flip(v));
    }
    res.bytes = coder.finish(lengths);
    if (res.bytes > k.capacity) res.status = t1::BlockStatus::kOverflow;
  }
  a.results[k.index] = res;
}

// Every plane's estimate of each block (j2k_plane_estimate_rules.hpp), a
// warp per block and kEstimateWarps blocks to a thread block, into the
// pass arrays and results. The lanes add their samples to the warp's tally
// in shared memory atomically; the sums are integers, so they are the
// serial ones.
constexpr int kEstimateWarps = 4;

struct EstimateArgs {
  const std::int32_t *coefficients;
  const Block *blocks;
  int count;
  unsigned style;
  int *pass_lengths;         // max_passes per block, by Layout index
  std::int64_t *distortion;  // likewise
  j2k::t1::BlockResult *results;
  int max_passes;
};

__global__ void __launch_bounds__(kEstimateWarps *kWarpLanes) estimate_blocks(const EstimateArgs a) {
  namespace t1 = j2k::t1;
  __shared__ t1::PlaneTally tallies[kEstimateWarps];
  const int w = int(threadIdx.x) / kWarpLanes, lane = int(threadIdx.x) % kWarpLanes;
  const int t = int(blockIdx.x) * kEstimateWarps + w;
  if (t >= a.count) return;  // the whole warp
  const Block k = a.blocks[t];
  const t1::BlockInput in = whole_block_input(a.coefficients, k, a.style);
  const unsigned long long first_pass = (unsigned long long)k.index * a.max_passes;
  const t1::BlockOutput out{
      nullptr, nullptr, INT_MAX, a.pass_lengths + first_pass, a.max_passes, a.distortion + first_pass};
  const int samples = in.width * in.height;
  int planes;
  const t1::BlockResult start = t1::estimate_start(in, out, planes, [&] { return block_or(in); });
  if (start.status != t1::BlockStatus::kOk || planes == 0) {
    if (lane == 0) a.results[k.index] = start;
    return;
  }
  t1::PlaneTally &tally = tallies[w];
  t1::clear_tally(tally, lane, kWarpLanes);
  __syncwarp();
  for (int i = lane; i < samples; i += kWarpLanes) {
    const t1::SampleTally s = t1::sample_tally(in, i % in.width, i / in.width);
    if (s.plane >= 0) atomicAdd(&tally.becoming[s.plane], 1u);
    if (s.near_past > s.near_from) {
      atomicAdd(&tally.near_from[s.near_from], 1u);
      atomicAdd(&tally.near_past[s.near_past], 1u);
    }
  }
  __syncwarp();
  const auto gain_of = [&](int plane, int shift) {
    return warp::all_sum(t1::plane_gain(in, plane, shift, lane, kWarpLanes));
  };
  const t1::BlockResult r = t1::estimates_from_tally(in, out, planes, tally, gain_of, lane == 0);
  if (lane == 0) a.results[k.index] = r;
}

}  // namespace cf::cuda::j2k_kernels
