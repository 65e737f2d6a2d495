// HT code-blocks on CUDA: a warp per code-block, a lane per quad. The
// cleanup pass is serial only in how its three streams are packed: each
// quad's significance, context, exponent predictor, CxtVLC codeword and
// MagSgn bits depend on its samples and the row above alone, so a warp
// takes 32 quads of a row at once (the shared rules of
// j2k_ht_block_coder_rules.hpp, as the host backends use them), prefix
// sums place their VLC and MagSgn bits, the warp cuts the stuffed bytes
// (warp_bit_streams.cuh), and lane 0 runs MEL over the step's few events.
// Lane 0 ends the streams with the host's own encoder objects, so the bytes
// are the host backends'.
#pragma once

#include <climits>

#include "core/shared/j2k_ht_block_coder_rules.hpp"
#include "core/shared/j2k_ht_plane_estimate_rules.hpp"
#include "kernels/j2k_transform_kernels.cuh"
#include "kernels/warp_bit_streams.cuh"

namespace cf::cuda::j2k_kernels {

constexpr int kHtWarps = 4;  // code-blocks per thread block
constexpr int kHtThreads = kHtWarps * warp::kLanes;

// A step is 32 quads (64 columns) of a row of quads: at most 32 bits for
// each of 128 samples to MagSgn, and 30 VLC bits (two codewords of up to 7
// and 16 of residuals) for each of 16 pairs, beside fewer than 8 left over.
constexpr int kStepColumns = 2 * warp::kLanes;
constexpr int kMagSgnWords = (4 * warp::kLanes * 32 + 7) / 32 + 2;
constexpr int kVlcWords = (warp::kLanes / 2 * 30 + 7) / 32 + 2;

// A warp's shared memory: the two streams' waiting bits, and the exponents
// of the rows above and being coded (QuadRows' layout: column c at c + 1).
struct HtWarpScratch {
  warp::StreamBits<kMagSgnWords> magsgn;
  warp::StreamBits<kVlcWords> vlc;
  std::uint8_t rows[2][j2k::ht::QuadRows::kColumns];
};

struct HtArgs {
  const std::int32_t *coefficients;
  const Block *blocks;
  int count;
  unsigned style;
  const j2k::ht::EncodeTables *tables;
  const j2k::t1::PlaneWindow *windows;  // by Layout index; nullptr: every plane
  std::uint8_t *slots;
  std::uint8_t *work;  // work_bytes per block of the list (MEL's bytes)
  int work_bytes;
  int *pass_lengths;         // max_passes per block, by Layout index
  std::int64_t *distortion;  // likewise
  j2k::t1::BlockResult *results;
  int max_passes;
};

namespace ht_warp {

namespace ht = j2k::ht;

// A cleanup pass's three streams: MEL's encoder (lane 0's), and MagSgn's
// and VLC's state as every lane holds it; and the squared error the pass
// removes from the lane's quads, when asked (gain_shift >= 0: the block's
// distortion shift).
struct CleanupStreams {
  ht::MelEncoder mel;  // lane 0's
  warp::StreamState magsgn, vlc;
  int gain_shift;
  std::int64_t gain;
};

__device__ inline void code_step(const j2k::t1::BlockInput &in, const ht::EncodeTables &tables, int plane, int x0,
                                 int y, unsigned &left_of_step, HtWarpScratch &sh, CleanupStreams &st,
                                 std::uint8_t *room, int capacity) {
  const int lane = warp::lane_id();
  const bool first_row = y == 0;
  const std::uint8_t *above = sh.rows[(y >> 1) & 1];
  std::uint8_t *below = sh.rows[((y >> 1) + 1) & 1];
  const int x = x0 + 2 * lane;
  const bool exists = x < in.width;
  const ht::Quad q = exists ? ht::load_quad(in, x, y, plane) : ht::Quad{};
  const unsigned left_rho = unsigned(__shfl_up_sync(warp::kAllLanes, int(q.rho), 1));
  const unsigned left = lane == 0 ? left_of_step : left_rho;
  left_of_step = unsigned(__shfl_sync(warp::kAllLanes, int(q.rho), warp::kLanes - 1));
  unsigned c = 0;
  ht::QuadSend k{{0, 0, 0}, 0, 0};
  if (exists) {
    const int a0 = above[x], a1 = above[x + 1], a2 = above[x + 2], a3 = above[x + 3];
    c = ht::quad_context(first_row, left, a0, a1, a2, a3);
    k = ht::quad_code(q, c, ht::quad_kappa(first_row, q.rho, a0, a1, a2, a3), first_row, tables);
    below[x + 1] = std::uint8_t(q.e[1]);
    below[x + 2] = std::uint8_t(q.e[3]);
  }
  // A quiet step (every quad insignificant in an empty context: most of a
  // block coded at a coarse plane) sends no VLC or MagSgn bits, only a
  // zero MEL event per quad.
  const unsigned coded = __ballot_sync(warp::kAllLanes, exists);
  if (__all_sync(warp::kAllLanes, !exists || (q.rho == 0 && c == 0))) {
    if (lane == 0) st.mel.encode_zeros(__popc(coded));
    return;
  }
  if (st.gain_shift >= 0 && q.rho != 0) st.gain += ht::quad_gain(in, x, y, plane, st.gain_shift);

  // A pair of quads (lanes 2i, 2i + 1) sends both codewords, then their
  // residuals: the even lane gathers the pair's VLC bits.
  const int next_u = __shfl_down_sync(warp::kAllLanes, k.u, 1);
  const int next_codeword = __shfl_down_sync(warp::kAllLanes, int(k.vlc.codeword), 1);
  const int next_length = __shfl_down_sync(warp::kAllLanes, int(k.vlc.length), 1);
  const bool pair_lane = exists && (lane & 1) == 0;
  const bool has_next = pair_lane && x + 2 < in.width;
  std::uint32_t vlc_bits = 0;
  int vlc_length = 0, pair_mel = -1;
  if (pair_lane) {
    const ht::ResidualBits r = ht::residual_bits(k.u, has_next ? next_u : 0, first_row);
    const int second = has_next ? next_length : 0;
    vlc_bits = k.vlc.codeword | (has_next ? std::uint32_t(next_codeword) << k.vlc.length : 0u) |
               r.bits << (k.vlc.length + second);
    vlc_length = k.vlc.length + second + r.length;
    pair_mel = r.mel;
  }

  int lengths[4], magsgn_length = 0;
  for (int n = 0; n < 4; ++n) magsgn_length += lengths[n] = ht::magsgn_length(q, k, n);
  int magsgn_total, vlc_total;
  int at = st.magsgn.bits + warp::exclusive_sum(magsgn_length, magsgn_total);
  for (int n = 0; n < 4; ++n) {
    warp::add_bits(sh.magsgn, at, ht::magsgn_bits(q, n, lengths[n]), lengths[n]);
    at += lengths[n];
  }
  warp::add_bits(sh.vlc, st.vlc.bits + warp::exclusive_sum(vlc_length, vlc_total), vlc_bits, vlc_length);
  st.magsgn.bits += magsgn_total;
  st.vlc.bits += vlc_total;

  // MEL's events in the serial order: per pair, each quad's significance
  // (when its context is empty), then the pair's residual event.
  const unsigned own = __ballot_sync(warp::kAllLanes, exists && c == 0);
  const unsigned own_value = __ballot_sync(warp::kAllLanes, q.rho != 0);
  const unsigned pair = __ballot_sync(warp::kAllLanes, pair_mel >= 0);
  const unsigned pair_value = __ballot_sync(warp::kAllLanes, pair_mel == 1);
  if (lane == 0)
    for (unsigned events = own | pair; events != 0;) {
      const int a = (__ffs(int(events)) - 1) & ~1, b = a + 1;
      if (own >> a & 1u) st.mel.encode(own_value >> a & 1u);
      if (own >> b & 1u) st.mel.encode(own_value >> b & 1u);
      if (pair >> a & 1u) st.mel.encode(pair_value >> a & 1u);
      events &= ~(3u << a);
    }

  warp::cut_bytes(sh.magsgn, st.magsgn, room, 1, capacity,
                  [](unsigned last, unsigned) { return ht::magsgn_byte_is_short(last); });
  warp::cut_bytes(sh.vlc, st.vlc, capacity > 0 ? room + capacity - 1 : room, -1, capacity,
                  [](unsigned last, unsigned byte) { return ht::vlc_byte_is_short(last, byte); });
}

// One cleanup pass at `plane` into room[0, capacity): as
// HtBlockEncoder::code, its length (at least min_length) on every lane;
// with gain_shift >= 0, what it removes from the squared error
// (ht::cleanup_distortion) into `gain` on every lane.
__device__ inline int code_cleanup(const j2k::t1::BlockInput &in, const ht::EncodeTables &tables, int plane,
                                   std::uint8_t *mel_room, int mel_capacity, std::uint8_t *room, int capacity,
                                   int min_length, HtWarpScratch &sh, int gain_shift, std::int64_t &gain) {
  const int lane = warp::lane_id();
  CleanupStreams st;
  st.gain_shift = gain_shift;
  st.gain = 0;
  st.mel.init(mel_room, mel_capacity);
  // VLC starts as VlcEncoder::init does: Scup's byte, then its nibble.
  st.magsgn = {0, 0, 0};
  st.vlc = {4, 1, 0xFF};
  if (lane == 0 && capacity > 0) room[capacity - 1] = 0xFF;
  for (int i = lane; i < ht::QuadRows::kColumns; i += warp::kLanes) sh.rows[0][i] = sh.rows[1][i] = 0;
  warp::restart(sh.magsgn, 0, 0);
  warp::restart(sh.vlc, 0xF, 4);
  for (int y = 0; y < in.height; y += 2) {
    unsigned left_of_step = 0;
    for (int x0 = 0; x0 < in.width; x0 += kStepColumns)
      code_step(in, tables, plane, x0, y, left_of_step, sh, st, room, capacity);
    __syncwarp();  // the row's exponents are in before the next row reads them
  }
  if (gain_shift >= 0) gain = warp::all_sum(st.gain);

  // Lane 0 ends the streams through the host's encoders, from where the
  // warp left them.
  const unsigned magsgn_rest = sh.magsgn.word[0], vlc_rest = sh.vlc.word[0];
  int layout[5] = {0, 0, 0, 0, 0};
  if (lane == 0) {
    ht::MagSgnEncoder magsgn;
    ht::VlcEncoder vlc;
    magsgn.resume(room, capacity, st.magsgn.bytes, st.magsgn.last, magsgn_rest, st.magsgn.bits);
    vlc.resume(room + capacity, capacity, st.vlc.bytes, st.vlc.last, vlc_rest, st.vlc.bits);
    const ht::SegmentLayout s = ht::close_streams(st.mel, vlc, magsgn, min_length);
    layout[0] = s.magsgn, layout[1] = s.padding, layout[2] = s.mel, layout[3] = s.vlc, layout[4] = s.total;
  }
  for (int &v : layout) v = __shfl_sync(warp::kAllLanes, v, 0);
  const ht::SegmentLayout s{layout[0], layout[1], layout[2], layout[3], layout[4]};
  if (s.total > capacity) return s.total;

  // HtBlockEncoder::finish's moves, a byte a lane; VLC's bytes move forwards
  // a round at a time (no round writes where a later one reads).
  __syncwarp();  // lane 0's last bytes are in
  const int mel_at = s.magsgn + s.padding;
  for (int i = lane; i < s.padding; i += warp::kLanes) room[s.magsgn + i] = 0;
  for (int i = lane; i < s.mel; i += warp::kLanes) room[mel_at + i] = mel_room[i];
  for (int i0 = 0; i0 < s.vlc; i0 += warp::kLanes) {
    const int i = i0 + lane;
    const std::uint8_t b = i < s.vlc ? room[capacity - s.vlc + i] : 0;
    __syncwarp();
    if (i < s.vlc) room[mel_at + s.mel + i] = b;
    __syncwarp();
  }
  if (lane == 0) ht::write_scup(room, s);
  __syncwarp();
  return s.total;
}

// encode_ht_block for a warp: the same checks, candidates and results (on
// every lane; lane 0 writes the pass arrays).
__device__ inline j2k::t1::BlockResult encode_block(const j2k::t1::BlockInput &in, const j2k::t1::BlockOutput &out,
                                                    const ht::EncodeTables &tables, j2k::t1::PlaneWindow window,
                                                    HtWarpScratch &sh) {
  namespace t1 = j2k::t1;
  if (ht::ht_block_refusal(in) != t1::BlockStatus::kOk) return ht::ht_block_start(in, out, 0, window);
  // Each pass's gain comes from the pass itself (code_candidates asks for
  // it right after the pass), with ht_block_start's distortion shift.
  const std::uint32_t any = block_or(in);
  const int gain_shift = out.pass_distortion ? t1::distortion_shift(t1::bitplanes_of(any)) : -1;
  std::int64_t gain = 0;
  const auto code = [&](int plane, std::uint8_t *room, int capacity, int min_length) {
    return code_cleanup(in, tables, plane, out.work, t1::block_work_bytes(in.width, in.height), room, capacity,
                        min_length, sh, gain_shift, gain);
  };
  const auto last_gain = [&](int, int) { return gain; };
  return ht::code_candidates(in, out, any, window, code, last_gain, warp::lane_id() == 0);
}

// estimate_ht_block for a warp: a lane per quad, 32 quads of a row at a
// time; the sums are integers, so they are the serial ones.
__device__ inline j2k::t1::BlockResult estimate_block(const j2k::t1::BlockInput &in, const j2k::t1::BlockOutput &out) {
  namespace t1 = j2k::t1;
  if (ht::ht_block_refusal(in) != t1::BlockStatus::kOk) return ht::ht_block_start(in, out, 0, {});
  const auto of = [&](int top, int shift) {
    ht::PlaneEstimates sum;
    for (int y = 0; y < in.height; y += 2)
      for (int x = 2 * warp::lane_id(); x < in.width; x += kStepColumns)
        ht::add_quad_estimates(ht::quad_magnitudes(in, x, y), top, shift, sum);
    for (ht::PlaneEstimate &e : sum.at) e = {warp::all_sum(e.eighths), warp::all_sum(e.gain)};
    return sum;
  };
  return ht::estimate_candidates(in, out, block_or(in), of, warp::lane_id() == 0);
}

}  // namespace ht_warp

__global__ void __launch_bounds__(kHtThreads) code_ht_blocks(const HtArgs a) {
  __shared__ HtWarpScratch scratch[kHtWarps];
  const int w = int(threadIdx.x) / warp::kLanes;
  const int t = int(blockIdx.x) * kHtWarps + w;
  if (t >= a.count) return;  // the whole warp
  const Block k = a.blocks[t];
  const j2k::t1::BlockResult r = ht_warp::encode_block(
      whole_block_input(a.coefficients, k, a.style),
      whole_block_output(k, t, a.slots, a.work, a.work_bytes, a.pass_lengths, a.distortion, a.max_passes), *a.tables,
      a.windows ? a.windows[k.index] : j2k::t1::PlaneWindow{}, scratch[w]);
  if (warp::lane_id() == 0) a.results[k.index] = r;
}

// Every plane's estimate of each block (a warp each) into the pass arrays
// and results; no codeword is written.
__global__ void __launch_bounds__(kHtThreads) estimate_ht_blocks(const HtArgs a) {
  const int t = int(blockIdx.x) * kHtWarps + int(threadIdx.x) / warp::kLanes;
  if (t >= a.count) return;  // the whole warp
  const Block k = a.blocks[t];
  j2k::t1::BlockOutput out =
      whole_block_output(k, t, a.slots, a.work, a.work_bytes, a.pass_lengths, a.distortion, a.max_passes);
  out.bytes = nullptr;
  out.capacity = INT_MAX;
  const j2k::t1::BlockResult r = ht_warp::estimate_block(whole_block_input(a.coefficients, k, a.style), out);
  if (warp::lane_id() == 0) a.results[k.index] = r;
}

}  // namespace cf::cuda::j2k_kernels
