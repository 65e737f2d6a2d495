// The drawing rule of cf::hough_draw (cudafilters/hough.hpp), written once
// for the serial and OpenMP code and the CUDA kernel (CF_HD: host_device.hpp).
//
// Every point of a segment is computed on its own (closed form), so the CUDA
// kernel can paint all points at once. It equals the incremental all-octant
// Bresenham walk (err = dx + dy; e2 = 2 err; e2 >= dy: x step; e2 <= dx: y
// step): with a = |dx|, b = |dy|, n = max(a, b), point k of 0..n moves k
// along the major axis and floor((2 minor k + n) / (2 n)) along the minor one
// (tests/unit/test_hough_draw.cpp checks it against the walk). Every painted
// sample of a component gets the same value, so the result is the union of
// the brushes whatever the order: cpu, openmp and cuda give the same bytes.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "core/shared/host_device.hpp"
#include "cudafilters/frame.hpp"
#include "cudafilters/hough.hpp"

namespace cf::hough {

// A visible line's end points (inside the frame).
struct Segment {
  int x0, y0, x1, y1;
};

// The colour in the frame's components (R, G, B or Y, U, V order), and the
// components' subsampling (1: half resolution along x or y, as in I420 and
// NV12 chroma).
struct Paint {
  int n = 0;
  std::uint8_t value[3] = {};
  int shift_x[3] = {}, shift_y[3] = {};
};

CF_HD int abs_int(int v) { return v < 0 ? -v : v; }

CF_HD int segment_points(const Segment &s) {
  const int a = abs_int(s.x1 - s.x0), b = abs_int(s.y1 - s.y0);
  return (a > b ? a : b) + 1;
}

// Point k (0..segment_points - 1) of the Bresenham walk from (x0, y0).
CF_HD void segment_point(const Segment &s, int k, int &x, int &y) {
  const int a = abs_int(s.x1 - s.x0), b = abs_int(s.y1 - s.y0);
  const int sx = s.x0 < s.x1 ? 1 : -1, sy = s.y0 < s.y1 ? 1 : -1;
  const int n = a > b ? a : b, minor = a > b ? b : a;
  const int step = n ? int((2LL * minor * k + n) / (2LL * n)) : 0;
  x = s.x0 + sx * (a >= b ? k : step);
  y = s.y0 + sy * (a >= b ? step : k);
}

// The square brush: offsets brush_low(t) .. brush_low(t) + t - 1 around a point.
CF_HD int brush_low(int thickness) { return -(thickness - 1) / 2; }

// The colour 0xRRGGBB in the frame's components (hough.hpp, HoughPaint).
inline Paint paint_for(const FrameView &f, HoughPaint model, std::uint32_t rgb) {
  const int r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
  Paint p;
  if (model == HoughPaint::Gray) {
    p.n = 1;
    p.value[0] = std::uint8_t(hough_luma(r, g, b));
    return p;
  }
  p.n = 3;
  if (model == HoughPaint::Rgb) {
    p.value[0] = std::uint8_t(r), p.value[1] = std::uint8_t(g), p.value[2] = std::uint8_t(b);
  } else {
    p.value[0] = std::uint8_t(((66 * r + 129 * g + 25 * b + 128) >> 8) + 16);
    p.value[1] = std::uint8_t(((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128);
    p.value[2] = std::uint8_t(((112 * r - 94 * g - 18 * b + 128) >> 8) + 128);
  }
  for (int c = 1; c < 3; ++c) {
    p.shift_x[c] = f.components[c].width < f.components[0].width ? 1 : 0;
    p.shift_y[c] = f.components[c].height < f.components[0].height ? 1 : 0;
  }
  return p;
}

// The segments of the visible lines.
inline std::vector<Segment> segments_of(const std::vector<HoughLine> &lines) {
  std::vector<Segment> v;
  for (const HoughLine &l : lines)
    if (l.visible) v.push_back({l.x0, l.y0, l.x1, l.y1});
  return v;
}

// Serial and OpenMP: rows [row0, row1) of plane i from src to dst.
inline void copy_rows(const FrameView &src, const FrameView &dst, int i, int row0, int row1) {
  const MemoryPlane &s = src.planes[i], &d = dst.planes[i];
  for (int y = row0; y < row1; ++y)
    std::memcpy(static_cast<std::uint8_t *>(d.data) + y * d.stride,
                static_cast<const std::uint8_t *>(s.data) + y * s.stride, std::size_t(s.row_bytes));
}

// Serial and OpenMP: paints component c's samples of rows [row0, row1) (in
// that component's rows) that the brushes of the segments cover. Bands of
// rows are disjoint, so threads painting different bands never share a byte.
inline void paint_rows(const FrameView &f, const Paint &p, int c, const Segment *segs, int n_segs, int thickness,
                       int row0, int row1) {
  const int w = f.components[0].width, h = f.components[0].height, lo = brush_low(thickness);
  for (int i = 0; i < n_segs; ++i) {
    const int points = segment_points(segs[i]);
    for (int k = 0; k < points; ++k) {
      int x, y;
      segment_point(segs[i], k, x, y);
      for (int by = y + lo; by < y + lo + thickness; ++by) {
        if (by < 0 || by >= h) continue;
        const int row = by >> p.shift_y[c];
        if (row < row0 || row >= row1) continue;
        for (int bx = x + lo; bx < x + lo + thickness; ++bx)
          if (bx >= 0 && bx < w) *static_cast<std::uint8_t *>(f.sample(c, bx >> p.shift_x[c], row)) = p.value[c];
      }
    }
  }
}

}  // namespace cf::hough
