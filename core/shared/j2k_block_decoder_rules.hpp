// The code-block decoder of JPEG 2000 tier-1 coding (EBCOT bit-plane
// decoding, ITU-T T.800 | ISO/IEC 15444-1, Annex D), written once for every
// backend (CF_HD: host_device.hpp): the inverse of BlockEncoder
// (j2k_block_coder_rules.hpp), from whose shared definitions it takes the
// contexts, the style bits and the rules of which passes are raw and which
// end a codeword segment; its state is one word per stripe column (below).
//
// A block's passes run from its top bit-plane, Mb - P - 1 (Mb: the
// subband's magnitude bit-planes, T.800 E-2; P: the zero bit-planes the
// packet headers give), down: a cleanup pass on the top plane, then per
// plane a significance propagation, a magnitude refinement and a cleanup
// pass (D.3), as many as the packet headers included. Every style switch of
// Table A.19: bypass (raw passes read bit by bit, a byte after 0xFF holding
// 7 bits, D.6), reset, restart (each pass its own segment), vertically
// causal contexts, predictable termination (decoded like any other; not
// checked) and segmentation symbols (1010 read after each cleanup pass; any
// other value gives kCorrupt, the samples decoded all the same).
//
// The codeword arrives as its segments back to back, one length each
// (segment_count() of them, in the grouping pass_ends_segment() gives for
// the passes included; tier-2 sums the pieces of a segment that several
// layers carry). Each segment starts the MQ decoder afresh (INITDEC), the
// contexts kept; past a segment's end both decoders read 0xFF bytes, so a
// segment cut at a truncation point decodes its passes.
//
// Output: the signed sample values. A sample's magnitude holds each decoded
// bit at its plane. Reconstruction (T.800 E.1.1.2) with r = 1/2: a non-zero
// magnitude whose lowest decoded plane is p > 0 gets 2^(p - 1) added, the
// middle of the interval its bits leave open; one decoded down to plane 0 is
// exact (so all passes of a reversible block give its coefficients back).
// The lowest decoded plane of a significant sample is the last pass's plane,
// except after a significance propagation pass for the samples it did not
// code (significant before it), which stop one plane higher.
//
// Every input is checked before use (sizes, style, Mb up to 30, P, passes
// against the planes, segment lengths against the data); a refusal leaves
// the output untouched. Nothing is read outside the data or written outside
// the block and the work area, whatever the bytes say. Nothing allocates.
//
// The kContextCount context states are the caller's (DecodeContexts), as
// PassCoder's are the encoder's: the CUDA backend keeps them in shared
// memory (an array inside the decoder, indexed at run time, would put the
// whole decoder in a GPU thread's local memory); decode_block() without
// them keeps them in an array of its own.
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"
#include "core/shared/j2k_block_coder_rules.hpp"
#include "core/shared/j2k_mq_rules.hpp"
#include "core/shared/j2k_tier1_rules.hpp"

namespace cf::j2k::t1 {

// Magnitude bit-planes the decoder takes (Mb): the magnitudes and the
// reconstruction's half plane then fit an int32.
constexpr int kMaxDecodeBitplanes = 30;

// The number of codeword segments of a block of `passes` coding passes.
CF_HD constexpr int segment_count(unsigned style, int passes) {
  int n = 0;
  for (int p = 0; p < passes; ++p) n += pass_ends_segment(style, p, passes) ? 1 : 0;
  return n;
}

struct DecodeInput {
  const std::uint8_t *data;    // the codeword: every segment, back to back
  int length;                  // bytes at `data`
  const int *segment_lengths;  // each codeword segment's length, in order
  int segments;                // entries of segment_lengths: segment_count(style, passes)
  int width, height;
  Orientation orientation;
  unsigned style;           // kStyle* bits
  int magnitude_bitplanes;  // Mb of the subband (T.800 E-2), 0..kMaxDecodeBitplanes
  int zero_bitplanes;       // P, from the packet headers, 0..Mb
  int passes;               // coding passes included, 0..max_pass_count(Mb - P)
  // 0 or 1: the samples come out times 2^fraction_bits, the half plane
  // added down to plane 0 as well with 1 (an irreversible index q then
  // becomes 2q + 1, the middle of its quantisation interval, for a step
  // of half the subband's).
  int fraction_bits = 0;
};

struct DecodeOutput {
  std::int32_t *samples;  // row y starts at samples + y * stride
  int stride;
  std::uint8_t *work;  // block_work_bytes(width, height) bytes, 2-byte aligned
};

// Where the decoder keeps the context states (kContextCount of them) and
// reads Table C.2's transitions (MqDecoder::use_table) and Tables D.1 and
// D.3 by neighbourhood (ContextLabels) from: device code gives both tables
// (copies in shared memory); host code may leave them out (nullptr: the
// arrays made at compile time).
struct DecodeContexts {
  MqContext *states;
  const std::uint32_t *table = nullptr;
  const ContextLabels *labels = nullptr;
};

// Raw decoding of the bypass mode (T.800 D.6): bits straight from bytes, the
// most significant first; the byte after a 0xFF holds 7 bits (its top bit
// is the encoder's stuffed 0); past the end, 0xFF bytes.
class RawDecoder {
 public:
  CF_HD void init(const std::uint8_t *data, int length) {
    data_ = data;
    len_ = length;
    pos_ = 0;
    left_ = 0;
    cur_ = 0;
  }

  CF_HD int bit() {
    if (left_ == 0) {
      left_ = cur_ == 0xFF ? 7 : 8;
      cur_ = pos_ < len_ ? data_[pos_] : 0xFFu;
      ++pos_;
    }
    return int(cur_ >> --left_) & 1;
  }

 private:
  const std::uint8_t *data_ = nullptr;
  int len_ = 0, pos_ = 0, left_ = 0;
  std::uint32_t cur_ = 0;  // the byte being read (0 before the first)
};

// The decoder's state: one 16-bit word per stripe column (the k*Shift bits
// of j2k_tier1_rules.hpp, four rows each), with a column on each side that
// stays insignificant (neighbours outside the code-block), in the caller's
// work area: stripe s, column x at (x + 1) + s * (width + 2). It fits the
// encoder's block_work_bytes(width, height), which callers allocate for
// both. A column's neighbours come from three words, and whole columns
// with nothing to code in a pass are passed over at once.
CF_HD constexpr int decode_work_words(int width, int height) { return (width + 2) * stripe_count(height); }
// The most words any block block_size_ok() takes needs (the tallest block
// of each width holds the most): room a caller can reserve once.
CF_HD constexpr int max_decode_work_words() {
  int most = 0;
  for (int w = 1; w <= kMaxBlockSide; ++w) {
    const int h = kMaxBlockArea / w < kMaxBlockSide ? kMaxBlockArea / w : kMaxBlockSide;
    const int n = decode_work_words(w, h);
    most = n > most ? n : most;
  }
  return most;
}
constexpr int kMaxDecodeWorkWords = max_decode_work_words();
static_assert(2 * decode_work_words(1, 1) <= block_work_bytes(1, 1) &&
                  2 * decode_work_words(4, 5) <= block_work_bytes(4, 5) &&
                  2 * decode_work_words(64, 64) <= block_work_bytes(64, 64),
              "the decoder's words fit the work area");

// The context modelling of one block in the stripe scan, reading the
// decisions from the MQ or raw decoder; decode_block() below is the entry.
class BlockDecoder {
 public:
  // The input is checked (check_decode); the output's block is cleared.
  CF_HD BlockDecoder(const DecodeInput &in, const DecodeOutput &out, const DecodeContexts &contexts)
      : in_(in),
        out_(out),
        words_(reinterpret_cast<std::uint16_t *>(out.work)),
        pitch_(in.width + 2),
        stripes_(stripe_count(in.height)),
        causal_((in.style & kStyleVerticalCausal) != 0),
        contexts_(contexts.states),
        labels_(context_labels(contexts.labels)),
        significance_(labels_->significance[int(in.orientation)]) {
    for (int i = 0; i < decode_work_words(in.width, in.height); ++i) words_[i] = 0;
    for (int y = 0; y < in.height; ++y)
      for (int x = 0; x < in.width; ++x) sample(x, y) = 0;
    reset_contexts(contexts_);
    mq_.use_table(contexts.table);
  }
  BlockDecoder(const BlockDecoder &) = delete;  // it points at the caller's contexts
  BlockDecoder &operator=(const BlockDecoder &) = delete;

  CF_HD std::int32_t &sample(int x, int y) { return out_.samples[y * out_.stride + x]; }
  CF_HD std::uint16_t &word(int s, int x) { return words_[s * pitch_ + x + 1]; }

  // A stripe's words as the passes scan them: its own row of them, and
  // the rows of the stripes above and below, each pointing at column 0 (so
  // -1 and width are the border columns). At the block's top and bottom
  // the missing row points at the stripe's own and its bit is masked out:
  // the scan then reads the same three rows at every column, unconditionally.
  struct Stripe {
    std::uint16_t *own;
    const std::uint16_t *up, *down;
    unsigned up_bit, down_bit;  // 1 and 0x20, or 0 where the row is missing
    int rows;
  };
  CF_HD Stripe stripe(int s) {
    std::uint16_t *own = &word(s, 0);
    const bool above = s > 0, below = s + 1 < stripes_;
    return {own,
            above ? own - pitch_ : own,
            below ? own + pitch_ : own,
            above ? 1u : 0u,
            below ? 0x20u : 0u,
            stripe_rows(s, in_.height)};
  }

  // Column x's significance with the row above and the row below, in
  // ColumnBits::sig's layout (its signs are read only where a sign is
  // decoded: decode_sign).
  static CF_HD unsigned column_sig(const Stripe &st, int x) {
    return ((st.own[x] >> kSigShift) & 15u) << 1 | ((st.up[x] >> (kSigShift + 3)) & st.up_bit) |
           ((unsigned(st.down[x]) >> kSigShift << 5) & st.down_bit);
  }
  // The same for the signs, column x's own word being `w`.
  static CF_HD unsigned column_neg(const Stripe &st, int x, unsigned w) {
    return ((w >> kNegShift) & 15u) << 1 | ((st.up[x] >> (kNegShift + 3)) & st.up_bit) |
           ((unsigned(st.down[x]) >> kNegShift << 5) & st.down_bit);
  }

  // Tables D.1 and D.3 by neighbourhood: the caller's copy (device code
  // always gives one, as for Table C.2's transitions: mq_row), or on the
  // host the tables made at compile time.
  static CF_HD const ContextLabels *context_labels(const ContextLabels *labels) {
#ifdef __CUDA_ARCH__
    return labels;
#else
    return labels ? labels : &kContextLabels;
#endif
  }

  // Row r's neighbourhood() index from the significance of its column and
  // the columns left and right (column_sig's layout).
  CF_HD unsigned neighbourhood_of(unsigned left, unsigned own, unsigned right, int r) const {
    return neighbourhood(ColumnBits{left, 0}, ColumnBits{own, 0}, ColumnBits{right, 0}, r, causal_);
  }

  // Table D.1's label of a neighbourhood() index.
  CF_HD int significance_label_of(unsigned n) const { return significance_[n]; }

  // A decision in context `label`: raw in a bypass pass.
  CF_HD int decide(int label) { return raw_now_ ? raw_.bit() : mq_.decode(contexts_[label]); }

  // Row r of column x has just become significant at `plane`: its sign
  // (D.3.2; raw without the prediction), then its state bits (in `w`, the
  // column's word, and `own`, its significance) and its sample.
  CF_HD void decode_sign(const Stripe &st, int s, int x, int r, unsigned left, unsigned &own, unsigned right,
                         unsigned &w, int plane) {
    const ColumnBits l{left, unsigned(st.own[x - 1] >> kNegShift << 1)}, o{own, column_neg(st, x, w)},
        rt{right, unsigned(st.own[x + 1] >> kNegShift << 1)};
    const unsigned entry = labels_->sign[sign_neighbourhood(l, o, rt, r, causal_)];
    const unsigned neg = raw_now_ ? unsigned(raw_.bit()) : unsigned(mq_.decode(contexts_[entry >> 1])) ^ (entry & 1u);
    w |= (1u << (kSigShift + r)) | (neg << (kNegShift + r));
    own |= 2u << r;
    sample(x, s * kStripeHeight + r) = std::int32_t(1) << plane;
  }

  // The significance decision of an insignificant sample with neighbourhood
  // index n, and its sign when it becomes significant.
  CF_HD void decode_significance(const Stripe &st, int s, int x, int r, unsigned n, unsigned left, unsigned &own,
                                 unsigned right, unsigned &w, int plane) {
    if (decide(significance_label_of(n))) decode_sign(st, s, x, r, left, own, right, w, plane);
  }

  // D.3.1: insignificant samples with a significant neighbour. A column
  // none of whose samples has one is passed over: none of them can become
  // significant in this pass.
  CF_HD void significance_pass(int plane) {
    for (int s = 0; s < stripes_; ++s) {
      const Stripe st = stripe(s);
      const unsigned full = (1u << st.rows) - 1;
      unsigned left = 0, own = column_sig(st, 0);
      for (int x = 0; x < in_.width; ++x) {
        const unsigned right = column_sig(st, x + 1);
        unsigned w = st.own[x];
        const unsigned open = ~(w >> kSigShift) & full;  // a sample becoming significant changes only its own bit
        if (open != 0 && (left | own | right) != 0) {
          for (unsigned rows = open; rows != 0; rows &= rows - 1) {
            const int r = trailing_zeros(rows);
            const unsigned n = neighbourhood_of(left, own, right, r);
            if (n == 0) continue;
            w |= 1u << (kCodedShift + r);
            decode_significance(st, s, x, r, n, left, own, right, w, plane);
          }
          st.own[x] = std::uint16_t(w);
        }
        left = own;
        own = right;
      }
    }
  }

  // D.3.3: samples significant since an earlier plane. Significance does
  // not change in this pass, so a sample's neighbours are read only for
  // its first refinement.
  CF_HD void refinement_pass(int plane) {
    for (int s = 0; s < stripes_; ++s) {
      const Stripe st = stripe(s);
      for (int x = 0; x < in_.width; ++x) {
        const unsigned w = st.own[x];
        const unsigned todo = (w >> kSigShift) & ~(w >> kCodedShift) & 15u;
        if (todo == 0) continue;
        const unsigned first = todo & ~(w >> kRefinedShift);
        const unsigned left = first ? column_sig(st, x - 1) : 0u, own = first ? column_sig(st, x) : 0u,
                       right = first ? column_sig(st, x + 1) : 0u;
        for (unsigned rows = todo; rows != 0; rows &= rows - 1) {
          const int r = trailing_zeros(rows);
          const bool refined = ((first >> r) & 1u) == 0;
          const bool neighboured = !refined && neighbourhood_of(left, own, right, r) != 0;
          // The sample is read before the decision so that its load waits
          // beside the decoding, not after it.
          std::int32_t &v = sample(x, s * kStripeHeight + r);
          const std::int32_t before = v;
          v = before | std::int32_t(decide(refinement_label(refined, neighboured))) << plane;
        }
        st.own[x] = std::uint16_t(w | (todo << kRefinedShift));
      }
    }
  }

  // D.3.4: every sample the plane's earlier passes left, a full stripe
  // column of them with no significant neighbour in run-length mode; then
  // the segmentation symbol (D.5) with that style. A cleanup pass is never
  // raw.
  CF_HD void cleanup_pass(int plane) {
    // The neighbours a run looks at: the row below only when not causal.
    const unsigned seen = causal_ ? 0x1Fu : 0x3Fu;
    for (int s = 0; s < stripes_; ++s) {
      const Stripe st = stripe(s);
      unsigned left = 0, own = column_sig(st, 0);
      for (int x = 0; x < in_.width; ++x) {
        const unsigned right = column_sig(st, x + 1);
        unsigned w = st.own[x];
        unsigned rows = ~(w >> kSigShift | w >> kCodedShift) & ((1u << st.rows) - 1);  // those left to code
        if (st.rows == kStripeHeight && (w & ((15u << kSigShift) | (15u << kCodedShift))) == 0 &&
            ((left | own | right) & seen) == 0) {
          if (!decide(kRunLengthContext)) {  // the whole column stays insignificant
            left = own;
            own = right;
            continue;
          }
          // The first significant row, two bits, most significant first.
          int r = decide(kUniformContext) << 1;
          r |= decide(kUniformContext);
          decode_sign(st, s, x, r, left, own, right, w, plane);
          rows &= ~0u << (r + 1);
        }
        for (; rows != 0; rows &= rows - 1) {
          const int r = trailing_zeros(rows);
          decode_significance(st, s, x, r, neighbourhood_of(left, own, right, r), left, own, right, w, plane);
        }
        st.own[x] = std::uint16_t(w & ~(15u << kCodedShift));
        left = own;
        own = right;
      }
    }
    if (in_.style & kStyleSegmentation) {
      int v = 0;
      for (int i = 0; i < 4; ++i) v = v << 1 | decide(kUniformContext);
      if (v != 0xA) corrupt_ = true;
    }
  }

  // A codeword segment starts at byte `start` with `length` bytes: the MQ
  // decoder afresh with the contexts as they are, or raw.
  CF_HD void begin_segment(bool raw, int start, int length) {
    raw_now_ = raw;
    if (raw)
      raw_.init(in_.data + start, length);
    else
      mq_.init(in_.data + start, length);
  }

  // The passes from the top plane down, segment by segment; then the signs
  // and the reconstruction (see the top). Returns kOk or kCorrupt.
  CF_HD BlockStatus decode_all() {
    const int top = in_.magnitude_bitplanes - in_.zero_bitplanes - 1;
    int start = 0, segment = 0;
    for (int pass = 0; pass < in_.passes; ++pass) {
      if (pass == 0 || pass_ends_segment(in_.style, pass - 1, in_.passes)) {
        const int length = in_.segment_lengths[segment++];
        begin_segment(pass_is_raw(in_.style, pass), start, length);
        start += length;
      }
      const int plane = top - (pass + 2) / 3;
      const int kind = pass_kind(pass);
      if (kind == 0) significance_pass(plane);
      if (kind == 1) refinement_pass(plane);
      if (kind == 2) cleanup_pass(plane);
      if (in_.style & kStyleReset) reset_contexts(contexts_);
    }
    if (in_.passes > 0) reconstruct(top - (in_.passes + 1) / 3, pass_kind(in_.passes - 1) == 0);
    return corrupt_ ? BlockStatus::kCorrupt : BlockStatus::kOk;
  }

  // Signs and half planes, the last pass having been on `plane` (a
  // significance propagation pass when `after_significance`).
  CF_HD void reconstruct(int plane, bool after_significance) {
    for (int s = 0; s < stripes_; ++s)
      for (int x = 0; x < in_.width; ++x) {
        const unsigned w = word(s, x);
        if ((w & (15u << kSigShift)) == 0) continue;
        for (int r = 0, rows = stripe_rows(s, in_.height); r < rows; ++r) {
          if (((w >> (kSigShift + r)) & 1u) == 0) continue;
          const bool coded = ((w >> (kCodedShift + r)) & 1u) != 0;
          const int lowest = (after_significance && !coded ? plane + 1 : plane) + in_.fraction_bits;
          std::int32_t &v = sample(x, s * kStripeHeight + r);
          v <<= in_.fraction_bits;
          if (lowest > 0) v += std::int32_t(1) << (lowest - 1);
          if ((w >> (kNegShift + r)) & 1u) v = -v;
        }
      }
  }

 private:
  DecodeInput in_;
  DecodeOutput out_;
  std::uint16_t *words_;
  int pitch_, stripes_;
  bool causal_;
  bool raw_now_ = false;
  bool corrupt_ = false;
  MqContext *contexts_;
  const ContextLabels *labels_;
  const std::uint8_t *significance_;  // the orientation's row of labels_->significance
  MqDecoder mq_;
  RawDecoder raw_;
};

// The checks of decode_block() before any decoding: a status, kOk when the
// block can be decoded.
CF_HD BlockStatus check_decode(const DecodeInput &in, const DecodeOutput &out) {
  if (!block_size_ok(in.width, in.height) || out.stride < in.width || !out.samples || !out.work)
    return BlockStatus::kBadSize;
  if (in.style & ~kStylesSupported) return BlockStatus::kBadStyle;
  if (in.magnitude_bitplanes < 0 || in.magnitude_bitplanes > kMaxDecodeBitplanes) return BlockStatus::kTooManyBitplanes;
  if (in.fraction_bits != 0 && in.fraction_bits != 1) return BlockStatus::kBadSize;
  if (in.zero_bitplanes < 0 || in.zero_bitplanes > in.magnitude_bitplanes) return BlockStatus::kBadZeroBitplanes;
  if (in.passes < 0 || in.passes > max_pass_count(in.magnitude_bitplanes - in.zero_bitplanes))
    return BlockStatus::kBadPasses;
  if (in.length < 0 || (in.length > 0 && !in.data)) return BlockStatus::kBadSegments;
  if (in.segments != segment_count(in.style, in.passes) || (in.segments > 0 && !in.segment_lengths))
    return BlockStatus::kBadSegments;
  int left = in.length;
  for (int s = 0; s < in.segments; ++s) {
    if (in.segment_lengths[s] < 0 || in.segment_lengths[s] > left) return BlockStatus::kBadSegments;
    left -= in.segment_lengths[s];
  }
  return BlockStatus::kOk;
}

// Decodes one code-block into out.samples (width x height of them): kOk,
// kCorrupt (decoded, a segmentation symbol wrong), or the refusal of
// check_decode with the output untouched. No passes: every sample 0.
CF_HD BlockStatus decode_block(const DecodeInput &in, const DecodeOutput &out, const DecodeContexts &contexts) {
  const BlockStatus status = check_decode(in, out);
  if (status != BlockStatus::kOk) return status;
  if (!contexts.states) return BlockStatus::kBadSize;
#ifdef __CUDA_ARCH__
  if (!contexts.table || !contexts.labels) return BlockStatus::kBadSize;
#endif
  BlockDecoder dec(in, out, contexts);
  return dec.decode_all();
}

// The same with the context states in an array of its own (host code).
CF_HD BlockStatus decode_block(const DecodeInput &in, const DecodeOutput &out) {
  MqContext states[kContextCount];
  return decode_block(in, out, DecodeContexts{states});
}

}  // namespace cf::j2k::t1
