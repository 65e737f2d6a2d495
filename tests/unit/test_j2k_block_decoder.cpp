// The tier-1 code-block decoder (core/shared/j2k_block_decoder_rules.hpp):
//  1. random blocks (4x4 to 64x64, odd sizes, the four orientations,
//     magnitudes up to 2^20, all 64 combinations of the six style
//     switches) coded by encode_block (which test_j2k_block_coder checks
//     against T.800 and OpenJPEG), then decoded from every prefix of their
//     passes, the codeword cut at the encoder's truncation point and split
//     into segments by the layout of T.800 D.4 written out here. Each
//     sample must come back as the original's bits down to the plane those
//     passes reached for it, plus half of that plane (r = 1/2), which the
//     test works out from the original magnitudes alone: the cleanup pass
//     of a plane codes every sample, its refinement pass the samples
//     significant before it, and its significance propagation pass the
//     insignificant samples with a significant neighbour at their turn in
//     the scan (simulated here from the magnitudes). All passes: exact.
//  2. segmentation symbols that are not 1010: kCorrupt, the samples kept;
//  3. hostile input: random and damaged codewords with random parameters
//     never write outside the block or the work area, nor read outside the
//     data (exact-size buffers, for the sanitizer builds); every refused
//     parameter gives its status and leaves the output alone.
// The T.88 Annex H.2 sequence through MqDecoder is in test_j2k_mq.
#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "core/shared/j2k_block_coder_rules.hpp"
#include "core/shared/j2k_block_decoder_rules.hpp"

namespace t1 = cf::j2k::t1;
using Bytes = std::vector<std::uint8_t>;
using t1::BlockStatus;
using t1::Orientation;

namespace {

const Orientation kOrientations[] = {Orientation::LL, Orientation::HL, Orientation::LH, Orientation::HH};
const char *name_of(Orientation o) {
  return o == Orientation::LL ? "LL" : o == Orientation::HL ? "HL" : o == Orientation::LH ? "LH" : "HH";
}

struct Block {
  int width = 0, height = 0;
  std::vector<std::int32_t> v;  // row-major, stride = width
};

std::uint32_t magnitude_of(std::int32_t v) { return v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v); }

int planes_of(const Block &b) {
  std::uint32_t any = 0;
  for (std::int32_t v : b.v) any |= magnitude_of(v);
  int n = 0;
  while (n < 32 && (any >> n) != 0) ++n;
  return n;
}

// Wavelet-like: mostly small, some large, each a random bit length; at most
// `max_magnitude`.
Block random_block(std::mt19937 &rng, int w, int h, double density, int bits, std::uint32_t max_magnitude) {
  Block b{w, h, std::vector<std::int32_t>(std::size_t(w) * h)};
  std::uniform_real_distribution<double> u(0, 1);
  for (auto &v : b.v) {
    if (u(rng) >= density) continue;
    const int len = 1 + int(rng() % std::uint32_t(bits));
    const std::uint32_t m = std::min(std::uint32_t(rng()) & ((len >= 32 ? 0u : 1u << len) - 1), max_magnitude);
    v = (rng() & 1) ? -std::int32_t(m) : std::int32_t(m);
  }
  return b;
}

struct Encoded {
  t1::BlockResult res{};
  Bytes bytes;
  std::vector<int> lengths;  // truncation point after each pass
};

Encoded encode(const Block &b, Orientation o, int mb, unsigned style) {
  Encoded e;
  Bytes work(t1::block_work_bytes(b.width, b.height));
  e.bytes.resize(std::size_t(b.width) * b.height * 5 + 64);
  e.lengths.resize(std::max(1, t1::max_pass_count(mb)));
  const t1::BlockInput in{b.v.data(), b.width, b.height, b.width, o, mb, style};
  const t1::BlockOutput out{work.data(),      e.bytes.data(),        int(e.bytes.size()),
                            e.lengths.data(), int(e.lengths.size()), nullptr};
  e.res = t1::encode_block(in, out);
  e.bytes.resize(e.res.status == BlockStatus::kOk ? std::size_t(e.res.bytes) : 0);
  e.lengths.resize(std::size_t(e.res.passes));
  return e;
}

std::string style_name(unsigned style) {
  static const char *names[] = {"bypass", "reset", "restart", "causal", "predictable", "segmentation"};
  std::string s;
  for (int i = 0; i < 6; ++i)
    if (style & (1u << i)) s += std::string(s.empty() ? "" : "+") + names[i];
  return s.empty() ? "default" : s;
}

// The codeword's segments by the standard (T.800 D.4, Table D.9) for a block
// of `passes` passes: with restart, every pass ends one; with bypass, the
// first segment holds up to 10 passes (the top plane's cleanup pass and
// three planes), then segments of 2 raw passes (significance propagation,
// refinement) and 1 arithmetic one (cleanup) alternate; otherwise one
// segment. The last pass included always ends one.
std::vector<bool> segment_ends(unsigned style, int passes) {
  std::vector<bool> ends(std::size_t(passes), false);
  if (passes == 0) return ends;
  if (style & 0x04) {
    ends.assign(std::size_t(passes), true);
  } else if (style & 0x01) {
    int at = 10, next = 2;
    ends[std::size_t(std::min(at, passes) - 1)] = true;
    for (; at < passes; at += next, next = 3 - next) ends[std::size_t(std::min(at + next, passes) - 1)] = true;
  }
  ends.back() = true;
  return ends;
}

// The segment lengths of the first k passes, from the truncation points.
std::vector<int> segment_lengths(const Encoded &e, unsigned style, int k) {
  const std::vector<bool> ends = segment_ends(style, k);
  std::vector<int> lengths;
  int start = 0;
  for (int p = 0; p < k; ++p)
    if (ends[std::size_t(p)]) {
      lengths.push_back(e.lengths[std::size_t(p)] - start);
      start = e.lengths[std::size_t(p)];
    }
  return lengths;
}

// What the first k passes of a block whose top plane is `top` give for each
// sample (see the top of the file).
std::vector<std::int32_t> expected_samples(const Block &b, unsigned style, int top, int k) {
  const std::size_t n = b.v.size();
  std::vector<std::int32_t> want(n, 0);
  if (k == 0) return want;
  const int last = k - 1, plane = top - (last + 2) / 3, kind = (last + 2) % 3;  // 0 sig. prop., 1 refine, 2 cleanup
  // Which samples this plane's significance propagation pass codes: in the
  // stripe scan, an insignificant sample with a significant neighbour (the
  // row below a stripe excluded when vertically causal), the significance
  // growing as the pass goes.
  std::vector<char> coded(n, 0), sig(n, 0);
  if (kind != 2) {
    const int w = b.width, h = b.height;
    for (std::size_t i = 0; i < n; ++i) sig[i] = (magnitude_of(b.v[i]) >> (plane + 1)) != 0;
    auto sig_at = [&](int x, int y, int row) {
      if (x < 0 || y < 0 || x >= w || y >= h) return false;
      if ((style & 0x08) && y > row && row % 4 == 3) return false;
      return sig[std::size_t(y) * w + x] != 0;
    };
    for (int y0 = 0; y0 < h; y0 += 4)
      for (int x = 0; x < w; ++x)
        for (int y = y0; y < std::min(y0 + 4, h); ++y) {
          const std::size_t i = std::size_t(y) * w + x;
          if (sig[i]) continue;
          bool neighbour = false;
          for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) neighbour |= (dx || dy) && sig_at(x + dx, y + dy, y);
          if (!neighbour) continue;
          coded[i] = 1;
          sig[i] = (magnitude_of(b.v[i]) >> plane) & 1;
        }
  }
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t m = magnitude_of(b.v[i]);
    const bool known_here = kind == 2 || coded[i] || (kind == 1 && (m >> (plane + 1)) != 0);
    const int lowest = known_here ? plane : plane + 1;
    const std::uint32_t q = m >> lowest;
    if (q == 0) continue;
    const std::int64_t r = (std::int64_t(q) << lowest) + (lowest > 0 ? std::int64_t(1) << (lowest - 1) : 0);
    want[i] = std::int32_t(b.v[i] < 0 ? -r : r);
  }
  return want;
}

// An output block with a border of guard values (padding to the right of
// each row, rows above and below) and a work area with guard bytes after it.
constexpr std::int32_t kGuardSample = 0x5A5A5A5A;
constexpr std::uint8_t kGuardByte = 0xA5;
struct Target {
  int w, h, stride, pad_rows = 2;
  std::vector<std::int32_t> buf;
  Bytes work;
  Target(int w_, int h_) : w(w_), h(h_), stride(w_ + 3) {
    buf.assign(std::size_t(stride) * (h + 2 * pad_rows), kGuardSample);
    work.assign(std::size_t(std::max(0, t1::block_work_bytes(w, h))) + 16, kGuardByte);
  }
  std::int32_t *origin() { return buf.data() + std::size_t(stride) * pad_rows; }
  t1::DecodeOutput output() { return {origin(), stride, work.data()}; }
  std::int32_t at(int x, int y) const { return buf[std::size_t(stride) * (pad_rows + y) + x]; }
  // Guards intact; with `inside` too, the block itself untouched.
  bool guards_intact(bool inside = false) const {
    for (int y = -pad_rows; y < h + pad_rows; ++y)
      for (int x = 0; x < stride; ++x)
        if ((inside || y < 0 || y >= h || x >= w) && at(x, y) != kGuardSample) return false;
    const std::size_t used = work.size() - 16;
    for (std::size_t i = used; i < work.size(); ++i)
      if (work[i] != kGuardByte) return false;
    return true;
  }
};

t1::DecodeInput decode_input(const Bytes &data, const std::vector<int> &segs, const Block &b, Orientation o,
                             unsigned style, int mb, int zero, int passes) {
  return {data.data(), int(data.size()), segs.data(), int(segs.size()), b.width, b.height, o, style, mb, zero, passes};
}

struct Totals {
  int blocks = 0, decodes = 0, samples_checked = 0, corrupt_found = 0;
} g;

// Encodes the block, decodes every prefix of its passes (on large blocks a
// selection) and checks each against expected_samples.
void round_trip(const Block &b, Orientation o, int mb, unsigned style, const char *what) {
  const Encoded e = encode(b, o, mb, style);
  CHECK_MSG(e.res.status == BlockStatus::kOk, "%s: encoder status %d", what, int(e.res.status));
  if (e.res.status != BlockStatus::kOk) return;
  const int top = mb - e.res.zero_bitplanes - 1;
  ++g.blocks;
  const bool big = b.width * b.height > 1024;
  for (int k = 0; k <= e.res.passes; ++k) {
    if (big && k > 4 && k % 5 != 0 && k < e.res.passes - 2) continue;
    const std::vector<int> segs = segment_lengths(e, style, k);
    const int cut = k ? e.lengths[std::size_t(k - 1)] : 0;
    const Bytes data(e.bytes.begin(), e.bytes.begin() + cut);  // exactly the bytes sent
    Target t(b.width, b.height);
    const BlockStatus s =
        t1::decode_block(decode_input(data, segs, b, o, style, mb, e.res.zero_bitplanes, k), t.output());
    ++g.decodes;
    CHECK_MSG(s == BlockStatus::kOk, "%s: %d of %d passes: status %d", what, k, e.res.passes, int(s));
    CHECK_MSG(t.guards_intact(), "%s: %d passes: written outside the block or the work area", what, k);
    const std::vector<std::int32_t> want = expected_samples(b, style, top, k);
    int bad = 0;
    for (int y = 0; y < b.height; ++y)
      for (int x = 0; x < b.width; ++x) {
        const std::int32_t got = t.at(x, y), w = want[std::size_t(y) * b.width + x];
        ++g.samples_checked;
        if (got != w && bad++ < 3)
          CHECK_MSG(false, "%s: %d of %d passes (%d bytes): sample (%d, %d) = %d decoded %d, want %d", what, k,
                    e.res.passes, cut, x, y, b.v[std::size_t(y) * b.width + x], got, w);
      }
    if (k == e.res.passes) CHECK_MSG(want == b.v, "%s: all passes do not give the block back", what);
  }
}

void round_trips() {
  std::mt19937 rng(20240721);
  const int sizes[][2] = {{4, 4},  {13, 7},  {7, 13}, {8, 8},  {16, 16}, {5, 9},
                          {32, 8}, {17, 33}, {4, 64}, {64, 4}, {33, 31}, {64, 64}};
  const std::uint32_t kMax = 1u << 20;
  int count = 0;
  // Every style combination on every size, each orientation in turn.
  for (unsigned style = 0; style < 64; ++style)
    for (const auto &s : sizes) {
      if (s[0] * s[1] > 1024 && style % 4 != 0) continue;  // the large ones on a quarter of the styles
      const Orientation o = kOrientations[(style + unsigned(s[0])) % 4];
      const double density = (style + unsigned(s[1])) % 3 == 0 ? 0.05 : (style % 2 ? 0.5 : 1.0);
      const int bits = 1 + int(rng() % 21);
      const Block b = random_block(rng, s[0], s[1], density, bits, kMax);
      const int mb = std::min(t1::kMaxDecodeBitplanes, planes_of(b) + int(rng() % 3));
      char what[160];
      std::snprintf(what, sizeof what, "%dx%d %s density %.2f bits %d Mb %d style %s", s[0], s[1], name_of(o), density,
                    bits, mb, style_name(style).c_str());
      round_trip(b, o, mb, style, what);
      ++count;
    }
  // Extremes: all zero (no passes); Mb = 30 with magnitudes near 2^30; a
  // single sample; one full stripe column (the run position 0); all ones.
  Block z{16, 16, std::vector<std::int32_t>(256, 0)};
  round_trip(z, Orientation::LL, 7, 0, "all zero");
  Block m{7, 5, std::vector<std::int32_t>(35)};
  for (int i = 0; i < 35; ++i) m.v[std::size_t(i)] = (i % 2 ? -1 : 1) * ((1 << 30) - 1 - i * 12345);
  for (unsigned style : {0x00u, 0x3Fu, 0x15u, 0x2Au}) round_trip(m, Orientation::HH, 30, style, "magnitudes near 2^30");
  Block c{16, 16, std::vector<std::int32_t>(256, 0)};
  c.v[255] = -5;
  round_trip(c, Orientation::HL, 3, 0, "one sample in the last corner");
  c.v.assign(256, 0);
  for (int y = 4; y < 8; ++y) c.v[std::size_t(y) * 16 + 9] = 3;
  round_trip(c, Orientation::LL, 2, t1::kStyleVerticalCausal, "one full stripe column");
  c.v.assign(256, -1);
  round_trip(c, Orientation::LH, 1, 0x20, "all -1");
  std::printf("%d random blocks and 8 extremes: %d decodes, %d samples checked\n", count, g.decodes, g.samples_checked);
}

// Segmentation symbols (D.5) that are not 1010: a block coded with restart
// and without the symbols, each pass then ending its own segment, decoded
// as if they were there: the symbols after each cleanup pass come from the
// bits past the pass's segment (uniform context, state 46, which never
// adapts), so every sample decodes as before and the status is kCorrupt
// unless the fill happens to read 1010.
void wrong_segmentation_symbols() {
  std::mt19937 rng(5);
  int corrupt = 0, tries = 0;
  for (int rep = 0; rep < 40; ++rep) {
    const Block b = random_block(rng, 13, 7, 0.6, 8, 255);
    const int mb = planes_of(b);
    if (mb == 0) continue;
    const Encoded e = encode(b, Orientation::LL, mb, t1::kStyleRestart);
    const std::vector<int> segs = segment_lengths(e, t1::kStyleRestart, e.res.passes);
    Target t(b.width, b.height);
    const unsigned style = t1::kStyleRestart | t1::kStyleSegmentation;
    const BlockStatus s =
        t1::decode_block(decode_input(e.bytes, segs, b, Orientation::LL, style, mb, 0, e.res.passes), t.output());
    ++tries;
    corrupt += s == BlockStatus::kCorrupt;
    CHECK_MSG(s == BlockStatus::kCorrupt || s == BlockStatus::kOk, "status %d", int(s));
    bool same = true;
    for (int y = 0; y < b.height; ++y)
      for (int x = 0; x < b.width; ++x) same &= t.at(x, y) == b.v[std::size_t(y) * b.width + x];
    CHECK_MSG(same, "block %d: the samples differ once the symbols are read", rep);
  }
  std::printf("segmentation symbols: %d of %d blocks decoded without them read as corrupt\n", corrupt, tries);
  CHECK(corrupt > tries / 2);
  g.corrupt_found = corrupt;
}

// Refusals: each wrong parameter gives its status and leaves the output
// (and the work area) as it was.
void refusals() {
  std::mt19937 rng(11);
  const Block b = random_block(rng, 8, 8, 0.7, 6, 63);
  const int mb = 8;
  const Encoded e = encode(b, Orientation::HH, mb, 0);
  const int zero = e.res.zero_bitplanes, passes = e.res.passes;
  const std::vector<int> segs = segment_lengths(e, 0, passes);
  CHECK(segs.size() == 1 && passes >= 4 && zero >= 2);
  auto status = [&](t1::DecodeInput in, bool narrow_stride = false) {
    Target t(8, 8);
    t1::DecodeOutput out = t.output();
    if (narrow_stride) out.stride = in.width - 1;
    const BlockStatus s = t1::decode_block(in, out);
    if (s != BlockStatus::kOk) CHECK_MSG(t.guards_intact(true), "refused with status %d, the output touched", int(s));
    const bool clean_work = std::all_of(t.work.begin(), t.work.end(), [](std::uint8_t v) { return v == kGuardByte; });
    if (s != BlockStatus::kOk) CHECK_MSG(clean_work, "refused with status %d, the work area touched", int(s));
    return s;
  };
  const t1::DecodeInput ok = decode_input(e.bytes, segs, b, Orientation::HH, 0, mb, zero, passes);
  CHECK(status(ok) == BlockStatus::kOk);
  auto with = [&](auto change) {
    t1::DecodeInput in = ok;
    change(in);
    return status(in);
  };
  // Sizes, stride, style.
  CHECK(with([](t1::DecodeInput &in) { in.width = 0; }) == BlockStatus::kBadSize);
  CHECK(with([](t1::DecodeInput &in) { in.height = -3; }) == BlockStatus::kBadSize);
  CHECK(with([](t1::DecodeInput &in) { in.width = 1025; }) == BlockStatus::kBadSize);
  CHECK(with([](t1::DecodeInput &in) { in.width = 128, in.height = 64; }) == BlockStatus::kBadSize);
  CHECK(status(ok, true) == BlockStatus::kBadSize);
  for (unsigned s : {0x40u, 0x80u, 0x100u, 0x41u})
    CHECK(with([&](t1::DecodeInput &in) { in.style = s; }) == BlockStatus::kBadStyle);
  // Mb: 0..30.
  for (int m : {31, 32, 38, -1, INT_MAX})
    CHECK(with([&](t1::DecodeInput &in) { in.magnitude_bitplanes = m; }) == BlockStatus::kTooManyBitplanes);
  // P: 0..Mb.
  CHECK(with([](t1::DecodeInput &in) { in.zero_bitplanes = -1; }) == BlockStatus::kBadZeroBitplanes);
  CHECK(with([&](t1::DecodeInput &in) { in.zero_bitplanes = mb + 1; }) == BlockStatus::kBadZeroBitplanes);
  // Passes: at most 3 (Mb - P) - 2.
  const int most = 3 * (mb - zero) - 2;
  CHECK(with([&](t1::DecodeInput &in) { in.passes = most + 1; }) == BlockStatus::kBadPasses);
  CHECK(with([&](t1::DecodeInput &in) { in.passes = INT_MAX; }) == BlockStatus::kBadPasses);
  CHECK(with([](t1::DecodeInput &in) { in.passes = -1; }) == BlockStatus::kBadPasses);
  CHECK(with([&](t1::DecodeInput &in) { in.zero_bitplanes = mb, in.passes = 1; }) == BlockStatus::kBadPasses);
  // More passes than were coded: the decoder reads the 0xFF fill.
  CHECK(with([&](t1::DecodeInput &in) { in.zero_bitplanes = zero - 1, in.passes = most + 3; }) == BlockStatus::kOk);
  // Segments: one per codeword segment, none negative, none past the data.
  const int n = segs[0];
  const std::vector<int> two = {n / 2, n - n / 2}, zero_seg = {0}, negative = {-1}, past = {n + 1};
  const std::vector<int> huge = {INT_MAX, INT_MAX};
  CHECK(with([&](t1::DecodeInput &in) { in.segment_lengths = two.data(), in.segments = 2; }) ==
        BlockStatus::kBadSegments);
  CHECK(with([&](t1::DecodeInput &in) { in.segments = 0; }) == BlockStatus::kBadSegments);
  CHECK(with([&](t1::DecodeInput &in) { in.segment_lengths = nullptr; }) == BlockStatus::kBadSegments);
  CHECK(with([&](t1::DecodeInput &in) { in.segment_lengths = negative.data(); }) == BlockStatus::kBadSegments);
  CHECK(with([&](t1::DecodeInput &in) { in.segment_lengths = past.data(); }) == BlockStatus::kBadSegments);
  CHECK(with([&](t1::DecodeInput &in) { in.length = n - 1; }) == BlockStatus::kBadSegments);
  CHECK(with([&](t1::DecodeInput &in) { in.length = -1; }) == BlockStatus::kBadSegments);
  CHECK(with([&](t1::DecodeInput &in) { in.data = nullptr; }) == BlockStatus::kBadSegments);
  CHECK(with([&](t1::DecodeInput &in) { in.segment_lengths = zero_seg.data(); }) == BlockStatus::kOk);
  // Restart: one segment per pass; two segments summing past INT_MAX.
  const t1::DecodeInput restart = [&] {
    t1::DecodeInput in = ok;
    in.style = t1::kStyleRestart, in.passes = 2, in.length = INT_MAX, in.segment_lengths = huge.data(), in.segments = 2;
    return in;
  }();
  CHECK(status(restart) == BlockStatus::kBadSegments);
  // No passes: a block of zeros, whatever the data.
  Target t(8, 8);
  const Bytes none;
  CHECK(t1::decode_block(decode_input(none, {}, b, Orientation::LL, 0x3F, 30, 30, 0), t.output()) == BlockStatus::kOk);
  bool zeros = true;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) zeros &= t.at(x, y) == 0;
  CHECK(zeros && t.guards_intact());
}

// Hostile codewords: random bytes, and real codewords with bytes changed,
// under random valid parameters; each decodes (kOk or kCorrupt) inside its
// buffers. Exact-size buffers let the sanitizer builds see any stray read.
void hostile_codewords() {
  std::mt19937 rng(1234);
  int runs = 0, corrupt = 0;
  for (int rep = 0; rep < 3000; ++rep) {
    const int w = 1 + int(rng() % 40), h = 1 + int(rng() % 40);
    const unsigned style = rng() % 64;
    const int mb = int(rng() % 31);
    const int zero = mb ? int(rng() % unsigned(mb)) : 0;
    const int passes = mb ? int(rng() % unsigned(t1::max_pass_count(mb - zero) + 1)) : 0;
    Bytes data;
    if (rep % 2 == 0 || passes == 0) {
      data.resize(rng() % 200);
      for (auto &v : data) v = std::uint8_t(rng() % 4 == 0 ? 0xFF : rng());
    } else {  // a real codeword of a block of this size, damaged
      const Block b = random_block(rng, w, h, 0.5, mb, (1u << mb) - 1);
      const Encoded e = encode(b, kOrientations[rep % 4], mb, style);
      data = e.bytes;
      for (int i = 0; i < 3 && !data.empty(); ++i) data[rng() % data.size()] ^= std::uint8_t(1 + rng() % 255);
    }
    // Segment lengths summing to at most the data's length.
    const int segments = t1::segment_count(style, passes);
    std::vector<int> segs(std::size_t(segments), 0);
    int left = int(data.size());
    for (int &s : segs) left -= s = left ? int(rng() % unsigned(left + 1)) : 0;
    Block shape{w, h, {}};
    Target t(w, h);
    const BlockStatus s =
        t1::decode_block(decode_input(data, segs, shape, kOrientations[rep % 4], style, mb, zero, passes), t.output());
    CHECK_MSG(s == BlockStatus::kOk || s == BlockStatus::kCorrupt, "%dx%d style %s Mb %d P %d passes %d: status %d", w,
              h, style_name(style).c_str(), mb, zero, passes, int(s));
    CHECK_MSG(t.guards_intact(), "%dx%d style %s passes %d: written outside the block", w, h, style_name(style).c_str(),
              passes);
    // A sample never exceeds what Mb - P planes and the half plane allow.
    const std::int64_t bound = std::int64_t(1) << (mb - zero);
    bool in_range = true;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) in_range &= std::int64_t(t.at(x, y)) < bound && -std::int64_t(t.at(x, y)) < bound;
    CHECK_MSG(in_range, "%dx%d Mb %d P %d: a sample beyond 2^%d", w, h, mb, zero, mb - zero);
    ++runs;
    corrupt += s == BlockStatus::kCorrupt;
  }
  std::printf("hostile codewords: %d decoded inside their buffers (%d read as corrupt)\n", runs, corrupt);
}

}  // namespace

int main() {
  round_trips();
  wrong_segmentation_symbols();
  refusals();
  hostile_codewords();
  return cft::test_result();
}
