#include "hough_render.h"

#include <algorithm>
#include <cstring>

namespace cfgst {

bool hough_format_supported(GstVideoFormat f) {
  switch (f) {
    case GST_VIDEO_FORMAT_GRAY8:
    case GST_VIDEO_FORMAT_RGB:
    case GST_VIDEO_FORMAT_BGR:
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_RGBx:
    case GST_VIDEO_FORMAT_BGRx:
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_Y444: return true;
    default: return false;
  }
}

cf::LumaSource hough_luma_source(GstVideoFormat f) {
  const GstVideoFormatInfo *info = gst_video_format_get_info(f);
  return GST_VIDEO_FORMAT_INFO_IS_RGB(info) ? cf::LumaSource::Rgb : cf::LumaSource::Component0;
}

cf::HoughPaint hough_paint(GstVideoFormat f) {
  const GstVideoFormatInfo *info = gst_video_format_get_info(f);
  return GST_VIDEO_FORMAT_INFO_IS_RGB(info)    ? cf::HoughPaint::Rgb
         : GST_VIDEO_FORMAT_INFO_IS_GRAY(info) ? cf::HoughPaint::Gray
                                               : cf::HoughPaint::Yuv;
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
  GstStructure *s =
      gst_structure_new("cudahough-lines", "timestamp", G_TYPE_UINT64, guint64(pts), "width", G_TYPE_INT, g.width,
                        "height", G_TYPE_INT, g.height, "theta-bins", G_TYPE_INT, g.theta_bins, "rho-bins", G_TYPE_INT,
                        g.rho_bins, "rho-step", G_TYPE_INT, g.rho_step, "threshold", G_TYPE_UINT, r.threshold,
                        "edge-pixels", G_TYPE_UINT, r.edge_pixels, "count", G_TYPE_INT, int(r.lines.size()), nullptr);
  // A GValueArray (G_TYPE_VALUE_ARRAY), as the level element's per-channel
  // values: PyGObject reads it as a list (of Gst.Structure here), which it
  // cannot do for a GstValueArray. GLib marks GValueArray deprecated.
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  GValueArray *lines = g_value_array_new(guint(r.lines.size()));
  for (const cf::HoughLine &l : r.lines) {
    GstStructure *line = gst_structure_new(
        "line", "rho", G_TYPE_DOUBLE, l.rho, "theta", G_TYPE_DOUBLE, l.theta, "votes", G_TYPE_UINT, l.votes, "rho-bin",
        G_TYPE_INT, l.rho_bin, "theta-bin", G_TYPE_INT, l.theta_bin, "visible", G_TYPE_BOOLEAN, gboolean(l.visible),
        "x1", G_TYPE_INT, l.x0, "y1", G_TYPE_INT, l.y0, "x2", G_TYPE_INT, l.x1, "y2", G_TYPE_INT, l.y1, nullptr);
    GValue v = G_VALUE_INIT;
    g_value_init(&v, GST_TYPE_STRUCTURE);
    g_value_take_boxed(&v, line);
    g_value_array_append(lines, &v);
    g_value_unset(&v);
  }
  GValue array = G_VALUE_INIT;
  g_value_init(&array, g_value_array_get_type());  // G_TYPE_VALUE_ARRAY, whose macro warns
  g_value_take_boxed(&array, lines);
  G_GNUC_END_IGNORE_DEPRECATIONS
  gst_structure_take_value(s, "lines", &array);
  return s;
}

}  // namespace cfgst
