// Helpers for the element tests: a GstHarness around one element or a bin
// (with a bus, so element errors can be read back), raw test frames and
// their comparison. Header-only; every test is a plain main().
#pragma once

#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"

namespace cfgt {

// Every format the wavelet elements accept, and how its coefficient planes
// are sized (independently of the plugin's code): components, chroma
// subsampling, bytes per coefficient.
struct FormatSpec {
  const char *name;
  int components;
  bool subsampled;  // chroma ceil(w/2) x ceil(h/2)
  int coeff_bytes;
  bool padded;  // RGBx/BGRx: a byte per pixel the stream does not carry
};
inline const std::vector<FormatSpec> &formats() {
  static const std::vector<FormatSpec> f = {
      {"GRAY8", 1, false, 2, false}, {"GRAY16_LE", 1, false, 4, false}, {"RGB", 3, false, 2, false},
      {"BGR", 3, false, 2, false},   {"RGBA", 4, false, 2, false},      {"BGRA", 4, false, 2, false},
      {"RGBx", 3, false, 2, true},   {"BGRx", 3, false, 2, true},       {"I420", 3, true, 2, false},
      {"NV12", 3, true, 2, false},   {"Y444", 3, false, 2, false}};
  return f;
}
inline std::size_t coeff_size(const FormatSpec &f, int w, int h) {
  std::size_t samples = std::size_t(w) * h;
  const int cw = f.subsampled ? (w + 1) / 2 : w, ch = f.subsampled ? (h + 1) / 2 : h;
  samples += std::size_t(f.components - 1) * cw * ch;
  return samples * f.coeff_bytes;
}

inline void init(int *argc, char ***argv) {
  gst_init(argc, argv);
  GstPlugin *p = gst_registry_find_plugin(gst_registry_get(), "cudafilters");
  if (!p) {
    std::fprintf(stderr, "the cudafilters plugin is not in the registry (GST_PLUGIN_PATH=%s)\n",
                 g_getenv("GST_PLUGIN_PATH") ? g_getenv("GST_PLUGIN_PATH") : "");
    std::exit(1);
  }
  gst_object_unref(p);
}

// All error (or warning) messages on the bus, "text | debug" each,
// separated by newlines.
inline std::string pop_errors(GstBus *bus, GstMessageType type = GST_MESSAGE_ERROR) {
  std::string all;
  while (GstMessage *m = gst_bus_pop_filtered(bus, type)) {
    GError *err = nullptr;
    gchar *debug = nullptr;
    if (type == GST_MESSAGE_WARNING)
      gst_message_parse_warning(m, &err, &debug);
    else
      gst_message_parse_error(m, &err, &debug);
    all += std::string(err ? err->message : "") + " | " + (debug ? debug : "") + "\n";
    g_clear_error(&err);
    g_free(debug);
    gst_message_unref(m);
  }
  return all;
}
inline std::string pop_warnings(GstBus *bus) { return pop_errors(bus, GST_MESSAGE_WARNING); }

inline bool contains(const std::string &s, const char *what) { return s.find(what) != std::string::npos; }

inline GstElement *make_bin(const char *description) {
  GError *err = nullptr;
  GstElement *bin = gst_parse_bin_from_description(description, TRUE, &err);
  if (!bin) {
    std::fprintf(stderr, "cannot parse '%s': %s\n", description, err ? err->message : "?");
    std::exit(1);
  }
  return bin;
}

// A harness around `element` (one element or a bin with ghost pads), with a
// bus on which the element's errors and messages can be read.
struct Harness {
  GstHarness *h = nullptr;
  GstBus *bus = nullptr;
  GstElement *element = nullptr;

  // Takes a floating or owned reference to `e`.
  explicit Harness(GstElement *e) : element(GST_ELEMENT(gst_object_ref_sink(e))) {
    bus = gst_bus_new();
    gst_element_set_bus(element, bus);
    h = gst_harness_new_with_element(element, "sink", "src");
  }
  explicit Harness(const char *description) : Harness(make_description(description)) {}
  ~Harness() {
    gst_harness_teardown(h);
    gst_element_set_bus(element, nullptr);
    gst_object_unref(bus);
    gst_object_unref(element);
  }
  Harness(const Harness &) = delete;
  Harness &operator=(const Harness &) = delete;

  static GstElement *make_description(const char *d) {
    if (!std::strchr(d, '!') && !std::strchr(d, ' ')) {
      GstElement *e = gst_element_factory_make(d, nullptr);
      if (!e) {
        std::fprintf(stderr, "no element %s\n", d);
        std::exit(1);
      }
      return e;
    }
    return make_bin(d);
  }

  GstElement *get(const char *name) const {  // an element inside the bin (ref'd)
    return GST_IS_BIN(element) ? gst_bin_get_by_name(GST_BIN(element), name) : GST_ELEMENT(gst_object_ref(element));
  }

  // Pushes a caps event (and a segment) without gst_harness_set_src_caps,
  // which aborts when the caps are refused. True when the element took them:
  // gst_pad_push_event() says TRUE for refused sticky events, so acceptance is
  // read from the element's own sink pad (behind the bin's ghost pad).
  bool set_caps(const char *caps_string) {
    GstCaps *caps = gst_caps_from_string(caps_string);
    if (!caps) {
      std::fprintf(stderr, "bad caps string in the test: %s\n", caps_string);
      std::exit(1);
    }
    gst_harness_push_event(h, gst_event_new_caps(gst_caps_ref(caps)));
    GstPad *pad = gst_pad_get_peer(h->srcpad);
    while (pad && GST_IS_GHOST_PAD(pad)) {
      GstPad *target = gst_ghost_pad_get_target(GST_GHOST_PAD(pad));
      gst_object_unref(pad);
      pad = target;
    }
    GstCaps *current = pad ? gst_pad_get_current_caps(pad) : nullptr;
    const bool ok = current && gst_caps_is_equal(current, caps);
    if (current) gst_caps_unref(current);
    if (pad) gst_object_unref(pad);
    gst_caps_unref(caps);
    GstSegment segment;
    gst_segment_init(&segment, GST_FORMAT_TIME);
    gst_harness_push_event(h, gst_event_new_segment(&segment));
    return ok;
  }

  GstFlowReturn push(GstBuffer *b) { return gst_harness_push(h, b); }
  // The transforms are synchronous: the output, if any, is already queued.
  GstBuffer *pull() { return gst_harness_try_pull(h); }
  std::string errors() { return pop_errors(bus); }
  // Caps last seen on the harness sink pad (the element's output caps).
  GstCaps *out_caps() const { return gst_pad_get_current_caps(h->sinkpad); }
};

inline GstVideoInfo video_info(const char *format, int w, int h) {
  GstVideoInfo info;
  gst_video_info_set_format(&info, gst_video_format_from_string(format), w, h);
  return info;
}

inline std::string raw_caps(const char *format, int w, int h) {
  return std::string("video/x-raw, format=(string)") + format + ", width=(int)" + std::to_string(w) + ", height=(int)" +
         std::to_string(h) + ", framerate=(fraction)25/1, pixel-aspect-ratio=(fraction)1/1";
}

// The pixel bytes of each plane of a raw frame: its rows (the tallest
// component's) of its widest component's pixels (the padding byte of
// RGBx/BGRx counts as a pixel byte).
inline void plane_pixels(const GstVideoInfo &info, guint p, int *row_bytes, int *rows) {
  *row_bytes = *rows = 0;
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c) {
    if (GST_VIDEO_INFO_COMP_PLANE(&info, c) != p) continue;
    *row_bytes = std::max(*row_bytes, GST_VIDEO_INFO_COMP_WIDTH(&info, c) * GST_VIDEO_INFO_COMP_PSTRIDE(&info, c));
    *rows = std::max(*rows, GST_VIDEO_INFO_COMP_HEIGHT(&info, c));
  }
}

// Which bytes of a raw frame of `info` (GStreamer's default layout, with its
// offsets, strides and size) are pixel bytes; the others are padding: the
// tail of each row up to its stride and the gaps between planes (I420 and
// NV12 of odd height: GStreamer places the chroma after round_up_2(height)
// luma rows).
inline std::vector<bool> pixel_bytes(const GstVideoInfo &info) {
  std::vector<bool> pixel(GST_VIDEO_INFO_SIZE(&info), false);
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&info); ++p) {
    int row_bytes = 0, rows = 0;
    plane_pixels(info, p, &row_bytes, &rows);
    for (int y = 0; y < rows; ++y)
      for (int x = 0; x < row_bytes; ++x)
        pixel[GST_VIDEO_INFO_PLANE_OFFSET(&info, p) + std::size_t(y) * GST_VIDEO_INFO_PLANE_STRIDE(&info, p) + x] =
            true;
  }
  return pixel;
}

// Sets every padding byte (pixel_bytes) of raw frame `buf` to `value`.
inline void fill_padding(const GstVideoInfo &info, GstBuffer *buf, std::uint8_t value) {
  const std::vector<bool> pixel = pixel_bytes(info);
  GstMapInfo map;
  gst_buffer_map(buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < map.size && i < pixel.size(); ++i)
    if (!pixel[i]) map.data[i] = value;
  gst_buffer_unmap(buf, &map);
}

// A copy of raw frame `buf` with its padding zeroed: what an element writes
// when it passes the pixels through.
inline GstBuffer *with_zero_padding(const GstVideoInfo &info, GstBuffer *buf) {
  GstBuffer *copy = gst_buffer_copy_deep(buf);
  fill_padding(info, copy, 0);
  return copy;
}

// Row padding and gaps between planes of random_frame: random bytes (an
// element must ignore its input's padding) or zeros (what the elements
// write, so that a round trip gives the input back byte for byte).
enum class Padding { Random, Zero };

// A raw frame of random samples in GStreamer's default layout; the padding
// byte of RGBx/BGRx is 0xff (what cudainverse writes).
inline GstBuffer *random_frame(const GstVideoInfo &info, std::uint32_t seed, Padding padding = Padding::Random) {
  GstBuffer *buf = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstMapInfo map;
  gst_buffer_map(buf, &map, GST_MAP_WRITE);
  std::mt19937 rng(seed);
  for (gsize i = 0; i < map.size; ++i) map.data[i] = std::uint8_t(rng());
  const GstVideoFormat f = GST_VIDEO_INFO_FORMAT(&info);
  if (f == GST_VIDEO_FORMAT_RGBx || f == GST_VIDEO_FORMAT_BGRx)
    for (int y = 0; y < GST_VIDEO_INFO_HEIGHT(&info); ++y)
      for (int x = 0; x < GST_VIDEO_INFO_WIDTH(&info); ++x)
        map.data[GST_VIDEO_INFO_PLANE_OFFSET(&info, 0) + y * GST_VIDEO_INFO_PLANE_STRIDE(&info, 0) + x * 4 + 3] = 0xff;
  gst_buffer_unmap(buf, &map);
  if (padding == Padding::Zero) fill_padding(info, buf, 0);
  return buf;
}

// Whether every element of `names` is registered; else prints SKIP naming
// the first one missing, with `why` (what it needs) when given.
inline bool have_elements(std::initializer_list<const char *> names, const char *why = nullptr) {
  for (const char *n : names) {
    GstElementFactory *f = gst_element_factory_find(n);
    if (!f) {
      if (why)
        std::printf("SKIP: GStreamer element %s is not available (%s)\n", n, why);
      else
        std::printf("SKIP: no element %s\n", n);
      return false;
    }
    gst_object_unref(f);
  }
  return true;
}

// Compares the pixel bytes of two raw frames (row padding excluded; the
// padding byte of RGBx/BGRx included). Empty when equal, else the first
// difference.
inline std::string compare_frames(const GstVideoInfo &info, GstBuffer *a, GstBuffer *b) {
  GstVideoInfo ia = info, ib = info;
  GstVideoFrame fa, fb;
  if (!gst_video_frame_map(&fa, &ia, a, GST_MAP_READ)) return "cannot map the first frame";
  if (!gst_video_frame_map(&fb, &ib, b, GST_MAP_READ)) {
    gst_video_frame_unmap(&fa);
    return "cannot map the second frame";
  }
  std::string diff;
  long long count = 0;
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&fa); ++p) {
    int row_bytes = 0, rows = 0;
    plane_pixels(info, p, &row_bytes, &rows);
    for (int y = 0; y < rows; ++y) {
      const auto *ra = static_cast<const std::uint8_t *>(GST_VIDEO_FRAME_PLANE_DATA(&fa, p)) +
                       y * GST_VIDEO_FRAME_PLANE_STRIDE(&fa, p);
      const auto *rb = static_cast<const std::uint8_t *>(GST_VIDEO_FRAME_PLANE_DATA(&fb, p)) +
                       y * GST_VIDEO_FRAME_PLANE_STRIDE(&fb, p);
      for (int x = 0; x < row_bytes; ++x)
        if (ra[x] != rb[x] && count++ == 0)
          diff = "plane " + std::to_string(p) + " row " + std::to_string(y) + " byte " + std::to_string(x) + ": " +
                 std::to_string(ra[x]) + " != " + std::to_string(rb[x]);
    }
  }
  gst_video_frame_unmap(&fa);
  gst_video_frame_unmap(&fb);
  if (count) diff += " (" + std::to_string(count) + " bytes differ)";
  return diff;
}

// Compares two raw frames of `info` byte for byte, padding included. Empty
// when equal, else the sizes or the first difference (a pixel or a padding
// byte) and how many bytes differ.
inline std::string compare_buffers(const GstVideoInfo &info, GstBuffer *a, GstBuffer *b) {
  if (gst_buffer_get_size(a) != gst_buffer_get_size(b))
    return "sizes " + std::to_string(gst_buffer_get_size(a)) + " and " + std::to_string(gst_buffer_get_size(b)) +
           " differ";
  const std::vector<bool> pixel = pixel_bytes(info);
  GstMapInfo ma, mb;
  gst_buffer_map(a, &ma, GST_MAP_READ);
  gst_buffer_map(b, &mb, GST_MAP_READ);
  std::string diff;
  long long count = 0;
  for (gsize i = 0; i < ma.size; ++i)
    if (ma.data[i] != mb.data[i] && count++ == 0)
      diff = "byte " + std::to_string(i) + (i < pixel.size() && !pixel[i] ? " (padding)" : " (pixel)") + ": " +
             std::to_string(ma.data[i]) + " != " + std::to_string(mb.data[i]);
  gst_buffer_unmap(a, &ma);
  gst_buffer_unmap(b, &mb);
  if (count) diff += " (" + std::to_string(count) + " bytes differ)";
  return diff;
}

inline bool same_bytes(GstBuffer *a, GstBuffer *b) {
  if (gst_buffer_get_size(a) != gst_buffer_get_size(b)) return false;
  GstMapInfo ma, mb;
  gst_buffer_map(a, &ma, GST_MAP_READ);
  gst_buffer_map(b, &mb, GST_MAP_READ);
  const bool same = std::memcmp(ma.data, mb.data, ma.size) == 0;
  gst_buffer_unmap(a, &ma);
  gst_buffer_unmap(b, &mb);
  return same;
}

// gst_parse_launch that records a failed check (naming the description) when
// the pipeline cannot be built; nullptr then.
inline GstElement *launch(const std::string &desc) {
  GError *error = nullptr;
  GstElement *p = gst_parse_launch(desc.c_str(), &error);
  CHECK_MSG(p && !error, "%s: %s", desc.c_str(), error ? error->message : "");
  g_clear_error(&error);
  return p;
}

// Where a pipeline that did not finish stands: its state and position, and
// each element that is not where the pipeline is going, with its state.
inline std::string pipeline_states(GstElement *pipeline) {
  auto name = [](GstState s) { return std::string(gst_element_state_get_name(s)); };
  GstState current = GST_STATE_VOID_PENDING, pending = GST_STATE_VOID_PENDING;
  gst_element_get_state(pipeline, &current, &pending, 0);
  const GstState target = pending == GST_STATE_VOID_PENDING ? current : pending;
  std::string out = "pipeline " + name(current) + (pending == GST_STATE_VOID_PENDING ? "" : " -> " + name(pending));
  gint64 position = 0;
  if (gst_element_query_position(pipeline, GST_FORMAT_TIME, &position))
    out += " at " + std::to_string(position / 1000000) + " ms";
  GstIterator *it = gst_bin_iterate_recurse(GST_BIN(pipeline));
  GValue item = G_VALUE_INIT;
  while (gst_iterator_next(it, &item) == GST_ITERATOR_OK) {
    auto *e = GST_ELEMENT(g_value_get_object(&item));
    GstState c = GST_STATE_VOID_PENDING, p = GST_STATE_VOID_PENDING;
    gst_element_get_state(e, &c, &p, 0);
    if (c != target || p != GST_STATE_VOID_PENDING)
      out += std::string("; ") + GST_ELEMENT_NAME(e) + " " + name(c) +
             (p == GST_STATE_VOID_PENDING ? "" : " -> " + name(p));
    g_value_reset(&item);
  }
  g_value_unset(&item);
  gst_iterator_free(it);
  return out;
}

// Runs `pipeline` to EOS; empty when it ran, else the error text. When no
// EOS comes within timeout_s, the text says where the pipeline stands
// (pipeline_states); the warnings posted meanwhile follow either text.
inline std::string run(GstElement *pipeline, int timeout_s = 60) {
  GstBus *bus = gst_element_get_bus(pipeline);
  std::string err, warnings;
  if (gst_element_set_state(pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) err = "cannot start; ";
  const gint64 deadline = g_get_monotonic_time() + gint64(timeout_s) * G_TIME_SPAN_SECOND;
  const auto wanted = GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_WARNING);
  for (;;) {
    const gint64 left = deadline - g_get_monotonic_time();
    GstMessage *m = left > 0 ? gst_bus_timed_pop_filtered(bus, GstClockTime(left) * 1000, wanted) : nullptr;
    if (!m) {
      err += "timed out after " + std::to_string(timeout_s) + " s (" + pipeline_states(pipeline) + ")";
      break;
    }
    const GstMessageType type = GST_MESSAGE_TYPE(m);
    if (type != GST_MESSAGE_EOS) {
      GError *e = nullptr;
      gchar *debug = nullptr;
      if (type == GST_MESSAGE_ERROR)
        gst_message_parse_error(m, &e, &debug);
      else
        gst_message_parse_warning(m, &e, &debug);
      const std::string text = std::string(e ? e->message : "") + " | " + (debug ? debug : "");
      if (type == GST_MESSAGE_ERROR)
        err += text;
      else
        warnings += "; warning from " + std::string(GST_OBJECT_NAME(GST_MESSAGE_SRC(m))) + ": " + text;
      g_clear_error(&e);
      g_free(debug);
    }
    gst_message_unref(m);
    if (type != GST_MESSAGE_WARNING) break;
  }
  gst_object_unref(bus);
  return err.empty() ? err : err + warnings;
}

inline std::string caps_string(const GstCaps *caps) {
  if (!caps) return "(none)";
  gchar *s = gst_caps_to_string(caps);
  std::string r = s;
  g_free(s);
  return r;
}

inline std::string get_string_prop(GstElement *e, const char *name) {
  gchar *v = nullptr;
  g_object_get(e, name, &v, nullptr);
  std::string s = v ? v : "";
  g_free(v);
  return s;
}

}  // namespace cfgt
