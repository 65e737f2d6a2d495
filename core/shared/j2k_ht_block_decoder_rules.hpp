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
      const std::uint16_t packed =
          std::uint16_t(e.length | e.u_off << 3 | e.rho << 4 | e.e_1 << 8 | e.e_k << 12);
      for (int high = 0; high < (1 << (7 - e.length)); ++high) t.vlc[row][e.context][e.codeword | high << e.length] = packed;
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

// The block's decoding: cleanup, then the refinement passes.
class HtBlockDecoder {
 public:
  CF_HD HtBlockDecoder(const t1::DecodeInput &in, const t1::DecodeOutput &out, const DecodeTables &tables, int plane,
                       int refinement_passes)
      : in_(in), out_(out), tables_(tables), plane_(plane), refinement_(refinement_passes), pitch_(in.width + 2) {}

  CF_HD t1::BlockStatus decode() {
    const int w = in_.width, h = in_.height, stride = out_.stride;
    std::int32_t *samples = out_.samples;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) samples[y * stride + x] = 0;
    std::uint8_t *work = out_.work;
    for (int i = 0, n = t1::block_work_bytes(w, h); i < n; ++i) work[i] = 0;
    const int lcup = in_.segment_lengths[0];
    const int scup = lcup >= 2 ? (in_.data[lcup - 1] << 4) | (in_.data[lcup - 2] & 0xF) : 0;
    if (lcup < 2 || scup < 2 || scup > lcup || scup > kMaxScup) return t1::BlockStatus::kCorrupt;
    ms_.init(in_.data, lcup - scup, 0xFF);
    mel_.init(in_.data + lcup - scup, scup - 1);
    vlc_.init_after_nibble(in_.data + lcup - scup, scup - 1);
    rows_.clear(in_.width);
    for (int y = 0; y < in_.height && !corrupt_; y += 2) cleanup_row(y);
    if (!corrupt_ && refinement_ > 0) {
      const std::uint8_t *ref = in_.data + lcup;
      const int lref = in_.segment_lengths[1];
      significance_propagation(ref, lref);
      if (refinement_ > 1) magnitude_refinement(ref, lref);
    }
    reconstruct();
    return corrupt_ ? t1::BlockStatus::kCorrupt : t1::BlockStatus::kOk;
  }

 private:
  static constexpr std::uint8_t kSig = 1, kNeg = 2, kSigProp = 4;

  CF_HD std::int32_t &sample(int x, int y) { return out_.samples[y * out_.stride + x]; }
  CF_HD std::uint8_t &flags(int x, int y) { return out_.work[(y + 1) * pitch_ + x + 1]; }
  CF_HD bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < in_.width && y < in_.height; }

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

  // A U-VLC prefix: the residual's base and its suffix's length.
  struct Prefix {
    int base, suffix_bits;
  };
  CF_HD Prefix read_prefix() {
    if (vlc_.read(1)) return {1, 0};
    if (vlc_.read(1)) return {2, 0};
    if (vlc_.read(1)) return {3, 1};
    return {5, 5};
  }
  CF_HD int read_residual(Prefix p) {
    const int s = int(vlc_.read(p.suffix_bits));
    if (p.suffix_bits == 5 && s >= 28) corrupt_ = true;  // an extension: u >= 33, more planes than int32 holds
    return p.base + s;
  }

  // The pair's residuals (see the encoder's code_residuals).
  CF_HD void read_residuals(const QuadCode &q0, const QuadCode &q1, bool first_row, int &u0, int &u1) {
    u0 = u1 = 0;
    if (first_row && q0.u_off && q1.u_off) {
      if (mel_.event()) {
        const Prefix p0 = read_prefix(), p1 = read_prefix();
        u0 = 2 + read_residual(p0);
        u1 = 2 + read_residual(p1);
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
    Prefix p0{0, 0}, p1{0, 0};
    if (q0.u_off) p0 = read_prefix();
    if (q1.u_off) p1 = read_prefix();
    if (q0.u_off) u0 = read_residual(p0);
    if (q1.u_off) u1 = read_residual(p1);
  }

  // The quad's MagSgn values into its samples; returns nothing, records the
  // bottom exponents for the next row.
  CF_HD void read_magnitudes(const QuadCode &q, int x, int y, int u_bound) {
    int e[4] = {0, 0, 0, 0};
    for (int n = 0; n < 4; ++n) {
      if (!(q.rho >> n & 1u)) continue;
      const int known = int(q.e_k >> n & 1u);
      std::uint64_t v = ms_.read(u_bound - known);
      if (known) v |= std::uint64_t(q.e_1 >> n & 1u) << (u_bound - 1);
      const std::uint64_t mu = (v >> 1) + 1;
      e[n] = bit_length(std::uint32_t(2 * mu - 1 > 0xFFFFFFFFull ? 0xFFFFFFFFull : 2 * mu - 1));
      const int sx = x + (n >> 1), sy = y + (n & 1);
      if (!inside(sx, sy)) continue;  // outside the block: read, not kept
      if ((mu << plane_) >= (std::uint64_t(1) << in_.magnitude_bitplanes)) {
        corrupt_ = true;
        continue;
      }
      sample(sx, sy) = std::int32_t(mu << plane_);
      flags(sx, sy) = std::uint8_t(kSig | ((v & 1) ? kNeg : 0));
    }
    rows_.record(x, e[1], e[3]);
  }

  CF_HD void cleanup_row(int y) {
    const bool first_row = y == 0;
    unsigned left_rho = 0;
    for (int x = 0; x < in_.width && !corrupt_; x += 4) {
      const bool pair = x + 2 < in_.width;
      const QuadCode q0 = read_codeword(rows_.context(x, first_row, left_rho), first_row);
      QuadCode q1;
      if (pair) q1 = read_codeword(rows_.context(x + 2, first_row, q0.rho), first_row);
      left_rho = pair ? q1.rho : q0.rho;
      int u0, u1;
      read_residuals(q0, q1, first_row, u0, u1);
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

  // Signs and the middle of each sample's last interval: plane P - 1 for
  // samples refined or found by SigProp, else P.
  CF_HD void reconstruct() {
    const int w = in_.width, h = in_.height, stride = out_.stride, pitch = pitch_, fraction = in_.fraction_bits;
    const int lowest_refined = plane_ - 1 + fraction, lowest_cleanup = plane_ - (refinement_ > 1 ? 1 : 0) + fraction;
    std::int32_t *samples = out_.samples;
    const std::uint8_t *work = out_.work;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::uint8_t f = work[(y + 1) * pitch + x + 1];
        if (!(f & (kSig | kSigProp))) continue;
        const int lowest = (f & kSigProp) ? lowest_refined : lowest_cleanup;
        std::int32_t v = samples[y * stride + x] << fraction;
        if (lowest > 0) v += std::int32_t(1) << (lowest - 1);
        samples[y * stride + x] = (f & kNeg) ? -v : v;
      }
  }

  // Copies, not references: a decoder writing samples through pointers
  // would otherwise reload every field from memory at each use.
  const t1::DecodeInput in_;
  const t1::DecodeOutput out_;
  const DecodeTables &tables_;
  int plane_, refinement_, pitch_;
  bool corrupt_ = false;
  ForwardBits ms_;
  MelDecoder mel_;
  BackwardBits vlc_;
  QuadRows rows_;
};

// Checks, then decodes one HT code-block (in.style has kStyleHt): kOk,
// kCorrupt, or a refusal with the output untouched. No passes: every
// sample 0.
CF_HD t1::BlockStatus decode_ht_block(const t1::DecodeInput &in, const t1::DecodeOutput &out,
                                      const DecodeTables &tables) {
  using t1::BlockStatus;
  if (!t1::block_size_ok(in.width, in.height) || out.stride < in.width || !out.samples || !out.work)
    return BlockStatus::kBadSize;
  if (in.style & ~(kStyleHt | t1::kStyleVerticalCausal)) return BlockStatus::kBadStyle;
  if (in.magnitude_bitplanes < 0 || in.magnitude_bitplanes > t1::kMaxDecodeBitplanes)
    return BlockStatus::kTooManyBitplanes;
  if (in.fraction_bits != 0 && in.fraction_bits != 1) return BlockStatus::kBadSize;
  if (in.passes < 0) return BlockStatus::kBadPasses;
  if (in.passes == 0) {
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x) out.samples[y * out.stride + x] = 0;
    return BlockStatus::kOk;
  }
  const int cleanup = cleanup_pass(in.passes);
  const int plane = in.magnitude_bitplanes - 1 - (in.zero_bitplanes + cleanup / 3);
  const int refinement = in.passes - cleanup - 1;
  if (in.zero_bitplanes < 0 || plane < 0) return BlockStatus::kBadZeroBitplanes;
  if (refinement > 0 && plane < 1) return BlockStatus::kBadPasses;
  if (in.length < 0 || !in.data || in.segments != segment_count(in.passes) || !in.segment_lengths)
    return BlockStatus::kBadSegments;
  int left = in.length;
  for (int s = 0; s < in.segments; ++s) {
    if (in.segment_lengths[s] < 0 || in.segment_lengths[s] > left) return BlockStatus::kBadSegments;
    left -= in.segment_lengths[s];
  }
  HtBlockDecoder dec(in, out, tables, plane, refinement);
  return dec.decode();
}

}  // namespace cf::j2k::ht
