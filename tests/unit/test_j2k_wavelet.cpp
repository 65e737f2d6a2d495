// The JPEG 2000 encoder's transform stage (T.800 Annexes E, F, G):
//  1. the 5/3 on lines worked by hand from F.4.8.1, negative floors and
//     single samples included;
//  2. the 5/3 and the 9/7 of core/shared/j2k_dwt_rules.hpp against T.800's
//     procedure written plainly here (1D_EXTR with PSE, then 1D_FILTR on
//     absolute indices; double precision for the 9/7), every parity of i0
//     and lengths 1..9, and back through the inverse 1D_SR of F.3;
//  3. one 2-D level (2D_SD: columns, then rows) against the same
//     reference, at every parity of (u0, v0);
//  4. subband synthesis norms: the 5/3's worked by hand, and both
//     filters' against a brute-force 2-D synthesis of a unit coefficient;
//     the steps, reciprocals and weights built on them;
//  5. DC shift, ICT and quantiser on values worked by hand;
//  6. the frame transform (cpu) against a reference pipeline written here
//     (reversible: exact; irreversible: within one quantisation index), and
//     the OpenMP transform bit for bit against it, on odd sizes and tiles;
//  7. frames that do not match the layout, refused with their reason.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "core/codec/j2k_layout.hpp"
#include "core/shared/j2k_dwt_rules.hpp"
#include "core/shared/j2k_quant_rules.hpp"
#include "core/src/j2k_subband_weights.hpp"
#include "cpu/j2k_transform.hpp"
#include "cudafilters/error.hpp"
#include "frames.hpp"

using namespace cf::j2k;
using Ints = std::vector<std::int32_t>;
using Reals = std::vector<double>;

namespace {

// ---------------------------------------------------------------------------
// The definitions, written plainly.

long long floor_div(long long a, long long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
std::uint32_t ceil_div(std::uint64_t a, std::uint64_t b) { return std::uint32_t((a + b - 1) / b); }

// F.4.3 / F-4: PSE_O, the index inside [i0, i1) that i mirrors to.
int pse(int i, int i0, int i1) {
  if (i1 - i0 == 1) return i0;
  const int period = 2 * (i1 - i0 - 1);
  const int m = ((i - i0) % period + period) % period;
  return i0 + std::min(m, period - m);
}

constexpr double kAlpha = -1.586134342059924, kBeta = -0.052980118572961, kGamma = 0.882911075530934,
                 kDelta = 0.443506852043971, kK = 1.230174104914001;
constexpr int kExt = 4;  // samples of extension each side: enough for the 9/7's four steps

// 1D_SD (F.4.5) then the deinterleave, on x whose sample j has absolute index i0 + j.
Reals reference_forward(const Reals &x, int i0, bool reversible) {
  const int n = int(x.size()), i1 = i0 + n;
  if (n == 1) return {(i0 & 1) ? 2 * x[0] : x[0]};
  // Y over [i0 - kExt, i1 + kExt), index i at y[i - i0 + kExt].
  Reals y(std::size_t(n + 2 * kExt));
  const auto at = [&](int i) -> double & { return y[std::size_t(i - i0 + kExt)]; };
  for (int i = i0 - kExt; i < i1 + kExt; ++i) at(i) = x[std::size_t(pse(i, i0, i1) - i0)];
  const auto even = [](int i) { return (i & 1) == 0; };
  if (reversible) {
    for (int i = i0 - kExt + 1; i < i1 + kExt - 1; ++i)
      if (!even(i)) at(i) = at(i) - double(floor_div((long long)(at(i - 1) + at(i + 1)), 2));
    for (int i = i0 - kExt + 2; i < i1 + kExt - 2; ++i)
      if (even(i)) at(i) = at(i) + double(floor_div((long long)(at(i - 1) + at(i + 1) + 2), 4));
  } else {
    const double c[4] = {kAlpha, kBeta, kGamma, kDelta};
    for (int s = 0; s < 4; ++s)
      for (int i = i0 - kExt + 1 + s; i < i1 + kExt - 1 - s; ++i)
        if (even(i) == (s & 1)) at(i) += c[s] * (at(i - 1) + at(i + 1));
    for (int i = i0; i < i1; ++i) at(i) *= even(i) ? 1 / kK : kK;
  }
  Reals out;
  for (int i = i0; i < i1; ++i)
    if (even(i)) out.push_back(at(i));
  for (int i = i0; i < i1; ++i)
    if (!even(i)) out.push_back(at(i));
  return out;
}

// The inverse: interleave, then 1D_SR (F.3.6 to F.3.8). `linear`: the 5/3
// without floors and offsets.
Reals reference_inverse(const Reals &low_high, int i0, bool reversible, bool linear = false) {
  const int n = int(low_high.size()), i1 = i0 + n;
  const int lows = (i1 + 1) / 2 - (i0 + 1) / 2;
  Reals x(static_cast<std::size_t>(n));
  for (int i = i0, l = 0, h = lows; i < i1; ++i) x[std::size_t(i - i0)] = (i & 1) ? low_high[h++] : low_high[l++];
  if (n == 1) return {(i0 & 1) ? x[0] / 2 : x[0]};
  Reals y(std::size_t(n + 2 * kExt));
  const auto at = [&](int i) -> double & { return y[std::size_t(i - i0 + kExt)]; };
  for (int i = i0 - kExt; i < i1 + kExt; ++i) at(i) = x[std::size_t(pse(i, i0, i1) - i0)];
  const auto even = [](int i) { return (i & 1) == 0; };
  if (reversible) {
    for (int i = i0 - kExt + 1; i < i1 + kExt - 1; ++i)
      if (even(i))
        at(i) -= linear ? (at(i - 1) + at(i + 1)) / 4 : double(floor_div((long long)(at(i - 1) + at(i + 1) + 2), 4));
    for (int i = i0 - kExt + 2; i < i1 + kExt - 2; ++i)
      if (!even(i))
        at(i) += linear ? (at(i - 1) + at(i + 1)) / 2 : double(floor_div((long long)(at(i - 1) + at(i + 1)), 2));
  } else {
    for (int i = i0 - kExt; i < i1 + kExt; ++i) at(i) *= even(i) ? kK : 1 / kK;
    const double c[4] = {-kDelta, -kGamma, -kBeta, -kAlpha};
    for (int s = 0; s < 4; ++s)
      for (int i = i0 - kExt + 1 + s; i < i1 + kExt - 1 - s; ++i)
        if (even(i) == ((s & 1) == 0)) at(i) += c[s] * (at(i - 1) + at(i + 1));
  }
  Reals out;
  for (int i = i0; i < i1; ++i) out.push_back(at(i));
  return out;
}

// 2D_SD of one level on a w x h block (rows of w) whose origin is (u0, v0): columns, then rows.
void reference_level(Reals &b, int w, int h, int u0, int v0, int stride, bool reversible) {
  for (int x = 0; x < w; ++x) {
    Reals col;
    for (int y = 0; y < h; ++y) col.push_back(b[std::size_t(y * stride + x)]);
    col = reference_forward(col, v0, reversible);
    for (int y = 0; y < h; ++y) b[std::size_t(y * stride + x)] = col[std::size_t(y)];
  }
  for (int y = 0; y < h; ++y) {
    Reals row(b.begin() + y * stride, b.begin() + y * stride + w);
    row = reference_forward(row, u0, reversible);
    std::copy(row.begin(), row.end(), b.begin() + y * stride);
  }
}

// The rules' line transform on a copy of x.
template <class F>
std::vector<typename F::Sample> rules_line(const std::vector<typename F::Sample> &x, int i0) {
  std::vector<typename F::Sample> out(x.size()), scratch(x.size() + 1);
  dwt::forward_line<F>({x.data(), 1}, int(x.size()), (i0 & 1) != 0, scratch.data(), {out.data(), 1});
  return out;
}

// ---------------------------------------------------------------------------
// 1. The 5/3 by hand.

void five_three_by_hand() {
  struct Case {
    Ints x;
    int i0;
    Ints want;
  } cases[] = {
      // i0 = 0: Y1 = 2 - floor((1+3)/2) = 0, Y3 = 4 - floor((3+3)/2) = 1 (X4 = X2);
      // Y0 = 1 + floor((0+0+2)/4) = 1, Y2 = 3 + floor((0+1+2)/4) = 3.
      {{1, 2, 3, 4}, 0, {1, 3, 0, 1}},
      // i0 = 1: X(0) = X(2) = 2; Y1 = 1 - 2 = -1, Y3 = 3 - floor((2+4)/2) = 0;
      // Y2 = 2 + floor((-1+0+2)/4) = 2, Y4 = 4 + floor((0+0+2)/4) = 4 (Y5 = Y3).
      {{1, 2, 3, 4}, 1, {2, 4, -1, 0}},
      // Y1 = 0 - floor(-3/2) = 2, Y3 = 0 - floor(-6/2) = 3; Y0 = 0 + floor(6/4) = 1,
      // Y2 = -3 + floor(7/4) = -2.
      {{0, 0, -3, 0}, 0, {1, -2, 2, 3}},
      // Y1 = -3 - floor(13/2) = -9; Y0 = 5 + floor(-16/4) = 1, Y2 = 8 + floor(-16/4) = 4.
      {{5, -3, 8}, 0, {1, 4, -9}},
      // i0 = 3 (odd), 3 samples: X3, X4, X5 = 5, -3, 8; X(2) = X(4), X(6) = X(4).
      // Y3 = 5 - floor(-6/2) = 8, Y5 = 8 - floor(-6/2) = 11; Y4 = -3 + floor((8+11+2)/4) = 2.
      {{5, -3, 8}, 3, {2, 8, 11}},
      // A single sample: kept at an even index, doubled at an odd one.
      {{7}, 4, {7}},
      {{7}, 5, {14}},
      {{-7}, 1, {-14}},
  };
  for (const Case &c : cases) {
    const Ints got = rules_line<dwt::Reversible53>(c.x, c.i0);
    CHECK_MSG(got == c.want, "5/3 of %zu samples at i0 = %d: first %d, want %d", c.x.size(), c.i0, got[0], c.want[0]);
  }
}

// ---------------------------------------------------------------------------
// 2. Lines against the reference, and back.

void lines_against_definition() {
  std::mt19937 rng(53);
  std::uniform_int_distribution<int> sample(-2048, 2047);
  int checked = 0;
  for (int i0 : {0, 1, 2, 3, 6, 7, 1000, 1001})
    for (int n = 1; n <= 9; ++n)
      for (int trial = 0; trial < 20; ++trial) {
        Ints x(static_cast<std::size_t>(n));
        for (auto &v : x) v = sample(rng);
        Reals xd(x.begin(), x.end());
        // 5/3: exactly the definition, and exactly back.
        const Ints got = rules_line<dwt::Reversible53>(x, i0);
        const Reals want = reference_forward(xd, i0, true);
        CHECK_MSG(Reals(got.begin(), got.end()) == want, "5/3, n = %d, i0 = %d", n, i0);
        CHECK_MSG(reference_inverse(Reals(got.begin(), got.end()), i0, true) == xd, "5/3 inverse, n = %d, i0 = %d", n,
                  i0);
        // 9/7: within 1e-4 of the double definition, relative to the signal's size, and back.
        std::vector<float> xf(x.begin(), x.end());
        const std::vector<float> gf = rules_line<dwt::Irreversible97>(xf, i0);
        const Reals wf = reference_forward(xd, i0, false);
        double scale = 1, err = 0, back_err = 0;
        for (double v : xd) scale = std::max(scale, std::fabs(v));
        for (int i = 0; i < n; ++i) err = std::max(err, std::fabs(gf[std::size_t(i)] - wf[std::size_t(i)]));
        const Reals back = reference_inverse(Reals(gf.begin(), gf.end()), i0, false);
        for (int i = 0; i < n; ++i) back_err = std::max(back_err, std::fabs(back[std::size_t(i)] - xd[std::size_t(i)]));
        CHECK_MSG(err <= 1e-4 * scale, "9/7, n = %d, i0 = %d: off by %g", n, i0, err);
        CHECK_MSG(back_err <= 1e-4 * scale, "9/7 inverse, n = %d, i0 = %d: off by %g", n, i0, back_err);
        ++checked;
      }
  std::printf("lines: %d signals, each through both filters and back\n", checked);
}

// ---------------------------------------------------------------------------
// 3. One 2-D level.

void level_against_definition() {
  std::mt19937 rng(2);
  std::uniform_int_distribution<int> sample(-255, 255);
  for (int u0 : {0, 1, 4, 5})
    for (int v0 : {0, 1, 2, 3})
      for (const auto &[w, h] : {std::pair{7, 5}, std::pair{8, 9}, std::pair{1, 6}, std::pair{5, 1}}) {
        const int stride = w + 3;  // the region inside a wider block
        Ints b(std::size_t(stride * h));
        for (auto &v : b) v = sample(rng);
        Reals want(b.begin(), b.end());
        Ints scratch(std::size_t(std::max(w, h)));
        dwt::forward_level<dwt::Reversible53>(b.data(), stride, std::uint32_t(u0), std::uint32_t(v0), w, h,
                                              scratch.data());
        reference_level(want, w, h, u0, v0, stride, true);
        CHECK_MSG(Reals(b.begin(), b.end()) == want, "5/3 level %dx%d at (%d, %d)", w, h, u0, v0);
      }
  // The order is T.800's: on a block where rows first gives another integer
  // result, the rules give the columns-first one.
  bool found = false;
  for (int trial = 0; trial < 1000 && !found; ++trial) {
    Ints b(9), scratch(3);
    for (auto &v : b) v = sample(rng);
    Reals columns_first(b.begin(), b.end()), rows_first(b.begin(), b.end());
    reference_level(columns_first, 3, 3, 0, 0, 3, true);
    for (int y = 0; y < 3; ++y) {
      Reals row(rows_first.begin() + y * 3, rows_first.begin() + y * 3 + 3);
      row = reference_forward(row, 0, true);
      std::copy(row.begin(), row.end(), rows_first.begin() + y * 3);
    }
    for (int x = 0; x < 3; ++x) {
      Reals col = {rows_first[std::size_t(x)], rows_first[std::size_t(3 + x)], rows_first[std::size_t(6 + x)]};
      col = reference_forward(col, 0, true);
      for (int y = 0; y < 3; ++y) rows_first[std::size_t(y * 3 + x)] = col[std::size_t(y)];
    }
    if (rows_first == columns_first) continue;
    found = true;
    dwt::forward_level<dwt::Reversible53>(b.data(), 3, 0, 0, 3, 3, scratch.data());
    CHECK(Reals(b.begin(), b.end()) == columns_first);
  }
  CHECK(found);
}

// ---------------------------------------------------------------------------
// 4. Norms, steps, weights.

// The L2 norm of the image that a unit coefficient of band `index` (in
// subbands_in_order(levels)) makes through the inverse of `levels` levels
// on an N x N image, N = 16 * 2^levels.
double brute_force_norm(bool reversible, std::uint32_t levels, std::size_t index) {
  const int n = 16 << levels;
  Reals img(std::size_t(n) * std::size_t(n), 0.0);
  const Subband s = subbands_in_order(levels)[index];
  const int region = n >> (s.level - 1), half = region / 2;
  const int x = half / 2 + ((s.orientation == Orientation::HL || s.orientation == Orientation::HH) ? half : 0);
  const int y = half / 2 + ((s.orientation == Orientation::LH || s.orientation == Orientation::HH) ? half : 0);
  img[std::size_t(y * n + x)] = 1.0;
  for (int l = int(levels); l >= 1; --l) {
    const int m = n >> (l - 1);
    for (int r = 0; r < m; ++r) {
      Reals row(img.begin() + r * n, img.begin() + r * n + m);
      row = reference_inverse(row, 0, reversible, true);
      std::copy(row.begin(), row.end(), img.begin() + r * n);
    }
    for (int c = 0; c < m; ++c) {
      Reals col;
      for (int r = 0; r < m; ++r) col.push_back(img[std::size_t(r * n + c)]);
      col = reference_inverse(col, 0, reversible, true);
      for (int r = 0; r < m; ++r) img[std::size_t(r * n + c)] = col[std::size_t(r)];
    }
  }
  double sum = 0;
  for (double v : img) sum += v * v;
  return std::sqrt(sum);
}

void norms() {
  // 5/3, one level, by hand: a unit low-pass coefficient synthesises
  // [1/2, 1, 1/2] (squares 1.5), a unit high-pass one [-1/8, -1/4, 3/4,
  // -1/4, -1/8] (squares 0.71875); the 2-D norms are products.
  const Reals n1 = synthesis_norms(true, 1);
  CHECK(n1.size() == 4);
  CHECK_MSG(std::fabs(n1[0] - 1.5) < 1e-12, "5/3 LL of 1 level: %.15g, want 1.5", n1[0]);
  CHECK_MSG(std::fabs(n1[1] - std::sqrt(1.5 * 0.71875)) < 1e-12, "5/3 HL: %.15g", n1[1]);
  CHECK_MSG(std::fabs(n1[3] - 0.71875) < 1e-12, "5/3 HH: %.15g, want 0.71875", n1[3]);
  CHECK(synthesis_norms(true, 0) == Reals{1.0});

  for (bool reversible : {true, false})
    for (std::uint32_t levels = 1; levels <= 3; ++levels) {
      const Reals got = synthesis_norms(reversible, levels);
      for (std::size_t b = 0; b < got.size(); ++b) {
        const double want = brute_force_norm(reversible, levels, b);
        CHECK_MSG(std::fabs(got[b] - want) <= 1e-9 * want, "%s, %u levels, band %zu: %.12g, brute force %.12g",
                  reversible ? "5/3" : "9/7", levels, b, got[b], want);
      }
    }
  // Deep levels grow by about 2 per level in 2-D (the low-pass synthesis
  // passes a constant at twice its value per dimension).
  const Reals deep = synthesis_norms(false, 18);
  CHECK(std::fabs(deep[0] / synthesis_norms(false, 17)[0] - 2.0) < 1e-3);
}

void steps_and_weights() {
  for (std::uint32_t depth : {8u, 12u, 16u}) {
    const std::uint32_t levels = 5;
    const Reals norms = synthesis_norms(false, levels);
    const std::vector<SubbandStep> steps = irreversible_steps(depth, levels);
    const std::vector<float> recips = step_reciprocals(steps, depth, levels);
    const Reals weights = distortion_weights(false, steps, depth, levels);
    const std::vector<Subband> bands = subbands_in_order(levels);
    CHECK(steps.size() == bands.size() && recips.size() == bands.size() && weights.size() == bands.size());
    for (std::size_t b = 0; b < bands.size(); ++b) {
      // E-3 by hand: 2^(R_b - eps) (1 + mu / 2^11), R_b = depth + gain.
      const int rb = int(depth) + (bands[b].orientation == Orientation::LL   ? 0
                                   : bands[b].orientation == Orientation::HH ? 2
                                                                             : 1);
      const double delta = std::pow(2.0, rb - int(steps[b].exponent)) * (1 + steps[b].mantissa / 2048.0);
      CHECK(std::fabs(decoded_step(steps[b], depth, bands[b].orientation) - delta) <= 1e-15 * delta);
      // The 11-bit mantissa keeps the step within 2^-12 of 1 / norm.
      CHECK_MSG(std::fabs(delta * norms[b] - 1) <= 1.0 / 4096, "depth %u band %zu: step %g, norm %g", depth, b, delta,
                norms[b]);
      CHECK(recips[b] == float(1 / delta));
      CHECK(std::fabs(weights[b] - delta * norms[b] * delta * norms[b]) <= 1e-12 * weights[b]);
    }
  }
  const Reals rw = distortion_weights(true, {}, 8, 2), rn = synthesis_norms(true, 2);
  for (std::size_t b = 0; b < rw.size(); ++b) CHECK(std::fabs(rw[b] - rn[b] * rn[b]) <= 1e-12 * rw[b]);
  bool threw = false;
  try {
    step_reciprocals({}, 8, 2);
  } catch (const cf::Error &e) {
    threw = std::string(e.what()).find("7 for 2 levels") != std::string::npos;
  }
  CHECK(threw);
}

// ---------------------------------------------------------------------------
// 5. Sample-wise rules by hand.

void sample_rules() {
  CHECK(quant::dc_shift(0, 8) == -128 && quant::dc_shift(255, 8) == 127 && quant::dc_shift(4095, 12) == 2047);
  CHECK(quant::dc_shift(1, 1) == 0);
  // G-5 on unit vectors gives its columns.
  float r[3] = {1, 0, 0}, g[3] = {0, 1, 0}, b[3] = {0, 0, 1};
  quant::ict_forward(r);
  quant::ict_forward(g);
  quant::ict_forward(b);
  CHECK(r[0] == 0.299f && r[1] == -0.16875f && r[2] == 0.5f);
  CHECK(g[0] == 0.587f && g[1] == -0.33126f && g[2] == -0.41869f);
  CHECK(b[0] == 0.114f && b[1] == 0.5f && b[2] == -0.08131f);
  float grey[3] = {100, 100, 100};  // a grey has no chroma, to the rounding of the coefficients
  quant::ict_forward(grey);
  CHECK(std::fabs(grey[0] - 100) < 1e-3 && std::fabs(grey[1]) < 1e-3 && std::fabs(grey[2]) < 1e-3);
  // sign(c) floor(|c| / Delta).
  CHECK(quant::quantise(2.9f, 1.0f) == 2 && quant::quantise(-2.9f, 1.0f) == -2);
  CHECK(quant::quantise(0.99f, 1.0f) == 0 && quant::quantise(-0.99f, 1.0f) == 0);
  CHECK(quant::quantise(10.0f, 0.25f) == 2 && quant::quantise(-10.0f, 0.5f) == -5);
  CHECK(quant::quantise(NAN, 1.0f) == 0);
  CHECK(quant::quantise(1e12f, 1.0f) == 2147483520 && quant::quantise(-1e12f, 1.0f) == -2147483520);
}

// ---------------------------------------------------------------------------
// 6. Frames.

struct Setup {
  const char *name;
  cft::Packing packing;
  cf::SampleType type;
  int width, height, bit_depth;
  bool rgb, subsampled, reversible;
  std::uint32_t levels, tile_width, tile_height, tile_x0, tile_y0;
  std::uint32_t x0 = 0, y0 = 0;  // the image's origin on the reference grid
};

CodestreamParams params_of(const Setup &s, const cf::J2kInput &in) {
  std::vector<Component> comps;
  for (int c = 0; c < in.frame.n_components; ++c)
    comps.push_back(
        {std::uint32_t(s.bit_depth), false, std::uint32_t(in.subsampling_x[c]), std::uint32_t(in.subsampling_y[c])});
  CodestreamParams p = one_tile_image(std::uint32_t(s.width), std::uint32_t(s.height), comps);
  p.x0 = s.x0;
  p.y0 = s.y0;
  p.x1 = s.x0 + std::uint32_t(s.width);
  p.y1 = s.y0 + std::uint32_t(s.height);
  p.tile_width = p.x1;
  p.tile_height = p.y1;
  if (s.tile_width) {
    p.tile_width = s.tile_width;
    p.tile_height = s.tile_height;
    p.tile_x0 = s.tile_x0;
    p.tile_y0 = s.tile_y0;
  }
  p.levels = s.levels;
  p.reversible = s.reversible;
  p.mct = s.rgb;
  return p;
}

cf::J2kInput input_of(const Setup &s, const cft::OwnedFrame &f) {
  cf::J2kInput in;
  in.frame = f.view;
  in.bit_depth = s.bit_depth;
  in.rgb = s.rgb;
  for (int c = 1; c < f.view.n_components; ++c)
    if (s.subsampled) in.subsampling_x[c] = in.subsampling_y[c] = 2;
  return in;
}

// The coefficients of every tile-component by the definitions: DC shift, RCT
// (G-2) or ICT (G-5, double), the reference levels, and for the 9/7 the
// quantiser in double.
Reals reference_coefficients(const Layout &l, const cf::J2kInput &in, const std::vector<float> &recips) {
  Reals out(l.coefficient_count);
  const CodestreamParams &p = l.params;
  for (const TileLayout &t : l.tiles) {
    const std::size_t comps = p.components.size();
    std::vector<Reals> blocks(comps);
    for (std::size_t k = 0; k < comps; ++k) {
      const TileComponentLayout &tc = l.tile_components[t.first_tile_component + k];
      for (std::uint32_t y = tc.rect.y0; y < tc.rect.y1; ++y)
        for (std::uint32_t x = tc.rect.x0; x < tc.rect.x1; ++x)
          blocks[k].push_back(
              double(cft::read_sample(in.frame, int(k), int(x - ceil_div(p.x0, p.components[k].subsample_x)),
                                      int(y - ceil_div(p.y0, p.components[k].subsample_y))) -
                     (1 << (in.bit_depth - 1))));
    }
    if (p.mct)
      for (std::size_t i = 0; i < blocks[0].size(); ++i) {
        const double r = blocks[0][i], g = blocks[1][i], b = blocks[2][i];
        if (p.reversible) {
          blocks[0][i] = double(floor_div((long long)(r + 2 * g + b), 4));
          blocks[1][i] = b - g;
          blocks[2][i] = r - g;
        } else {
          blocks[0][i] = 0.299 * r + 0.587 * g + 0.114 * b;
          blocks[1][i] = -0.16875 * r - 0.33126 * g + 0.5 * b;
          blocks[2][i] = 0.5 * r - 0.41869 * g - 0.08131 * b;
        }
      }
    for (std::size_t k = 0; k < comps; ++k) {
      const TileComponentLayout &tc = l.tile_components[t.first_tile_component + k];
      const int stride = int(tc.rect.width());
      for (std::uint32_t lev = 1; lev <= p.levels; ++lev) {
        const Rect &r = tc.resolutions[p.levels - lev + 1];
        reference_level(blocks[k], int(r.width()), int(r.height()), int(r.x0), int(r.y0), stride, p.reversible);
      }
      if (!p.reversible)
        for (std::size_t b = 0; b < subband_count(p.levels); ++b) {
          const BandLayout &band = l.bands[tc.first_band + b];
          for (std::uint32_t y = 0; y < band.band.height(); ++y)
            for (std::uint32_t x = 0; x < band.band.width(); ++x) {
              double &c = blocks[k][std::size_t(band.buffer_y + y) * stride + band.buffer_x + x];
              c = (c < 0 ? -1 : 1) * std::floor(std::fabs(c) * recips[band.step_index]);
            }
        }
      std::copy(blocks[k].begin(), blocks[k].end(), out.begin() + std::ptrdiff_t(tc.offset));
    }
  }
  return out;
}

void frames() {
  const Setup setups[] = {
      {"grey 8-bit 37x23, 3 levels", cft::Packing::Gray, cf::SampleType::U8, 37, 23, 8, false, false, true, 3, 0, 0, 0,
       0},
      {"RGB 8-bit 33x29 at (5, 7), tiles 16x8 from (3, 5), 2 levels", cft::Packing::Packed3, cf::SampleType::U8, 33, 29,
       8, true, false, true, 2, 16, 8, 3, 5, 5, 7},
      {"RGBA 16-bit 19x31, tiles 7x9, 2 levels", cft::Packing::Packed4, cf::SampleType::U16, 19, 31, 16, true, false,
       true, 2, 7, 9, 0, 0},
      {"YUV 4:2:0 8-bit 45x27, tiles 20x20, 2 levels", cft::Packing::Planar3, cf::SampleType::U8, 45, 27, 8, false,
       true, true, 2, 20, 20, 0, 0},
      {"grey 8-bit 41x35 at (3, 2), tiles 16x16 from (1, 1), 9/7, 2 levels", cft::Packing::Gray, cf::SampleType::U8, 41,
       35, 8, false, false, false, 2, 16, 16, 1, 1, 3, 2},
      {"RGB 8-bit 301x257, 9/7, 5 levels", cft::Packing::Packed3, cf::SampleType::U8, 301, 257, 8, true, false, false,
       5, 0, 0, 0, 0},
      {"RGB 12-bit 301x257, tiles 64x48, 9/7, 3 levels", cft::Packing::Packed3, cf::SampleType::U16, 301, 257, 12, true,
       false, false, 3, 64, 48, 0, 0},
      {"RGB 8-bit 301x257, tiles 40x40, 5/3, 4 levels", cft::Packing::Packed3, cf::SampleType::U8, 301, 257, 8, true,
       false, true, 4, 40, 40, 0, 0},
      {"YUV 4:2:0 16-bit 333x271, 9/7, 4 levels", cft::Packing::Planar3, cf::SampleType::U16, 333, 271, 16, false, true,
       false, 4, 0, 0, 0, 0},
  };
  std::uint32_t seed = 1;
  for (const Setup &s : setups) {
    cft::OwnedFrame f = cft::make_raw(s.packing, s.width, s.height, s.type, 3, s.subsampled);
    cft::fill_random(f, seed++);
    if (s.bit_depth < 16 && s.type == cf::SampleType::U16)  // samples within the stated depth
      for (int c = 0; c < f.view.n_components; ++c)
        for (int y = 0; y < f.view.components[c].height; ++y)
          for (int x = 0; x < f.view.components[c].width; ++x)
            cft::write_sample(f.view, c, x, y, cft::read_sample(f.view, c, x, y) >> (16 - s.bit_depth));
    const cf::J2kInput in = input_of(s, f);
    const Layout l = make_layout(params_of(s, in));
    const std::vector<float> recips = s.reversible
                                          ? std::vector<float>{}
                                          : step_reciprocals(irreversible_steps(std::uint32_t(s.bit_depth), s.levels),
                                                             std::uint32_t(s.bit_depth), s.levels);
    Ints serial(l.coefficient_count, 0x5A5A5A5A), parallel(l.coefficient_count, 0x5A5A5A5A);
    cf::cpu::j2k_transform(in, l, recips, serial.data());
    cf::omp::j2k_transform(in, l, recips, parallel.data(), 0);
    CHECK_MSG(serial == parallel, "%s: openmp differs from the serial reference", s.name);

    const Reals want = reference_coefficients(l, in, recips);
    std::size_t wrong = 0, off_by_one = 0;
    for (std::size_t i = 0; i < want.size(); ++i) {
      const double d = std::fabs(double(serial[i]) - want[i]);
      if (d == 0) continue;
      // Float and double may fall on either side of a step's edge.
      if (!s.reversible && d == 1)
        ++off_by_one;
      else
        ++wrong;
    }
    CHECK_MSG(wrong == 0, "%s: %zu of %zu coefficients differ from the definition", s.name, wrong, want.size());
    CHECK_MSG(off_by_one * 100 <= want.size(), "%s: %zu of %zu indices off by one", s.name, off_by_one, want.size());
    std::printf("%s: %zu coefficients, %zu tiles, %zu indices off by one from the double definition\n", s.name,
                want.size(), l.tiles.size(), off_by_one);
  }
}

// ---------------------------------------------------------------------------
// 7. Refusals.

void refusals() {
  const Setup s = {"", cft::Packing::Packed3, cf::SampleType::U8, 9, 7, 8, true, false, false, 1, 0, 0, 0, 0};
  cft::OwnedFrame f = cft::make_raw(s.packing, s.width, s.height, s.type);
  const cf::J2kInput in = input_of(s, f);
  const Layout l = make_layout(params_of(s, in));
  Ints out(l.coefficient_count);
  const auto refused = [&](const cf::J2kInput &input, const std::vector<float> &recips, const char *why) {
    try {
      cf::cpu::j2k_transform(input, l, recips, out.data());
    } catch (const cf::Error &e) {
      const bool named = std::string(e.what()).find(why) != std::string::npos;
      CHECK_MSG(named, "message '%s' does not say '%s'", e.what(), why);
      return;
    }
    CHECK_MSG(false, "accepted, expected a refusal naming '%s'", why);
  };
  refused(in, {1, 1, 1}, "no reciprocal");
  const std::vector<float> ok(4, 1.0f);
  cf::J2kInput grey = in;
  grey.rgb = false;
  refused(grey, ok, "mct");
  cf::J2kInput small = in;
  small.frame.components[1].width = 8;
  refused(small, ok, "component 1 is 8x7");
  cf::J2kInput s16 = in;
  s16.frame.type = cf::SampleType::S16;
  refused(s16, ok, "U8 or U16");
}

}  // namespace

int main() {
  five_three_by_hand();
  lines_against_definition();
  level_against_definition();
  norms();
  steps_and_weights();
  sample_rules();
  frames();
  refusals();
  return cft::test_result();
}
