// Tier-1 context formation (core/shared/j2k_tier1_rules.hpp) against the
// tables of ITU-T T.800 (08/2002) | ISO/IEC 15444-1, Annex D, typed below as
// the standard prints them ("x": any count, ">=n": n or more), then expanded
// here to every neighbour configuration:
//  - Table D.1 (significance), each orientation, every (H, V, D) count and
//    every one of the 256 significance patterns of the eight neighbours;
//  - Tables D.2 and D.3 (sign), every significance and sign pattern of the
//    neighbours (the diagonal ones must not matter);
//  - Table D.4 (refinement), Table D.7 (initial MQ states);
//  - the stripe scan order and the vertically causal rule, against plain
//    loops over the definitions.
// The rows of Tables D.1 and D.3 were checked against their reproduction in
// K. Sayood, Introduction to Data Compression (JPEG 2000 chapter, Tables 16.3
// and 16.4), where the sign contexts are SC0-SC4 (labels 9-13).
#include <cstdlib>
#include <cstring>

#include "check.hpp"
#include "core/shared/j2k_tier1_rules.hpp"

namespace t1 = cf::j2k::t1;
using t1::Orientation;

namespace {

// A table entry as printed: "x", "n" or ">=n".
bool matches(const char *cond, int n) {
  if (std::strcmp(cond, "x") == 0) return true;
  if (std::strncmp(cond, ">=", 2) == 0) return n >= std::atoi(cond + 2);
  return n == std::atoi(cond);
}

// Table D.1 - Contexts for the significance propagation and cleanup coding passes.
struct SigRow {
  const char *lh[3];  // LL and LH sub-bands (vertically high-pass): sum H, sum V, sum D
  const char *hl[3];  // HL sub-band (horizontally high-pass): sum H, sum V, sum D
  const char *hh[2];  // HH sub-band (diagonally high-pass): sum (H + V), sum D
  int label;
};
const SigRow kTableD1[] = {
    {{"2", "x", "x"}, {"x", "2", "x"}, {"x", ">=3"}, 8},      //
    {{"1", ">=1", "x"}, {">=1", "1", "x"}, {">=1", "2"}, 7},  //
    {{"1", "0", ">=1"}, {"0", "1", ">=1"}, {"0", "2"}, 6},    //
    {{"1", "0", "0"}, {"0", "1", "0"}, {">=2", "1"}, 5},      //
    {{"0", "2", "x"}, {"2", "0", "x"}, {"1", "1"}, 4},        //
    {{"0", "1", "x"}, {"1", "0", "x"}, {"0", "1"}, 3},        //
    {{"0", "0", ">=2"}, {"0", "0", ">=2"}, {">=2", "0"}, 2},  //
    {{"0", "0", "1"}, {"0", "0", "1"}, {"1", "0"}, 1},        //
    {{"0", "0", "0"}, {"0", "0", "0"}, {"0", "0"}, 0},        //
};

// The label Table D.1 gives; -1 (and a failed check) unless exactly one row matches.
int table_d1(Orientation o, int h, int v, int d) {
  int found = -1, hits = 0;
  for (const SigRow &r : kTableD1) {
    bool m;
    if (o == Orientation::HH)
      m = matches(r.hh[0], h + v) && matches(r.hh[1], d);
    else {
      const char *const *c = o == Orientation::HL ? r.hl : r.lh;
      m = matches(c[0], h) && matches(c[1], v) && matches(c[2], d);
    }
    if (m) found = r.label, ++hits;
  }
  CHECK_MSG(hits == 1, "Table D.1 as typed: %d rows match H=%d V=%d D=%d", hits, h, v, d);
  return hits == 1 ? found : -1;
}

const Orientation kOrientations[] = {Orientation::LL, Orientation::HL, Orientation::LH, Orientation::HH};
const char *name(Orientation o) {
  switch (o) {
    case Orientation::LL: return "LL";
    case Orientation::HL: return "HL";
    case Orientation::LH: return "LH";
    default: return "HH";
  }
}

// The eight neighbours by offset, and the header's bit for each.
struct Neighbour {
  int dx, dy;
  unsigned bit;
};
const Neighbour kNeighbours[8] = {{-1, 0, t1::kW},   {1, 0, t1::kE},   {0, -1, t1::kN},  {0, 1, t1::kS},
                                  {-1, -1, t1::kNW}, {1, -1, t1::kNE}, {-1, 1, t1::kSW}, {1, 1, t1::kSE}};

// Counts of a pattern p (bit i: kNeighbours[i] significant) by geometry.
void counts(unsigned p, int &h, int &v, int &d) {
  h = v = d = 0;
  for (int i = 0; i < 8; ++i)
    if (p >> i & 1) {
      const Neighbour &n = kNeighbours[i];
      (n.dy == 0 ? h : n.dx == 0 ? v : d) += 1;
    }
}
unsigned mask_of(unsigned p) {
  unsigned m = 0;
  for (int i = 0; i < 8; ++i)
    if (p >> i & 1) m |= kNeighbours[i].bit;
  return m;
}

void significance() {
  for (Orientation o : kOrientations) {
    for (int h = 0; h <= 2; ++h)
      for (int v = 0; v <= 2; ++v)
        for (int d = 0; d <= 4; ++d) {
          const int want = table_d1(o, h, v, d), got = t1::significance_context(o, h, v, d);
          CHECK_MSG(got == want, "%s H=%d V=%d D=%d: label %d, Table D.1 %d", name(o), h, v, d, got, want);
        }
    for (unsigned p = 0; p < 256; ++p) {
      int h, v, d;
      counts(p, h, v, d);
      const int want = table_d1(o, h, v, d), got = t1::significance_context(o, mask_of(p));
      CHECK_MSG(got == want, "%s pattern 0x%02x: label %d, Table D.1 %d", name(o), p, got, want);
    }
  }
}

// The neighbourhood index (bit 3 * (dx + 1) + (dy + 1) for the neighbour
// at dx, dy): what it says of the columns' bits, and Table D.1 read by it.
void neighbourhoods() {
  for (unsigned n = 0; n < t1::kNeighbourhoodSize; ++n) {
    if (n & 0x10u) continue;  // the sample itself is never in an index
    int h = 0, v = 0, d = 0;
    for (int i = 0; i < 9; ++i)
      if ((n >> i & 1) && i != 4) (i % 3 == 1 ? h : i / 3 == 1 ? v : d) += 1;
    for (Orientation o : kOrientations) {
      const int want = table_d1(o, h, v, d), got = t1::kContextLabels.significance[int(o)][n];
      CHECK_MSG(got == want, "%s neighbourhood 0x%03x: label %d, Table D.1 %d", name(o), n, got, want);
    }
  }
  // Against neighbour_mask() for every significance of three columns.
  for (unsigned bits = 0; bits < (1u << 18); ++bits) {
    const t1::ColumnBits l{bits & 63u, 0}, o{bits >> 6 & 63u, 0}, r{bits >> 12 & 63u, 0};
    for (int row = 0; row < t1::kStripeHeight; ++row)
      for (int causal = 0; causal < 2; ++causal) {
        unsigned negative;
        const unsigned want = t1::neighbour_mask(l, o, r, row, causal != 0, negative);
        const unsigned n = t1::neighbourhood(l, o, r, row, causal != 0);
        CHECK_MSG((n & 0x10u) == 0 && t1::neighbour_bits(n) == want,
                  "columns 0x%05x row %d causal %d: index 0x%03x, mask 0x%02x", bits, row, causal, n, want);
      }
  }
}

// Table D.2 - Contributions of the vertical (and the horizontal) neighbours to the sign context.
enum State { Pos, Neg, Insig };  // significant positive, significant negative, insignificant
struct ContribRow {
  State first, second;  // V0 and V1 (H0 and H1)
  int contribution;
};
const ContribRow kTableD2[] = {
    {Pos, Pos, 1},    {Neg, Pos, 0},   {Insig, Pos, 1},  {Pos, Neg, 0},     {Neg, Neg, -1},
    {Insig, Neg, -1}, {Pos, Insig, 1}, {Neg, Insig, -1}, {Insig, Insig, 0},
};
// Table D.3 - Context labels and XORbit from the horizontal and vertical contributions.
struct SignRow {
  int h, v, label, xor_bit;
};
const SignRow kTableD3[] = {
    {1, 1, 13, 0},  {1, 0, 12, 0},  {1, -1, 11, 0}, {0, 1, 10, 0},   {0, 0, 9, 0},
    {0, -1, 10, 1}, {-1, 1, 11, 1}, {-1, 0, 12, 1}, {-1, -1, 13, 1},
};

int table_d2(State a, State b) {
  for (const ContribRow &r : kTableD2)
    if (r.first == a && r.second == b) return r.contribution;
  CHECK_MSG(false, "Table D.2 as typed lacks a row");
  return 99;
}
const SignRow *table_d3(int h, int v) {
  for (const SignRow &r : kTableD3)
    if (r.h == h && r.v == v) return &r;
  CHECK_MSG(false, "Table D.3 as typed lacks H=%d V=%d", h, v);
  return &kTableD3[0];
}

void sign() {
  for (int h = -1; h <= 1; ++h)
    for (int v = -1; v <= 1; ++v) {
      const t1::SignContext got = t1::sign_context(h, v);
      const SignRow *want = table_d3(h, v);
      CHECK_MSG(got.label == want->label && got.xor_bit == want->xor_bit, "H=%d V=%d: label %d xor %d, Table D.3 %d %d",
                h, v, got.label, got.xor_bit, want->label, want->xor_bit);
    }
  // Every significance pattern of the eight neighbours, every sign of the four direct ones.
  for (unsigned p = 0; p < 256; ++p)
    for (unsigned s = 0; s < 16; ++s) {
      State st[4];  // kNeighbours[0..3]: W, E, N, S
      unsigned neg = 0;
      for (int i = 0; i < 4; ++i) {
        st[i] = !(p >> i & 1) ? Insig : (s >> i & 1) ? Neg : Pos;
        if (s >> i & 1) neg |= kNeighbours[i].bit;  // also on insignificant ones: must be ignored
      }
      const int h = table_d2(st[0], st[1]), v = table_d2(st[2], st[3]);
      const SignRow *want = table_d3(h, v);
      const unsigned m = mask_of(p);
      CHECK_MSG(t1::horizontal_contribution(m, neg) == h && t1::vertical_contribution(m, neg) == v,
                "pattern 0x%02x signs 0x%x: contributions %d %d, Table D.2 %d %d", p, s,
                t1::horizontal_contribution(m, neg), t1::vertical_contribution(m, neg), h, v);
      const t1::SignContext got = t1::sign_context(m, neg);
      CHECK_MSG(got.label == want->label && got.xor_bit == want->xor_bit,
                "pattern 0x%02x signs 0x%x: label %d xor %d, Tables D.2/D.3 %d %d", p, s, got.label, got.xor_bit,
                want->label, want->xor_bit);
    }
  // The lookup by sign neighbourhood: direct significance in bits 0-3
  // (W, E, N, S), their signs in bits 4-7.
  for (unsigned n = 0; n < t1::kSignNeighbourhoodSize; ++n) {
    State st[4];
    for (int i = 0; i < 4; ++i) st[i] = !(n >> i & 1) ? Insig : (n >> (4 + i) & 1) ? Neg : Pos;
    const SignRow *want = table_d3(table_d2(st[0], st[1]), table_d2(st[2], st[3]));
    const int got = t1::kContextLabels.sign[n];
    CHECK_MSG(got >> 1 == want->label && (got & 1) == want->xor_bit,
              "sign neighbourhood 0x%02x: label %d xor %d, Tables D.2/D.3 %d %d", n, got >> 1, got & 1, want->label,
              want->xor_bit);
  }
  // sign_neighbourhood() against neighbour_mask() for every significance of
  // three columns, with signs mixed from it.
  for (unsigned bits = 0; bits < (1u << 18); ++bits) {
    const unsigned negs = (bits * 0x9E3779B1u) >> 14;
    const t1::ColumnBits l{bits & 63u, negs & 63u}, o{bits >> 6 & 63u, negs >> 6 & 63u},
        r{bits >> 12 & 63u, negs >> 12 & 63u};
    for (int row = 0; row < t1::kStripeHeight; ++row)
      for (int causal = 0; causal < 2; ++causal) {
        unsigned negative;
        const unsigned m = t1::neighbour_mask(l, o, r, row, causal != 0, negative) & 15u;
        const unsigned want = m | (negative & m) << 4, got = t1::sign_neighbourhood(l, o, r, row, causal != 0);
        CHECK_MSG(got == want, "columns 0x%05x signs 0x%05x row %d causal %d: index 0x%02x, want 0x%02x", bits, negs,
                  row, causal, got, want);
      }
  }
}

// Table D.4 - Contexts for the magnitude refinement coding passes.
struct RefineRow {
  const char *sum;        // sum H + sum V + sum D
  bool first_refinement;  // first refinement for this coefficient
  int label;
};
const RefineRow kTableD4[] = {{"x", false, 16}, {">=1", true, 15}, {"0", true, 14}};

void refinement() {
  for (unsigned p = 0; p < 256; ++p)
    for (int first = 0; first <= 1; ++first) {
      int h, v, d, want = -1, hits = 0;
      counts(p, h, v, d);
      for (const RefineRow &r : kTableD4)
        if (r.first_refinement == bool(first) && matches(r.sum, h + v + d)) want = r.label, ++hits;
      CHECK_MSG(hits == 1, "Table D.4 as typed: %d rows match", hits);
      const int got = t1::refinement_context(!first, mask_of(p));
      CHECK_MSG(got == want, "pattern 0x%02x first=%d: label %d, Table D.4 %d", p, first, got, want);
    }
  CHECK(t1::kRefineFirstIsolated == 14 && t1::kRefineFirstNeighboured == 15 && t1::kRefineLater == 16);
}

// Table D.7 - Initial states for all contexts (index into Table C.2, MPS).
struct InitRow {
  int label;  // -1: all other contexts
  int index, mps;
};
const InitRow kTableD7[] = {
    {18, 46, 0},  // UNIFORM
    {17, 3, 0},   // Run-length
    {0, 4, 0},    // All zero neighbours
    {-1, 0, 0},   // All other contexts
};

void initial_states() {
  CHECK(t1::kContextCount == 19 && t1::kUniformContext == 18 && t1::kRunLengthContext == 17);
  CHECK(t1::kFirstSignificanceContext == 0 && t1::kFirstSignContext == 9);
  for (int c = 0; c < t1::kContextCount; ++c) {
    const InitRow *want = &kTableD7[3];
    for (const InitRow &r : kTableD7)
      if (r.label == c) want = &r;
    CHECK_MSG(t1::initial_state(c) == want->index && t1::kInitialStates[c] == want->index,
              "context %d: initial state %d / %d, Table D.7 %d", c, t1::initial_state(c), int(t1::kInitialStates[c]),
              want->index);
    CHECK(t1::kInitialMps == want->mps);
  }
}

// Stripes of four rows, columns left to right, rows top to bottom in a column.
void scan_order() {
  const int sizes[][2] = {{1, 1}, {1, 13}, {5, 3}, {3, 4}, {4, 8}, {7, 9}, {6, 10}, {17, 2}, {64, 64}, {32, 7}};
  for (const auto &sz : sizes) {
    const int w = sz[0], hgt = sz[1];
    int index = 0, stripes = 0;
    for (int y0 = 0; y0 < hgt; y0 += 4, ++stripes) {
      const int rows = hgt - y0 < 4 ? hgt - y0 : 4;
      CHECK_MSG(t1::stripe_rows(stripes, hgt) == rows, "%dx%d stripe %d: %d rows, want %d", w, hgt, stripes,
                t1::stripe_rows(stripes, hgt), rows);
      for (int x = 0; x < w; ++x)
        for (int y = y0; y < y0 + rows; ++y, ++index) {
          const t1::Position p = t1::scan_position(index, w, hgt);
          CHECK_MSG(p.x == x && p.y == y, "%dx%d visit %d: (%d,%d), want (%d,%d)", w, hgt, index, p.x, p.y, x, y);
        }
    }
    CHECK_MSG(t1::stripe_count(hgt) == stripes, "%dx%d: %d stripes, want %d", w, hgt, t1::stripe_count(hgt), stripes);
  }
}

// Vertically causal mode: neighbours in the next stripe (below the last row
// of a stripe) count as insignificant, for every context.
void vertically_causal() {
  for (int y = 0; y < 12; ++y)
    for (unsigned p = 0; p < 256; ++p) {
      unsigned want = 0;
      for (int i = 0; i < 8; ++i)
        if ((p >> i & 1) && (y + kNeighbours[i].dy) / 4 <= y / 4) want |= kNeighbours[i].bit;
      const unsigned got = t1::vertically_causal(mask_of(p), y);
      CHECK_MSG(got == want, "row %d pattern 0x%02x: mask 0x%02x, want 0x%02x", y, p, got, want);
    }
  // Only the sample below significant: on a stripe's last row nothing is.
  CHECK(t1::significance_context(Orientation::LL, t1::vertically_causal(t1::kS, 3)) == 0);
  CHECK(t1::significance_context(Orientation::LL, t1::vertically_causal(t1::kS, 2)) == 3);
  CHECK(t1::refinement_context(false, t1::vertically_causal(t1::kSE, 7)) == 14);
  CHECK(t1::sign_context(t1::vertically_causal(t1::kS, 3), t1::kS).label == 9);
}

}  // namespace

int main() {
  significance();
  neighbourhoods();
  sign();
  refinement();
  initial_states();
  scan_order();
  vertically_causal();
  return cft::test_result();
}
