// The serial reference of the Hough stages: every row, angle and cell in
// order (the pieces are in hough_stages.hpp, the rules in
// core/shared/hough_rules.hpp).
#include "cpu/hough_cpu.hpp"

#include "core/shared/hough_draw_rules.hpp"
#include "cpu/hough_stages.hpp"

namespace cf::cpu {

using namespace cf::hough;

namespace {

std::uint32_t hough_edges(const HoughParams &p, const FrameView &src, LumaSource luma, std::uint8_t *edges) {
  const int w = src.components[0].width, h = src.components[0].height;
  const std::size_t n = std::size_t(w) * h;
  Work &work = thread_work();
  work.luma.resize(n);
  for (int y = 0; y < h; ++y) luma_row(src, luma, y, work.luma.data() + std::size_t(y) * w);
  if (p.edge == EdgeDetector::Input) {
    std::uint32_t count = 0;
    for (std::size_t i = 0; i < n; ++i) count += (edges[i] = work.luma[i] ? kEdge : 0) != 0;
    return count;
  }
  if (p.edge == EdgeDetector::Sobel) {
    std::uint32_t count = 0;
    for (int y = 0; y < h; ++y) sobel_row(work.luma.data(), w, h, y, p.edge_threshold, edges + std::size_t(y) * w);
    for (std::size_t i = 0; i < n; ++i) count += edges[i] != 0;
    return count;
  }
  work.gradient.resize(n);
  work.cls.resize(n);
  for (int y = 0; y < h; ++y) canny_gradient_row(work.luma.data(), w, h, y, work.gradient.data() + std::size_t(y) * w);
  for (int y = 0; y < h; ++y)
    canny_class_row(work.gradient.data(), w, h, y, p.canny_low, p.canny_high, work.cls.data() + std::size_t(y) * w);
  return hysteresis(work.cls.data(), w, h, edges, work.stack);
}

void hough_vote(const HoughGeometry &g, const std::int32_t *trig, const std::uint8_t *edges, std::uint32_t *acc) {
  std::vector<std::uint32_t> &points = thread_work().points;
  points.clear();
  collect_points(edges, g.width, 0, g.height, points);
  for (int t = 0; t < g.theta_bins; ++t) vote_angle(g, trig, t, points.data(), points.size(), acc);
}

Stats hough_stats(const std::uint32_t *acc, std::size_t cells) {
  Stats st;
  add_stats(st, acc, 0, cells);
  return st;
}

void hough_peaks(const HoughGeometry &g, const std::uint32_t *acc, int radius, std::uint32_t threshold,
                 std::vector<HoughPeak> &out) {
  out.clear();
  for (int t = 0; t < g.theta_bins; ++t) peaks_row(g, acc, t, radius, threshold, out);
}

}  // namespace

void hough_detect(const HoughParams &p, const HoughGeometry &g, const std::int32_t *trig, const FrameView &src,
                  LumaSource luma, HoughResult &out, std::vector<HoughPeak> &peaks) {
  size_buffers(g, out);
  out.edge_pixels = hough_edges(p, src, luma, out.edges.data());
  hough_vote(g, trig, out.edges.data(), out.accumulator.data());
  out.threshold = threshold_of(p, hough_stats(out.accumulator.data(), g.cells()));
  hough_peaks(g, out.accumulator.data(), p.nms_window / 2, out.threshold, peaks);
}

void hough_draw(const std::vector<HoughLine> &lines, const HoughDrawParams &d, const FrameView &src,
                const FrameView &dst) {
  const Paint paint = paint_for(src, d.paint, d.rgb);
  const std::vector<Segment> segs = segments_of(lines);
  const int thickness = d.thickness;
  if (src.planes[0].data != dst.planes[0].data)
    for (int i = 0; i < src.n_planes; ++i) hough::copy_rows(src, dst, i, 0, src.planes[i].rows);
  for (int c = 0; c < paint.n; ++c)
    hough::paint_rows(dst, paint, c, segs.data(), int(segs.size()), thickness, 0, dst.components[c].height);
}

}  // namespace cf::cpu
