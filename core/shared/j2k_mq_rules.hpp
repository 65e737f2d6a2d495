// The MQ arithmetic coder of JPEG 2000 (ITU-T T.800 | ISO/IEC 15444-1,
// Annex C), written once for every backend (CF_HD: host_device.hpp): the
// probability estimation table, a context's state, the encoder and the
// decoder. The procedure names in the comments (INITENC, CODEMPS, BYTEOUT,
// ...) are the standard's, so each function can be read next to its
// flowchart. ITU-T T.88 (JBIG2) Annex E specifies the same coder.
//
// Nothing here allocates: the encoder writes into a byte buffer the caller
// owns, and never past the capacity it was given.
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"

namespace cf::j2k {

// One row of the probability estimation table (T.800 Table C.2): the LPS
// probability estimate Qe (in the 16-bit scale where 0x8000 is 0.75), the
// next state after an MPS and after an LPS renormalisation, and whether an
// LPS in this state swaps the sense of the MPS.
struct MqState {
  std::uint16_t qe;
  std::uint8_t nmps, nlps, swap;
};

constexpr int kMqStateCount = 47;

// Row `index` of Table C.2 (0 <= index < kMqStateCount). A switch rather than
// an array so that device code can call it without a table in device memory.
// The table keeps its rows.
// clang-format off
CF_HD constexpr MqState mq_state(int index) {
  switch (index) {
    case 0:  return {0x5601, 1, 1, 1};    case 1:  return {0x3401, 2, 6, 0};
    case 2:  return {0x1801, 3, 9, 0};    case 3:  return {0x0AC1, 4, 12, 0};
    case 4:  return {0x0521, 5, 29, 0};   case 5:  return {0x0221, 38, 33, 0};
    case 6:  return {0x5601, 7, 6, 1};    case 7:  return {0x5401, 8, 14, 0};
    case 8:  return {0x4801, 9, 14, 0};   case 9:  return {0x3801, 10, 14, 0};
    case 10: return {0x3001, 11, 17, 0};  case 11: return {0x2401, 12, 18, 0};
    case 12: return {0x1C01, 13, 20, 0};  case 13: return {0x1601, 29, 21, 0};
    case 14: return {0x5601, 15, 14, 1};  case 15: return {0x5401, 16, 14, 0};
    case 16: return {0x5101, 17, 15, 0};  case 17: return {0x4801, 18, 16, 0};
    case 18: return {0x3801, 19, 17, 0};  case 19: return {0x3401, 20, 18, 0};
    case 20: return {0x3001, 21, 19, 0};  case 21: return {0x2801, 22, 19, 0};
    case 22: return {0x2401, 23, 20, 0};  case 23: return {0x2201, 24, 21, 0};
    case 24: return {0x1C01, 25, 22, 0};  case 25: return {0x1801, 26, 23, 0};
    case 26: return {0x1601, 27, 24, 0};  case 27: return {0x1401, 28, 25, 0};
    case 28: return {0x1201, 29, 26, 0};  case 29: return {0x1101, 30, 27, 0};
    case 30: return {0x0AC1, 31, 28, 0};  case 31: return {0x09C1, 32, 29, 0};
    case 32: return {0x08A1, 33, 30, 0};  case 33: return {0x0521, 34, 31, 0};
    case 34: return {0x0441, 35, 32, 0};  case 35: return {0x02A1, 36, 33, 0};
    case 36: return {0x0221, 37, 34, 0};  case 37: return {0x0141, 38, 35, 0};
    case 38: return {0x0111, 39, 36, 0};  case 39: return {0x0085, 40, 37, 0};
    case 40: return {0x0049, 41, 38, 0};  case 41: return {0x0025, 42, 39, 0};
    case 42: return {0x0015, 43, 40, 0};  case 43: return {0x0009, 44, 41, 0};
    case 44: return {0x0005, 45, 42, 0};  case 45: return {0x0001, 45, 43, 0};
    default: return {0x5601, 46, 46, 0};  // 46: the fixed, non-adapting state
  }
}
// clang-format on

// Table C.2 with the MPS sense folded in, one 32-bit word per context state
// 2 I(CX) + MPS(CX) (2 x 47 of them): bits 0-15 Qe, 16-23 the state after
// an MPS renormalisation (NMPS, the same sense), 24-31 the state after an
// LPS (NLPS, the sense turned over where SWITCH is 1). Bit 16 is then the
// state's own MPS.
constexpr int kMqContextStates = 2 * kMqStateCount;
CF_HD constexpr std::uint32_t mq_transition(int state) {
  const MqState s = mq_state(state >> 1);
  const int mps = state & 1;
  return std::uint32_t(s.qe) | std::uint32_t(2 * s.nmps + mps) << 16 | std::uint32_t(2 * s.nlps + (mps ^ s.swap)) << 24;
}
CF_HD constexpr int after_mps(std::uint32_t t) { return int(t >> 16 & 0xFFu); }
CF_HD constexpr int after_lps(std::uint32_t t) { return int(t >> 24); }

// A context CX: the transition word of its state (I(CX) and MPS(CX)), so
// that a decision reads Qe and MPS from the context alone and the table
// only where the state moves. Tier-1 chooses each context's starting
// state; the coder only moves it.
struct MqContext {
  std::uint32_t row = mq_transition(0);  // state 0, MPS 0
  CF_HD constexpr std::uint32_t qe() const { return row & 0xFFFFu; }
  CF_HD constexpr int mps() const { return int(row >> 16 & 1u); }
};
CF_HD constexpr MqContext mq_context(int index, int mps) { return MqContext{mq_transition(2 * index + mps)}; }

// The transitions as an array, made at compile time: what the host reads
// (a call of mq_state per state change costs the serial coder a fifth of
// its time); device code reads a shared-memory copy (mq_row).
struct MqTransitions {
  std::uint32_t row[kMqContextStates];
};
constexpr MqTransitions make_mq_transitions() {
  MqTransitions t{};
  for (int i = 0; i < kMqContextStates; ++i) t.row[i] = mq_transition(i);
  return t;
}
inline constexpr MqTransitions kMqTransitions = make_mq_transitions();

// The transition word of context state `state` from `table`, a coder's
// copy of MqTransitions. Device code always gives one: mq_state() inlined
// at every decision beside it would double a coder's code. Host code may
// give none: the array made at compile time.
CF_HD std::uint32_t mq_row(const std::uint32_t *table, int state) {
#ifdef __CUDA_ARCH__
  return table[state];
#else
  return table ? table[state] : kMqTransitions.row[state];
#endif
}

// Leading zero bits of a non-zero word.
CF_HD int leading_zeros(std::uint32_t v) {
#ifdef __CUDA_ARCH__
  return __clz(v);
#else
  return __builtin_clz(v);
#endif
}

// Trailing zero bits of a non-zero word: the lowest set bit's position.
CF_HD int trailing_zeros(std::uint32_t v) {
#ifdef __CUDA_ARCH__
  return __ffs(int(v)) - 1;
#else
  return __builtin_ctz(v);
#endif
}

// The encoder of T.800 C.2, with its register conventions: A holds
// the interval size, C the code register laid out as
// 0000 cbbb bbbb bsss xxxx xxxx xxxx xxxx (c: carry, b: the next byte out,
// s: spacer bits, x: the fraction), CT counts the shifts left before a byte
// is complete, and B is the byte at BP, the last one moved out of C. B is
// kept in a register as well as in the buffer because a carry can still
// change it, even when its position lies past the capacity.
class MqEncoder {
 public:
  // INITENC. BP starts one before the buffer, at a byte taken as 0:
  // not 0xFF, so CT starts at 12, and no carry can reach it (C + A stays
  // below 2^27 until the first BYTEOUT).
  CF_HD void init(std::uint8_t *buffer, int capacity) {
    buf_ = buffer;
    cap_ = capacity;
    a_ = 0x8000;
    c_ = 0;
    bp_ = -1;
    b_ = 0;
    ct_ = 12;
  }

  // The transitions (MqTransitions) as an array to read from (mq_row): on
  // a GPU, threads in different states then load from one table instead of
  // branching apart; device code must give one.
  CF_HD void use_table(const std::uint32_t *table) { table_ = table; }

  // ENCODE: decision d (0 or 1) in context cx. CODE0 and CODE1 both
  // reduce to comparing d with MPS(CX).
  CF_HD void encode(MqContext &cx, int d) {
    if (d == cx.mps())
      code_mps(cx);
    else
      code_lps(cx);
  }

  // FLUSH (C.2.9, Figure C.11): pins C to the value in [C, C + A) with the
  // most trailing ones (SETBITS), moves out the two bytes that still hold
  // its bits, and drops a final 0xFF: a codeword does not end with 0xFF, and
  // the decoder reads 0xFF past the end anyway, so the byte carries nothing.
  // The encoder is finished afterwards.
  CF_HD void flush() {
    set_bits();
    c_ <<= ct_;
    byte_out();
    c_ <<= ct_;
    byte_out();
    if (b_ == 0xFF) --bp_;
  }

  // The predictable termination of T.800 D.4.2, which code-block style 0x10
  // asks for instead of FLUSH: C itself, without SETBITS, moves out in whole
  // bytes down to bit 15 (A's top bit), and a final 0xFF is dropped. The
  // decoder's 0xFF fill changes C only below bit 15, and only upwards, so
  // the value stays in [C, C + A). The length then depends on how far C
  // has shifted alone: after S renormalisation shifts, the bytes holding the
  // codeword's first S bits, which a decoder can count and check. k: the
  // bits from the top of the next byte (bit 26 - CT) down to bit 15; each
  // BYTEOUT takes CT bits (7 after a 0xFF). The encoder is finished
  // afterwards.
  CF_HD void flush_predictable() {
    for (int k = 12 - ct_; k > 0; k -= ct_) {
      c_ <<= ct_;
      byte_out();
    }
    if (b_ == 0xFF) --bp_;
  }

  // Bytes of the codeword: after flush(), its length; before, the bytes
  // moved out of C so far (the last of them may still grow by a carry).
  CF_HD int bytes() const { return bp_ + 1; }

  // True when the codeword (so far) is longer than the buffer: the bytes
  // past the capacity were counted but not written.
  CF_HD bool overflow() const { return bytes() > cap_; }

  // The length the codeword would have if FLUSH ended it here: bytes() plus
  // what FLUSH adds, found by flushing a copy that writes nothing. The
  // length of a coding pass that ends a terminated segment.
  CF_HD int length_if_flushed() const {
    MqEncoder copy = *this;
    copy.cap_ = 0;  // no writes: the buffer belongs to this encoder
    copy.flush();
    return copy.bytes();
  }

  // How many bytes of the finished codeword a decoder needs to decode every
  // decision coded so far when coding goes on (a pass that does not end its
  // segment, where rate control may cut the codeword): bytes() plus the
  // bytes that will hold the bits now in C, down to the lowest. Why that is
  // enough: the codeword's value V lies in [C, C + A), and C + A is a whole
  // number in units of C's lowest bit; keeping every bit of V down to that
  // one and setting all below it to 1 (the decoder's 0xFF fill) raises V by
  // less than one unit, so it stays below C + A. length_if_flushed() can be
  // too short here: this codeword differs from the flushed one in its last
  // bytes. At most 4 more than bytes(); cap it at the final length.
  CF_HD int truncation_length() const {
    MqEncoder copy = *this;
    copy.cap_ = 0;
    int lsb = 0;  // where C's lowest bit now is, as C shifts left
    for (;;) {
      lsb += copy.ct_;
      copy.c_ <<= copy.ct_;
      copy.byte_out();
      if (lsb >= (copy.ct_ == 7 ? 20 : 19)) return copy.bytes();  // it left with this byte
    }
  }

 private:
  // CODEMPS with the conditional exchange: the MPS normally takes
  // the upper sub-interval (C += Qe). When renormalisation follows and that
  // sub-interval has become smaller than Qe, the MPS takes the lower one of
  // size Qe instead, which keeps the larger part for the likelier symbol.
  // Qe adapts (NMPS) only where renormalisation happens.
  CF_HD void code_mps(MqContext &cx) {
    const std::uint32_t qe = cx.qe();
    a_ -= qe;
    if ((a_ & 0x8000) != 0) {
      c_ += qe;
      return;
    }
    if (a_ < qe)
      a_ = qe;
    else
      c_ += qe;
    cx.row = mq_row(table_, after_mps(cx.row));
    renorm();
  }

  // CODELPS with the conditional exchange: the LPS normally takes
  // the lower sub-interval, of size Qe; when the upper one is smaller, the
  // LPS takes that one instead. An LPS always renormalises, and in a state
  // with SWITCH it turns the MPS sense over.
  CF_HD void code_lps(MqContext &cx) {
    const std::uint32_t qe = cx.qe();
    a_ -= qe;
    if (a_ < qe)
      c_ += qe;
    else
      a_ = qe;
    cx.row = mq_row(table_, after_lps(cx.row));
    renorm();
  }

  // RENORME: doubles A until it is at least 0x8000 again, shifting
  // C along and moving a byte out of C each time CT runs out. The doublings
  // are counted at once (A is never 0 here) and C moves in as few shifts as
  // the bytes out allow: the same steps as the flowchart's one-bit loop,
  // without a branch per bit.
  CF_HD void renorm() {
    int n = leading_zeros(a_) - 16;
    a_ <<= n;
    while (n >= ct_) {
      c_ <<= ct_;
      n -= ct_;
      byte_out();  // CT reached 0; BYTEOUT sets it anew
    }
    c_ <<= n;
    ct_ -= n;
  }

  // BYTEOUT. A carry out of C goes into B. After a 0xFF byte, the
  // next byte carries only 7 bits (bit stuffing): its top bit stays 0, so a
  // carry can never turn the 0xFF over, and 0xFF followed by a byte above
  // 0x8F (a marker) never appears in the codeword.
  CF_HD void byte_out() {
    if (b_ == 0xFF) {
      next_byte_stuffed();
      return;
    }
    if (c_ & kCarry) {
      c_ &= ~kCarry;
      set_byte(std::uint8_t(b_ + 1));
      if (b_ == 0xFF) {
        next_byte_stuffed();
        return;
      }
    }
    next_byte(c_ >> 19, 0x7FFFF, 8);
  }

  // The byte after a 0xFF: 7 bits of C (bits 20 to 26), CT = 7.
  CF_HD void next_byte_stuffed() { next_byte(c_ >> 20, 0xFFFFF, 7); }

  // BP = BP + 1, B = `value`: the bits above `keep` leave C; CT bits make
  // the next byte.
  CF_HD void next_byte(std::uint32_t value, std::uint32_t keep, int ct) {
    ++bp_;
    set_byte(std::uint8_t(value));
    c_ &= keep;
    ct_ = ct;
  }

  // B at BP, written through to the buffer inside the capacity only.
  CF_HD void set_byte(std::uint8_t v) {
    b_ = v;
    if (bp_ >= 0 && bp_ < cap_) buf_[bp_] = v;
  }

  // SETBITS (part of FLUSH): sets as many low bits of C to 1 as keep it below
  // C + A, the end of the interval, so that the decoder's 0xFF fill after
  // the codeword lands inside the interval.
  CF_HD void set_bits() {
    const std::uint32_t end = c_ + a_;
    c_ |= 0xFFFF;
    if (c_ >= end) c_ -= 0x8000;
  }

  static constexpr std::uint32_t kCarry = 0x8000000;  // the c bit of C

  const std::uint32_t *table_ = nullptr;
  std::uint8_t *buf_ = nullptr;
  int cap_ = 0;
  std::uint32_t a_ = 0x8000, c_ = 0;
  int bp_ = -1;  // index of B in the buffer; -1: the byte before it
  std::uint8_t b_ = 0;
  int ct_ = 12;
};

// The decoder of T.800 C.3, with its register conventions: Chigh
// (C's upper 16 bits) is the code value's offset from the bottom of the
// current interval, compared with A and Qe; Clow takes the new bits as
// bytes come in. Past the end of the data the decoder reads 0xFF bytes, as
// T.800 has it; to BYTEIN, 0xFF followed by a byte above 0x8F is a marker,
// so from there on it feeds 1 bits, which the encoder's SETBITS relies on.
class MqDecoder {
 public:
  // INITDEC (C.3.5): the first byte into Chigh, the next through BYTEIN,
  // then C is aligned so that CT counts the bits left in Clow.
  CF_HD void init(const std::uint8_t *data, int length) {
    data_ = data;
    len_ = length;
    bp_ = 0;
    b_ = byte_at(0);
    c_ = b_ << 16;
    byte_in();
    c_ <<= 7;
    ct_ -= 7;
    a_ = 0x8000;
  }

  // The transitions as an array to read from, as MqEncoder::use_table.
  CF_HD void use_table(const std::uint32_t *table) { table_ = table; }

  // DECODE (C.3.2): the decision coded in context cx. The lower
  // sub-interval, of size Qe, is the LPS's and the upper one the MPS's,
  // unless the conditional exchange swapped them (checked only where
  // renormalisation follows, as in the encoder). Either way the context
  // moves to its NMPS state after an MPS and to its NLPS state after an LPS.
  CF_HD int decode(MqContext &cx) {
    const std::uint32_t qe = cx.qe();
    const int mps = cx.mps();
    a_ -= qe;
    bool lps;
    if ((c_ >> 16) < qe) {  // LPS_EXCHANGE: the lower sub-interval, the LPS's unless A < Qe
      lps = a_ >= qe;
      a_ = qe;
    } else {
      c_ -= qe << 16;
      if ((a_ & 0x8000) != 0) return mps;
      lps = a_ < qe;  // MPS_EXCHANGE: the upper sub-interval, the LPS's when A < Qe
    }
    cx.row = mq_row(table_, lps ? after_lps(cx.row) : after_mps(cx.row));
    renorm();
    return lps ? 1 - mps : mps;
  }

 private:
  // RENORMD (C.3.3): doubles A until it is at least 0x8000 again, shifting
  // C along and reading a byte each time CT runs out before a shift. The
  // doublings are counted at once (A is never 0 here) and C moves in as few
  // shifts as the bytes in allow: the flowchart's one-bit loop without a
  // branch per bit.
  CF_HD void renorm() {
    int n = leading_zeros(a_) - 16;
    a_ <<= n;
    for (;;) {
      if (ct_ == 0) byte_in();
      const int k = n < ct_ ? n : ct_;
      c_ <<= k;
      ct_ -= k;
      n -= k;
      if (n == 0) return;
    }
  }

  // BYTEIN (C.3.4), B (the byte at BP) kept in a register. After a 0xFF, a
  // byte above 0x8F is a marker, the end of the codeword: BP stays, and 1
  // bits come in instead. Otherwise the byte after a 0xFF holds 7 bits (the
  // encoder's bit stuffing), others 8.
  CF_HD void byte_in() {
    if (b_ != 0xFF) {
      b_ = byte_at(++bp_);
      c_ += b_ << 8;
      ct_ = 8;
      return;
    }
    const std::uint32_t next = byte_at(bp_ + 1);
    if (next > 0x8F) {
      c_ += 0xFF00;
      ct_ = 8;
    } else {
      ++bp_;
      b_ = next;
      c_ += next << 9;
      ct_ = 7;
    }
  }

  // The byte at index i, 0xFF past the end of the data.
  CF_HD std::uint32_t byte_at(int i) const { return i < len_ ? data_[i] : 0xFFu; }

  const std::uint32_t *table_ = nullptr;
  const std::uint8_t *data_ = nullptr;
  int len_ = 0;
  int bp_ = 0;
  std::uint32_t b_ = 0;  // the byte at bp_
  std::uint32_t a_ = 0x8000, c_ = 0;
  int ct_ = 0;
};

}  // namespace cf::j2k
