// Checks of the CUDA predictors against the serial reference, bit for bit,
// shared by the GPU test (test_predictor_cuda_parity.cpp) and the CPU
// emulation of the kernels (emulation/test_predictor_cuda_emulated.cpp).
// Forward on cuda == forward on cpu; the cuda inverse of the reference's
// residuals == the input (so the inverse never sees a cuda forward's output
// and cannot hide a shared mistake); the inverse of arbitrary residuals ==
// the reference's. Outputs are poisoned before every run.
#pragma once

#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "cudafilters/predictor.hpp"
#include "parity.hpp"

namespace cft::predictor_parity {

using cf::Backend;
using cf::PredictorParams;
using cf::SampleType;
using parity::Kind;
using parity::Size;

inline constexpr Kind kKinds[] = {parity::kGray8, parity::kGray16, parity::kRgb,    parity::kRgba,   parity::kI420,
                                  parity::kY444,  parity::kNv12,   parity::kRgba16, parity::kGrayS16};
inline constexpr cf::Predictor kPredictors[] = {cf::Predictor::Med, cf::Predictor::Gap, cf::Predictor::Ged};

inline std::string label(const PredictorParams &p, const Kind &k, const cf::FrameView &f, int pad, const char *what) {
  char s[200];
  std::snprintf(s, sizeof s, "%s T=%d slice-height=%d, %s %dx%d pad=%d, %s", cf::predictor_name(p.predictor),
                p.threshold, p.slice_height, k.name, f.components[0].width, f.components[0].height, pad, what);
  return s;
}

// Forward compared, then the cuda inverse of the reference's residuals.
inline void check_one(cf::Engine &cuda, cf::Engine &cpu, const PredictorParams &p, const Kind &k, const OwnedFrame &src,
                      int pad, const char *content) {
  const std::string what = label(p, k, src.view, pad, content);
  try {
    const SampleType rt = cf::residual_type_for(src.view.type, p.input);
    OwnedFrame want = make_planar_like(src.view, rt), got = make_planar_like(src.view, rt);
    fill_bytes(want, 0xA5);
    fill_bytes(got, 0x5A);
    cf::predictor_forward(cpu, p, src.view, want.view);
    cf::predictor_forward(cuda, p, src.view, got.view);
    std::string first;
    long long n = count_differences(want.view, got.view, &first);
    CHECK_MSG(n == 0, "%s: forward: %lld residuals differ from the serial reference; first: %s", what.c_str(), n,
              first.c_str());
    OwnedFrame back = parity::make_like(k, src.view, pad);
    fill_bytes(back, 0x5A);
    cf::predictor_inverse(cuda, p, want.view, back.view);
    n = count_differences(src.view, back.view, &first);
    CHECK_MSG(n == 0, "%s: inverse: %lld samples differ from the input; first: %s", what.c_str(), n, first.c_str());
  } catch (const cf::Error &e) {
    CHECK_MSG(false, "%s: %s", what.c_str(), e.what());
  }
  ++parity::runs();
}

// Every kind (or those given), rows tight and padded (or `pads`).
inline void random_frames(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes,
                          const std::vector<int> &slices, std::vector<Kind> kinds = {},
                          const std::vector<int> &pads = {0, 5}) {
  if (kinds.empty()) kinds.assign(std::begin(kKinds), std::end(kKinds));
  std::uint32_t seed = 71;
  for (const Size &s : sizes) {
    const int before = failures();
    for (int pad : pads)
      for (const Kind &k : kinds) {
        OwnedFrame src = make_raw(k.packing, s.w, s.h, k.type, pad, k.subsampled);
        fill_random(src, seed++);
        for (cf::Predictor pr : kPredictors)
          for (int slice : slices) check_one(cuda, cpu, {pr, 40, slice}, k, src, pad, "random");
      }
    parity::report(("random " + std::to_string(s.w) + "x" + std::to_string(s.h)).c_str(), before);
  }
}

// The cuda inverse of random residuals (type `rt`) into frames like `raw`
// equals the reference's: both clamp the same way.
inline void inverse_of_random(cf::Engine &cuda, cf::Engine &cpu, const PredictorParams &p, const Kind &k,
                              const OwnedFrame &raw, int pad, SampleType rt, std::uint32_t seed) {
  const std::string what = label(p, k, raw.view, pad, "inverse of random residuals");
  try {
    OwnedFrame res = make_planar_like(raw.view, rt);
    fill_random(res, seed);
    OwnedFrame want = parity::make_like(k, raw.view, pad), got = parity::make_like(k, raw.view, pad);
    fill_bytes(want, 0xA5);
    fill_bytes(got, 0x5A);
    cf::predictor_inverse(cpu, p, res.view, want.view);
    cf::predictor_inverse(cuda, p, res.view, got.view);
    std::string first;
    const long long n = count_differences(want.view, got.view, &first);
    CHECK_MSG(n == 0, "%s: %lld samples differ from the serial reference; first: %s", what.c_str(), n, first.c_str());
  } catch (const cf::Error &e) {
    CHECK_MSG(false, "%s: %s", what.c_str(), e.what());
  }
  ++parity::runs();
}

inline void arbitrary_residuals(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes) {
  std::uint32_t seed = 900;
  const int before = failures();
  for (const Size &s : sizes)
    for (const Kind &k : {parity::kGray8, parity::kGray16, parity::kRgba, parity::kI420, parity::kGrayS16})
      for (cf::Predictor pr : kPredictors) {
        const OwnedFrame raw = make_raw(k.packing, s.w, s.h, k.type, 3, k.subsampled);
        inverse_of_random(cuda, cpu, {pr, 40, 3}, k, raw, 3, cf::residual_type_for(k.type), seed++);
      }
  parity::report("inverse of random residuals", before);
}

// S16 planes in [-255, 255] (a colour stage's output: cudarct ! cudamed)
// with S16 residuals: random values, and only -255 and 255 (the largest
// residuals, +-765), one component and three interleaved; then the inverse
// of arbitrary S16 residuals.
inline constexpr Kind kRgbS16{"RGB/S16", Packing::Packed3, SampleType::S16, false};
inline void colour_range_frames(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes,
                                const std::vector<int> &slices) {
  const cf::ValueRange range{-255, 255};
  std::uint32_t seed = 7100;
  const int before = failures();
  for (const Size &s : sizes)
    for (const Kind &k : {parity::kGrayS16, kRgbS16})
      for (bool extremes : {false, true}) {
        const int pad = extremes ? 3 : 0;
        OwnedFrame src = make_raw(k.packing, s.w, s.h, k.type, pad, k.subsampled);
        fill_random(src, seed++);
        for (int c = 0; c < src.view.n_components; ++c)
          for (int y = 0; y < s.h; ++y)
            for (int x = 0; x < s.w; ++x) {
              const std::int64_t v = read_sample(src.view, c, x, y) & 0xffff;
              write_sample(src.view, c, x, y, extremes ? (v & 1 ? 255 : -255) : v % 511 - 255);
            }
        for (cf::Predictor pr : kPredictors)
          for (int slice : slices)
            check_one(cuda, cpu, {pr, 40, slice, range}, k, src, pad, extremes ? "S16 +-255" : "S16 in [-255, 255]");
        inverse_of_random(cuda, cpu, {cf::Predictor::Gap, 40, 3, range}, k, src, pad, SampleType::S16, seed++);
      }
  parity::report("S16 input in [-255, 255], S16 residuals", before);
}

// Real photos at their own size (or resampled), slice heights 0 and 64.
inline void photos(cf::Engine &cuda, cf::Engine &cpu, const Size *resample) {
  const int before = failures();
  const std::vector<Photo> photos = load_photos();
  for (const Photo &ph : photos) {
    const Size s = resample ? *resample : Size{ph.width, ph.height};
    for (const Kind &k : {parity::kGray8, parity::kRgb, parity::kRgba, parity::kI420, parity::kGray16}) {
      OwnedFrame src = make_raw(k.packing, s.w, s.h, k.type, 0, k.subsampled);
      fill_from_rgb(src, ph.width, ph.height, ph.rgb);
      for (cf::Predictor pr : kPredictors)
        for (int slice : {0, 64}) check_one(cuda, cpu, {pr, 40, slice}, k, src, 0, ph.name.c_str());
    }
  }
  if (!photos.empty()) parity::report(("photos (" + std::to_string(photos.size()) + " loaded)").c_str(), before);
}

#if CFT_HAVE_CUDART
// Frames in device memory (cudaMallocPitch pitches), and host/device mixes.
inline void device_memory(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes) {
  const int before = failures();
  std::uint32_t seed = 4000;
  for (const Size &s : sizes)
    for (const Kind &k : {parity::kGray8, parity::kRgba, parity::kNv12, parity::kGray16})
      for (cf::Predictor pr : kPredictors)
        for (int mix = 0; mix < 3; ++mix) {  // 0: all device, 1: host raw, 2: host output of the inverse
          const PredictorParams p{pr, 40, mix == 1 ? 16 : 0};
          OwnedFrame src = make_raw(k.packing, s.w, s.h, k.type, 0, k.subsampled);
          fill_random(src, seed++);
          const std::string what = label(p, k, src.view, 0,
                                         mix == 0   ? "device memory"
                                         : mix == 1 ? "host raw"
                                                    : "host output");
          try {
            const SampleType rt = cf::residual_type_for(k.type);
            OwnedFrame want = make_planar_like(src.view, rt), got = make_planar_like(src.view, rt);
            cf::predictor_forward(cpu, p, src.view, want.view);
            parity::DeviceFrame dsrc(src.view), dres(got.view);
            cf::predictor_forward(cuda, p, mix == 1 ? src.view : dsrc.view, dres.view);
            dres.download(got.view);
            std::string first;
            long long n = count_differences(want.view, got.view, &first);
            CHECK_MSG(n == 0, "%s: forward: %lld residuals differ; first: %s", what.c_str(), n, first.c_str());
            OwnedFrame back = parity::make_like(k, src.view, 0);
            fill_bytes(back, 0x5A);
            parity::DeviceFrame dback(back.view);
            if (mix == 2) {
              cf::predictor_inverse(cuda, p, dres.view, back.view);
            } else {
              cf::predictor_inverse(cuda, p, dres.view, dback.view);
              dback.download(back.view);
            }
            n = count_differences(src.view, back.view, &first);
            CHECK_MSG(n == 0, "%s: inverse: %lld samples differ; first: %s", what.c_str(), n, first.c_str());
          } catch (const cf::Error &e) {
            CHECK_MSG(false, "%s: %s", what.c_str(), e.what());
          }
          ++parity::runs();
        }
  parity::report("predictor frames in device memory", before);
}
#endif

}  // namespace cft::predictor_parity
