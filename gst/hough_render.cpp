#include "hough_render.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>


namespace cfgst {

bool hough_format_supported(GstVideoFormat f) {
  switch (f) {
    case GST_VIDEO_FORMAT_GRAY8: case GST_VIDEO_FORMAT_RGB: case GST_VIDEO_FORMAT_BGR:
    case GST_VIDEO_FORMAT_RGBA: case GST_VIDEO_FORMAT_BGRA: case GST_VIDEO_FORMAT_RGBx:
    case GST_VIDEO_FORMAT_BGRx: case GST_VIDEO_FORMAT_I420: case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_Y444:
      return true;
    default:
      return false;
  }
}

cf::LumaSource hough_luma_source(GstVideoFormat f) {
  const GstVideoFormatInfo *info = gst_video_format_get_info(f);
  return GST_VIDEO_FORMAT_INFO_IS_RGB(info) ? cf::LumaSource::Rgb : cf::LumaSource::Component0;
}

void copy_frame(const cf::FrameView &src, const cf::FrameView &dst) {
  for (int i = 0; i < src.n_planes; ++i) {
    const cf::MemoryPlane &s = src.planes[i], &d = dst.planes[i];
    for (int y = 0; y < s.rows; ++y)
      std::memcpy(static_cast<guint8 *>(d.data) + y * d.stride, static_cast<const guint8 *>(s.data) + y * s.stride,
                  std::size_t(s.row_bytes));
  }
}

namespace {

// The colour in the frame's components (component order: R, G, B or Y, U, V).
struct Paint {
  int n = 0;
  int value[3] = {};
  bool subsampled = false;  // components 1, 2 at half resolution
};

Paint paint_for(GstVideoFormat format, guint32 rgb) {
  const int r = (rgb >> 16) & 0xff, g = (rgb >> 8) & 0xff, b = rgb & 0xff;
  const GstVideoFormatInfo *info = gst_video_format_get_info(format);
  Paint p;
  if (GST_VIDEO_FORMAT_INFO_IS_RGB(info)) {
    p.n = 3;
    p.value[0] = r, p.value[1] = g, p.value[2] = b;
  } else if (GST_VIDEO_FORMAT_INFO_IS_GRAY(info)) {
    p.n = 1;
    p.value[0] = cf::hough_luma(r, g, b);
  } else {
    p.n = 3;
    p.value[0] = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16;
    p.value[1] = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128;
    p.value[2] = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128;
    p.subsampled = GST_VIDEO_FORMAT_INFO_W_SUB(info, 1) > 0;
  }
  return p;
}

void put(const cf::FrameView &f, const Paint &p, int x, int y) {
  const int w = f.components[0].width, h = f.components[0].height;
  if (x < 0 || y < 0 || x >= w || y >= h) return;
  for (int c = 0; c < p.n; ++c) {
    const bool half = c > 0 && p.subsampled;
    *static_cast<guint8 *>(f.sample(c, half ? x / 2 : x, half ? y / 2 : y)) = guint8(p.value[c]);
  }
}

}  // namespace

void draw_lines(const cf::FrameView &frame, GstVideoFormat format, const std::vector<cf::HoughLine> &lines,
                guint32 rgb, int thickness) {
  const Paint p = paint_for(format, rgb);
  const int lo = -(thickness - 1) / 2, hi = thickness / 2;
  for (const cf::HoughLine &l : lines) {
    if (!l.visible) continue;
    // Bresenham from (x0, y0) to (x1, y1).
    int x = l.x0, y = l.y0;
    const int dx = std::abs(l.x1 - l.x0), dy = -std::abs(l.y1 - l.y0);
    const int sx = l.x0 < l.x1 ? 1 : -1, sy = l.y0 < l.y1 ? 1 : -1;
    for (int err = dx + dy;;) {
      for (int by = lo; by <= hi; ++by)
        for (int bx = lo; bx <= hi; ++bx) put(frame, p, x + bx, y + by);
      if (x == l.x1 && y == l.y1) break;
      const int e2 = 2 * err;
      if (e2 >= dy) err += dy, x += sx;
      if (e2 <= dx) err += dx, y += sy;
    }
  }
}

void render_edges(const std::vector<std::uint8_t> &edges, const cf::FrameView &dst) {
  const int w = dst.components[0].width, h = dst.components[0].height;
  for (int y = 0; y < h; ++y) std::memcpy(dst.sample(0, 0, y), edges.data() + std::size_t(y) * w, std::size_t(w));
}

void render_accumulator(const std::vector<std::uint32_t> &acc, const cf::HoughGeometry &g, const cf::FrameView &dst) {
  const std::uint32_t max = acc.empty() ? 0 : *std::max_element(acc.begin(), acc.end());
  for (int r = 0; r < g.rho_bins; ++r) {
    auto *row = static_cast<guint8 *>(dst.sample(0, 0, r));
    for (int t = 0; t < g.theta_bins; ++t) {
      const std::uint64_t v = acc[std::size_t(t) * g.rho_bins + r];
      row[t] = max ? guint8((v * 255 + max / 2) / max) : 0;
    }
  }
}

GstStructure *hough_lines_structure(const cf::HoughResult &r, GstClockTime pts) {
  const cf::HoughGeometry &g = r.geometry;
  GstStructure *s = gst_structure_new(
      "cudahough-lines", "timestamp", G_TYPE_UINT64, guint64(pts), "width", G_TYPE_INT, g.width, "height", G_TYPE_INT,
      g.height, "theta-bins", G_TYPE_INT, g.theta_bins, "rho-bins", G_TYPE_INT, g.rho_bins, "rho-step", G_TYPE_INT,
      g.rho_step, "threshold", G_TYPE_UINT, r.threshold, "edge-pixels", G_TYPE_UINT, r.edge_pixels, "count",
      G_TYPE_INT, int(r.lines.size()), nullptr);
  GValue array = G_VALUE_INIT;
  gst_value_array_init(&array, guint(r.lines.size()));
  for (const cf::HoughLine &l : r.lines) {
    GstStructure *line = gst_structure_new(
        "line", "rho", G_TYPE_DOUBLE, l.rho, "theta", G_TYPE_DOUBLE, l.theta, "votes", G_TYPE_UINT, l.votes,
        "rho-bin", G_TYPE_INT, l.rho_bin, "theta-bin", G_TYPE_INT, l.theta_bin, "visible", G_TYPE_BOOLEAN,
        gboolean(l.visible), "x1", G_TYPE_INT, l.x0, "y1", G_TYPE_INT, l.y0, "x2", G_TYPE_INT, l.x1, "y2", G_TYPE_INT,
        l.y1, nullptr);
    GValue v = G_VALUE_INIT;
    g_value_init(&v, GST_TYPE_STRUCTURE);
    g_value_take_boxed(&v, line);
    gst_value_array_append_and_take_value(&array, &v);
  }
  gst_structure_take_value(s, "lines", &array);
  return s;
}

}  // namespace cfgst
