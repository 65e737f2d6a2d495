// The predictors on the CPU backends: cpu (serial reference) vs openmp bit for
// bit, forward and inverse, on random frames of every packing and real
// photos, odd sizes, padded strides, slice heights 0, 1, 7, 64 (and 128, two
// slices, which the OpenMP inverse runs as a wavefront); round trips;
// the inverse of arbitrary residuals; bad parameters and frames.
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "predictor_util.hpp"
#include "wavelet_util.hpp"

using cf::Backend;
using cf::PredictorParams;
using cf::SampleType;

namespace {

long long runs = 0;

struct Photo {
  std::string name;
  int w = 0, h = 0;
  std::vector<std::uint8_t> rgb;
};

// Forward on every backend (equal to the reference's), inverse of the
// reference's residuals on every backend (equal to the input).
void check(const std::vector<Backend> &backends, const cft::RawKind &k, const cft::OwnedFrame &raw, int pad,
           const PredictorParams &p, const std::string &content) {
  const cf::FrameView &v = raw.view;
  const std::string what = std::string(k.name) + " " + std::to_string(v.components[0].width) + "x" +
                           std::to_string(v.components[0].height) + " pad=" + std::to_string(pad) + " " + content +
                           " " + cft::describe(p);
  const SampleType rt = cf::residual_type_for(k.type);
  cft::OwnedFrame ref = cft::make_planar_like(v, rt);
  cft::fill_bytes(ref, 0xA5);
  cf::Engine cpu(Backend::Cpu);
  cf::predictor_forward(cpu, p, v, ref.view);
  for (Backend b : backends) {
    cf::Engine e(b);
    try {
      cft::OwnedFrame res = cft::make_planar_like(v, rt);
      cft::fill_bytes(res, 0x5A);
      cf::predictor_forward(e, p, v, res.view);
      std::string first;
      long long n = cft::count_differences(ref.view, res.view, &first);
      CHECK_MSG(n == 0, "%s on %s: forward: %lld residuals differ from cpu, first %s", what.c_str(),
                e.describe().c_str(), n, first.c_str());
      cft::OwnedFrame back =
          cft::make_raw(k.packing, v.components[0].width, v.components[0].height, k.type, pad, k.subsampled);
      cft::fill_bytes(back, 0x5A);
      cf::predictor_inverse(e, p, ref.view, back.view);
      n = cft::count_differences(v, back.view, &first);
      CHECK_MSG(n == 0, "%s on %s: round trip: %lld samples differ, first %s", what.c_str(), e.describe().c_str(), n,
                first.c_str());
    } catch (const cf::Error &err) {
      CHECK_MSG(false, "%s on %s: %s", what.c_str(), e.describe().c_str(), err.what());
    }
    ++runs;
  }
}

void random_frames(const std::vector<Backend> &backends) {
  auto kinds = cft::raw_kinds(/*with_u16=*/true);
  kinds.push_back({"S16 coefficients", cft::Packing::Gray, SampleType::S16, false});
  std::uint32_t seed = 100;
  const int sizes[][2] = {{1, 1}, {2, 1}, {1, 2}, {7, 5}, {5, 7}, {33, 9}, {65, 66}};
  for (const auto &k : kinds)
    for (const auto &s : sizes)
      for (int pad : {0, 3}) {
        cft::OwnedFrame raw = cft::make_raw(k.packing, s[0], s[1], k.type, pad, k.subsampled);
        cft::fill_random(raw, seed++);
        for (cf::Predictor pr : cft::kPredictors)
          for (int slice : {0, 1, 7, 64}) check(backends, k, raw, pad, {pr, 40, slice}, "random");
      }
  // Large enough for several OpenMP threads: the wavefront (slices 0, 128)
  // and whole slices (7, 64).
  for (const auto &k : {kinds[0], kinds[3], kinds[4], kinds[1]}) {
    cft::OwnedFrame raw = cft::make_raw(k.packing, 321, 241, k.type, 5, k.subsampled);
    cft::fill_random(raw, seed++);
    for (cf::Predictor pr : cft::kPredictors)
      for (int slice : {0, 7, 64, 128}) check(backends, k, raw, 5, {pr, 40, slice}, "random");
  }
}

void photos(const std::vector<Backend> &backends) {
  const std::string dir = cft::image_dir();
  if (dir.empty()) {
    std::printf("SKIP photo part: no test photos (set CF_TEST_IMAGES)\n");
    return;
  }
  for (const char *name : {"baboon.jpg", "fruits.jpg", "building.jpg"}) {
    Photo ph;
    if (!cft::load_rgb8(dir + "/" + name, ph.w, ph.h, ph.rgb)) {
      std::printf("note: cannot read %s/%s\n", dir.c_str(), name);
      continue;
    }
    for (const auto &k : cft::raw_kinds(false)) {
      if (std::strcmp(k.name, "GRAY8") && std::strcmp(k.name, "RGB") && std::strcmp(k.name, "I420")) continue;
      cft::OwnedFrame raw = cft::make_raw(k.packing, ph.w, ph.h, k.type, 0, k.subsampled);
      cft::fill_from_rgb(raw, ph.w, ph.h, ph.rgb);
      for (cf::Predictor pr : cft::kPredictors)
        for (int slice : {0, 64}) check(backends, k, raw, 0, {pr, 40, slice}, name);
    }
  }
}

// Residuals no forward made: the inverse clamps, and every backend the same way.
void arbitrary_residuals(const std::vector<Backend> &backends) {
  std::uint32_t seed = 500;
  for (const auto &k : cft::raw_kinds(false))
    for (cf::Predictor pr : cft::kPredictors) {
      cft::OwnedFrame raw = cft::make_raw(k.packing, 19, 11, k.type, 2, k.subsampled);
      cft::OwnedFrame res = cft::make_planar_like(raw.view, cf::residual_type_for(k.type));
      cft::fill_random(res, seed++);
      const PredictorParams p{pr, 40, 4};
      cft::OwnedFrame want = cft::make_raw(k.packing, 19, 11, k.type, 2, k.subsampled);
      cf::Engine cpu(Backend::Cpu);
      cf::predictor_inverse(cpu, p, res.view, want.view);
      for (Backend b : backends) {
        cf::Engine e(b);
        cft::fill_bytes(raw, 0x33);
        cf::predictor_inverse(e, p, res.view, raw.view);
        std::string first;
        const long long n = cft::count_differences(want.view, raw.view, &first);
        CHECK_MSG(n == 0, "%s %s inverse of random residuals on %s: %lld differ, first %s", k.name,
                  cft::describe(p).c_str(), e.describe().c_str(), n, first.c_str());
      }
    }
}

void bad_input() {
  cf::Engine e(Backend::Cpu);
  cft::OwnedFrame raw = cft::make_raw(cft::Packing::Gray, 8, 4, SampleType::U8);
  cft::OwnedFrame res = cft::make_planar_like(raw.view, SampleType::S16);
  cft::OwnedFrame res32 = cft::make_planar_like(raw.view, SampleType::S32);
  cft::OwnedFrame small = cft::make_raw(cft::Packing::Gray, 8, 3, SampleType::U8);
  cft::OwnedFrame rgb = cft::make_raw(cft::Packing::Packed3, 8, 4, SampleType::U8);
  cft::OwnedFrame s32 = cft::make_raw(cft::Packing::Gray, 8, 4, SampleType::S32);
  const PredictorParams good{cf::Predictor::Med, 40, 0};
  cft::expect_error("slice-height -1",
                    [&] {
                      cf::predictor_forward(e, {cf::Predictor::Med, 40, -1}, raw.view, res.view);
                    },
                    {"slice-height=-1"});
  cft::expect_error("threshold -5",
                    [&] {
                      cf::predictor_inverse(e, {cf::Predictor::Ged, -5, 0}, res.view, raw.view);
                    },
                    {"ged", "threshold=-5"});
  cft::expect_error("S32 residuals of U8", [&] { cf::predictor_forward(e, good, raw.view, res32.view); },
                    {"S16", "S32"});
  cft::expect_error("S32 input", [&] { cf::predictor_forward(e, good, s32.view, res32.view); }, {"S32 input"});
  cft::expect_error("sizes differ", [&] { cf::predictor_forward(e, good, small.view, res.view); }, {"sizes differ"});
  cft::expect_error("components differ", [&] { cf::predictor_inverse(e, good, res.view, rgb.view); },
                    {"component counts"});
  cf::FrameView null_plane = raw.view;
  null_plane.planes[0].data = nullptr;
  cft::expect_error("no memory", [&] { cf::predictor_forward(e, good, null_plane, res.view); }, {"raw frame"});
  cf::FrameView short_rows = res.view;
  short_rows.planes[0].rows = 2;  // a buffer shorter than its component
  cft::expect_error("short residual buffer", [&] { cf::predictor_inverse(e, good, short_rows, raw.view); },
                    {"residual frame", "outside"});
}

}  // namespace

int main() {
  const std::vector<Backend> backends = cft::cpu_backends();
  random_frames(backends);
  photos(backends);
  arbitrary_residuals(backends);
  bad_input();
  std::printf("%lld checks (forward + inverse each)\n", runs);
  return cft::test_result();
}
