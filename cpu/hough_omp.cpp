// OpenMP schedule of the Hough stages: rows of the luma, gradient and
// classes spread over threads; voting spread over angles, each thread owning
// whole accumulator rows (no shared counters, so no reduction and no
// atomics); statistics as integer reductions; peaks by theta row into
// per-thread lists (core sorts the union). Canny hysteresis is a
// connectivity search and runs on one thread, as in the reference.
#include <algorithm>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "core/shared/hough_draw_rules.hpp"
#include "cpu/hough_cpu.hpp"
#include "cpu/hough_stages.hpp"

namespace cf::omp {

using namespace cf::hough;

namespace {
int team(int threads) {
#ifdef _OPENMP
  return threads > 0 ? std::min(threads, omp_get_num_procs()) : omp_get_max_threads();
#else
  (void)threads;
  return 1;
#endif
}

std::uint32_t hough_edges(const HoughParams &p, const FrameView &src, LumaSource luma, std::uint8_t *edges,
                          int threads) {
  const int w = src.components[0].width, h = src.components[0].height;
  const std::size_t n = std::size_t(w) * h;
  Work &work = thread_work();
  work.luma.resize(n);
  std::uint8_t *l = work.luma.data();
  const int nt = team(threads);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int y = 0; y < h; ++y) luma_row(src, luma, y, l + std::size_t(y) * w);
  if (p.edge == EdgeDetector::Input) {
    std::uint32_t count = 0;
    const long long total = (long long)n;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : count)
    for (long long i = 0; i < total; ++i) count += (edges[i] = l[i] ? kEdge : 0) != 0;
    return count;
  }
  if (p.edge == EdgeDetector::Sobel) {
    std::uint32_t count = 0;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : count)
    for (int y = 0; y < h; ++y) {
      std::uint8_t *row = edges + std::size_t(y) * w;
      sobel_row(l, w, h, y, p.edge_threshold, row);
      for (int x = 0; x < w; ++x) count += row[x] != 0;
    }
    return count;
  }
  work.gradient.resize(n);
  work.cls.resize(n);
  std::uint16_t *g = work.gradient.data();
  std::uint8_t *cls = work.cls.data();
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int y = 0; y < h; ++y) canny_gradient_row(l, w, h, y, g + std::size_t(y) * w);
#pragma omp parallel for num_threads(nt) schedule(static)
  for (int y = 0; y < h; ++y) canny_class_row(g, w, h, y, p.canny_low, p.canny_high, cls + std::size_t(y) * w);
  return hysteresis(cls, w, h, edges, work.stack);
}

void hough_vote(const HoughGeometry &g, const std::int32_t *trig, const std::uint8_t *edges, std::uint32_t *acc,
                int threads) {
  std::vector<std::uint32_t> &points = thread_work().points;
  points.clear();
  collect_points(edges, g.width, 0, g.height, points);
  const std::uint32_t *pts = points.data();
  const std::size_t n = points.size();
#pragma omp parallel for num_threads(team(threads)) schedule(dynamic, 1)
  for (int t = 0; t < g.theta_bins; ++t) vote_angle(g, trig, t, pts, n, acc);
}

Stats hough_stats(const std::uint32_t *acc, std::size_t cells, int threads) {
  std::uint64_t n = 0, sum = 0, squares = 0;
  std::uint32_t max = 0;
  const long long count = (long long)cells;
#pragma omp parallel for num_threads(team(threads)) schedule(static) reduction(+ : n, sum, squares) reduction(max : max)
  for (long long i = 0; i < count; ++i)
    if (const std::uint32_t v = acc[i]) {
      ++n;
      sum += v;
      squares += std::uint64_t(v) * v;
      max = std::max(max, v);
    }
  return {n, sum, squares, max};
}

void hough_peaks(const HoughGeometry &g, const std::uint32_t *acc, int radius, std::uint32_t threshold,
                 std::vector<HoughPeak> &out, int threads) {
  out.clear();
#pragma omp parallel num_threads(team(threads))
  {
    std::vector<HoughPeak> mine;
#pragma omp for schedule(static) nowait
    for (int t = 0; t < g.theta_bins; ++t) peaks_row(g, acc, t, radius, threshold, mine);
#pragma omp critical
    out.insert(out.end(), mine.begin(), mine.end());
  }
}

}  // namespace

void hough_detect(const HoughParams &p, const HoughGeometry &g, const std::int32_t *trig, const FrameView &src,
                  LumaSource luma, HoughResult &out, std::vector<HoughPeak> &peaks, int threads) {
  size_buffers(g, out);
  out.edge_pixels = hough_edges(p, src, luma, out.edges.data(), threads);
  hough_vote(g, trig, out.edges.data(), out.accumulator.data(), threads);
  out.threshold = threshold_of(p, hough_stats(out.accumulator.data(), g.cells(), threads));
  hough_peaks(g, out.accumulator.data(), p.nms_window / 2, out.threshold, peaks, threads);
}

// Rows of every plane copied in parallel; then each thread paints its own
// band of rows of one component, so no two threads write the same byte.
void hough_draw(const std::vector<HoughLine> &lines, const HoughDrawParams &d, const FrameView &src,
                const FrameView &dst, int threads) {
  const Paint paint = paint_for(src, d.paint, d.rgb);
  const std::vector<Segment> segs = segments_of(lines);
  const int thickness = d.thickness;
  const int nt = team(threads);
  if (src.planes[0].data != dst.planes[0].data)
    for (int i = 0; i < src.n_planes; ++i) {
      const int rows = src.planes[i].rows;
#pragma omp parallel for num_threads(nt) schedule(static)
      for (int b = 0; b < nt; ++b)
        copy_rows(src, dst, i, int((long long)rows * b / nt), int((long long)rows * (b + 1) / nt));
    }
#pragma omp parallel for num_threads(nt) schedule(static) collapse(2)
  for (int c = 0; c < paint.n; ++c)
    for (int b = 0; b < nt; ++b) {
      const int rows = dst.components[c].height;
      paint_rows(dst, paint, c, segs.data(), int(segs.size()), thickness, int((long long)rows * b / nt),
                 int((long long)rows * (b + 1) / nt));
    }
}

}  // namespace cf::omp
