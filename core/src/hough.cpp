// Hough parameters, geometry, the shared trig table, the automatic
// threshold, the line list, and backend dispatch.
#include "cudafilters/hough.hpp"

#include <algorithm>
#include <cmath>

#include "core/shared/hough_rules.hpp"
#include "cpu/hough_cpu.hpp"
#include "cudafilters/error.hpp"
#include "kernels/hough_cuda.hpp"

namespace cf {

const char *edge_detector_name(EdgeDetector e) {
  return e == EdgeDetector::Sobel ? "sobel" : e == EdgeDetector::Canny ? "canny" : "input";
}

HoughGeometry hough_geometry(const HoughParams &p, int width, int height) {
  HoughGeometry g;
  g.width = width;
  g.height = height;
  g.theta_bins = p.theta_bins;
  g.rho_step = std::max(1, p.rho_step);
  // ceil(diag / rho_step): the smallest n with (n rho_step)^2 >= diag^2.
  const long long d2 = (long long)(width - 1) * (width - 1) + (long long)(height - 1) * (height - 1);
  long long n = (long long)std::floor(std::sqrt(double(d2)) / g.rho_step);
  while (n > 0 && (n - 1) * g.rho_step * (n - 1) * g.rho_step >= d2) --n;
  while (n * g.rho_step * n * g.rho_step < d2) ++n;
  g.rho_offset = int(n) + 2;
  g.rho_bins = 2 * g.rho_offset + 1;
  return g;
}

std::vector<std::int32_t> hough_trig_table(int theta_bins) {
  std::vector<std::int32_t> t(2 * std::size_t(std::max(theta_bins, 0)));
  const double pi = std::acos(-1.0), one = double(1 << hough::kTrigShift);
  for (int i = 0; i < theta_bins; ++i) {
    const double a = pi * i / theta_bins;
    t[2 * i] = std::int32_t(std::lround(std::cos(a) * one));
    t[2 * i + 1] = std::int32_t(std::lround(std::sin(a) * one));
  }
  return t;
}

std::string hough_check(const HoughParams &p, int width, int height) {
  auto range = [](const char *name, int v, int lo, int hi) {
    return name + ("=" + std::to_string(v)) + " must be " + std::to_string(lo) + ".." + std::to_string(hi);
  };
  if (p.theta_bins < 1 || p.theta_bins > kHoughMaxThetaBins)
    return range("theta-bins", p.theta_bins, 1, kHoughMaxThetaBins);
  if (p.rho_step < 1 || p.rho_step > kHoughMaxRhoStep) return range("rho-step", p.rho_step, 1, kHoughMaxRhoStep);
  if (p.threshold < 0) return "threshold=" + std::to_string(p.threshold) + " must be >= 0 (0 = automatic)";
  if (p.k_q8 < 0 || p.k_q8 > kHoughMaxKQ8) return "k must be 0..10";
  if (p.nms_window < 1 || p.nms_window > kHoughMaxNmsWindow || p.nms_window % 2 == 0)
    return "nms-window=" + std::to_string(p.nms_window) + " must be odd, 1.." + std::to_string(kHoughMaxNmsWindow);
  if (p.max_lines < 1 || p.max_lines > kHoughMaxLines) return range("max-lines", p.max_lines, 1, kHoughMaxLines);
  if (p.edge_threshold < 0 || p.edge_threshold > kHoughMaxGradient + 1)
    return range("edge-threshold", p.edge_threshold, 0, kHoughMaxGradient + 1);
  if (p.canny_low < 0 || p.canny_high > kHoughMaxGradient + 1 || p.canny_low > p.canny_high)
    return "canny-low=" + std::to_string(p.canny_low) + " and canny-high=" + std::to_string(p.canny_high) +
           " must satisfy 0 <= canny-low <= canny-high <= " + std::to_string(kHoughMaxGradient + 1);
  if (width < kHoughMinSize || height < kHoughMinSize || width > kHoughMaxSize || height > kHoughMaxSize)
    return "a " + std::to_string(width) + "x" + std::to_string(height) + " frame is outside " +
           std::to_string(kHoughMinSize) + "x" + std::to_string(kHoughMinSize) + " (the 3x3 edge kernel) .. " +
           std::to_string(kHoughMaxSize) + "x" + std::to_string(kHoughMaxSize);
  return "";
}

std::uint32_t hough_auto_threshold(std::uint64_t n, std::uint64_t sum, std::uint64_t sum_squares, std::uint32_t max,
                                   int k_q8) {
  return hough::auto_threshold(n, sum, sum_squares, max, k_q8);
}

bool hough_stronger(const HoughPeak &a, const HoughPeak &b) {
  if (a.votes != b.votes) return a.votes > b.votes;
  if (a.theta_bin != b.theta_bin) return a.theta_bin < b.theta_bin;
  return a.rho_bin < b.rho_bin;
}

namespace {
// Where the line x cos(theta) + y sin(theta) = rho crosses the frame
// rectangle (Liang-Barsky on the point nearest the origin plus u * direction).
void clip(HoughLine &l, int width, int height) {
  const double c = std::cos(l.theta), s = std::sin(l.theta);
  const double px = l.rho * c, py = l.rho * s, dx = -s, dy = c;
  double u0 = -1e300, u1 = 1e300;
  auto limit = [&](double p, double d, double hi) {
    if (std::fabs(d) < 1e-12) return p >= -1e-9 && p <= hi + 1e-9;
    double a = (0 - p) / d, b = (hi - p) / d;
    if (a > b) std::swap(a, b);
    u0 = std::max(u0, a);
    u1 = std::min(u1, b);
    return true;
  };
  l.visible = limit(px, dx, width - 1) && limit(py, dy, height - 1) && u0 <= u1;
  if (!l.visible) return;
  auto pixel = [](double v, int hi) { return int(std::clamp<long>(std::lround(v), 0, hi)); };
  l.x0 = pixel(px + u0 * dx, width - 1);
  l.y0 = pixel(py + u0 * dy, height - 1);
  l.x1 = pixel(px + u1 * dx, width - 1);
  l.y1 = pixel(py + u1 * dy, height - 1);
}
}  // namespace

std::vector<HoughLine> hough_lines(std::vector<HoughPeak> peaks, const HoughParams &p, const HoughGeometry &g) {
  const std::size_t n = std::min(peaks.size(), std::size_t(std::max(p.max_lines, 0)));
  std::partial_sort(peaks.begin(), peaks.begin() + n, peaks.end(), hough_stronger);
  const double pi = std::acos(-1.0);
  std::vector<HoughLine> lines(n);
  for (std::size_t i = 0; i < n; ++i) {
    HoughLine &l = lines[i];
    l.theta_bin = peaks[i].theta_bin;
    l.rho_bin = peaks[i].rho_bin;
    l.votes = peaks[i].votes;
    l.theta = pi * l.theta_bin / g.theta_bins;
    l.rho = double(l.rho_bin - g.rho_offset) * g.rho_step;
    clip(l, g.width, g.height);
  }
  return lines;
}

namespace {
// The luma component(s) of src as one size; throws naming what is wrong.
void validate(const HoughParams &p, const FrameView &src, LumaSource luma) {
  if (const char *why = check_frame(src); *why) throw Error(std::string("source frame: ") + why);
  if (src.type != SampleType::U8)
    throw Error(std::string("hough needs 8-bit samples, not ") + sample_type_name(src.type));
  const int needed = luma == LumaSource::Rgb ? 3 : 1;
  if (src.n_components < needed) throw Error("RGB luma needs 3 components");
  const Component &k = src.components[0];
  for (int c = 1; c < needed; ++c)
    if (src.components[c].width != k.width || src.components[c].height != k.height)
      throw Error("the R, G and B components differ in size");
  if (const std::string why = hough_check(p, k.width, k.height); !why.empty()) throw Error(why);
}
}  // namespace

void hough_detect(Engine &e, const HoughParams &p, const FrameView &src, LumaSource luma, HoughResult &out,
                  unsigned want) {
  validate(p, src, luma);
  const HoughGeometry g = hough_geometry(p, src.components[0].width, src.components[0].height);
  const std::vector<std::int32_t> trig = hough_trig_table(p.theta_bins);
  out.geometry = g;
  std::vector<HoughPeak> peaks;
  if (e.backend() == Backend::Cuda) {
    cuda::hough_detect(e.cuda(), p, g, trig.data(), src, luma, want, out, peaks);
  } else {
    if (src.memory != Memory::Host) throw Error("a frame in device memory needs backend=cuda");
    if (e.backend() == Backend::OpenMP)
      omp::hough_detect(p, g, trig.data(), src, luma, out, peaks, e.threads());
    else
      cpu::hough_detect(p, g, trig.data(), src, luma, out, peaks);
  }
  out.lines = hough_lines(std::move(peaks), p, g);
}

}  // namespace cf
