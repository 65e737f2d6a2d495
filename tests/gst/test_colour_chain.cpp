// Colour transforms, chains and cudaentropy through the elements (system
// memory; test_cuda_memory checks them in CUDA memory on a GPU):
//  - round trips: cudarct / cudaycocg alone and followed by cudahaar or
//    cudacdf53 (levels 1..3 and the deepest the chain allows), then
//    cudainverse: output buffer == input buffer (row padding 0 in both),
//    every RGB format, odd sizes, cpu and openmp backends;
//  - cudacdf97 after a colour stage (levels 1 and the deepest): F32LE
//    coefficients, exact round trips as above;
//  - predictors after a colour stage (cudarct ! cudamed, cudaycocg ! cudagap
//    slice-height=16, cudarct ! cudaged): S16 residuals, round trips as above;
//  - caps: transform=ycocg,cdf53 with cdf53-levels, S16LE; transform=rct,med
//    with med-slice-height, S16LE; the chains' coefficients equal those of the
//    core library's colour_forward + wavelet_forward / predictor_forward with
//    the colour range; transform=rct,cdf97 (F32LE, and S16LE with
//    quant-step) those of colour_forward + cdf97_forward;
//  - cudaentropy: buffers pass unchanged, one message per frame or every
//    `interval` frames, known answers (two values in equal numbers: 1 bit per
//    sample; a constant frame: 0), coefficient input names its chain;
//  - bad input: non-RGB formats, a colour stage after a wavelet, a wavelet
//    after a wavelet, levels too deep for the chain, S32 into cudaentropy,
//    anything after a predictor, a predictor after a wavelet, cdf97 after a
//    wavelet, F32 into cudaentropy.
#include <cmath>
#include <functional>

#include "cudafilters/cdf97.hpp"
#include "cudafilters/colour.hpp"
#include "cudafilters/predictor.hpp"
#include "cudafilters/wavelet.hpp"
#include "gst_util.hpp"

using namespace cfgt;

static const char *const kRgbFormats[] = {"RGB", "BGR", "RGBA", "BGRA", "RGBx", "BGRx"};

static void push_pull_compare(Harness &hx, const std::string &what, const char *format, int w, int h) {
  const GstVideoInfo info = video_info(format, w, h);
  GstBuffer *in = random_frame(info, std::uint32_t(w * 131 + h), Padding::Zero);
  gst_buffer_ref(in);
  const GstFlowReturn ret = hx.push(in);
  CHECK_MSG(ret == GST_FLOW_OK, "%s: %s %s", what.c_str(), gst_flow_get_name(ret), hx.errors().c_str());
  GstBuffer *out = hx.pull();
  CHECK_MSG(out != nullptr, "%s: no output", what.c_str());
  if (out) {
    const std::string diff = compare_buffers(info, in, out);
    CHECK_MSG(diff.empty(), "%s: %s", what.c_str(), diff.c_str());
    gst_buffer_unref(out);
  }
  gst_buffer_unref(in);
}

static int round_trips() {
  int runs = 0;
  const int sizes[][2] = {{1, 1}, {2, 3}, {17, 13}, {33, 7}};
  for (const char *colour : {"cudarct", "cudaycocg"})
    for (const char *format : kRgbFormats)
      for (const auto &sz : sizes)
        for (const char *backend : {"cpu", "openmp"}) {
          const int w = sz[0], h = sz[1];
          std::vector<std::string> chains = {""};
          for (const char *wavelet : {"cudahaar", "cudacdf53"}) {
            const cf::Wavelet wv = wavelet[4] == 'h' ? cf::Wavelet::Haar : cf::Wavelet::Cdf53;
            const int max =
                cf::wavelet_max_levels(wv, cf::Layout::Mallat, w, h, cf::ValueRange{-255, 255}, cf::SampleType::S16);
            for (int levels : {1, 2, 3, max})
              if (levels <= max) chains.push_back(std::string(wavelet) + " levels=" + std::to_string(levels));
          }
          if (w > 2 && h > 2) chains.push_back("cudacdf53 levels=2 layout=standard");
          // Unquantised cdf97 rounds back to the colour planes exactly.
          for (int levels : {1, cf::cdf97_max_levels(w, h)})
            chains.push_back("cudacdf97 levels=" + std::to_string(levels));
          for (const std::string &wavelet : chains) {
            const std::string b = std::string(" backend=") + backend;
            // cudaentropy takes integer samples only (not cdf97's F32).
            const bool integer = wavelet.rfind("cudacdf97", 0) != 0;
            const std::string desc = std::string(colour) + b + " ! " + (wavelet.empty() ? "" : wavelet + b + " ! ") +
                                     (integer ? "cudaentropy" + b + " ! " : "") + "cudainverse" + b;
            Harness hx(desc.c_str());
            const bool ok = hx.set_caps(raw_caps(format, w, h).c_str());
            const std::string what = desc + " on " + format + " " + std::to_string(w) + "x" + std::to_string(h);
            CHECK_MSG(ok, "%s: caps refused: %s", what.c_str(), hx.errors().c_str());
            if (!ok) continue;
            push_pull_compare(hx, what, format, w, h);
            ++runs;
          }
        }
  return runs;
}

// Predictors after a colour stage: S16 residuals of [-255, 255] planes.
static int predictor_round_trips() {
  int runs = 0;
  const int sizes[][2] = {{1, 1}, {2, 3}, {17, 13}, {40, 37}};
  const char *const chains[] = {"cudarct%s ! cudamed%s", "cudaycocg%s ! cudagap slice-height=16%s",
                                "cudarct%s ! cudaged%s", "cudaycocg%s ! cudaged threshold=0 slice-height=1%s"};
  for (const char *chain : chains)
    for (const char *format : kRgbFormats)
      for (const auto &sz : sizes)
        for (const char *backend : {"cpu", "openmp"}) {
          const std::string b = std::string(" backend=") + backend;
          char pipeline[200];
          std::snprintf(pipeline, sizeof pipeline, chain, b.c_str(), b.c_str());
          const std::string desc = std::string(pipeline) + " ! cudainverse" + b;
          const std::string what = desc + " on " + format + " " + std::to_string(sz[0]) + "x" + std::to_string(sz[1]);
          Harness hx(desc.c_str());
          const bool ok = hx.set_caps(raw_caps(format, sz[0], sz[1]).c_str());
          CHECK_MSG(ok, "%s: caps refused: %s", what.c_str(), hx.errors().c_str());
          if (!ok) continue;
          push_pull_compare(hx, what, format, sz[0], sz[1]);
          ++runs;
        }
  return runs;
}

// A chain's caps and coefficients against the core library: `desc` on RGBA
// 17x13 must output transform=`transform` with `field` = `value`, samples of
// `type`, and the bytes of colour_forward(`colour`) followed by `second` on
// its planes.
using SecondStage = std::function<void(cf::Engine &, const cf::FrameView &, const cf::FrameView &)>;
static void chain_against_core(const char *desc, const char *transform, const char *field, int value,
                               cf::ColourTransform colour, const SecondStage &second,
                               cf::SampleType type = cf::SampleType::S16) {
  Harness hx(desc);
  CHECK(hx.set_caps(raw_caps("RGBA", 17, 13).c_str()));
  const GstVideoInfo info = video_info("RGBA", 17, 13);
  GstBuffer *in = random_frame(info, 5);
  gst_buffer_ref(in);
  CHECK(hx.push(in) == GST_FLOW_OK);
  GstBuffer *out = hx.pull();
  GstCaps *caps = hx.out_caps();
  const GstStructure *s = gst_caps_get_structure(caps, 0);
  int got = 0;
  CHECK_MSG(
      !g_strcmp0(gst_structure_get_string(s, "transform"), transform) && gst_structure_get_int(s, field, &got) &&
          got == value &&
          !g_strcmp0(gst_structure_get_string(s, "sample-format"), type == cf::SampleType::F32 ? "F32LE" : "S16LE") &&
          !g_strcmp0(gst_structure_get_string(s, "format"), "RGBA"),
      "%s: chain caps: %s", desc, caps_string(caps).c_str());
  gst_caps_unref(caps);
  // The same through the core API: 4 planes of 17x13 S16.
  GstMapInfo raw_map, coef_map;
  gst_buffer_map(in, &raw_map, GST_MAP_READ);
  cf::FrameView raw;
  raw.type = cf::SampleType::U8;
  raw.n_planes = 1;
  raw.planes[0] = {raw_map.data, GST_VIDEO_INFO_PLANE_STRIDE(&info, 0), 17 * 4, 13};
  raw.n_components = 4;
  cf::PlanarLayout layout;
  layout.n = 4;
  for (int c = 0; c < 4; ++c) {
    raw.components[c] = {0, c, 4, 17, 13};
    layout.width[c] = 17;
    layout.height[c] = 13;
  }
  std::vector<std::uint8_t> planes(cf::planar_size(layout, cf::SampleType::S16)), want(cf::planar_size(layout, type));
  cf::Engine cpu(cf::Backend::Cpu);
  const cf::FrameView cv = cf::planar_view(planes.data(), layout, cf::SampleType::S16, cf::Memory::Host);
  const cf::FrameView wv = cf::planar_view(want.data(), layout, type, cf::Memory::Host);
  cf::colour_forward(cpu, colour, raw, cv);
  second(cpu, cv, wv);
  CHECK(out != nullptr);
  if (out) {
    gst_buffer_map(out, &coef_map, GST_MAP_READ);
    CHECK_MSG(coef_map.size == want.size() && !std::memcmp(coef_map.data, want.data(), want.size()),
              "%s: %s coefficients differ from the core library's", desc, transform);
    gst_buffer_unmap(out, &coef_map);
    gst_buffer_unref(out);
  }
  gst_buffer_unmap(in, &raw_map);
  gst_buffer_unref(in);
}

static void chain_caps_and_coefficients() {
  const cf::ValueRange colour_range{-255, 255};
  chain_against_core("cudaycocg backend=cpu ! cudacdf53 levels=2 backend=openmp", "ycocg,cdf53", "cdf53-levels", 2,
                     cf::ColourTransform::YCoCg, [&](cf::Engine &e, const cf::FrameView &a, const cf::FrameView &b) {
                       cf::wavelet_forward(
                           e, cf::WaveletParams(cf::Wavelet::Cdf53, 2, cf::Layout::Mallat, colour_range), a, b);
                     });
  chain_against_core("cudarct backend=openmp ! cudamed slice-height=4 backend=openmp", "rct,med", "med-slice-height", 4,
                     cf::ColourTransform::Rct, [&](cf::Engine &e, const cf::FrameView &a, const cf::FrameView &b) {
                       cf::predictor_forward(e, cf::PredictorParams(cf::Predictor::Med, 40, 4, colour_range), a, b);
                     });
  for (float step : {0.f, 1.5f}) {
    cf::Cdf97Params p;
    p.levels = 2;
    p.quant_step = step;
    const std::string desc =
        "cudarct backend=cpu ! cudacdf97 levels=2 backend=openmp" + std::string(step > 0 ? " quant-step=1.5" : "");
    chain_against_core(
        desc.c_str(), "rct,cdf97", "cdf97-levels", 2, cf::ColourTransform::Rct,
        [&](cf::Engine &e, const cf::FrameView &a, const cf::FrameView &b) { cf::cdf97_forward(e, p, a, b); },
        step > 0 ? cf::SampleType::S16 : cf::SampleType::F32);
  }
}

// Element messages named cudaentropy, in order.
static std::vector<GstStructure *> entropy_messages(GstBus *bus) {
  std::vector<GstStructure *> v;
  while (GstMessage *m = gst_bus_pop_filtered(bus, GST_MESSAGE_ELEMENT)) {
    const GstStructure *s = gst_message_get_structure(m);
    if (gst_structure_has_name(s, "cudaentropy")) v.push_back(gst_structure_copy(s));
    gst_message_unref(m);
  }
  return v;
}

static double array_double(const GstStructure *s, const char *field, guint i) {
  const GValue *a = gst_structure_get_value(s, field);
  return a && GST_VALUE_HOLDS_ARRAY(a) && i < gst_value_array_get_size(a)
             ? g_value_get_double(gst_value_array_get_value(a, i))
             : -1;
}

static void entropy_element() {
  for (const char *backend : {"cpu", "openmp"}) {
    GstElement *e = gst_element_factory_make("cudaentropy", nullptr);
    gst_util_set_object_arg(G_OBJECT(e), "backend", backend);
    g_object_set(e, "interval", 3u, nullptr);
    Harness hx(e);
    CHECK(hx.set_caps(raw_caps("GRAY8", 8, 6).c_str()));
    const GstVideoInfo info = video_info("GRAY8", 8, 6);
    for (int frame = 0; frame < 7; ++frame) {
      GstBuffer *in = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
      GstMapInfo m;
      gst_buffer_map(in, &m, GST_MAP_WRITE);
      for (int y = 0; y < 6; ++y)  // frame 3: constant; else two values in equal numbers
        for (int x = 0; x < 8; ++x)
          m.data[y * GST_VIDEO_INFO_PLANE_STRIDE(&info, 0) + x] = frame == 3 ? 9 : x % 2 ? 200 : 3;
      gst_buffer_unmap(in, &m);
      gst_buffer_ref(in);
      CHECK(hx.push(in) == GST_FLOW_OK);
      GstBuffer *out = hx.pull();
      CHECK_MSG(out && same_bytes(in, out), "cudaentropy changed frame %d", frame);
      if (out) gst_buffer_unref(out);
      gst_buffer_unref(in);
    }
    std::vector<GstStructure *> msgs = entropy_messages(hx.bus);
    CHECK_MSG(msgs.size() == 3, "%s: interval=3 over 7 frames posted %zu messages", backend, msgs.size());
    const double want[] = {1.0, 0.0, 1.0};
    for (std::size_t i = 0; i < msgs.size() && i < 3; ++i) {
      guint64 frame = 0;
      double bpp = -1;
      gst_structure_get_uint64(msgs[i], "frame", &frame);
      gst_structure_get_double(msgs[i], "bits-per-pixel", &bpp);
      CHECK_MSG(frame == 3 * i && bpp == want[i] && array_double(msgs[i], "bits-per-sample", 0) == want[i],
                "%s message %zu: %s", backend, i, gst_structure_to_string(msgs[i]));
    }
    for (GstStructure *s : msgs) gst_structure_free(s);
  }
  {  // coefficient input names its chain; RGB: 3 planes
    Harness hx("cudarct backend=cpu ! cudaentropy backend=cpu");
    CHECK(hx.set_caps(raw_caps("RGB", 9, 5).c_str()));
    CHECK(hx.push(random_frame(video_info("RGB", 9, 5), 3)) == GST_FLOW_OK);
    if (GstBuffer *out = hx.pull()) gst_buffer_unref(out);
    std::vector<GstStructure *> msgs = entropy_messages(hx.bus);
    int planes = 0;
    CHECK_MSG(msgs.size() == 1 && !g_strcmp0(gst_structure_get_string(msgs[0], "transform"), "rct") &&
                  gst_structure_get_int(msgs[0], "planes", &planes) && planes == 3,
              "coefficient message: %s", msgs.empty() ? "none" : gst_structure_to_string(msgs[0]));
    for (GstStructure *s : msgs) gst_structure_free(s);
  }
  // The property's range refuses 0.
  GstElement *e = gst_element_factory_make("cudaentropy", nullptr);
  GParamSpecUInt *spec = G_PARAM_SPEC_UINT(g_object_class_find_property(G_OBJECT_GET_CLASS(e), "interval"));
  CHECK(spec->minimum == 1 && spec->default_value == 1);
  gst_object_unref(e);
}

static void expect_refused(const char *element, const std::string &caps, std::initializer_list<const char *> words) {
  Harness hx(element);
  CHECK_MSG(!hx.set_caps(caps.c_str()), "%s accepted %s", element, caps.c_str());
  const std::string err = hx.errors();
  for (const char *w : words)
    CHECK_MSG(contains(err, w), "%s, caps %s: error '%s' does not name '%s'", element, caps.c_str(), err.c_str(), w);
  CHECK(hx.push(gst_buffer_new_allocate(nullptr, 4096, nullptr)) != GST_FLOW_OK);
}

static std::string coeff(const char *chain, const char *format, const char *extra = "") {
  return std::string("video/x-coefficients, transform=(string)\"") + chain +
         "\", sample-format=(string)S16LE, format=(string)" + format + ", width=(int)16, height=(int)16" + extra;
}

static void bad_input() {
  for (const char *element : {"cudarct", "cudaycocg"})
    for (const char *format : {"GRAY8", "I420", "NV12", "Y444"})
      expect_refused(element, raw_caps(format, 16, 16), {format, "not RGB"});
  // A colour stage after a wavelet, a wavelet after a wavelet, a colour stage on YUV.
  expect_refused("cudainverse", coeff("cdf53,rct", "RGB", ", cdf53-levels=(int)1, cdf53-layout=(string)mallat"),
                 {"'transform'", "cdf53,rct", "last stage"});
  expect_refused("cudainverse", coeff("rct,ycocg", "RGB"), {"'transform'", "'ycocg' must be the first stage"});
  expect_refused("cudacdf53", coeff("haar", "RGB", ", haar-levels=(int)1, haar-layout=(string)mallat"),
                 {"cannot continue", "last stage"});
  expect_refused("cudainverse", coeff("rct", "I420"), {"'format'", "RGB"});
  expect_refused("cudainverse", coeff("ycocg,ycocg", "RGB"), {"twice"});
  {  // levels too deep for the chain's frame
    GstElement *e = gst_element_factory_make("cudacdf53", nullptr);
    g_object_set(e, "levels", 6, nullptr);
    Harness hx(e);
    CHECK(!hx.set_caps(coeff("ycocg", "RGB").c_str()));
    const std::string err = hx.errors();
    CHECK_MSG(contains(err, "levels=6") && contains(err, "at most") && contains(err, "[-255, 255]"), "'%s'",
              err.c_str());
  }
  // Coefficients of 16-bit video (S32) into cudaentropy.
  expect_refused("cudaentropy",
                 "video/x-coefficients, transform=(string)haar, haar-levels=(int)1, haar-layout=(string)mallat, "
                 "sample-format=(string)S32LE, format=(string)GRAY16_LE, width=(int)16, height=(int)16",
                 {"S32"});
  expect_refused("cudaentropy",
                 "video/x-coefficients, transform=(string)cdf97, cdf97-levels=(int)1, cdf97-layout=(string)mallat, "
                 "cdf97-quant-step=(double)0, cdf97-threshold=(double)0, cdf97-threshold-mode=(string)hard, "
                 "sample-format=(string)F32LE, format=(string)GRAY8, width=(int)16, height=(int)16",
                 {"F32"});
  // Anything after a predictor; a predictor after a wavelet or a predictor.
  expect_refused("cudacdf53", coeff("rct,med", "RGB", ", med-slice-height=(int)0"), {"cannot continue", "last stage"});
  expect_refused("cudahaar", coeff("gap", "RGB", ", gap-slice-height=(int)0"),
                 {"cannot continue", "'gap'", "last stage"});
  expect_refused("cudamed", coeff("cdf53", "RGB", ", cdf53-levels=(int)1, cdf53-layout=(string)mallat"),
                 {"cannot continue", "'cdf53'", "last stage"});
  expect_refused("cudacdf97", coeff("rct,cdf53", "RGB", ", cdf53-levels=(int)1, cdf53-layout=(string)mallat"),
                 {"cannot continue", "'cdf53'", "last stage"});
  expect_refused("cudaged", coeff("rct,gap", "RGB", ", gap-slice-height=(int)0"), {"cannot continue", "last stage"});
  expect_refused("cudainverse",
                 coeff("med,cdf53", "RGB",
                       ", med-slice-height=(int)0, cdf53-levels=(int)1, "
                       "cdf53-layout=(string)mallat"),
                 {"'transform'", "'med' must be the last stage"});
  expect_refused("cudainverse",
                 coeff("haar,gap", "RGB",
                       ", gap-slice-height=(int)0, haar-levels=(int)1, "
                       "haar-layout=(string)mallat"),
                 {"'transform'", "'haar' must be the last stage"});
  // gst-launch: a colour element cannot follow a wavelet at all.
  GError *error = nullptr;
  GstElement *p = gst_parse_bin_from_description("cudahaar ! cudarct", TRUE, &error);
  CHECK_MSG(error != nullptr, "cudahaar ! cudarct linked");
  if (error) std::printf("cudahaar ! cudarct: %s\n", error->message);
  g_clear_error(&error);
  if (p) gst_object_unref(p);
}

int main(int argc, char **argv) {
  init(&argc, &argv);
  const int runs = round_trips();
  std::printf("%d round trips through colour elements and chains\n", runs);
  std::printf("%d round trips through a colour stage and a predictor\n", predictor_round_trips());
  chain_caps_and_coefficients();
  entropy_element();
  bad_input();
  return cft::test_result();
}
