// Row- and angle-sized pieces of the Hough stages, shared by the serial
// reference (hough_cpu.cpp, which runs them in order) and the OpenMP
// schedule (hough_omp.cpp, which spreads rows and angles over threads). The
// arithmetic is in hough_rules.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "core/shared/hough_rules.hpp"
#include "cudafilters/frame.hpp"
#include "cudafilters/hough.hpp"

namespace cf::hough {

// Of the non-zero cells of an accumulator.
struct Stats {
  std::uint64_t n = 0, sum = 0, squares = 0;
  std::uint32_t max = 0;
};

// The threshold property, or the automatic one (0) from the statistics.
inline std::uint32_t threshold_of(const HoughParams &p, const Stats &st) {
  return p.threshold ? std::uint32_t(p.threshold) : auto_threshold(st.n, st.sum, st.squares, st.max, p.k_q8);
}

// The result's edge map and accumulator, sized for g: the CPU backends' work buffers.
inline void size_buffers(const HoughGeometry &g, HoughResult &out) {
  out.edges.resize(std::size_t(g.width) * g.height);
  out.accumulator.resize(g.cells());
}

// Buffers of one detection, kept between frames by the calling thread.
struct Work {
  std::vector<std::uint8_t> luma;       // W x H
  std::vector<std::uint16_t> gradient;  // W x H: magnitude | sector << 12 (Canny only)
  std::vector<std::uint8_t> cls;        // W x H Canny classes
  std::vector<std::uint32_t> points;    // edge pixels, y << 16 | x
  std::vector<std::uint32_t> stack;     // hysteresis
};
inline Work &thread_work() {
  thread_local Work w;
  return w;
}

inline std::uint8_t sample(const FrameView &f, int c, int x, int y) {
  return *static_cast<const std::uint8_t *>(f.sample(c, x, y));
}

// Row y of the luma plane.
inline void luma_row(const FrameView &src, LumaSource luma, int y, std::uint8_t *out) {
  const int w = src.components[0].width;
  if (luma == LumaSource::Component0) {
    for (int x = 0; x < w; ++x) out[x] = sample(src, 0, x, y);
    return;
  }
  for (int x = 0; x < w; ++x)
    out[x] = std::uint8_t(luma_rgb(sample(src, 0, x, y), sample(src, 1, x, y), sample(src, 2, x, y)));
}

// Sobel gx, gy at (x, y) of a w x h luma plane, borders replicated.
inline void gradient_at(const std::uint8_t *l, int w, int h, int x, int y, int &gx, int &gy) {
  int n[9];
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx)
      n[(dy + 1) * 3 + dx + 1] = l[std::size_t(clamp_index(y + dy, h)) * w + clamp_index(x + dx, w)];
  sobel(n, gx, gy);
}

// Sobel edges of row y.
inline void sobel_row(const std::uint8_t *l, int w, int h, int y, int threshold, std::uint8_t *edges) {
  for (int x = 0; x < w; ++x) {
    int gx, gy;
    gradient_at(l, w, h, x, y, gx, gy);
    edges[x] = magnitude(gx, gy) >= threshold ? kEdge : 0;
  }
}

// Canny: magnitude and sector of row y, packed as m | sector << 12.
inline void canny_gradient_row(const std::uint8_t *l, int w, int h, int y, std::uint16_t *out) {
  for (int x = 0; x < w; ++x) {
    int gx, gy;
    gradient_at(l, w, h, x, y, gx, gy);
    out[x] = std::uint16_t(magnitude(gx, gy) | canny_sector(gx, gy) << 12);
  }
}

// Canny: classes (0, weak, strong) of row y after non-maximum suppression.
inline void canny_class_row(const std::uint16_t *g, int w, int h, int y, int low, int high, std::uint8_t *out) {
  auto mag = [&](int x, int yy) {
    return x < 0 || x >= w || yy < 0 || yy >= h ? 0 : g[std::size_t(yy) * w + x] & 0xfff;
  };
  for (int x = 0; x < w; ++x) {
    const int v = g[std::size_t(y) * w + x];
    int dx, dy;
    sector_offset(v >> 12, dx, dy);
    out[x] = canny_class(v & 0xfff, mag(x + dx, y + dy), mag(x - dx, y - dy), low, high);
  }
}

// Canny hysteresis: edges = weak pixels 8-connected to a strong one through
// weak pixels (a depth-first search from every strong pixel; any order of
// search reaches the same set).
inline std::uint32_t hysteresis(const std::uint8_t *cls, int w, int h, std::uint8_t *edges,
                                std::vector<std::uint32_t> &stack) {
  const std::size_t n = std::size_t(w) * h;
  for (std::size_t i = 0; i < n; ++i) edges[i] = 0;
  std::uint32_t count = 0;
  stack.clear();
  for (std::size_t i = 0; i < n; ++i) {
    if (cls[i] != kStrong || edges[i]) continue;
    edges[i] = kEdge;
    ++count;
    stack.push_back(std::uint32_t(i));
    while (!stack.empty()) {
      const std::uint32_t p = stack.back();
      stack.pop_back();
      const int x = int(p % std::uint32_t(w)), y = int(p / std::uint32_t(w));
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          const int xx = x + dx, yy = y + dy;
          if (xx < 0 || xx >= w || yy < 0 || yy >= h) continue;
          const std::size_t q = std::size_t(yy) * w + xx;
          if (cls[q] && !edges[q]) {
            edges[q] = kEdge;
            ++count;
            stack.push_back(std::uint32_t(q));
          }
        }
    }
  }
  return count;
}

// Appends the edge pixels of rows [y0, y1) to points.
inline void collect_points(const std::uint8_t *edges, int w, int y0, int y1, std::vector<std::uint32_t> &points) {
  for (int y = y0; y < y1; ++y)
    for (int x = 0; x < w; ++x)
      if (edges[std::size_t(y) * w + x]) points.push_back(std::uint32_t(y) << 16 | std::uint32_t(x));
}

// The votes of every point at angle t into row t of the accumulator.
inline void vote_angle(const HoughGeometry &g, const std::int32_t *trig, int t, const std::uint32_t *points,
                       std::size_t n, std::uint32_t *acc) {
  std::uint32_t *row = acc + std::size_t(t) * g.rho_bins;
  for (int r = 0; r < g.rho_bins; ++r) row[r] = 0;
  const int c = trig[2 * t], s = trig[2 * t + 1];
  for (std::size_t i = 0; i < n; ++i)
    ++row[rho_bin(int(points[i] & 0xffff), int(points[i] >> 16), c, s, g.rho_step, g.rho_offset)];
}

inline void add_stats(Stats &st, const std::uint32_t *acc, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i)
    if (const std::uint32_t v = acc[i]) {
      ++st.n;
      st.sum += v;
      st.squares += std::uint64_t(v) * v;
      if (v > st.max) st.max = v;
    }
}

inline void peaks_row(const HoughGeometry &g, const std::uint32_t *acc, int t, int radius, std::uint32_t threshold,
                      std::vector<HoughPeak> &out) {
  for (int r = 0; r < g.rho_bins; ++r)
    if (is_peak(acc, g.theta_bins, g.rho_bins, t, r, radius, threshold))
      out.push_back({acc[std::size_t(t) * g.rho_bins + r], t, r});
}

}  // namespace cf::hough
