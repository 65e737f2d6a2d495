// The raw format a codestream decodes to; see j2k_dec_format.h.
#include "j2k_dec_format.h"

#include <algorithm>
#include <cstring>

namespace cfgst {

namespace {

bool fail(std::string *why, const std::string &m) {
  if (why) *why = m;
  return false;
}

std::string describe(const cf::J2kImageInfo &info) {
  std::string s = std::to_string(info.components) + " component(s):";
  for (int c = 0; c < info.components && c < cf::kMaxPlanes; ++c)
    s += std::string(c ? "," : "") + " " + std::to_string(info.bit_depth[c]) + "-bit " +
         (info.is_signed[c] ? "signed " : "") + std::to_string(info.component_width[c]) + "x" +
         std::to_string(info.component_height[c]) + " (subsampled " + std::to_string(info.subsampling_x[c]) + "x" +
         std::to_string(info.subsampling_y[c]) + ")";
  return s;
}

// The format of a depth from a row of the table (UNKNOWN: none).
GstVideoFormat by_depth(int depth, GstVideoFormat d8, GstVideoFormat d10, GstVideoFormat d12, GstVideoFormat d16) {
  if (depth <= 8) return d8;
  if (depth <= 10) return d10;
  if (depth <= 12) return d12;
  return d16;
}

}  // namespace

J2kColourHint colour_hint_from_caps(const GstStructure *s) {
  if (!s) return J2kColourHint::None;
  if (const char *cs = gst_structure_get_string(s, "colorspace")) {
    if (!std::strcmp(cs, "sRGB")) return J2kColourHint::Rgb;
    if (!std::strcmp(cs, "sYUV")) return J2kColourHint::Yuv;
    if (!std::strcmp(cs, "GRAY")) return J2kColourHint::Gray;
  }
  if (const char *sm = gst_structure_get_string(s, "sampling")) {
    if (!std::strcmp(sm, "RGB") || !std::strcmp(sm, "BGR") || !std::strcmp(sm, "RGBA") || !std::strcmp(sm, "BGRA"))
      return J2kColourHint::Rgb;
    if (!std::strncmp(sm, "YCbCr", 5)) return J2kColourHint::Yuv;
    if (!std::strcmp(sm, "GRAYSCALE")) return J2kColourHint::Gray;
  }
  return J2kColourHint::None;
}

bool j2k_output_format(const cf::J2kImageInfo &info, J2kColourHint colour, J2kOutput *out, std::string *why) {
  *out = {};
  const int n = info.components;
  if (n != 1 && n != 3 && n != 4)
    return fail(why, describe(info) + ": cudaj2kdec decodes 1 (grey), 3 (RGB or YCbCr) or 4 (RGBA) components");
  int depth = 0;
  for (int c = 0; c < n; ++c) depth = std::max(depth, info.bit_depth[c]);
  // Subsampling relative to component 0 (whose own is GStreamer's pixel).
  int rx[cf::kMaxPlanes] = {}, ry[cf::kMaxPlanes] = {};
  for (int c = 0; c < n; ++c) {
    const int sx0 = info.subsampling_x[0], sy0 = info.subsampling_y[0];
    if (sx0 <= 0 || sy0 <= 0 || info.subsampling_x[c] % sx0 || info.subsampling_y[c] % sy0)
      return fail(why, describe(info) + ": a component sampled more finely than component 0 has no raw format");
    rx[c] = info.subsampling_x[c] / sx0;
    ry[c] = info.subsampling_y[c] / sy0;
  }
  const auto all_full = [&] {
    for (int c = 1; c < n; ++c)
      if (rx[c] != 1 || ry[c] != 1) return false;
    return true;
  };
  GstVideoFormat f = GST_VIDEO_FORMAT_UNKNOWN;
  const char *refusal = nullptr;
  if (n == 1) {
    f = depth <= 8 ? GST_VIDEO_FORMAT_GRAY8 : GST_VIDEO_FORMAT_GRAY16_LE;
  } else if (n == 4) {
    if (!all_full()) return fail(why, describe(info) + ": 4 components (RGBA) must not be subsampled");
    f = depth <= 8 ? GST_VIDEO_FORMAT_RGBA : GST_VIDEO_FORMAT_RGBA64_LE;
  } else {
    const bool same = rx[1] == rx[2] && ry[1] == ry[2];
    const bool full = all_full();
    const bool rgb = full && (colour == J2kColourHint::Rgb ||
                              (colour != J2kColourHint::Yuv && colour != J2kColourHint::Gray && info.colour_transform));
    if (rgb) {
      f = by_depth(depth, GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_GBR_10LE, GST_VIDEO_FORMAT_GBR_12LE,
                   GST_VIDEO_FORMAT_UNKNOWN);
      refusal = "GStreamer 1.22 has no 3-component RGB format of more than 12 bits (RGB16 is 5:6:5)";
    } else if (full) {
      f = by_depth(depth, GST_VIDEO_FORMAT_Y444, GST_VIDEO_FORMAT_Y444_10LE, GST_VIDEO_FORMAT_Y444_12LE,
                   GST_VIDEO_FORMAT_Y444_16LE);
    } else if (same && rx[1] == 2 && ry[1] == 1) {
      f = by_depth(depth, GST_VIDEO_FORMAT_Y42B, GST_VIDEO_FORMAT_I422_10LE, GST_VIDEO_FORMAT_I422_12LE,
                   GST_VIDEO_FORMAT_UNKNOWN);
      refusal = "GStreamer 1.22 has no 4:2:2 format of more than 12 bits";
    } else if (same && rx[1] == 2 && ry[1] == 2) {
      f = by_depth(depth, GST_VIDEO_FORMAT_I420, GST_VIDEO_FORMAT_I420_10LE, GST_VIDEO_FORMAT_I420_12LE,
                   GST_VIDEO_FORMAT_UNKNOWN);
      refusal = "GStreamer 1.22 has no 4:2:0 format of more than 12 bits";
    } else {
      return fail(why, describe(info) +
                           ": 3 components must be 1x1 (RGB, Y444), 2x1 (Y42B) or 2x2 (I420) subsampled in "
                           "components 1 and 2");
    }
  }
  if (f == GST_VIDEO_FORMAT_UNKNOWN) return fail(why, describe(info) + ": " + (refusal ? refusal : "no raw format"));
  const GstVideoFormatInfo *finfo = gst_video_format_get_info(f);
  for (int c = 0; c < n; ++c) out->shift[c] = int(GST_VIDEO_FORMAT_INFO_DEPTH(finfo, c)) - info.bit_depth[c];
  out->format = f;
  out->width = info.component_width[0];
  out->height = info.component_height[0];
  return true;
}

bool j2k_sizes_match(const cf::J2kImageInfo &j2k, const GstVideoInfo &info, std::string *why) {
  for (int c = 0; c < j2k.components && c < int(GST_VIDEO_INFO_N_COMPONENTS(&info)); ++c)
    if (GST_VIDEO_INFO_COMP_WIDTH(&info, c) != j2k.component_width[c] ||
        GST_VIDEO_INFO_COMP_HEIGHT(&info, c) != j2k.component_height[c])
      return fail(why, std::string(GST_VIDEO_INFO_NAME(&info)) + " " + std::to_string(GST_VIDEO_INFO_WIDTH(&info)) +
                           "x" + std::to_string(GST_VIDEO_INFO_HEIGHT(&info)) + " has component " + std::to_string(c) +
                           " of " + std::to_string(GST_VIDEO_INFO_COMP_WIDTH(&info, c)) + "x" +
                           std::to_string(GST_VIDEO_INFO_COMP_HEIGHT(&info, c)) + ", the codestream " +
                           std::to_string(j2k.component_width[c]) + "x" + std::to_string(j2k.component_height[c]) +
                           " (an image offset in SIZ that GStreamer's subsampled formats cannot hold)");
  return true;
}

bool j2k_dec_cuda_format(GstVideoFormat f, int height) {
  return f == GST_VIDEO_FORMAT_RGB || f == GST_VIDEO_FORMAT_RGBA || f == GST_VIDEO_FORMAT_Y444 ||
         (f == GST_VIDEO_FORMAT_I420 && height % 2 == 0);
}

}  // namespace cfgst
