// The code-block encoder of JPEG 2000 tier-1 coding (EBCOT bit-plane coding,
// ITU-T T.800 | ISO/IEC 15444-1, Annex D), written once for every backend
// (CF_HD: host_device.hpp): the serial reference, OpenMP (one code-block per
// thread) and CUDA (one code-block per thread or warp) call the same
// encode_block().
//
// A code-block's quantised coefficients (sign and magnitude in an int32) are
// coded bit-plane by bit-plane from the most significant non-zero one: a
// cleanup pass on that plane, then per lower plane the significance
// propagation, magnitude refinement and cleanup passes (D.3), in the stripe
// scan of j2k_tier1_rules.hpp, with the contexts formed there, into one MQ
// codeword (j2k_mq_rules.hpp) terminated once at the end.
//
// Code-block style switches (COD's SPcod, T.800 Table A.19): the default,
// the vertically causal contexts (0x08) and the reset of the context states
// after each pass (0x02). Not yet: arithmetic coding bypass (0x01),
// termination on each pass (0x04), predictable termination (0x10) and
// segmentation symbols (0x20); encode_block() refuses them.
//
// Nothing here allocates: the caller passes a work area of
// block_work_bytes(w, h) bytes, the output buffer and an array of
// max_pass_count(Mb) pass lengths.
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

// The style bits encode_block() knows, as COD writes them.
constexpr unsigned kStyleReset = 0x02;           // context states reset after each pass
constexpr unsigned kStyleVerticalCausal = 0x08;  // vertically causal contexts
constexpr unsigned kStylesSupported = kStyleReset | kStyleVerticalCausal;

// Magnitudes are those of an int32 (up to 2^31), so at most 32 bit-planes.
constexpr int kMaxBitplanes = 32;

// The work area: one byte of state per sample, with a border of one sample
// all round that stays insignificant (neighbours outside the code-block).
CF_HD constexpr int block_work_bytes(int width, int height) { return (width + 2) * (height + 2); }

// Passes of a block with Mb magnitude bit-planes, at most: a cleanup pass on
// the top plane, three on each plane below it.
CF_HD constexpr int max_pass_count(int magnitude_bitplanes) {
  return magnitude_bitplanes > 0 ? 3 * magnitude_bitplanes - 2 : 0;
}

enum class BlockStatus {
  kOk,
  kBadSize,           // a side below 1 or above 1024, or the area above 4096
  kBadStyle,          // a style switch not supported here
  kTooManyBitplanes,  // a magnitude needs more bit-planes than Mb (or Mb outside 0..32)
  kPassArrayTooSmall,
  kOverflow,  // the codeword is longer than the output capacity
};

struct BlockInput {
  const std::int32_t *samples;  // row y starts at samples + y * stride
  int width, height, stride;
  Orientation orientation;
  int magnitude_bitplanes;  // Mb of the subband (T.800 E.1.1.2)
  unsigned style;           // kStyle* bits
};

struct BlockOutput {
  std::uint8_t *work;   // block_work_bytes(width, height) bytes
  std::uint8_t *bytes;  // the codeword
  int capacity;         // bytes writable at `bytes`
  int *pass_lengths;    // cumulative length after each pass: truncation points
  int pass_capacity;    // entries of pass_lengths; max_pass_count(Mb) suffices
};

struct BlockResult {
  BlockStatus status;
  int passes;          // coding passes
  int bytes;           // codeword length (the length it needs, on kOverflow)
  int zero_bitplanes;  // P: Mb minus the planes down from the top non-zero one
};

// The encoder's state for one block; encode_block() below is the entry.
class BlockEncoder {
 public:
  // Per-sample state bits in the work area.
  static constexpr std::uint8_t kSignificant = 1;
  static constexpr std::uint8_t kNegative = 2;
  static constexpr std::uint8_t kRefined = 4;   // refined at least once
  static constexpr std::uint8_t kCodedNow = 8;  // coded by this plane's significance propagation pass

  CF_HD BlockEncoder(const BlockInput &in, std::uint8_t *work, std::uint8_t *out, int capacity)
      : in_(in), flags_(work), pitch_(in.width + 2) {
    for (int i = 0; i < block_work_bytes(in.width, in.height); ++i) flags_[i] = 0;
    reset_contexts();
    mq_.init(out, capacity);
  }

  CF_HD void reset_contexts() {
    for (int c = 0; c < kContextCount; ++c) {
      ctx_[c].index = std::uint8_t(initial_state(c));  // a function: device code has no host table
      ctx_[c].mps = kInitialMps;
    }
  }

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
    const std::uint8_t *f = &flags(x, y);
    const int p = pitch_;
    unsigned m = sig(f[-1], kW) | sig(f[1], kE) | sig(f[-p], kN) | sig(f[p], kS) | sig(f[-p - 1], kNW) |
                 sig(f[-p + 1], kNE) | sig(f[p - 1], kSW) | sig(f[p + 1], kSE);
    if (in_.style & kStyleVerticalCausal) m = vertically_causal(m, y);
    negative = neg(f[-1], kW) | neg(f[1], kE) | neg(f[-p], kN) | neg(f[p], kS);
    return m;
  }

  // The sample has just become significant: its sign (D.3.2), then its state.
  CF_HD void code_sign(int x, int y, unsigned m, unsigned negative) {
    const int s = in_.samples[y * in_.stride + x] < 0 ? 1 : 0;
    const SignContext sc = sign_context(m, negative);
    mq_.encode(ctx_[sc.label], s ^ sc.xor_bit);
    flags(x, y) |= std::uint8_t(kSignificant | (s ? kNegative : 0));
  }

  // Significance decision of an insignificant sample, and its sign when it
  // becomes significant.
  CF_HD void code_significance(int x, int y, int plane) {
    unsigned negative;
    const unsigned m = neighbours(x, y, negative);
    const int b = bit(x, y, plane);
    mq_.encode(ctx_[significance_context(in_.orientation, m)], b);
    if (b) code_sign(x, y, m, negative);
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
          mq_.encode(ctx_[refinement_context((f & kRefined) != 0, m)], bit(x, y, plane));
          flags(x, y) |= kRefined;
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

  // D.3.4: every sample the plane's earlier passes left uncoded.
  CF_HD void cleanup_pass(int plane) {
    for (int s = 0; s < stripe_count(in_.height); ++s) {
      const int y0 = s * kStripeHeight, rows = stripe_rows(s, in_.height);
      for (int x = 0; x < in_.width; ++x) {
        int r = 0;
        if (rows == kStripeHeight && run_column(x, y0)) {
          while (r < kStripeHeight && bit(x, y0 + r, plane) == 0) ++r;
          mq_.encode(ctx_[kRunLengthContext], r < kStripeHeight ? 1 : 0);
          if (r == kStripeHeight) continue;  // the whole column stays insignificant
          // The first significant row, two bits, most significant first.
          mq_.encode(ctx_[kUniformContext], r >> 1);
          mq_.encode(ctx_[kUniformContext], r & 1);
          unsigned negative;
          const unsigned m = neighbours(x, y0 + r, negative);
          code_sign(x, y0 + r, m, negative);
          ++r;
        }
        for (; r < rows; ++r)
          if ((flags(x, y0 + r) & (kSignificant | kCodedNow)) == 0) code_significance(x, y0 + r, plane);
        for (r = 0; r < rows; ++r) flags(x, y0 + r) &= std::uint8_t(~kCodedNow);
      }
    }
  }

  // Every pass from the top plane down; lengths as truncation points.
  CF_HD int code_all(int top_plane, int *pass_lengths) {
    int pass = 0;
    for (int plane = top_plane; plane >= 0; --plane)
      for (int kind = plane == top_plane ? 2 : 0; kind < 3; ++kind) {
        if (kind == 0) significance_pass(plane);
        if (kind == 1) refinement_pass(plane);
        if (kind == 2) cleanup_pass(plane);
        pass_lengths[pass++] = mq_.truncation_length();
        if (in_.style & kStyleReset) reset_contexts();
      }
    mq_.flush();
    // The last pass ends the codeword. A point is never past a later one:
    // bytes enough to decode more passes are enough for fewer.
    pass_lengths[pass - 1] = mq_.bytes();
    for (int i = pass - 2; i >= 0; --i)
      if (pass_lengths[i] > pass_lengths[i + 1]) pass_lengths[i] = pass_lengths[i + 1];
    return pass;
  }

  CF_HD const MqEncoder &mq() const { return mq_; }

 private:
  static CF_HD unsigned sig(std::uint8_t v, unsigned b) { return (v & kSignificant) ? b : 0u; }
  static CF_HD unsigned neg(std::uint8_t v, unsigned b) { return (v & kNegative) ? b : 0u; }

  BlockInput in_;
  std::uint8_t *flags_;
  int pitch_;
  MqEncoder mq_;
  MqContext ctx_[kContextCount];
};

// Codes one code-block. An all-zero block gives 0 passes, 0 bytes and
// P = Mb (tier-2 leaves it out of every packet).
CF_HD BlockResult encode_block(const BlockInput &in, const BlockOutput &out) {
  BlockResult res{BlockStatus::kOk, 0, 0, in.magnitude_bitplanes};
  if (in.width < 1 || in.height < 1 || in.width > kMaxBlockSide || in.height > kMaxBlockSide ||
      in.width * in.height > kMaxBlockArea || in.stride < in.width)
    return res.status = BlockStatus::kBadSize, res;
  if (in.style & ~kStylesSupported) return res.status = BlockStatus::kBadStyle, res;
  if (in.magnitude_bitplanes < 0 || in.magnitude_bitplanes > kMaxBitplanes)
    return res.status = BlockStatus::kTooManyBitplanes, res;
  std::uint32_t any = 0;
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      const std::int32_t v = in.samples[y * in.stride + x];
      any |= v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v);
    }
  if (any == 0) return res;
  int planes = 0;  // down from the top non-zero plane
  while (planes < 32 && (any >> planes) != 0) ++planes;
  if (planes > in.magnitude_bitplanes) return res.status = BlockStatus::kTooManyBitplanes, res;
  res.zero_bitplanes = in.magnitude_bitplanes - planes;
  if (out.pass_capacity < 3 * planes - 2) return res.status = BlockStatus::kPassArrayTooSmall, res;
  BlockEncoder enc(in, out.work, out.bytes, out.capacity);
  res.passes = enc.code_all(planes - 1, out.pass_lengths);
  res.bytes = enc.mq().bytes();
  if (enc.mq().overflow()) res.status = BlockStatus::kOverflow;
  return res;
}

}  // namespace cf::j2k::t1
