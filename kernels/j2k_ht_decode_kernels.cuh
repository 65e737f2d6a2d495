// HT code-blocks decoded by a warp (j2k_tier1_decode_kernels.cuh launches
// it). MEL and VLC are read serially, by lane 0: each codeword's length
// and meaning depend on the one before. What they say fixes how many
// MagSgn bits each sample takes, so the rest is parallel, a lane per quad,
// 32 quads (64 columns of a row of quads) a step: a prefix sum places each
// sample's bits, the warp unstuffs MagSgn's bytes 32 at a time (whether a
// byte holds 7 or 8 bits depends only on the byte before it), and each
// lane decodes its samples and writes them over the zeros the launcher
// left (j2k_decode_cuda.cu zeroes the coefficients first): final values
// when the block has no refinement passes, the common case; with them,
// which few encoders write, magnitudes and work flags, the passes on lane 0
// through the host's own decoder, then the reconstruction, a sample a
// lane. Every
// step follows the serial decoder's order, corrupt blocks included (where
// it stops, what it has written), so the samples are the host backends'.
#pragma once

#include "core/shared/j2k_ht_block_decoder_rules.hpp"
#include "kernels/warp_bit_streams.cuh"

namespace cf::cuda::j2k_decode_kernels::ht_warp {

namespace ht = j2k::ht;
namespace t1 = j2k::t1;
namespace warp = j2k_kernels::warp;

constexpr int kStepColumns = 2 * warp::kLanes;
// A step reads at most 32 MagSgn bits for each of its 128 samples; the
// buffer also holds what the last unstuffed round left over (< 256 bits),
// and a spare word for two-word reads.
constexpr int kMagSgnWords = (4 * warp::kLanes * 32 + 8 * warp::kLanes) / 32 + 2;

// A warp's shared memory: unstuffed MagSgn bits from the next unread one,
// the step's codewords and bounds U_q (lane 0 writes them), and the
// exponents of the rows above and being decoded (QuadRows' layout).
struct HtDecodeScratch {
  warp::StreamBits<kMagSgnWords> magsgn;
  ht::QuadCode quads[warp::kLanes];
  std::uint8_t bounds[warp::kLanes];
  std::uint8_t rows[2][ht::QuadRows::kColumns];
};

// MagSgn's bytes (0xFF past the end, as ForwardBits reads them), unstuffed
// into the scratch words.
struct MagSgnWindow {
  const std::uint8_t *data;
  int length;
  int next;       // the next byte to unstuff
  unsigned last;  // the byte before it
  int bits;       // unstuffed bits waiting
};
using MagSgnBits = warp::StreamBits<kMagSgnWords>;

__device__ inline void fill(MagSgnWindow &m, MagSgnBits &words, int need) {
  const int lane = warp::lane_id();
  while (m.bits < need) {
    const int i = m.next + lane;
    const unsigned b = i < m.length ? m.data[i] : 0xFFu;
    const unsigned before = unsigned(__shfl_up_sync(warp::kAllLanes, int(b), 1));
    const int count = (lane == 0 ? m.last : before) == 0xFF ? 7 : 8;
    int total;
    const int at = m.bits + warp::exclusive_sum(count, total);
    warp::add_bits(words, at, b & ((1u << count) - 1u), count);
    m.last = unsigned(__shfl_sync(warp::kAllLanes, int(b), warp::kLanes - 1));
    m.next += warp::kLanes;
    m.bits += total;
    __syncwarp();
  }
}

// Drops the first `used` bits, moving the rest (fewer than 8 words) to the front.
__device__ inline void consume(MagSgnWindow &m, MagSgnBits &words, int used) {
  const int lane = warp::lane_id();
  const int left = m.bits - used, left_words = (left + 31) >> 5, dirty = (m.bits + 31) >> 5;
  const std::uint32_t moved = lane < left_words ? warp::bits_at(words, used + 32 * lane, 32) : 0;
  __syncwarp();
  for (int i = lane; i < dirty; i += warp::kLanes) words.word[i] = 0;
  __syncwarp();
  if (lane < left_words) words.word[lane] = moved;
  m.bits = left;
  __syncwarp();
}

// Lane 0's part of a step: the codewords and residuals of the step's pairs
// (the serial decoder's cleanup_row, pair by pair), into sh.quads and
// sh.bounds. Returns the pairs whose MagSgn bits the serial decoder reads;
// `stop`: it stops after them.
__device__ inline int read_step_codes(ht::QuadCodeReader &codes, const std::uint8_t *above, int width, int x0,
                                      bool first_row, unsigned &left_rho, HtDecodeScratch &sh, bool &stop) {
  int pairs = 0;
  for (int x = x0; x < width && x < x0 + kStepColumns; x += 4) {
    const bool pair = x + 2 < width;
    const auto context = [&](int at, unsigned left) {
      return ht::quad_context(first_row, left, above[at], above[at + 1], above[at + 2], above[at + 3]);
    };
    const auto kappa = [&](int at, unsigned rho) {
      return ht::quad_kappa(first_row, rho, above[at], above[at + 1], above[at + 2], above[at + 3]);
    };
    const ht::QuadCode q0 = codes.read_codeword(context(x, left_rho), first_row);
    ht::QuadCode q1;
    if (pair) q1 = codes.read_codeword(context(x + 2, q0.rho), first_row);
    left_rho = pair ? q1.rho : q0.rho;
    int u0, u1;
    codes.read_residuals(q0, q1, first_row, u0, u1);
    const int bound0 = u0 + kappa(x, q0.rho);
    const int bound1 = u1 + (pair ? kappa(x + 2, q1.rho) : 1);
    if (bound0 > 32 || bound1 > 32) return stop = true, pairs;
    const int q = (x - x0) >> 1;
    sh.quads[q] = q0, sh.quads[q + 1] = q1;
    sh.bounds[q] = std::uint8_t(bound0), sh.bounds[q + 1] = std::uint8_t(bound1);
    ++pairs;
    if (codes.corrupt()) return stop = true, pairs;
  }
  return pairs;
}

// One step: lane 0 reads the codes, then a lane per quad its MagSgn bits.
// `final`: the block has no refinement passes, so each significant sample
// is written reconstructed and no work flags; otherwise its magnitude and
// flags, for the refinement passes and the reconstruction after them.
// Returns whether the cleanup pass stops (a corrupt block).
__device__ inline bool decode_step(const t1::DecodeInput &in, const t1::DecodeOutput &out, int plane, bool final,
                                   int x0, int y, ht::QuadCodeReader &codes, unsigned &left_rho, MagSgnWindow &ms,
                                   HtDecodeScratch &sh) {
  const int lane = warp::lane_id();
  const bool first_row = y == 0;
  const std::uint8_t *above = sh.rows[(y >> 1) & 1];
  std::uint8_t *below = sh.rows[((y >> 1) + 1) & 1];
  bool stop = false;
  int pairs = 0;
  if (lane == 0) pairs = read_step_codes(codes, above, in.width, x0, first_row, left_rho, sh, stop);
  pairs = __shfl_sync(warp::kAllLanes, pairs, 0);
  stop = __shfl_sync(warp::kAllLanes, int(stop), 0) != 0;
  __syncwarp();

  const int x = x0 + 2 * lane;
  const bool read = lane / 2 < pairs && x < in.width;
  const ht::QuadCode q = read ? sh.quads[lane] : ht::QuadCode{};
  const int bound = read ? sh.bounds[lane] : 0;
  int lengths[4], length = 0;
  for (int n = 0; n < 4; ++n) length += lengths[n] = ht::magsgn_bits_of(q, n, bound);
  int total;
  int at = warp::exclusive_sum(length, total);
  fill(ms, sh.magsgn, total);
  ht::DecodedSample d[4];
  int e[4] = {0, 0, 0, 0};
  bool inside[4], corrupt = false;
  for (int n = 0; n < 4; ++n) {
    const int sx = x + (n >> 1), sy = y + (n & 1);
    inside[n] = sx < in.width && sy < in.height;
    if (!(q.rho >> n & 1u)) continue;
    d[n] = ht::decode_sample(warp::bits_at(sh.magsgn, at, lengths[n]), q, n, bound);
    at += lengths[n];
    e[n] = d[n].e;
    corrupt |= inside[n] && (d[n].mu << plane) >= (std::uint64_t(1) << in.magnitude_bitplanes);
  }
  // The serial decoder finishes the pair of the first corrupt sample.
  const unsigned corrupt_lanes = __ballot_sync(warp::kAllLanes, corrupt);
  const int last_pair = corrupt_lanes ? (__ffs(int(corrupt_lanes)) - 1) / 2 : warp::kLanes;
  if (read && lane / 2 <= last_pair) {
    for (int n = 0; n < 4; ++n) {
      if (!(q.rho >> n & 1u) || !inside[n] || (d[n].mu << plane) >= (std::uint64_t(1) << in.magnitude_bitplanes))
        continue;
      const int sx = x + (n >> 1), sy = y + (n & 1);
      const std::int32_t v = std::int32_t(d[n].mu << plane);
      const std::uint8_t flag = std::uint8_t(ht::kDecodedSignificant | (d[n].negative ? ht::kDecodedNegative : 0));
      if (final) {
        out.samples[sy * out.stride + sx] = ht::reconstructed(flag, v, plane, 0, in.fraction_bits);
      } else {
        out.samples[sy * out.stride + sx] = v;
        out.work[(sy + 1) * (in.width + 2) + sx + 1] = flag;
      }
    }
    below[x + 1] = std::uint8_t(e[1]);
    below[x + 2] = std::uint8_t(e[3]);
  }
  consume(ms, sh.magsgn, total);
  return stop || corrupt_lanes != 0;
}

// decode_ht_block for a warp: the same checks, samples and status (on
// every lane).
__device__ inline t1::BlockStatus decode_block(const t1::DecodeInput &in, const t1::DecodeOutput &out,
                                               const ht::DecodeTables &tables, HtDecodeScratch &sh) {
  const int lane = warp::lane_id();
  const ht::HtBlockPlan p = ht::plan_ht_block(in, out);
  if (p.status != t1::BlockStatus::kOk) return p.status;
  const int w = in.width, h = in.height;
  if (p.empty) return t1::BlockStatus::kOk;
  // Without refinement passes each sample is written once, final.
  const bool final = p.refinement == 0;
  if (!final)
    for (int i = lane, n = t1::block_work_bytes(w, h); i < n; i += warp::kLanes) out.work[i] = 0;
  const int scup = ht::HtBlockDecoder::cleanup_scup(in);
  if (scup < 0) return t1::BlockStatus::kCorrupt;

  ht::QuadCodeReader codes(tables);
  if (lane == 0) codes.init(in.data, in.segment_lengths[0], scup);
  MagSgnWindow ms{in.data, in.segment_lengths[0] - scup, 0, 0, 0};
  for (int i = lane; i < ht::QuadRows::kColumns; i += warp::kLanes) sh.rows[0][i] = sh.rows[1][i] = 0;
  for (int i = lane; i < kMagSgnWords; i += warp::kLanes) sh.magsgn.word[i] = 0;
  __syncwarp();
  bool corrupt = false;
  for (int y = 0; y < h && !corrupt; y += 2) {
    unsigned left_rho = 0;
    for (int x0 = 0; x0 < w && !corrupt; x0 += kStepColumns)
      corrupt = decode_step(in, out, p.plane, final, x0, y, codes, left_rho, ms, sh);
    __syncwarp();  // the row's exponents are in before the next row reads them
  }
  if (final) return corrupt ? t1::BlockStatus::kCorrupt : t1::BlockStatus::kOk;
  __syncwarp();  // every lane's samples are in
  if (!corrupt && lane == 0) {
    ht::HtBlockDecoder dec(in, out, tables, p.plane, p.refinement);
    dec.refine();
  }
  __syncwarp();
  for (int i = lane; i < w * h; i += warp::kLanes) {
    const int x = i % w, y = i / w;
    std::int32_t &v = out.samples[y * out.stride + x];
    v = ht::reconstructed(out.work[(y + 1) * (w + 2) + x + 1], v, p.plane, p.refinement, in.fraction_bits);
  }
  return corrupt ? t1::BlockStatus::kCorrupt : t1::BlockStatus::kOk;
}

}  // namespace cf::cuda::j2k_decode_kernels::ht_warp
