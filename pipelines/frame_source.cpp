#include "frame_source.hpp"

#include <gst/video/video.h>

#include <cstdio>
#include <random>

GstBuffer *decode_frame(const std::string &image, const std::string &format, int w, int h) {
  const std::string desc =
      "filesrc location=\"" + image + "\" ! decodebin ! videoconvert ! videoscale ! video/x-raw,format=" + format +
      ",width=" + std::to_string(w) + ",height=" + std::to_string(h) + " ! appsink name=sink sync=false";
  GError *err = nullptr;
  GstElement *pipe = gst_parse_launch(desc.c_str(), &err);
  if (!pipe) {
    std::fprintf(stderr, "cannot decode %s: %s\n", image.c_str(), err ? err->message : "?");
    g_clear_error(&err);
    return nullptr;
  }
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipe), "sink");
  gst_element_set_state(pipe, GST_STATE_PLAYING);
  GstSample *sample = nullptr;
  g_signal_emit_by_name(sink, "pull-sample", &sample);
  GstBuffer *buf = sample ? gst_buffer_copy_deep(gst_sample_get_buffer(sample)) : nullptr;
  if (sample) gst_sample_unref(sample);
  gst_element_set_state(pipe, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(pipe);
  return buf;
}

GstBuffer *random_video_frame(const std::string &format, int w, int h, std::uint32_t seed) {
  GstVideoInfo info;
  if (!gst_video_info_set_format(&info, gst_video_format_from_string(format.c_str()), w, h)) return nullptr;
  GstBuffer *buf = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstMapInfo map;
  gst_buffer_map(buf, &map, GST_MAP_WRITE);
  std::mt19937 rng(seed);
  for (gsize i = 0; i < map.size; ++i) map.data[i] = std::uint8_t(rng());
  gst_buffer_unmap(buf, &map);
  return buf;
}
