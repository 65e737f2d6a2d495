// The HT code-block encoder of HTJ2K (ITU-T T.814 | ISO/IEC 15444-15):
// one cleanup pass that codes every bit-plane of a code-block at once,
// written once for every backend (CF_HD: host_device.hpp).
//
// The block is walked in quads of 2 x 2 samples, a row of quads (two rows
// of samples) at a time, two quads at a time along the row. For each quad:
//  - rho, its significance pattern (bit n: sample n in the order
//    top-left, bottom-left, top-right, bottom-right);
//  - each significant sample's exponent E_n = bit length of 2 mu_n - 1 (mu_n
//    its magnitude) and its MagSgn value v_n = 2 (mu_n - 1) + sign;
//  - the quad's bound U_q = max(E_max, kappa_q), where kappa_q, predicted
//    from the row above, is 1 in the first row and for quads with one
//    significant sample;
//  - a CxtVLC codeword for (c_q, rho, and which samples reach U_q) from
//    j2k_ht_vlc_tables.hpp, c_q being the significance around the quad;
//  - u_q = U_q - kappa_q in the U-VLC, two quads' residuals together;
//  - a quad whose context is empty sends its significance through MEL, an
//    adaptive run-length coder; so does, in the first row, a pair of quads
//    that both have residuals (whether both exceed 2);
//  - m_n = U_q (one less where the codeword already gives v_n's top bit)
//    low bits of v_n to MagSgn.
// The codeword segment is MagSgn's bytes, then MEL's, then VLC's, whose
// bytes run backwards from the end; its last 12 bits hold Scup, MEL's and
// VLC's length together. Each byte stream is bit-stuffed so that no two
// bytes read as a marker (T.814's rules: after 0xFF, MagSgn and MEL bytes
// carry 7 bits; a VLC byte after one above 0x8F drops its top bit when its
// other seven are all ones).
//
// Magnitudes are coded from plane `cleanup_plane` up (0: every plane,
// lossless); tier-2 signals that plane through the missing MSBs.
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"
#include "core/shared/j2k_block_coder_rules.hpp"
#include "core/shared/j2k_ht_rules.hpp"
#include "core/shared/j2k_ht_vlc_tables.hpp"

namespace cf::j2k::ht {

// The encoder's codeword for each (row kind, c_q, rho, emb): emb marks the
// samples whose exponent equals U_q (0 when u_q = 0). Built once from the
// standard's tables by build_encode_tables().
struct VlcCode {
  std::uint8_t codeword, length, e_k;
};
struct EncodeTables {
  VlcCode code[2][8][16][16];  // [0: first row of quads, 1: the others][c_q][rho][emb]
};

// Among the entries of (c_q, rho) that describe emb (u_off = 0 when emb is
// empty; else u_off = 1 and emb agrees with e_1 on e_k), the one that costs
// fewest bits: its length less the MagSgn bits its e_k saves.
inline void build_encode_tables(EncodeTables &t) {
  const VlcEntry *tables[2] = {kVlcFirstRow, kVlcOtherRows};
  const int sizes[2] = {kVlcFirstRowEntries, kVlcOtherRowEntries};
  for (int row = 0; row < 2; ++row)
    for (int c = 0; c < 8; ++c)
      for (int rho = 0; rho < 16; ++rho)
        for (int emb = 0; emb < 16; ++emb) {
          VlcCode best{0, 0, 0};
          int best_cost = 1 << 30;
          if ((emb & rho) == emb)
            for (int i = 0; i < sizes[row]; ++i) {
              const VlcEntry &e = tables[row][i];
              if (e.context != c || e.rho != rho || e.u_off != (emb != 0 ? 1 : 0)) continue;
              if (emb != 0 && (emb & e.e_k) != e.e_1) continue;
              const int cost = e.length - popcount4(e.e_k);
              if (cost < best_cost) best_cost = cost, best = {e.codeword, e.length, e.e_k};
            }
          t.code[row][c][rho][emb] = best;
        }
}

// The lookup, built once (host code: the cuda backend uploads this copy).
inline const EncodeTables &encode_tables() {
  static const EncodeTables tables = [] {
    EncodeTables t;
    build_encode_tables(t);
    return t;
  }();
  return tables;
}

// The stuffing of VLC and MagSgn as a rule on whole bytes: whether the
// byte after `last` carries 7 bits (its top bit a stuffed 0) rather than 8.
// MagSgn: after 0xFF. VLC: after a byte above 0x8F, when the next seven
// bits are all ones (`low7`: those bits as far as known).
CF_HD bool magsgn_byte_is_short(unsigned last) { return last == 0xFF; }
CF_HD bool vlc_byte_is_short(unsigned last, unsigned low7) { return last > 0x8F && (low7 & 0x7F) == 0x7F; }

// MEL: the adaptive run-length coder of T.814, with its 13 states and their
// exponents; bits go into bytes most significant first.
class MelEncoder {
 public:
  CF_HD void init(std::uint8_t *buffer, int capacity) {
    buf_ = buffer, cap_ = capacity, n_ = 0, cur_ = 0, free_ = 8, state_ = 0, run_ = 0;
  }
  // One event: a 0 lengthens the run; a run of 2^E zeros is sent as a 1;
  // a 1 ends the run, sent as 0 and the run's length in E bits.
  CF_HD void encode(bool event) {
    const int e = mel_exponent(state_);
    if (!event) {
      if (++run_ < (1 << e)) return;
      put(1);
      run_ = 0;
      if (state_ < 12) ++state_;
      return;
    }
    put(0);
    for (int b = e - 1; b >= 0; --b) put((run_ >> b) & 1);
    run_ = 0;
    if (state_ > 0) --state_;
  }
  // `count` zero events, as that many encode(false) calls: a run of
  // insignificant quads at once.
  CF_HD void encode_zeros(int count) {
    while (count > 0) {
      const int left = (1 << mel_exponent(state_)) - run_;
      if (count < left) {
        run_ += count;
        return;
      }
      count -= left;
      put(1);
      run_ = 0;
      if (state_ < 12) ++state_;
    }
  }
  // An unfinished run is sent as a 1 (the decoder stops before its end);
  // the last byte keeps its unused low bits 0.
  CF_HD void finish() {
    if (run_ > 0) put(1);
  }
  CF_HD int bytes() const { return n_; }
  // The unfinished byte and the mask of its bits in use.
  CF_HD unsigned tail() const { return cur_; }
  CF_HD unsigned tail_mask() const { return (0xFFu << free_) & 0xFFu; }
  CF_HD void append(std::uint8_t byte) { emit(byte); }
  CF_HD const std::uint8_t *data() const { return buf_; }

 private:
  CF_HD void put(int bit) {
    cur_ |= unsigned(bit & 1) << --free_;
    if (free_ > 0) return;
    emit(std::uint8_t(cur_));
    free_ = cur_ == 0xFF ? 7 : 8;  // after 0xFF the top bit is a stuffed 0
    cur_ = 0;
  }
  CF_HD void emit(std::uint8_t byte) {
    if (n_ < cap_) buf_[n_] = byte;
    ++n_;
  }
  std::uint8_t *buf_;
  int cap_, n_;
  unsigned cur_;
  int free_, state_, run_;
};

// VLC: bits least significant first into bytes written backwards from the
// end of the segment. The segment's last byte and the low nibble of the one
// before belong to Scup, so coding starts with those 12 bits taken (as
// ones: the stuffing rule sees them as such).
class VlcEncoder {
 public:
  // `end`: one past the last byte of the room; bytes go to end[-1], end[-2], ...
  CF_HD void init(std::uint8_t *end, int capacity) {
    end_ = end, cap_ = capacity, n_ = 0;
    emit(0xFF);
    cur_ = 0xF, used_ = 4, last_ = 0xFF;
  }
  // The state after `bytes` bytes, `last` the latest, with `used` bits of
  // `cur` pending: where a warp that cut the bytes itself hands over.
  CF_HD void resume(std::uint8_t *end, int capacity, int bytes, unsigned last, unsigned cur, int used) {
    end_ = end, cap_ = capacity, n_ = bytes, cur_ = cur, used_ = used, last_ = last;
  }
  CF_HD void put(unsigned bits, int count) {
    for (int i = 0; i < count; ++i) {
      cur_ |= ((bits >> i) & 1u) << used_++;
      // After a byte above 0x8F, seven ones close the byte with a stuffed 0.
      if (used_ == 8 || (used_ == 7 && vlc_byte_is_short(last_, cur_))) flush();
    }
  }
  CF_HD int bytes() const { return n_; }
  CF_HD unsigned tail() const { return cur_; }
  CF_HD unsigned tail_mask() const { return (1u << used_) - 1u; }
  CF_HD void append(std::uint8_t byte) { emit(byte); }
  // Byte i from the segment's end (0: the last).
  CF_HD std::uint8_t byte_from_end(int i) const { return end_[-1 - i]; }

 private:
  CF_HD void flush() {
    emit(std::uint8_t(cur_));
    last_ = cur_;
    cur_ = 0, used_ = 0;
  }
  CF_HD void emit(std::uint8_t byte) {
    if (n_ < cap_) end_[-1 - n_] = byte;
    ++n_;
  }
  std::uint8_t *end_;
  int cap_, n_;
  unsigned cur_;
  unsigned last_;  // the latest byte
  int used_;
};

// MagSgn: bits least significant first into bytes written forwards; after
// 0xFF a byte carries 7 bits under a stuffed 0.
class MagSgnEncoder {
 public:
  CF_HD void init(std::uint8_t *buffer, int capacity) {
    buf_ = buffer, cap_ = capacity, n_ = 0, cur_ = 0, used_ = 0, max_ = 8;
  }
  // As VlcEncoder::resume.
  CF_HD void resume(std::uint8_t *buffer, int capacity, int bytes, unsigned last, unsigned cur, int used) {
    buf_ = buffer, cap_ = capacity, n_ = bytes, cur_ = cur, used_ = used, max_ = magsgn_byte_is_short(last) ? 7 : 8;
  }
  CF_HD void put(std::uint32_t bits, int count) {
    for (int i = 0; i < count; ++i) {
      cur_ |= ((bits >> i) & 1u) << used_;
      if (++used_ < max_) continue;
      emit(std::uint8_t(cur_));
      max_ = magsgn_byte_is_short(cur_) ? 7 : 8;
      cur_ = 0, used_ = 0;
    }
  }
  // The decoder reads ones past the end: the last byte is padded with ones
  // and dropped when that makes it 0xFF, as is a last byte of 0xFF.
  CF_HD void finish() {
    if (used_ > 0) {
      cur_ |= (0xFFu << used_) & ((1u << max_) - 1u);
      if (cur_ != 0xFF) emit(std::uint8_t(cur_));
    } else if (max_ == 7) {
      --n_;
    }
  }
  CF_HD int bytes() const { return n_; }

 private:
  CF_HD void emit(std::uint8_t byte) {
    if (n_ < cap_) buf_[n_] = byte;
    ++n_;
  }
  std::uint8_t *buf_;
  int cap_, n_;
  unsigned cur_;
  int used_, max_;
};

// The U-VLC code of a residual u >= 1 (T.814): a prefix of 1 to 3 bits
// ("1", "01", "001", "000") and a suffix of 0, 1 or 5 bits. u <= 32 here
// (exponents of int32 magnitudes), below the 4-bit extension that
// suffixes of 28 and more bring from u = 33 on.
struct UvlcCode {
  unsigned prefix;
  int prefix_length;
  unsigned suffix;
  int suffix_length;
};
CF_HD UvlcCode uvlc_code(int u) {
  if (u <= 0) return {0, 0, 0, 0};
  if (u == 1) return {1, 1, 0, 0};
  if (u == 2) return {2, 2, 0, 0};
  if (u <= 4) return {4, 3, unsigned(u - 3), 1};
  return {0, 3, unsigned(u - 5), 5};
}

// One quad's samples at plane `plane` and above.
struct Quad {
  unsigned rho = 0;
  int e[4] = {0, 0, 0, 0};            // exponents, 0 for insignificant samples
  std::uint32_t v[4] = {0, 0, 0, 0};  // MagSgn values
  int e_max = 0;
};

CF_HD Quad load_quad(const t1::BlockInput &in, int x, int y, int plane) {
  Quad q;
  for (int n = 0; n < 4; ++n) {
    const int sx = x + (n >> 1), sy = y + (n & 1);
    if (sx >= in.width || sy >= in.height) continue;
    const std::int32_t s = in.samples[sy * in.stride + sx];
    const std::uint32_t mu = (s < 0 ? 0u - std::uint32_t(s) : std::uint32_t(s)) >> plane;
    if (mu == 0) continue;
    q.rho |= 1u << n;
    q.e[n] = bit_length(2 * mu - 1);
    q.v[n] = 2 * (mu - 1) + (s < 0 ? 1u : 0u);
    if (q.e[n] > q.e_max) q.e_max = q.e[n];
  }
  return q;
}

// What a quad sends, given its context c_q and predictor kappa_q: its
// CxtVLC codeword, its bound U_q and residual u_q = U_q - kappa_q.
struct QuadSend {
  VlcCode vlc;
  int u_bound, u;
};
CF_HD QuadSend quad_code(const Quad &q, unsigned c, int kappa, bool first_row, const EncodeTables &tables) {
  const int u_bound = q.e_max > kappa ? q.e_max : kappa;
  const int u = u_bound - kappa;
  unsigned emb = 0;
  if (u > 0)
    for (int n = 0; n < 4; ++n) emb |= unsigned(q.e[n] == q.e_max && (q.rho >> n & 1u)) << n;
  return {tables.code[first_row ? 0 : 1][c][q.rho][emb], u_bound, u};
}

// The MagSgn bits of sample n of a quad: m_n = U_q, one less where the
// codeword's e_k already gives v_n's top bit (0 when insignificant).
CF_HD int magsgn_length(const Quad &q, const QuadSend &k, int n) {
  return (q.rho >> n & 1u) ? k.u_bound - int(k.vlc.e_k >> n & 1u) : 0;
}
CF_HD std::uint32_t magsgn_bits(const Quad &q, int n, int m) {
  return q.v[n] & (m >= 32 ? 0xFFFFFFFFu : (1u << m) - 1u);
}

// Two quads' residuals (T.814's U-VLC) as VLC bits, first sent first:
// prefixes, then suffixes. In the first row, when both are non-zero, MEL
// says whether both exceed 2 (`mel`: -1 when MEL says nothing); if so each
// is sent less 2; if only the first does, the second (1 or 2) is one bit
// after the first's prefix. At most 16 bits.
struct ResidualBits {
  std::uint32_t bits;
  int length;
  int mel;
};
CF_HD ResidualBits residual_bits(int u0, int u1, bool first_row) {
  int mel = -1;
  if (first_row && u0 > 0 && u1 > 0) {
    const bool both_big = u0 > 2 && u1 > 2;
    mel = both_big ? 1 : 0;
    if (both_big) {
      u0 -= 2, u1 -= 2;
    } else if (u0 > 2) {
      const UvlcCode a = uvlc_code(u0);
      const std::uint32_t bits =
          a.prefix | std::uint32_t(u1 - 1) << a.prefix_length | a.suffix << (a.prefix_length + 1);
      return {bits, a.prefix_length + 1 + a.suffix_length, mel};
    }
  }
  const UvlcCode a = uvlc_code(u0), b = uvlc_code(u1);
  int at = 0;
  std::uint32_t bits = a.prefix;
  at += a.prefix_length;
  bits |= b.prefix << at;
  at += b.prefix_length;
  bits |= a.suffix << at;
  at += a.suffix_length;
  bits |= b.suffix << at;
  return {bits, at + b.suffix_length, mel};
}

// How the codeword segment is laid out once the streams are closed:
// MagSgn's bytes, zero bytes up to a minimum length, MEL's, then VLC's.
struct SegmentLayout {
  int magsgn, padding, mel, vlc, total;
};

// Ends the three streams; MEL's last byte and VLC's first may share a byte
// when their bits do not overlap (and VLC has a byte besides the one Scup
// takes).
CF_HD SegmentLayout close_streams(MelEncoder &mel, VlcEncoder &vlc, MagSgnEncoder &ms, int min_length) {
  mel.finish();
  ms.finish();
  const unsigned mel_mask = mel.tail_mask(), vlc_mask = vlc.tail_mask();
  if ((mel_mask | vlc_mask) != 0) {
    const unsigned fused = mel.tail() | vlc.tail();
    if (((fused ^ mel.tail()) & mel_mask) == 0 && ((fused ^ vlc.tail()) & vlc_mask) == 0 && fused != 0xFF &&
        vlc.bytes() > 1) {
      mel.append(std::uint8_t(fused));
    } else {
      mel.append(std::uint8_t(mel.tail()));
      vlc.append(std::uint8_t(vlc.tail()));
    }
  }
  SegmentLayout s{ms.bytes(), 0, mel.bytes(), vlc.bytes(), 0};
  const int length = s.magsgn + s.mel + s.vlc;
  s.total = length > min_length ? length : min_length;
  s.padding = s.total - length;
  return s;
}

// The last 12 bits of the segment: Scup, MEL's and VLC's length together.
CF_HD void write_scup(std::uint8_t *out, const SegmentLayout &s) {
  const int scup = s.mel + s.vlc;
  out[s.total - 1] = std::uint8_t(scup >> 4);
  out[s.total - 2] = std::uint8_t((out[s.total - 2] & 0xF0) | (scup & 0xF));
}

// The encoder of one block: its three streams and the row-to-row state.
class HtBlockEncoder {
 public:
  CF_HD HtBlockEncoder(const t1::BlockInput &in, const EncodeTables &tables, int plane, std::uint8_t *mel_room,
                       int mel_capacity, std::uint8_t *out, int capacity)
      : in_(in), tables_(tables), plane_(plane) {
    mel_.init(mel_room, mel_capacity);
    vlc_.init(out + capacity, capacity);
    ms_.init(out, capacity);
    rows_.clear(in_.width);
  }

  // Codes the block; returns the codeword's length (which may exceed the
  // capacity: nothing past it is written), at least `min_length`: a shorter
  // codeword gets zero bytes after MagSgn's, which no decoder reads (it
  // takes the bits it needs, and past MagSgn's end ones).
  CF_HD int code(std::uint8_t *out, int capacity, int min_length) {
    for (int y = 0; y < in_.height; y += 2) code_row(y);
    return finish(out, capacity, min_length);
  }

 private:
  // A quad's codeword, MEL significance and MagSgn bits; returns u_q.
  CF_HD int code_quad(const Quad &q, int x, bool first_row, unsigned left_rho) {
    const unsigned c = rows_.context(x, first_row, left_rho);
    const QuadSend k = quad_code(q, c, rows_.kappa(x, first_row, q.rho), first_row, tables_);
    vlc_.put(k.vlc.codeword, k.vlc.length);
    if (c == 0) mel_.encode(q.rho != 0);
    for (int n = 0; n < 4; ++n) {
      const int m = magsgn_length(q, k, n);
      if (m > 0) ms_.put(magsgn_bits(q, n, m), m);
    }
    rows_.record(x, q.e[1], q.e[3]);
    return k.u;
  }

  CF_HD void code_row(int y) {
    const bool first_row = y == 0;
    unsigned left_rho = 0;
    for (int x = 0; x < in_.width; x += 4) {
      const Quad q0 = load_quad(in_, x, y, plane_);
      const int u0 = code_quad(q0, x, first_row, left_rho);
      int u1 = 0;
      left_rho = q0.rho;
      if (x + 2 < in_.width) {
        const Quad q1 = load_quad(in_, x + 2, y, plane_);
        u1 = code_quad(q1, x + 2, first_row, left_rho);
        left_rho = q1.rho;
      }
      const ResidualBits r = residual_bits(u0, u1, first_row);
      if (r.mel >= 0) mel_.encode(r.mel != 0);
      vlc_.put(r.bits, r.length);
    }
    rows_.next_row();
  }

  // Lays out MagSgn, MEL, VLC with Scup at the end.
  CF_HD int finish(std::uint8_t *out, int capacity, int min_length) {
    const SegmentLayout s = close_streams(mel_, vlc_, ms_, min_length);
    if (s.total > capacity) return s.total;
    for (int i = 0; i < s.padding; ++i) out[s.magsgn + i] = 0;
    const int mel_at = s.magsgn + s.padding;
    // VLC's bytes sit at the end of the room in segment order; move them
    // after MagSgn and MEL (forwards: the target never passes the source).
    const std::uint8_t *mel_bytes = mel_.data();
    for (int i = 0; i < s.mel; ++i) out[mel_at + i] = mel_bytes[i];
    for (int i = 0; i < s.vlc; ++i) out[mel_at + s.mel + i] = out[capacity - s.vlc + i];
    write_scup(out, s);
    return s.total;
  }

  const t1::BlockInput in_;  // a copy: the fields stay in registers
  const EncodeTables &tables_;
  int plane_;
  MelEncoder mel_;
  VlcEncoder vlc_;
  MagSgnEncoder ms_;
  QuadRows rows_;
};

// What a cleanup pass at `plane` removes from the squared error of a
// sample of magnitude `magnitude` (t1::BlockOutput's half-units,
// magnitudes m >> shift): a sample it finds significant is rebuilt at the
// middle of its interval, r, so the error 2m + 1 = t falls to t - r:
// t^2 - (t - r)^2 = r (2t - r). m is below 2^24 (the shift's definition)
// and r at most 3m + 2, so both factors fit 32 bits and their product 64.
CF_HD std::int64_t magnitude_gain(std::uint32_t magnitude, int plane, int shift) {
  const int p = plane > shift ? plane - shift : 0;
  const std::uint32_t m = magnitude >> shift;
  if ((m >> p) == 0) return 0;
  const std::uint32_t t = 2 * m + 1, r = 2 * ((m >> p) << p) + (1u << p);
  return std::int64_t(std::uint64_t(r) * (2 * t - r));
}
CF_HD std::int64_t cleanup_gain(std::int32_t v, int plane, int shift) {
  return magnitude_gain(v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v), plane, shift);
}
// The same over the samples of the quad at (x, y) (those inside the block).
CF_HD std::int64_t quad_gain(const t1::BlockInput &in, int x, int y, int plane, int shift) {
  std::int64_t gain = 0;
  for (int n = 0; n < 4; ++n) {
    const int sx = x + (n >> 1), sy = y + (n & 1);
    if (sx < in.width && sy < in.height) gain += cleanup_gain(in.samples[sy * in.stride + sx], plane, shift);
  }
  return gain;
}
CF_HD std::int64_t cleanup_distortion(const t1::BlockInput &in, int plane, int shift) {
  std::int64_t gain = 0;
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) gain += cleanup_gain(in.samples[y * in.stride + x], plane, shift);
  return gain;
}

// The style bit, internal to the encoder (not written to COD), that asks
// for cleanup planes as candidates (rate control picks one a block).
constexpr unsigned kCandidatePlanes = 0x100;

// The checks made before a block's samples are read (kOk: none failed).
CF_HD t1::BlockStatus ht_block_refusal(const t1::BlockInput &in) {
  using t1::BlockStatus;
  if (!t1::block_size_ok(in.width, in.height) || in.stride < in.width) return BlockStatus::kBadSize;
  if (in.style & ~(kStyleHt | t1::kStyleVerticalCausal | kCandidatePlanes)) return BlockStatus::kBadStyle;
  if (in.magnitude_bitplanes < 0 || in.magnitude_bitplanes > t1::kMaxBitplanes) return BlockStatus::kTooManyBitplanes;
  return BlockStatus::kOk;
}

// The result before coding, from the OR of the block's magnitudes: its
// candidates in res.passes (0 for an all-zero block), or a refusal.
CF_HD t1::BlockResult ht_block_start(const t1::BlockInput &in, const t1::BlockOutput &out, std::uint32_t any,
                                     t1::PlaneWindow window) {
  using t1::BlockResult;
  using t1::BlockStatus;
  BlockResult res{ht_block_refusal(in), 0, 0, in.magnitude_bitplanes, 0};
  if (res.status != BlockStatus::kOk || any == 0) return res;
  const int planes = t1::bitplanes_of(any);
  if (planes > in.magnitude_bitplanes) return res.status = BlockStatus::kTooManyBitplanes, res;
  const int candidates = (in.style & kCandidatePlanes) ? t1::window_planes(planes, window) : 1;
  if (out.pass_capacity < candidates) return res.status = BlockStatus::kPassArrayTooSmall, res;
  return {BlockStatus::kOk, candidates, 0, in.magnitude_bitplanes - planes, t1::distortion_shift(planes)};
}

// The candidates of a block whose magnitudes OR to `any`, as
// encode_ht_block() describes them: code(plane, room, capacity, min_length)
// codes one cleanup pass and returns its length, gain(plane, shift) the
// squared error it removes. `writes`: whether this caller fills the pass
// arrays (of a warp coding the block together, lane 0).
template <class Code, class Gain>
CF_HD t1::BlockResult code_candidates(const t1::BlockInput &in, const t1::BlockOutput &out, std::uint32_t any,
                                      t1::PlaneWindow window, Code code, Gain gain, bool writes) {
  t1::BlockResult res = ht_block_start(in, out, any, window);
  if (res.status != t1::BlockStatus::kOk) return res;
  const int candidates = res.passes;
  const int planes = in.magnitude_bitplanes - res.zero_bitplanes;  // as ht_block_start found them
  const int first = (in.style & kCandidatePlanes) ? t1::first_window_plane(planes, window) : 0;
  std::int64_t before = 0;
  for (int i = 0, length = 0; i < candidates; ++i) {
    const int plane = first - i;
    const int room = out.capacity > res.bytes ? out.capacity - res.bytes : 0;
    length = code(plane, out.bytes ? out.bytes + res.bytes : nullptr, room, length);  // none: estimates
    if (writes) out.pass_lengths[i] = length;
    res.bytes += length;
    if (out.pass_distortion) {
      const std::int64_t d = gain(plane, res.distortion_shift);
      if (writes) out.pass_distortion[i] = d - before;
      before = d;
    }
  }
  if (res.bytes > out.capacity) res.status = t1::BlockStatus::kOverflow;
  return res;
}

// Codes one code-block as one HT cleanup pass at plane 0 (every bit), or,
// with kCandidatePlanes in in.style, as candidates: a cleanup pass at each
// plane of `window` (count 0: from the block's top plane down to 0), back
// to back in out.bytes (each at least as long as the one before it), as if
// each were a coding pass: pass_lengths[i] is candidate i's length (plane
// first_candidate_plane - i) and pass_distortion[i] what it improves on
// candidate i - 1 (t1's units; candidate 0's on no pass at all). Rate
// allocation then keeps a number of "passes" k per block, which tier-2
// reads as candidate k - 1. An all-zero block gives 0 passes and 0 bytes,
// like encode_block(); zero_bitplanes counts the block's planes as Part 1's
// does (for guard bits). out.work holds MEL's bytes (block_work_bytes
// suffices).
CF_HD t1::BlockResult encode_ht_block(const t1::BlockInput &in, const t1::BlockOutput &out, const EncodeTables &tables,
                                      t1::PlaneWindow window = {}) {
  if (ht_block_refusal(in) != t1::BlockStatus::kOk) return ht_block_start(in, out, 0, window);
  const auto code = [&](int plane, std::uint8_t *room, int capacity, int min_length) {
    HtBlockEncoder enc(in, tables, plane, out.work, t1::block_work_bytes(in.width, in.height), room, capacity);
    return enc.code(room, capacity, min_length);
  };
  const auto gain = [&](int plane, int shift) { return cleanup_distortion(in, plane, shift); };
  return code_candidates(in, out, t1::magnitude_or(in), window, code, gain, true);
}

}  // namespace cf::j2k::ht
