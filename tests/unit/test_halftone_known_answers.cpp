// Known answers of cf::halftone from the definition: a Floyd-Steinberg case
// computed by hand, then every method, scan order, level count, threshold
// and stochastic amplitude against the independent scatter implementation
// of halftone_reference.hpp, on both CPU backends; stochastic
// reproducibility; bad parameters and frames.
#include <cmath>
#include <cstring>
#include <limits>

#include "check.hpp"
#include "cudafilters/error.hpp"
#include "frames.hpp"
#include "halftone_reference.hpp"

using namespace cft;
using cf::HalftoneMethod;
using cf::HalftoneParams;

namespace {

constexpr HalftoneMethod kMethods[] = {HalftoneMethod::FloydSteinberg, HalftoneMethod::StevensonArce,
                                       HalftoneMethod::Burkes,         HalftoneMethod::Sierra,
                                       HalftoneMethod::Stucki,         HalftoneMethod::JarvisJudiceNinke};

std::vector<std::uint8_t> plane_of(const cf::FrameView &f, int c) {
  const cf::Component &k = f.components[c];
  std::vector<std::uint8_t> v(std::size_t(k.width) * k.height);
  for (int y = 0; y < k.height; ++y)
    for (int x = 0; x < k.width; ++x) v[std::size_t(y) * k.width + x] = std::uint8_t(read_sample(f, c, x, y));
  return v;
}

std::string describe(const HalftoneParams &p, int w, int h) {
  char s[200];
  std::snprintf(s, sizeof s, "%s serpentine=%d levels=%d threshold=%d stochastic=%g seed=%llu, %dx%d",
                cf::halftone_method_name(p.method), p.serpentine, p.levels, p.threshold, p.stochastic,
                (unsigned long long)p.seed, w, h);
  return s;
}

// The 3x2 grey-100 frame by hand (Floyd-Steinberg, threshold 128): the sums
// and values of the rule, pixel by pixel, in the comment.
void hand_computed_floyd_steinberg(cf::Engine &engine) {
  // (0,0) A=0     u=100            -> 0,   e=100: (1,0)+=700 (0,1)+=500 (1,1)+=100
  // (1,0) A=700   u=100+44=144     -> 255, e=-111: (2,0)-=777 (0,1)-=333 (1,1)-=555 (2,1)-=111
  // (2,0) A=-777  u=100-49=51      -> 0,   e=51: (1,1)+=153 (2,1)+=255
  // (0,1) A=167   u=100+10=110     -> 0,   e=110: (1,1)+=770
  // (1,1) A=468   u=100+29=129     -> 255, e=-126: (2,1)-=882
  // (2,1) A=-738  u=100-46=54      -> 0
  OwnedFrame src = make_raw(Packing::Gray, 3, 2, cf::SampleType::U8),
             dst = make_raw(Packing::Gray, 3, 2, cf::SampleType::U8);
  fill_bytes(src, 100);
  fill_bytes(dst, 7);
  cf::halftone(engine, HalftoneParams{}, 0, src.view, dst.view);
  const int want[6] = {0, 255, 0, 0, 255, 0};
  for (int i = 0; i < 6; ++i)
    CHECK_MSG(read_sample(dst.view, 0, i % 3, i / 3) == want[i], "%s: hand-computed FS pixel (%d,%d) is %lld, want %d",
              engine.describe().c_str(), i % 3, i / 3, (long long)read_sample(dst.view, 0, i % 3, i / 3), want[i]);
}

// cf::halftone on one frame against the reference, every component.
void against_reference(cf::Engine &engine, const HalftoneParams &p, std::uint64_t frame, const OwnedFrame &src) {
  OwnedFrame dst = copy_of(src);  // same layout; poisoned below
  fill_bytes(dst, 0x5A);
  const std::string what = describe(p, src.view.components[0].width, src.view.components[0].height);
  try {
    cf::halftone(engine, p, frame, src.view, dst.view);
  } catch (const cf::Error &e) {
    CHECK_MSG(false, "%s: %s", what.c_str(), e.what());
    return;
  }
  for (int c = 0; c < src.view.n_components; ++c) {
    const cf::Component &k = src.view.components[c];
    const std::vector<std::uint8_t> want =
        (p.copy_mask >> c & 1) ? plane_of(src.view, c)
                               : halftone_ref::halftone_plane(p, frame, c, k.width, k.height, plane_of(src.view, c));
    const std::vector<std::uint8_t> got = plane_of(dst.view, c);
    long long bad = 0, first = -1;
    for (std::size_t i = 0; i < want.size(); ++i)
      if (want[i] != got[i] && bad++ == 0) first = (long long)i;
    CHECK_MSG(
        bad == 0, "%s on %s, component %d: %lld samples differ from the reference; first at (%lld,%lld): %d, want %d",
        what.c_str(), engine.describe().c_str(), c, bad, first % k.width, first / k.width, got[first], want[first]);
  }
}

void all_methods(cf::Engine &engine) {
  const int before = failures();
  std::uint32_t seed = 1;
  struct Size {
    int w, h;
  };
  for (const Size s : {Size{1, 1}, Size{2, 3}, Size{7, 5}, Size{33, 17}, Size{64, 40}}) {
    OwnedFrame src = make_raw(Packing::Gray, s.w, s.h, cf::SampleType::U8, 3);
    fill_random(src, seed++);
    for (HalftoneMethod m : kMethods)
      for (bool serpentine : {false, true})
        for (int levels : {2, 3, 7, 256})
          for (double stochastic : {0.0, 0.7}) {
            HalftoneParams p;
            p.method = m;
            p.serpentine = serpentine;
            p.levels = levels;
            p.stochastic = stochastic;
            p.seed = 42;
            against_reference(engine, p, 5, src);
          }
  }
  // Thresholds (0, 1, 200, 255), p = 1, on smooth ramps where errors build up.
  OwnedFrame ramp = make_raw(Packing::Gray, 50, 20, cf::SampleType::U8);
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 50; ++x) write_sample(ramp.view, 0, x, y, (x * 5 + y * 3) % 256);
  for (HalftoneMethod m : kMethods)
    for (int threshold : {0, 1, 200, 255})
      for (int levels : {2, 4})
        for (double stochastic : {0.0, 1.0}) {
          HalftoneParams p;
          p.method = m;
          p.threshold = threshold;
          p.levels = levels;
          p.stochastic = stochastic;
          p.seed = 0xFFFFFFFFFFFFFFFFULL;
          against_reference(engine, p, ~0ULL, ramp);
        }
  // Multi-component: RGBA with alpha copied, each channel its own plane key.
  OwnedFrame rgba = make_raw(Packing::Packed4, 19, 11, cf::SampleType::U8, 2);
  fill_random(rgba, 77);
  HalftoneParams p;
  p.copy_mask = 1u << 3;
  p.stochastic = 0.5;
  against_reference(engine, p, 3, rgba);
  std::printf("%s: every method against the reference: %s\n", engine.describe().c_str(),
              failures() == before ? "all equal" : "FAILURES");
}

std::vector<std::uint8_t> run(cf::Engine &engine, const HalftoneParams &p, std::uint64_t frame, const OwnedFrame &src) {
  OwnedFrame dst = copy_of(src);
  cf::halftone(engine, p, frame, src.view, dst.view);
  std::vector<std::uint8_t> all;
  for (int c = 0; c < src.view.n_components; ++c) {
    const std::vector<std::uint8_t> v = plane_of(dst.view, c);
    all.insert(all.end(), v.begin(), v.end());
  }
  return all;
}

void stochastic_reproducibility(cf::Engine &engine) {
  OwnedFrame src = make_raw(Packing::Packed3, 64, 48, cf::SampleType::U8);
  fill_bytes(src, 90);  // a flat grey: every difference comes from the generator
  HalftoneParams p;
  p.stochastic = 0.8;
  p.seed = 7;
  const auto a = run(engine, p, 10, src), b = run(engine, p, 10, src);
  CHECK_MSG(a == b, "same seed and frame must give the same bits");
  HalftoneParams q = p;
  q.seed = 8;
  CHECK_MSG(run(engine, q, 10, src) != a, "a different seed must give different bits");
  CHECK_MSG(run(engine, p, 11, src) != a, "a different frame number must give different bits");
  // The three channels are the same grey: their halftones differ (plane key).
  const std::size_t n = 64 * 48;
  CHECK_MSG(!std::equal(a.begin(), a.begin() + n, a.begin() + n), "R and G of a grey frame must differ");
  // p = 0 is the deterministic scan, whatever the seed.
  HalftoneParams d = p, d2 = p;
  d.stochastic = d2.stochastic = 0;
  d2.seed = 99;
  CHECK_MSG(run(engine, d, 1, src) == run(engine, d2, 2, src), "stochastic=0 must not depend on seed or frame");
}

void expect_error(cf::Engine &engine, const HalftoneParams &p, const OwnedFrame &src, const OwnedFrame &dst,
                  const char *needle) {
  try {
    cf::halftone(engine, p, 0, src.view, dst.view);
    CHECK_MSG(false, "no error; expected one mentioning \"%s\"", needle);
  } catch (const cf::Error &e) {
    CHECK_MSG(std::strstr(e.what(), needle) != nullptr, "error \"%s\" does not mention \"%s\"", e.what(), needle);
  }
}

void bad_input(cf::Engine &engine) {
  OwnedFrame src = make_raw(Packing::Gray, 8, 8, cf::SampleType::U8), dst = copy_of(src);
  HalftoneParams p;
  p.levels = 1;
  expect_error(engine, p, src, dst, "levels=1");
  p.levels = 257;
  expect_error(engine, p, src, dst, "levels=257");
  p = {};
  p.stochastic = 1.5;
  expect_error(engine, p, src, dst, "stochastic=1.5");
  p.stochastic = -0.1;
  expect_error(engine, p, src, dst, "stochastic=-0.1");
  p.stochastic = std::numeric_limits<double>::quiet_NaN();
  expect_error(engine, p, src, dst, "stochastic");
  p = {};
  p.threshold = 256;
  expect_error(engine, p, src, dst, "threshold=256");
  p.threshold = -1;
  expect_error(engine, p, src, dst, "threshold=-1");
  p = {};
  p.method = HalftoneMethod(9);
  expect_error(engine, p, src, dst, "method=9");
  p = {};
  OwnedFrame wide = make_raw(Packing::Gray, 16, 16, cf::SampleType::U16), wide_dst = copy_of(wide);
  expect_error(engine, p, wide, wide_dst, "8-bit");
  OwnedFrame other = make_raw(Packing::Gray, 9, 8, cf::SampleType::U8);
  expect_error(engine, p, src, other, "sizes differ");
  OwnedFrame rgb = make_raw(Packing::Packed3, 8, 8, cf::SampleType::U8);
  expect_error(engine, p, src, rgb, "component counts differ");
}

}  // namespace

int main() {
  for (cf::Backend b : {cf::Backend::Cpu, cf::Backend::OpenMP}) {
    cf::Engine engine(b, 3);  // 3 threads: more than this machine may have cores
    hand_computed_floyd_steinberg(engine);
    all_methods(engine);
    stochastic_reproducibility(engine);
    bad_input(engine);
  }
  // The quantiser against the reference's level search, every u, levels, threshold.
  int bad = 0;
  for (int L : {2, 3, 4, 5, 7, 16, 100, 255, 256})
    for (int T : {0, 1, 64, 128, 200, 255})
      for (int u = -255; u <= 510; ++u) bad += cf::halftone_quantise(u, L, T) != halftone_ref::quantise(u, L, T);
  CHECK_MSG(bad == 0, "halftone_quantise differs from the reference's level search %d times", bad);
  return test_result();
}
