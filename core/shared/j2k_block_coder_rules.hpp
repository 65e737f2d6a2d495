// The code-block encoder of JPEG 2000 tier-1 coding (EBCOT bit-plane coding,
// ITU-T T.800 | ISO/IEC 15444-1, Annex D), written once for every backend
// (CF_HD: host_device.hpp): the serial reference and OpenMP (one code-block
// per thread) call encode_block(); CUDA forms the contexts a warp per
// code-block (kernels/j2k_tier1_kernels.cuh) and codes them through the same
// PassCoder, falling back to encode_block() for a block whose decisions do
// not fit its room.
//
// A code-block's quantised coefficients (sign and magnitude in an int32) are
// coded bit-plane by bit-plane from the most significant non-zero one: a
// cleanup pass on that plane, then per lower plane the significance
// propagation, magnitude refinement and cleanup passes (D.3), in the stripe
// scan of j2k_tier1_rules.hpp, with the contexts formed there, into the MQ
// coder (j2k_mq_rules.hpp).
//
// Code-block style switches (COD's SPcod, T.800 Table A.19), all of them:
//   0x01 selective arithmetic coding bypass (D.6): from the 11th pass on
//        (the 5th bit-plane coded), significance propagation and refinement
//        passes write their bits raw; the cleanup passes stay arithmetic.
//   0x02 the context states reset after each pass (D.4).
//   0x04 termination on each coding pass (D.4).
//   0x08 vertically causal contexts (D.7).
//   0x10 predictable termination (D.4.2).
//   0x20 segmentation symbols (D.5): 1010 in the uniform context at the end
//        of each cleanup pass.
// The codeword is a run of codeword segments, each terminated: the last
// pass always ends one; with 0x04 every pass does; with 0x01 the 10th pass
// (the arithmetic coder stops before raw passes), each raw refinement pass
// (ending the raw segment its significance pass starts) and each later
// cleanup pass. pass_ends_segment() says which. An MQ segment ends with
// FLUSH (C.2.9), or with 0x10 with the predictable termination; a raw
// segment is padded to a byte with 0101... (D.6). The next segment starts
// the MQ coder afresh (INITENC) and keeps the context states.
//
// Truncation points (BlockOutput::pass_lengths): the codeword's length
// after each pass. At a pass that ends a segment it is exact: the segment's
// last byte. Elsewhere it is the fewest bytes from which a decoder gets
// every decision up to that pass, so a codeword may be cut there.
//
// Distortion (BlockOutput::pass_distortion): for each pass, the reduction of
// squared error it brings, in half-units of the quantised magnitudes. With
// m a sample's magnitude and p the lowest bit-plane known after a pass (a
// sample not yet coded on any plane: p = the block's planes), a significant
// sample (m >> p != 0) is reconstructed at the middle of its interval: in
// half-units the true value is T = 2m + 1 and the reconstruction
// R = 2 * ((m >> p) << p) + 2^p (= T when p = 0); an insignificant one at
// R = 0. A pass's value is the sum over the samples it codes of
// (T - R_before)^2 - (T - R_after)^2, in int64. That is exact while the
// block's magnitudes stay below 2^24 (no sum can reach 2^63); a block with
// more bit-planes, b = 25..32, is measured at magnitudes m >> s and planes
// max(p - s, 0), s = b - 24 = BlockResult::distortion_shift, that is in
// units of 4^s of the exact values, its lowest s planes counting nothing.
//
// Nothing here allocates: the caller passes a work area of
// block_work_bytes(w, h) bytes, the output buffer and arrays of
// max_pass_count(Mb) pass entries.
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"
#include "core/shared/j2k_mq_rules.hpp"
#include "core/shared/j2k_tier1_rules.hpp"

namespace cf::j2k::t1 {

// Code-block size limits (T.800 A.6.1): each side at most 1024 samples
// (2^10), the area at most 4096 (2^12).
constexpr int kMaxBlockSide = 1024;
constexpr int kMaxBlockArea = 4096;

// The style bits, as COD's SPcod writes them (T.800 Table A.19); HT's is
// ht::kStyleHt. The one internal definition: the public j2k_style has the
// same values (j2k_settings.cpp checks).
constexpr unsigned kStyleBypass = 0x01;          // selective arithmetic coding bypass
constexpr unsigned kStyleReset = 0x02;           // context states reset after each pass
constexpr unsigned kStyleRestart = 0x04;         // termination on each coding pass
constexpr unsigned kStyleVerticalCausal = 0x08;  // vertically causal contexts
constexpr unsigned kStylePredictable = 0x10;     // predictable termination
constexpr unsigned kStyleSegmentation = 0x20;    // segmentation symbols
constexpr unsigned kStylePart1 = 0x3F;           // the six switches of Part 1
constexpr unsigned kStylesSupported = kStylePart1;

// Magnitudes are those of an int32 (up to 2^31), so at most 32 bit-planes.
constexpr int kMaxBitplanes = 32;

// Distortion is measured exactly up to this many bit-planes (see the top).
constexpr int kExactDistortionPlanes = 24;

// With bypass, the passes before this one are all arithmetic-coded: the
// cleanup pass of the top plane and three planes of three passes.
constexpr int kFirstRawPass = 10;

// A code-block's sides within those limits.
CF_HD constexpr bool block_size_ok(int width, int height) {
  return width >= 1 && height >= 1 && width <= kMaxBlockSide && height <= kMaxBlockSide &&
         width * height <= kMaxBlockArea;
}

// The work area: one byte of state per sample, with a border of one sample
// all round that stays insignificant (neighbours outside the code-block).
// The encoder and the decoder keep the same states in it.
CF_HD constexpr int block_work_bytes(int width, int height) { return (width + 2) * (height + 2); }
constexpr std::uint8_t kSignificant = 1;
constexpr std::uint8_t kNegative = 2;
constexpr std::uint8_t kRefined = 4;   // refined at least once
constexpr std::uint8_t kCodedNow = 8;  // coded by this plane's significance propagation pass

// The significant neighbours of the sample in row y whose state byte is at
// f (in a work area of `pitch` bytes a row) as a k* mask, after the
// vertically causal rule when `style` asks for it; `negative` gets the
// direct neighbours' signs.
CF_HD unsigned bit_if_(std::uint8_t v, std::uint8_t state, unsigned b) { return (v & state) ? b : 0u; }
CF_HD unsigned significant_neighbours(const std::uint8_t *f, int pitch, unsigned style, int y, unsigned &negative) {
  const int p = pitch;
  const std::uint8_t s = kSignificant, n = kNegative;
  unsigned m = bit_if_(f[-1], s, kW) | bit_if_(f[1], s, kE) | bit_if_(f[-p], s, kN) | bit_if_(f[p], s, kS) |
               bit_if_(f[-p - 1], s, kNW) | bit_if_(f[-p + 1], s, kNE) | bit_if_(f[p - 1], s, kSW) |
               bit_if_(f[p + 1], s, kSE);
  if (style & kStyleVerticalCausal) m = vertically_causal(m, y);
  negative = bit_if_(f[-1], n, kW) | bit_if_(f[1], n, kE) | bit_if_(f[-p], n, kN) | bit_if_(f[p], n, kS);
  return m;
}

// Every context at its initial state (Table D.7): at the start of a
// code-block and, with kStyleReset, after every pass.
CF_HD void reset_contexts(MqContext *contexts) {
  // Constants, so that device code calls no mq_state() at run time.
  constexpr MqContext first = mq_context(initial_state(0), kInitialMps),
                      other = mq_context(initial_state(1), kInitialMps),
                      run = mq_context(initial_state(kRunLengthContext), kInitialMps),
                      uniform = mq_context(initial_state(kUniformContext), kInitialMps);
  for (int c = 0; c < kContextCount; ++c)
    contexts[c] = c == 0 ? first : c == kRunLengthContext ? run : c == kUniformContext ? uniform : other;
}

// Passes of a block with Mb magnitude bit-planes, at most: a cleanup pass on
// the top plane, three on each plane below it.
CF_HD constexpr int max_pass_count(int magnitude_bitplanes) {
  return magnitude_bitplanes > 0 ? 3 * magnitude_bitplanes - 2 : 0;
}

// Pass `pass` (from 0, the top plane's cleanup) is a significance
// propagation (0), refinement (1) or cleanup (2) pass.
CF_HD constexpr int pass_kind(int pass) { return (pass + 2) % 3; }

// Whether pass `pass` writes its bits raw (bypass, D.6).
CF_HD constexpr bool pass_is_raw(unsigned style, int pass) {
  return (style & kStyleBypass) != 0 && pass >= kFirstRawPass && pass_kind(pass) != 2;
}

// Whether pass `pass` of a block of `passes` passes ends a codeword segment
// (a terminated one: its length is exact, and tier-2 signals one length per
// segment, T.800 B.10.7.2).
CF_HD constexpr bool pass_ends_segment(unsigned style, int pass, int passes) {
  if (pass == passes - 1 || (style & kStyleRestart) != 0) return true;
  if ((style & kStyleBypass) == 0) return false;
  // The arithmetic coder stops before the first raw pass, a raw segment
  // ends with its refinement pass, and every later cleanup pass is a
  // segment of its own.
  return pass >= kFirstRawPass - 1 && pass_kind(pass) != 0;
}

enum class BlockStatus {
  kOk,
  kBadSize,           // a side below 1 or above 1024, or the area above 4096
  kBadStyle,          // a style bit outside Table A.19's six
  kTooManyBitplanes,  // a magnitude needs more bit-planes than Mb (or Mb outside 0..32)
  kPassArrayTooSmall,
  kOverflow,  // the codeword is longer than the output capacity
  // Decoding (j2k_block_decoder_rules.hpp):
  kBadZeroBitplanes,  // zero bit-planes outside 0..Mb
  kBadPasses,         // passes below 0, or more than the bit-planes left allow (3 (Mb - P) - 2)
  kBadSegments,       // segment lengths: not one per codeword segment, negative, or past the data
  kCorrupt,           // decoded, but a segmentation symbol is not 1010 (D.5): the samples may be wrong
};

struct BlockInput {
  const std::int32_t *samples;  // row y starts at samples + y * stride
  int width, height, stride;
  Orientation orientation;
  int magnitude_bitplanes;  // Mb of the subband (T.800 E.1.1.2)
  unsigned style;           // kStyle* bits
};

struct BlockOutput {
  std::uint8_t *work;             // block_work_bytes(width, height) bytes
  std::uint8_t *bytes;            // the codeword
  int capacity;                   // bytes writable at `bytes`
  int *pass_lengths;              // cumulative length after each pass: truncation points
  int pass_capacity;              // entries of pass_lengths (and pass_distortion); max_pass_count(Mb) suffices
  std::int64_t *pass_distortion;  // per pass, the squared error it removes (see the top); nullptr: not wanted
};

struct BlockResult {
  BlockStatus status;
  int passes;            // coding passes
  int bytes;             // codeword length (the length it needs, on kOverflow)
  int zero_bitplanes;    // P: Mb minus the planes down from the top non-zero one
  int distortion_shift;  // s of pass_distortion: 0 below 2^24, else planes - 24
};

// Raw coding of the bypass mode (T.800 D.6): bits straight into bytes, the
// most significant first; after a byte of 0xFF the next one holds 7 bits
// under a 0, so no marker can appear. Like MqEncoder, it writes inside its
// capacity only and counts the rest.
class RawEncoder {
 public:
  CF_HD void init(std::uint8_t *buffer, int capacity) {
    buf_ = buffer;
    cap_ = capacity;
    n_ = 0;
    cur_ = 0;
    free_ = 8;
    last_ = 0;
  }

  CF_HD void put(int bit) {
    cur_ = std::uint8_t(cur_ | ((bit & 1) << --free_));
    if (free_ == 0) emit();
  }

  // Ends the segment: the last byte's free bits get 0101...; with nothing
  // left over after a 0xFF, predictable termination adds the byte its
  // stuffed bit starts, padded the same way (0x2A), so a decoder finds the
  // pattern; otherwise the 0xFF goes, its eight 1s being what a decoder
  // reads past the end anyway. Finished afterwards.
  CF_HD void flush(bool predictable) {
    const bool pending = free_ < (last_ == 0xFF ? 7 : 8);
    if (!pending && last_ == 0xFF && !predictable) {
      --n_;
      return;
    }
    if (!pending && last_ != 0xFF) return;
    for (int v = 0; free_ > 0; v ^= 1) cur_ = std::uint8_t(cur_ | (v << --free_));
    emit();
  }

  CF_HD int bytes() const { return n_; }

  // The bytes a decoder needs for every bit put so far, when the segment
  // goes on: the byte being filled counts once it holds a bit; a last 0xFF
  // need not be sent (its 1s are the decoder's fill).
  CF_HD int truncation_length() const {
    if (free_ < (last_ == 0xFF ? 7 : 8)) return n_ + 1;
    return last_ == 0xFF ? n_ - 1 : n_;
  }

 private:
  CF_HD void emit() {
    if (n_ < cap_) buf_[n_] = cur_;
    ++n_;
    last_ = cur_;
    cur_ = 0;
    free_ = last_ == 0xFF ? 7 : 8;
  }

  std::uint8_t *buf_ = nullptr;
  int cap_ = 0, n_ = 0;
  std::uint8_t cur_ = 0, last_ = 0;
  int free_ = 8;  // bits of the byte being filled still free
};

// In half-units, the squared error of a sample of magnitude m known down to
// bit-plane p (the definition at the top); m < 2^24 and p <= 24 keep it in
// 2^50.
CF_HD std::int64_t half_unit_squared_error(std::uint32_t m, int p) {
  const std::uint32_t q = m >> p;
  const std::int64_t t = 2 * std::int64_t(m) + 1;
  const std::int64_t r = q ? 2 * (std::int64_t(q) << p) + (std::int64_t(1) << p) : 0;
  return (t - r) * (t - r);
}

// What knowing a sample of magnitude m down to `plane` (one plane further)
// removes from the squared error, once it is significant there; measured at
// magnitudes m >> shift (0 below the measured planes, or with shift < 0: not
// measured). The definition is at the top.
CF_HD std::int64_t distortion_gain(std::uint32_t m, int plane, int shift) {
  if (shift < 0 || plane < shift) return 0;
  const std::uint32_t ms = m >> shift;
  const int p = plane - shift;
  return half_unit_squared_error(ms, p + 1) - half_unit_squared_error(ms, p);
}

// One decision of the context modelling, as the CUDA backend stores it
// between its modelling and coding kernels: the context label (0..18), the
// decision and whether the label's sign prediction flips it.
CF_HD constexpr std::uint8_t pack_decision(int label, int d, int flip) {
  return std::uint8_t(label | (d << 5) | (flip << 6));
}
CF_HD constexpr int decision_label(std::uint8_t v) { return v & 31; }
CF_HD constexpr int decision_bit(std::uint8_t v) { return (v >> 5) & 1; }
CF_HD constexpr int decision_flip(std::uint8_t v) { return (v >> 6) & 1; }

// The codeword of one code-block, pass by pass: the decisions of the context
// modelling into the MQ coder, or raw in bypass passes, segment by segment
// as pass_ends_segment() says, with the contexts' states, their resets and a
// truncation point per pass. Whoever forms the contexts (BlockEncoder below,
// or the CUDA backend from stored decisions) drives it, and keeps the
// kContextCount context states where it likes (the CUDA backend: in shared
// memory; an array inside the coder would put the whole coder in a GPU
// thread's local memory, being indexed at run time).
class PassCoder {
 public:
  CF_HD PassCoder(unsigned style, int passes, std::uint8_t *out, int capacity, MqContext *contexts)
      : style_(style), passes_(passes), out_(out), cap_(capacity), ctx_(contexts) {
    reset_contexts(ctx_);
    begin_segment(false);
  }

  // Decision d: raw in a bypass pass; otherwise d ^ flip through the MQ
  // coder in context `label` (flip: a sign decision's prediction, D.3.2,
  // which raw coding does not use).
  CF_HD void code(int label, int d, int flip = 0) {
    if (raw_now_)
      raw_.put(d);
    else
      mq_.encode(ctx_[label], d ^ flip);
  }

  // Pass `pass` is coded: its truncation point into pass_lengths[pass]
  // (the segment's end when the pass ends one, which then starts the next
  // pass's segment); contexts reset with that style.
  CF_HD void end_pass(int pass, int *pass_lengths) {
    if (pass_ends_segment(style_, pass, passes_)) {
      start_ += end_segment();
      pass_lengths[pass] = start_;
      if (pass + 1 < passes_) begin_segment(pass_is_raw(style_, pass + 1));
    } else {
      pass_lengths[pass] = start_ + (raw_now_ ? raw_.truncation_length() : mq_.truncation_length());
    }
    if (style_ & kStyleReset) reset_contexts(ctx_);
  }

  // Transitions read from a copy of MqTransitions (MqEncoder::use_table).
  CF_HD void use_table(const std::uint32_t *table) { mq_.use_table(table); }

  // After the last pass: the codeword's length. A point is never past a
  // later one: bytes enough to decode more passes are enough for fewer (a
  // truncation point may pass its segment's end, which termination can make
  // shorter).
  CF_HD int finish(int *pass_lengths) const {
    for (int i = passes_ - 2; i >= 0; --i)
      if (pass_lengths[i] > pass_lengths[i + 1]) pass_lengths[i] = pass_lengths[i + 1];
    return start_;
  }

 private:
  // A codeword segment starts at byte `start_` of the output: the MQ coder
  // afresh (INITENC) with the contexts as they are, or raw.
  CF_HD void begin_segment(bool raw) {
    raw_now_ = raw;
    std::uint8_t *at = start_ < cap_ ? out_ + start_ : out_;
    const int room = start_ < cap_ ? cap_ - start_ : 0;
    if (raw)
      raw_.init(at, room);
    else
      mq_.init(at, room);
  }

  // Terminates the segment; returns its length.
  CF_HD int end_segment() {
    const bool predictable = (style_ & kStylePredictable) != 0;
    if (raw_now_) {
      raw_.flush(predictable);
      return raw_.bytes();
    }
    if (predictable)
      mq_.flush_predictable();
    else
      mq_.flush();
    return mq_.bytes();
  }

  unsigned style_;
  int passes_;
  std::uint8_t *out_;
  int cap_;
  int start_ = 0;  // where the current segment starts in the output
  bool raw_now_ = false;
  MqContext *ctx_;
  MqEncoder mq_;
  RawEncoder raw_;
};

// The context modelling of one block, serially in the stripe scan (the
// reference for every backend); encode_block() below is the entry.
class BlockEncoder {
 public:
  // distortion_shift: as BlockResult's; below 0, no distortion measured.
  CF_HD BlockEncoder(const BlockInput &in, std::uint8_t *work, int passes, std::uint8_t *out, int capacity,
                     int distortion_shift)
      : in_(in),
        flags_(work),
        pitch_(in.width + 2),
        shift_(distortion_shift),
        coder_(in.style, passes, out, capacity, contexts_) {
    for (int i = 0; i < block_work_bytes(in.width, in.height); ++i) flags_[i] = 0;
  }
  BlockEncoder(const BlockEncoder &) = delete;  // its coder points at its contexts
  BlockEncoder &operator=(const BlockEncoder &) = delete;
  // Transitions read from a copy of MqTransitions (MqEncoder::use_table).
  CF_HD void use_table(const std::uint32_t *table) { coder_.use_table(table); }

  CF_HD std::uint32_t magnitude(int x, int y) const {
    const std::int32_t v = in_.samples[y * in_.stride + x];
    return v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v);
  }
  CF_HD int bit(int x, int y, int plane) const { return int((magnitude(x, y) >> plane) & 1u); }
  CF_HD std::uint8_t &flags(int x, int y) { return flags_[(y + 1) * pitch_ + x + 1]; }

  // The significant neighbours of (x, y) as a k* mask, after the vertically
  // causal rule when that mode is on; `negative` gets the direct neighbours'
  // signs.
  CF_HD unsigned neighbours(int x, int y, unsigned &negative) {
    return significant_neighbours(&flags(x, y), pitch_, in_.style, y, negative);
  }

  // The sample has just become significant: its sign (D.3.2), then its
  // state.
  CF_HD void code_sign(int x, int y, unsigned m, unsigned negative, int plane) {
    const int s = in_.samples[y * in_.stride + x] < 0 ? 1 : 0;
    const SignContext sc = sign_context(m, negative);
    coder_.code(sc.label, s, sc.xor_bit);
    flags(x, y) |= std::uint8_t(kSignificant | (s ? kNegative : 0));
    distortion_ += distortion_gain(magnitude(x, y), plane, shift_);
  }

  // Significance decision of an insignificant sample, and its sign when it
  // becomes significant.
  CF_HD void code_significance(int x, int y, int plane) {
    unsigned negative;
    const unsigned m = neighbours(x, y, negative);
    const int b = bit(x, y, plane);
    coder_.code(significance_context(in_.orientation, m), b);
    if (b) code_sign(x, y, m, negative, plane);
  }

  // D.3.1: insignificant samples with a significant neighbour.
  CF_HD void significance_pass(int plane) {
    for (int s = 0; s < stripe_count(in_.height); ++s)
      for (int x = 0; x < in_.width; ++x)
        for (int r = 0, y = s * kStripeHeight; r < stripe_rows(s, in_.height); ++r, ++y) {
          if (flags(x, y) & kSignificant) continue;
          unsigned negative;
          if (neighbours(x, y, negative) == 0) continue;
          flags(x, y) |= kCodedNow;
          code_significance(x, y, plane);
        }
  }

  // D.3.3: samples significant since an earlier plane.
  CF_HD void refinement_pass(int plane) {
    for (int s = 0; s < stripe_count(in_.height); ++s)
      for (int x = 0; x < in_.width; ++x)
        for (int r = 0, y = s * kStripeHeight; r < stripe_rows(s, in_.height); ++r, ++y) {
          const std::uint8_t f = flags(x, y);
          if ((f & kSignificant) == 0 || (f & kCodedNow) != 0) continue;
          unsigned negative;
          const unsigned m = neighbours(x, y, negative);
          coder_.code(refinement_context((f & kRefined) != 0, m), bit(x, y, plane));
          flags(x, y) |= kRefined;
          distortion_ += distortion_gain(magnitude(x, y), plane, shift_);
        }
  }

  // Run-length mode applies to a full stripe column whose four samples are
  // all still insignificant, uncoded in this plane and without a significant
  // neighbour (D.3.4).
  CF_HD bool run_column(int x, int y0) {
    for (int r = 0; r < kStripeHeight; ++r) {
      if (flags(x, y0 + r) & (kSignificant | kCodedNow)) return false;
      unsigned negative;
      if (neighbours(x, y0 + r, negative) != 0) return false;
    }
    return true;
  }

  // D.3.4: every sample the plane's earlier passes left uncoded; then the
  // segmentation symbol (D.5) when that mode is on. (A cleanup pass is
  // never raw.)
  CF_HD void cleanup_pass(int plane) {
    for (int s = 0; s < stripe_count(in_.height); ++s) {
      const int y0 = s * kStripeHeight, rows = stripe_rows(s, in_.height);
      for (int x = 0; x < in_.width; ++x) {
        int r = 0;
        if (rows == kStripeHeight && run_column(x, y0)) {
          while (r < kStripeHeight && bit(x, y0 + r, plane) == 0) ++r;
          coder_.code(kRunLengthContext, r < kStripeHeight ? 1 : 0);
          if (r == kStripeHeight) continue;  // the whole column stays insignificant
          // The first significant row, two bits, most significant first.
          coder_.code(kUniformContext, r >> 1);
          coder_.code(kUniformContext, r & 1);
          unsigned negative;
          const unsigned m = neighbours(x, y0 + r, negative);
          code_sign(x, y0 + r, m, negative, plane);
          ++r;
        }
        for (; r < rows; ++r)
          if ((flags(x, y0 + r) & (kSignificant | kCodedNow)) == 0) code_significance(x, y0 + r, plane);
        for (r = 0; r < rows; ++r) flags(x, y0 + r) &= std::uint8_t(~kCodedNow);
      }
    }
    if (in_.style & kStyleSegmentation)
      for (int i = 0; i < 4; ++i) coder_.code(kUniformContext, 1 - (i & 1));  // 1010
  }

  // Every pass from the top plane down: lengths as truncation points,
  // distortion when asked for. Returns the codeword's length.
  CF_HD int code_all(int top_plane, int passes, int *pass_lengths, std::int64_t *pass_distortion) {
    for (int pass = 0; pass < passes; ++pass) {
      const int plane = top_plane - (pass + 2) / 3;
      const int kind = pass_kind(pass);
      distortion_ = 0;
      if (kind == 0) significance_pass(plane);
      if (kind == 1) refinement_pass(plane);
      if (kind == 2) cleanup_pass(plane);
      coder_.end_pass(pass, pass_lengths);
      if (pass_distortion) pass_distortion[pass] = distortion_;
    }
    return coder_.finish(pass_lengths);
  }

 private:
  BlockInput in_;
  std::uint8_t *flags_;
  int pitch_;
  int shift_;                    // distortion measured at magnitudes m >> shift_; -1: not measured
  std::int64_t distortion_ = 0;  // of the pass under way
  MqContext contexts_[kContextCount];
  PassCoder coder_;  // after contexts_, which it is given
};

// The checks of encode_block() before any coding: a status, kOk when the
// block can be coded.
CF_HD BlockStatus check_block(const BlockInput &in) {
  if (!block_size_ok(in.width, in.height) || in.stride < in.width) return BlockStatus::kBadSize;
  if (in.style & ~kStylesSupported) return BlockStatus::kBadStyle;
  if (in.magnitude_bitplanes < 0 || in.magnitude_bitplanes > kMaxBitplanes) return BlockStatus::kTooManyBitplanes;
  return BlockStatus::kOk;
}

// The OR of a block's magnitudes: 0 for an all-zero block, and its planes
// through bitplanes_of().
CF_HD std::uint32_t magnitude_or(const BlockInput &in) {
  std::uint32_t any = 0;
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      const std::int32_t v = in.samples[y * in.stride + x];
      any |= v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v);
    }
  return any;
}

// Bit-planes down from the top non-zero one of the OR of a block's
// magnitudes (0: an all-zero block).
CF_HD int bitplanes_of(std::uint32_t any) { return any ? 32 - leading_zeros(any) : 0; }

// The shift s of a block's pass distortions (units of 4^s, see the top).
CF_HD int distortion_shift(int planes) { return planes > kExactDistortionPlanes ? planes - kExactDistortionPlanes : 0; }

// The planes of a block that rate control has tier-1 code: `count` planes
// from `top` down (top clamped to the block's own top plane), or, with
// count 0, every plane from the block's top one down to 0. HT codes a
// cleanup pass at each of them (candidates); Part 1 codes its passes from
// its top plane down to the window's lowest one, since an MQ codeword
// cannot start below the top.
struct PlaneWindow {
  std::uint8_t top = 0, count = 0;
};
CF_HD int first_window_plane(int planes, PlaneWindow w) {
  return w.count == 0 || w.top >= planes ? planes - 1 : int(w.top);
}
CF_HD int window_planes(int planes, PlaneWindow w) {
  const int first = first_window_plane(planes, w);
  return w.count == 0 || w.count > first + 1 ? first + 1 : int(w.count);
}

// The result of coding a block of `planes` bit-planes (from its top non-zero
// one) down to `window`'s lowest plane, before its bytes are known.
CF_HD BlockResult planned_result(int planes, int magnitude_bitplanes, PlaneWindow window = {}) {
  const int lowest = planes > 0 ? first_window_plane(planes, window) + 1 - window_planes(planes, window) : 0;
  return {BlockStatus::kOk, max_pass_count(planes - lowest), 0, magnitude_bitplanes - planes, distortion_shift(planes)};
}

// Codes one code-block, from its top plane down to `window`'s lowest one.
// An all-zero block gives 0 passes, 0 bytes and P = Mb (tier-2 leaves it
// out of every packet). `table`: Table C.2's transitions as an array
// (MqEncoder::use_table), which device code must give.
CF_HD BlockResult encode_block(const BlockInput &in, const BlockOutput &out, const std::uint32_t *table = nullptr,
                               PlaneWindow window = {}) {
  BlockResult res{check_block(in), 0, 0, in.magnitude_bitplanes, 0};
  if (res.status != BlockStatus::kOk) return res;
  const std::uint32_t any = magnitude_or(in);
  if (any == 0) return res;
  const int planes = bitplanes_of(any);
  if (planes > in.magnitude_bitplanes) return res.status = BlockStatus::kTooManyBitplanes, res;
  const BlockResult plan = planned_result(planes, in.magnitude_bitplanes, window);
  if (out.pass_capacity < plan.passes) return res.status = BlockStatus::kPassArrayTooSmall, res;
  res = plan;
  BlockEncoder enc(in, out.work, res.passes, out.bytes, out.capacity, out.pass_distortion ? res.distortion_shift : -1);
  enc.use_table(table);
  res.bytes = enc.code_all(planes - 1, res.passes, out.pass_lengths, out.pass_distortion);
  if (res.bytes > out.capacity) res.status = BlockStatus::kOverflow;
  return res;
}

}  // namespace cf::j2k::t1
