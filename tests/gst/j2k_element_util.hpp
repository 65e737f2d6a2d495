// What the JPEG 2000 element tests (test_j2kenc_element, test_j2kdec_element)
// share: skipping when an element is missing, the levels a frame takes,
// frames pulled from an appsink, and frames compared component by component.
#pragma once

#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "gst_util.hpp"

namespace cfgt {

// Decomposition levels that fit a frame: T.800 lets a resolution be empty,
// but the encoder (as OpenJPEG) asks that 2^levels not exceed the smallest
// side of a component; at most the default 5.
inline int levels_for(const char *format, int w, int h) {
  const GstVideoInfo info = video_info(format, w, h);
  int side = std::min(w, h);
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c)
    side = std::min({side, GST_VIDEO_INFO_COMP_WIDTH(&info, c), GST_VIDEO_INFO_COMP_HEIGHT(&info, c)});
  int levels = 0;
  while (levels < 5 && (2 << levels) <= side) ++levels;
  return levels;
}

// Every sample of every component of two frames, whatever their byte order
// (RGB against BGRx: GStreamer numbers components R, G, B, A or Y, U, V;
// the padding byte of RGBx/BGRx is no component). Empty when equal, else
// the first difference.
inline std::string compare_components(const GstVideoInfo &info_a, GstBuffer *a, const GstVideoInfo &info_b,
                                      GstBuffer *b) {
  if (GST_VIDEO_INFO_N_COMPONENTS(&info_a) != GST_VIDEO_INFO_N_COMPONENTS(&info_b) ||
      GST_VIDEO_INFO_COMP_DEPTH(&info_a, 0) != GST_VIDEO_INFO_COMP_DEPTH(&info_b, 0) ||
      GST_VIDEO_INFO_WIDTH(&info_a) != GST_VIDEO_INFO_WIDTH(&info_b) ||
      GST_VIDEO_INFO_HEIGHT(&info_a) != GST_VIDEO_INFO_HEIGHT(&info_b))
    return std::string("decoded as ") + GST_VIDEO_INFO_NAME(&info_b) + " " + std::to_string(info_b.width) + "x" +
           std::to_string(info_b.height) + ", not like " + GST_VIDEO_INFO_NAME(&info_a);
  const GstVideoInfo &info = info_a;
  GstVideoInfo ia = info_a, ib = info_b;
  GstVideoFrame fa, fb;
  if (!gst_video_frame_map(&fa, &ia, a, GST_MAP_READ)) return "cannot map the source frame";
  if (!gst_video_frame_map(&fb, &ib, b, GST_MAP_READ)) {
    gst_video_frame_unmap(&fa);
    return "cannot map the decoded frame";
  }
  const int bytes = GST_VIDEO_INFO_COMP_DEPTH(&info, 0) > 8 ? 2 : 1;
  std::string diff;
  long long count = 0;
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c)
    for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&fa, c); ++y)
      for (int x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH(&fa, c); ++x) {
        const auto *pa = GST_VIDEO_FRAME_COMP_DATA(&fa, c) + y * GST_VIDEO_FRAME_COMP_STRIDE(&fa, c) +
                         x * GST_VIDEO_FRAME_COMP_PSTRIDE(&fa, c);
        const auto *pb = GST_VIDEO_FRAME_COMP_DATA(&fb, c) + y * GST_VIDEO_FRAME_COMP_STRIDE(&fb, c) +
                         x * GST_VIDEO_FRAME_COMP_PSTRIDE(&fb, c);
        const int va = bytes == 2 ? pa[0] | pa[1] << 8 : pa[0], vb = bytes == 2 ? pb[0] | pb[1] << 8 : pb[0];
        if (va != vb && count++ == 0)
          diff = "component " + std::to_string(c) + " (" + std::to_string(x) + ", " + std::to_string(y) +
                 "): " + std::to_string(va) + " != " + std::to_string(vb);
      }
  gst_video_frame_unmap(&fa);
  gst_video_frame_unmap(&fb);
  if (count) diff += " (" + std::to_string(count) + " samples differ)";
  return diff;
}

// The buffers appsink `sink_name` holds, and the video they are.
inline std::vector<GstBuffer *> pull_all(GstElement *pipeline, const char *sink_name, GstVideoInfo *info) {
  std::vector<GstBuffer *> out;
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), sink_name);
  if (!sink) return out;
  while (GstSample *s = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 0)) {
    if (out.empty()) gst_video_info_from_caps(info, gst_sample_get_caps(s));
    out.push_back(gst_buffer_ref(gst_sample_get_buffer(s)));
    gst_sample_unref(s);
  }
  gst_object_unref(sink);
  return out;
}

}  // namespace cfgt
