// Bad input gets a GStreamer error that names what is wrong, and nothing
// crashes: unsupported formats, levels too deep, buffers smaller than their
// caps, coefficient caps with a field missing or wrong, an out-of-range
// cudaview component.
#include <utility>
#include <vector>

#include "gst_util.hpp"

using namespace cfgt;

// Good coefficient caps, field by field, so a test can replace or drop one.
static const std::vector<std::pair<std::string, std::string>> kGoodFields = {{"transform", "(string)cdf53"},
                                                                             {"cdf53-levels", "(int)2"},
                                                                             {"cdf53-layout", "(string)mallat"},
                                                                             {"sample-format", "(string)S16LE"},
                                                                             {"format", "(string)GRAY8"},
                                                                             {"width", "(int)16"},
                                                                             {"height", "(int)16"}};

// The good caps with `field` set to `value` (nullptr: removed).
static std::string coeff_with(const char *field, const char *value) {
  std::string caps = "video/x-coefficients";
  bool found = false;
  for (const auto &[name, v] : kGoodFields) {
    if (name == (field ? field : "")) {
      found = true;
      if (value) caps += ", " + name + "=" + value;
    } else {
      caps += ", " + name + "=" + v;
    }
  }
  if (!found && field && value) caps += std::string(", ") + field + "=" + value;
  return caps;
}
static const std::string kGoodCoeffString = coeff_with(nullptr, nullptr);
static const char *const kGoodCoeff = kGoodCoeffString.c_str();

// Pushes caps that must be refused; the error text must contain every word.
static void expect_refused(const char *element, const std::string &caps, std::initializer_list<const char *> words) {
  Harness hx(element);
  const bool accepted = hx.set_caps(caps.c_str());
  CHECK_MSG(!accepted, "%s accepted %s", element, caps.c_str());
  const std::string err = hx.errors();
  for (const char *w : words)
    CHECK_MSG(contains(err, w), "%s, caps %s: error '%s' does not name '%s'", element, caps.c_str(), err.c_str(), w);
  // A buffer after refused caps is refused too, without a crash.
  const GstFlowReturn ret = hx.push(gst_buffer_new_allocate(nullptr, 4096, nullptr));
  CHECK_MSG(ret != GST_FLOW_OK, "%s: buffer after refused caps: %s", element, gst_flow_get_name(ret));
  if (GstBuffer *b = hx.pull()) gst_buffer_unref(b);
}

static void test_unsupported_format() {
  for (const char *element : {"cudahaar", "cudacdf53"}) {
    expect_refused(element, raw_caps("YUY2", 16, 16), {"YUY2", "format"});
    expect_refused(element, raw_caps("GRAY10_LE32", 24, 16), {"GRAY10_LE32", "not supported"});
  }
  // The inverse's output format comes from the stream: an unsupported one
  // in the caps is refused there.
  expect_refused("cudainverse", coeff_with("format", "(string)YUY2"), {"'format'", "YUY2"});
}

static void test_levels_too_deep() {
  for (const char *element : {"cudahaar", "cudacdf53"}) {
    GstElement *e = gst_element_factory_make(element, nullptr);
    g_object_set(e, "levels", 10, nullptr);
    Harness hx(e);
    CHECK_MSG(!hx.set_caps(raw_caps("GRAY8", 16, 16).c_str()), "%s levels=10 on 16x16 accepted", element);
    const std::string err = hx.errors();
    CHECK_MSG(contains(err, "levels=10") && contains(err, "at most"), "%s: '%s'", element, err.c_str());
    CHECK(hx.push(gst_buffer_new_allocate(nullptr, 256, nullptr)) != GST_FLOW_OK);
  }
  {  // too deep only after a change while playing: the renegotiation fails with the message
    GstElement *e = gst_element_factory_make("cudacdf53", nullptr);
    Harness hx(e);
    const GstVideoInfo info = video_info("I420", 16, 16);
    CHECK(hx.set_caps(raw_caps("I420", 16, 16).c_str()));
    CHECK(hx.push(random_frame(info, 1)) == GST_FLOW_OK);
    if (GstBuffer *b = hx.pull()) gst_buffer_unref(b);
    g_object_set(e, "levels", 9, nullptr);
    CHECK(hx.push(random_frame(info, 2)) != GST_FLOW_OK);
    const std::string err = hx.errors();
    CHECK_MSG(contains(err, "levels=9") && contains(err, "at most"), "after the change: '%s'", err.c_str());
  }
  // Coefficient caps whose levels cannot come from that frame size.
  expect_refused("cudainverse", coeff_with("cdf53-levels", "(int)10"), {"cdf53-levels", "levels=10", "at most"});
}

static void test_short_buffers() {
  {  // raw input: GRAY8 16x16 needs 256 bytes
    Harness hx("cudacdf53");
    CHECK(hx.set_caps(raw_caps("GRAY8", 16, 16).c_str()));
    CHECK(hx.push(gst_buffer_new_allocate(nullptr, 100, nullptr)) == GST_FLOW_ERROR);
    const std::string err = hx.errors();
    CHECK_MSG(contains(err, "100 bytes") && contains(err, "256 bytes"), "raw: '%s'", err.c_str());
    CHECK(hx.pull() == nullptr);
  }
  {  // I420 17x13: default strides, 20*13 + 2 * 12*7 = 428 bytes
    Harness hx("cudahaar");
    CHECK(hx.set_caps(raw_caps("I420", 17, 13).c_str()));
    const GstVideoInfo info = video_info("I420", 17, 13);
    const gsize need = GST_VIDEO_INFO_SIZE(&info);
    CHECK(hx.push(gst_buffer_new_allocate(nullptr, need - 1, nullptr)) == GST_FLOW_ERROR);
    const std::string err = hx.errors();
    CHECK_MSG(contains(err, (std::to_string(need - 1) + " bytes").c_str()) &&
                  contains(err, (std::to_string(need) + " bytes").c_str()),
              "I420: '%s'", err.c_str());
  }
  {  // coefficients: GRAY8 16x16 as S16 needs 512 bytes
    Harness hx("cudainverse");
    CHECK(hx.set_caps(kGoodCoeff));
    CHECK(hx.push(gst_buffer_new_allocate(nullptr, 100, nullptr)) == GST_FLOW_ERROR);
    const std::string err = hx.errors();
    CHECK_MSG(contains(err, "100 bytes") && contains(err, "512 bytes"), "coefficients: '%s'", err.c_str());
  }
  {  // a zero-byte buffer
    Harness hx("cudaview");
    CHECK(hx.set_caps(kGoodCoeff));
    CHECK(hx.push(gst_buffer_new()) == GST_FLOW_ERROR);
    CHECK(contains(hx.errors(), "0 bytes"));
  }
  {  // the right size is accepted (the good caps are good)
    Harness hx("cudainverse");
    CHECK(hx.set_caps(kGoodCoeff));
    GstBuffer *b = gst_buffer_new_allocate(nullptr, 512, nullptr);
    gst_buffer_memset(b, 0, 0, 512);
    CHECK(hx.push(b) == GST_FLOW_OK);
    if (GstBuffer *o = hx.pull()) gst_buffer_unref(o);
    CHECK(hx.errors().empty());
  }
}

static void test_bad_coefficient_caps() {
  struct Case {
    const char *field, *value;
    std::initializer_list<const char *> words;
  };
  const Case cases[] = {
      {"width", nullptr, {"'width'", "missing"}},
      {"height", "(string)tall", {"'height'"}},
      {"width", "(int)0", {"'width'", "0"}},
      {"format", nullptr, {"'format'", "missing"}},
      {"format", "(string)NOPE", {"'format'", "NOPE"}},
      {"sample-format", nullptr, {"'sample-format'", "missing"}},
      {"sample-format", "(string)F32LE", {"'sample-format'", "F32LE"}},
      {"sample-format", "(string)S32LE", {"'sample-format'", "S16LE"}},  // GRAY8 needs S16LE
      {"transform", nullptr, {"'transform'", "missing"}},
      {"transform", "(string)wibble", {"'transform'", "wibble"}},
      {"transform", "(string)\"haar,cdf53\"", {"'transform'"}},
      {"transform", "(int)5", {"'transform'"}},
      {"cdf53-levels", "(int)0", {"'cdf53-levels'", "0"}},
      {"cdf53-levels", "(int)33", {"'cdf53-levels'", "33"}},
      {"cdf53-levels", nullptr, {"'cdf53-levels'", "missing"}},
      {"cdf53-layout", "(string)diagonal", {"'cdf53-layout'", "diagonal"}},
      {"cdf53-layout", nullptr, {"'cdf53-layout'", "missing"}},
      {"framerate", "(string)fast", {"'framerate'"}},
      {"colorimetry", "(string)nonsense", {"'colorimetry'"}},
      {"interlace-mode", "(string)alternate", {"'interlace-mode'"}},
  };
  for (const char *element : {"cudainverse", "cudaview"})
    for (const Case &c : cases) expect_refused(element, coeff_with(c.field, c.value), c.words);
  // Raw video where coefficients are expected.
  expect_refused("cudainverse", raw_caps("GRAY8", 16, 16), {});
}

static void test_view_component() {
  GstElement *e = gst_element_factory_make("cudaview", nullptr);
  g_object_set(e, "component", 3, nullptr);
  Harness hx(e);
  CHECK(!hx.set_caps(kGoodCoeff));
  const std::string err = hx.errors();
  CHECK_MSG(contains(err, "component=3") && contains(err, "out of range"), "'%s'", err.c_str());
  // The property's own range refuses what no stream can have.
  GParamSpecInt *spec = G_PARAM_SPEC_INT(g_object_class_find_property(G_OBJECT_GET_CLASS(e), "component"));
  CHECK(spec->minimum == 0 && spec->maximum == 3);
}

int main(int argc, char **argv) {
  init(&argc, &argv);
  test_unsupported_format();
  test_levels_too_deep();
  test_short_buffers();
  test_bad_coefficient_caps();
  test_view_component();
  return cft::test_result();
}
