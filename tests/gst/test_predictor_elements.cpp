// cudamed, cudagap, cudaged through GstHarness: round trips with cudainverse
// for every format, odd sizes and slice heights 0, 1, 7, 64; the output caps
// (transform, <stage>-slice-height, ged-threshold); residuals of a frame
// worked out by hand; property changes while playing; bad caps, properties
// and buffers refused with errors that name what is wrong.
#include <cstring>
#include <utility>

#include "gst_util.hpp"

using namespace cfgt;

namespace {

int round_trips = 0;

void round_trip(const std::string &desc, const FormatSpec &f, int w, int h, std::uint32_t seed) {
  Harness hx(desc.c_str());
  const bool ok = hx.set_caps(raw_caps(f.name, w, h).c_str());
  CHECK_MSG(ok, "%s %s %dx%d: caps refused: %s", desc.c_str(), f.name, w, h, hx.errors().c_str());
  if (!ok) return;
  const GstVideoInfo info = video_info(f.name, w, h);
  GstBuffer *in = random_frame(info, seed, Padding::Zero);
  gst_buffer_ref(in);
  const GstFlowReturn ret = hx.push(in);
  CHECK_MSG(ret == GST_FLOW_OK, "%s %s %dx%d: %s %s", desc.c_str(), f.name, w, h, gst_flow_get_name(ret),
            hx.errors().c_str());
  if (GstBuffer *out = hx.pull()) {
    const std::string diff = compare_buffers(info, in, out);
    CHECK_MSG(diff.empty(), "%s %s %dx%d: %s", desc.c_str(), f.name, w, h, diff.c_str());
    gst_buffer_unref(out);
  } else {
    CHECK_MSG(false, "%s %s %dx%d: no output", desc.c_str(), f.name, w, h);
  }
  gst_buffer_unref(in);
  ++round_trips;
}

void test_round_trips() {
  const int sizes[][2] = {{1, 1}, {2, 1}, {1, 5}, {17, 13}, {33, 7}, {64, 48}};
  std::uint32_t seed = 1;
  for (const char *element : {"cudamed", "cudagap", "cudaged threshold=25"})
    for (int slice : {0, 1, 7, 64})
      for (const FormatSpec &f : formats())
        for (const auto &s : sizes)
          round_trip(std::string(element) + " slice-height=" + std::to_string(slice) + " ! cudainverse", f, s[0], s[1],
                     seed++);
}

int field_int(const GstStructure *s, const char *name) {
  int v = -1000;
  return gst_structure_get_int(s, name, &v) ? v : -1000;
}

void test_output_caps() {
  GstElement *e = gst_element_factory_make("cudaged", nullptr);
  g_object_set(e, "threshold", 25, "slice-height", 7, nullptr);
  Harness hx(e);
  CHECK(hx.set_caps(raw_caps("GRAY16_LE", 16, 9).c_str()));
  CHECK(hx.push(random_frame(video_info("GRAY16_LE", 16, 9), 3)) == GST_FLOW_OK);
  if (GstBuffer *b = hx.pull()) {
    CHECK_MSG(gst_buffer_get_size(b) == 16 * 9 * 4, "GRAY16_LE residuals: %zu bytes", gst_buffer_get_size(b));
    gst_buffer_unref(b);
  }
  GstCaps *caps = hx.out_caps();
  const GstStructure *s = caps ? gst_caps_get_structure(caps, 0) : nullptr;
  CHECK_MSG(s && !std::strcmp(gst_structure_get_string(s, "transform"), "ged") &&
                field_int(s, "ged-slice-height") == 7 && field_int(s, "ged-threshold") == 25 &&
                !std::strcmp(gst_structure_get_string(s, "sample-format"), "S32LE"),
            "cudaged output caps: %s", caps_string(caps).c_str());
  if (caps) gst_caps_unref(caps);

  // A change while playing renegotiates: the next frame's caps carry it.
  g_object_set(e, "slice-height", 3, nullptr);
  CHECK(hx.push(random_frame(video_info("GRAY16_LE", 16, 9), 4)) == GST_FLOW_OK);
  if (GstBuffer *b = hx.pull()) gst_buffer_unref(b);
  caps = hx.out_caps();
  CHECK_MSG(caps && field_int(gst_caps_get_structure(caps, 0), "ged-slice-height") == 3, "after the change: %s",
            caps_string(caps).c_str());
  if (caps) gst_caps_unref(caps);

  Harness med("cudamed");
  CHECK(med.set_caps(raw_caps("I420", 5, 3).c_str()));
  CHECK(med.push(random_frame(video_info("I420", 5, 3), 5)) == GST_FLOW_OK);
  if (GstBuffer *b = med.pull()) gst_buffer_unref(b);
  caps = med.out_caps();
  s = caps ? gst_caps_get_structure(caps, 0) : nullptr;
  CHECK_MSG(s && !std::strcmp(gst_structure_get_string(s, "transform"), "med") &&
                field_int(s, "med-slice-height") == 0 && !gst_structure_has_field(s, "med-threshold"),
            "cudamed output caps: %s", caps_string(caps).c_str());
  if (caps) gst_caps_unref(caps);
}

// MED on a 3x3 GRAY8 frame (hand-computed in test_predictor_known_answers.cpp).
void test_known_residuals() {
  GstElement *e = gst_element_factory_make("cudamed", nullptr);
  g_object_set(e, "backend", 3, nullptr);  // cpu: the element path, any backend gives these bits
  Harness hx(e);
  CHECK(hx.set_caps(raw_caps("GRAY8", 3, 3).c_str()));
  const GstVideoInfo info = video_info("GRAY8", 3, 3);
  GstBuffer *in = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  const guint8 px[9] = {100, 102, 101, 101, 100, 102, 100, 103, 100};
  GstMapInfo map;
  gst_buffer_map(in, &map, GST_MAP_WRITE);
  for (int y = 0; y < 3; ++y) std::memcpy(map.data + y * GST_VIDEO_INFO_PLANE_STRIDE(&info, 0), px + 3 * y, 3);
  gst_buffer_unmap(in, &map);
  CHECK(hx.push(in) == GST_FLOW_OK);
  GstBuffer *out = hx.pull();
  CHECK(out && gst_buffer_get_size(out) == 18);
  if (out) {
    const gint16 want[9] = {-28, 2, -1, 1, -2, 2, -1, 3, -3};
    gint16 got[9] = {};
    gst_buffer_extract(out, 0, got, sizeof got);
    for (int i = 0; i < 9; ++i) CHECK_MSG(got[i] == want[i], "residual %d: %d, expected %d", i, got[i], want[i]);
    gst_buffer_unref(out);
  }
}

// Predictor coefficient caps, field by field (GRAY8 16x16, S16LE).
std::string med_caps(const char *field, const char *value) {
  const std::pair<const char *, const char *> good[] = {
      {"transform", "(string)med"}, {"med-slice-height", "(int)4"}, {"sample-format", "(string)S16LE"},
      {"format", "(string)GRAY8"},  {"width", "(int)16"},           {"height", "(int)16"}};
  std::string caps = "video/x-coefficients";
  for (const auto &[name, v] : good) {
    if (field && !std::strcmp(name, field)) {
      if (value) caps += std::string(", ") + name + "=" + value;
    } else {
      caps += std::string(", ") + name + "=" + v;
    }
  }
  return caps;
}

void expect_refused(const char *element, const std::string &caps, std::initializer_list<const char *> words) {
  Harness hx(element);
  CHECK_MSG(!hx.set_caps(caps.c_str()), "%s accepted %s", element, caps.c_str());
  const std::string err = hx.errors();
  for (const char *w : words)
    CHECK_MSG(contains(err, w), "%s, caps %s: error '%s' does not name '%s'", element, caps.c_str(), err.c_str(), w);
  CHECK(hx.push(gst_buffer_new_allocate(nullptr, 512, nullptr)) != GST_FLOW_OK);
}

void test_bad_input() {
  expect_refused("cudainverse", med_caps("med-slice-height", "(int)-1"), {"'med-slice-height'", "-1"});
  expect_refused("cudainverse", med_caps("med-slice-height", nullptr), {"'med-slice-height'", "missing"});
  expect_refused("cudainverse", med_caps("med-slice-height", "(string)tall"), {"'med-slice-height'"});
  expect_refused("cudainverse", med_caps("transform", "(string)\"med,cdf53\""), {"'transform'", "last stage"});
  std::string ged = med_caps(nullptr, nullptr);
  ged.replace(ged.find("(string)med"), 11, "(string)ged");
  ged.replace(ged.find("med-slice-height"), 16, "ged-slice-height");
  expect_refused("cudainverse", ged, {"'ged-threshold'", "missing"});
  expect_refused("cudainverse", ged + ", ged-threshold=(int)-3", {"'ged-threshold'", "-3"});
  for (const char *element : {"cudamed", "cudagap", "cudaged"})
    expect_refused(element, raw_caps("YUY2", 16, 16), {"YUY2", "format"});
  {  // the good caps are good, and a short buffer is refused with both sizes
    Harness hx("cudainverse");
    CHECK(hx.set_caps(med_caps(nullptr, nullptr).c_str()));
    GstBuffer *b = gst_buffer_new_allocate(nullptr, 512, nullptr);
    gst_buffer_memset(b, 0, 0, 512);
    CHECK(hx.push(b) == GST_FLOW_OK);
    if (GstBuffer *o = hx.pull()) gst_buffer_unref(o);
    CHECK(hx.push(gst_buffer_new_allocate(nullptr, 100, nullptr)) == GST_FLOW_ERROR);
    const std::string err = hx.errors();
    CHECK_MSG(contains(err, "100 bytes") && contains(err, "512 bytes"), "short residuals: '%s'", err.c_str());
  }
  {
    Harness hx("cudagap");
    CHECK(hx.set_caps(raw_caps("GRAY8", 16, 16).c_str()));
    CHECK(hx.push(gst_buffer_new_allocate(nullptr, 100, nullptr)) == GST_FLOW_ERROR);
    const std::string err = hx.errors();
    CHECK_MSG(contains(err, "100 bytes") && contains(err, "256 bytes"), "short raw: '%s'", err.c_str());
  }
  // The properties' ranges refuse what no stream can have.
  GstElement *e = gst_element_factory_make("cudaged", nullptr);
  GParamSpecInt *slice = G_PARAM_SPEC_INT(g_object_class_find_property(G_OBJECT_GET_CLASS(e), "slice-height"));
  GParamSpecInt *thr = G_PARAM_SPEC_INT(g_object_class_find_property(G_OBJECT_GET_CLASS(e), "threshold"));
  CHECK(slice && slice->minimum == 0 && slice->default_value == 0);
  CHECK(thr && thr->minimum == 0 && thr->default_value == 40);
  gst_object_unref(e);
  GstElement *m = gst_element_factory_make("cudamed", nullptr);
  CHECK_MSG(!g_object_class_find_property(G_OBJECT_GET_CLASS(m), "threshold"), "cudamed has a threshold property");
  gst_object_unref(m);
}

}  // namespace

int main(int argc, char **argv) {
  init(&argc, &argv);
  test_output_caps();
  test_known_residuals();
  test_bad_input();
  test_round_trips();
  std::printf("%d round trips\n", round_trips);
  return cft::test_result();
}
