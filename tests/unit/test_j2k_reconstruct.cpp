// The JPEG 2000 decoder's reconstruction stage (T.800 Annexes E, F.3, G, H):
//  1. the inverse 5/3 on short lines worked by hand from F.3.8.1's
//     equations, negative floors and single samples included;
//  2. the inverse 5/3 and 9/7 of core/shared/j2k_idwt_rules.hpp against
//     T.800's 1D_SR written plainly here (interleave, 1D_EXTR with PSE,
//     1D_FILTR on absolute indices; double precision for the 9/7), every
//     parity of i0 and lengths 1..9, and the forward line undone;
//  3. one 2-D level (2D_SR: rows, then columns) undoing 2D_SD exactly at
//     every parity of (u0, v0);
//  4. ROI descaling, dequantisation, inverse ICT, rounding and the output
//     sample on values worked by hand;
//  5. frames through the encoder's transform (cf::cpu::j2k_transform) and
//     back: reversible exactly; irreversible within one sample value of the
//     reconstruction written plainly in double, and within the encoder's
//     quantisation error of the input; random and photo content, odd sizes,
//     origins, tiles, 0..5 levels and levels deeper than the size, GRAY8,
//     RGB, RGBA, I420; OpenMP bit for bit against the serial reference;
//  6. reduce = 1, 2: the sizes of B-14 and, reversible, the LL of the
//     transform stopped at that many levels;
//  7. ROI: coefficients scaled up by Maxshift's rule come back;
//  8. mixed wavelets (5/3 and 9/7 tile-components in one tile and across
//     tiles): each as its own wavelet's reconstruction, ROI included; the
//     colour transform over mixed components refused;
//  9. bad input refused with its reason.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "core/codec/j2k_layout.hpp"
#include "core/shared/j2k_dequant_rules.hpp"
#include "core/shared/j2k_dwt_rules.hpp"
#include "core/shared/j2k_idwt_rules.hpp"
#include "core/shared/j2k_quant_rules.hpp"
#include "core/src/j2k_subband_weights.hpp"
#include "cpu/j2k_reconstruct.hpp"
#include "cpu/j2k_transform.hpp"
#include "cudafilters/error.hpp"
#include "frames.hpp"

using namespace cf::j2k;
using Ints = std::vector<std::int32_t>;
using Reals = std::vector<double>;

namespace {

long long floor_div(long long a, long long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// ---------------------------------------------------------------------------
// The definition of 1D_SR, written plainly.

// F.3.7 / F-4: PSE_O, the index inside [i0, i1) that i mirrors to.
int pse(int i, int i0, int i1) {
  const int period = 2 * (i1 - i0 - 1);
  const int m = ((i - i0) % period + period) % period;
  return i0 + std::min(m, period - m);
}

constexpr double kAlpha = -1.586134342059924, kBeta = -0.052980118572961, kGamma = 0.882911075530934,
                 kDelta = 0.443506852043971, kK = 1.230174104914001;
constexpr int kExt = 4;  // samples of extension each side: enough for the 9/7's four steps

// Interleave (low-pass first in `low_high`), then 1D_SR (F.3.6 to F.3.8) on
// absolute indices i0..i1-1. A single sample at an odd i0 is halved; the
// 5/3 rounds that half toward zero (the stage's stated choice).
Reals reference_inverse(const Reals &low_high, int i0, bool reversible) {
  const int n = int(low_high.size()), i1 = i0 + n;
  if (n == 0) return {};
  const int lows = (i1 + 1) / 2 - (i0 + 1) / 2;
  Reals x(static_cast<std::size_t>(n));
  for (int i = i0, l = 0, h = lows; i < i1; ++i) x[std::size_t(i - i0)] = (i & 1) ? low_high[h++] : low_high[l++];
  if (n == 1) {
    if (!(i0 & 1)) return x;
    return {reversible ? std::trunc(x[0] / 2) : x[0] / 2};
  }
  Reals y(std::size_t(n + 2 * kExt));
  const auto at = [&](int i) -> double & { return y[std::size_t(i - i0 + kExt)]; };
  for (int i = i0 - kExt; i < i1 + kExt; ++i) at(i) = x[std::size_t(pse(i, i0, i1) - i0)];
  const auto even = [](int i) { return (i & 1) == 0; };
  if (reversible) {
    for (int i = i0 - kExt + 1; i < i1 + kExt - 1; ++i)
      if (even(i)) at(i) -= double(floor_div((long long)(at(i - 1) + at(i + 1) + 2), 4));
    for (int i = i0 - kExt + 2; i < i1 + kExt - 2; ++i)
      if (!even(i)) at(i) += double(floor_div((long long)(at(i - 1) + at(i + 1)), 2));
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

// The rules' inverse line on a copy of x.
template <class F>
std::vector<typename F::Sample> rules_inverse(const std::vector<typename F::Sample> &x, int i0) {
  std::vector<typename F::Sample> out(x.size()), scratch(x.size() + 1);
  dwt::inverse_line<F>({x.data(), 1}, int(x.size()), (i0 & 1) != 0, scratch.data(), {out.data(), 1});
  return out;
}
template <class F>
std::vector<typename F::Sample> rules_forward(const std::vector<typename F::Sample> &x, int i0) {
  std::vector<typename F::Sample> out(x.size()), scratch(x.size() + 1);
  dwt::forward_line<F>({x.data(), 1}, int(x.size()), (i0 & 1) != 0, scratch.data(), {out.data(), 1});
  return out;
}

// ---------------------------------------------------------------------------
// 1. The inverse 5/3 by hand: X is the interleaved line, extended by PSE;
// first X(2n) -= floor((X(2n-1) + X(2n+1) + 2) / 4) on the even indices,
// then X(2n+1) += floor((X(2n) + X(2n+2)) / 2) on the odd ones.

void five_three_by_hand() {
  struct Case {
    Ints low_high;  // low-pass samples first
    int i0;
    Ints want;
  } cases[] = {
      // i0 = 0, L = {1, 3}, H = {0, 1}: X0..X3 = 1, 0, 3, 1; X(-1) = X1 = 0, X4 = X2 = 3, X5 = X1 = 0.
      // X0 = 1 - floor((0+0+2)/4) = 1, X2 = 3 - floor((0+1+2)/4) = 3, X4 = 3 - floor((1+0+2)/4) = 3;
      // X1 = 0 + floor((1+3)/2) = 2, X3 = 1 + floor((3+3)/2) = 4.
      {{1, 3, 0, 1}, 0, {1, 2, 3, 4}},
      // i0 = 1, L = {2, 4} (indices 2, 4), H = {-1, 0} (indices 1, 3): X1..X4 = -1, 2, 0, 4;
      // X0 = X2 = 2, X5 = X3 = 0, X(-1) = X3 = 0.
      // X2 = 2 - floor((-1+0+2)/4) = 2, X4 = 4 - floor((0+0+2)/4) = 4, X0 = 2 - floor((0-1+2)/4) = 2;
      // X1 = -1 + floor((2+2)/2) = 1, X3 = 0 + floor((2+4)/2) = 3.
      {{2, 4, -1, 0}, 1, {1, 2, 3, 4}},
      // i0 = 0, L = {-5, 2}, H = {3}: X0..X2 = -5, 3, 2; X(-1) = X3 = X1 = 3.
      // X0 = -5 - floor((3+3+2)/4) = -7, X2 = 2 - floor((3+3+2)/4) = 0;
      // X1 = 3 + floor((-7+0)/2) = 3 - 4 = -1.
      {{-5, 2, 3}, 0, {-7, -1, 0}},
      // i0 = 0, L = {4}, H = {-3}: X0, X1 = 4, -3; X(-1) = X1, X2 = X0.
      // X0 = 4 - floor((-3-3+2)/4) = 4 + 1 = 5, X2 = X0 = 5; X1 = -3 + floor((5+5)/2) = 2.
      {{4, -3}, 0, {5, 2}},
      // i0 = 1, L = {6} (index 2), H = {-1} (index 1): X0 = X2 = 6, X3 = X1 = -1.
      // X2 = 6 - floor((-1-1+2)/4) = 6, X0 = 6; X1 = -1 + floor((6+6)/2) = 5.
      {{6, -1}, 1, {5, 6}},
      // i0 = 3, 5 samples, L = {10, -4} (indices 4, 6), H = {1, -2, 7} (3, 5, 7):
      // X3..X7 = 1, 10, -2, -4, 7; X2 = X4, X8 = X6.
      // X4 = 10 - floor((1-2+2)/4) = 10, X6 = -4 - floor((-2+7+2)/4) = -5; X2 = 10, X8 = -5.
      // X3 = 1 + floor((10+10)/2) = 11, X5 = -2 + floor((10-5)/2) = 0, X7 = 7 + floor((-5-5)/2) = 2.
      {{10, -4, 1, -2, 7}, 3, {11, 10, 0, -5, 2}},
      // A single sample: kept at an even index, halved at an odd one.
      {{9}, 4, {9}},
      {{14}, 5, {7}},
      {{-14}, 1, {-7}},
  };
  for (const Case &c : cases) {
    const Ints got = rules_inverse<dwt::Reversible53>(c.low_high, c.i0);
    CHECK_MSG(got == c.want, "inverse 5/3 of %zu samples at i0 = %d: first %d, want %d", c.want.size(), c.i0, got[0],
              c.want[0]);
  }
}

// ---------------------------------------------------------------------------
// 2. Lines against the definition, and the forward undone.

void lines_against_definition() {
  std::mt19937 rng(35);
  std::uniform_int_distribution<int> sample(-2048, 2047);
  int checked = 0;
  double worst97 = 0;
  for (int i0 : {0, 1, 2, 3, 6, 7, 1000, 1001})
    for (int n = 1; n <= 9; ++n)
      for (int trial = 0; trial < 20; ++trial) {
        Ints x(static_cast<std::size_t>(n));
        for (auto &v : x) v = sample(rng);
        const Reals xd(x.begin(), x.end());
        // 5/3: exactly the definition on any coefficients, and the forward exactly undone.
        const Ints got = rules_inverse<dwt::Reversible53>(x, i0);
        CHECK_MSG(Reals(got.begin(), got.end()) == reference_inverse(xd, i0, true), "inverse 5/3, n = %d, i0 = %d", n,
                  i0);
        CHECK_MSG(rules_inverse<dwt::Reversible53>(rules_forward<dwt::Reversible53>(x, i0), i0) == x,
                  "5/3 round trip, n = %d, i0 = %d", n, i0);
        // 9/7: within 1e-4 of the double definition, relative to the signal's size; the forward undone as closely.
        const std::vector<float> xf(x.begin(), x.end());
        const std::vector<float> gf = rules_inverse<dwt::Irreversible97>(xf, i0);
        const Reals wf = reference_inverse(xd, i0, false);
        const std::vector<float> back =
            rules_inverse<dwt::Irreversible97>(rules_forward<dwt::Irreversible97>(xf, i0), i0);
        double scale = 1, err = 0, back_err = 0;
        for (double v : xd) scale = std::max(scale, std::fabs(v));
        for (int i = 0; i < n; ++i) {
          err = std::max(err, std::fabs(gf[std::size_t(i)] - wf[std::size_t(i)]));
          back_err = std::max(back_err, std::fabs(back[std::size_t(i)] - xd[std::size_t(i)]));
        }
        CHECK_MSG(err <= 1e-4 * scale, "inverse 9/7, n = %d, i0 = %d: off by %g", n, i0, err);
        CHECK_MSG(back_err <= 1e-4 * scale, "9/7 round trip, n = %d, i0 = %d: off by %g", n, i0, back_err);
        worst97 = std::max(worst97, err / scale);
        ++checked;
      }
  std::printf("lines: %d signals through both inverses; 9/7 within %.2g of the double definition (relative)\n", checked,
              worst97);
}

// ---------------------------------------------------------------------------
// 3. One 2-D level.

void levels_undone() {
  std::mt19937 rng(4);
  std::uniform_int_distribution<int> sample(-255, 255);
  int blocks = 0;
  for (int u0 : {0, 1, 4, 5})
    for (int v0 : {0, 1, 2, 3})
      for (const auto &[w, h] :
           {std::pair{7, 5}, std::pair{8, 9}, std::pair{1, 6}, std::pair{5, 1}, std::pair{1, 1}, std::pair{2, 3}}) {
        const int stride = w + 3;  // the region inside a wider block
        Ints b(std::size_t(stride * h));
        for (auto &v : b) v = sample(rng);
        const Ints original = b;
        Ints scratch(std::size_t(std::max(w, h)));
        dwt::forward_level<dwt::Reversible53>(b.data(), stride, std::uint32_t(u0), std::uint32_t(v0), w, h,
                                              scratch.data());
        dwt::inverse_level<dwt::Reversible53>(b.data(), stride, std::uint32_t(u0), std::uint32_t(v0), w, h,
                                              scratch.data());
        CHECK_MSG(b == original, "5/3 level %dx%d at (%d, %d) not undone", w, h, u0, v0);
        ++blocks;
      }
  // 2D_SR's order is rows then columns: on a block where the other order
  // gives another integer result, the rules undo the forward exactly.
  bool found = false;
  for (int trial = 0; trial < 1000 && !found; ++trial) {
    Ints b(9), scratch(3);
    for (auto &v : b) v = sample(rng);
    const Ints original = b;
    dwt::forward_level<dwt::Reversible53>(b.data(), 3, 0, 0, 3, 3, scratch.data());
    Ints columns_first = b;
    for (int x = 0; x < 3; ++x)
      dwt::inverse_column<dwt::Reversible53>(columns_first.data(), 3, 0, 3, x, scratch.data());
    for (int y = 0; y < 3; ++y) dwt::inverse_row<dwt::Reversible53>(columns_first.data(), 3, 0, 3, y, scratch.data());
    if (columns_first == original) continue;
    found = true;
    dwt::inverse_level<dwt::Reversible53>(b.data(), 3, 0, 0, 3, 3, scratch.data());
    CHECK(b == original);
  }
  CHECK_MSG(found, "no block where the order of HOR_SR and VER_SR matters");
  std::printf("levels: %d 5/3 regions undone exactly\n", blocks);
}

// ---------------------------------------------------------------------------
// 4. Sample-wise rules by hand.

void sample_rules() {
  // H.2, s = 3: magnitudes of 8 and more are ROI's and come down by 3 bits.
  CHECK(quant::roi_descale(8, 3) == 1 && quant::roi_descale(-8, 3) == -1);
  CHECK(quant::roi_descale(23, 3) == 2 && quant::roi_descale(-23, 3) == -2);
  CHECK(quant::roi_descale(7, 3) == 7 && quant::roi_descale(-7, 3) == -7 && quant::roi_descale(0, 3) == 0);
  CHECK(quant::roi_descale(123, 0) == 123 && quant::roi_descale(0x7fffffff, 31) == 0x7fffffff);
  CHECK(quant::roi_descale(0x7fffffff, 30) == 1 && quant::roi_descale(INT32_MIN, 30) == -2);
  // E.1.1.1: q Delta_b.
  CHECK(quant::dequantise(3, 0.5f) == 1.5f && quant::dequantise(-7, 0.25f) == -1.75f && quant::dequantise(0, 9) == 0);
  // G-6 on unit vectors gives its columns.
  float y[3] = {1, 0, 0}, cb[3] = {0, 1, 0}, cr[3] = {0, 0, 1};
  quant::ict_inverse(y);
  quant::ict_inverse(cb);
  quant::ict_inverse(cr);
  CHECK(y[0] == 1 && y[1] == 1 && y[2] == 1);
  CHECK(cb[0] == 0 && cb[1] == -0.34413f && cb[2] == 1.772f);
  CHECK(cr[0] == 1.402f && cr[1] == -0.71414f && cr[2] == 0);
  // G-5 then G-6: the identity to the rounding of the published coefficients (1e-4 of the values).
  float rgb[3] = {100, -50, 27};
  quant::ict_forward(rgb);
  quant::ict_inverse(rgb);
  CHECK(std::fabs(rgb[0] - 100) < 1e-2 && std::fabs(rgb[1] + 50) < 1e-2 && std::fabs(rgb[2] - 27) < 1e-2);
  // The nearest integer, ties to even.
  CHECK(quant::nearest(2.5f) == 2 && quant::nearest(3.5f) == 4 && quant::nearest(-2.5f) == -2);
  CHECK(quant::nearest(2.49f) == 2 && quant::nearest(-0.51f) == -1 && quant::nearest(NAN) == 0);
  CHECK(quant::nearest(1e20f) == (1 << 30) && quant::nearest(-1e20f) == -(1 << 30));
  // G.1.2 undone and clamped.
  CHECK(quant::output_sample(-128, 8) == 0 && quant::output_sample(127, 8) == 255);
  CHECK(quant::output_sample(-129, 8) == 0 && quant::output_sample(128, 8) == 255);
  CHECK(quant::output_sample(0, 8) == 128 && quant::output_sample(0, 1) == 1 && quant::output_sample(-1, 1) == 0);
  CHECK(quant::output_sample(0, 16) == 32768 && quant::output_sample(INT32_MAX, 16) == 65535);
  CHECK(quant::output_sample(INT32_MIN, 12) == 0 && quant::output_sample(2047, 12) == 4095);
}

// ---------------------------------------------------------------------------
// 5. Frames.

struct Setup {
  const char *name;
  cft::Packing packing;
  cf::SampleType type;
  int width, height, bit_depth;
  bool rgb, subsampled, reversible;
  std::uint32_t levels, tile_width = 0, tile_height = 0, tile_x0 = 0, tile_y0 = 0;
  std::uint32_t x0 = 0, y0 = 0;  // the image's origin on the reference grid
  bool photo = false;
};

CodestreamParams params_of(const Setup &s, const cf::J2kInput &in, std::uint32_t levels) {
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
  p.levels = levels;
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

// A tight frame of one plane per component, of the sizes the codestream
// has at `reduce` computed here from B-12 and B-14 (nested ceilings).
cft::OwnedFrame output_frame(const CodestreamParams &p, cf::SampleType type, std::uint32_t reduce) {
  cf::FrameView like;
  like.n_components = int(p.components.size());
  for (std::size_t c = 0; c < p.components.size(); ++c) {
    const std::uint64_t d = std::uint64_t(1) << reduce;
    const Component &k = p.components[c];
    like.components[c].width =
        int(ceil_div(ceil_div(p.x1, k.subsample_x), d) - ceil_div(ceil_div(p.x0, k.subsample_x), d));
    like.components[c].height =
        int(ceil_div(ceil_div(p.y1, k.subsample_y), d) - ceil_div(ceil_div(p.y0, k.subsample_y), d));
  }
  cft::OwnedFrame f = cft::make_planar_like(like, type);
  cft::fill_bytes(f, 0xA5);  // every sample must be written
  return f;
}

cft::OwnedFrame input_frame(const Setup &s, std::uint32_t seed, const std::vector<cft::Photo> &photos) {
  cft::OwnedFrame f = cft::make_raw(s.packing, s.width, s.height, s.type, 3, s.subsampled);
  if (s.photo && !photos.empty())
    cft::fill_from_rgb(f, photos[0].width, photos[0].height, photos[0].rgb);
  else
    cft::fill_random(f, seed);
  if (s.bit_depth < int(8 * cf::sample_size(s.type)))  // samples within the stated depth
    for (int c = 0; c < f.view.n_components; ++c)
      for (int y = 0; y < f.view.components[c].height; ++y)
        for (int x = 0; x < f.view.components[c].width; ++x)
          cft::write_sample(f.view, c, x, y,
                            cft::read_sample(f.view, c, x, y) >> (8 * cf::sample_size(s.type) - s.bit_depth));
  return f;
}

// The steps a decoder reads for the encoder's irreversible QCD, per band of
// the layout, with one fraction bit: the index q becomes 2q + sign(q) and
// the step Delta_b / 2, so that a non-zero index is reconstructed at the
// middle of its interval (E.1.1.2 with r = 1/2).
std::vector<float> midpoint_steps(const Layout &l, std::uint32_t depth) {
  const std::vector<SubbandStep> steps = irreversible_steps(depth, l.params.levels);
  std::vector<float> out;
  for (const BandLayout &b : l.bands) out.push_back(float(decoded_step(steps[b.step_index], depth, b.orientation) / 2));
  return out;
}
void add_fraction_bit(Ints &q) {
  for (auto &v : q) v = v > 0 ? 2 * v + 1 : v < 0 ? 2 * v - 1 : 0;
}

long long max_difference(const cf::FrameView &a, const cf::FrameView &b) {
  long long worst = 0;
  for (int c = 0; c < a.n_components; ++c)
    for (int y = 0; y < a.components[c].height; ++y)
      for (int x = 0; x < a.components[c].width; ++x)
        worst = std::max(worst, std::llabs(cft::read_sample(a, c, x, y) - cft::read_sample(b, c, x, y)));
  return worst;
}

double rms_difference(const cf::FrameView &a, const cf::FrameView &b) {
  double sum = 0;
  std::size_t n = 0;
  for (int c = 0; c < a.n_components; ++c)
    for (int y = 0; y < a.components[c].height; ++y)
      for (int x = 0; x < a.components[c].width; ++x, ++n) {
        const double d = double(cft::read_sample(a, c, x, y) - cft::read_sample(b, c, x, y));
        sum += d * d;
      }
  return n ? std::sqrt(sum / double(n)) : 0;
}

struct Coded {
  Layout layout;
  Ints coefficients;
  Reconstruction r;
};

Coded encode(const Setup &s, const cf::J2kInput &in, std::uint32_t levels) {
  Coded c{make_layout(params_of(s, in, levels)), {}, {}};
  const auto depth = std::uint32_t(s.bit_depth);
  const std::vector<float> recips =
      s.reversible ? std::vector<float>{} : step_reciprocals(irreversible_steps(depth, levels), depth, levels);
  c.coefficients.assign(c.layout.coefficient_count, 0x5A5A5A5A);
  cf::cpu::j2k_transform(in, c.layout, recips, c.coefficients.data());
  if (!s.reversible) {
    add_fraction_bit(c.coefficients);
    c.r.steps = midpoint_steps(c.layout, depth);
  }
  return c;
}

// The reconstruction by the definitions, in double: each index q (with
// its fraction bit) times the step, the levels from NL down (rows, then
// columns, by reference_inverse), G-6 or the inverse RCT, the nearest integer, the
// DC shift, the clamp.
cft::OwnedFrame reference_reconstruct(const Setup &s, const Coded &c) {
  const CodestreamParams &p = c.layout.params;
  cft::OwnedFrame out = output_frame(p, s.type, 0);
  const std::vector<SubbandStep> steps = irreversible_steps(std::uint32_t(s.bit_depth), p.levels);
  const double half = std::ldexp(1.0, s.bit_depth - 1), top = 2 * half - 1;
  for (const TileLayout &t : c.layout.tiles) {
    const std::size_t comps = p.components.size();
    std::vector<Reals> blocks(comps);
    for (std::size_t k = 0; k < comps; ++k) {
      const TileComponentLayout &tc = c.layout.tile_components[t.first_tile_component + k];
      const int stride = int(tc.rect.width());
      Reals &b = blocks[k];
      b.assign(c.coefficients.begin() + std::ptrdiff_t(tc.offset),
               c.coefficients.begin() + std::ptrdiff_t(tc.offset + tc.rect.width() * std::size_t(tc.rect.height())));
      if (!s.reversible)
        for (std::size_t i = 0; i < subband_count(p.levels); ++i) {
          const BandLayout &band = c.layout.bands[tc.first_band + i];
          const double step = decoded_step(steps[band.step_index], std::uint32_t(s.bit_depth), band.orientation) / 2;
          for (std::uint32_t y = 0; y < band.band.height(); ++y)
            for (std::uint32_t x = 0; x < band.band.width(); ++x)
              b[std::size_t(band.buffer_y + y) * stride + band.buffer_x + x] *= step;
        }
      for (std::uint32_t l = p.levels; l >= 1; --l) {
        const Rect &r = tc.resolutions[p.levels - l + 1];
        for (std::uint32_t y = 0; y < r.height(); ++y) {
          const auto row = b.begin() + std::ptrdiff_t(y) * stride;
          const Reals got = reference_inverse(Reals(row, row + r.width()), int(r.x0), s.reversible);
          std::copy(got.begin(), got.end(), row);
        }
        for (std::uint32_t x = 0; x < r.width(); ++x) {
          Reals col;
          for (std::uint32_t y = 0; y < r.height(); ++y) col.push_back(b[std::size_t(y) * stride + x]);
          col = reference_inverse(col, int(r.y0), s.reversible);
          for (std::uint32_t y = 0; y < r.height(); ++y) b[std::size_t(y) * stride + x] = col[y];
        }
      }
    }
    for (std::size_t i = 0; s.rgb && i < blocks[0].size(); ++i) {
      const double y = blocks[0][i], cb = blocks[1][i], cr = blocks[2][i];
      if (s.reversible) {
        const double g = y - double(floor_div((long long)(cb + cr), 4));
        blocks[0][i] = cr + g, blocks[1][i] = g, blocks[2][i] = cb + g;
      } else {
        blocks[0][i] = y + 1.402 * cr;
        blocks[1][i] = y - 0.34413 * cb - 0.71414 * cr;
        blocks[2][i] = y + 1.772 * cb;
      }
    }
    for (std::size_t k = 0; k < comps; ++k) {
      const TileComponentLayout &tc = c.layout.tile_components[t.first_tile_component + k];
      const Component &q = p.components[k];
      for (std::uint32_t y = 0; y < tc.rect.height(); ++y)
        for (std::uint32_t x = 0; x < tc.rect.width(); ++x) {
          const double v = std::nearbyint(blocks[k][std::size_t(y) * tc.rect.width() + x]) + half;
          cft::write_sample(out.view, int(k), int(tc.rect.x0 + x - ceil_div(p.x0, q.subsample_x)),
                            int(tc.rect.y0 + y - ceil_div(p.y0, q.subsample_y)), (long long)std::clamp(v, 0.0, top));
        }
    }
  }
  return out;
}

// Reconstructs with both backends; checks that they agree.
cft::OwnedFrame reconstruct(const Setup &s, const Coded &c, std::uint32_t reduce) {
  Reconstruction r = c.r;
  r.reduce = reduce;
  cft::OwnedFrame serial = output_frame(c.layout.params, s.type, reduce);
  cft::OwnedFrame parallel = output_frame(c.layout.params, s.type, reduce);
  cf::cpu::j2k_reconstruct(c.layout, c.coefficients.data(), r, serial.view);
  cf::omp::j2k_reconstruct(c.layout, c.coefficients.data(), r, parallel.view, 0);
  CHECK_MSG(serial.bytes == parallel.bytes, "%s, reduce %u: openmp differs from the serial reference", s.name, reduce);
  return serial;
}

// Every sample of a frame of `n` components.
std::size_t samples_of(const cf::FrameView &v) {
  std::size_t n = 0;
  for (int c = 0; c < v.n_components; ++c) n += std::size_t(v.components[c].width) * v.components[c].height;
  return n;
}

std::vector<Setup> setups() {
  using P = cft::Packing;
  const auto U8 = cf::SampleType::U8, U16 = cf::SampleType::U16;
  std::vector<Setup> v = {
      {"grey 1x1, 0 levels", P::Gray, U8, 1, 1, 8, false, false, true, 0},
      {"grey 1x1, 5 levels", P::Gray, U8, 1, 1, 8, false, false, true, 5},
      {"grey 1x1 at (3, 5), 5 levels, 9/7", P::Gray, U8, 1, 1, 8, false, false, false, 5, 0, 0, 0, 0, 3, 5},
      {"grey 1x7, 3 levels", P::Gray, U8, 1, 7, 8, false, false, true, 3},
      {"grey 7x1 at (1, 0), 4 levels, 9/7", P::Gray, U8, 7, 1, 8, false, false, false, 4, 0, 0, 0, 0, 1, 0},
      {"grey 13x17, 5 levels (deeper than the size)", P::Gray, U8, 13, 17, 8, false, false, true, 5},
      {"grey 13x17 at (5, 3), 5 levels, 9/7", P::Gray, U8, 13, 17, 8, false, false, false, 5, 0, 0, 0, 0, 5, 3},
      {"grey 61x33 at (3, 2), tiles 16x16 from (1, 1), 2 levels", P::Gray, U8, 61, 33, 8, false, false, true, 2, 16, 16,
       1, 1, 3, 2},
      {"grey 61x33 at (3, 2), tiles 16x16 from (1, 1), 2 levels, 9/7", P::Gray, U8, 61, 33, 8, false, false, false, 2,
       16, 16, 1, 1, 3, 2},
      {"grey 61x33, 1 level", P::Gray, U8, 61, 33, 8, false, false, true, 1},
      {"RGB 33x29 at (5, 7), tiles 16x8 from (3, 5), 2 levels", P::Packed3, U8, 33, 29, 8, true, false, true, 2, 16, 8,
       3, 5, 5, 7},
      {"RGB 61x33, 8 levels (deeper than the size), 9/7", P::Packed3, U8, 61, 33, 8, true, false, false, 8},
      {"RGBA 16-bit 19x31, tiles 7x9, 2 levels", P::Packed4, U16, 19, 31, 16, true, false, true, 2, 7, 9},
      {"RGBA 16-bit 19x31, tiles 7x9, 3 levels, 9/7", P::Packed4, U16, 19, 31, 16, true, false, false, 3, 7, 9},
      {"I420 45x27, tiles 20x20, 2 levels", P::Planar3, U8, 45, 27, 8, false, true, true, 2, 20, 20},
      {"I420 45x27 at (2, 2), 3 levels, 9/7", P::Planar3, U8, 45, 27, 8, false, true, false, 3, 0, 0, 0, 0, 2, 2},
      {"I420 16-bit 133x71, 4 levels, 9/7", P::Planar3, U16, 133, 71, 16, false, true, false, 4},
      {"RGB 12-bit 301x257, tiles 64x48, 3 levels", P::Packed3, U16, 301, 257, 12, true, false, true, 3, 64, 48},
      {"RGB 12-bit 301x257, tiles 64x48, 3 levels, 9/7", P::Packed3, U16, 301, 257, 12, true, false, false, 3, 64, 48},
      {"RGB 301x257, 5 levels, 9/7", P::Packed3, U8, 301, 257, 8, true, false, false, 5},
      {"photo RGB 320x240, 5 levels", P::Packed3, U8, 320, 240, 8, true, false, true, 5, 0, 0, 0, 0, 0, 0, true},
      {"photo RGB 320x240, 5 levels, 9/7", P::Packed3, U8, 320, 240, 8, true, false, false, 5, 0, 0, 0, 0, 0, 0, true},
      {"photo RGB 320x240 at (7, 3), tiles 64x64 from (5, 1), 3 levels, 9/7", P::Packed3, U8, 320, 240, 8, true, false,
       false, 3, 64, 64, 5, 1, 7, 3, true},
      {"photo I420 320x240, 4 levels, 9/7", P::Planar3, U8, 320, 240, 8, false, true, false, 4, 0, 0, 0, 0, 0, 0, true},
  };
  for (std::uint32_t levels = 0; levels <= 5; ++levels)
    for (bool reversible : {true, false})
      v.push_back({reversible ? "grey 37x23, 5/3, 0..5 levels" : "grey 37x23, 9/7, 0..5 levels", P::Gray, U8, 37, 23, 8,
                   false, false, reversible, levels});
  return v;
}

void frames(const std::vector<cft::Photo> &photos) {
  std::uint32_t seed = 1;
  long long worst_grey8 = 0, worst_rgb8 = 0, worst_deep = 0;
  for (const Setup &s : setups()) {
    if (s.photo && photos.empty()) continue;
    const cft::OwnedFrame f = input_frame(s, seed++, photos);
    const cf::J2kInput in = input_of(s, f);
    const Coded c = encode(s, in, s.levels);
    const cft::OwnedFrame out = reconstruct(s, c, 0);
    std::string first;
    const long long differ = cft::count_differences(f.view, out.view, &first);
    const long long worst = max_difference(f.view, out.view);
    // Against the definition in double: the same but for float rounding.
    const cft::OwnedFrame want = reference_reconstruct(s, c);
    const long long off_definition = max_difference(want.view, out.view);
    CHECK_MSG(off_definition <= (s.reversible ? 0 : 1), "%s: %lld from the definition in double", s.name,
              off_definition);
    const double rms = rms_difference(f.view, out.view);
    if (s.reversible) {
      CHECK_MSG(differ == 0, "%s: %lld samples differ from the input, first %s", s.name, differ, first.c_str());
    } else {
      // The encoder's steps are 1 / norm_b: about 1/12 of squared error per
      // sample and component, which G-6 raises to about 1/3 for B (1 +
      // 1.772^2); the largest of many such errors reaches a few units. (At
      // 0 levels the step is 1 and integer samples come back at q + 1/2,
      // rounded to even: half of them off by one.)
      const long long bound = s.rgb ? 4 : 2;
      CHECK_MSG(worst <= bound, "%s: a sample off by %lld", s.name, worst);
      CHECK_MSG(rms < 0.75, "%s: root mean square error %.3f", s.name, rms);
      long long &w = s.bit_depth == 8 ? (s.rgb ? worst_rgb8 : worst_grey8) : worst_deep;
      w = std::max(w, worst);
    }
    std::printf("%s: %zu samples, %zu tiles, %lld differ from the input (at most by %lld, rms %.3f)\n", s.name,
                samples_of(out.view), c.layout.tiles.size(), differ, worst, rms);
  }
  std::printf("irreversible: largest error %lld (8-bit grey and I420), %lld (8-bit RGB, ICT), %lld (12, 16-bit)\n",
              worst_grey8, worst_rgb8, worst_deep);
}

// ---------------------------------------------------------------------------
// 6. Reduced resolutions.

// G.2's inverse RCT written plainly (G first, with its floor) and the DC shift,
// clamped as G.1.2's range demands.
void expected_reduced(const Setup &s, const Coded &ll, cft::OwnedFrame &want, std::uint32_t reduce) {
  const CodestreamParams &p = ll.layout.params;
  const long long top = (1LL << s.bit_depth) - 1, half = 1LL << (s.bit_depth - 1);
  for (const TileLayout &t : ll.layout.tiles) {
    const std::size_t comps = p.components.size();
    for (std::size_t k = 0; k < comps; ++k) {
      const TileComponentLayout &tc = ll.layout.tile_components[t.first_tile_component + k];
      const Rect &r = tc.resolutions[0];  // the LL of `reduce` levels, top-left of the block
      const std::uint64_t d = std::uint64_t(p.components[k].subsample_x) << reduce;
      const std::uint64_t e = std::uint64_t(p.components[k].subsample_y) << reduce;
      for (std::uint32_t y = 0; y < r.height(); ++y)
        for (std::uint32_t x = 0; x < r.width(); ++x) {
          const auto at = [&](std::size_t j) {
            const TileComponentLayout &u = ll.layout.tile_components[t.first_tile_component + j];
            return (long long)ll.coefficients[u.offset + std::size_t(y) * u.rect.width() + x];
          };
          long long v = at(k);
          if (s.rgb && k < 3) {
            const long long g = at(0) - floor_div(at(1) + at(2), 4);
            v = k == 0 ? at(2) + g : k == 1 ? g : at(1) + g;
          }
          v = std::clamp(v + half, 0LL, top);
          cft::write_sample(want.view, int(k), int(r.x0 + x - ceil_div(p.x0, d)), int(r.y0 + y - ceil_div(p.y0, e)), v);
        }
    }
  }
}

void reduced() {
  using P = cft::Packing;
  const Setup cases[] = {
      {"grey 61x33 at (3, 2), tiles 16x16 from (1, 1), 4 levels", P::Gray, cf::SampleType::U8, 61, 33, 8, false, false,
       true, 4, 16, 16, 1, 1, 3, 2},
      {"RGB 45x27 at (1, 3), 3 levels", P::Packed3, cf::SampleType::U8, 45, 27, 8, true, false, true, 3, 0, 0, 0, 0, 1,
       3},
      {"I420 12-bit 45x27 at (4, 2), tiles 24x24, 2 levels", P::Planar3, cf::SampleType::U16, 45, 27, 12, false, true,
       true, 2, 24, 24, 0, 0, 4, 2},
      {"RGB 13x11, 2 levels, 9/7", P::Packed3, cf::SampleType::U8, 13, 11, 8, true, false, false, 2},
      {"grey 1x1 at (4, 4), 2 levels", P::Gray, cf::SampleType::U8, 1, 1, 8, false, false, true, 2, 0, 0, 0, 0, 4, 4},
  };
  std::uint32_t seed = 100;
  for (const Setup &s : cases) {
    const cft::OwnedFrame f = input_frame(s, seed++, {});
    const cf::J2kInput in = input_of(s, f);
    const Coded c = encode(s, in, s.levels);
    for (std::uint32_t reduce = 1; reduce <= std::min(2u, s.levels); ++reduce) {
      const cft::OwnedFrame out = reconstruct(s, c, reduce);  // sized by B-14 here: refused otherwise
      std::printf("%s, reduce %u: component 0 %dx%d\n", s.name, reduce, out.view.components[0].width,
                  out.view.components[0].height);
      if (!s.reversible) continue;
      // The LL after `reduce` levels is what the transform stopped there makes.
      const Coded ll = encode(s, in, reduce);
      cft::OwnedFrame want = output_frame(c.layout.params, s.type, reduce);
      expected_reduced(s, ll, want, reduce);
      std::string first;
      const long long differ = cft::count_differences(want.view, out.view, &first);
      CHECK_MSG(differ == 0, "%s, reduce %u: %lld samples differ from the LL, first %s", s.name, reduce, differ,
                first.c_str());
    }
  }
  // B-14 by hand: 61 columns from x0 = 3 at reduce 2: ceil(64 / 4) - ceil(3 / 4) = 16 - 1 = 15; rows from
  // y0 = 2: ceil(35 / 4) - ceil(2 / 4) = 9 - 1 = 8.
  CodestreamParams p = one_tile_image(61, 33, {{8, false, 1, 1}, {8, false, 2, 2}});
  p.x0 = 3, p.y0 = 2, p.x1 = 64, p.y1 = 35;
  const Size s0 = reduced_component_size(p, 0, 2), s1 = reduced_component_size(p, 1, 2);
  CHECK(s0.width == 15 && s0.height == 8);
  // Component 1 (2x2 subsampled): ceil(64 / 8) - ceil(3 / 8) = 7, ceil(35 / 8) - ceil(2 / 8) = 4.
  CHECK(s1.width == 7 && s1.height == 4);
}

// ---------------------------------------------------------------------------
// 7. ROI (Maxshift).

void roi() {
  const Setup s = {"grey 40x30, 3 levels", cft::Packing::Gray, cf::SampleType::U8, 40, 30, 8, false, false, true, 3};
  const cft::OwnedFrame f = input_frame(s, 7, {});
  const cf::J2kInput in = input_of(s, f);
  Coded c = encode(s, in, s.levels);
  // H.1: s is chosen so that 2^s exceeds every background magnitude; the
  // region's coefficients (here the left half of each row of the block)
  // are scaled up by 2^s, the background left.
  std::int32_t largest = 0;
  for (std::int32_t v : c.coefficients) largest = std::max(largest, std::abs(v));
  std::uint32_t shift = 0;
  while ((std::int32_t(1) << shift) <= largest) ++shift;
  for (std::size_t i = 0; i < c.coefficients.size(); ++i)
    if (i % 40 < 20) c.coefficients[i] *= std::int32_t(1) << shift;
  c.r.roi_shifts = {shift};
  const cft::OwnedFrame out = reconstruct(s, c, 0);
  std::string first;
  CHECK_MSG(cft::count_differences(f.view, out.view, &first) == 0, "ROI with s = %u: first %s", shift, first.c_str());
  // Without the shift the region comes out wrong.
  c.r.roi_shifts = {0};
  CHECK(cft::count_differences(f.view, reconstruct(s, c, 0).view) > 0);
  std::printf("ROI: s = %u undone\n", shift);
}

// ---------------------------------------------------------------------------
// 8. Mixed wavelets: tile-components of the 5/3 and of the 9/7 in one tile
// and across tiles (COC). The encoder codes one wavelet for all, so the
// coefficients come from two encodings of one input, the 5/3's and the
// 9/7's (same geometry, same layout), each tile-component taking its own
// wavelet's. Without a colour transform each tile-component is
// reconstructed alone: the 5/3 ones must give the input back exactly, the
// 9/7 ones the samples the all-9/7 reconstruction gives, bit for bit.

// Tile-component i of `l` is 5/3 when pick(tile index, component) says so.
template <class Pick>
Coded mixed_of(const Coded &rev, const Coded &irr, Pick &&pick) {
  Coded m = rev;
  m.r = irr.r;
  m.r.irreversible_fraction_bits = 1;
  for (TileComponentLayout &tc : m.layout.tile_components) {
    tc.reversible = pick(tc.tile, tc.component);
    if (tc.reversible) continue;
    const std::size_t n = std::size_t(tc.rect.width()) * tc.rect.height();
    std::copy_n(irr.coefficients.begin() + std::ptrdiff_t(tc.offset), n,
                m.coefficients.begin() + std::ptrdiff_t(tc.offset));
  }
  return m;
}

// The frame the tile-components of `m` should give: the input where 5/3,
// the all-9/7 reconstruction where 9/7.
cft::OwnedFrame mixed_expected(const Coded &m, const cf::FrameView &input, const cf::FrameView &all97,
                               cf::SampleType type) {
  const CodestreamParams &p = m.layout.params;
  cft::OwnedFrame want = output_frame(p, type, 0);
  for (const TileComponentLayout &tc : m.layout.tile_components) {
    const Component &q = p.components[tc.component];
    const cf::FrameView &from = tc.reversible ? input : all97;
    for (std::uint32_t y = tc.rect.y0; y < tc.rect.y1; ++y)
      for (std::uint32_t x = tc.rect.x0; x < tc.rect.x1; ++x) {
        const int fx = int(x - ceil_div(p.x0, q.subsample_x)), fy = int(y - ceil_div(p.y0, q.subsample_y));
        cft::write_sample(want.view, int(tc.component), fx, fy, cft::read_sample(from, int(tc.component), fx, fy));
      }
  }
  return want;
}

void mixed_wavelets() {
  using P = cft::Packing;
  const Setup cases[] = {
      {"4 components 19x31, tiles 7x9, 3 levels", P::Packed4, cf::SampleType::U8, 19, 31, 8, false, false, true, 3, 7,
       9},
      {"3 components 33x29 at (5, 7), tiles 16x8 from (3, 5), 2 levels", P::Packed3, cf::SampleType::U8, 33, 29, 8,
       false, false, true, 2, 16, 8, 3, 5, 5, 7},
      {"I420 12-bit 45x27, tiles 20x20, 4 levels", P::Planar3, cf::SampleType::U16, 45, 27, 12, false, true, true, 4,
       20, 20},
  };
  std::uint32_t seed = 300;
  for (const Setup &s : cases) {
    Setup s97 = s;
    s97.reversible = false;
    const cft::OwnedFrame f = input_frame(s, seed++, {});
    const cf::J2kInput in = input_of(s, f);
    const Coded rev = encode(s, in, s.levels), irr = encode(s97, in, s.levels);
    const cft::OwnedFrame all97 = reconstruct(s97, irr, 0);
    // The last component alone on the 5/3 (as the conformance streams' COC), then a checkerboard over tiles.
    const std::uint32_t last = std::uint32_t(f.view.n_components - 1);
    const auto last_53 = [&](std::uint32_t, std::uint32_t c) { return c == last; };
    const auto checker = [](std::uint32_t t, std::uint32_t c) { return (t + c) % 2 == 0; };
    for (int pattern = 0; pattern < 2; ++pattern) {
      const Coded m = pattern == 0 ? mixed_of(rev, irr, last_53) : mixed_of(rev, irr, checker);
      const cft::OwnedFrame out = reconstruct(s, m, 0);  // cpu and openmp equal
      const cft::OwnedFrame want = mixed_expected(m, f.view, all97.view, s.type);
      std::string first;
      const long long differ = cft::count_differences(want.view, out.view, &first);
      CHECK_MSG(differ == 0, "%s, %s: %lld samples differ, first %s", s.name,
                pattern == 0 ? "last component 5/3" : "checkerboard", differ, first.c_str());
    }
    // ROI on the 5/3 component of a mixed tile: its coefficients carry no
    // fraction bit although the 9/7 ones do.
    Coded m = mixed_of(rev, irr, last_53);
    std::int32_t largest = 0;
    for (const TileComponentLayout &tc : m.layout.tile_components)
      for (std::size_t i = 0; tc.reversible && i < std::size_t(tc.rect.width()) * tc.rect.height(); ++i)
        largest = std::max(largest, std::abs(m.coefficients[tc.offset + i]));
    std::uint32_t shift = 0;
    while ((std::int32_t(1) << shift) <= largest) ++shift;
    m.r.roi_shifts.clear();
    for (const TileComponentLayout &tc : m.layout.tile_components) {
      m.r.roi_shifts.push_back(tc.reversible ? shift : 0);
      for (std::size_t i = 0; tc.reversible && i < std::size_t(tc.rect.width()) * tc.rect.height(); i += 2)
        m.coefficients[tc.offset + i] *= std::int32_t(1) << shift;
    }
    const cft::OwnedFrame out = reconstruct(s, m, 0);
    const cft::OwnedFrame want = mixed_expected(m, f.view, all97.view, s.type);
    std::string first;
    CHECK_MSG(cft::count_differences(want.view, out.view, &first) == 0, "%s, ROI s = %u on the 5/3 component: first %s",
              s.name, shift, first.c_str());
    std::printf("mixed wavelets, %s: %zu tiles as the single-wavelet reconstructions, ROI s = %u too\n", s.name,
                m.layout.tiles.size(), shift);
  }
  // The colour transform needs one wavelet on components 0..2 (G.2, G.3).
  const Setup rgb = {"", P::Packed3, cf::SampleType::U8, 9, 7, 8, true, false, true, 1};
  const cft::OwnedFrame f = input_frame(rgb, 5, {});
  const cf::J2kInput in = input_of(rgb, f);
  Setup rgb97 = rgb;
  rgb97.reversible = false;
  const Coded m =
      mixed_of(encode(rgb, in, 1), encode(rgb97, in, 1), [](std::uint32_t, std::uint32_t c) { return c != 1; });
  cft::OwnedFrame out = output_frame(m.layout.params, cf::SampleType::U8, 0);
  try {
    cf::cpu::j2k_reconstruct(m.layout, m.coefficients.data(), m.r, out.view);
    CHECK_MSG(false, "the colour transform over 5/3 and 9/7 components accepted");
  } catch (const cf::Error &e) {
    CHECK_MSG(std::string(e.what()).find("components 0, 1 and 2 of one wavelet") != std::string::npos, "%s", e.what());
  }
}

// ---------------------------------------------------------------------------
// 9. Refusals.

void refusals() {
  const Setup s = {"", cft::Packing::Packed3, cf::SampleType::U8, 9, 7, 8, true, false, false, 1};
  const cft::OwnedFrame f = input_frame(s, 3, {});
  const cf::J2kInput in = input_of(s, f);
  const Coded c = encode(s, in, 1);
  const auto refused = [&](const Reconstruction &r, const cf::FrameView &out, const char *why) {
    try {
      cf::cpu::j2k_reconstruct(c.layout, c.coefficients.data(), r, out);
    } catch (const cf::Error &e) {
      const bool named = std::string(e.what()).find(why) != std::string::npos;
      CHECK_MSG(named, "message '%s' does not say '%s'", e.what(), why);
      return;
    }
    CHECK_MSG(false, "accepted, expected a refusal naming '%s'", why);
  };
  cft::OwnedFrame out = output_frame(c.layout.params, cf::SampleType::U8, 0);
  Reconstruction r = c.r;
  r.reduce = 1;
  refused(r, out.view, "component 0 is 9x7, the codestream's 5x4 at reduce 1");
  r.reduce = 2;
  refused(r, out.view, "reduce 2 is more than component 0's 1 decomposition levels");
  r = c.r;
  r.steps.pop_back();
  refused(r, out.view, "a step per subband");
  r = c.r;
  r.roi_shifts = {1, 2};
  refused(r, out.view, "ROI shifts are per tile-component");
  cf::FrameView v = out.view;
  v.type = cf::SampleType::S16;
  refused(c.r, v, "U8 or U16");
  v = out.view;
  v.n_components = 2;
  refused(c.r, v, "the frame has 2 components, the codestream 3");
  v = out.view;
  v.memory = cf::Memory::Device;
  refused(c.r, v, "host frames");
  // 12 bits do not fit U8.
  Coded deep = c;
  for (Component &k : deep.layout.params.components) k.bit_depth = 12;
  try {
    cf::cpu::j2k_reconstruct(deep.layout, deep.coefficients.data(), deep.r, out.view);
    CHECK_MSG(false, "12 bits into U8 accepted");
  } catch (const cf::Error &e) {
    CHECK_MSG(std::string(e.what()).find("12 bits, more than U8 holds") != std::string::npos, "%s", e.what());
  }
}

}  // namespace

int main() {
  five_three_by_hand();
  lines_against_definition();
  levels_undone();
  sample_rules();
  frames(cft::load_photos());
  reduced();
  roi();
  mixed_wavelets();
  refusals();
  return cft::test_result();
}
