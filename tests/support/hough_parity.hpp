// Parity of Hough line detection between two engines (cpu vs openmp in
// tests/unit, cpu vs cuda in tests/cuda, emulated or on a GPU): edge maps,
// accumulators, thresholds and line lists must be identical, on random and
// real frames, odd sizes, padded strides, every input layout.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "check.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/hough.hpp"
#include "frames.hpp"

namespace cft::hough {

struct Layout {
  const char *name;
  Packing packing;
  bool subsampled;
  cf::LumaSource luma;
  bool bgr;  // packed R and B swapped in memory (BGR, BGRx)
};
inline const std::vector<Layout> &layouts() {
  static const std::vector<Layout> l = {
      {"GRAY8", Packing::Gray, false, cf::LumaSource::Component0, false},
      {"RGB", Packing::Packed3, false, cf::LumaSource::Rgb, false},
      {"BGRx", Packing::Packed4, false, cf::LumaSource::Rgb, true},
      {"I420", Packing::Planar3, true, cf::LumaSource::Component0, false},
      {"NV12", Packing::SemiPlanar, true, cf::LumaSource::Component0, false},
  };
  return l;
}

inline OwnedFrame make_frame(const Layout &l, int w, int h, int pad) {
  OwnedFrame f = make_raw(l.packing, w, h, cf::SampleType::U8, pad, l.subsampled);
  if (l.bgr) std::swap(f.view.components[0].offset, f.view.components[2].offset);
  return f;
}

// Parameter sets: Sobel and Canny, automatic and fixed thresholds, odd angle
// counts, rho steps, a window of 1 (every cell over the threshold is a peak:
// thousands of peaks) and the largest window.
inline std::vector<cf::HoughParams> param_sets() {
  std::vector<cf::HoughParams> v;
  cf::HoughParams p;
  v.push_back(p);
  p.edge_threshold = 90;
  p.theta_bins = 181;
  p.rho_step = 3;
  p.nms_window = 1;
  p.threshold = 2;
  p.max_lines = cf::kHoughMaxLines;
  v.push_back(p);
  p = {};
  p.edge = cf::EdgeDetector::Canny;
  v.push_back(p);
  p.canny_low = 20;
  p.canny_high = 90;
  p.theta_bins = 97;
  p.nms_window = 15;
  p.k_q8 = 100;
  p.max_lines = 40;
  v.push_back(p);
  p = {};
  p.edge = cf::EdgeDetector::Input;
  v.push_back(p);
  return v;
}

inline std::string describe(const cf::HoughParams &p) {
  char s[160];
  std::snprintf(s, sizeof s, "%s(%d,%d,%d) theta-bins=%d rho-step=%d threshold=%d k=%d/256 nms=%d max=%d",
                cf::edge_detector_name(p.edge), p.edge_threshold, p.canny_low, p.canny_high, p.theta_bins, p.rho_step,
                p.threshold, p.k_q8, p.nms_window, p.max_lines);
  return s;
}

inline long long &comparisons() {
  static long long n = 0;
  return n;
}

// Both engines on f; every output compared. `label` names the case.
inline void compare(cf::Engine &a, cf::Engine &b, const OwnedFrame &f, cf::LumaSource luma, const cf::HoughParams &p,
                    const std::string &label) {
  cf::HoughResult ra, rb;
  const unsigned want = cf::kHoughWantEdges | cf::kHoughWantAccumulator;
  try {
    cf::hough_detect(a, p, f.view, luma, ra, want);
    cf::hough_detect(b, p, f.view, luma, rb, want);
  } catch (const cf::Error &e) {
    CHECK_MSG(false, "%s: %s", label.c_str(), e.what());
    return;
  }
  ++comparisons();
  const std::string what = label + " " + describe(p);
  CHECK_MSG(ra.edges == rb.edges, "%s: edge maps differ", what.c_str());
  CHECK_MSG(ra.edge_pixels == rb.edge_pixels, "%s: %u vs %u edge pixels", what.c_str(), ra.edge_pixels, rb.edge_pixels);
  if (ra.accumulator != rb.accumulator) {
    long long n = 0, first = -1;
    for (std::size_t i = 0; i < ra.accumulator.size() && i < rb.accumulator.size(); ++i)
      if (ra.accumulator[i] != rb.accumulator[i] && n++ == 0) first = (long long)i;
    CHECK_MSG(false, "%s: %lld accumulator cells differ, first %lld", what.c_str(), n, first);
  }
  CHECK_MSG(ra.threshold == rb.threshold, "%s: threshold %u vs %u", what.c_str(), ra.threshold, rb.threshold);
  bool same = ra.lines.size() == rb.lines.size();
  for (std::size_t i = 0; same && i < ra.lines.size(); ++i) {
    const cf::HoughLine &x = ra.lines[i], &y = rb.lines[i];
    same = x.theta_bin == y.theta_bin && x.rho_bin == y.rho_bin && x.votes == y.votes && x.visible == y.visible &&
           x.x0 == y.x0 && x.y0 == y.y0 && x.x1 == y.x1 && x.y1 == y.y1;
  }
  CHECK_MSG(same, "%s: line lists differ (%zu vs %zu lines)", what.c_str(), ra.lines.size(), rb.lines.size());
}

struct Size {
  int w, h;
};

// Random frames (noise, and blocks with lines, which have long edges).
inline void random_frames(cf::Engine &a, cf::Engine &b, const std::vector<Size> &sizes, bool all_params = true) {
  std::uint32_t seed = 1;
  for (const Size &s : sizes)
    for (const Layout &l : layouts())
      for (int pad : {0, 5}) {
        OwnedFrame f = make_frame(l, s.w, s.h, pad);
        fill_random(f, seed++);
        if (seed % 2) {  // blocks: flat regions with straight borders
          for (int c = 0; c < f.view.n_components; ++c)
            for (int y = 0; y < f.view.components[c].height; ++y)
              for (int x = 0; x < f.view.components[c].width; ++x)
                write_sample(f.view, c, x, y, ((x * 3 + y * 2) / 11 % 4) * 60 + (x + y) % 7);
        }
        const auto params = param_sets();
        for (std::size_t i = 0; i < params.size(); ++i) {
          if (!all_params && i % 2 == 1) continue;
          compare(a, b, f, l.luma, params[i],
                  std::string(l.name) + " " + std::to_string(s.w) + "x" + std::to_string(s.h) + " pad " +
                      std::to_string(pad) + (seed % 2 ? " blocks" : " noise"));
        }
      }
}

// Real photos (CF_TEST_IMAGES) scaled to each size; skipped when absent.
// gray_only: the GRAY8 layout only (for the largest frames).
inline void real_frames(cf::Engine &a, cf::Engine &b, const std::vector<Size> &sizes, bool gray_only = false) {
  const std::string dir = image_dir();
  if (dir.empty()) {
    std::printf("no test images (CF_TEST_IMAGES): real-photo parity skipped\n");
    return;
  }
  for (const char *name : {"building.jpg", "baboon.jpg"}) {
    int iw = 0, ih = 0;
    std::vector<std::uint8_t> rgb;
    if (!load_rgb8(dir + "/" + name, iw, ih, rgb)) {
      CHECK_MSG(false, "cannot read %s/%s", dir.c_str(), name);
      continue;
    }
    for (const Size &s : sizes)
      for (const Layout &l : layouts()) {
        if (gray_only && l.luma != cf::LumaSource::Component0) continue;
        OwnedFrame f = make_frame(l, s.w, s.h, 3);
        fill_from_rgb(f, iw, ih, rgb);
        for (const cf::HoughParams &p : param_sets())
          compare(a, b, f, l.luma, p,
                  std::string(name) + " " + l.name + " " + std::to_string(s.w) + "x" + std::to_string(s.h));
      }
  }
}

}  // namespace cft::hough
