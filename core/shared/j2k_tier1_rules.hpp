// Context formation of JPEG 2000 tier-1 coding (EBCOT bit-plane coding,
// ITU-T T.800 | ISO/IEC 15444-1, Annex D): which MQ-coder context codes each
// decision, written once for the serial, OpenMP and CUDA coders. Everything
// is arithmetic on small integers and selects, no tables in memory, so that a
// GPU thread forms one sample's context without branching or loads.
//
// A sample's eight neighbours are given as a mask (the k* bits below): set
// for a neighbour that is significant now. Neighbours outside the code-block
// are insignificant (code-blocks are coded independently). The signs of the
// four direct neighbours come as a second mask with the same bits, set for a
// negative sample; the sign of an insignificant neighbour is not looked at.
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"

namespace cf::j2k::t1 {

// Context labels as T.800 numbers them.
constexpr int kFirstSignificanceContext = 0;  // 0-8, Table D.1 (0: no significant neighbour)
constexpr int kFirstSignContext = 9;          // 9-13, Table D.3
constexpr int kRefineFirstIsolated = 14;      // Table D.4: first refinement, no significant neighbour
constexpr int kRefineFirstNeighboured = 15;   // first refinement, a significant neighbour
constexpr int kRefineLater = 16;              // refined in an earlier bit-plane
constexpr int kRunLengthContext = 17;         // cleanup pass: a whole stripe column stays insignificant
constexpr int kUniformContext = 18;           // cleanup pass: the position after a run, and segmentation symbols
constexpr int kContextCount = 19;

// Which significance table of Table D.1 a code-block uses. T.800's HL is the
// horizontally high-pass band, LH the vertically high-pass one.
enum class Orientation { LL, HL, LH, HH };

// Neighbour bits: W/E are the horizontal neighbours, N/S the vertical ones.
constexpr unsigned kW = 1u << 0, kE = 1u << 1, kN = 1u << 2, kS = 1u << 3;
constexpr unsigned kNW = 1u << 4, kNE = 1u << 5, kSW = 1u << 6, kSE = 1u << 7;
constexpr unsigned kBelow = kS | kSW | kSE;

CF_HD constexpr int bit_(unsigned m, unsigned b) { return (m & b) ? 1 : 0; }
CF_HD constexpr int horizontal_count(unsigned m) { return bit_(m, kW) + bit_(m, kE); }
CF_HD constexpr int vertical_count(unsigned m) { return bit_(m, kN) + bit_(m, kS); }
CF_HD constexpr int diagonal_count(unsigned m) { return bit_(m, kNW) + bit_(m, kNE) + bit_(m, kSW) + bit_(m, kSE); }

// Stripes: every pass scans the code-block in stripes of four rows, stripe by
// stripe from the top; within a stripe column by column from the left, and
// within a column its (up to four) rows from the top. The last stripe holds
// the rows that are left (height % 4 of them, when that is not 0).
constexpr int kStripeHeight = 4;
CF_HD constexpr int stripe_count(int height) { return (height + kStripeHeight - 1) / kStripeHeight; }
CF_HD constexpr int stripe_rows(int stripe, int height) {
  const int left = height - stripe * kStripeHeight;
  return left < kStripeHeight ? left : kStripeHeight;
}
struct Position {
  int x, y;
};
// The sample visited index-th (0 <= index < width * height) in scan order.
CF_HD constexpr Position scan_position(int index, int width, int height) {
  const int stripe = index / (kStripeHeight * width);  // every earlier stripe is full
  const int rows = stripe_rows(stripe, height);
  const int k = index - stripe * kStripeHeight * width;
  return {k / rows, stripe * kStripeHeight + k % rows};
}

// Vertically causal mode (code-block style switch, T.800 D.7): the samples
// of the next stripe count as insignificant. The caller passes every
// neighbour mask of a sample in row y (of the code-block) through this
// before forming any context (significance, sign or refinement); only the
// last row of a stripe has neighbours in the next stripe.
CF_HD constexpr unsigned vertically_causal(unsigned neighbours, int y) {
  return (y % kStripeHeight == kStripeHeight - 1) ? neighbours & ~kBelow : neighbours;
}

// Bits of a stripe column's state word, row r (0..3) of the stripe at each
// shift + r: significant, negative, refined at least once, coded by this
// plane's significance propagation pass.
constexpr int kSigShift = 0, kNegShift = 4, kRefinedShift = 8, kCodedShift = 12;

// A stripe column's significance and signs as 6-bit masks: bit 0 the row
// above the stripe, bits 1..4 the stripe's rows, bit 5 the row below. Three
// of them (the columns left, own, right) give every neighbour of the
// column's samples, so a coder that keeps its state one word per stripe
// column forms a context from three words instead of eight samples.
struct ColumnBits {
  unsigned sig, neg;
};

// The column with `rows` (a row mask of the stripe) newly significant.
CF_HD constexpr ColumnBits with_new(ColumnBits c, unsigned rows, unsigned negative_rows) {
  return {c.sig | (rows << 1), c.neg | ((rows & negative_rows) << 1)};
}

CF_HD constexpr unsigned bit_at(unsigned bits, int e, unsigned flag) { return ((bits >> e) & 1u) ? flag : 0u; }

// Row r's significant neighbours as a k* mask (after the vertically causal
// rule when `causal`), from its column and the ones left and right;
// `negative` gets the direct neighbours' signs.
CF_HD unsigned neighbour_mask(const ColumnBits &l, const ColumnBits &o, const ColumnBits &r, int row, bool causal,
                              unsigned &negative) {
  const int e = row + 1;
  unsigned m = bit_at(l.sig, e, kW) | bit_at(r.sig, e, kE) | bit_at(o.sig, e - 1, kN) | bit_at(o.sig, e + 1, kS) |
               bit_at(l.sig, e - 1, kNW) | bit_at(r.sig, e - 1, kNE) | bit_at(l.sig, e + 1, kSW) |
               bit_at(r.sig, e + 1, kSE);
  if (causal) m = vertically_causal(m, row);
  negative = bit_at(l.neg, e, kW) | bit_at(r.neg, e, kE) | bit_at(o.neg, e - 1, kN) | bit_at(o.neg, e + 1, kS);
  return m;
}

// Table D.1, from the counts of significant horizontal (0-2), vertical (0-2)
// and diagonal (0-4) neighbours. LL and LH share a table in which horizontal
// neighbours weigh most; HL uses it with H and V swapped; HH ranks diagonals
// first, then H + V.
CF_HD constexpr int min_(int a, int b) { return a < b ? a : b; }
CF_HD constexpr int significance_context_lh(int h, int v, int d) {
  const int h0 = v > 0 ? 2 + v : min_(d, 2);    // no significant horizontal neighbour: 0-4
  const int h1 = 5 + (v > 0 ? 2 : min_(d, 1));  // one: 5-7
  return h == 2 ? 8 : (h == 1 ? h1 : h0);
}
CF_HD constexpr int significance_context_hh(int hv, int d) {
  const int low = 3 * d + min_(hv, 2);  // d = 0: 0-2, d = 1: 3-5
  const int two = 6 + min_(hv, 1);      // d = 2: 6-7
  return d >= 3 ? 8 : (d == 2 ? two : low);
}
CF_HD constexpr int significance_context(Orientation o, int h, int v, int d) {
  const bool hl = o == Orientation::HL;  // reads the LL/LH table with H and V swapped
  return o == Orientation::HH ? significance_context_hh(h + v, d) : significance_context_lh(hl ? v : h, hl ? h : v, d);
}
CF_HD constexpr int significance_context(Orientation o, unsigned neighbours) {
  return significance_context(o, horizontal_count(neighbours), vertical_count(neighbours), diagonal_count(neighbours));
}

// A row's 3x3 neighbourhood as a 9-bit index, for looking its context up
// instead of counting (ContextLabels): bits 0-2 the column on the left
// (the row above, the row itself, the row below), 3-5 its own column, 6-8
// the column on the right; bit 4, the sample itself, is 0. With `causal`,
// the row below the stripe (the last row's bits 2, 5, 8) reads as
// insignificant, as vertically_causal() has it.
constexpr unsigned kNeighbourhoodSize = 512;
CF_HD constexpr unsigned neighbourhood(const ColumnBits &l, const ColumnBits &o, const ColumnBits &r, int row,
                                       bool causal) {
  const unsigned n = ((l.sig >> row) & 7u) | ((o.sig >> row) & 5u) << 3 | ((r.sig >> row) & 7u) << 6;
  return causal && row == kStripeHeight - 1 ? n & ~0x124u : n;
}
// The k* mask of a neighbourhood index.
CF_HD constexpr unsigned neighbour_bits(unsigned n) {
  return bit_at(n, 0, kNW) | bit_at(n, 1, kW) | bit_at(n, 2, kSW) | bit_at(n, 3, kN) | bit_at(n, 5, kS) |
         bit_at(n, 6, kNE) | bit_at(n, 7, kE) | bit_at(n, 8, kSE);
}

// Sign coding (Tables D.2 and D.3). Each pair of opposite direct neighbours
// contributes +1 (significant and positive), -1 (significant and negative) or
// 0 per neighbour, the pair's sum clamped to -1..1. The contributions (H, V)
// give the label, and the bit coded is the sample's sign bit (1: negative)
// XOR xor_bit: (H, V) and (-H, -V) share a label with opposite xor_bit.
struct SignContext {
  int label, xor_bit;
};
CF_HD constexpr int neighbour_sign(unsigned sig, unsigned neg, unsigned b) {
  return (sig & b) ? ((neg & b) ? -1 : 1) : 0;
}
CF_HD constexpr int clamp_unit(int v) { return v < -1 ? -1 : (v > 1 ? 1 : v); }
CF_HD constexpr int horizontal_contribution(unsigned sig, unsigned neg) {
  return clamp_unit(neighbour_sign(sig, neg, kW) + neighbour_sign(sig, neg, kE));
}
CF_HD constexpr int vertical_contribution(unsigned sig, unsigned neg) {
  return clamp_unit(neighbour_sign(sig, neg, kN) + neighbour_sign(sig, neg, kS));
}
CF_HD constexpr SignContext sign_context(int h, int v) {
  const int flip = (h < 0 || (h == 0 && v < 0)) ? 1 : 0;  // predicted negative
  const int s = 1 - 2 * flip;
  return {kFirstSignContext + 3 * (s * h) + s * v, flip};  // (0,0) 9, (0,1) 10, (1,-1) 11, (1,0) 12, (1,1) 13
}
CF_HD constexpr SignContext sign_context(unsigned neighbours, unsigned negative) {
  return sign_context(horizontal_contribution(neighbours, negative), vertical_contribution(neighbours, negative));
}

// A row's four direct neighbours for its sign context, as an 8-bit index:
// their significance as a k* mask (kW, kE, kN, kS; the row below read as
// insignificant with `causal`, as neighbour_mask() has it) and, above it,
// the signs of the significant ones.
constexpr unsigned kSignNeighbourhoodSize = 256;
CF_HD constexpr unsigned sign_neighbourhood(const ColumnBits &l, const ColumnBits &o, const ColumnBits &r, int row,
                                            bool causal) {
  const int e = row + 1;
  const unsigned below = causal && row == kStripeHeight - 1 ? 0u : 1u;
  const unsigned sig = ((l.sig >> e) & 1u) | ((r.sig >> e) & 1u) << 1 | ((o.sig >> (e - 1)) & 1u) << 2 |
                       ((o.sig >> (e + 1)) & below) << 3;
  const unsigned neg =
      ((l.neg >> e) & 1u) | ((r.neg >> e) & 1u) << 1 | ((o.neg >> (e - 1)) & 1u) << 2 | ((o.neg >> (e + 1)) & 1u) << 3;
  return sig | (neg & sig) << 4;
}

// Tables D.1 and D.3 by neighbourhood index, for looking contexts up
// instead of counting: per orientation, the significance label of each
// neighbourhood() index; per sign_neighbourhood() index, the sign label
// times 2 plus its XORbit. What a decoder reads per decision (on a GPU,
// from a copy in shared memory).
struct alignas(4) ContextLabels {
  std::uint8_t significance[4][kNeighbourhoodSize];
  std::uint8_t sign[kSignNeighbourhoodSize];
};
CF_HD constexpr std::uint8_t significance_label(int orientation, unsigned n) {
  return std::uint8_t(significance_context(Orientation(orientation), neighbour_bits(n)));
}
CF_HD constexpr std::uint8_t sign_entry(unsigned n) {
  const SignContext c = sign_context(n & 15u, n >> 4);
  return std::uint8_t(c.label << 1 | c.xor_bit);
}
constexpr ContextLabels make_context_labels() {
  ContextLabels t{};
  for (int o = 0; o < 4; ++o)
    for (unsigned n = 0; n < kNeighbourhoodSize; ++n) t.significance[o][n] = significance_label(o, n);
  for (unsigned n = 0; n < kSignNeighbourhoodSize; ++n) t.sign[n] = sign_entry(n);
  return t;
}
inline constexpr ContextLabels kContextLabels = make_context_labels();

// Magnitude refinement (Table D.4): any of the eight neighbours counts.
CF_HD constexpr int refinement_label(bool refined_before, bool neighboured) {
  return refined_before ? kRefineLater : (neighboured ? kRefineFirstNeighboured : kRefineFirstIsolated);
}
CF_HD constexpr int refinement_context(bool refined_before, unsigned neighbours) {
  return refinement_label(refined_before, (neighbours & 0xffu) != 0);
}

// Initial MQ states (Table D.7): the index into the probability estimation
// table (T.800 Table C.2) each context starts from, with MPS 0 throughout.
// The coder sets them at the start of a code-block and, in the reset mode,
// after every coding pass.
CF_HD constexpr int initial_state(int label) {
  return label == kUniformContext ? 46 : (label == kRunLengthContext ? 3 : (label == 0 ? 4 : 0));
}
constexpr int kInitialMps = 0;
constexpr std::uint8_t kInitialStates[kContextCount] = {4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 46};
constexpr bool initial_states_agree() {
  for (int c = 0; c < kContextCount; ++c)
    if (kInitialStates[c] != initial_state(c)) return false;
  return true;
}
static_assert(initial_states_agree(), "kInitialStates and initial_state() disagree");

}  // namespace cf::j2k::t1
