// Checks that a halftoning backend gives the serial reference's bits, shared
// by the OpenMP parity test (tests/unit), the CUDA test on a GPU and the
// same checks on the CPU emulation of the kernels (tests/cuda). Outputs are
// poisoned before every run; every sample of every component is compared.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "check.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/halftone.hpp"
#include "frames.hpp"

namespace cft::halftone_parity {

using cf::HalftoneMethod;
using cf::HalftoneParams;

inline constexpr HalftoneMethod kMethods[] = {HalftoneMethod::FloydSteinberg, HalftoneMethod::StevensonArce,
                                              HalftoneMethod::Burkes,         HalftoneMethod::Sierra,
                                              HalftoneMethod::Stucki,         HalftoneMethod::JarvisJudiceNinke};

struct Format {
  const char *name;
  Packing packing;
  bool subsampled;
  unsigned copy_mask;  // alpha
};
inline constexpr Format kGray8{"GRAY8", Packing::Gray, false, 0};
inline constexpr Format kRgb{"RGB", Packing::Packed3, false, 0};
inline constexpr Format kRgba{"RGBA", Packing::Packed4, false, 1u << 3};
inline constexpr Format kI420{"I420", Packing::Planar3, true, 0};
inline constexpr Format kNv12{"NV12", Packing::SemiPlanar, true, 0};
inline constexpr Format kY444{"Y444", Packing::Planar3, false, 0};
inline constexpr Format kFormats[] = {kGray8, kRgb, kRgba, kI420, kNv12, kY444};

inline long long &runs() {
  static long long n = 0;
  return n;
}

inline std::string label(const HalftoneParams &p, const Format &f, const cf::FrameView &v, int pad,
                         const char *extra = "") {
  char s[240];
  std::snprintf(s, sizeof s, "%s serpentine=%d levels=%d threshold=%d stochastic=%g, %s %dx%d pad=%d%s",
                cf::halftone_method_name(p.method), p.serpentine, p.levels, p.threshold, p.stochastic, f.name,
                v.components[0].width, v.components[0].height, pad, extra);
  return s;
}

// Runs `reference` and `tested` on src and compares; tested may write into
// a destination of another stride (dst_pad).
inline void check_one(cf::Engine &tested, cf::Engine &reference, HalftoneParams p, const Format &f,
                      const OwnedFrame &src, int pad, std::uint64_t frame = 1) {
  p.copy_mask = f.copy_mask;
  const std::string what = label(p, f, src.view, pad);
  try {
    OwnedFrame want = make_raw(f.packing, src.view.components[0].width, src.view.components[0].height,
                               cf::SampleType::U8, pad, f.subsampled);
    OwnedFrame got = make_raw(f.packing, src.view.components[0].width, src.view.components[0].height,
                              cf::SampleType::U8, pad + 3, f.subsampled);
    fill_bytes(want, 0xA5);
    fill_bytes(got, 0x5A);
    cf::halftone(reference, p, frame, src.view, want.view);
    cf::halftone(tested, p, frame, src.view, got.view);
    std::string first;
    const long long n = count_differences(want.view, got.view, &first);
    CHECK_MSG(n == 0, "%s: %lld samples differ from the serial reference; first: %s", what.c_str(), n, first.c_str());
  } catch (const cf::Error &e) {
    CHECK_MSG(false, "%s: %s", what.c_str(), e.what());
  }
  ++runs();
}

inline void report(const std::string &what, int failures_before) {
  std::printf("%s: %s (%lld runs so far)\n", what.c_str(), failures() == failures_before ? "all equal" : "FAILURES",
              runs());
  std::fflush(stdout);
}

struct Size {
  int w, h;
};

// Random frames of every format at each size, every method, both scans,
// with multi-level and stochastic variants.
inline void random_frames(cf::Engine &tested, cf::Engine &reference, const std::vector<Size> &sizes) {
  std::uint32_t seed = 1;
  for (const Size &s : sizes) {
    const int before = failures();
    for (int pad : {0, 5})
      for (const Format &f : kFormats) {
        OwnedFrame src = make_raw(f.packing, s.w, s.h, cf::SampleType::U8, pad, f.subsampled);
        fill_random(src, seed++);
        for (HalftoneMethod m : kMethods)
          for (bool serpentine : {false, true}) {
            HalftoneParams p;
            p.method = m;
            p.serpentine = serpentine;
            check_one(tested, reference, p, f, src, pad);
            if (pad == 0 && (f.packing == Packing::Gray || f.packing == Packing::SemiPlanar)) {
              p.levels = 5;
              p.threshold = 100;
              p.stochastic = 0.6;
              p.seed = seed;
              check_one(tested, reference, p, f, src, pad, seed);
            }
          }
      }
    report("random " + std::to_string(s.w) + "x" + std::to_string(s.h), before);
  }
}

// Real photos at their size and resampled (smooth content, long error runs).
inline void photos(cf::Engine &tested, cf::Engine &reference, Size resampled, bool every_method) {
  const int before = failures();
  const std::vector<Photo> photos = load_photos();
  for (const Photo &ph : photos) {
    for (const Size &s : {Size{ph.width, ph.height}, resampled})
      for (const Format &f : {kGray8, kRgba, kNv12}) {
        OwnedFrame src = make_raw(f.packing, s.w, s.h, cf::SampleType::U8, 0, f.subsampled);
        fill_from_rgb(src, ph.width, ph.height, ph.rgb);
        for (HalftoneMethod m : kMethods) {
          if (!every_method && m != HalftoneMethod::FloydSteinberg && m != HalftoneMethod::StevensonArce) continue;
          HalftoneParams p;
          p.method = m;
          check_one(tested, reference, p, f, src, 0);
          p.levels = 4;
          p.stochastic = 0.3;
          check_one(tested, reference, p, f, src, 0, 77);
        }
        HalftoneParams serp;
        serp.serpentine = true;
        if (f.packing != Packing::Gray || every_method) check_one(tested, reference, serp, f, src, 0);
      }
  }
  if (!photos.empty()) report("photos (" + std::to_string(photos.size()) + " loaded)", before);
}

}  // namespace cft::halftone_parity
