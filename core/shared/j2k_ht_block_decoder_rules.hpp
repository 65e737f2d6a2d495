// The HT code-block decoder of HTJ2K (ITU-T T.814 | ISO/IEC 15444-15),
// written once for every backend (CF_HD: host_device.hpp): the inverse of
// j2k_ht_block_coder_rules.hpp's encoder, and the refinement passes that
// encoder leaves out.
//
// A block's passes (j2k_ht_rules.hpp): placeholders in threes, each adding
// a missing MSB, then the cleanup pass at plane P = Mb - 1 - (missing MSBs),
// then up to a significance propagation (SigProp) and a magnitude
// refinement (MagRef) pass, both at plane P - 1.
//  - Cleanup, a row of quads at a time, two quads at a time: each quad's
//    significance from MEL when its context is empty, its CxtVLC codeword
//    (rho, u_off, e_k, e_1), the pair's U-VLC residuals, then each
//    significant sample's MagSgn bits: U_q - e_k low bits of
//    v = 2 (mu - 1) + sign, the top bit (U_q - 1) given by e_1 where e_k
//    says so. Streams: MagSgn forwards from the segment's start, MEL
//    forwards from Lcup - Scup, VLC backwards from byte Lcup - 2 (its upper
//    nibble; Scup holds the last 12 bits).
//  - SigProp, in stripes of four rows, four columns at a time: a bit for
//    each insignificant sample with a significant neighbour (the stripe
//    above as it ended, this stripe so far, the cleanup's significance of
//    the stripe below unless vertically causal), then the signs of the
//    samples that became significant; forwards from the refinement
//    segment's start.
//  - MagRef: a bit per sample significant after the cleanup pass, stripe by
//    stripe, column by column; backwards from the refinement segment's end.
// Bit stuffing as the encoder writes it (forward streams: 7 bits after
// 0xFF; backward ones: a byte after one above 0x8F loses its top bit when
// its low seven are ones). Past their ends MagSgn and MEL read 0xFF bytes,
// VLC, SigProp and MagRef zeros.
//
// Output as t1::decode_block gives it: signed samples, each reconstructed at
// the middle of the interval its lowest decoded plane leaves (times
// 2^fraction_bits). Every input is checked first; bytes that contradict the
// tables or the block's planes give kCorrupt. Nothing is read outside the
// data nor written outside the block and its work area.
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"
#include "core/shared/j2k_block_decoder_rules.hpp"
#include "core/shared/j2k_ht_rules.hpp"
#include "core/shared/j2k_ht_vlc_tables.hpp"

namespace cf::j2k::ht {

// The decoder's lookup: for (row kind, c_q, the next 7 VLC bits) the
// codeword's fields packed as length | u_off << 3 | rho << 4 | e_1 << 8 |
// e_k << 12 (0: no codeword starts so).
struct DecodeTables {
  std::uint16_t vlc[2][8][128];
};

inline void build_decode_tables(DecodeTables &t) {
  const VlcEntry *tables[2] = {kVlcFirstRow, kVlcOtherRows};
  const int sizes[2] = {kVlcFirstRowEntries, kVlcOtherRowEntries};
  for (int row = 0; row < 2; ++row) {
    for (int c = 0; c < 8; ++c)
      for (int b = 0; b < 128; ++b) t.vlc[row][c][b] = 0;
    for (int i = 0; i < sizes[row]; ++i) {
      const VlcEntry &e = tables[row][i];
      const std::uint16_t packed = std::uint16_t(e.length | e.u_off << 3 | e.rho << 4 | e.e_1 << 8 | e.e_k << 12);
      for (int high = 0; high < (1 << (7 - e.length)); ++high)
        t.vlc[row][e.context][e.codeword | high << e.length] = packed;
    }
  }
}

// The lookup, built once (host code: the cuda backend uploads this copy).
inline const DecodeTables &decode_tables() {
  static const DecodeTables tables = [] {
    DecodeTables t;
    build_decode_tables(t);
    return t;
  }();
  return tables;
}

// Forward bits, least significant first: MagSgn (past the end 0xFF) and
// SigProp (past the end 0).
class ForwardBits {
 public:
  CF_HD void init(const std::uint8_t *data, int length, std::uint8_t pad) {
    data_ = data, len_ = length, pos_ = 0, pad_ = pad, buf_ = 0, count_ = 0, after_ff_ = false;
  }
  CF_HD std::uint32_t read(int n) {  // n <= 32
    if (n == 0) return 0;
    fill();
    const std::uint32_t v = std::uint32_t(buf_ & ((std::uint64_t(1) << n) - 1));
    buf_ >>= n;
    count_ -= n;
    return v;
  }

 private:
  CF_HD void fill() {
    while (count_ <= 56) {
      const std::uint8_t b = pos_ < len_ ? data_[pos_] : pad_;
      ++pos_;
      const int bits = after_ff_ ? 7 : 8;
      buf_ |= std::uint64_t(b & ((1u << bits) - 1)) << count_;
      count_ += bits;
      after_ff_ = b == 0xFF;
    }
  }
  const std::uint8_t *data_;
  int len_, pos_;
  std::uint8_t pad_;
  std::uint64_t buf_;
  int count_;
  bool after_ff_;
};

// Backward bits, least significant first, from data[length - 1] down: VLC
// (whose first byte gives only its upper nibble) and MagRef; past the
// start, zeros.
class BackwardBits {
 public:
  CF_HD void init(const std::uint8_t *data, int length) {
    data_ = data, pos_ = length - 1, buf_ = 0, count_ = 0, after_big_ = true;
  }
  // VLC: the byte at data[length - 1] shares its low nibble with Scup.
  CF_HD void init_after_nibble(const std::uint8_t *data, int length) {
    init(data, length);
    if (pos_ < 0) return;
    const std::uint8_t b = data_[pos_--];
    const unsigned nibble = b >> 4;
    count_ = (nibble & 7) == 7 ? 3 : 4;  // three ones: the nibble's top bit is stuffed
    buf_ = nibble & ((1u << count_) - 1);
    after_big_ = (b | 0xF) > 0x8F;
  }
  CF_HD std::uint32_t peek(int n) {  // n <= 32
    fill();
    return std::uint32_t(buf_ & ((std::uint64_t(1) << n) - 1));
  }
  CF_HD void skip(int n) { buf_ >>= n, count_ -= n; }
  CF_HD std::uint32_t read(int n) {
    const std::uint32_t v = n ? peek(n) : 0;
    skip(n);
    return v;
  }

 private:
  CF_HD void fill() {
    while (count_ <= 56) {
      const std::uint8_t b = pos_ >= 0 ? data_[pos_] : 0;
      --pos_;
      const int bits = after_big_ && (b & 0x7F) == 0x7F ? 7 : 8;
      buf_ |= std::uint64_t(b & ((1u << bits) - 1)) << count_;
      count_ += bits;
      after_big_ = b > 0x8F;
    }
  }
  const std::uint8_t *data_;
  int pos_;
  std::uint64_t buf_;
  int count_;
  bool after_big_;
};

// MEL's events back from its bits (most significant first; 7 bits after
// 0xFF). Its last byte shares its low nibble with Scup, read as ones.
class MelDecoder {
 public:
  CF_HD void init(const std::uint8_t *data, int length) {
    data_ = data, len_ = length, pos_ = 0, cur_ = 0, left_ = 0, state_ = 0, zeros_ = 0, one_ = false;
  }
  CF_HD bool event() {
    for (;;) {
      if (zeros_ > 0) return --zeros_, false;
      if (one_) return one_ = false, true;
      const int e = mel_exponent(state_);
      if (bit()) {
        zeros_ = 1 << e;
        if (state_ < 12) ++state_;
      } else {
        int run = 0;
        for (int i = 0; i < e; ++i) run = run << 1 | bit();
        zeros_ = run;
        one_ = true;
        if (state_ > 0) --state_;
      }
    }
  }

 private:
  CF_HD int bit() {
    if (left_ == 0) {
      const bool after_ff = cur_ == 0xFF;
      cur_ = pos_ < len_ ? data_[pos_] | (pos_ == len_ - 1 ? 0xF : 0) : 0xFF;
      ++pos_;
      left_ = after_ff ? 7 : 8;
    }
    return int(cur_ >> --left_) & 1;
  }
  const std::uint8_t *data_;
  int len_, pos_;
  unsigned cur_;
  int left_, state_, zeros_;
  bool one_;
};

// One quad's codeword fields.
struct QuadCode {
  unsigned rho = 0, u_off = 0, e_k = 0, e_1 = 0;
};

// The cleanup pass's MEL and VLC streams: each quad's codeword and each
// pair's residuals, in the order the encoder wrote them. A codeword not in
// the tables or a U-VLC extension marks the stream corrupt.
class QuadCodeReader {
 public:
  CF_HD QuadCodeReader(const DecodeTables &tables) : tables_(tables) {}
  // Lcup bytes at `data`, of which the last Scup hold MEL and VLC.
  CF_HD void init(const std::uint8_t *data, int lcup, int scup) {
    mel_.init(data + lcup - scup, scup - 1);
    vlc_.init_after_nibble(data + lcup - scup, scup - 1);
    corrupt_ = false;
  }
  CF_HD bool corrupt() const { return corrupt_; }
  // Tops up the buffered VLC bits (a pair's codewords and residuals take
  // at most 30), so that GPU threads reading different blocks fetch their
  // bytes together, here, rather than each at the read that runs short.
  CF_HD void refill() { vlc_.peek(0); }

  // The quad's codeword in context c (c = 0: MEL first says whether the
  // quad is significant at all).
  CF_HD QuadCode read_codeword(unsigned c, bool first_row) {
    QuadCode q;
    if (c == 0 && !mel_.event()) return q;
    const std::uint16_t e = tables_.vlc[first_row ? 0 : 1][c][vlc_.peek(7)];
    if (e == 0) return corrupt_ = true, q;
    vlc_.skip(e & 7);
    q.u_off = (e >> 3) & 1, q.rho = (e >> 4) & 0xF, q.e_1 = (e >> 8) & 0xF, q.e_k = (e >> 12) & 0xF;
    return q;
  }

  // The pair's residuals (see the encoder's residual_bits).
  CF_HD void read_residuals(const QuadCode &q0, const QuadCode &q1, bool first_row, int &u0, int &u1) {
    u0 = u1 = 0;
    if (first_row && q0.u_off && q1.u_off) {
      if (mel_.event()) {
        read_residual_pair(true, true, u0, u1);
        u0 += 2, u1 += 2;
        return;
      }
      const Prefix p0 = read_prefix();
      if (p0.base > 2) {
        u1 = 1 + int(vlc_.read(1));
        u0 = read_residual(p0);
        return;
      }
      const Prefix p1 = read_prefix();
      u0 = read_residual(p0);
      u1 = read_residual(p1);
      return;
    }
    read_residual_pair(q0.u_off != 0, q1.u_off != 0, u0, u1);
  }

 private:
  // A U-VLC prefix (1, 01, 001 or 000) of the bits b, first bit lowest:
  // its length, the residual's base and its suffix's length; for a quad
  // without one (`present` false), all 0. Selects, not branches: GPU
  // threads reading different blocks side by side then stay together.
  struct Prefix {
    int length, base, suffix_bits;
  };
  CF_HD static Prefix prefix_of(unsigned b, bool present) {
    const int length = !present ? 0 : (b & 1u) ? 1 : (b & 2u) ? 2 : 3;
    const int base = !present ? 0 : (b & 1u) ? 1 : (b & 2u) ? 2 : (b & 4u) ? 3 : 5;
    const int suffix_bits = !present || (b & 3u) ? 0 : (b & 4u) ? 1 : 5;
    return {length, base, suffix_bits};
  }
  CF_HD Prefix read_prefix() {
    const Prefix p = prefix_of(vlc_.peek(3), true);
    vlc_.skip(p.length);
    return p;
  }
  // A suffix of 5 bits from 28 up is an extension: u >= 33, more planes
  // than int32 holds.
  CF_HD void check_suffix(const Prefix &p, int suffix) { corrupt_ = corrupt_ || (p.suffix_bits == 5 && suffix >= 28); }
  CF_HD int read_residual(Prefix p) {
    const int s = int(vlc_.read(p.suffix_bits));
    check_suffix(p, s);
    return p.base + s;
  }
  // Both quads' residuals as two prefixes then two suffixes (each 0 for a
  // quad without one): the prefixes from one look at the next 6 bits, the
  // suffixes from one at the next 10, fewer dependent steps than one read
  // after the other.
  CF_HD void read_residual_pair(bool first, bool second, int &u0, int &u1) {
    const unsigned b = vlc_.peek(6);
    const Prefix p0 = prefix_of(b, first), p1 = prefix_of(b >> p0.length, second);
    vlc_.skip(p0.length + p1.length);
    const unsigned s = vlc_.peek(10);
    const int s0 = int(s & ((1u << p0.suffix_bits) - 1u));
    const int s1 = int((s >> p0.suffix_bits) & ((1u << p1.suffix_bits) - 1u));
    vlc_.skip(p0.suffix_bits + p1.suffix_bits);
    check_suffix(p0, s0), check_suffix(p1, s1);
    u0 = p0.base + s0, u1 = p1.base + s1;
  }

  const DecodeTables &tables_;
  MelDecoder mel_;
  BackwardBits vlc_;
  bool corrupt_ = false;
};

// The flags of the decoder's work area, a byte a sample.
constexpr std::uint8_t kDecodedSignificant = 1, kDecodedNegative = 2, kDecodedBySigProp = 4;

// A significant sample's MagSgn value: `bits` (the U_q - e_k read) and, when
// e_k gives it, the top bit from e_1. Its magnitude mu, sign and exponent.
struct DecodedSample {
  std::uint64_t mu;
  bool negative;
  int e;
};
CF_HD DecodedSample decode_sample(std::uint32_t bits, const QuadCode &q, int n, int u_bound) {
  std::uint64_t v = bits;
  if (q.e_k >> n & 1u) v |= std::uint64_t(q.e_1 >> n & 1u) << (u_bound - 1);
  const std::uint64_t mu = (v >> 1) + 1;
  return {mu, (v & 1) != 0, bit_length(std::uint32_t(2 * mu - 1 > 0xFFFFFFFFull ? 0xFFFFFFFFull : 2 * mu - 1))};
}
CF_HD int magsgn_bits_of(const QuadCode &q, int n, int u_bound) {
  return (q.rho >> n & 1u) ? u_bound - int(q.e_k >> n & 1u) : 0;
}

// A sample as the passes left it (its work flags f, its magnitude v at its
// planes) reconstructed: signed, at the middle of its last interval (plane
// P - 1 for samples refined or found by SigProp, else P; times
// 2^fraction).
CF_HD std::int32_t reconstructed(std::uint8_t f, std::int32_t v, int plane, int refinement, int fraction) {
  if (!(f & (kDecodedSignificant | kDecodedBySigProp))) return v;
  const int lowest = (f & kDecodedBySigProp) ? plane - 1 + fraction : plane - (refinement > 1 ? 1 : 0) + fraction;
  v <<= fraction;
  if (lowest > 0) v += std::int32_t(1) << (lowest - 1);
  return (f & kDecodedNegative) ? -v : v;
}

// The block's decoding: cleanup, then the refinement passes.
class HtBlockDecoder {
 public:
  CF_HD HtBlockDecoder(const t1::DecodeInput &in, const t1::DecodeOutput &out, const DecodeTables &tables, int plane,
                       int refinement_passes)
      : in_(in), out_(out), codes_(tables), plane_(plane), refinement_(refinement_passes), pitch_(in.width + 2) {}

  CF_HD t1::BlockStatus decode() {
    const int w = in_.width, h = in_.height, stride = out_.stride;
    std::int32_t *samples = out_.samples;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) samples[y * stride + x] = 0;
    std::uint8_t *work = out_.work;
    for (int i = 0, n = t1::block_work_bytes(w, h); i < n; ++i) work[i] = 0;
    const int lcup = in_.segment_lengths[0];
    const int scup = cleanup_scup(in_);
    if (scup < 0) return t1::BlockStatus::kCorrupt;
    ms_.init(in_.data, lcup - scup, 0xFF);
    codes_.init(in_.data, lcup, scup);
    rows_.clear(in_.width);
    for (int y = 0; y < in_.height && !corrupt_; y += 2) cleanup_row(y);
    if (!corrupt_) refine();
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) reconstruct(x, y);
    return corrupt_ ? t1::BlockStatus::kCorrupt : t1::BlockStatus::kOk;
  }

  // The refinement passes over the cleanup's samples and flags.
  CF_HD void refine() {
    if (refinement_ == 0) return;
    const std::uint8_t *ref = in_.data + in_.segment_lengths[0];
    const int lref = in_.segment_lengths[1];
    significance_propagation(ref, lref);
    if (refinement_ > 1) magnitude_refinement(ref, lref);
  }

  CF_HD void reconstruct(int x, int y) {
    std::int32_t &v = sample(x, y);
    v = reconstructed(flags(x, y), v, plane_, refinement_, in_.fraction_bits);
  }

  // Scup of the cleanup segment, checked (-1: corrupt).
  CF_HD static int cleanup_scup(const t1::DecodeInput &in) {
    const int lcup = in.segment_lengths[0];
    const int scup = lcup >= 2 ? (in.data[lcup - 1] << 4) | (in.data[lcup - 2] & 0xF) : 0;
    return lcup < 2 || scup < 2 || scup > lcup || scup > kMaxScup ? -1 : scup;
  }

 private:
  static constexpr std::uint8_t kSig = kDecodedSignificant, kNeg = kDecodedNegative, kSigProp = kDecodedBySigProp;

  CF_HD std::int32_t &sample(int x, int y) { return out_.samples[y * out_.stride + x]; }
  CF_HD std::uint8_t &flags(int x, int y) { return out_.work[(y + 1) * pitch_ + x + 1]; }
  CF_HD bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < in_.width && y < in_.height; }

  // The quad's MagSgn values into its samples; records the bottom exponents
  // for the next row.
  CF_HD void read_magnitudes(const QuadCode &q, int x, int y, int u_bound) {
    int e[4] = {0, 0, 0, 0};
    for (int n = 0; n < 4; ++n) {
      if (!(q.rho >> n & 1u)) continue;
      const DecodedSample d = decode_sample(ms_.read(magsgn_bits_of(q, n, u_bound)), q, n, u_bound);
      e[n] = d.e;
      const int sx = x + (n >> 1), sy = y + (n & 1);
      if (!inside(sx, sy)) continue;  // outside the block: read, not kept
      if ((d.mu << plane_) >= (std::uint64_t(1) << in_.magnitude_bitplanes)) {
        corrupt_ = true;
        continue;
      }
      sample(sx, sy) = std::int32_t(d.mu << plane_);
      flags(sx, sy) = std::uint8_t(kSig | (d.negative ? kNeg : 0));
    }
    rows_.record(x, e[1], e[3]);
  }

  CF_HD void cleanup_row(int y) {
    const bool first_row = y == 0;
    unsigned left_rho = 0;
    for (int x = 0; x < in_.width && !corrupt_; x += 4) {
      const bool pair = x + 2 < in_.width;
      const QuadCode q0 = codes_.read_codeword(rows_.context(x, first_row, left_rho), first_row);
      QuadCode q1;
      if (pair) q1 = codes_.read_codeword(rows_.context(x + 2, first_row, q0.rho), first_row);
      left_rho = pair ? q1.rho : q0.rho;
      int u0, u1;
      codes_.read_residuals(q0, q1, first_row, u0, u1);
      corrupt_ = corrupt_ || codes_.corrupt();
      const int bound0 = u0 + rows_.kappa(x, first_row, q0.rho);
      const int bound1 = u1 + (pair ? rows_.kappa(x + 2, first_row, q1.rho) : 1);
      if (bound0 > 32 || bound1 > 32) return void(corrupt_ = true);
      read_magnitudes(q0, x, y, bound0);
      if (pair) read_magnitudes(q1, x + 2, y, bound1);
    }
    rows_.next_row();
  }

  // Whether (x, y), in the stripe from row y0, has a significant neighbour.
  CF_HD bool has_significant_neighbour(int x, int y, int y0) {
    const bool causal = (in_.style & t1::kStyleVerticalCausal) != 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const int nx = x + dx, ny = y + dy;
        if ((dx == 0 && dy == 0) || !inside(nx, ny)) continue;
        if (ny >= y0 + 4 && causal) continue;
        if (flags(nx, ny) & (kSig | kSigProp)) return true;
      }
    return false;
  }

  CF_HD void significance_propagation(const std::uint8_t *data, int length) {
    ForwardBits sp;
    sp.init(data, length, 0);
    const std::int32_t one = std::int32_t(1) << (plane_ - 1);
    for (int y0 = 0; y0 < in_.height; y0 += 4)
      for (int x0 = 0; x0 < in_.width; x0 += 4) {
        const int y1 = y0 + 4 < in_.height ? y0 + 4 : in_.height, x1 = x0 + 4 < in_.width ? x0 + 4 : in_.width;
        for (int x = x0; x < x1; ++x)
          for (int y = y0; y < y1; ++y)
            if (!(flags(x, y) & kSig) && has_significant_neighbour(x, y, y0) && sp.read(1)) {
              flags(x, y) |= kSigProp;
              sample(x, y) = one;
            }
        for (int x = x0; x < x1; ++x)
          for (int y = y0; y < y1; ++y)
            if ((flags(x, y) & kSigProp) && sp.read(1)) flags(x, y) |= kNeg;
      }
  }

  CF_HD void magnitude_refinement(const std::uint8_t *data, int length) {
    BackwardBits mr;
    mr.init(data, length);
    for (int y0 = 0; y0 < in_.height; y0 += 4)
      for (int x = 0; x < in_.width; ++x)
        for (int y = y0; y < y0 + 4 && y < in_.height; ++y)
          if ((flags(x, y) & kSig) && mr.read(1)) sample(x, y) |= std::int32_t(1) << (plane_ - 1);
  }

  // Copies, not references: a decoder writing samples through pointers
  // would otherwise reload every field from memory at each use.
  const t1::DecodeInput in_;
  const t1::DecodeOutput out_;
  QuadCodeReader codes_;
  int plane_, refinement_, pitch_;
  bool corrupt_ = false;
  ForwardBits ms_;
  QuadRows rows_;
};

// The checks made before decoding, and the cleanup plane and the number
// of refinement passes when they pass (`empty`: no passes, every sample 0).
struct HtBlockPlan {
  t1::BlockStatus status;
  bool empty;
  int plane, refinement;
};
CF_HD HtBlockPlan plan_ht_block(const t1::DecodeInput &in, const t1::DecodeOutput &out) {
  using t1::BlockStatus;
  HtBlockPlan p{BlockStatus::kOk, false, 0, 0};
  if (!t1::block_size_ok(in.width, in.height) || out.stride < in.width || !out.samples || !out.work)
    return p.status = BlockStatus::kBadSize, p;
  if (in.style & ~(kStyleHt | t1::kStyleVerticalCausal)) return p.status = BlockStatus::kBadStyle, p;
  if (in.magnitude_bitplanes < 0 || in.magnitude_bitplanes > t1::kMaxDecodeBitplanes)
    return p.status = BlockStatus::kTooManyBitplanes, p;
  if (in.fraction_bits != 0 && in.fraction_bits != 1) return p.status = BlockStatus::kBadSize, p;
  if (in.passes < 0) return p.status = BlockStatus::kBadPasses, p;
  if (in.passes == 0) return p.empty = true, p;
  const int cleanup = cleanup_pass(in.passes);
  p.plane = in.magnitude_bitplanes - 1 - (in.zero_bitplanes + cleanup / 3);
  p.refinement = in.passes - cleanup - 1;
  if (in.zero_bitplanes < 0 || p.plane < 0) return p.status = BlockStatus::kBadZeroBitplanes, p;
  if (p.refinement > 0 && p.plane < 1) return p.status = BlockStatus::kBadPasses, p;
  if (in.length < 0 || !in.data || in.segments != segment_count(in.passes) || !in.segment_lengths)
    return p.status = BlockStatus::kBadSegments, p;
  int left = in.length;
  for (int s = 0; s < in.segments; ++s) {
    if (in.segment_lengths[s] < 0 || in.segment_lengths[s] > left) return p.status = BlockStatus::kBadSegments, p;
    left -= in.segment_lengths[s];
  }
  return p;
}

// Checks, then decodes one HT code-block (in.style has kStyleHt): kOk,
// kCorrupt, or a refusal with the output untouched. No passes: every
// sample 0.
CF_HD t1::BlockStatus decode_ht_block(const t1::DecodeInput &in, const t1::DecodeOutput &out,
                                      const DecodeTables &tables) {
  const HtBlockPlan p = plan_ht_block(in, out);
  if (p.status != t1::BlockStatus::kOk) return p.status;
  if (p.empty) {
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x) out.samples[y * out.stride + x] = 0;
    return t1::BlockStatus::kOk;
  }
  HtBlockDecoder dec(in, out, tables, p.plane, p.refinement);
  return dec.decode();
}

}  // namespace cf::j2k::ht
