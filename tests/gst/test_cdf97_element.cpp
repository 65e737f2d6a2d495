// cudacdf97 in a GstHarness: output caps and buffer sizes (F32LE, S16LE
// with quant-step), a known answer (a constant frame's LL band), exact
// round trips through cudainverse for every format and odd sizes, lossy
// round trips with quantisation, and clear errors for bad levels and caps.
#include <cmath>
#include <cstring>

#include "gst_util.hpp"

using namespace cfgt;

static std::string field(GstCaps *caps, const char *name) {
  const GValue *v = caps ? gst_structure_get_value(gst_caps_get_structure(caps, 0), name) : nullptr;
  if (!v) return "";
  gchar *s = gst_value_serialize(v);
  std::string out = s ? s : "";
  g_free(s);
  return out;
}

static void output_caps_and_values() {
  for (const char *q : {"", " quant-step=4"}) {
    Harness hx((std::string("cudacdf97 levels=2") + q).c_str());
    CHECK(hx.set_caps(raw_caps("GRAY8", 17, 13).c_str()));
    const GstVideoInfo info = video_info("GRAY8", 17, 13);
    GstBuffer *in = gst_buffer_new_allocate(nullptr, info.size, nullptr);
    gst_buffer_memset(in, 0, 100, info.size);
    CHECK(hx.push(in) == GST_FLOW_OK);
    GstBuffer *out = hx.pull();
    GstCaps *caps = hx.out_caps();
    const bool quant = *q != 0;
    CHECK_MSG(field(caps, "sample-format") == (quant ? "S16LE" : "F32LE"), "sample-format %s",
              field(caps, "sample-format").c_str());
    CHECK(field(caps, "transform") == "cdf97");
    CHECK(field(caps, "cdf97-levels") == "2");
    CHECK(field(caps, "cdf97-layout") == "mallat");
    CHECK(field(caps, "cdf97-threshold-mode") == "hard");
    CHECK(out && gst_buffer_get_size(out) == std::size_t(17 * 13 * (quant ? 2 : 4)));
    if (out) {
      // LL of a constant 100 after 2 levels: 100 * 2^2 (gain sqrt(2) per 1-D pass).
      if (quant) {
        std::int16_t k;
        gst_buffer_extract(out, 0, &k, 2);
        CHECK_MSG(k == 100, "index %d, want floor(400 / 4)", k);
      } else {
        float v;
        gst_buffer_extract(out, 0, &v, 4);
        CHECK_MSG(std::fabs(v - 400.0f) < 1e-3f, "LL %g, want 400", v);
      }
      gst_buffer_unref(out);
    }
    if (caps) gst_caps_unref(caps);
  }
}

static int round_trips() {
  int runs = 0;
  const int sizes[][2] = {{1, 1}, {2, 1}, {7, 5}, {33, 17}};
  for (const FormatSpec &f : formats())
    for (const auto &sz : sizes)
      for (const char *layout : {"mallat", "standard"}) {
        const std::string desc = std::string("cudacdf97 levels=1 layout=") + layout + " ! cudainverse";
        Harness hx(desc.c_str());
        const bool ok = hx.set_caps(raw_caps(f.name, sz[0], sz[1]).c_str());
        CHECK_MSG(ok, "%s %s %dx%d: caps refused: %s", desc.c_str(), f.name, sz[0], sz[1], hx.errors().c_str());
        if (!ok) continue;
        const GstVideoInfo info = video_info(f.name, sz[0], sz[1]);
        GstBuffer *in = random_frame(info, 7 + sz[0], Padding::Zero);
        gst_buffer_ref(in);
        CHECK(hx.push(in) == GST_FLOW_OK);
        GstBuffer *out = hx.pull();
        CHECK(out != nullptr);
        if (out) {
          const std::string diff = compare_buffers(info, in, out);
          CHECK_MSG(diff.empty(), "%s %s %dx%d: %s", desc.c_str(), f.name, sz[0], sz[1], diff.c_str());
          gst_buffer_unref(out);
        }
        gst_buffer_unref(in);
        ++runs;
      }
  return runs;
}

// With quant-step 2 on a smooth 8-bit ramp: close (PSNR well above 40 dB), not exact.
static void lossy() {
  Harness hx("cudacdf97 levels=3 quant-step=2 threshold=1 threshold-mode=soft ! cudainverse");
  CHECK(hx.set_caps(raw_caps("GRAY8", 64, 48).c_str()));
  const GstVideoInfo info = video_info("GRAY8", 64, 48);
  GstBuffer *in = gst_buffer_new_allocate(nullptr, info.size, nullptr);
  GstMapInfo m;
  gst_buffer_map(in, &m, GST_MAP_WRITE);
  for (int y = 0; y < 48; ++y)
    for (int x = 0; x < 64; ++x) m.data[y * GST_VIDEO_INFO_PLANE_STRIDE(&info, 0) + x] = std::uint8_t(2 * x + y);
  gst_buffer_unmap(in, &m);
  gst_buffer_ref(in);
  CHECK(hx.push(in) == GST_FLOW_OK);
  GstBuffer *out = hx.pull();
  CHECK(out != nullptr);
  if (out) {
    GstMapInfo a, b;
    gst_buffer_map(in, &a, GST_MAP_READ);
    gst_buffer_map(out, &b, GST_MAP_READ);
    double se = 0;
    for (int y = 0; y < 48; ++y)
      for (int x = 0; x < 64; ++x) {
        const int i = y * GST_VIDEO_INFO_PLANE_STRIDE(&info, 0) + x;
        se += double(a.data[i] - b.data[i]) * (a.data[i] - b.data[i]);
      }
    const double psnr = se == 0 ? 999 : 10 * std::log10(255.0 * 255 / (se / (64 * 48)));
    std::printf("ramp 64x48 quant-step=2 threshold=1 soft: PSNR %.2f dB\n", psnr);
    CHECK_MSG(psnr > 40, "PSNR %g", psnr);
    gst_buffer_unmap(in, &a);
    gst_buffer_unmap(out, &b);
    gst_buffer_unref(out);
  }
  gst_buffer_unref(in);
}

static void bad_input() {
  {
    Harness hx("cudacdf97 levels=6");
    CHECK(!hx.set_caps(raw_caps("GRAY8", 17, 13).c_str()));
    const std::string e = hx.errors();
    CHECK_MSG(contains(e, "cdf97-levels") && contains(e, "too deep") && contains(e, "at most 5"), "%s", e.c_str());
  }
  const std::string base =
      "video/x-coefficients, transform=(string)cdf97, cdf97-levels=(int)1, "
      "cdf97-layout=(string)mallat, cdf97-threshold=(double)0, "
      "cdf97-threshold-mode=(string)hard, format=(string)GRAY8, width=(int)8, height=(int)8, ";
  struct Case {
    std::string caps;
    const char *want;
  } cases[] = {
      {base + "cdf97-quant-step=(double)-1, sample-format=(string)S16LE", "cdf97-quant-step"},
      {base + "cdf97-quant-step=(double)4, sample-format=(string)F32LE", "sample-format"},
      {base + "cdf97-quant-step=(double)0, sample-format=(string)S16LE", "sample-format"},
      {base + "cdf97-quant-step=(int)4, sample-format=(string)S16LE", "cdf97-quant-step"},
  };
  for (const Case &c : cases) {
    Harness hx("cudainverse");
    CHECK_MSG(!hx.set_caps(c.caps.c_str()), "accepted %s", c.caps.c_str());
    const std::string e = hx.errors();
    CHECK_MSG(contains(e, c.want), "%s: error '%s' does not name %s", c.caps.c_str(), e.c_str(), c.want);
  }
  // A buffer of the wrong size: an error, no crash.
  Harness hx("cudacdf97");
  CHECK(hx.set_caps(raw_caps("GRAY8", 8, 8).c_str()));
  CHECK(hx.push(gst_buffer_new_allocate(nullptr, 10, nullptr)) != GST_FLOW_OK);
  CHECK(!hx.errors().empty());
}

int main(int argc, char **argv) {
  init(&argc, &argv);
  output_caps_and_values();
  const int runs = round_trips();
  lossy();
  bad_input();
  std::printf("%d exact round trips\n", runs);
  return cft::test_result();
}
