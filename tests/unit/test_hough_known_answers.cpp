// Hough line detection against its definition (cudafilters/hough.hpp), on
// the serial reference and OpenMP:
//  - lines of known rho/theta drawn by the test are found within one bin;
//  - a blank frame finds nothing;
//  - hand-computed edge maps (Sobel on a step, Canny's one-pixel contour);
//  - edge map, accumulator, automatic threshold and peaks equal to a plain
//    re-implementation in this file (floating-point trig table rebuilt here,
//    64-bit floor divisions, the threshold checked in long double, a
//    repeated-pass hysteresis instead of a search);
//  - bad parameters and frames give errors naming them.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "check.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/hough.hpp"
#include "frames.hpp"

using namespace cft;
using cf::Backend;
using cf::HoughParams;

namespace {

const double kPi = std::acos(-1.0);

OwnedFrame gray(int w, int h, std::uint8_t value = 0) {
  OwnedFrame f = make_raw(Packing::Gray, w, h, cf::SampleType::U8, 3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) write_sample(f.view, 0, x, y, value);
  return f;
}

// Pixels within half a pixel of x cos(theta) + y sin(theta) = rho set to 255.
void draw_line(OwnedFrame &f, double rho, double theta) {
  const int w = f.view.components[0].width, h = f.view.components[0].height;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      if (std::fabs(x * std::cos(theta) + y * std::sin(theta) - rho) < 0.5) write_sample(f.view, 0, x, y, 255);
}

// ---------------------------------------------------------------- a plain re-implementation

struct Reference {
  int w, h, T, R, off, step;
  std::vector<int> edges;          // 0/255
  std::vector<std::uint32_t> acc;  // T rows of R
  std::uint32_t threshold = 0;
  std::vector<cf::HoughPeak> peaks;  // sorted strongest first
};

int luma(const OwnedFrame &f, int x, int y) { return int(read_sample(f.view, 0, x, y)); }

int sobel_mag(const OwnedFrame &f, int x, int y, int *gxo = nullptr, int *gyo = nullptr) {
  const int w = f.view.components[0].width, h = f.view.components[0].height;
  auto L = [&](int xx, int yy) { return luma(f, std::clamp(xx, 0, w - 1), std::clamp(yy, 0, h - 1)); };
  const int gx =
      L(x + 1, y - 1) + 2 * L(x + 1, y) + L(x + 1, y + 1) - L(x - 1, y - 1) - 2 * L(x - 1, y) - L(x - 1, y + 1);
  const int gy =
      L(x - 1, y + 1) + 2 * L(x, y + 1) + L(x + 1, y + 1) - L(x - 1, y - 1) - 2 * L(x, y - 1) - L(x + 1, y - 1);
  if (gxo) *gxo = gx;
  if (gyo) *gyo = gy;
  return std::abs(gx) + std::abs(gy);
}

std::vector<int> canny_reference(const OwnedFrame &f, int low, int high) {
  const int w = f.view.components[0].width, h = f.view.components[0].height;
  std::vector<int> m(w * h), cls(w * h), out(w * h);
  std::vector<double> ang(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      int gx, gy;
      m[y * w + x] = sobel_mag(f, x, y, &gx, &gy);
      ang[y * w + x] = std::atan2(double(gy), double(gx));
    }
  auto M = [&](int x, int y) { return x < 0 || x >= w || y < 0 || y >= h ? 0 : m[y * w + x]; };
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      // Direction of the gradient folded into [0, 180) degrees; sectors by the
      // same integer tangent limits (13573/32768, 79109/32768) in doubles.
      int gx, gy;
      sobel_mag(f, x, y, &gx, &gy);
      const double ax = std::abs(gx), ay = std::abs(gy);
      int dx, dy;
      if (ay * 32768 <= ax * 13573)
        dx = -1, dy = 0;
      else if (ay * 32768 >= ax * 79109)
        dx = 0, dy = -1;
      else if ((gx < 0) == (gy < 0))
        dx = -1, dy = -1;
      else
        dx = 1, dy = -1;
      const int v = m[y * w + x];
      const bool keep = v > M(x + dx, y + dy) && v >= M(x - dx, y - dy) && v >= low;
      cls[y * w + x] = keep ? (v >= high ? 2 : 1) : 0;
    }
  // Hysteresis by repeated passes until nothing changes.
  for (bool changed = true; changed;) {
    changed = false;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        if (cls[y * w + x] != 1) continue;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            const int xx = x + dx, yy = y + dy;
            if (xx >= 0 && xx < w && yy >= 0 && yy < h && cls[yy * w + xx] == 2 && cls[y * w + x] == 1) {
              cls[y * w + x] = 2;
              changed = true;
            }
          }
      }
  }
  for (int i = 0; i < w * h; ++i) out[i] = cls[i] == 2 ? 255 : 0;
  return out;
}

Reference reference(const OwnedFrame &f, const HoughParams &p) {
  Reference r;
  r.w = f.view.components[0].width;
  r.h = f.view.components[0].height;
  r.T = p.theta_bins;
  r.step = p.rho_step;
  const double diag = std::sqrt(double(r.w - 1) * (r.w - 1) + double(r.h - 1) * (r.h - 1));
  r.off = int(std::ceil(diag / r.step - 1e-12)) + 2;
  r.R = 2 * r.off + 1;
  if (p.edge == cf::EdgeDetector::Canny) {
    r.edges = canny_reference(f, p.canny_low, p.canny_high);
  } else if (p.edge == cf::EdgeDetector::Input) {
    r.edges.resize(r.w * r.h);
    for (int y = 0; y < r.h; ++y)
      for (int x = 0; x < r.w; ++x) r.edges[y * r.w + x] = luma(f, x, y) ? 255 : 0;
  } else {
    r.edges.resize(r.w * r.h);
    for (int y = 0; y < r.h; ++y)
      for (int x = 0; x < r.w; ++x) r.edges[y * r.w + x] = sobel_mag(f, x, y) >= p.edge_threshold ? 255 : 0;
  }
  r.acc.assign(std::size_t(r.T) * r.R, 0);
  for (int t = 0; t < r.T; ++t) {
    const long long c = std::llround(std::cos(kPi * t / r.T) * 32768),
                    s = std::llround(std::sin(kPi * t / r.T) * 32768);
    for (int y = 0; y < r.h; ++y)
      for (int x = 0; x < r.w; ++x) {
        if (!r.edges[y * r.w + x]) continue;
        const long long num = x * c + y * s + r.step * 16384LL, den = r.step * 32768LL;
        const long long q = num >= 0 ? num / den : -((-num + den - 1) / den);  // floor
        ++r.acc[std::size_t(t) * r.R + std::size_t(q + r.off)];
      }
  }
  if (p.threshold) {
    r.threshold = std::uint32_t(p.threshold);
  } else {
    long double n = 0, s = 0, q = 0;
    std::uint32_t max = 0;
    for (auto v : r.acc)
      if (v) n += 1, s += v, q += (long double)v * v, max = std::max(max, v);
    const long double mean = n ? s / n : 0, sd = n ? std::sqrt(std::max<long double>(0, q / n - mean * mean)) : 0;
    const long double limit = mean + (p.k_q8 / 256.0L) * sd;
    r.threshold = n ? std::uint32_t(std::max<long double>(1, std::ceil(limit - 1e-9L))) : 1;
    if (r.threshold > max + 1) r.threshold = max + 1;
  }
  const int rad = p.nms_window / 2;
  for (int t = 0; t < r.T; ++t)
    for (int k = 0; k < r.R; ++k) {
      const std::uint32_t v = r.acc[std::size_t(t) * r.R + k];
      if (!v || v < r.threshold) continue;
      bool peak = true;
      for (int dt = -rad; dt <= rad && peak; ++dt)
        for (int dk = -rad; dk <= rad && peak; ++dk) {
          int tt = t + dt, kk = k + dk;
          if (kk < 0 || kk >= r.R) continue;
          // The same line seen from theta + pi: rho negated.
          if (tt < 0 || tt >= r.T) tt = (tt + r.T) % r.T, kk = r.R - 1 - kk;
          const long long self = (long long)t * r.R + k, other = (long long)tt * r.R + kk;
          if (other == self) continue;
          const std::uint32_t u = r.acc[other];
          if (u > v || (u == v && other < self)) peak = false;
        }
      if (peak) r.peaks.push_back({v, t, k});
    }
  std::sort(r.peaks.begin(), r.peaks.end(), [](const cf::HoughPeak &a, const cf::HoughPeak &b) {
    return a.votes != b.votes           ? a.votes > b.votes
           : a.theta_bin != b.theta_bin ? a.theta_bin < b.theta_bin
                                        : a.rho_bin < b.rho_bin;
  });
  if (r.peaks.size() > std::size_t(p.max_lines)) r.peaks.resize(p.max_lines);
  return r;
}

void compare_with_reference(cf::Engine &e, const OwnedFrame &f, const HoughParams &p, const char *what) {
  const Reference want = reference(f, p);
  cf::HoughResult got;
  cf::hough_detect(e, p, f.view, cf::LumaSource::Component0, got, cf::kHoughWantEdges | cf::kHoughWantAccumulator);
  CHECK_MSG(got.geometry.rho_bins == want.R && got.geometry.rho_offset == want.off, "%s: rho bins %d/%d, want %d/%d",
            what, got.geometry.rho_bins, got.geometry.rho_offset, want.R, want.off);
  long long edge_diff = 0, acc_diff = 0;
  for (std::size_t i = 0; i < want.edges.size() && i < got.edges.size(); ++i)
    edge_diff += want.edges[i] != got.edges[i];
  for (std::size_t i = 0; i < want.acc.size() && i < got.accumulator.size(); ++i)
    acc_diff += want.acc[i] != got.accumulator[i];
  CHECK_MSG(edge_diff == 0 && got.edges.size() == want.edges.size(), "%s (%s): %lld edge pixels differ", what,
            e.describe().c_str(), edge_diff);
  CHECK_MSG(acc_diff == 0 && got.accumulator.size() == want.acc.size(), "%s (%s): %lld accumulator cells differ", what,
            e.describe().c_str(), acc_diff);
  CHECK_MSG(got.threshold == want.threshold, "%s: threshold %u, want %u", what, got.threshold, want.threshold);
  bool same = got.lines.size() == want.peaks.size();
  for (std::size_t i = 0; same && i < got.lines.size(); ++i)
    same = got.lines[i].votes == want.peaks[i].votes && got.lines[i].theta_bin == want.peaks[i].theta_bin &&
           got.lines[i].rho_bin == want.peaks[i].rho_bin;
  CHECK_MSG(same, "%s: %zu lines, want %zu (or they differ)", what, got.lines.size(), want.peaks.size());
}

// ---------------------------------------------------------------- the tests

void test_known_lines(cf::Engine &e) {
  struct Line {
    double rho, theta_deg;
  };
  const std::vector<std::vector<Line>> cases = {
      {{40, 0}, {60, 90}},
      {{50, 30}, {-20, 120}, {90, 75}},
      {{10, 10}, {100, 45}, {5, 170}},
  };
  for (int step : {1, 2})
    for (int bins : {180, 90})
      for (const auto &lines : cases) {
        OwnedFrame f = gray(161, 121);
        for (const Line &l : lines) draw_line(f, l.rho, l.theta_deg * kPi / 180);
        HoughParams p;
        p.theta_bins = bins;
        p.rho_step = step;
        p.max_lines = int(lines.size());
        p.threshold = 40;
        cf::HoughResult r;
        cf::hough_detect(e, p, f.view, cf::LumaSource::Component0, r);
        CHECK_MSG(r.lines.size() == lines.size(), "%zu lines drawn, %zu found (bins %d step %d)", lines.size(),
                  r.lines.size(), bins, step);
        for (const Line &l : lines) {
          // Bins are pi/bins apart; the drawn line's theta in bins.
          const double want_t = l.theta_deg / 180 * bins;
          bool found = false;
          for (const cf::HoughLine &h : r.lines) {
            double dt = std::fabs(h.theta_bin - want_t), rho = h.rho;
            if (dt > bins / 2.0) dt = bins - dt, rho = -rho;  // across theta = pi
            found |= dt <= 1.0 && std::fabs(rho - l.rho) <= step + 1e-9;
          }
          CHECK_MSG(found, "line rho=%g theta=%g deg not found within one bin (bins %d, rho-step %d)", l.rho,
                    l.theta_deg, bins, step);
        }
        for (const cf::HoughLine &h : r.lines) CHECK(h.visible);
      }
}

void test_blank(cf::Engine &e) {
  for (int value : {0, 77, 255})
    for (auto edge : {cf::EdgeDetector::Sobel, cf::EdgeDetector::Canny}) {
      OwnedFrame f = gray(33, 17, std::uint8_t(value));
      HoughParams p;
      p.edge = edge;
      cf::HoughResult r;
      cf::hough_detect(e, p, f.view, cf::LumaSource::Component0, r, cf::kHoughWantAccumulator | cf::kHoughWantEdges);
      CHECK_MSG(r.lines.empty() && r.edge_pixels == 0, "blank %d: %zu lines, %u edge pixels", value, r.lines.size(),
                r.edge_pixels);
      CHECK(std::all_of(r.accumulator.begin(), r.accumulator.end(), [](std::uint32_t v) { return v == 0; }));
    }
}

void test_hand_computed_edges(cf::Engine &e) {
  // A vertical step between x = 2 and x = 3 (0 | 100): Sobel gx = 400 at
  // x = 2 and 3, every row (borders replicated), 0 elsewhere.
  OwnedFrame f = gray(6, 4);
  for (int y = 0; y < 4; ++y)
    for (int x = 3; x < 6; ++x) write_sample(f.view, 0, x, y, 100);
  HoughParams p;
  p.edge_threshold = 400;
  cf::HoughResult r;
  cf::hough_detect(e, p, f.view, cf::LumaSource::Component0, r, cf::kHoughWantEdges | cf::kHoughWantAccumulator);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 6; ++x)
      CHECK_MSG(r.edges[y * 6 + x] == ((x == 2 || x == 3) ? 255 : 0), "sobel step: edge(%d,%d)=%d", x, y,
                r.edges[y * 6 + x]);
  // theta = 0: rho = x, so bins offset+2 and offset+3 hold 4 votes each.
  const int off = r.geometry.rho_offset;
  CHECK(r.accumulator[off + 2] == 4 && r.accumulator[off + 3] == 4 && r.accumulator[off + 1] == 0);
  p.edge_threshold = 401;
  cf::hough_detect(e, p, f.view, cf::LumaSource::Component0, r, cf::kHoughWantEdges);
  CHECK(r.edge_pixels == 0);

  // Canny on the same step: both columns have m = 400, sector 0; x = 2 keeps
  // (400 > m(1) = 0, 400 >= m(3) = 400), x = 3 does not (400 > 400 fails).
  p.edge = cf::EdgeDetector::Canny;
  p.canny_low = 100;
  p.canny_high = 300;
  cf::hough_detect(e, p, f.view, cf::LumaSource::Component0, r, cf::kHoughWantEdges);
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 6; ++x)
      CHECK_MSG(r.edges[y * 6 + x] == (x == 2 ? 255 : 0), "canny step: edge(%d,%d)=%d", x, y, r.edges[y * 6 + x]);
  // Above the high threshold nowhere: nothing strong, no edges.
  p.canny_high = 401;
  cf::hough_detect(e, p, f.view, cf::LumaSource::Component0, r, cf::kHoughWantEdges);
  CHECK(r.edge_pixels == 0);
}

void test_against_reference(cf::Engine &e) {
  std::mt19937 rng(7);
  for (auto [w, h] : std::vector<std::pair<int, int>>{{3, 3}, {7, 5}, {29, 23}, {64, 9}, {90, 71}}) {
    // Blocks of random grey with a few drawn lines: edges of every direction.
    OwnedFrame f = gray(w, h);
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) write_sample(f.view, 0, x, y, ((x / 6 + y / 5) % 3) * 60 + int(rng() % 40));
    draw_line(f, w / 3.0, 0.7);
    draw_line(f, h / 2.0, 1.9);
    for (int detector = 0; detector < 3; ++detector)
      for (int threshold : {0, 3}) {
        HoughParams p;
        p.edge = detector == 0   ? cf::EdgeDetector::Sobel
                 : detector == 1 ? cf::EdgeDetector::Canny
                                 : cf::EdgeDetector::Input;
        p.edge_threshold = 150;
        p.canny_low = 60;
        p.canny_high = 220;
        p.threshold = threshold;
        p.theta_bins = 45 + threshold;  // an odd count too
        p.rho_step = 1 + threshold / 3;
        p.nms_window = 3;
        p.max_lines = 50;
        char what[96];
        std::snprintf(what, sizeof what, "%dx%d %s threshold=%d", w, h, cf::edge_detector_name(p.edge), threshold);
        compare_with_reference(e, f, p, what);
      }
  }
}

void test_auto_threshold() {
  // Cells 1, 1, 2, 4: mean 2, var 1.5, std 1.2247; k = 1: 3.2247 -> 4.
  CHECK(cf::hough_auto_threshold(4, 8, 22, 4, 256) == 4);
  // k = 0: the mean, 2.
  CHECK(cf::hough_auto_threshold(4, 8, 22, 4, 0) == 2);
  // k = 2: 4.449 -> 5 = max + 1: no cell qualifies.
  CHECK(cf::hough_auto_threshold(4, 8, 22, 4, 512) == 5);
  // Equal cells (std 0): the value itself.
  CHECK(cf::hough_auto_threshold(3, 15, 75, 5, 512) == 5);
  CHECK(cf::hough_auto_threshold(0, 0, 0, 0, 512) == 1);
}

void expect_error(cf::Engine &e, const HoughParams &p, const cf::FrameView &f, const char *word) {
  cf::HoughResult r;
  std::string msg;
  try {
    cf::hough_detect(e, p, f, cf::LumaSource::Component0, r);
  } catch (const cf::Error &err) {
    msg = err.what();
  }
  CHECK_MSG(msg.find(word) != std::string::npos, "error '%s' does not name '%s'", msg.c_str(), word);
}

void test_bad_input(cf::Engine &e) {
  OwnedFrame f = gray(16, 16);
  HoughParams p;
  p.theta_bins = 0;
  expect_error(e, p, f.view, "theta-bins=0");
  p = {};
  p.rho_step = 0;
  expect_error(e, p, f.view, "rho-step=0");
  p = {};
  p.nms_window = 4;
  expect_error(e, p, f.view, "nms-window=4");
  p = {};
  p.max_lines = 0;
  expect_error(e, p, f.view, "max-lines=0");
  p = {};
  p.canny_low = 200;
  p.canny_high = 100;
  expect_error(e, p, f.view, "canny-low=200");
  p = {};
  for (auto [w, h] : std::vector<std::pair<int, int>>{{2, 16}, {16, 2}, {1, 1}}) {
    OwnedFrame small = gray(w, h);
    expect_error(e, p, small.view, "edge kernel");
  }
  OwnedFrame wide = make_raw(Packing::Gray, 8, 8, cf::SampleType::U16);
  expect_error(e, p, wide.view, "8-bit");
}

}  // namespace

int main() {
  test_auto_threshold();
  for (Backend b : {Backend::Cpu, Backend::OpenMP}) {
    cf::Engine e(b, 3);
    std::printf("%s\n", e.describe().c_str());
    test_known_lines(e);
    test_blank(e);
    test_hand_computed_edges(e);
    test_against_reference(e);
    test_bad_input(e);
  }
  return cft::test_result();
}
