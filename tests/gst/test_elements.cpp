// Element tests through GstHarness: factories and properties, caps
// negotiation for every input format, caps queries both ways, output sizes,
// property changes between frames, backend parity and the backend
// properties/messages.
#include <algorithm>

#include "cudafilters/engine.hpp"
#include "gst_util.hpp"

using namespace cfgt;

static const char *const kElements[] = {"cudahaar", "cudacdf53", "cudainverse", "cudaview"};
static const char *const kWavelets[] = {"cudahaar", "cudacdf53"};

static void test_factories() {
  for (const char *name : kElements) {
    GstElement *e = gst_element_factory_make(name, nullptr);
    CHECK_MSG(e != nullptr, "%s", name);
    if (!e) continue;
    GstElementFactory *f = gst_element_get_factory(e);
    CHECK_MSG(!std::strcmp(gst_element_factory_get_metadata(f, GST_ELEMENT_METADATA_KLASS), "Filter/Converter/Video"),
              "%s klass", name);
    for (const char *prop : {"backend", "threads", "device-id", "active-backend"})
      CHECK_MSG(g_object_class_find_property(G_OBJECT_GET_CLASS(e), prop) != nullptr, "%s.%s", name, prop);
    gint backend = -1, device = -1;
    guint threads = 99;
    g_object_get(e, "backend", &backend, "threads", &threads, "device-id", &device, nullptr);
    CHECK_MSG(backend == 0 && threads == 0 && device == 0, "%s defaults", name);
    CHECK_MSG(get_string_prop(e, "active-backend").empty(), "%s active-backend before start", name);
    gst_object_unref(e);
  }
  for (const char *name : kWavelets) {
    GstElement *e = gst_element_factory_make(name, nullptr);
    gint levels = 0, layout = -1;
    g_object_get(e, "levels", &levels, "layout", &layout, nullptr);
    CHECK_MSG(levels == 1 && layout == 0, "%s levels/layout defaults", name);
    gst_util_set_object_arg(G_OBJECT(e), "layout", "standard");
    g_object_get(e, "layout", &layout, nullptr);
    CHECK(layout == 1);
    gst_object_unref(e);
  }
  GstElement *view = gst_element_factory_make("cudaview", nullptr);
  CHECK(g_object_class_find_property(G_OBJECT_GET_CLASS(view), "component") != nullptr);
  gst_object_unref(view);
}

// raw -> coefficient caps for every format: fields, values, output size.
static void test_negotiation() {
  const int w = 33, h = 17;
  for (const char *element : kWavelets) {
    const std::string stage = std::string(element).substr(4);  // "haar", "cdf53"
    for (const FormatSpec &f : formats()) {
      GstElement *e = gst_element_factory_make(element, nullptr);
      g_object_set(e, "levels", 2, nullptr);
      gst_util_set_object_arg(G_OBJECT(e), "layout", "standard");
      Harness hx(e);
      const bool accepted = hx.set_caps(raw_caps(f.name, w, h).c_str());
      CHECK_MSG(accepted, "%s %s: caps refused: %s", element, f.name, hx.errors().c_str());
      if (!accepted) continue;
      const GstVideoInfo info = video_info(f.name, w, h);
      CHECK(hx.push(random_frame(info, 1)) == GST_FLOW_OK);
      GstBuffer *out = hx.pull();
      CHECK_MSG(out != nullptr, "%s %s: no output", element, f.name);
      if (out) {
        CHECK_MSG(gst_buffer_get_size(out) == coeff_size(f, w, h), "%s %s: %zu bytes, expected %zu", element, f.name,
                  gst_buffer_get_size(out), coeff_size(f, w, h));
        gst_buffer_unref(out);
      }
      GstCaps *caps = hx.out_caps();
      CHECK_MSG(caps && gst_caps_is_fixed(caps), "%s %s", element, f.name);
      if (!caps) continue;
      const GstStructure *s = gst_caps_get_structure(caps, 0);
      const std::string c = caps_string(caps);
      gint v = 0, fn = 0, fd = 0;
      CHECK_MSG(gst_structure_has_name(s, "video/x-coefficients"), "%s", c.c_str());
      CHECK_MSG(!g_strcmp0(gst_structure_get_string(s, "transform"), stage.c_str()), "%s", c.c_str());
      CHECK_MSG(gst_structure_get_int(s, (stage + "-levels").c_str(), &v) && v == 2, "%s", c.c_str());
      CHECK_MSG(!g_strcmp0(gst_structure_get_string(s, (stage + "-layout").c_str()), "standard"), "%s", c.c_str());
      CHECK_MSG(!g_strcmp0(gst_structure_get_string(s, "sample-format"), f.coeff_bytes == 4 ? "S32LE" : "S16LE"), "%s",
                c.c_str());
      CHECK_MSG(!g_strcmp0(gst_structure_get_string(s, "format"), f.name), "%s", c.c_str());
      CHECK_MSG(gst_structure_get_int(s, "width", &v) && v == w, "%s", c.c_str());
      CHECK_MSG(gst_structure_get_int(s, "height", &v) && v == h, "%s", c.c_str());
      CHECK_MSG(gst_structure_get_fraction(s, "framerate", &fn, &fd) && fn == 25 && fd == 1, "%s", c.c_str());
      CHECK_MSG(gst_structure_get_fraction(s, "pixel-aspect-ratio", &fn, &fd) && fn == 1 && fd == 1, "%s", c.c_str());
      gst_caps_unref(caps);
      CHECK_MSG(hx.errors().empty(), "%s %s: unexpected errors", element, f.name);
    }
  }
}

// Caps queries: what an element can take given what its neighbour wants.
static void test_caps_queries() {
  {  // downstream wants RGBA coefficients 20x10: cudacdf53 takes RGBA 20x10
    Harness hx("cudacdf53");
    gst_harness_set_sink_caps_str(hx.h, "video/x-coefficients, format=(string)RGBA, width=(int)20, height=(int)10");
    GstCaps *caps = gst_pad_peer_query_caps(hx.h->srcpad, nullptr);
    GstCaps *want = gst_caps_from_string("video/x-raw, format=(string)RGBA, width=(int)20, height=(int)10");
    GstCaps *gray = gst_caps_from_string("video/x-raw, format=(string)GRAY8");
    CHECK_MSG(gst_caps_can_intersect(caps, want) && !gst_caps_can_intersect(caps, gray), "%s",
              caps_string(caps).c_str());
    gst_caps_unref(caps);
    gst_caps_unref(want);
    gst_caps_unref(gray);
  }
  {  // downstream wants haar coefficients: cudacdf53 can take nothing
    Harness hx("cudacdf53");
    gst_harness_set_sink_caps_str(hx.h, "video/x-coefficients, transform=(string)haar");
    GstCaps *caps = gst_pad_peer_query_caps(hx.h->srcpad, nullptr);
    CHECK_MSG(gst_caps_is_empty(caps), "%s", caps_string(caps).c_str());
    gst_caps_unref(caps);
  }
  {  // downstream wants S32LE coefficients: only GRAY16_LE raw
    Harness hx("cudahaar");
    gst_harness_set_sink_caps_str(hx.h, "video/x-coefficients, sample-format=(string)S32LE");
    GstCaps *caps = gst_pad_peer_query_caps(hx.h->srcpad, nullptr);
    GstCaps *want = gst_caps_from_string("video/x-raw, format=(string)GRAY16_LE");
    CHECK_MSG(gst_caps_is_subset(caps, want) && !gst_caps_is_empty(caps), "%s", caps_string(caps).c_str());
    gst_caps_unref(caps);
    gst_caps_unref(want);
  }
  {  // downstream of cudainverse wants GRAY16_LE 8x8: S32LE coefficients of it
    Harness hx("cudainverse");
    gst_harness_set_sink_caps_str(hx.h, "video/x-raw, format=(string)GRAY16_LE, width=(int)8, height=(int)8");
    GstCaps *caps = gst_pad_peer_query_caps(hx.h->srcpad, nullptr);
    GstCaps *want = gst_caps_from_string(
        "video/x-coefficients, transform=(string)cdf53, cdf53-levels=(int)1, cdf53-layout=(string)mallat, "
        "sample-format=(string)S32LE, format=(string)GRAY16_LE, width=(int)8, height=(int)8");
    GstCaps *s16 = gst_caps_from_string("video/x-coefficients, sample-format=(string)S16LE");
    CHECK_MSG(gst_caps_can_intersect(caps, want) && !gst_caps_can_intersect(caps, s16), "%s",
              caps_string(caps).c_str());
    gst_caps_unref(caps);
    gst_caps_unref(want);
    gst_caps_unref(s16);
  }
  {  // cudaview's output for component 1 of I420 9x7 coefficients: GRAY8 5x4
    GstElement *view = gst_element_factory_make("cudaview", nullptr);
    g_object_set(view, "component", 1, nullptr);
    GstCaps *in = gst_caps_from_string(
        "video/x-coefficients, transform=(string)haar, haar-levels=(int)1, haar-layout=(string)mallat, "
        "sample-format=(string)S16LE, format=(string)I420, width=(int)9, height=(int)7");
    GstCaps *t =
        GST_BASE_TRANSFORM_GET_CLASS(view)->transform_caps(GST_BASE_TRANSFORM(view), GST_PAD_SINK, in, nullptr);
    GstCaps *want = gst_caps_from_string("video/x-raw, format=(string)GRAY8, width=(int)5, height=(int)4");
    CHECK_MSG(gst_caps_is_equal(t, want), "%s", caps_string(t).c_str());
    gst_caps_unref(t);
    gst_caps_unref(want);
    gst_caps_unref(in);
    gst_object_unref(view);
  }
}

// levels/layout changed between frames: new output caps, and the stream
// still round-trips through cudainverse.
static void test_property_changes() {
  for (const char *element : kWavelets) {
    const std::string stage = std::string(element).substr(4);
    const std::string desc = std::string(element) + " name=enc levels=1 ! cudainverse name=inv";
    Harness hx(desc.c_str());
    GstElement *enc = hx.get("enc");
    GstPad *enc_src = gst_element_get_static_pad(enc, "src");
    const GstVideoInfo info = video_info("I420", 40, 30);
    CHECK(hx.set_caps(raw_caps("I420", 40, 30).c_str()));
    struct Step {
      int levels;
      const char *layout;
    } steps[] = {{1, "mallat"}, {2, "mallat"}, {2, "standard"}, {3, "standard"}, {1, "mallat"}};
    std::uint32_t seed = 10;
    for (const Step &st : steps) {
      g_object_set(enc, "levels", st.levels, nullptr);
      gst_util_set_object_arg(G_OBJECT(enc), "layout", st.layout);
      GstBuffer *in = random_frame(info, ++seed, Padding::Zero);
      gst_buffer_ref(in);
      CHECK_MSG(hx.push(in) == GST_FLOW_OK, "%s levels=%d layout=%s: %s", element, st.levels, st.layout,
                hx.errors().c_str());
      GstBuffer *out = hx.pull();
      CHECK_MSG(out != nullptr, "%s levels=%d: no output", element, st.levels);
      if (out) {
        const std::string diff = compare_buffers(info, in, out);
        CHECK_MSG(diff.empty(), "%s levels=%d layout=%s round trip: %s", element, st.levels, st.layout, diff.c_str());
        gst_buffer_unref(out);
      }
      gst_buffer_unref(in);
      GstCaps *caps = gst_pad_get_current_caps(enc_src);
      const GstStructure *s = gst_caps_get_structure(caps, 0);
      gint v = 0;
      CHECK_MSG(gst_structure_get_int(s, (stage + "-levels").c_str(), &v) && v == st.levels, "%s",
                caps_string(caps).c_str());
      CHECK_MSG(!g_strcmp0(gst_structure_get_string(s, (stage + "-layout").c_str()), st.layout), "%s",
                caps_string(caps).c_str());
      gst_caps_unref(caps);
    }
    gst_object_unref(enc_src);
    gst_object_unref(enc);
  }

  // cudaview: component changes the output size.
  Harness hx("cudacdf53 levels=2 ! cudaview name=view");
  GstElement *view = hx.get("view");
  const GstVideoInfo info = video_info("I420", 40, 30);
  CHECK(hx.set_caps(raw_caps("I420", 40, 30).c_str()));
  const int sizes[][2] = {{40, 30}, {20, 15}, {20, 15}, {40, 30}};
  for (int c = 0; c < 4; ++c) {
    g_object_set(view, "component", c % 3, nullptr);
    CHECK(hx.push(random_frame(info, 20 + c)) == GST_FLOW_OK);
    GstBuffer *out = hx.pull();
    GstCaps *caps = hx.out_caps();
    GstVideoInfo oi;
    CHECK(caps && gst_video_info_from_caps(&oi, caps));
    CHECK_MSG(GST_VIDEO_INFO_FORMAT(&oi) == GST_VIDEO_FORMAT_GRAY8 && GST_VIDEO_INFO_WIDTH(&oi) == sizes[c][0] &&
                  GST_VIDEO_INFO_HEIGHT(&oi) == sizes[c][1],
              "component %d: %s", c % 3, caps_string(caps).c_str());
    if (out && c == 0) {
      // LL of level 2 (10x8 at the origin) spans 0..255; the HH band of level
      // 1 (20x15 at 20,15) reaches 1 or 255 where |c| is largest.
      GstVideoFrame fr;
      CHECK(gst_video_frame_map(&fr, &oi, out, GST_MAP_READ));
      int lo = 255, hi = 0, extreme = 0;
      for (int y = 0; y < 8; ++y)
        for (int x = 0; x < 10; ++x) {
          const int g =
              static_cast<guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&fr, 0))[y * GST_VIDEO_FRAME_PLANE_STRIDE(&fr, 0) + x];
          lo = std::min(lo, g);
          hi = std::max(hi, g);
        }
      for (int y = 15; y < 30; ++y)
        for (int x = 20; x < 40; ++x) {
          const int g =
              static_cast<guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&fr, 0))[y * GST_VIDEO_FRAME_PLANE_STRIDE(&fr, 0) + x];
          extreme += g == 1 || g == 255;
        }
      CHECK_MSG(lo == 0 && hi == 255, "view LL spans %d..%d", lo, hi);
      CHECK_MSG(extreme > 0, "view HH band never reaches 1 or 255");
      gst_video_frame_unmap(&fr);
    }
    if (caps) gst_caps_unref(caps);
    if (out) gst_buffer_unref(out);
  }
  gst_object_unref(view);
}

// cudaview on 32-bit coefficients (GRAY16_LE input): GRAY8 of the same size,
// the LL band (10x8 at level 2) spanning 0..255.
static void test_view_s32() {
  Harness hx("cudahaar levels=2 layout=standard ! cudaview");
  const GstVideoInfo info = video_info("GRAY16_LE", 40, 30);
  CHECK(hx.set_caps(raw_caps("GRAY16_LE", 40, 30).c_str()));
  CHECK(hx.push(random_frame(info, 5)) == GST_FLOW_OK);
  GstBuffer *out = hx.pull();
  GstCaps *caps = hx.out_caps();
  GstVideoInfo oi;
  CHECK_MSG(out && caps && gst_video_info_from_caps(&oi, caps) &&
                GST_VIDEO_INFO_FORMAT(&oi) == GST_VIDEO_FORMAT_GRAY8 && GST_VIDEO_INFO_WIDTH(&oi) == 40 &&
                GST_VIDEO_INFO_HEIGHT(&oi) == 30,
            "%s", caps_string(caps).c_str());
  if (out && caps) {
    GstVideoFrame fr;
    CHECK(gst_video_frame_map(&fr, &oi, out, GST_MAP_READ));
    int lo = 255, hi = 0;
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 10; ++x) {
        const int g =
            static_cast<guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&fr, 0))[y * GST_VIDEO_FRAME_PLANE_STRIDE(&fr, 0) + x];
        lo = std::min(lo, g);
        hi = std::max(hi, g);
      }
    CHECK_MSG(lo == 0 && hi == 255, "S32 view LL spans %d..%d", lo, hi);
    gst_video_frame_unmap(&fr);
  }
  if (caps) gst_caps_unref(caps);
  if (out) gst_buffer_unref(out);
}

// Raw input with GstVideoMeta (padded strides, planes at odd offsets) is read
// through the meta; a buffer too short for its meta is an error naming sizes.
static void test_video_meta_input() {
  const int w = 17, h = 13;
  gsize offset[GST_VIDEO_MAX_PLANES] = {8, 0, 0, 0};
  gint stride[GST_VIDEO_MAX_PLANES] = {32, 24, 24, 0};
  offset[1] = offset[0] + 32 * h + 5;
  offset[2] = offset[1] + 24 * 7 + 3;
  const gsize size = offset[2] + 24 * 6 + 9;  // the last row needs only 9 bytes
  const GstVideoInfo info = video_info("I420", w, h);
  for (gsize have : {size, size - 1}) {
    Harness hx("cudacdf53 levels=2 ! cudainverse");
    CHECK(hx.set_caps(raw_caps("I420", w, h).c_str()));
    GstBuffer *in = gst_buffer_new_allocate(nullptr, have, nullptr);
    GstMapInfo map;
    gst_buffer_map(in, &map, GST_MAP_WRITE);
    for (gsize i = 0; i < have; ++i) map.data[i] = guint8(i * 37 + (i >> 7));
    gst_buffer_unmap(in, &map);
    gst_buffer_add_video_meta_full(in, GST_VIDEO_FRAME_FLAG_NONE, GST_VIDEO_FORMAT_I420, w, h, 3, offset, stride);
    gst_buffer_ref(in);
    const GstFlowReturn ret = hx.push(in);
    GstBuffer *out = hx.pull();
    if (have == size) {
      CHECK_MSG(ret == GST_FLOW_OK && out, "video meta input: %s %s", gst_flow_get_name(ret), hx.errors().c_str());
      if (out) {
        const std::string diff = compare_frames(info, in, out);
        CHECK_MSG(diff.empty(), "video meta round trip: %s", diff.c_str());
      }
    } else {
      const std::string err = hx.errors();
      CHECK_MSG(ret == GST_FLOW_ERROR && !out, "short buffer with video meta: %s", gst_flow_get_name(ret));
      CHECK_MSG(contains(err, (std::to_string(have) + " bytes").c_str()) &&
                    contains(err, (std::to_string(size) + " bytes").c_str()),
                "short buffer with video meta: '%s'", err.c_str());
    }
    if (out) gst_buffer_unref(out);
    gst_buffer_unref(in);
  }
}

// Runs `desc` (with backend set on the element named "e") over one frame.
static GstBuffer *run_once(const std::string &desc, const char *caps, GstBuffer *in) {
  Harness hx(desc.c_str());
  if (!hx.set_caps(caps)) {
    std::fprintf(stderr, "%s: caps refused: %s\n", desc.c_str(), hx.errors().c_str());
    gst_buffer_unref(in);
    return nullptr;
  }
  if (hx.push(in) != GST_FLOW_OK) std::fprintf(stderr, "%s: %s\n", desc.c_str(), hx.errors().c_str());
  return hx.pull();
}

// cpu and openmp give the same bytes, forward and inverse.
static void test_backend_parity() {
  struct Case {
    const char *format;
    int w, h, levels;
  } cases[] = {{"RGBA", 641, 479, 3}, {"I420", 320, 241, 3}, {"GRAY16_LE", 129, 67, 2}};
  for (const char *element : kWavelets)
    for (const Case &c : cases) {
      const GstVideoInfo info = video_info(c.format, c.w, c.h);
      GstBuffer *frame = random_frame(info, 7, Padding::Zero);
      const std::string caps = raw_caps(c.format, c.w, c.h);
      GstBuffer *coeff[2] = {}, *back[2] = {};
      const char *backends[] = {"cpu", "openmp"};
      for (int b = 0; b < 2; ++b) {
        const std::string enc =
            std::string(element) + " levels=" + std::to_string(c.levels) + " backend=" + backends[b];
        coeff[b] = run_once(enc, caps.c_str(), gst_buffer_ref(frame));
        back[b] =
            run_once(enc + " ! cudainverse threads=3 backend=" + backends[b], caps.c_str(), gst_buffer_ref(frame));
      }
      CHECK_MSG(coeff[0] && coeff[1] && same_bytes(coeff[0], coeff[1]), "%s %s: cpu and openmp coefficients differ",
                element, c.format);
      CHECK_MSG(back[0] && back[1], "%s %s: no inverse output", element, c.format);
      if (back[0] && back[1]) {
        const std::string d0 = compare_buffers(info, frame, back[0]), d1 = compare_buffers(info, frame, back[1]);
        CHECK_MSG(d0.empty() && d1.empty(), "%s %s: round trip cpu: %s openmp: %s", element, c.format, d0.c_str(),
                  d1.c_str());
      }
      for (GstBuffer *b : {coeff[0], coeff[1], back[0], back[1]})
        if (b) gst_buffer_unref(b);
      gst_buffer_unref(frame);
    }
}

static GstStructure *find_backend_message(GstBus *bus) {
  GstStructure *found = nullptr;
  while (GstMessage *m = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT)) {
    const GstStructure *s = gst_message_get_structure(m);
    if (s && gst_structure_has_name(s, "cudafilters-backend")) {
      if (found) gst_structure_free(found);
      found = gst_structure_copy(s);
    }
    gst_message_unref(m);
  }
  return found;
}

// active-backend, the cudafilters-backend message, and changes while playing.
static void test_backend_properties() {
  const bool gpu = cf::cuda_device_usable(0);
  {
    GstElement *e = gst_element_factory_make("cudacdf53", "enc0");
    Harness hx(e);
    const std::string active = get_string_prop(hx.element, "active-backend");
    CHECK_MSG(gpu ? active == "cuda" : (active == "openmp" || active == "cpu"), "auto resolved to '%s'",
              active.c_str());
    GstStructure *s = find_backend_message(hx.bus);
    CHECK_MSG(s != nullptr, "no cudafilters-backend message");
    if (s) {
      CHECK(!g_strcmp0(gst_structure_get_string(s, "element"), "enc0"));
      CHECK(!g_strcmp0(gst_structure_get_string(s, "backend"), active.c_str()));
      CHECK(gst_structure_get_string(s, "description") != nullptr);
      gst_structure_free(s);
    }
    // Switch to cpu while playing: the next frame rebuilds the engine.
    const GstVideoInfo info = video_info("GRAY8", 16, 16);
    CHECK(hx.set_caps(raw_caps("GRAY8", 16, 16).c_str()));
    gst_util_set_object_arg(G_OBJECT(hx.element), "backend", "cpu");
    g_object_set(hx.element, "threads", 2u, nullptr);
    CHECK(hx.push(random_frame(info, 3)) == GST_FLOW_OK);
    if (GstBuffer *b = hx.pull()) gst_buffer_unref(b);
    CHECK_MSG(get_string_prop(hx.element, "active-backend") == "cpu", "after the switch: '%s'",
              get_string_prop(hx.element, "active-backend").c_str());
    s = find_backend_message(hx.bus);
    CHECK_MSG(s && !g_strcmp0(gst_structure_get_string(s, "backend"), "cpu"), "no message after the switch");
    if (s) gst_structure_free(s);
  }
  {
    GstElement *e = gst_element_factory_make("cudainverse", nullptr);
    gst_util_set_object_arg(G_OBJECT(e), "backend", "cpu");
    Harness hx(e);
    CHECK(get_string_prop(hx.element, "active-backend") == "cpu");
  }
  {  // cudaview has no CUDA code: cuda falls back to the CPU, never an error
    GstElement *e = gst_element_factory_make("cudaview", nullptr);
    gst_util_set_object_arg(G_OBJECT(e), "backend", "cuda");
    Harness hx(e);
    const std::string active = get_string_prop(hx.element, "active-backend");
    CHECK_MSG(active == "openmp" || active == "cpu", "cudaview backend=cuda runs on '%s'", active.c_str());
    CHECK(hx.errors().empty());
  }
  // After stop the property reads empty again.
  GstElement *e = gst_element_factory_make("cudahaar", nullptr);
  gst_util_set_object_arg(G_OBJECT(e), "backend", "cpu");
  CHECK(gst_element_set_state(e, GST_STATE_PAUSED) != GST_STATE_CHANGE_FAILURE);
  CHECK(get_string_prop(e, "active-backend") == "cpu");
  gst_element_set_state(e, GST_STATE_NULL);
  CHECK(get_string_prop(e, "active-backend").empty());
  gst_object_unref(e);
}

// backend=cuda without a usable device: an element error at start naming
// cuda, a failed state change, no crash.
static void test_cuda_without_device() {
  if (cf::cuda_device_usable(0)) {
    std::printf("a CUDA device is usable: backend=cuda without a device not checked\n");
    return;
  }
  for (const char *name : {"cudahaar", "cudacdf53", "cudainverse"}) {
    GstElement *e = gst_element_factory_make(name, nullptr);
    gst_util_set_object_arg(G_OBJECT(e), "backend", "cuda");
    GstBus *bus = gst_bus_new();
    gst_element_set_bus(e, bus);
    CHECK_MSG(gst_element_set_state(e, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE, "%s started without a GPU",
              name);
    const std::string err = pop_errors(bus);
    CHECK_MSG(contains(err, "cuda") || contains(err, "CUDA"), "%s: error '%s'", name, err.c_str());
    CHECK_MSG(contains(err, "backend=cuda"), "%s: error '%s'", name, err.c_str());
    CHECK(get_string_prop(e, "active-backend").empty());
    gst_element_set_state(e, GST_STATE_NULL);
    gst_element_set_bus(e, nullptr);
    gst_object_unref(bus);
    gst_object_unref(e);
  }
}

int main(int argc, char **argv) {
  init(&argc, &argv);
  test_factories();
  test_negotiation();
  test_caps_queries();
  test_property_changes();
  test_video_meta_input();
  test_view_s32();
  test_backend_parity();
  test_backend_properties();
  test_cuda_without_device();
  return cft::test_result();
}
