// The tier-1 code-block encoder (core/shared/j2k_block_coder_rules.hpp):
//  1. round trips through a decoder written here from T.800 Annex D (its own
//     scan, neighbourhoods, sign table, pass bookkeeping, codeword segments
//     and raw bits; only Table D.1 comes from j2k_tier1_rules.hpp, which
//     test_j2k_tier1_contexts checks against the standard): every size
//     class, sparse and dense, the four orientations, magnitudes up to
//     2^31 - 1, and all 64 combinations of the six style switches. All
//     passes give every coefficient back; the passes up to each truncation
//     point give the coefficients' bits those passes cover; segmentation
//     symbols read 1010; with predictable termination every segment's
//     length is the one the decoder predicts (D.4.2); each pass's
//     distortion is the difference of the whole block's squared errors
//     before and after it, recomputed from the definition.
//  2. OpenJPEG's opj_decompress decodes one code-block wrapped in a
//     codestream (levels 0, one 64x64 block, COD carrying the style, its
//     packet header written here by hand from T.800 B.10, one length per
//     codeword segment) back to the image; exits 77 without it.
//  3. The refusals (size, style, bit-planes, arrays) and an output buffer
//     too small: overflow reported, nothing written past it.
//  4. Rate control's parts: a block coded down to a window's lowest plane
//     decodes to every bit down to that plane; the plane estimates
//     (j2k_plane_estimate_rules.hpp) of a block worked by hand.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "core/codec/j2k_markers.hpp"
#include "core/shared/j2k_block_coder_rules.hpp"
#include "core/shared/j2k_mq_rules.hpp"
#include "core/shared/j2k_plane_estimate_rules.hpp"
#include "frames.hpp"
#include "pnm.hpp"
#include "shell.hpp"

namespace t1 = cf::j2k::t1;
using Bytes = std::vector<std::uint8_t>;
using t1::Orientation;

namespace {

const char *name_of(Orientation o) {
  return o == Orientation::LL ? "LL" : o == Orientation::HL ? "HL" : o == Orientation::LH ? "LH" : "HH";
}

struct Block {
  int width = 0, height = 0;
  std::vector<std::int32_t> v;  // row-major, stride = width
};

struct Encoded {
  t1::BlockResult res{};
  Bytes bytes;
  std::vector<int> lengths;
  std::vector<std::int64_t> distortion;
};

Encoded encode(const Block &b, Orientation o, int mb, unsigned style, t1::PlaneWindow window = {}) {
  Encoded e;
  std::vector<std::uint8_t> work(t1::block_work_bytes(b.width, b.height));
  e.bytes.resize(std::size_t(b.width) * b.height * 5 + 64);
  e.lengths.resize(t1::max_pass_count(mb));
  e.distortion.resize(e.lengths.size(), -1);
  const t1::BlockInput in{b.v.data(), b.width, b.height, b.width, o, mb, style};
  const t1::BlockOutput out{work.data(),      e.bytes.data(),        int(e.bytes.size()),
                            e.lengths.data(), int(e.lengths.size()), e.distortion.data()};
  e.res = t1::encode_block(in, out, nullptr, window);
  e.bytes.resize(e.res.status == t1::BlockStatus::kOk ? e.res.bytes : 0);
  e.lengths.resize(e.res.passes);
  e.distortion.resize(e.res.passes);
  return e;
}

std::string style_name(unsigned style) {
  static const char *names[] = {"bypass", "reset", "restart", "causal", "predictable", "segmentation"};
  std::string s;
  for (int i = 0; i < 6; ++i)
    if (style & (1u << i)) s += std::string(s.empty() ? "" : "+") + names[i];
  return s.empty() ? "default" : s;
}

// ---------------------------------------------------------------------------
// The codeword's layout by the standard (T.800 D.4, Table D.9), stated as a
// decoder reads it: with bypass, the first segment holds 10 passes (the
// cleanup pass of the top plane and three planes), then segments of 2 raw
// passes (significance propagation, refinement) and 1 arithmetic one
// (cleanup) alternate; with restart, every pass is a segment; otherwise the
// codeword is one segment.
std::vector<bool> segment_ends(unsigned style, int passes) {
  std::vector<bool> ends(passes, false);
  if (passes == 0) return ends;
  if (style & 0x04) {
    ends.assign(passes, true);
  } else if (style & 0x01) {
    int at = 10, next = 2;  // passes in the next segment
    ends[std::min(at, passes) - 1] = true;
    for (; at < passes; at += next, next = 3 - next) ends[std::min(at + next, passes) - 1] = true;
  }
  ends.back() = true;
  return ends;
}
// Raw passes: with bypass, the significance propagation and refinement
// passes from the fifth bit-plane coded on.
bool raw_pass(unsigned style, int pass) { return (style & 0x01) && pass >= 10 && (pass + 2) % 3 != 2; }

// ---------------------------------------------------------------------------
// The decoder of T.800 Annex D with every style switch, kept apart from the
// encoder's structure.

// Table D.3: sign context label and XOR bit from the clamped horizontal and
// vertical contributions, indexed [H + 1][V + 1].
const int kSignLabel[3][3] = {{13, 12, 11}, {10, 9, 10}, {11, 12, 13}};
const int kSignXor[3][3] = {{1, 1, 1}, {1, 0, 0}, {0, 0, 0}};
// Table D.7: initial states; MPS 0.
int initial_index(int label) { return label == 0 ? 4 : label == 17 ? 3 : label == 18 ? 46 : 0; }

// Raw bits (D.6): the most significant first, 7 bits in a byte after 0xFF,
// 1s past the end.
struct RawReader {
  const std::uint8_t *data = nullptr;
  int len = 0, pos = 0, left = 0;
  std::uint8_t cur = 0;
  bool bad_stuffing = false;
  int byte_at(int i) const { return i < len ? data[i] : 0xFF; }
  void init(const std::uint8_t *d, int n) { data = d, len = n, pos = 0, left = 0; }
  bool after_ff() const { return pos > 0 && byte_at(pos - 1) == 0xFF; }
  int bit() {
    if (left == 0) {
      left = after_ff() ? 7 : 8;
      cur = std::uint8_t(byte_at(pos++));
      if (left == 7 && (cur & 0x80)) bad_stuffing = true;
    }
    return (cur >> --left) & 1;
  }
  // Predictable termination of a raw segment: the last byte's unread bits
  // are 0101..., a last 0xFF is followed by 0x2A (its stuffed bit, then the
  // pattern), and nothing else follows.
  bool predictable_end() const {
    for (int i = left - 1, v = 0; i >= 0; --i, v ^= 1)
      if (((cur >> i) & 1) != v) return false;
    if (left == 0 && after_ff()) return pos + 1 == len && data[pos] == 0x2A;
    return pos == len;
  }
};

struct Decoder {
  int w, h;
  Orientation o;
  unsigned style;
  bool causal, reset;
  std::vector<std::uint64_t> mag;
  std::vector<int> sig, neg, refined, coded_now, known;  // known: lowest plane whose bit was decoded
  cf::j2k::MqDecoder mq;
  cf::j2k::MqContext cx[19];
  RawReader raw;
  bool raw_now = false;
  // A mirror of the MQ coder's interval A (C.3) and the renormalisation
  // shifts in the current segment, for the predictable termination check.
  std::uint32_t a = 0x8000;
  long shifts = 0;
  int bad_segmentation_symbols = 0;
  int mq_terminations = 0, mq_predictable = 0;

  Decoder(int w_, int h_, Orientation o_, unsigned style_)
      : w(w_),
        h(h_),
        o(o_),
        style(style_),
        causal(style_ & 0x08),
        reset(style_ & 0x02),
        mag(w * h),
        sig(w * h),
        neg(w * h),
        refined(w * h),
        coded_now(w * h),
        known(w * h) {
    init_contexts();
  }
  void init_contexts() {
    for (int c = 0; c < 19; ++c) cx[c] = cf::j2k::mq_context(initial_index(c), 0);
  }
  int mq_decide(int label) {
    const cf::j2k::MqContext before = cx[label];
    const int d = mq.decode(cx[label]);
    // The value was in the lower sub-interval (size Qe) when an MPS came
    // with the exchange or an LPS without it; renormalisation doubles A.
    const std::uint32_t qe = before.qe(), rest = a - qe;
    a = ((d == before.mps()) == (rest < qe)) ? qe : rest;
    while ((a & 0x8000) == 0) a <<= 1, ++shifts;
    return d;
  }
  int decide(int label) { return raw_now ? raw.bit() : mq_decide(label); }
  // Is (x, y) a significant neighbour of a sample in row `row`? Outside the
  // block: no; vertically causal: the row below a stripe's last row is out.
  bool sig_at(int x, int y, int row) const {
    if (x < 0 || y < 0 || x >= w || y >= h) return false;
    if (causal && y > row && row % 4 == 3) return false;
    return sig[y * w + x] != 0;
  }
  int contribution(int x, int y, int row) const { return sig_at(x, y, row) ? (neg[y * w + x] ? -1 : 1) : 0; }
  int label_significance(int x, int y) const {
    const int hc = sig_at(x - 1, y, y) + sig_at(x + 1, y, y);
    const int vc = sig_at(x, y - 1, y) + sig_at(x, y + 1, y);
    const int dc =
        sig_at(x - 1, y - 1, y) + sig_at(x + 1, y - 1, y) + sig_at(x - 1, y + 1, y) + sig_at(x + 1, y + 1, y);
    return t1::significance_context(o, hc, vc, dc);
  }
  bool any_neighbour(int x, int y) const {
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx)
        if ((dx || dy) && sig_at(x + dx, y + dy, y)) return true;
    return false;
  }
  void decode_sign(int x, int y, int plane) {
    const int i = y * w + x;
    if (raw_now) {
      neg[i] = raw.bit();
    } else {
      auto clamp = [](int v) { return std::max(-1, std::min(1, v)); };
      const int hh = clamp(contribution(x - 1, y, y) + contribution(x + 1, y, y));
      const int vv = clamp(contribution(x, y - 1, y) + contribution(x, y + 1, y));
      neg[i] = mq_decide(kSignLabel[hh + 1][vv + 1]) ^ kSignXor[hh + 1][vv + 1];
    }
    sig[i] = 1;
    mag[i] |= std::uint64_t(1) << plane;
  }
  void significance_bit(int x, int y, int plane) {
    const int i = y * w + x;
    known[i] = plane;
    if (decide(label_significance(x, y))) decode_sign(x, y, plane);
  }
  // Stripe scan written out: stripes of 4 rows, columns, rows.
  template <class F>
  void scan(F f) {
    for (int y0 = 0; y0 < h; y0 += 4)
      for (int x = 0; x < w; ++x)
        for (int y = y0; y < std::min(y0 + 4, h); ++y) f(x, y);
  }
  void spp(int plane) {
    scan([&](int x, int y) {
      const int i = y * w + x;
      if (!sig[i] && any_neighbour(x, y)) {
        coded_now[i] = 1;
        significance_bit(x, y, plane);
      }
    });
  }
  void mrp(int plane) {
    scan([&](int x, int y) {
      const int i = y * w + x;
      if (!sig[i] || coded_now[i]) return;
      const int label = refined[i] ? 16 : any_neighbour(x, y) ? 15 : 14;
      mag[i] |= std::uint64_t(decide(label)) << plane;
      known[i] = plane;
      refined[i] = 1;
    });
  }
  void cup(int plane) {
    for (int y0 = 0; y0 < h; y0 += 4)
      for (int x = 0; x < w; ++x) {
        int y = y0;
        const int end = std::min(y0 + 4, h);
        bool run = end - y0 == 4;
        for (int k = y0; run && k < end; ++k) run = !sig[k * w + x] && !coded_now[k * w + x] && !any_neighbour(x, k);
        if (run) {
          if (mq_decide(17) == 0) {
            for (int k = y0; k < end; ++k) known[k * w + x] = plane;
            y = end;
          } else {
            int r = mq_decide(18) << 1;
            r |= mq_decide(18);
            for (int k = y0; k < y0 + r; ++k) known[k * w + x] = plane;
            known[(y0 + r) * w + x] = plane;
            decode_sign(x, y0 + r, plane);
            y = y0 + r + 1;
          }
        }
        for (; y < end; ++y)
          if (!sig[y * w + x] && !coded_now[y * w + x]) significance_bit(x, y, plane);
        for (int k = y0; k < end; ++k) coded_now[k * w + x] = 0;
      }
    if (style & 0x20) {  // D.5: the segmentation symbol 1010
      int v = 0;
      for (int i = 0; i < 4; ++i) v = v << 1 | mq_decide(18);
      bad_segmentation_symbols += v != 0xA;
    }
  }
  // The predictable termination of an MQ segment of `length` bytes (D.4.2):
  // it holds the bytes that carry the codeword's first S bits (S: the
  // shifts), 8 bits a byte, 7 after 0xFF, less a last 0xFF.
  bool mq_predictable_end(const std::uint8_t *data, int length) const {
    auto byte_at = [&](int i) { return i < length ? data[i] : 0xFF; };
    long bits = 0;
    int j = 0;
    while (bits < shifts) bits += (j > 0 && byte_at(j - 1) == 0xFF) ? 7 : 8, ++j;
    const int predicted = (j > 0 && byte_at(j - 1) == 0xFF) ? j - 1 : j;
    return predicted == length;
  }

  // Decodes the first `passes` passes of a block whose top plane is `top`
  // from data cut at lengths[passes - 1], segments ending where `ends` says
  // (at lengths[p] for a pass p that ends one). after_pass(p) runs after
  // each pass; every segment complete in the data counts in `terminations`,
  // and in `predictable` when its termination is predictable.
  template <class F>
  void run(const std::uint8_t *data, const std::vector<int> &lengths, const std::vector<bool> &ends, int passes,
           int top, F after_pass, int &terminations, int &predictable) {
    std::fill(known.begin(), known.end(), top + 1);
    int start = 0;
    for (int p = 0; p < passes; ++p) {
      if (p == 0 || ends[p - 1]) {  // a segment starts
        start = p == 0 ? 0 : lengths[p - 1];
        int last = p;
        while (last < passes - 1 && !ends[last]) ++last;
        const int length = lengths[last] - start;
        raw_now = raw_pass(style, p);
        if (raw_now)
          raw.init(data + start, length);
        else
          mq.init(data + start, length);
        a = 0x8000, shifts = 0;
      }
      const int plane = top - (p + 2) / 3;
      const int kind = (p + 2) % 3;  // 0 significance, 1 refinement, 2 cleanup
      if (kind == 0) spp(plane);
      if (kind == 1) mrp(plane);
      if (kind == 2) cup(plane);
      if (ends[p]) {
        ++terminations;
        const int length = lengths[p] - start;
        const bool ok = raw_now ? raw.predictable_end() : mq_predictable_end(data + start, length);
        predictable += ok;
        if (!raw_now) ++mq_terminations, mq_predictable += ok;
      }
      if (reset) init_contexts();
      after_pass(p);
    }
  }
};

std::uint64_t magnitude_of(std::int32_t v) { return v < 0 ? std::uint64_t(-std::int64_t(v)) : std::uint64_t(v); }

int planes_of(const Block &b) {
  std::uint64_t any = 0;
  for (std::int32_t v : b.v) any |= magnitude_of(v);
  int n = 0;
  while (any >> n) ++n;
  return n;
}

// The block's squared error in half-units when each sample i is known down
// to plane known[i] (the definition in j2k_block_coder_rules.hpp, written
// out again): T = 2m + 1; R = 2 * ((m >> p) << p) + 2^p for a significant
// sample, 0 otherwise; blocks above 24 planes measured at m >> s, planes
// max(p - s, 0), s = planes - 24.
std::int64_t block_error(const Block &b, const std::vector<int> &known, int planes) {
  const int s = std::max(0, planes - 24);
  std::int64_t sum = 0;
  for (std::size_t i = 0; i < b.v.size(); ++i) {
    const std::int64_t m = std::int64_t(magnitude_of(b.v[i]) >> s);
    const int p = std::max(known[i] - s, 0);
    const std::int64_t t = 2 * m + 1;
    const std::int64_t q = m >> p;
    const std::int64_t r = q ? 2 * (q << p) + (std::int64_t(1) << p) : 0;
    sum += (t - r) * (t - r);
  }
  return sum;
}

// Totals over the round trips: segments terminated, and of them those that
// pass the predictable termination check: all with style 0x10, the MQ ones
// (ended by FLUSH) without.
struct TerminationCount {
  int with = 0, with_ok = 0, without = 0, without_ok = 0;
  int raw_passes = 0, segmentation_symbols = 0;
} g_terms;

// Encodes, decodes every prefix of passes and checks what it gives.
void round_trip(const Block &b, Orientation o, int mb, unsigned style, const char *what) {
  const Encoded e = encode(b, o, mb, style);
  const int planes = planes_of(b);
  const t1::BlockResult &r = e.res;
  CHECK_MSG(r.status == t1::BlockStatus::kOk, "%s: status %d", what, int(r.status));
  if (r.status != t1::BlockStatus::kOk) return;
  const int want_passes = planes ? 3 * planes - 2 : 0;
  CHECK_MSG(r.passes == want_passes && r.zero_bitplanes == mb - planes, "%s: %d passes, P %d; expected %d passes, P %d",
            what, r.passes, r.zero_bitplanes, want_passes, mb - planes);
  if (planes == 0) {
    CHECK_MSG(r.bytes == 0, "%s: all-zero block coded in %d bytes", what, r.bytes);
    return;
  }
  if (r.passes != want_passes) return;
  CHECK_MSG(r.distortion_shift == std::max(0, planes - 24), "%s: distortion shift %d for %d planes", what,
            r.distortion_shift, planes);
  const std::vector<bool> ends = segment_ends(style, r.passes);
  for (int p = 0; p < r.passes; ++p) {
    CHECK_MSG(e.lengths[p] >= 0 && e.lengths[p] <= r.bytes && (p == 0 || e.lengths[p] >= e.lengths[p - 1]),
              "%s: pass %d length %d (previous %d, codeword %d)", what, p, e.lengths[p], p ? e.lengths[p - 1] : 0,
              r.bytes);
    CHECK_MSG(t1::pass_ends_segment(style, p, r.passes) == ends[p], "%s: pass %d of %d ends a segment: %d, expected %d",
              what, p, r.passes, int(t1::pass_ends_segment(style, p, r.passes)), int(ends[p]));
    g_terms.raw_passes += raw_pass(style, p);
  }
  CHECK_MSG(e.lengths.back() == r.bytes, "%s: last truncation point %d, codeword %d", what, e.lengths.back(), r.bytes);
  CHECK_MSG(r.bytes == 0 || e.bytes.back() != 0xFF, "%s: codeword ends with 0xFF", what);
  for (int i = 0; i + 1 < r.bytes; ++i)
    CHECK_MSG(!(e.bytes[i] == 0xFF && e.bytes[i + 1] > 0x8F), "%s: marker 0xFF%02X at %d", what, e.bytes[i + 1], i);

  const int top = planes - 1;
  const int n = b.width * b.height;
  // Every prefix on small blocks; on large ones, the first few, every
  // seventh and the last few.
  for (int k = r.passes; k >= 1; --k) {
    if (n > 1024 && k > 4 && k % 7 != 0 && k < r.passes - 3) continue;
    Decoder d(b.width, b.height, o, style);
    // All passes: the distortion of each, from the errors of the whole
    // block before and after it.
    std::int64_t before = block_error(b, std::vector<int>(n, planes), planes);
    int bad_distortion = 0;
    auto after_pass = [&](int p) {
      if (k != r.passes) return;
      const std::int64_t now = block_error(b, d.known, planes);
      if (e.distortion[p] != before - now && bad_distortion++ < 3)
        CHECK_MSG(false, "%s: pass %d distortion %lld, the errors before and after it differ by %lld", what, p,
                  (long long)e.distortion[p], (long long)(before - now));
      before = now;
    };
    int terms = 0, ok = 0;
    d.run(e.bytes.data(), e.lengths, ends, k, top, after_pass, terms, ok);
    if (k == r.passes) {
      CHECK_MSG(before == block_error(b, std::vector<int>(n, 0), planes), "%s: errors left after the last pass", what);
      CHECK_MSG(d.bad_segmentation_symbols == 0, "%s: %d segmentation symbols are not 1010", what,
                d.bad_segmentation_symbols);
      CHECK_MSG(!d.raw.bad_stuffing, "%s: a raw byte after 0xFF has its top bit set", what);
      if (style & 0x20) g_terms.segmentation_symbols += (r.passes + 2) / 3;
      if (style & 0x10) {
        CHECK_MSG(ok == terms, "%s: %d of %d segments end without the predictable termination", what, terms - ok,
                  terms);
        g_terms.with += terms, g_terms.with_ok += ok;
      } else {
        g_terms.without += d.mq_terminations, g_terms.without_ok += d.mq_predictable;
      }
    }
    const int last = k - 1;
    const int plane = top - (last + 2) / 3;
    const int kind = (last + 2) % 3;
    int bad = 0;
    for (int i = 0; i < n && bad < 3; ++i) {
      const std::uint64_t t = magnitude_of(b.v[i]);
      const int kn = d.known[i];
      bool ok_sample = (d.mag[i] >> kn) == (t >> kn) && (d.mag[i] & ((std::uint64_t(1) << kn) - 1)) == 0;
      ok_sample = ok_sample && (d.mag[i] == 0 || d.neg[i] == (b.v[i] < 0));
      // What the passes cover: every plane above this one; this plane
      // after a cleanup pass, and for samples significant before it after
      // a refinement pass.
      ok_sample = ok_sample && kn <= plane + 1;
      if (kind == 2 || (kind == 1 && (t >> (plane + 1)) != 0)) ok_sample = ok_sample && kn <= plane;
      if (!ok_sample) {
        ++bad;
        CHECK_MSG(false,
                  "%s: %d of %d passes (%d bytes): sample (%d, %d) = %d decoded %s%llu, bits known from plane %d", what,
                  k, r.passes, e.lengths[k - 1], i % b.width, i / b.width, b.v[i], d.neg[i] ? "-" : "",
                  (unsigned long long)d.mag[i], kn);
      }
    }
  }
}

Block random_block(std::mt19937 &rng, int w, int h, double density, int bits) {
  Block b{w, h, std::vector<std::int32_t>(std::size_t(w) * h)};
  std::uniform_real_distribution<double> u(0, 1);
  for (auto &v : b.v) {
    if (u(rng) >= density) continue;
    // Wavelet-like: mostly small, some large; each a random bit length.
    const int len = 1 + int(rng() % std::uint32_t(bits));
    const std::uint32_t m = std::uint32_t(rng()) & (len >= 31 ? 0x7FFFFFFFu : ((1u << len) - 1));
    v = (rng() & 1) ? -std::int32_t(m) : std::int32_t(m);
  }
  return b;
}

void round_trips() {
  std::mt19937 rng(20240611);
  const int sizes[][2] = {{1, 1},   {1, 5},    {5, 1},    {4, 4},  {7, 3},   {3, 7},    {32, 32},
                          {64, 64}, {4, 1024}, {1024, 4}, {13, 9}, {33, 17}, {17, 240}, {63, 65}};
  const Orientation orients[] = {Orientation::LL, Orientation::HL, Orientation::LH, Orientation::HH};
  int count = 0;
  for (const auto &s : sizes)
    for (int oi = 0; oi < 4; ++oi)
      for (double density : {0.03, 0.4, 1.0}) {
        const bool big = s[0] * s[1] > 1024;
        const int bits = big ? (oi == 0 ? 31 : 9) : 1 + int(rng() % 31);
        const unsigned style = unsigned(count * 13) % 64;  // every combination of the six switches, twice or more
        const Block b = random_block(rng, s[0], s[1], density, bits);
        const int mb = std::min(t1::kMaxBitplanes, planes_of(b) + int(rng() % 3));
        char what[128];
        std::snprintf(what, sizeof what, "%dx%d %s density %.2f bits %d style %s", s[0], s[1], name_of(orients[oi]),
                      density, bits, style_name(style).c_str());
        round_trip(b, orients[oi], mb, style, what);
        ++count;
      }
  // Every combination again on small odd sizes with enough bit-planes for
  // raw passes (bypass starts at the 11th pass, the fifth plane).
  const int odd[][2] = {{1, 7}, {3, 5}, {13, 9}, {33, 17}, {9, 31}};
  for (unsigned style = 0; style < 64; ++style)
    for (const auto &s : odd) {
      const double density = (style + s[0]) % 3 == 0 ? 0.1 : 0.7;
      const int bits = 5 + int(rng() % 12);
      const Block b = random_block(rng, s[0], s[1], density, bits);
      const Orientation o = orients[(style + s[1]) % 4];
      char what[128];
      std::snprintf(what, sizeof what, "%dx%d %s density %.2f bits %d style %s", s[0], s[1], name_of(o), density, bits,
                    style_name(style).c_str());
      round_trip(b, o, std::min(t1::kMaxBitplanes, planes_of(b) + 1), style, what);
      ++count;
    }
  // Extremes: all zero; the largest magnitudes; a single sample in a corner;
  // a column of four significant at once (the run position 0).
  Block z{64, 64, std::vector<std::int32_t>(4096, 0)};
  round_trip(z, Orientation::LL, 10, 0, "all zero");
  Block m{7, 3, std::vector<std::int32_t>(21)};
  for (int i = 0; i < 21; ++i) m.v[i] = (i % 2 ? -1 : 1) * (0x7FFFFFFF - i * 12345);
  round_trip(m, Orientation::HH, 32, 0, "magnitudes near 2^31");
  round_trip(m, Orientation::HH, 32, 0x3F, "magnitudes near 2^31, every switch");
  round_trip(m, Orientation::LL, 31, 0x15, "magnitudes near 2^31, bypass, restart, predictable");
  m.v.assign(21, 0), m.v[0] = std::int32_t(1) << 30;
  round_trip(m, Orientation::LH, 31, 0, "2^30");
  round_trip(m, Orientation::LH, 31, 0x35, "2^30, bypass, restart, predictable, segmentation");
  Block c{16, 16, std::vector<std::int32_t>(256, 0)};
  c.v[255] = -5;
  round_trip(c, Orientation::HL, 3, 0, "one sample in the last corner");
  c.v.assign(256, 0);
  for (int y = 4; y < 8; ++y) c.v[y * 16 + 9] = 3;
  round_trip(c, Orientation::LL, 2, t1::kStyleVerticalCausal, "one full stripe column");
  std::printf("%d random blocks and 8 extremes round-tripped (%d raw passes, %d segmentation symbols)\n", count,
              g_terms.raw_passes, g_terms.segmentation_symbols);
  // The predictable termination check can fail: FLUSH, which ends MQ
  // segments without style 0x10, often has the same length (its second
  // byte is mostly dropped as 0xFF), but not always: a segment without
  // decisions, for one, takes 2 bytes instead of none.
  std::printf(
      "predictable termination: %d of %d segments with style 0x10 pass the check, %d of %d MQ segments "
      "without\n",
      g_terms.with_ok, g_terms.with, g_terms.without_ok, g_terms.without);
  CHECK_MSG(
      g_terms.with > 1000 && g_terms.without > 1000 && g_terms.without - g_terms.without_ok > g_terms.without / 20,
      "predictable termination check: %d of %d MQ segments without style 0x10 pass it", g_terms.without_ok,
      g_terms.without);
  CHECK(g_terms.raw_passes > 1000 && g_terms.segmentation_symbols > 1000);
}

// ---------------------------------------------------------------------------
// 2. OpenJPEG.

// Packet header bits (T.800 B.10.1): most significant first; after a 0xFF
// byte the next holds 7 bits (its top bit a stuffed 0).
struct BitWriter {
  Bytes out;
  int cur = 0, n = 0, cap = 8;
  void put(int b) {
    cur = cur << 1 | (b & 1);
    if (++n == cap) {
      out.push_back(std::uint8_t(cur));
      cap = cur == 0xFF ? 7 : 8;
      cur = n = 0;
    }
  }
  void put(std::uint32_t v, int bits) {
    for (int i = bits - 1; i >= 0; --i) put(int(v >> i) & 1);
  }
  // Pads with 0 bits to a byte; a header ending in 0xFF gets a 0x00 after
  // it (the stuffed byte a decoder expects).
  Bytes finish() {
    while (n != 0) put(0);
    if (!out.empty() && out.back() == 0xFF) out.push_back(0);
    return out;
  }
};

int floor_log2(std::uint32_t v) {
  int r = -1;
  while (v) v >>= 1, ++r;
  return r;
}

// The header of the one packet (layer 0, the only precinct, its one
// code-block, first included here), T.800 B.10; `segments`: the passes and
// bytes of each codeword segment, in order.
struct Segment {
  int passes, bytes;
};
Bytes packet_header(int passes, int zero_bitplanes, const std::vector<Segment> &segments) {
  BitWriter bw;
  if (passes == 0) {
    bw.put(0);  // B.10.3: an empty packet
    return bw.finish();
  }
  bw.put(1);  // not empty
  // Inclusion (B.10.4): tag tree of one node, value 0 (first layer 0),
  // coded against threshold layer + 1 = 1: the node's value is reached at
  // once, one bit 1.
  bw.put(1);
  // Zero bit-planes (B.10.5): tag tree of one node with value P, coded
  // whole: P bits 0 (value above 0, 1, ...) and a 1.
  for (int i = 0; i < zero_bitplanes; ++i) bw.put(0);
  bw.put(1);
  // Number of passes, Table B.4.
  if (passes == 1)
    bw.put(0, 1);
  else if (passes == 2)
    bw.put(0x2, 2);  // 10
  else if (passes <= 5)
    bw.put(0xC | (passes - 3), 4);  // 11xx
  else if (passes <= 36)
    bw.put(0x1E0 | (passes - 6), 9);  // 1111 xxxxx
  else
    bw.put(0xFF80 | (passes - 37), 16);  // 1111 11111 xxxxxxx
  // Lengths (B.10.7): Lblock starts at 3; each segment's length takes
  // Lblock + floor(log2(its passes)) bits. k bits 1 and a 0 raise Lblock by
  // k first, the least k that makes every length fit.
  int k = 0;
  for (const Segment &g : segments)
    while (g.bytes >= (1 << (3 + k + floor_log2(std::uint32_t(g.passes))))) ++k;
  for (int i = 0; i < k; ++i) bw.put(1);
  bw.put(0);
  for (const Segment &g : segments) bw.put(std::uint32_t(g.bytes), 3 + k + floor_log2(std::uint32_t(g.passes)));
  return bw.finish();
}

// GRAY8 image of w x h <= 64 x 64, levels 0: the LL band is the image minus
// its DC level 128, one code-block.
void through_openjpeg(const std::vector<std::uint8_t> &image, int w, int h, unsigned style, const std::string &dir,
                      const std::string &name) {
  using namespace cf::j2k;
  CodestreamParams p = one_tile_image(std::uint32_t(w), std::uint32_t(h), {Component{8, false, 1, 1}});
  p.levels = 0;
  p.cb_width_exp = p.cb_height_exp = 6;
  p.layers = 1;
  p.progression = Progression::Lrcp;
  p.reversible = true;
  p.cb_style = std::uint8_t(style);
  const std::vector<SubbandStep> steps = reversible_steps(8, 0);
  const int mb = int(p.guard_bits + steps[0].exponent) - 1;  // T.800 E.1.1.2, (E-2)

  Block b{w, h, std::vector<std::int32_t>(image.size())};
  for (std::size_t i = 0; i < image.size(); ++i) b.v[i] = int(image[i]) - 128;
  const Encoded e = encode(b, t1::Orientation::LL, mb, style);
  CHECK_MSG(e.res.status == t1::BlockStatus::kOk, "%s: status %d", name.c_str(), int(e.res.status));

  ByteWriter wr;
  write_main_header(wr, p, steps, kEncoderComment);
  const std::size_t sot = begin_tile_part(wr, 0, 0, 1);
  write_sod(wr);
  // The codeword segments, as the standard lays them out for the style.
  std::vector<Segment> segments;
  const std::vector<bool> ends = segment_ends(style, e.res.passes);
  for (int p = 0, first = 0, start = 0; p < e.res.passes; ++p)
    if (ends[p]) {
      segments.push_back({p + 1 - first, e.lengths[p] - start});
      first = p + 1, start = e.lengths[p];
    }
  const Bytes head = packet_header(e.res.passes, e.res.zero_bitplanes, segments);
  wr.append(head.data(), head.size());
  wr.append(e.bytes.data(), e.bytes.size());
  end_tile_part(wr, sot);
  write_eoc(wr);
  const std::string base = dir + "/" + name;
  {
    std::ofstream f(base + ".j2k", std::ios::binary);
    f.write(reinterpret_cast<const char *>(wr.bytes().data()), std::streamsize(wr.size()));
  }
  std::string log;
  const int rc = cft::run_command("opj_decompress -i '" + base + ".j2k' -o '" + base + ".pgm'", log);
  CHECK_MSG(rc == 0, "%s: opj_decompress failed (%d):\n%s", name.c_str(), rc, log.c_str());
  if (rc != 0) return;
  CHECK_MSG(log.find("[WARNING]") == std::string::npos && log.find("[ERROR]") == std::string::npos,
            "%s: opj_decompress complains:\n%s", name.c_str(), log.c_str());
  std::uint32_t gw = 0, gh = 0;
  const std::vector<std::uint8_t> got = cft::read_pgm8(base + ".pgm", gw, gh);
  CHECK_MSG(int(gw) == w && int(gh) == h && got.size() == image.size(), "%s: decoded %ux%u", name.c_str(), gw, gh);
  if (got.size() != image.size()) return;
  long differ = 0;
  for (std::size_t i = 0; i < got.size(); ++i) differ += got[i] != image[i];
  CHECK_MSG(differ == 0, "%s (%d passes, %d bytes): %ld of %zu samples differ", name.c_str(), e.res.passes, e.res.bytes,
            differ, got.size());
}

int openjpeg_checks() {
  std::string out;
  if (!cft::have_tool("opj_decompress")) {
    std::printf("SKIP: opj_decompress not found (Debian package libopenjp2-tools): no third-party decoding\n");
    return cft::kSkip;
  }
  std::string dir = (std::filesystem::temp_directory_path() / "cf_j2k_block_coder_XXXXXX").string();
  if (!mkdtemp(dir.data())) {
    CHECK_MSG(false, "cannot make a temporary directory");
    return 0;
  }

  const std::vector<cft::Photo> photos = cft::load_photos();
  std::mt19937 rng(7);
  const int sizes[][2] = {{1, 1}, {7, 3}, {33, 17}, {64, 64}};
  int count = 0;
  const unsigned styles[] = {0u,
                             t1::kStyleVerticalCausal | t1::kStyleReset,
                             t1::kStyleBypass,
                             t1::kStyleRestart,
                             t1::kStyleBypass | t1::kStyleRestart,
                             t1::kStyleBypass | t1::kStylePredictable,
                             t1::kStyleRestart | t1::kStylePredictable | t1::kStyleSegmentation,
                             t1::kStyleSegmentation | t1::kStyleReset,
                             t1::kStylesSupported};
  for (unsigned style : styles)
    for (const auto &s : sizes) {
      const int w = s[0], h = s[1];
      std::vector<std::vector<std::uint8_t>> images;
      std::vector<std::string> names;
      auto add = [&](const char *kind, auto f) {
        std::vector<std::uint8_t> img(std::size_t(w) * h);
        for (int y = 0; y < h; ++y)
          for (int x = 0; x < w; ++x) img[y * w + x] = std::uint8_t(f(x, y));
        images.push_back(img);
        names.push_back(std::string(kind) + "_" + std::to_string(w) + "x" + std::to_string(h) + "_" +
                        style_name(style));
      };
      add("dc", [](int, int) { return 128; });  // all-zero block: an empty packet
      add("constant", [](int, int) { return 201; });
      add("dark", [](int, int) { return 0; });
      add("gradient", [&](int x, int y) { return (x * 255 / std::max(1, w - 1) + y * 3) & 255; });
      add("random", [&](int, int) { return int(rng() & 255); });
      add("sparse", [&](int, int) { return rng() % 9 == 0 ? int(rng() & 255) : 128; });
      for (const cft::Photo &ph : photos) {
        const int x0 = ph.width / 3, y0 = ph.height / 3;
        add(("photo_" + ph.name).c_str(), [&](int x, int y) {  // the green channel of a crop
          return ph.rgb[(std::size_t(y0 + y) * ph.width + x0 + x) * 3 + 1];
        });
      }
      for (std::size_t i = 0; i < images.size(); ++i, ++count) through_openjpeg(images[i], w, h, style, dir, names[i]);
    }
  std::printf("%d single-block codestreams decoded by opj_decompress (%zu photos)\n", count, photos.size());
  if (!cft::failures())
    std::filesystem::remove_all(dir);
  else
    std::fprintf(stderr, "codestreams kept in %s\n", dir.c_str());
  return 0;
}

// ---------------------------------------------------------------------------
// Raw coding by hand (D.6): bits the most significant first, 7 bits under a
// 0 after 0xFF, the last byte padded 0101...; at the end after 0xFF with no
// bit left over, predictable termination adds 0 0101010 (0x2A), and
// otherwise the 0xFF goes (a decoder reads 1s past the end).

void raw_coder_by_hand() {
  struct Case {
    const char *bits;
    bool predictable;
    Bytes want;
    int truncation;  // before flushing
  } cases[] = {
      {"", false, {}, 0},
      {"111", false, {0xEA}, 1},                            // 111 01010
      {"10110011", true, {0xB3}, 1},                        // a whole byte: no padding
      {"11111111", true, {0xFF, 0x2A}, 0},                  // 0xFF then 0 0101010
      {"11111111", false, {}, 0},                           // the 0xFF goes
      {"11111111 111", false, {0xFF, 0x75}, 2},             // 0 111 0101
      {"11111111 1111111 1", true, {0xFF, 0x7F, 0xAA}, 3},  // 0x7F is not 0xFF: 8 bits, 1 0101010
      {"0 1111111 1", false, {0x7F, 0xAA}, 2},
  };
  for (const Case &c : cases) {
    std::uint8_t buf[8] = {};
    t1::RawEncoder raw;
    raw.init(buf, 8);
    for (const char *b = c.bits; *b; ++b)
      if (*b != ' ') raw.put(*b == '1');
    const int cut = raw.truncation_length();
    raw.flush(c.predictable);
    const Bytes got(buf, buf + raw.bytes());
    CHECK_MSG(got == c.want && cut == c.truncation, "raw \"%s\"%s: %d bytes (%02X %02X %02X), truncation %d", c.bits,
              c.predictable ? " predictable" : "", raw.bytes(), buf[0], buf[1], buf[2], cut);
    if (c.predictable) {  // the test's reader finds the pattern
      RawReader r;
      r.init(got.data(), int(got.size()));
      for (const char *b = c.bits; *b; ++b)
        if (*b != ' ') CHECK(r.bit() == (*b == '1'));
      CHECK_MSG(r.predictable_end(), "raw \"%s\": no predictable end", c.bits);
    }
  }
}

// ---------------------------------------------------------------------------
// 3. Refusals and overflow.

void refusals() {
  Block b{4, 4, std::vector<std::int32_t>(16, 0)};
  b.v[5] = 9;  // 4 planes
  auto status = [&](int w, int h, int mb, unsigned style) {
    std::vector<std::uint8_t> work(std::max(0, t1::block_work_bytes(w, h))), out(64);
    std::vector<int> lengths(std::max(1, t1::max_pass_count(mb)));
    std::vector<std::int32_t> v(std::max(1, w * h), 0);
    if (!v.empty()) v[0] = 9;
    const t1::BlockInput in{v.data(), w, h, w, Orientation::LL, mb, style};
    return t1::encode_block(in, {work.data(), out.data(), 64, lengths.data(), int(lengths.size()), nullptr}).status;
  };
  CHECK(status(4, 4, 4, 0) == t1::BlockStatus::kOk);
  CHECK(status(4, 4, 3, 0) == t1::BlockStatus::kTooManyBitplanes);
  CHECK(status(4, 4, 33, 0) == t1::BlockStatus::kTooManyBitplanes);
  CHECK(status(0, 4, 4, 0) == t1::BlockStatus::kBadSize);
  CHECK(status(1025, 1, 4, 0) == t1::BlockStatus::kBadSize);
  CHECK(status(1024, 4, 4, 0) == t1::BlockStatus::kOk);
  CHECK(status(128, 64, 4, 0) == t1::BlockStatus::kBadSize);
  for (unsigned s = 1; s < 64; ++s) CHECK(status(4, 4, 4, s) == t1::BlockStatus::kOk);
  for (unsigned s : {0x40u, 0x80u, 0x100u, 0x41u}) CHECK(status(4, 4, 4, s) == t1::BlockStatus::kBadStyle);

  // Pass array one short.
  std::vector<std::uint8_t> work(t1::block_work_bytes(4, 4)), out(64);
  std::vector<int> lengths(10);  // the 10 passes of 4 bit-planes fit; 9 do not
  const t1::BlockInput in{b.v.data(), 4, 4, 4, Orientation::LL, 6, 0};
  CHECK(t1::encode_block(in, {work.data(), out.data(), 64, lengths.data(), 9, nullptr}).status ==
        t1::BlockStatus::kPassArrayTooSmall);
  CHECK(t1::encode_block(in, {work.data(), out.data(), 64, lengths.data(), 10, nullptr}).status ==
        t1::BlockStatus::kOk);

  // Overflow: a dense block into a few bytes; nothing written past them.
  std::mt19937 rng(3);
  const Block d = random_block(rng, 32, 32, 1.0, 16);
  const Encoded full = encode(d, Orientation::HH, 16, 0);
  CHECK(full.res.status == t1::BlockStatus::kOk && full.res.bytes > 100);
  std::vector<std::uint8_t> small(100 + 16, 0xA5), w2(t1::block_work_bytes(32, 32));
  std::vector<int> l2(t1::max_pass_count(16));
  const t1::BlockInput din{d.v.data(), 32, 32, 32, Orientation::HH, 16, 0};
  const t1::BlockResult r = t1::encode_block(din, {w2.data(), small.data(), 100, l2.data(), int(l2.size()), nullptr});
  CHECK_MSG(r.status == t1::BlockStatus::kOverflow && r.bytes == full.res.bytes, "overflow: status %d, %d bytes",
            int(r.status), r.bytes);
  CHECK(std::equal(small.begin(), small.begin() + 100, full.bytes.begin()));
  CHECK(std::all_of(small.begin() + 100, small.end(), [](std::uint8_t v) { return v == 0xA5; }));
}

}  // namespace

// Blocks coded down to the lowest plane of a window (from the top plane,
// as rate control asks): 3 count - 2 passes, and the decoder here gets
// every bit down to that plane, nothing below it.
void windows() {
  std::mt19937 rng(41);
  for (unsigned style : {0u, 0x01u, 0x04u, 0x3Fu})
    for (int count : {1, 2, 5}) {
      const Block b = random_block(rng, 37, 29, 0.6, 9);
      const int planes = planes_of(b), top = planes - 1, bottom = top + 1 - count;
      const Encoded e = encode(b, Orientation::HL, 12, style, {std::uint8_t(top), std::uint8_t(count)});
      CHECK_MSG(
          e.res.status == t1::BlockStatus::kOk && e.res.passes == 3 * count - 2 && e.res.zero_bitplanes == 12 - planes,
          "style %s, %d of %d planes: status %d, %d passes, P %d", style_name(style).c_str(), count, planes,
          int(e.res.status), e.res.passes, e.res.zero_bitplanes);
      if (e.res.passes != 3 * count - 2) continue;
      Decoder d(b.width, b.height, Orientation::HL, style);
      int terms = 0, ok = 0;
      d.run(
          e.bytes.data(), e.lengths, segment_ends(style, e.res.passes), e.res.passes, top, [](int) {}, terms, ok);
      int bad = 0;
      for (std::size_t i = 0; i < b.v.size(); ++i) {
        const std::uint64_t want = (magnitude_of(b.v[i]) >> bottom) << bottom;
        if (d.mag[i] != want || (want && d.neg[i] != (b.v[i] < 0)) || d.known[i] > bottom) ++bad;
      }
      CHECK_MSG(bad == 0, "style %s, coded down to plane %d of %d: %d samples decode otherwise",
                style_name(style).c_str(), bottom, planes, bad);
    }
}

// The plane estimates of a 4 x 4 block holding one 5 (plane 2) at (1, 1):
// on each plane its eight neighbours are insignificant beside a
// significant sample; the 5 becomes significant on plane 2 and is refined
// below. In sixteenths of a bit: 37 + 8 x 10 + 800 = 917 on plane 2, then
// 17 + 80 + 800 = 897 on planes 1 and 0; bytes up to each plane 8, 15, 22.
// Half-unit errors of the 5 (T = 11): 121 unknown, 1 after plane 2
// (R = 12), 1 after plane 1 (R = 10), 0 after plane 0: gains 120, 0, 1.
void estimates_by_hand() {
  std::vector<std::int32_t> v(16, 0);
  v[1 * 4 + 1] = -5;
  const t1::BlockInput in{v.data(), 4, 4, 4, Orientation::LL, 12, 0};
  int lengths[4] = {}, n = 0;
  std::int64_t distortion[4] = {};
  const t1::BlockOutput out{nullptr, nullptr, 0, lengths, 4, distortion};
  t1::PlaneTally tally;
  const t1::BlockResult r = t1::estimate_block(in, out, tally);
  CHECK_MSG(r.status == t1::BlockStatus::kOk && r.passes == 3 && r.zero_bitplanes == 9 && r.bytes == 22,
            "estimate: status %d, %d planes, P %d, %d bytes; expected 3 planes, P 9, 22 bytes", int(r.status), r.passes,
            r.zero_bitplanes, r.bytes);
  const int want_lengths[3] = {8, 15, 22};
  const std::int64_t want_distortion[3] = {120, 0, 1};
  for (int i = 0; i < 3; ++i) n += lengths[i] == want_lengths[i] && distortion[i] == want_distortion[i];
  CHECK_MSG(n == 3, "estimates: lengths %d, %d, %d (8, 15, 22), gains %lld, %lld, %lld (120, 0, 1)", lengths[0],
            lengths[1], lengths[2], (long long)distortion[0], (long long)distortion[1], (long long)distortion[2]);
  const std::vector<std::int32_t> zeros(16, 0);
  const t1::BlockResult empty = t1::estimate_block({zeros.data(), 4, 4, 4, Orientation::LL, 12, 0}, out, tally);
  CHECK_MSG(empty.status == t1::BlockStatus::kOk && empty.passes == 0 && empty.zero_bitplanes == 12,
            "estimate of an all-zero block: status %d, %d planes, P %d", int(empty.status), empty.passes,
            empty.zero_bitplanes);
}

int main() {
  windows();
  estimates_by_hand();
  raw_coder_by_hand();
  refusals();
  round_trips();
  const int opj = openjpeg_checks();
  if (cft::failures()) return cft::test_result();
  return opj == cft::kSkip ? cft::kSkip : 0;
}
