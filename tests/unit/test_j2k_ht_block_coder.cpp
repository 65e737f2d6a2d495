// The HT code-block encoder's parts (core/shared/j2k_ht_block_coder_rules.hpp)
// against answers worked by hand from T.814's definitions:
//  - MEL: the bits of a run of events through its states, and the stuffed
//    bit after a byte of 0xFF;
//  - the U-VLC codes of u = 1..32 (prefix "1", "01", "001", "000" and their
//    suffixes; from 33 on a 4-bit extension follows, which 32-bit magnitudes
//    never need);
//  - the CxtVLC tables: prefix-free within each context, and a codeword for
//    every (context, rho, emb) the encoder can meet;
//  - MagSgn: a quad's bits, and a whole 2 x 2 block's codeword segment
//    (MagSgn, MEL and VLC bytes, Scup in the last 12 bits);
//  - capacity: a block that does not fit reports the length it needs and
//    writes nothing past its room;
//  - candidate planes (rate control): one cleanup pass per plane, lengths
//    never falling, the last one the plane-0 codeword, the distortions
//    adding up to the exact reconstruction's.
// Whole codestreams are checked by third-party decoders in test_j2k_encoder.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "check.hpp"
#include "core/shared/j2k_ht_block_coder_rules.hpp"
#include "core/shared/j2k_ht_plane_estimate_rules.hpp"

namespace ht = cf::j2k::ht;
namespace t1 = cf::j2k::t1;

namespace {

// The bits of `bits` (least significant first), `count` of them, as text.
std::string lsb_first(unsigned bits, int count) {
  std::string s;
  for (int i = 0; i < count; ++i) s += char('0' + ((bits >> i) & 1));
  return s;
}

void mel() {
  std::uint8_t room[16] = {};
  ht::MelEncoder m;
  // States 0-2 send a 1 per 0-event (2^0), state 3 one per two; a 1-event
  // at state 4 (E = 1) sends 0 and the run (0) in one bit: 1111 00.
  m.init(room, sizeof room);
  for (bool e : {false, false, false, false, false, true}) m.encode(e);
  m.finish();
  CHECK_MSG(m.bytes() == 0 && m.tail() == 0xF0 && m.tail_mask() == 0xFC,
            "MEL 1111 00: %d bytes, tail 0x%02X mask 0x%02X", m.bytes(), m.tail(), m.tail_mask());
  // Eight 1s (1+1+1+2+2+2+4+4 = 17 zero events) fill 0xFF; the next byte
  // holds 7 bits under a stuffed 0: a 1-event at state 8 (E = 2) sends 000.
  m.init(room, sizeof room);
  for (int i = 0; i < 17; ++i) m.encode(false);
  m.encode(true);
  m.finish();
  CHECK_MSG(m.bytes() == 1 && room[0] == 0xFF, "MEL eight 1s: %d bytes, first 0x%02X", m.bytes(), room[0]);
  CHECK_MSG(m.tail() == 0 && m.tail_mask() == 0xF0, "MEL after 0xFF: tail 0x%02X mask 0x%02X", m.tail(), m.tail_mask());
  // An unfinished run is closed with a 1.
  m.init(room, sizeof room);
  m.encode(false);
  m.encode(false);
  m.encode(false);
  m.encode(false);  // state 3: a run of 1 of 2
  m.finish();
  CHECK_MSG(m.tail() == 0xF0 && m.tail_mask() == 0xF0, "MEL open run: tail 0x%02X mask 0x%02X", m.tail(),
            m.tail_mask());
}

void uvlc() {
  const char *prefixes[] = {"1", "01", "001", "001"};
  for (int u = 1; u <= 32; ++u) {
    const ht::UvlcCode c = ht::uvlc_code(u);
    const std::string prefix = u <= 4 ? prefixes[u - 1] : "000";
    const std::string suffix = u <= 2 ? "" : u <= 4 ? lsb_first(unsigned(u - 3), 1) : lsb_first(unsigned(u - 5), 5);
    const std::string got_p = lsb_first(c.prefix, c.prefix_length), got_s = lsb_first(c.suffix, c.suffix_length);
    CHECK_MSG(got_p == prefix && got_s == suffix, "U-VLC %d: %s|%s, expected %s|%s", u, got_p.c_str(), got_s.c_str(),
              prefix.c_str(), suffix.c_str());
  }
  CHECK(ht::uvlc_code(0).prefix_length == 0 && ht::uvlc_code(0).suffix_length == 0);
}

void vlc_tables() {
  const ht::VlcEntry *tables[2] = {ht::kVlcFirstRow, ht::kVlcOtherRows};
  const int sizes[2] = {ht::kVlcFirstRowEntries, ht::kVlcOtherRowEntries};
  for (int row = 0; row < 2; ++row)
    for (int i = 0; i < sizes[row]; ++i)
      for (int j = 0; j < sizes[row]; ++j) {
        const ht::VlcEntry &a = tables[row][i], &b = tables[row][j];
        if (i == j || a.context != b.context || a.length > b.length) continue;
        const unsigned mask = (1u << a.length) - 1;
        CHECK_MSG((b.codeword & mask) != a.codeword, "table %d, context %d: codeword %d is a prefix of codeword %d",
                  row, a.context, i, j);
      }
  const ht::EncodeTables &t = ht::encode_tables();
  int missing = 0;
  for (int row = 0; row < 2; ++row)
    for (int c = 0; c < 8; ++c)
      for (int rho = 0; rho < 16; ++rho)
        for (int emb = 0; emb < 16; ++emb) {
          if ((emb & rho) != emb || (c == 0 && rho == 0)) continue;
          if (t.code[row][c][rho][emb].length == 0) ++missing;
        }
  CHECK_MSG(missing == 0, "%d (context, rho, emb) without a codeword", missing);
  // Context 0, rho 0 sends nothing (MEL says the quad is empty).
  CHECK(t.code[0][0][0][0].length == 0 && t.code[1][0][0][0].length == 0);
}

std::vector<std::uint8_t> code_block(const std::vector<std::int32_t> &samples, int w, int h, int capacity,
                                     t1::BlockResult &res) {
  const ht::EncodeTables &t = ht::encode_tables();
  std::vector<std::uint8_t> work(t1::block_work_bytes(w, h)), out(std::size_t(capacity) + 8, 0xAB);
  int lengths[1] = {0};
  std::int64_t distortion[1] = {0};
  const t1::BlockInput in{samples.data(), w, h, w, t1::Orientation::LL, 16, ht::kStyleHt};
  const t1::BlockOutput o{work.data(), out.data(), capacity, lengths, 1, distortion};
  res = ht::encode_ht_block(in, o, t);
  for (int i = capacity; i < capacity + 8; ++i) CHECK_MSG(out[i] == 0xAB, "byte %d past the room written", i);
  out.resize(std::size_t(capacity));
  return out;
}

// One quad, first row, context 0: TL +1, BL -1, TR 0, BR -1. rho = 1011b,
// every exponent 1 = kappa, so u = 0 and each sample sends its sign alone:
// MagSgn 0, 1, 1 then ones to the byte: 0xFE. MEL: significant (a 0 at
// state 0, no run bits). VLC: the table's codeword for context 0, rho 11,
// u_off 0 (0x37, 7 bits), after the 4 bits Scup keeps: the first byte
// fills at 7 bits as 0x7F (after 0xFF, a stuffed 0), the remaining 0110
// shares the last MEL byte (0x06). Scup = 3 (MEL 1, VLC 2): 73 00.
void quad() {
  t1::BlockResult res;
  const std::vector<std::uint8_t> out = code_block({1, 0, -1, -1}, 2, 2, 64, res);
  CHECK_MSG(res.status == t1::BlockStatus::kOk && res.passes == 1 && res.bytes == 4,
            "2x2 block: status %d, %d passes, %d bytes", int(res.status), res.passes, res.bytes);
  const std::vector<std::uint8_t> expected = {0xFE, 0x06, 0x73, 0x00};
  CHECK_MSG(std::vector<std::uint8_t>(out.begin(), out.begin() + 4) == expected,
            "2x2 block: %02X %02X %02X %02X, expected FE 06 73 00", out[0], out[1], out[2], out[3]);
  // The codeword for rho 11 in context 0 of the first row, u_off 0.
  bool found = false;
  for (int i = 0; i < ht::kVlcFirstRowEntries; ++i) {
    const ht::VlcEntry &e = ht::kVlcFirstRow[i];
    if (e.context == 0 && e.rho == 11 && e.u_off == 0) found = e.codeword == 0x37 && e.length == 7;
  }
  CHECK_MSG(found, "first-row table: context 0, rho 11, u_off 0 is not 0x37 in 7 bits");
  CHECK_MSG(res.zero_bitplanes == 15, "2x2 block of magnitude 1 under Mb 16: P = %d", res.zero_bitplanes);
}

void empty_and_capacity() {
  t1::BlockResult res;
  code_block(std::vector<std::int32_t>(64, 0), 8, 8, 64, res);
  CHECK(res.status == t1::BlockStatus::kOk && res.passes == 0 && res.bytes == 0);
  std::vector<std::int32_t> noise(4096);
  std::uint32_t x = 1;
  for (std::int32_t &v : noise) x = x * 1664525u + 1013904223u, v = std::int32_t(x >> 17) - 16384;
  code_block(noise, 64, 64, 200, res);
  CHECK_MSG(res.status == t1::BlockStatus::kOverflow && res.bytes > 200,
            "64x64 noise in 200 bytes: status %d, %d bytes", int(res.status), res.bytes);
  const int needed = res.bytes;
  code_block(noise, 64, 64, needed, res);
  CHECK_MSG(res.status == t1::BlockStatus::kOk && res.bytes == needed, "in the room it asked for: status %d, %d bytes",
            int(res.status), res.bytes);
}

void candidates() {
  std::vector<std::int32_t> v(32 * 16);
  std::uint32_t x = 7;
  for (std::int32_t &s : v) x = x * 1664525u + 1013904223u, s = std::int32_t(x >> 22) - 512;  // 10 planes
  const ht::EncodeTables &t = ht::encode_tables();
  std::vector<std::uint8_t> work(t1::block_work_bytes(32, 16)), all(20000), one(4000);
  int lengths[32] = {}, one_length[1] = {};
  std::int64_t distortion[32] = {}, one_distortion[1] = {};
  const t1::BlockInput in{v.data(), 32, 16, 32, t1::Orientation::HL, 16, ht::kStyleHt | ht::kCandidatePlanes};
  const t1::BlockResult res = ht::encode_ht_block(in, {work.data(), all.data(), 20000, lengths, 32, distortion}, t);
  const t1::BlockInput in0{v.data(), 32, 16, 32, t1::Orientation::HL, 16, ht::kStyleHt};
  const t1::BlockResult r0 =
      ht::encode_ht_block(in0, {work.data(), one.data(), 4000, one_length, 1, one_distortion}, t);
  CHECK_MSG(res.status == t1::BlockStatus::kOk && res.passes == 10, "candidates: status %d, %d of 10", int(res.status),
            res.passes);
  int offset = 0;
  std::int64_t sum = 0;
  for (int i = 0; i < res.passes; ++i) {
    CHECK_MSG(i == 0 || lengths[i] >= lengths[i - 1], "candidate %d shorter than %d", i, i - 1);
    CHECK_MSG(distortion[i] >= 0, "candidate %d adds distortion", i);
    sum += distortion[i];
    if (i + 1 < res.passes) offset += lengths[i];
  }
  CHECK_MSG(offset + lengths[res.passes - 1] == res.bytes, "candidates' lengths add to %d, not %d",
            offset + lengths[res.passes - 1], res.bytes);
  CHECK_MSG(
      lengths[res.passes - 1] == r0.bytes && std::vector<std::uint8_t>(all.begin() + offset, all.begin() + res.bytes) ==
                                                 std::vector<std::uint8_t>(one.begin(), one.begin() + r0.bytes),
      "the plane-0 candidate differs from the single cleanup pass");
  CHECK_MSG(sum == one_distortion[0], "candidates' distortions add to %lld, the exact one %lld", (long long)sum,
            (long long)one_distortion[0]);
}

// A window of planes gives the exhaustive candidates of those planes: the
// same distortions (candidate 0's counts every plane above it), lengths no
// longer (the exhaustive ones may be padded to their predecessor's), the
// same bytes where the lengths agree; windows past the block's planes are
// clamped.
void windows() {
  std::vector<std::int32_t> v(32 * 16);
  std::uint32_t x = 7;
  for (std::int32_t &s : v) x = x * 1664525u + 1013904223u, s = std::int32_t(x >> 22) - 512;  // 10 planes
  const ht::EncodeTables &t = ht::encode_tables();
  std::vector<std::uint8_t> work(t1::block_work_bytes(32, 16)), all(20000), some(8000);
  int lengths[32] = {}, window_lengths[32] = {};
  std::int64_t distortion[32] = {}, window_distortion[32] = {};
  const t1::BlockInput in{v.data(), 32, 16, 32, t1::Orientation::HL, 16, ht::kStyleHt | ht::kCandidatePlanes};
  const t1::BlockResult res = ht::encode_ht_block(in, {work.data(), all.data(), 20000, lengths, 32, distortion}, t);
  int offsets[32] = {};
  for (int i = 1; i < res.passes; ++i) offsets[i] = offsets[i - 1] + lengths[i - 1];
  struct Case {
    t1::PlaneWindow window;
    int first, count;
  };
  for (const Case &c : {Case{{6, 3}, 6, 3}, Case{{9, 1}, 9, 1}, Case{{20, 3}, 9, 3}, Case{{1, 3}, 1, 2}}) {
    const t1::BlockResult w =
        ht::encode_ht_block(in, {work.data(), some.data(), 8000, window_lengths, 32, window_distortion}, t, c.window);
    CHECK_MSG(w.status == t1::BlockStatus::kOk && w.passes == c.count, "window (%d, %d): status %d, %d candidates",
              c.window.top, c.window.count, int(w.status), w.passes);
    std::int64_t sum = 0, exhaustive = 0;
    for (int i = 0; i <= 9 - c.first; ++i) exhaustive += distortion[i];
    for (int i = 0, at = 0; i < w.passes; ++i) {
      const int j = 9 - (c.first - i);  // the exhaustive candidate of the same plane
      if (i > 0) exhaustive += distortion[j];
      sum += window_distortion[i];
      CHECK_MSG(sum == exhaustive, "window (%d, %d), plane %d: distortion %lld, exhaustively %lld", c.window.top,
                c.window.count, c.first - i, (long long)sum, (long long)exhaustive);
      CHECK_MSG(window_lengths[i] <= lengths[j] &&
                    (window_lengths[i] < lengths[j] ||
                     std::equal(some.begin() + at, some.begin() + at + window_lengths[i], all.begin() + offsets[j])),
                "window (%d, %d), plane %d: %d bytes, exhaustively %d, or other bytes", c.window.top, c.window.count,
                c.first - i, window_lengths[i], lengths[j]);
      at += window_lengths[i];
    }
  }
}

// The plane estimates: the quad rule worked by hand, then a block's
// estimates against its candidates (the same distortions, lengths that
// never fall).
void estimates() {
  // One sample of magnitude 5 in a 4 x 2 block (two quads, the second
  // empty). Plane 0: e_max = bit length of 9 = 4, 68 + (32 - 7) = 93
  // eighths, plus 1 for the empty quad: 94 -> 2 bytes. Plane 1 (mu 2,
  // e_max 2): 68 + 9 + 1 = 78 -> 2 bytes. Plane 2 (mu 1, e_max 1): 68 + 1 + 1
  // = 70 -> 2 bytes.
  std::int32_t tiny[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  tiny[4 + 1] = -5;  // row 1, column 1
  const t1::BlockInput small{tiny, 4, 2, 4, t1::Orientation::LL, 16, ht::kStyleHt | ht::kCandidatePlanes};
  // Planes 2, 1, 0 in one pass, then each as the top of a pass of its own;
  // plane 3 (nothing significant): 1 eighth a quad.
  const ht::PlaneEstimates from2 = ht::block_estimates(small, 2, 0);
  const auto eighths = [&](int plane) { return (long long)ht::block_estimates(small, plane, 0).at[0].eighths; };
  CHECK_MSG(
      from2.at[0].eighths == 70 && from2.at[1].eighths == 78 && from2.at[2].eighths == 94 && from2.at[3].eighths == 0,
      "estimates of one sample of 5 from plane 2 down: %lld, %lld, %lld, %lld eighths; 70, 78, 94, 0 by hand",
      (long long)from2.at[0].eighths, (long long)from2.at[1].eighths, (long long)from2.at[2].eighths,
      (long long)from2.at[3].eighths);
  CHECK_MSG(eighths(0) == 94 && eighths(1) == 78 && eighths(2) == 70 && eighths(3) == 2,
            "estimates of one sample of 5: %lld, %lld, %lld, %lld eighths; 94, 78, 70, 2 by hand", eighths(0),
            eighths(1), eighths(2), eighths(3));

  std::vector<std::int32_t> v(32 * 16);
  std::uint32_t x = 7;
  for (std::int32_t &s : v) x = x * 1664525u + 1013904223u, s = std::int32_t(x >> 22) - 512;
  const ht::EncodeTables &t = ht::encode_tables();
  std::vector<std::uint8_t> work(t1::block_work_bytes(32, 16)), all(20000);
  int lengths[32] = {}, estimated[32] = {};
  std::int64_t distortion[32] = {}, estimated_distortion[32] = {};
  const t1::BlockInput in{v.data(), 32, 16, 32, t1::Orientation::HL, 16, ht::kStyleHt | ht::kCandidatePlanes};
  const t1::BlockResult res = ht::encode_ht_block(in, {work.data(), all.data(), 20000, lengths, 32, distortion}, t);
  const t1::BlockResult e = ht::estimate_ht_block(in, {nullptr, nullptr, 1 << 30, estimated, 32, estimated_distortion});
  CHECK_MSG(e.status == t1::BlockStatus::kOk && e.passes == res.passes && e.zero_bitplanes == res.zero_bitplanes,
            "estimates: status %d, %d planes; the candidates %d", int(e.status), e.passes, res.passes);
  for (int i = 0; i < res.passes; ++i)
    CHECK_MSG(estimated_distortion[i] == distortion[i] && (i == 0 || estimated[i] >= estimated[i - 1]),
              "estimate %d: distortion %lld (candidate's %lld), %d bytes after %d", i,
              (long long)estimated_distortion[i], (long long)distortion[i], estimated[i], i ? estimated[i - 1] : 0);
}

}  // namespace

// A cleanup pass's gain against its definition: a significant sample of
// magnitude m (after the shift) rebuilt at the middle r of its interval
// at plane p, the error 2m + 1 falling to 2m + 1 - r, squared, in 64 bits;
// magnitudes up to the 2^24 the shift keeps them under.
void gains() {
  std::uint32_t x = 11;
  int mismatches = 0;
  for (int i = 0; i < 200000; ++i) {
    x = x * 1664525u + 1013904223u;
    const int shift = int(x >> 28) % 8, plane = int(x >> 23) % 24;
    x = x * 1664525u + 1013904223u;
    const std::uint32_t magnitude = (x >> (i % 8)) & ((1u << (24 + shift)) - 1u);
    const std::int64_t m = magnitude >> shift, p = plane > shift ? plane - shift : 0;
    std::int64_t expected = 0;
    if ((m >> p) != 0) {
      const std::int64_t t = 2 * m + 1, r = 2 * ((m >> p) << p) + (std::int64_t(1) << p);
      expected = t * t - (t - r) * (t - r);
    }
    const std::int32_t v = (i & 1) ? -std::int32_t(magnitude) : std::int32_t(magnitude);
    mismatches +=
        ht::magnitude_gain(magnitude, plane, shift) != expected || ht::cleanup_gain(v, plane, shift) != expected;
  }
  CHECK_MSG(mismatches == 0, "cleanup gains: %d of 200000 differ from the definition", mismatches);
}

int main() {
  mel();
  uvlc();
  vlc_tables();
  quad();
  empty_and_capacity();
  candidates();
  windows();
  estimates();
  gains();
  std::printf("MEL, U-VLC, CxtVLC tables, a quad's MagSgn and a block's segment checked\n");
  return cft::test_result();
}
