// Predictors on S16 input with a declared value range (PredictorParams::input),
// the case of a predictor after a colour stage (cudarct ! cudamed): S16
// residuals of S16 samples.
//   - The residual bound (cf::residual_range) by hand for a few ranges, and
//     against the test's own predictors (predictor_util.hpp) on adversarial
//     content (only lo and hi, which maximises GAP's and GED's overshoot),
//     smooth and random content: no residual of the definition leaves it.
//   - S16 -> S16 on cpu and openmp equal to the definition, and the inverse
//     of the definition's residuals equal to the input; odd sizes, padded
//     strides, slices; real photos through the RCT ([-255, 255] planes).
//   - Bad ranges and residual types give errors naming them.
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "cudafilters/colour.hpp"
#include "predictor_util.hpp"
#include "wavelet_util.hpp"

using cf::PredictorParams;
using cf::SampleType;
using cf::ValueRange;

namespace {

long long runs = 0;

std::string text(ValueRange r) { return "[" + std::to_string(r.lo) + ", " + std::to_string(r.hi) + "]"; }

void expect_range(const char *what, ValueRange got, ValueRange want) {
  CHECK_MSG(got.lo == want.lo && got.hi == want.hi, "%s: %s, expected %s", what, text(got).c_str(), text(want).c_str());
}

// Hand-computed from the bound in predictor.hpp: P = [min(mid, lo - ceil(d/2)),
// max(mid, hi + ceil(d/2))] within the type, residuals [lo - P.hi, hi - P.lo].
void bound_by_hand() {
  expect_range("residuals of S16 in [-255, 255]", cf::residual_range({-255, 255}, SampleType::S16), {-765, 765});
  expect_range("predictions of S16 in [-255, 255]", cf::prediction_range({-255, 255}, SampleType::S16), {-510, 510});
  // d = 7: ceil(d/2) = 4; mid 0 inside: P = [-7, 8], residuals [-3 - 8, 4 + 7].
  expect_range("residuals of S16 in [-3, 4]", cf::residual_range({-3, 4}, SampleType::S16), {-11, 11});
  // mid 0 below the range: P = [0, 250], residuals [100 - 250, 200 - 0].
  // P = [-7, 8] needs d = 7 only; [-20000, 20000]: P clamped to S16's range.
  expect_range("residuals of S16 in [-20000, 20000]", cf::residual_range({-20000, 20000}, SampleType::S16),
               {-20000 - 32767, 20000 + 32768});
  expect_range("residuals of S16 in [100, 200]", cf::residual_range({100, 200}, SampleType::S16), {-150, 200});
  // Full types: predictions clamped to the type, residuals +-(hi - lo).
  expect_range("residuals of U8", cf::residual_range({}, SampleType::U8), {-255, 255});
  expect_range("residuals of S16", cf::residual_range({}, SampleType::S16), {-65535, 65535});
  CHECK_MSG(cf::residual_type_for(SampleType::S16, {-255, 255}) == SampleType::S16, "S16 in [-255, 255] -> S16");
  CHECK_MSG(cf::residual_type_for(SampleType::S16, {-10922, 10922}) == SampleType::S16,
            "S16 in [-10922, 10922] -> S16 (residuals +-32766)");
  CHECK_MSG(cf::residual_type_for(SampleType::S16, {-10923, 10923}) == SampleType::S32,
            "S16 in [-10923, 10923] -> S32 (residuals +-32769)");
  CHECK_MSG(cf::residual_type_for(SampleType::S16) == SampleType::S32, "S16 -> S32");
  CHECK_MSG(cf::residual_type_for(SampleType::U8) == SampleType::S16, "U8 -> S16");
  CHECK_MSG(cf::residual_type_for(SampleType::U16, {0, 10}) == SampleType::S32, "U16 -> S32");
}

// Content in [lo, hi]: 0 random, 1 only lo and hi (random), 2 smooth ramps
// with noise, 3 a checkerboard of lo and hi with stripes.
void fill_in_range(cft::OwnedFrame &f, ValueRange r, int content, std::uint32_t seed) {
  std::uint32_t s = seed * 2654435761u + 1;
  auto next = [&] { return s = s * 1664525u + 1013904223u, s >> 8; };
  const std::int64_t d = r.hi - r.lo;
  for (int c = 0; c < f.view.n_components; ++c)
    for (int y = 0; y < f.view.components[c].height; ++y)
      for (int x = 0; x < f.view.components[c].width; ++x) {
        std::int64_t v;
        if (content == 0)
          v = r.lo + std::int64_t(next() % std::uint32_t(d + 1));
        else if (content == 1)
          v = next() % 2 ? r.hi : r.lo;
        else if (content == 2)
          v = r.lo + (3 * x + 5 * y + std::int64_t(next() % 9)) % (d + 1);
        else
          v = ((x + y) % 2 == 0) != (y % 5 == 0) ? r.hi : r.lo;
        cft::write_sample(f.view, c, x, y, v);
      }
}

// Every residual of the definition on `raw` (values in p.input) lies in residual_range.
void bound_holds(const PredictorParams &p, const cft::OwnedFrame &raw, const std::string &what) {
  const ValueRange bound = cf::residual_range(p.input, raw.view.type);
  for (int c = 0; c < raw.view.n_components; ++c) {
    const cft::Plane img = cft::read_plane(raw.view, c);
    std::int64_t lo = 0, hi = 0;
    for (int y = 0; y < img.h; ++y)
      for (int x = 0; x < img.w; ++x) {
        const std::int64_t r = img.at(x, y) - cft::model_prediction(p, raw.view.type, img, x, y);
        lo = std::min(lo, r), hi = std::max(hi, r);
      }
    CHECK_MSG(lo >= bound.lo && hi <= bound.hi, "%s: residuals of the definition in [%lld, %lld], outside %s",
              what.c_str(), (long long)lo, (long long)hi, text(bound).c_str());
  }
}

// S16 -> S16 on every CPU backend: forward == the definition, inverse of
// the definition's residuals == the input.
void check(const PredictorParams &p, const cft::OwnedFrame &raw, cft::Packing packing, int pad,
           const std::string &content) {
  const cf::FrameView &v = raw.view;
  const std::string what = content + " " + std::to_string(v.components[0].width) + "x" +
                           std::to_string(v.components[0].height) + " pad=" + std::to_string(pad) + " " +
                           cft::describe(p) + " input " + text(p.input);
  bound_holds(p, raw, what);
  cft::OwnedFrame want = cft::make_planar_like(v, SampleType::S16);
  cft::model_forward(p, v, want.view);
  for (cf::Backend b : cft::cpu_backends()) {
    cf::Engine e(b);
    try {
      cft::OwnedFrame got = cft::make_planar_like(v, SampleType::S16);
      cft::fill_bytes(got, 0x5A);
      cf::predictor_forward(e, p, v, got.view);
      std::string first;
      long long n = cft::count_differences(want.view, got.view, &first);
      CHECK_MSG(n == 0, "%s on %s: forward: %lld residuals differ from the definition, first %s", what.c_str(),
                e.describe().c_str(), n, first.c_str());
      cft::OwnedFrame back =
          cft::make_raw(packing, v.components[0].width, v.components[0].height, SampleType::S16, pad, false);
      cft::fill_bytes(back, 0x5A);
      cf::predictor_inverse(e, p, want.view, back.view);
      n = cft::count_differences(v, back.view, &first);
      CHECK_MSG(n == 0, "%s on %s: inverse: %lld samples differ from the input, first %s", what.c_str(),
                e.describe().c_str(), n, first.c_str());
    } catch (const cf::Error &err) {
      CHECK_MSG(false, "%s on %s: %s", what.c_str(), e.describe().c_str(), err.what());
    }
    ++runs;
  }
}

void synthetic() {
  const ValueRange ranges[] = {{-255, 255}, {-3, 4}, {100, 200}, {-1000, -900}, {-10922, 10922}};
  const int sizes[][2] = {{1, 1}, {2, 1}, {1, 3}, {7, 5}, {33, 9}};
  std::uint32_t seed = 1;
  for (const ValueRange &r : ranges)
    for (const auto &s : sizes)
      for (int content = 0; content < 4; ++content) {
        const cft::Packing packing = content % 2 ? cft::Packing::Packed3 : cft::Packing::Gray;
        const int pad = content % 2 ? 3 : 0;
        cft::OwnedFrame raw = cft::make_raw(packing, s[0], s[1], SampleType::S16, pad, false);
        fill_in_range(raw, r, content, seed++);
        for (cf::Predictor pr : cft::kPredictors)
          for (int slice : {0, 1, 3})
            check({pr, pr == cf::Predictor::Ged ? int(seed % 3) * 40 : 40, slice, r}, raw, packing, pad,
                  "content " + std::to_string(content));
      }
  // Large enough for several OpenMP threads (the inverse's wavefront and slices).
  cft::OwnedFrame raw = cft::make_raw(cft::Packing::Packed3, 321, 241, SampleType::S16, 5, false);
  fill_in_range(raw, {-255, 255}, 0, 77);
  for (cf::Predictor pr : cft::kPredictors)
    for (int slice : {0, 16, 128}) check({pr, 40, slice, {-255, 255}}, raw, cft::Packing::Packed3, 5, "random");
}

// Real photos through the RCT: the planes a cudarct ! cudamed chain predicts.
void photos() {
  const std::string dir = cft::image_dir();
  if (dir.empty()) {
    std::printf("SKIP photo part: no test photos (set CF_TEST_IMAGES)\n");
    return;
  }
  for (const char *name : {"baboon.jpg", "fruits.jpg", "building.jpg"}) {
    int w = 0, h = 0;
    std::vector<std::uint8_t> rgb;
    if (!cft::load_rgb8(dir + "/" + name, w, h, rgb)) continue;
    cft::OwnedFrame raw = cft::make_raw(cft::Packing::Packed3, w, h, SampleType::U8);
    cft::fill_from_rgb(raw, w, h, rgb);
    for (cf::ColourTransform t : {cf::ColourTransform::Rct, cf::ColourTransform::YCoCg}) {
      cft::OwnedFrame planes = cft::make_planar_like(raw.view, SampleType::S16);
      cf::Engine cpu(cf::Backend::Cpu);
      cf::colour_forward(cpu, t, raw.view, planes.view);
      const ValueRange r = cf::colour_output_range(t, SampleType::U8);
      for (cf::Predictor pr : cft::kPredictors)
        for (int slice : {0, 64})
          check({pr, 40, slice, r}, planes, cft::Packing::Planar3, 0,
                std::string(name) + (t == cf::ColourTransform::Rct ? " rct" : " ycocg"));
    }
  }
}

void bad_input() {
  cf::Engine e(cf::Backend::Cpu);
  cft::OwnedFrame raw = cft::make_raw(cft::Packing::Gray, 8, 4, SampleType::S16);
  cft::OwnedFrame res16 = cft::make_planar_like(raw.view, SampleType::S16);
  cft::OwnedFrame u8 = cft::make_raw(cft::Packing::Gray, 8, 4, SampleType::U8);
  const cf::Predictor med = cf::Predictor::Med;
  cft::expect_error("S16 residuals of full-range S16",
                    [&] {
                      cf::predictor_forward(e, {med, 40, 0}, raw.view, res16.view);
                    },
                    {"S16 samples", "[-65535, 65535]", "must be S32, not S16"});
  cft::expect_error("S16 residuals of a wide range",
                    [&] {
                      cf::predictor_inverse(e, {med, 40, 0, {-20000, 20000}}, res16.view, raw.view);
                    },
                    {"[-20000, 20000]", "[-52767, 52768]", "S32"});
  cft::expect_error("range outside the type",
                    [&] {
                      cf::predictor_forward(e, {med, 40, 0, {-40000, 0}}, raw.view, res16.view);
                    },
                    {"input range [-40000, 0]", "S16"});
  cft::expect_error("range outside U8",
                    [&] {
                      cf::predictor_forward(e, {med, 40, 0, {-1, 255}}, u8.view, res16.view);
                    },
                    {"input range [-1, 255]", "U8"});
}

}  // namespace

int main() {
  bound_by_hand();
  synthetic();
  photos();
  bad_input();
  std::printf("%lld checks (forward + inverse each)\n", runs);
  return cft::test_result();
}
