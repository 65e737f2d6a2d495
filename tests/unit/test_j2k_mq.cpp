// The MQ arithmetic coder (core/shared/j2k_mq_rules.hpp):
//  - Table C.2 of T.800: every row typed from the standard, indices in range;
//  - the test sequence of ITU-T T.88 Annex H.2 (the same coder, specified
//    for JBIG2): the encoder's bytes, and the decoder's 256 decisions from
//    the standard's coded bytes and from ours;
//  - round trips over up to 19 contexts with skewed probabilities, from 0
//    decisions up; codewords free of markers and not ending in 0xFF; the
//    length a flush would give, and a truncated codeword decoding every
//    decision up to its truncation point;
//  - a marker ends the decoder's data;
//  - a too-small buffer: overflow reported, nothing written past it.
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "check.hpp"
#include "core/shared/j2k_mq_rules.hpp"

using cf::j2k::kMqStateCount;
using cf::j2k::mq_context;
using cf::j2k::mq_state;
using cf::j2k::MqContext;
using cf::j2k::MqDecoder;
using cf::j2k::MqEncoder;
using Bytes = std::vector<std::uint8_t>;

namespace {

// T.800 Table C.2, every row typed from the standard: Qe, NMPS, NLPS, SWITCH.
// clang-format off
const int kTableC2[47][4] = {
    {0x5601, 1, 1, 1},   {0x3401, 2, 6, 0},   {0x1801, 3, 9, 0},   {0x0AC1, 4, 12, 0},  {0x0521, 5, 29, 0},
    {0x0221, 38, 33, 0}, {0x5601, 7, 6, 1},   {0x5401, 8, 14, 0},  {0x4801, 9, 14, 0},  {0x3801, 10, 14, 0},
    {0x3001, 11, 17, 0}, {0x2401, 12, 18, 0}, {0x1C01, 13, 20, 0}, {0x1601, 29, 21, 0}, {0x5601, 15, 14, 1},
    {0x5401, 16, 14, 0}, {0x5101, 17, 15, 0}, {0x4801, 18, 16, 0}, {0x3801, 19, 17, 0}, {0x3401, 20, 18, 0},
    {0x3001, 21, 19, 0}, {0x2801, 22, 19, 0}, {0x2401, 23, 20, 0}, {0x2201, 24, 21, 0}, {0x1C01, 25, 22, 0},
    {0x1801, 26, 23, 0}, {0x1601, 27, 24, 0}, {0x1401, 28, 25, 0}, {0x1201, 29, 26, 0}, {0x1101, 30, 27, 0},
    {0x0AC1, 31, 28, 0}, {0x09C1, 32, 29, 0}, {0x08A1, 33, 30, 0}, {0x0521, 34, 31, 0}, {0x0441, 35, 32, 0},
    {0x02A1, 36, 33, 0}, {0x0221, 37, 34, 0}, {0x0141, 38, 35, 0}, {0x0111, 39, 36, 0}, {0x0085, 40, 37, 0},
    {0x0049, 41, 38, 0}, {0x0025, 42, 39, 0}, {0x0015, 43, 40, 0}, {0x0009, 44, 41, 0}, {0x0005, 45, 42, 0},
    {0x0001, 45, 43, 0}, {0x5601, 46, 46, 0}};
// clang-format on

void table_rows_match_the_standard() {
  CHECK(kMqStateCount == 47);
  for (int i = 0; i < kMqStateCount; ++i) {
    const auto s = mq_state(i);
    const int *r = kTableC2[i];
    CHECK_MSG(s.qe == r[0] && s.nmps == r[1] && s.nlps == r[2] && s.swap == r[3],
              "state %d: Qe 0x%04X NMPS %d NLPS %d SWITCH %d, the standard: 0x%04X %d %d %d", i, s.qe, s.nmps, s.nlps,
              s.swap, r[0], r[1], r[2], r[3]);
  }
  // Every transition stays in the table; Qe is a probability below 0.75
  // (0x8000).
  for (int i = 0; i < kMqStateCount; ++i) {
    const auto s = mq_state(i);
    CHECK_MSG(s.nmps < kMqStateCount && s.nlps < kMqStateCount, "state %d: NMPS %d NLPS %d", i, s.nmps, s.nlps);
    CHECK_MSG(s.qe > 0 && s.qe < 0x8000, "state %d: Qe 0x%04X", i, s.qe);
  }
}

// The coders' transition words: per state index and MPS sense, Qe, the
// NMPS state with the same sense, and the NLPS state with the sense turned
// over exactly where SWITCH is 1, from the standard's rows above; a
// context holds its state's word.
void transitions_fold_the_table() {
  CHECK(cf::j2k::kMqContextStates == 2 * 47);
  for (int i = 0; i < 47; ++i)
    for (int mps = 0; mps < 2; ++mps) {
      const int *r = kTableC2[i];
      const std::uint32_t t = cf::j2k::kMqTransitions.row[2 * i + mps];
      const MqContext cx = mq_context(i, mps);
      CHECK_MSG(cx.row == t && cx.qe() == std::uint32_t(r[0]) && cx.mps() == mps, "state %d, MPS %d: Qe 0x%04X MPS %d",
                i, mps, unsigned(cx.qe()), cx.mps());
      CHECK_MSG(cf::j2k::after_mps(t) == 2 * r[1] + mps, "state %d, MPS %d: after an MPS %d", i, mps,
                cf::j2k::after_mps(t));
      CHECK_MSG(cf::j2k::after_lps(t) == 2 * r[2] + (r[3] ? 1 - mps : mps), "state %d, MPS %d: after an LPS %d", i, mps,
                cf::j2k::after_lps(t));
    }
}

// T.88 Annex H.2: 256 decisions (these bytes, most significant bit first),
// one context starting at state 0 with MPS 0.
const std::uint8_t kH2Decisions[32] = {0x00, 0x02, 0x00, 0x51, 0x00, 0x00, 0x00, 0xC0, 0x03, 0x52, 0x87,
                                       0x2A, 0xAA, 0xAA, 0xAA, 0xAA, 0x82, 0xC0, 0x20, 0x00, 0xFC, 0xD7,
                                       0x9E, 0xF6, 0xBF, 0x7F, 0xED, 0x90, 0x4F, 0x46, 0xA3, 0xBF};
// ... and T.88's coded bytes for them.
const Bytes kH2Coded = {0x84, 0xC7, 0x3B, 0xFC, 0xE1, 0xA1, 0x43, 0x04, 0x02, 0x20, 0x00, 0x00, 0x41, 0x0D, 0xBB,
                        0x86, 0xF4, 0x31, 0x7F, 0xFF, 0x88, 0xFF, 0x37, 0x47, 0x1A, 0xDB, 0x6A, 0xDF, 0xFF, 0xAC};
// T.88's FLUSH runs the same SETBITS and two BYTEOUTs as T.800's, then
// appends the marker 0xFF 0xAC that ends a JBIG2 stream (only 0xAC where
// the last byte out is already 0xFF); T.800's FLUSH appends nothing and
// drops a final 0xFF. So the T.800 codeword is the first 28 bytes, ending
// 6A DF, either way: the BYTEOUTs ended on 0xDF and T.88 appended FF AC, or
// they ended on 0xFF, which T.800 drops, and T.88 appended AC.
const int kH2CodewordLength = 28;

int h2_decision(int i) { return (kH2Decisions[i / 8] >> (7 - i % 8)) & 1; }

void h2_encoder_gives_the_standard_bytes() {
  Bytes buf(64, 0);
  MqEncoder enc;
  enc.init(buf.data(), kH2CodewordLength);  // exactly the codeword's room
  MqContext cx;
  for (int i = 0; i < 256; ++i) enc.encode(cx, h2_decision(i));
  enc.flush();
  CHECK_MSG(enc.bytes() == kH2CodewordLength, "T.88 H.2: %d bytes, want %d", enc.bytes(), kH2CodewordLength);
  CHECK(!enc.overflow());
  int first_difference = -1;
  for (int i = 0; i < kH2CodewordLength && first_difference < 0; ++i)
    if (buf[std::size_t(i)] != kH2Coded[std::size_t(i)]) first_difference = i;
  CHECK_MSG(first_difference < 0, "T.88 H.2: byte %d is 0x%02X, want 0x%02X", first_difference,
            first_difference < 0 ? 0 : buf[std::size_t(first_difference)],
            first_difference < 0 ? 0 : kH2Coded[std::size_t(first_difference)]);
  CHECK_MSG(buf[kH2CodewordLength] == 0, "T.88 H.2: a byte written past the capacity");
}

// Decodes 256 decisions from `coded` and counts those that differ from H.2's.
int h2_decode_differences(const std::uint8_t *coded, int length) {
  MqDecoder dec;
  dec.init(coded, length);
  MqContext cx;
  int differ = 0;
  for (int i = 0; i < 256; ++i) differ += dec.decode(cx) != h2_decision(i);
  return differ;
}

void h2_decoder_gives_the_standard_decisions() {
  // T.88's stream, marker included: BYTEIN stops at FF AC.
  int differ = h2_decode_differences(kH2Coded.data(), int(kH2Coded.size()));
  CHECK_MSG(differ == 0, "T.88 H.2, the standard's 30 bytes: %d of 256 decisions differ", differ);
  // The T.800 codeword: the decoder reads 0xFF past its end.
  differ = h2_decode_differences(kH2Coded.data(), kH2CodewordLength);
  CHECK_MSG(differ == 0, "T.88 H.2, the 28-byte codeword: %d of 256 decisions differ", differ);
}

// A random sequence of decisions over `contexts` contexts, each with its own
// probability of a 1 (most of them far from 1/2), and random starting states.
struct Sequence {
  std::vector<int> context, decision;
  std::vector<MqContext> start;
};

Sequence random_sequence(std::mt19937 &rng, int length, int contexts) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::vector<double> p_one(static_cast<std::size_t>(contexts));
  for (double &p : p_one) {
    const double skew = unit(rng);
    p = skew * skew * skew * 0.5;  // mostly near 0
    if (rng() & 1) p = 1.0 - p;    // or near 1
  }
  Sequence s;
  s.start.resize(std::size_t(contexts));
  for (MqContext &cx : s.start) cx = mq_context(int(rng() % kMqStateCount), int(rng() & 1));
  for (int i = 0; i < length; ++i) {
    const int c = int(rng() % unsigned(contexts));
    s.context.push_back(c);
    s.decision.push_back(unit(rng) < p_one[std::size_t(c)] ? 1 : 0);
  }
  return s;
}

Bytes encode(const Sequence &s, int *length_out = nullptr) {
  Bytes buf(s.decision.size() * 2 + 16);  // a decision shifts out at most 15 bits
  MqEncoder enc;
  enc.init(buf.data(), int(buf.size()));
  std::vector<MqContext> cx = s.start;
  for (std::size_t i = 0; i < s.decision.size(); ++i) enc.encode(cx[std::size_t(s.context[i])], s.decision[i]);
  enc.flush();
  CHECK(!enc.overflow());
  if (length_out) *length_out = enc.bytes();
  buf.resize(std::size_t(enc.bytes()));
  return buf;
}

// How many of the first `count` decisions of s decode wrongly from `coded`.
int decode_differences(const Sequence &s, const std::uint8_t *coded, int length, std::size_t count) {
  MqDecoder dec;
  dec.init(coded, length);
  std::vector<MqContext> cx = s.start;
  int differ = 0;
  for (std::size_t i = 0; i < count; ++i) differ += dec.decode(cx[std::size_t(s.context[i])]) != s.decision[i];
  return differ;
}

// T.800 forbids markers (0xFF followed by a byte above 0x8F) inside a
// codeword, and a terminated codeword does not end with 0xFF.
bool marker_free(const Bytes &coded) {
  for (std::size_t i = 0; i + 1 < coded.size(); ++i)
    if (coded[i] == 0xFF && coded[i + 1] > 0x8F) return false;
  return coded.empty() || coded.back() != 0xFF;
}

void round_trips() {
  std::mt19937 rng(20240617);
  const int lengths[] = {0, 1, 2, 3, 5, 8, 13, 31, 64, 100, 257, 1000, 4096, 20000};
  int sequences = 0;
  for (const int length : lengths)
    for (const int contexts : {1, 2, 5, 19})
      for (int rep = 0; rep < 12; ++rep) {
        const Sequence s = random_sequence(rng, length, contexts);
        const Bytes coded = encode(s);
        const int differ = decode_differences(s, coded.data(), int(coded.size()), s.decision.size());
        CHECK_MSG(differ == 0, "%d decisions, %d contexts: %d decode wrongly", length, contexts, differ);
        CHECK_MSG(marker_free(coded), "%d decisions, %d contexts: a marker or a final 0xFF in the codeword", length,
                  contexts);
        ++sequences;
      }
  // Long runs: from state 0 the context climbs to the smallest Qe values;
  // in the non-adapting state 46 the codeword is half 0xFF bytes, each
  // followed by a stuffed one.
  for (const int start : {0, 46}) {
    Sequence s;
    s.start = {mq_context(start, 0)};
    for (int i = 0; i < 50000; ++i) {
      s.context.push_back(0);
      s.decision.push_back(i % 9973 == 0 ? 1 : 0);
    }
    const Bytes coded = encode(s);
    CHECK_MSG(decode_differences(s, coded.data(), int(coded.size()), s.decision.size()) == 0,
              "a long run from state %d decodes wrongly", start);
    CHECK(marker_free(coded));
    ++sequences;
  }
  std::printf("round trips: %d sequences\n", sequences);
}

// length_if_flushed() is the length of the codeword FLUSH gives at that
// point; a codeword cut at truncation_length() after some decision, padded
// by the decoder's 0xFF fill, decodes every decision up to that one.
void pass_lengths() {
  std::mt19937 rng(7);
  int cuts = 0;
  for (int rep = 0; rep < 300; ++rep) {
    const Sequence s = random_sequence(rng, int(rng() % 3000), 19);
    const Bytes coded = encode(s);
    Bytes scratch(s.decision.size() * 2 + 16);
    MqEncoder enc, twin;
    enc.init(scratch.data(), int(scratch.size()));
    std::vector<MqContext> cx = s.start;
    for (std::size_t i = 0; i < s.decision.size(); ++i) {
      enc.encode(cx[std::size_t(s.context[i])], s.decision[i]);
      if (rng() % 23 != 0) continue;
      // A twin coding the same decisions and flushing here.
      Bytes twin_buf(scratch.size());
      twin.init(twin_buf.data(), int(twin_buf.size()));
      std::vector<MqContext> twin_cx = s.start;
      for (std::size_t k = 0; k <= i; ++k) twin.encode(twin_cx[std::size_t(s.context[k])], s.decision[k]);
      const int predicted = enc.length_if_flushed();
      twin.flush();
      CHECK_MSG(predicted == twin.bytes(), "after %zu decisions: length_if_flushed %d, FLUSH gives %d", i + 1,
                predicted, twin.bytes());
      const int cut = enc.truncation_length() < int(coded.size()) ? enc.truncation_length() : int(coded.size());
      CHECK_MSG(enc.truncation_length() >= enc.bytes() && enc.truncation_length() <= enc.bytes() + 4,
                "truncation_length %d, bytes %d", enc.truncation_length(), enc.bytes());
      const int differ = decode_differences(s, coded.data(), cut, i + 1);
      CHECK_MSG(differ == 0, "cut at %d of %zu bytes after %zu decisions: %d decode wrongly", cut, coded.size(), i + 1,
                differ);
      ++cuts;
    }
  }
  std::printf("pass lengths: %d cut points\n", cuts);
}

// T.800's BYTEIN takes 0xFF followed by a byte above 0x8F as a marker, the
// end of the data, and feeds 1 bits from there on, as past the end. So any
// data D (free of markers) decodes to the same decisions as D followed by a
// marker (SOT 0xFF90, SOP 0xFF91, EPH 0xFF92, EOC 0xFFD9) and whatever comes
// after it, also for decisions long past the end of D.
std::vector<int> decisions_of(const Bytes &data, const std::vector<int> &contexts) {
  MqDecoder dec;
  dec.init(data.data(), int(data.size()));
  MqContext cx[19];
  std::vector<int> d;
  for (const int c : contexts) d.push_back(dec.decode(cx[c]));
  return d;
}

void a_marker_ends_the_data() {
  std::mt19937 rng(31);
  for (int rep = 0; rep < 300; ++rep) {
    Bytes data(rng() % 40);
    for (std::size_t i = 0; i < data.size(); ++i)
      data[i] = std::uint8_t(i > 0 && data[i - 1] == 0xFF ? rng() % 0x90 : rng() % 256);
    std::vector<int> contexts(data.size() * 8 + 300);
    for (int &c : contexts) c = int(rng() % 19);
    const std::vector<int> alone = decisions_of(data, contexts);
    for (const int marker : {0x90, 0x91, 0x92, 0xD9}) {
      Bytes followed = data;
      for (const int b : {0xFF, marker, 0x12, 0x34}) followed.push_back(std::uint8_t(b));
      CHECK_MSG(decisions_of(followed, contexts) == alone, "%zu bytes followed by 0xFF%02X: other decisions",
                data.size(), marker);
    }
  }
}

// A buffer too small: the encoder fills it, counts on, reports the overflow
// and leaves the bytes past the capacity alone.
void overflow_is_reported() {
  std::mt19937 rng(99);
  const Sequence s = random_sequence(rng, 5000, 19);
  int full_length = 0;
  const Bytes full = encode(s, &full_length);
  for (const int capacity : {0, 1, 2, full_length / 2, full_length - 1, full_length}) {
    const std::uint8_t kGuard = 0xA5;
    Bytes buf(std::size_t(full_length) + 8, kGuard);
    MqEncoder enc;
    enc.init(capacity > 0 ? buf.data() : nullptr, capacity);
    std::vector<MqContext> cx = s.start;
    for (std::size_t i = 0; i < s.decision.size(); ++i) enc.encode(cx[std::size_t(s.context[i])], s.decision[i]);
    enc.flush();
    CHECK_MSG(enc.overflow() == (capacity < full_length), "capacity %d of %d: overflow %d", capacity, full_length,
              int(enc.overflow()));
    CHECK_MSG(enc.bytes() == full_length, "capacity %d: %d bytes counted, want %d", capacity, enc.bytes(), full_length);
    bool prefix_same = true, guard_intact = true;
    for (int i = 0; i < capacity; ++i) prefix_same &= buf[std::size_t(i)] == full[std::size_t(i)];
    for (std::size_t i = std::size_t(capacity); i < buf.size(); ++i) guard_intact &= buf[i] == kGuard;
    CHECK_MSG(prefix_same, "capacity %d: the bytes written differ from the codeword's", capacity);
    CHECK_MSG(guard_intact, "capacity %d: a byte written past the capacity", capacity);
  }
}

}  // namespace

int main() {
  table_rows_match_the_standard();
  transitions_fold_the_table();
  h2_encoder_gives_the_standard_bytes();
  h2_decoder_gives_the_standard_decisions();
  round_trips();
  pass_lengths();
  a_marker_ends_the_data();
  overflow_is_reported();
  return cft::test_result();
}
