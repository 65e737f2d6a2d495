// The Hough report's experiment (seed document 003) on the core library,
// printed as one JSON object for pipelines/seeds/seeds_hough.py.
//
// The report votes with 2-degree angle steps (90 bins) and takes
// mean + 2 std of the accumulator as its threshold. Here, with the same 90
// bins and k = 2, for each case (a photo resampled to a size):
//  - the edge map: Canny (--canny LOW,HIGH, default 100,300) of the
//    library's luma, made once on cpu (thin edges; the report's input is a
//    map of bright line pixels already);
//  - the automatic threshold: the mean and standard deviation of the
//    non-zero cells (the library's definition; also over every cell, which
//    the report may have used), k and the threshold hough_detect chose;
//  - the number of cells at or over the threshold (the report draws one
//    line per such cell) and of lines (peaks of 5x5 windows, no cut);
//  - ms per frame of voting and peaks alone (edge=input on the fixed edge
//    map): serial cpu, openmp, and cuda with the map in device memory for
//    each voting strategy (CF_HOUGH_VOTING: global, constant, shared), plus
//    the default strategy with the map in host memory. Every result (the
//    accumulator, the threshold and the lines) is compared with the serial
//    one; a difference exits 1. Without a usable GPU the cuda times are null.
// Cases: the first photo at --small (default 256x256: the report does not
// give its image's size, only that it is small), then every photo at
// 1280x720 and 1920x1080 (resampled with a box filter, or the nearest
// pixel when enlarged). CF_SEEDS_QUICK=1: the small case only, one call
// per measurement.
//
//   hough_seeds [--small WxH] [--canny LOW,HIGH] photo.ppm [photo.ppm ...]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "best_time.hpp"
#include "box_resample.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/hough.hpp"
#include "device_frame.hpp"
#include "frames.hpp"
#include "seeds_json.hpp"
#include "seeds_photo.hpp"

namespace {

using cfbench::OnDevice;
using cfseeds::json_number;
using cfseeds::Photo;
using cfseeds::json_string;
using cfseeds::kMissing;

constexpr int kReportThetaBins = 90;  // 180 degrees in 2-degree steps
constexpr int kReportKQ8 = 512;       // k = 2


// Same accumulator, threshold and lines as the serial result, else exit 1.
void expect_same(const cf::HoughResult &want, const cf::HoughResult &got, const std::string &what) {
  bool same =
      want.accumulator == got.accumulator && want.threshold == got.threshold && want.lines.size() == got.lines.size();
  for (std::size_t i = 0; same && i < want.lines.size(); ++i)
    same = want.lines[i].theta_bin == got.lines[i].theta_bin && want.lines[i].rho_bin == got.lines[i].rho_bin &&
           want.lines[i].votes == got.lines[i].votes;
  if (!same) {
    std::fprintf(stderr, "%s: the result differs from the serial one\n", what.c_str());
    std::exit(1);
  }
}

// ms per call: one call when quick, else the best of 5 rounds of calls
// lasting about 50 ms each.
template <class F>
double ms_per_call(bool quick, F &&f) {
  if (quick) return cfbench::time_ms(1, 1, f);
  const double once = cfbench::time_ms(1, 1, f);
  const int n = int(std::clamp(50.0 / std::max(once, 1e-3), 1.0, 500.0));
  return cfbench::time_ms(5, n, f);
}

struct Stats {
  double mean = 0, std = 0, mean_all = 0, std_all = 0;
  long long nonzero = 0, at_threshold = 0;
};

Stats accumulator_stats(const std::vector<std::uint32_t> &acc, std::uint32_t threshold) {
  Stats s;
  double sum = 0, squares = 0;
  for (std::uint32_t v : acc) {
    if (v) ++s.nonzero;
    sum += v;
    squares += double(v) * v;
    if (v && v >= threshold) ++s.at_threshold;
  }
  auto moments = [&](double n, double &mean, double &sd) {
    mean = n > 0 ? sum / n : 0;
    sd = n > 0 ? std::sqrt(std::max(0.0, squares / n - mean * mean)) : 0;
  };
  moments(double(s.nonzero), s.mean, s.std);
  moments(double(acc.size()), s.mean_all, s.std_all);
  return s;
}

std::string run_case(const Photo &ph, int W, int H, const cf::HoughParams &canny, bool quick, cf::Engine &cpu,
                     cf::Engine &omp, cf::Engine *cuda) {
  cft::OwnedFrame rgb = cft::make_raw(cft::Packing::Packed3, W, H, cf::SampleType::U8, 0, false);
  cft::fill_from_rgb(rgb, W, H, cfseeds::box_resample(ph.rgb, ph.width, ph.height, W, H));
  cf::HoughResult edges;
  cf::hough_detect(cpu, canny, rgb.view, cf::LumaSource::Rgb, edges, cf::kHoughWantEdges);
  cft::OwnedFrame map = cft::make_raw(cft::Packing::Gray, W, H, cf::SampleType::U8);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) cft::write_sample(map.view, 0, x, y, edges.edges[std::size_t(y) * W + x]);

  cf::HoughParams p = canny;
  p.edge = cf::EdgeDetector::Input;
  p.max_lines = cf::kHoughMaxLines;
  const std::string label = ph.name + " " + std::to_string(W) + "x" + std::to_string(H);
  cf::HoughResult want, got;
  const unsigned all = cf::kHoughWantAccumulator;
  cf::hough_detect(cpu, p, map.view, cf::LumaSource::Component0, want, all);
  const Stats st = accumulator_stats(want.accumulator, want.threshold);

  auto time_on = [&](cf::Engine &e, const cf::FrameView &f) {
    return ms_per_call(quick, [&] { cf::hough_detect(e, p, f, cf::LumaSource::Component0, got); });
  };
  const double t_cpu = time_on(cpu, map.view);
  const double t_omp = time_on(omp, map.view);
  cf::hough_detect(omp, p, map.view, cf::LumaSource::Component0, got, all);
  expect_same(want, got, label + " openmp");

  double t_cuda[3] = {kMissing, kMissing, kMissing}, t_host = kMissing;
  const char *strategies[3] = {"global", "constant", "shared"};
  if (cuda) {
    OnDevice dev(*cuda, map);
    for (int i = 0; i < 3; ++i) {
      setenv("CF_HOUGH_VOTING", strategies[i], 1);
      t_cuda[i] = time_on(*cuda, dev.view);
      cf::hough_detect(*cuda, p, dev.view, cf::LumaSource::Component0, got, all);
      expect_same(want, got, label + " cuda " + strategies[i]);
    }
    unsetenv("CF_HOUGH_VOTING");
    t_host = time_on(*cuda, map.view);
    cf::hough_detect(*cuda, p, map.view, cf::LumaSource::Component0, got, all);
    expect_same(want, got, label + " cuda host frame");
  }
  const cf::HoughGeometry &g = want.geometry;
  std::string row = "    {\"photo\": " + json_string(ph.name) + ", \"width\": " + std::to_string(W) +
                    ", \"height\": " + std::to_string(H) + ", \"theta_bins\": " + std::to_string(g.theta_bins) +
                    ", \"rho_bins\": " + std::to_string(g.rho_bins) +
                    ", \"edge_pixels\": " + std::to_string(want.edge_pixels) +
                    ",\n     \"nonzero_cells\": " + std::to_string(st.nonzero) + ", \"mean\": " + json_number(st.mean) +
                    ", \"std\": " + json_number(st.std) + ", \"mean_all_cells\": " + json_number(st.mean_all) +
                    ", \"std_all_cells\": " + json_number(st.std_all) + ", \"k\": " + json_number(p.k_q8 / 256.0) +
                    ", \"threshold\": " + std::to_string(want.threshold) +
                    ", \"cells_at_threshold\": " + std::to_string(st.at_threshold) +
                    ", \"lines\": " + std::to_string(want.lines.size()) +
                    ",\n     \"ms\": {\"cpu\": " + json_number(t_cpu) + ", \"openmp\": " + json_number(t_omp);
  for (int i = 0; i < 3; ++i) row += ", \"cuda_" + std::string(strategies[i]) + "\": " + json_number(t_cuda[i]);
  return row + ", \"cuda_shared_host_frame\": " + json_number(t_host) + "}}";
}

}  // namespace

int main(int argc, char **argv) {
  const bool quick = cfseeds::quick_run();
  int small_w = 256, small_h = 256;
  cf::HoughParams canny;
  canny.edge = cf::EdgeDetector::Canny;
  canny.canny_low = 100;
  canny.canny_high = 300;
  canny.theta_bins = kReportThetaBins;
  canny.k_q8 = kReportKQ8;
  std::vector<std::string> paths;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--small" && a + 1 < argc) {
      if (std::sscanf(argv[++a], "%dx%d", &small_w, &small_h) != 2 || small_w < cf::kHoughMinSize ||
          small_h < cf::kHoughMinSize) {
        std::fprintf(stderr, "--small takes WxH, at least 3x3, e.g. 256x256\n");
        return 2;
      }
    } else if (arg == "--canny" && a + 1 < argc) {
      if (std::sscanf(argv[++a], "%d,%d", &canny.canny_low, &canny.canny_high) != 2) {
        std::fprintf(stderr, "--canny takes LOW,HIGH, e.g. 100,300\n");
        return 2;
      }
    } else {
      paths.push_back(arg);
    }
  }
  if (paths.empty()) {
    std::fprintf(stderr, "usage: hough_seeds [--small WxH] [--canny LOW,HIGH] photo.ppm [photo.ppm ...]\n");
    return 2;
  }
  const std::vector<Photo> photos = cfseeds::read_photos(paths);
  std::string why;
  const bool cuda_usable = cf::cuda_device_usable(0, &why);
  cf::Engine cpu(cf::Backend::Cpu), omp(cf::Backend::OpenMP);
  std::unique_ptr<cf::Engine> cuda = cuda_usable ? std::make_unique<cf::Engine>(cf::Backend::Cuda) : nullptr;
  try {
    if (const std::string why_not = cf::hough_check(canny, small_w, small_h); !why_not.empty())
      throw cf::Error(why_not);
    std::string rows = run_case(photos[0], small_w, small_h, canny, quick, cpu, omp, cuda.get());
    if (!quick)
      for (const Photo &ph : photos)
        for (const auto &size : {std::pair<int, int>{1280, 720}, std::pair<int, int>{1920, 1080}})
          rows += ",\n" + run_case(ph, size.first, size.second, canny, quick, cpu, omp, cuda.get());
    std::printf("{\n  \"cuda\": %s,\n  \"cuda_note\": %s,\n  \"openmp\": %s,\n", cuda ? "true" : "false",
                json_string(cuda ? cuda->describe() : why).c_str(), json_string(omp.describe()).c_str());
    std::printf(
        "  \"params\": {\"edge\": \"canny\", \"canny_low\": %d, \"canny_high\": %d, \"theta_bins\": %d, "
        "\"rho_step\": %d, \"k\": %s, \"nms_window\": %d},\n",
        canny.canny_low, canny.canny_high, canny.theta_bins, canny.rho_step, json_number(canny.k_q8 / 256.0).c_str(),
        canny.nms_window);
    std::printf("  \"cases\": [\n%s\n  ]\n}\n", rows.c_str());
  } catch (const cf::Error &e) {
    std::fprintf(stderr, "hough_seeds: %s\n", e.what());
    return 1;
  }
  return 0;
}
