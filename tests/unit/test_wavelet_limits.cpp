// Limits and geometry: cf::wavelet_max_levels, cf::wavelet_check and
// cf::wavelet_subbands.
//  - subbands tile the coefficient plane exactly (every coefficient in one
//    band), Mallat and standard, odd sizes, and agree with the transform (a
//    constant picture has all its energy in LL);
//  - max levels: 1 for 1x1, never more than the geometric limit (low band
//    1x1), and exactly that limit where the coefficient type cannot overflow;
//  - levels too deep: wavelet_check and wavelet_forward name "levels";
//  - the overflow bound holds: at the deepest level count allowed for U8 ->
//    S16, adversarial inputs transformed into S32 never leave the S16 range.
// Prints the max levels of 1920x1080 for U8 -> S16 and U16 -> S32.
#include <algorithm>
#include <array>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "wavelet_util.hpp"

using cf::Layout;
using cf::SampleType;
using cf::Wavelet;

namespace {

// Levels until the low band of the longer side is one sample (at least 1).
int geometric_levels(int width, int height) {
  int levels = 0;
  for (int n = std::max(width, height); n > 1; n = (n + 1) / 2) ++levels;
  return std::max(levels, 1);
}

void report_1080p() {
  std::printf("max levels at 1920x1080 (geometric limit %d):\n", geometric_levels(1920, 1080));
  for (Wavelet w : cft::kWavelets)
    for (Layout l : cft::kLayouts)
      std::printf("  %-5s %-8s  U8->S16: %2d   U16->S32: %2d\n", cf::wavelet_name(w), cf::layout_name(l),
                  cf::wavelet_max_levels(w, l, 1920, 1080, SampleType::U8, SampleType::S16),
                  cf::wavelet_max_levels(w, l, 1920, 1080, SampleType::U16, SampleType::S32));
}

const int kSizes[][2] = {{1, 1}, {1, 2},   {2, 1},   {2, 2},   {3, 3},     {1, 9},     {9, 1},
                         {5, 7}, {17, 13}, {33, 65}, {100, 1}, {640, 480}, {641, 479}, {1921, 1081}};

void check_max_levels() {
  for (Wavelet w : cft::kWavelets)
    for (Layout l : cft::kLayouts) {
      for (auto in : {SampleType::U8, SampleType::U16, SampleType::S16, SampleType::S32})
        for (auto out : {SampleType::S16, SampleType::S32}) {
          const int m = cf::wavelet_max_levels(w, l, 1, 1, in, out);
          CHECK_MSG(m == 1, "max levels of 1x1 (%s->%s) is %d, expected 1", cf::sample_type_name(in),
                    cf::sample_type_name(out), m);
        }
      for (const auto &s : kSizes) {
        const int g = geometric_levels(s[0], s[1]);
        const int m8 = cf::wavelet_max_levels(w, l, s[0], s[1], SampleType::U8, SampleType::S16);
        const int m16 = cf::wavelet_max_levels(w, l, s[0], s[1], SampleType::U16, SampleType::S32);
        const int m8_32 = cf::wavelet_max_levels(w, l, s[0], s[1], SampleType::U8, SampleType::S32);
        CHECK_MSG(m8 >= 1 && m8 <= g && m16 >= 1 && m16 <= g, "%s %s %dx%d: max levels %d / %d above %d",
                  cf::wavelet_name(w), cf::layout_name(l), s[0], s[1], m8, m16, g);
        // 8-bit samples in 32-bit coefficients cannot overflow at these sizes
        // (growth is at most 2.25x per level and 2^32 / 255 > 2.25^12).
        CHECK_MSG(m8_32 == g, "%s %s %dx%d: U8->S32 max levels %d, expected the geometric %d", cf::wavelet_name(w),
                  cf::layout_name(l), s[0], s[1], m8_32, g);
        // Haar's low band stays in the input range and its high bands at
        // most double it per level pass, so 8 bits fit 16 at any depth.
        if (w == Wavelet::Haar)
          CHECK_MSG(m8 == g, "haar %s %dx%d: U8->S16 max levels %d, expected %d", cf::layout_name(l), s[0], s[1], m8,
                    g);
      }
    }
}

void check_too_deep() {
  for (Wavelet w : cft::kWavelets)
    for (Layout l : cft::kLayouts)
      for (const auto &s : {std::array<int, 2>{1, 1}, {17, 13}, {640, 480}, {7, 1}}) {
        cft::OwnedFrame raw = cft::make_raw(cft::Packing::Gray, s[0], s[1], SampleType::U8);
        cft::fill_random(raw, 3);
        cft::OwnedFrame coeff = cft::make_planar_like(raw.view, SampleType::S16);
        const int max = cf::wavelet_max_levels(w, l, s[0], s[1], SampleType::U8, SampleType::S16);
        const std::string at_max = cf::wavelet_check({w, max, l}, raw.view, SampleType::S16);
        CHECK_MSG(at_max.empty(), "%dx%d levels=%d (the max): %s", s[0], s[1], max, at_max.c_str());
        for (int bad : {max + 1, max + 5, 0, -1}) {
          const std::string why = cf::wavelet_check({w, bad, l}, raw.view, SampleType::S16);
          CHECK_MSG(!why.empty() && why.find("levels") != std::string::npos,
                    "%s %s %dx%d levels=%d: message '%s' should name levels", cf::wavelet_name(w), cf::layout_name(l),
                    s[0], s[1], bad, why.c_str());
          if (bad == max + 1) std::printf("  e.g. %s\n", why.c_str());
          std::string thrown;
          try {
            cf::Engine e(cf::Backend::Cpu);
            cf::wavelet_forward(e, {w, bad, l}, raw.view, coeff.view);
          } catch (const cf::Error &err) {
            thrown = err.what();
          }
          CHECK_MSG(thrown.find("levels") != std::string::npos,
                    "%dx%d levels=%d: wavelet_forward should throw naming levels, got '%s'", s[0], s[1], bad,
                    thrown.c_str());
        }
      }
}

// Every coefficient in exactly one band; LL at the origin with the expected
// size; band levels within 1..levels.
void check_tiling() {
  for (Layout l : cft::kLayouts)
    for (const auto &s : kSizes) {
      const int width = s[0], height = s[1];
      for (int levels = 1; levels <= geometric_levels(width, height); ++levels) {
        const cf::WaveletParams p{Wavelet::Cdf53, levels, l};
        const auto bands = cf::wavelet_subbands(p, width, height);
        std::vector<int> covered(std::size_t(width) * height, 0);
        int ll = 0;
        bool inside = true;
        for (const cf::Subband &b : bands) {
          if (b.x < 0 || b.y < 0 || b.width < 1 || b.height < 1 || b.x + b.width > width || b.y + b.height > height ||
              b.level < 1 || b.level > levels) {
            inside = false;
            continue;
          }
          for (int y = b.y; y < b.y + b.height; ++y)
            for (int x = b.x; x < b.x + b.width; ++x) ++covered[std::size_t(y) * width + x];
          if (b.kind == cf::BandKind::LL) {
            ++ll;
            int w = width, h = height;
            for (int k = 0; k < levels; ++k) w = (w + 1) / 2, h = (h + 1) / 2;
            CHECK_MSG(b.x == 0 && b.y == 0 && b.width == w && b.height == h,
                      "%s %dx%d levels=%d: LL is %dx%d at (%d,%d), expected %dx%d at the origin", cf::layout_name(l),
                      width, height, levels, b.width, b.height, b.x, b.y, w, h);
          }
        }
        CHECK_MSG(inside, "%s %dx%d levels=%d: a band lies outside the plane or has a bad level", cf::layout_name(l),
                  width, height, levels);
        CHECK_MSG(ll == 1, "%s %dx%d levels=%d: %d LL bands", cf::layout_name(l), width, height, levels, ll);
        const long long wrong = std::count_if(covered.begin(), covered.end(), [](int n) { return n != 1; });
        CHECK_MSG(wrong == 0, "%s %dx%d levels=%d: %lld coefficients not covered exactly once", cf::layout_name(l),
                  width, height, levels, wrong);
      }
    }
}

// A constant picture: every high-pass output is 0 (d = c - c) and the low
// band stays c (s = c + floor(0/2) or c + floor(2/4)), so the coefficients
// are c inside LL and 0 in every other band that wavelet_subbands names.
void check_bands_match_transform() {
  cf::Engine engine(cf::Backend::Cpu);
  const int sizes[][2] = {{1, 1}, {7, 1}, {1, 7}, {17, 13}, {33, 65}, {64, 48}};
  for (Wavelet w : cft::kWavelets)
    for (Layout l : cft::kLayouts)
      for (const auto &s : sizes) {
        cft::OwnedFrame raw = cft::make_raw(cft::Packing::Gray, s[0], s[1], SampleType::U8, 2);
        for (int y = 0; y < s[1]; ++y)
          for (int x = 0; x < s[0]; ++x) cft::write_sample(raw.view, 0, x, y, 77);
        const int max = cf::wavelet_max_levels(w, l, s[0], s[1], SampleType::U8, SampleType::S16);
        for (int levels = 1; levels <= max; ++levels) {
          const cf::WaveletParams p{w, levels, l};
          cft::OwnedFrame coeff = cft::make_planar_like(raw.view, SampleType::S16);
          cf::wavelet_forward(engine, p, raw.view, coeff.view);
          long long wrong = 0;
          for (const cf::Subband &b : cf::wavelet_subbands(p, s[0], s[1]))
            for (int y = b.y; y < b.y + b.height; ++y)
              for (int x = b.x; x < b.x + b.width; ++x)
                wrong += cft::read_sample(coeff.view, 0, x, y) != (b.kind == cf::BandKind::LL ? 77 : 0);
          CHECK_MSG(wrong == 0, "constant %dx%d %s: %lld coefficients disagree with their band", s[0], s[1],
                    cft::describe(p).c_str(), wrong);
        }
      }
}

// ---------------------------------------------------------------- overflow

// sign[j][i]: sign of the weight of input sample i in coefficient j of a
// `levels`-level 1-D transform of length n (measured with impulses of 65535
// in a U16 -> S32 transform, where the floors are negligible).
std::vector<std::vector<int>> analysis_signs(Wavelet w, int n, int levels) {
  std::vector<std::vector<int>> sign(n, std::vector<int>(n, 0));
  levels = std::min(levels, geometric_levels(n, 1));  // deeper levels leave a 1-sample band alone
  if (n == 1) {
    sign[0][0] = 1;
    return sign;
  }
  cf::Engine engine(cf::Backend::Cpu);
  for (int i = 0; i < n; ++i) {
    cft::OwnedFrame raw = cft::make_raw(cft::Packing::Gray, n, 1, SampleType::U16);
    for (int x = 0; x < n; ++x) cft::write_sample(raw.view, 0, x, 0, x == i ? 65535 : 0);
    cft::OwnedFrame coeff = cft::make_planar_like(raw.view, SampleType::S32);
    cf::wavelet_forward(engine, {w, levels, Layout::Mallat}, raw.view, coeff.view);
    for (int j = 0; j < n; ++j) {
      const auto v = cft::read_sample(coeff.view, 0, j, 0);
      sign[j][i] = v > 8 ? 1 : v < -8 ? -1 : 0;
    }
  }
  return sign;
}

struct Extremes {
  long long lo = 0, hi = 0;
};

// Transforms `raw` into S32 and returns the smallest and largest coefficient.
Extremes extremes(cf::Engine &engine, const cf::WaveletParams &p, const cft::OwnedFrame &raw) {
  cft::OwnedFrame coeff = cft::make_planar_like(raw.view, SampleType::S32);
  cf::wavelet_forward(engine, p, raw.view, coeff.view);
  Extremes e;
  const auto *v = reinterpret_cast<const std::int32_t *>(coeff.bytes.data());
  const std::size_t n = std::size_t(raw.view.components[0].width) * raw.view.components[0].height;
  for (std::size_t i = 0; i < n; ++i) {
    e.lo = std::min<long long>(e.lo, v[i]);
    e.hi = std::max<long long>(e.hi, v[i]);
  }
  return e;
}

// Checkerboards and stripes of 0 and 255 at several periods, and random data.
std::vector<cft::OwnedFrame> regular_patterns(int width, int height, bool few) {
  std::vector<cft::OwnedFrame> out;
  auto add = [&](auto value) {
    cft::OwnedFrame f = cft::make_raw(cft::Packing::Gray, width, height, SampleType::U8);
    for (int y = 0; y < height; ++y)
      for (int x = 0; x < width; ++x) cft::write_sample(f.view, 0, x, y, value(x, y) ? 255 : 0);
    out.push_back(std::move(f));
  };
  const std::vector<int> periods = few ? std::vector<int>{1, 2, 8, 64} : std::vector<int>{1, 2, 3, 4, 8, 16, 32};
  for (int period : periods)
    for (int phase : {0, 1}) {
      add([=](int x, int y) { return ((x / period + y / period + phase) & 1) != 0; });  // checkerboard
      if (few) continue;
      add([=](int x, int) { return ((x / period + phase) & 1) != 0; });  // vertical stripes
      add([=](int, int y) { return ((y / period + phase) & 1) != 0; });  // horizontal stripes
    }
  cft::OwnedFrame r = cft::make_raw(cft::Packing::Gray, width, height, SampleType::U8);
  cft::fill_random(r, 42);
  out.push_back(std::move(r));
  return out;
}

void check_overflow_bound() {
  cf::Engine engine(cft::cpu_backends().back());  // OpenMP when built: parity is tested elsewhere
  {
    // The detector detects: full-range S16 input overflows S16 at one level
    // (Haar d = 32767 - (-32768) = 65535).
    cft::OwnedFrame f = cft::make_raw(cft::Packing::Gray, 2, 1, SampleType::S16);
    cft::write_sample(f.view, 0, 0, 0, -32768);
    cft::write_sample(f.view, 0, 1, 0, 32767);
    const Extremes e = extremes(engine, {Wavelet::Haar, 1, Layout::Mallat}, f);
    CHECK_MSG(e.hi == 65535, "S16 [-32768, 32767] into S32: largest coefficient %lld, expected 65535", e.hi);
  }
  struct Size {
    int width, height;
    bool adversarial;  // also the per-coefficient worst cases (small frames only)
  };
  const Size sizes[] = {{128, 128, true}, {97, 61, true}, {200, 1, true}, {1920, 1080, false}};
  for (Wavelet w : cft::kWavelets)
    for (Layout l : cft::kLayouts)
      for (const Size &s : sizes) {
        const int max = cf::wavelet_max_levels(w, l, s.width, s.height, SampleType::U8, SampleType::S16);
        const cf::WaveletParams p{w, max, l};
        Extremes worst;
        int patterns = 0;
        auto take = [&](const cft::OwnedFrame &f) {
          const Extremes e = extremes(engine, p, f);
          worst.lo = std::min(worst.lo, e.lo);
          worst.hi = std::max(worst.hi, e.hi);
          ++patterns;
        };
        for (const auto &f : regular_patterns(s.width, s.height, !s.adversarial)) take(f);
        if (s.adversarial) {
          // For a few coefficients of every band: the input of 0 and 255 that
          // maximises (and minimises) it, from the signs of its separable
          // analysis filter. Mallat bands of level k use k-level filters in
          // both directions; standard bands use `max`-level filters.
          std::vector<std::vector<std::vector<int>>> hs(max + 1), vs(max + 1);
          for (int k = 1; k <= max; ++k) {
            if (l == Layout::Standard && k != max) continue;
            hs[k] = analysis_signs(w, s.width, k);
            vs[k] = analysis_signs(w, s.height, k);
          }
          for (const cf::Subband &b : cf::wavelet_subbands(p, s.width, s.height)) {
            const int k = l == Layout::Mallat ? b.level : max;
            const int xs[] = {b.x, b.x + b.width / 2, b.x + b.width - 1};
            const int ys[] = {b.y, b.y + b.height / 2, b.y + b.height - 1};
            for (int i = 0; i < 3; ++i)
              for (int sign : {1, -1}) {
                cft::OwnedFrame f = cft::make_raw(cft::Packing::Gray, s.width, s.height, SampleType::U8);
                const auto &h = hs[k][xs[i]], &v = vs[k][ys[i]];
                for (int y = 0; y < s.height; ++y)
                  for (int x = 0; x < s.width; ++x)
                    cft::write_sample(f.view, 0, x, y, h[x] * v[y] * sign > 0 ? 255 : 0);
                take(f);
              }
          }
        }
        // For information: the same patterns at the geometric limit (S32
        // output), to show how much room the bound leaves.
        const int deepest = geometric_levels(s.width, s.height);
        Extremes beyond;
        if (deepest > max && s.adversarial)
          for (const auto &f : regular_patterns(s.width, s.height, false)) {
            const Extremes e = extremes(engine, {w, deepest, l}, f);
            beyond.lo = std::min(beyond.lo, e.lo);
            beyond.hi = std::max(beyond.hi, e.hi);
          }
        CHECK_MSG(worst.lo >= -32768 && worst.hi <= 32767, "%dx%d %s: U8 coefficients reach [%lld, %lld], outside S16",
                  s.width, s.height, cft::describe(p).c_str(), worst.lo, worst.hi);
        std::printf("  %4dx%-4d %-22s %4d patterns: coefficients in [%6lld, %6lld]", s.width, s.height,
                    cft::describe(p).c_str(), patterns, worst.lo, worst.hi);
        if (deepest > max && s.adversarial)
          std::printf("; at levels=%d (not allowed): [%lld, %lld]", deepest, beyond.lo, beyond.hi);
        std::printf("\n");
      }
}

}  // namespace

int main() {
  report_1080p();
  check_max_levels();
  std::printf("levels too deep:\n");
  check_too_deep();
  check_tiling();
  check_bands_match_transform();
  std::printf("overflow bound, U8 -> S16 at the deepest allowed levels:\n");
  check_overflow_bound();
  return cft::test_result();
}
