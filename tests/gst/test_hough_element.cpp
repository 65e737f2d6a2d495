// cudahough in a GstHarness: the cudahough-lines message (fields, lines of
// known rho/theta), every output mode (caps and content), every input
// format giving the same lines, cpu and openmp giving the same message, and
// bad input (formats, frames smaller than the edge kernel, an even
// nms-window, short buffers) refused with errors that name the problem.
#include <cmath>
#include <functional>

#include "cudafilters/hough.hpp"
#include "gst_util.hpp"

using namespace cfgt;

namespace {

const int kW = 161, kH = 121;

// A frame of `format` whose luma is 0 except for a vertical line at x = 40
// and a horizontal line at y = 90 (255). RGB formats get R = G = B, YUV
// neutral chroma, so every format has the same luma.
GstBuffer *lines_frame(const char *format, int w = kW, int h = kH) {
  GstVideoInfo info = video_info(format, w, h);
  GstBuffer *buf = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  GstVideoFrame f;
  gst_video_frame_map(&f, &info, buf, GST_MAP_WRITE);
  for (guint c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS(&f); ++c) {
    const bool luma = GST_VIDEO_INFO_IS_RGB(&info) || c == 0;
    for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&f, c); ++y)
      for (int x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH(&f, c); ++x) {
        guint8 *p = static_cast<guint8 *>(GST_VIDEO_FRAME_COMP_DATA(&f, c)) + y * GST_VIDEO_FRAME_COMP_STRIDE(&f, c) +
                    x * GST_VIDEO_FRAME_COMP_PSTRIDE(&f, c);
        *p = luma ? ((x == 40 || y == 90) ? 255 : 0) : 128;
      }
  }
  gst_video_frame_unmap(&f);
  return buf;
}

// The first cudahough-lines structure on the bus (owned by the caller), or nullptr.
GstStructure *pop_lines(GstBus *bus) {
  GstStructure *found = nullptr;
  while (GstMessage *m = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT)) {
    const GstStructure *s = gst_message_get_structure(m);
    if (!found && gst_structure_has_name(s, "cudahough-lines")) found = gst_structure_copy(s);
    gst_message_unref(m);
  }
  return found;
}

struct Line {
  double rho, theta;
  guint votes;
  int rho_bin, theta_bin;
  gboolean visible;
  int x1, y1, x2, y2;
};
// The message's lines: a GValueArray (G_TYPE_VALUE_ARRAY, which PyGObject
// reads as a list) of "line" structures.
std::vector<Line> lines_of(const GstStructure *s) {
  std::vector<Line> out;
  const GValue *arr = gst_structure_get_value(s, "lines");
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  CHECK_MSG(arr && G_VALUE_HOLDS(arr, g_value_array_get_type()), "lines is not a GValueArray: %s",
            arr ? G_VALUE_TYPE_NAME(arr) : "missing");
  if (!arr || !G_VALUE_HOLDS(arr, g_value_array_get_type())) return out;
  const GValueArray *lines = static_cast<const GValueArray *>(g_value_get_boxed(arr));
  for (guint i = 0; lines && i < lines->n_values; ++i) {
    const GValue *v = g_value_array_get_nth(const_cast<GValueArray *>(lines), i);
    CHECK_MSG(GST_VALUE_HOLDS_STRUCTURE(v), "lines[%u] is a %s, not a structure", i, G_VALUE_TYPE_NAME(v));
    if (!GST_VALUE_HOLDS_STRUCTURE(v)) continue;
    const GstStructure *l = gst_value_get_structure(v);
    Line x{};
    CHECK(gst_structure_has_name(l, "line"));
    CHECK(gst_structure_get(l, "rho", G_TYPE_DOUBLE, &x.rho, "theta", G_TYPE_DOUBLE, &x.theta, "votes", G_TYPE_UINT,
                            &x.votes, "rho-bin", G_TYPE_INT, &x.rho_bin, "theta-bin", G_TYPE_INT, &x.theta_bin,
                            "visible", G_TYPE_BOOLEAN, &x.visible, "x1", G_TYPE_INT, &x.x1, "y1", G_TYPE_INT, &x.y1,
                            "x2", G_TYPE_INT, &x.x2, "y2", G_TYPE_INT, &x.y2, nullptr));
    out.push_back(x);
  }
  G_GNUC_END_IGNORE_DEPRECATIONS
  return out;
}

// Runs one frame through cudahough with `props` ("output=edges ..."); the
// message and the output buffer (either may be null on failure).
struct Run {
  GstStructure *message = nullptr;
  GstBuffer *out = nullptr;
  std::string caps, errors;
  ~Run() {
    if (message) gst_structure_free(message);
    if (out) gst_buffer_unref(out);
  }
};
void run_one(Run &r, const char *format, const std::string &props, int w = kW, int h = kH) {
  const std::string desc = "cudahough " + props;
  GstElement *e = gst_parse_launch(desc.c_str(), nullptr);
  Harness hx(e);
  CHECK_MSG(hx.set_caps(raw_caps(format, w, h).c_str()), "%s %s: caps refused: %s", format, props.c_str(),
            hx.errors().c_str());
  GstBuffer *in = lines_frame(format, w, h);
  GST_BUFFER_PTS(in) = 42 * GST_MSECOND;
  CHECK(hx.push(in) == GST_FLOW_OK);
  r.out = hx.pull();
  r.message = pop_lines(hx.bus);
  GstCaps *c = hx.out_caps();
  r.caps = caps_string(c);
  if (c) gst_caps_unref(c);
  r.errors = hx.errors();
}

void test_message_and_overlay() {
  Run r;
  run_one(r, "GRAY8", "backend=cpu color=0x808080 thickness=1 max-lines=2 threshold=50");
  CHECK_MSG(r.message, "no cudahough-lines message");
  if (!r.message) return;
  guint64 ts = 0;
  int count = -1, width = 0, theta_bins = 0;
  guint threshold = 0;
  CHECK(gst_structure_get(r.message, "timestamp", G_TYPE_UINT64, &ts, "count", G_TYPE_INT, &count, "width", G_TYPE_INT,
                          &width, "theta-bins", G_TYPE_INT, &theta_bins, "threshold", G_TYPE_UINT, &threshold,
                          nullptr));
  CHECK(ts == 42 * GST_MSECOND && count == 2 && width == kW && theta_bins == 180 && threshold == 50);
  const std::vector<Line> lines = lines_of(r.message);
  CHECK(lines.size() == 2);
  // Sobel edges flank each line at distance 1: rho 39 or 41 at theta 0, 89 or 91 at theta pi/2.
  bool vertical = false, horizontal = false;
  for (const Line &l : lines) {
    vertical |= std::fabs(l.theta) < 1e-9 && std::fabs(std::fabs(l.rho) - 40) <= 1 && l.x1 == l.x2 && l.votes >= kH - 2;
    horizontal |= std::fabs(l.theta - M_PI / 2) < 1e-9 && std::fabs(l.rho - 90) <= 1 && l.y1 == l.y2;
  }
  CHECK_MSG(vertical && horizontal, "the two drawn lines were not both found");
  // Bins of 1 degree and 1 pixel: rho = rho-bin - rho_offset, rho_offset =
  // ceil(diagonal) + 2 with diagonal = |(160, 120)| = 200 (hough.hpp), so
  // rho-bins = 2 * 202 + 1. Both lines cross the frame (visible).
  int rho_bins = 0;
  CHECK(gst_structure_get_int(r.message, "rho-bins", &rho_bins) && rho_bins == 405);
  for (const Line &l : lines)
    CHECK_MSG(l.visible && std::fabs(l.theta_bin * M_PI / 180 - l.theta) < 1e-9 && l.rho_bin - 202 == l.rho,
              "line rho %g theta %g: bins %d, %d", l.rho, l.theta, l.rho_bin, l.theta_bin);
  // Messages compare (test_cuda_memory compares those of two backends) and
  // print (gst-launch-1.0 -m).
  GstStructure *copy = gst_structure_copy(r.message);
  CHECK_MSG(gst_structure_is_equal(copy, r.message), "a copy of the message does not compare equal to it");
  gst_structure_free(copy);
  gchar *text = gst_structure_to_string(r.message);
  CHECK_MSG(contains(text, "lines=(GValueArray)< \"line\\,\\ rho\\=\\(double\\)"), "message text: %s", text);
  g_free(text);
  // Overlay: the input with the lines in luma 128 (0x808080).
  CHECK(r.out && contains(r.caps, "GRAY8") && contains(r.caps, "width=(int)161"));
  if (r.out && lines.size() == 2) {
    GstMapInfo m;
    gst_buffer_map(r.out, &m, GST_MAP_READ);
    const int stride = GST_ROUND_UP_4(kW);
    for (const Line &l : lines) {
      CHECK(m.data[l.y1 * stride + l.x1] == 128 && m.data[l.y2 * stride + l.x2] == 128);
      CHECK(m.data[((l.y1 + l.y2) / 2) * stride + (l.x1 + l.x2) / 2] == 128);
    }
    gst_buffer_unmap(r.out, &m);
  }
  // draw=false: the input's pixels unchanged (row padding is not part of
  // the frame: a pool's buffer may hold anything there).
  Run plain;
  run_one(plain, "GRAY8", "backend=cpu draw=false");
  GstBuffer *in = lines_frame("GRAY8");
  const std::string diff = plain.out ? compare_frames(video_info("GRAY8", kW, kH), plain.out, in) : "no output";
  CHECK_MSG(diff.empty(), "draw=false changed the frame: %s", diff.c_str());
  gst_buffer_unref(in);
}

void test_output_modes() {
  // edges: GRAY8 of the input's size, equal to the core's edge map.
  Run e;
  run_one(e, "I420", "backend=openmp output=edges");
  CHECK_MSG(contains(e.caps, "GRAY8") && contains(e.caps, "width=(int)161") && contains(e.caps, "height=(int)121"),
            "edges caps %s", e.caps.c_str());
  if (e.out) {
    GstBuffer *in = lines_frame("GRAY8");
    GstMapInfo mi, mo;
    gst_buffer_map(in, &mi, GST_MAP_READ);
    gst_buffer_map(e.out, &mo, GST_MAP_READ);
    cf::FrameView v;
    v.n_planes = v.n_components = 1;
    v.planes[0] = {mi.data, GST_ROUND_UP_4(kW), kW, kH};
    v.components[0] = {0, 0, 1, kW, kH};
    cf::Engine cpu(cf::Backend::Cpu);
    cf::HoughResult want;
    cf::hough_detect(cpu, {}, v, cf::LumaSource::Component0, want, cf::kHoughWantEdges);
    long long diff = 0;
    for (int y = 0; y < kH; ++y)
      for (int x = 0; x < kW; ++x) diff += mo.data[y * GST_ROUND_UP_4(kW) + x] != want.edges[y * kW + x];
    CHECK_MSG(diff == 0, "output=edges: %lld pixels differ from the core's edge map", diff);
    gst_buffer_unmap(in, &mi);
    gst_buffer_unmap(e.out, &mo);
    gst_buffer_unref(in);
  }
  // accumulator: GRAY8, theta-bins wide, rho-bins high, the strongest cell 255.
  Run a;
  run_one(a, "RGB", "backend=cpu output=accumulator theta-bins=90 rho-step=2");
  const cf::HoughGeometry g = cf::hough_geometry(
      [] {
        cf::HoughParams p;
        p.theta_bins = 90;
        p.rho_step = 2;
        return p;
      }(),
      kW, kH);
  CHECK_MSG(contains(a.caps, "GRAY8") && contains(a.caps, "width=(int)90") &&
                contains(a.caps, ("height=(int)" + std::to_string(g.rho_bins)).c_str()),
            "accumulator caps %s (want 90x%d)", a.caps.c_str(), g.rho_bins);
  if (a.out) {
    GstMapInfo m;
    gst_buffer_map(a.out, &m, GST_MAP_READ);
    int max = 0;
    for (gsize i = 0; i < m.size; ++i) max = std::max<int>(max, m.data[i]);
    CHECK(max == 255);
    gst_buffer_unmap(a.out, &m);
  }
  CHECK(a.message != nullptr);
}

// Every format and the CPU backends give the same message.
void test_formats_agree() {
  Run ref;
  run_one(ref, "GRAY8", "backend=cpu");
  const std::vector<Line> want = ref.message ? lines_of(ref.message) : std::vector<Line>{};
  CHECK(!want.empty());
  for (const char *format : {"RGB", "BGR", "RGBA", "BGRx", "I420", "NV12", "Y444"})
    for (const char *backend : {"cpu", "openmp"}) {
      Run r;
      run_one(r, format, std::string("backend=") + backend);
      const std::vector<Line> got = r.message ? lines_of(r.message) : std::vector<Line>{};
      bool same = got.size() == want.size();
      for (std::size_t i = 0; same && i < got.size(); ++i)
        same = got[i].rho == want[i].rho && got[i].theta == want[i].theta && got[i].votes == want[i].votes &&
               got[i].x1 == want[i].x1 && got[i].y2 == want[i].y2;
      CHECK_MSG(same, "%s on %s: lines differ from GRAY8 on cpu", format, backend);
      CHECK_MSG(r.caps.find(format) != std::string::npos, "%s overlay caps %s", format, r.caps.c_str());
    }
}

void expect_refused(const char *props, const std::string &caps, std::initializer_list<const char *> words) {
  GstElement *e = gst_parse_launch((std::string("cudahough ") + props).c_str(), nullptr);
  Harness hx(e);
  CHECK_MSG(!hx.set_caps(caps.c_str()), "%s accepted", caps.c_str());
  const std::string err = hx.errors();
  for (const char *w : words)
    CHECK_MSG(contains(err, w), "caps %s: error '%s' does not name '%s'", caps.c_str(), err.c_str(), w);
  CHECK(hx.push(gst_buffer_new_allocate(nullptr, 4096, nullptr)) != GST_FLOW_OK);
  if (GstBuffer *b = hx.pull()) gst_buffer_unref(b);
}

void test_bad_input() {
  expect_refused("", raw_caps("YUY2", 16, 16), {"YUY2"});
  expect_refused("", raw_caps("GRAY16_LE", 16, 16), {"GRAY16_LE", "not supported by cudahough"});
  expect_refused("", raw_caps("GRAY8", 2, 16), {"2x16", "edge kernel"});
  expect_refused("", raw_caps("RGB", 16, 1), {"16x1", "edge kernel"});
  expect_refused("nms-window=4", raw_caps("GRAY8", 16, 16), {"nms-window=4", "odd"});
  expect_refused("canny-low=300 canny-high=100", raw_caps("GRAY8", 16, 16), {"canny-low=300"});
  {  // a buffer shorter than its caps
    Harness hx("cudahough");
    CHECK(hx.set_caps(raw_caps("GRAY8", 16, 16).c_str()));
    CHECK(hx.push(gst_buffer_new_allocate(nullptr, 100, nullptr)) != GST_FLOW_OK);
    const std::string err = hx.errors();
    CHECK_MSG(contains(err, "100"), "short buffer: '%s'", err.c_str());
  }
  {  // nms-window made even while playing: an error at the next frame
    GstElement *e = gst_element_factory_make("cudahough", nullptr);
    gst_util_set_object_arg(G_OBJECT(e), "backend", "cpu");
    Harness hx(e);
    CHECK(hx.set_caps(raw_caps("GRAY8", 32, 32).c_str()));
    CHECK(hx.push(lines_frame("GRAY8", 32, 32)) == GST_FLOW_OK);
    if (GstBuffer *b = hx.pull()) gst_buffer_unref(b);
    g_object_set(e, "nms-window", 6, nullptr);
    CHECK(hx.push(lines_frame("GRAY8", 32, 32)) != GST_FLOW_OK);
    const std::string err = hx.errors();
    CHECK_MSG(contains(err, "nms-window=6"), "after the change: '%s'", err.c_str());
  }
}

}  // namespace

int main(int argc, char **argv) {
  init(&argc, &argv);
  test_message_and_overlay();
  test_output_modes();
  test_formats_agree();
  test_bad_input();
  return cft::test_result();
}
