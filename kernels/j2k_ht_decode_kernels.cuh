// HT code-blocks decoded in two kernels (j2k_tier1_decode_kernels.cuh
// launches them).
//  - ht_codes, a thread per block: MEL and VLC. Each codeword's length and
//    meaning depend on the one before, and a quad's context only on the
//    significance of the quads before it, so a thread reads the whole
//    cleanup pass's codewords and residuals in the serial decoder's order,
//    and writes them packed, a word a quad, for the second kernel. Threads
//    of a warp take blocks of similar length (the launcher sorts them).
//  - ht_warp, a warp per block: MagSgn. With the codewords known, a row of
//    quads needs only the exponents of the row above (kappa_q), so a lane
//    takes a quad, 32 quads (64 columns of a row of quads) a step: a prefix
//    sum places each sample's bits, the warp unstuffs MagSgn's bytes 32 at a
//    time (whether a byte holds 7 or 8 bits depends only on the byte before
//    it), and each lane decodes its samples and writes them over the zeros
//    the launcher left (j2k_tier1_decode_cuda.cu zeroes the coefficients first):
//    final values when the block has no refinement passes, the common case;
//    with them, which few encoders write, magnitudes and work flags, the
//    passes on lane 0 through the host's own decoder, then the
//    reconstruction, a sample a lane.
// Every step follows the serial decoder's order, corrupt blocks included
// (where it stops, what it has written), so the samples are the host
// backends'.
#pragma once

#include "core/shared/j2k_ht_block_decoder_rules.hpp"
#include "kernels/warp_bit_streams.cuh"

namespace cf::cuda::j2k_decode_kernels {

namespace ht_codes {

namespace ht = j2k::ht;
namespace t1 = j2k::t1;

// A quad's codeword and residual u_q, packed: rho | e_k << 4 | e_1 << 8 |
// u_q << 12 (u_q < 64).
__device__ inline std::uint32_t pack(const ht::QuadCode &q, int u) {
  return q.rho | q.e_k << 4 | q.e_1 << 8 | unsigned(u) << 12;
}
__device__ inline ht::QuadCode unpack(std::uint32_t word, int &u) {
  ht::QuadCode q;
  q.rho = word & 0xF, q.e_k = (word >> 4) & 0xF, q.e_1 = (word >> 8) & 0xF;
  u = int(word >> 12) & 0x3F;
  return q;
}

// Quads along a side of n samples; the words a block of w x h samples
// takes: a quad each, row after row.
__host__ __device__ constexpr int quads_along(int n) { return (n + 1) / 2; }
__host__ __device__ constexpr int quad_count(int w, int h) { return quads_along(w) * quads_along(h); }
// The codes of the row of quads of sample row y.
template <class Word>
__device__ inline Word *row_codes(Word *codes, int w, int y) {
  return codes + (y >> 1) * quads_along(w);
}

// The significance of the bottom samples of a row of quads, a bit a
// column (column c at bit c + 1, so that column -1 is a zero): one row,
// read as the row above and overwritten, a word behind, as the row below.
constexpr int kRowWords = (t1::kMaxBlockSide + 3) / 32 + 2;

// c_q as QuadRows::context gives it, from significance alone (an exponent
// is nonzero exactly where its sample is significant); `around`: columns
// x - 1 .. x + 2 of the row above, bit i column x - 1 + i.
__device__ inline unsigned context(unsigned around, bool first_row, unsigned left_rho) {
  return ht::quad_context(first_row, left_rho, int(around & 1u), int(around >> 1 & 1u), int(around >> 2 & 1u),
                          int(around >> 3 & 1u));
}

// The serial decoder's cleanup_row without MagSgn, for every row: each
// quad's packed codes at row_codes(codes, w, y)[x / 2]. Blocks
// the serial decoder refuses or finds empty are left alone (the second
// kernel makes the same checks). The VLC tables have no gaps (every 7 bits
// start a codeword in every context), so the codes turn corrupt only at a
// U-VLC extension: u_q >= 33, a bound U_q over 32, at which the second
// kernel stops before the pair, as the serial decoder does. Nothing is
// written past that pair. The significance the contexts need passes
// through registers, two words of the row above and the word of the row
// below being gathered, so that the thread's chain of dependent steps
// touches memory only every 8 pairs.
__device__ inline void read_block(const t1::DecodeInput &in, const t1::DecodeOutput &out,
                                  const ht::DecodeTables &tables, std::uint32_t *codes) {
  const ht::HtBlockPlan p = ht::plan_ht_block(in, out);
  if (p.status != t1::BlockStatus::kOk || p.empty) return;
  const int scup = ht::HtBlockDecoder::cleanup_scup(in);
  if (scup < 0) return;
  ht::QuadCodeReader reader(tables);
  reader.init(in.data, in.segment_lengths[0], scup);
  const int w = in.width, h = in.height, used = (w + 2) / 32 + 2;
  std::uint32_t significance[kRowWords];
  for (int i = 0; i < used; ++i) significance[i] = 0;
  for (int y = 0; y < h; y += 2) {
    const bool first_row = y == 0;
    std::uint32_t *row = row_codes(codes, w, y);
    unsigned long long above = (unsigned long long)significance[1] << 32 | significance[0];
    unsigned long long below = 0;  // from bit 0 of word `at`
    int at = 0;
    unsigned left_rho = 0;
    for (int x = 0; x < w; x += 4) {
      if ((x >> 5) != at) {  // the words move on: word `at` of the row below is complete
        significance[at] = std::uint32_t(below);
        below >>= 32;
        ++at;
        above = above >> 32 | (unsigned long long)significance[at + 1] << 32;
      }
      const unsigned around = unsigned(above >> (x & 31));
      const bool pair = x + 2 < w;
      reader.refill();
      const ht::QuadCode q0 = reader.read_codeword(context(around, first_row, left_rho), first_row);
      ht::QuadCode q1;
      if (pair) q1 = reader.read_codeword(context(around >> 2, first_row, q0.rho), first_row);
      left_rho = pair ? q1.rho : q0.rho;
      int u0, u1;
      reader.read_residuals(q0, q1, first_row, u0, u1);
      row[x >> 1] = pack(q0, u0);
      if (pair) row[(x >> 1) + 1] = pack(q1, u1);
      // Columns x .. x + 3: the bottom samples of both quads.
      const unsigned bottom = (q0.rho >> 1 & 1u) | (q0.rho >> 2 & 2u) | (q1.rho << 1 & 4u) | (q1.rho & 8u);
      below |= (unsigned long long)bottom << ((x & 31) + 1);
      if (reader.corrupt()) return;
    }
    for (; at < used; ++at, below >>= 32) significance[at] = std::uint32_t(below);
  }
}

}  // namespace ht_codes

namespace ht_warp {

namespace ht = j2k::ht;
namespace t1 = j2k::t1;
namespace warp = j2k_kernels::warp;

constexpr int kStepColumns = 2 * warp::kLanes;
// A step reads at most 32 MagSgn bits for each of its 128 samples; the
// buffer also holds what the last unstuffed round left over (< 256 bits),
// and a spare word for two-word reads.
constexpr int kMagSgnWords = (4 * warp::kLanes * 32 + 8 * warp::kLanes) / 32 + 2;

// A warp's shared memory: unstuffed MagSgn bits from the next unread one,
// and the exponents of the rows above and being decoded (QuadRows' layout).
struct HtDecodeScratch {
  warp::StreamBits<kMagSgnWords> magsgn;
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

// The pairs of a step whose MagSgn bits the serial decoder reads: those
// before the first with a bound U_q over 32, where it stops (`stop`).
__device__ inline int step_pairs(int width, int x0, bool bad_bound, bool &stop) {
  const int columns = width - x0 < kStepColumns ? width - x0 : kStepColumns;
  const unsigned bad = __ballot_sync(warp::kAllLanes, bad_bound);
  stop = bad != 0;
  return stop ? (__ffs(int(bad)) - 1) / 2 : (columns + 3) / 4;
}

// One step: a lane per quad, its codes from the first kernel (`row`: those
// of the step's row of quads), then its MagSgn bits. `final`: the block
// has no refinement passes, so each significant sample is written
// reconstructed and no work flags; otherwise its magnitude and flags, for
// the refinement passes and the reconstruction after them. Returns whether
// the cleanup pass stops (a corrupt block).
__device__ inline bool decode_step(const t1::DecodeInput &in, const t1::DecodeOutput &out, int plane, bool final,
                                   int x0, int y, const std::uint32_t *row, MagSgnWindow &ms, HtDecodeScratch &sh) {
  const int lane = warp::lane_id();
  const bool first_row = y == 0;
  const std::uint8_t *above = sh.rows[(y >> 1) & 1];
  std::uint8_t *below = sh.rows[((y >> 1) + 1) & 1];
  const int x = x0 + 2 * lane;
  // Past a corrupt pair the words are stale; step_pairs drops those lanes.
  const std::uint32_t word = x < in.width ? row[x >> 1] : 0;
  int u;
  const ht::QuadCode coded = ht_codes::unpack(word, u);
  // The second quad of a pair at the block's edge does not exist: bound 1.
  const int bound_here =
      x < in.width ? u + ht::quad_kappa(first_row, coded.rho, above[x], above[x + 1], above[x + 2], above[x + 3]) : 1;
  bool stop;
  const int pairs = step_pairs(in.width, x0, bound_here > 32, stop);

  const bool read = lane / 2 < pairs && x < in.width;
  const ht::QuadCode q = read ? coded : ht::QuadCode{};
  const int bound = read ? bound_here : 0;
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

// decode_ht_block for a warp, given the block's codes from the first
// kernel: the same checks, samples and status (on every lane).
__device__ inline t1::BlockStatus decode_block(const t1::DecodeInput &in, const t1::DecodeOutput &out,
                                               const ht::DecodeTables &tables, const std::uint32_t *codes,
                                               HtDecodeScratch &sh) {
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

  MagSgnWindow ms{in.data, in.segment_lengths[0] - scup, 0, 0, 0};
  for (int i = lane; i < ht::QuadRows::kColumns; i += warp::kLanes) sh.rows[0][i] = sh.rows[1][i] = 0;
  for (int i = lane; i < kMagSgnWords; i += warp::kLanes) sh.magsgn.word[i] = 0;
  __syncwarp();
  bool corrupt = false;
  for (int y = 0; y < h && !corrupt; y += 2) {
    for (int x0 = 0; x0 < w && !corrupt; x0 += kStepColumns)
      corrupt = decode_step(in, out, p.plane, final, x0, y, ht_codes::row_codes(codes, w, y), ms, sh);
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

}  // namespace ht_warp

}  // namespace cf::cuda::j2k_decode_kernels
