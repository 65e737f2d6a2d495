// cudadct through GstHarness (system memory, cpu and openmp):
//  - caps: transform=dct, dct-quality, S16LE, buffers of planes padded to
//    whole 8x8 blocks;
//  - round trip cudadct ! cudainverse: quality 0 within 1 per sample
//    (rounding only; 2 after a colour stage, whose inverse mixes three
//    planes' errors), quality 50 still a picture (mean error < 20), odd sizes,
//    GRAY8, I420, RGB; a colour stage first (cudaycocg ! cudadct);
//  - bad input: GRAY16_LE refused naming U16, the quality property's range.
#include <cstdlib>

#include "gst_util.hpp"

using namespace cfgt;

// max and mean |a - b| over the pixel bytes of two frames of planar/packed 8-bit formats.
static void byte_errors(const GstVideoInfo &info, GstBuffer *a, GstBuffer *b, int *max, double *mean) {
  GstVideoInfo ia = info, ib = info;
  GstVideoFrame fa, fb;
  *max = 999;
  *mean = 999;
  if (!gst_video_frame_map(&fa, &ia, a, GST_MAP_READ)) return;
  if (!gst_video_frame_map(&fb, &ib, b, GST_MAP_READ)) return gst_video_frame_unmap(&fa);
  long long sum = 0, n = 0;
  int m = 0;
  for (guint c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS(&fa); ++c)
    for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&fa, c); ++y)
      for (int x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH(&fa, c); ++x) {
        const int d =
            std::abs(int(GST_VIDEO_FRAME_COMP_DATA(
                         &fa, c)[y * GST_VIDEO_FRAME_COMP_STRIDE(&fa, c) + x * GST_VIDEO_FRAME_COMP_PSTRIDE(&fa, c)]) -
                     int(GST_VIDEO_FRAME_COMP_DATA(
                         &fb, c)[y * GST_VIDEO_FRAME_COMP_STRIDE(&fb, c) + x * GST_VIDEO_FRAME_COMP_PSTRIDE(&fb, c)]));
        m = std::max(m, d);
        sum += d;
        ++n;
      }
  gst_video_frame_unmap(&fa);
  gst_video_frame_unmap(&fb);
  *max = m;
  *mean = double(sum) / double(n);
}

static void round_trip(const char *chain, const char *format, int w, int h, int quality, const char *backend) {
  char desc[256];
  std::snprintf(desc, sizeof desc, "%s cudadct quality=%d backend=%s ! cudainverse backend=%s", chain, quality, backend,
                backend);
  Harness hx(desc);
  CHECK_MSG(hx.set_caps(raw_caps(format, w, h).c_str()), "%s: caps refused: %s", desc, hx.errors().c_str());
  const GstVideoInfo info = video_info(format, w, h);
  // Smooth content (random noise is the worst case for a quantised DCT).
  GstBuffer *in = random_frame(info, 5);
  GstVideoFrame f;
  GstVideoInfo fi = info;
  if (gst_video_frame_map(&f, &fi, in, GST_MAP_WRITE)) {
    for (guint c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS(&f); ++c)
      for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&f, c); ++y)
        for (int x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH(&f, c); ++x)
          GST_VIDEO_FRAME_COMP_DATA(&f, c)
          [y * GST_VIDEO_FRAME_COMP_STRIDE(&f, c) + x * GST_VIDEO_FRAME_COMP_PSTRIDE(&f, c)] =
              std::uint8_t(40 + 3 * x + 2 * y + 20 * c);
    gst_video_frame_unmap(&f);
  }
  gst_buffer_ref(in);
  CHECK_MSG(hx.push(in) == GST_FLOW_OK, "%s: %s", desc, hx.errors().c_str());
  GstBuffer *out = hx.pull();
  CHECK_MSG(out, "%s %s %dx%d: no output", desc, format, w, h);
  if (out) {
    int max = 0;
    double mean = 0;
    byte_errors(info, in, out, &max, &mean);
    if (quality == 0)
      CHECK_MSG(max <= (*chain ? 2 : 1), "%s %s %dx%d: max error %d", desc, format, w, h, max);
    else
      CHECK_MSG(mean < 20, "%s %s %dx%d: mean error %.2f", desc, format, w, h, mean);
    gst_buffer_unref(out);
  }
  gst_buffer_unref(in);
}

static void caps_and_size() {
  Harness hx("cudadct quality=75 backend=cpu");
  CHECK(hx.set_caps(raw_caps("I420", 21, 11).c_str()));
  const GstVideoInfo info = video_info("I420", 21, 11);
  CHECK(hx.push(random_frame(info, 1)) == GST_FLOW_OK);
  GstBuffer *out = hx.pull();
  CHECK(out);
  // Y 24x16, U and V 16x8 (11x6 padded), S16.
  if (out) CHECK_MSG(gst_buffer_get_size(out) == (24 * 16 + 2 * 16 * 8) * 2, "size %zu", gst_buffer_get_size(out));
  if (out) gst_buffer_unref(out);
  GstCaps *caps = hx.out_caps();
  const std::string s = caps ? caps_string(caps) : "";
  CHECK_MSG(contains(s, "transform=(string)dct") && contains(s, "dct-quality=(int)75") &&
                contains(s, "sample-format=(string)S16LE"),
            "caps %s", s.c_str());
  if (caps) gst_caps_unref(caps);
}

static void bad_input() {
  Harness hx("cudadct backend=cpu");
  hx.set_caps(raw_caps("GRAY16_LE", 16, 16).c_str());
  const GstVideoInfo info = video_info("GRAY16_LE", 16, 16);
  hx.push(random_frame(info, 2));
  const std::string e = hx.errors();
  CHECK_MSG(contains(e, "U16 input is not supported"), "GRAY16_LE: '%s'", e.c_str());
  GstElement *dct = gst_element_factory_make("cudadct", nullptr);
  GParamSpec *q = g_object_class_find_property(G_OBJECT_GET_CLASS(dct), "quality");
  CHECK(q && G_PARAM_SPEC_INT(q)->minimum == 0 && G_PARAM_SPEC_INT(q)->maximum == 100);
  gst_object_unref(dct);
}

int main(int argc, char **argv) {
  init(&argc, &argv);
  for (const char *backend : {"cpu", "openmp"})
    for (const char *format : {"GRAY8", "I420", "RGB"})
      for (int q : {0, 50}) {
        round_trip("", format, 17, 13, q, backend);
        round_trip("", format, 1, 1, q, backend);
      }
  round_trip("cudaycocg backend=cpu !", "RGB", 19, 9, 0, "cpu");
  caps_and_size();
  bad_input();
  return cft::test_result();
}
