// Fuzz target: raw video of odd sizes whose buffers carry GstVideoMeta with
// fuzzed strides and plane offsets (padded, too small, zero, negative,
// overlapping, past the end), into every raw-input element.
// Oracle: a clean error, or an output of the right size that equals the
// element's output for the same pixels in GStreamer's default layout (so a
// stride that is read wrongly shows up as different output).
#include <algorithm>

#include "fuzz_util.hpp"

namespace {

// The pixels of `src` (mapped through its meta) copied into a fresh buffer of
// the default layout of `info`.
GstBuffer *default_layout_copy(const GstVideoInfo &info, GstBuffer *src) {
  GstBuffer *dst = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstVideoInfo si = info, di = info;
  GstVideoFrame sf, df;
  if (!gst_video_frame_map(&sf, &si, src, GST_MAP_READ)) cffuzz::fail("a valid meta frame cannot be mapped");
  gst_video_frame_map(&df, &di, dst, GST_MAP_WRITE);
  gst_video_frame_copy(&df, &sf);
  gst_video_frame_unmap(&sf);
  gst_video_frame_unmap(&df);
  return dst;
}

bool same_output(GstCaps *caps, GstBuffer *a, GstBuffer *b) {
  GstVideoInfo info;
  if (gst_video_info_from_caps(&info, caps)) return cfgt::compare_frames(info, a, b).empty();
  return cfgt::same_bytes(a, b);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  cffuzz::init();
  cffuzz::Input in(data, size);
  const cffuzz::FrameChoice c = cffuzz::choose_frame(in, 0, 48);
  const char *name = cffuzz::raw_input_elements()[c.element];
  const cfgt::FormatSpec &fmt = *c.format;
  const int w = c.width, h = c.height;
  GstVideoInfo info = cfgt::video_info(fmt.name, w, h);

  // Plane by plane: the default stride and offset plus fuzzed deltas.
  const guint n_planes = GST_VIDEO_INFO_N_PLANES(&info);
  gsize offset[GST_VIDEO_MAX_PLANES] = {};
  gint stride[GST_VIDEO_MAX_PLANES] = {};
  gsize end = 0;
  bool valid = true;  // every plane's rows inside the buffer, strides covering a row
  for (guint p = 0; p < n_planes; ++p) {
    stride[p] = GST_VIDEO_INFO_PLANE_STRIDE(&info, p) + in.delta();  // the default (rows rounded to 4 bytes) +-
    offset[p] = gsize(std::max<long long>(0, (long long)end + in.delta()));
    // A row of the plane: every pixel's bytes (padding bytes of RGBx included).
    int plane_rows = 0, plane_bytes = 0;
    for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c) {
      if (GST_VIDEO_INFO_COMP_PLANE(&info, c) != p) continue;
      plane_rows = std::max(plane_rows, GST_VIDEO_INFO_COMP_HEIGHT(&info, c));
      plane_bytes = std::max(plane_bytes, GST_VIDEO_INFO_COMP_WIDTH(&info, c) * GST_VIDEO_INFO_COMP_PSTRIDE(&info, c));
    }
    if (stride[p] < plane_bytes) valid = false;
    const long long plane_end = (long long)offset[p] + (long long)stride[p] * (plane_rows - 1) + plane_bytes;
    end = gsize(std::max<long long>((long long)end, plane_end));
  }
  const gsize bytes = gsize(std::max<long long>(0, (long long)end + in.delta()));
  if (bytes < end) valid = false;
  if (bytes > (8u << 20)) return 0;
  GstBuffer *buf = cffuzz::random_buffer(bytes, in.u8());
  // Now and then a meta that does not match the caps.
  GstVideoFormat meta_format = GST_VIDEO_INFO_FORMAT(&info);
  int meta_w = w, meta_h = h;
  if (in.u8() >= 250) meta_w += 1, valid = false;
  if (in.u8() >= 250) meta_h -= 1, valid = false;
  gst_buffer_add_video_meta_full(buf, GST_VIDEO_FRAME_FLAG_NONE, meta_format, meta_w, meta_h, n_planes, offset, stride);

  GstElement *e = gst_element_factory_make(name, nullptr);
  g_object_set(e, "backend", 3 /* cpu */, nullptr);
  cffuzz::Checked hx(e);
  const std::string caps = cfgt::raw_caps(fmt.name, w, h);
  if (!hx.set_caps(caps)) {
    gst_buffer_unref(buf);
    if (hx.errors().empty()) cffuzz::fail(std::string(name) + " refused " + caps + " silently");
    return 0;
  }
  std::string context = std::string(name) + " " + caps + ", " + std::to_string(bytes) + " bytes, strides/offsets";
  for (guint p = 0; p < n_planes; ++p) context += " " + std::to_string(stride[p]) + "/" + std::to_string(offset[p]);
  GstBuffer *reference_in = valid ? default_layout_copy(info, buf) : nullptr;
  GstBuffer *out = hx.push(buf, context);
  if (!out) {
    if (valid) cffuzz::fail(context + ": a valid frame was refused: " + hx.errors());
    return 0;
  }
  if (!valid) cffuzz::fail(context + ": a frame its meta does not describe was accepted");
  // The same pixels in the default layout, through a fresh element.
  GstElement *e2 = gst_element_factory_make(name, nullptr);
  g_object_set(e2, "backend", 3, nullptr);
  cffuzz::Checked ref(e2);
  if (!ref.set_caps(caps)) cffuzz::fail(context + ": the reference element refused the caps");
  GstBuffer *expected = ref.push(reference_in, context + " (default layout)");
  if (!expected) cffuzz::fail(context + ": the default layout was refused: " + ref.errors());
  GstCaps *out_caps = hx.harness().out_caps();
  if (!same_output(out_caps, out, expected)) cffuzz::fail(context + ": output differs from the default layout's");
  gst_caps_unref(out_caps);
  gst_buffer_unref(out);
  gst_buffer_unref(expected);
  return 0;
}
