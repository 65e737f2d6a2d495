// cudahalftone through GstHarness: every format it takes, at an odd size,
// gives exactly cf::halftone's bytes on the serial backend (colour planes
// halftoned, alpha copied, the padding byte of RGBx/BGRx 0xff) and the same
// bytes on openmp; the stochastic frame counter; refused caps, a short
// buffer and out-of-range properties.
#include "cudafilters/halftone.hpp"
#include "gst_util.hpp"

using namespace cfgt;

namespace {

// cf::FrameView of a mapped raw frame (written here from GstVideoInfo, not
// taken from the plugin).
cf::FrameView view_of(GstVideoFrame &f) {
  cf::FrameView v;
  v.n_planes = GST_VIDEO_FRAME_N_PLANES(&f);
  v.n_components = GST_VIDEO_FRAME_N_COMPONENTS(&f);
  for (int c = 0; c < v.n_components; ++c)
    v.components[c] = {int(GST_VIDEO_FRAME_COMP_PLANE(&f, c)), int(GST_VIDEO_FRAME_COMP_POFFSET(&f, c)),
                       GST_VIDEO_FRAME_COMP_PSTRIDE(&f, c), GST_VIDEO_FRAME_COMP_WIDTH(&f, c),
                       GST_VIDEO_FRAME_COMP_HEIGHT(&f, c)};
  for (int p = 0; p < v.n_planes; ++p) {
    v.planes[p].data = GST_VIDEO_FRAME_PLANE_DATA(&f, p);
    v.planes[p].stride = GST_VIDEO_FRAME_PLANE_STRIDE(&f, p);
    v.planes[p].rows = GST_VIDEO_FRAME_HEIGHT(&f);
  }
  for (int c = 0; c < v.n_components; ++c) {
    cf::MemoryPlane &p = v.planes[v.components[c].plane];
    p.row_bytes = std::max(p.row_bytes, v.components[c].width * v.components[c].pixel_stride);
  }
  return v;
}

// What cudahalftone must output for `in`.
GstBuffer *expected(const GstVideoInfo &info, GstBuffer *in, cf::HalftoneParams p, guint64 frame) {
  GstBuffer *out = gst_buffer_copy_deep(in);
  GstVideoInfo ii = info, io = info;
  GstVideoFrame fi, fo;
  gst_video_frame_map(&fi, &ii, in, GST_MAP_READ);
  gst_video_frame_map(&fo, &io, out, GST_MAP_WRITE);
  if (GST_VIDEO_INFO_HAS_ALPHA(&info)) p.copy_mask = 1u << 3;
  cf::Engine cpu(cf::Backend::Cpu);
  cf::halftone(cpu, p, frame, view_of(fi), view_of(fo));
  const GstVideoFormat f = GST_VIDEO_INFO_FORMAT(&info);
  if (f == GST_VIDEO_FORMAT_RGBx || f == GST_VIDEO_FORMAT_BGRx)
    for (int y = 0; y < GST_VIDEO_INFO_HEIGHT(&info); ++y)
      for (int x = 0; x < GST_VIDEO_INFO_WIDTH(&info); ++x)
        static_cast<guint8 *>(
            GST_VIDEO_FRAME_PLANE_DATA(&fo, 0))[y * GST_VIDEO_FRAME_PLANE_STRIDE(&fo, 0) + x * 4 + 3] = 0xff;
  gst_video_frame_unmap(&fi);
  gst_video_frame_unmap(&fo);
  return out;
}

void test_formats() {
  const char *formats[] = {"GRAY8", "RGB", "BGR", "RGBA", "BGRA", "RGBx", "BGRx", "I420", "NV12", "Y444"};
  const char *methods[] = {"floyd-steinberg", "stevenson-arce", "burkes", "sierra", "stucki", "jarvis-judice-ninke"};
  int i = 0;
  for (const char *format : formats)
    for (const char *backend : {"cpu", "openmp"}) {
      const int m = i++ % 6;
      const GstVideoInfo info = video_info(format, 37, 23);
      GstBuffer *in = random_frame(info, std::uint32_t(i));
      const std::string desc = std::string("cudahalftone backend=") + backend + " method=" + methods[m] +
                               " levels=3 threshold=100 stochastic=0.25 seed=9";
      Harness hx(desc.c_str());
      CHECK_MSG(hx.set_caps(raw_caps(format, 37, 23).c_str()), "%s: caps refused: %s", format, hx.errors().c_str());
      CHECK(hx.push(gst_buffer_ref(in)) == GST_FLOW_OK);
      CHECK(hx.push(gst_buffer_ref(in)) == GST_FLOW_OK);
      cf::HalftoneParams p;
      p.method = cf::HalftoneMethod(m);
      p.levels = 3;
      p.threshold = 100;
      p.stochastic = 0.25;
      p.seed = 9;
      for (guint64 frame = 0; frame < 2; ++frame) {
        GstBuffer *out = hx.pull(), *want = expected(info, in, p, frame);
        CHECK_MSG(out, "%s %s: no output: %s", desc.c_str(), format, hx.errors().c_str());
        if (out) {
          const std::string d = compare_frames(info, want, out);
          CHECK_MSG(d.empty(), "%s, %s, frame %llu: %s", desc.c_str(), format, (unsigned long long)frame, d.c_str());
          gst_buffer_unref(out);
        }
        gst_buffer_unref(want);
      }
      gst_buffer_unref(in);
    }
}

// Consecutive identical frames differ with stochastic > 0 (the frame number
// keys the generator) and are equal without it.
void test_frame_counter() {
  const GstVideoInfo info = video_info("GRAY8", 64, 40);
  GstBuffer *in = random_frame(info, 3);
  for (const char *desc : {"cudahalftone backend=cpu stochastic=0.5", "cudahalftone backend=cpu"}) {
    Harness hx(desc);
    CHECK(hx.set_caps(raw_caps("GRAY8", 64, 40).c_str()));
    hx.push(gst_buffer_ref(in));
    hx.push(gst_buffer_ref(in));
    GstBuffer *a = hx.pull(), *b = hx.pull();
    CHECK(a && b);
    if (a && b) CHECK_MSG(same_bytes(a, b) == !std::strstr(desc, "stochastic"), "%s: frames 0 and 1", desc);
    if (a) gst_buffer_unref(a);
    if (b) gst_buffer_unref(b);
  }
  gst_buffer_unref(in);
}

void expect_refused(const std::string &caps, std::initializer_list<const char *> words) {
  Harness hx("cudahalftone");
  CHECK_MSG(!hx.set_caps(caps.c_str()), "accepted %s", caps.c_str());
  const std::string err = hx.errors();
  for (const char *w : words)
    CHECK_MSG(contains(err, w), "caps %s: error '%s' does not name '%s'", caps.c_str(), err.c_str(), w);
  CHECK(hx.push(gst_buffer_new_allocate(nullptr, 64, nullptr)) != GST_FLOW_OK);
}

void test_bad_input() {
  expect_refused(raw_caps("GRAY16_LE", 16, 16), {"8-bit", "GRAY16_LE"});
  expect_refused(raw_caps("YUY2", 16, 16), {"YUY2", "not supported"});
  {
    Harness hx("cudahalftone backend=cpu");
    CHECK(hx.set_caps(raw_caps("GRAY8", 16, 16).c_str()));
    CHECK(hx.push(gst_buffer_new_allocate(nullptr, 100, nullptr)) != GST_FLOW_OK);
    const std::string err = hx.errors();
    CHECK_MSG(contains(err, "100 bytes") && contains(err, "256 bytes"), "short buffer: '%s'", err.c_str());
  }
  // Out of range: GLib refuses the value with a warning (caught here, not
  // printed) and keeps the old one.
  GstElement *e = gst_element_factory_make("cudahalftone", nullptr);
  int refused = 0;
  const guint handler = g_log_set_handler(
      "GLib-GObject", GLogLevelFlags(G_LOG_LEVEL_WARNING | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION),
      [](const gchar *, GLogLevelFlags, const gchar *message, gpointer count) {
        if (std::string(message).find("out of range") != std::string::npos) ++*static_cast<int *>(count);
      },
      &refused);
  g_object_set(e, "levels", 1, nullptr);
  g_object_set(e, "levels", 257, nullptr);
  g_object_set(e, "stochastic", 1.5, nullptr);
  g_log_remove_handler("GLib-GObject", handler);
  CHECK_MSG(refused == 3, "GLib refused %d of the 3 out-of-range values", refused);
  int levels = 0;
  double stochastic = -1;
  g_object_get(e, "levels", &levels, "stochastic", &stochastic, nullptr);
  CHECK_MSG(levels == 2 && stochastic == 0.0, "out-of-range properties changed: levels=%d stochastic=%g", levels,
            stochastic);
  gst_object_unref(e);
}

}  // namespace

int main(int argc, char **argv) {
  init(&argc, &argv);
  test_formats();
  test_frame_counter();
  test_bad_input();
  return cft::test_result();
}
