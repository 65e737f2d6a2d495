// cudaj2kenc, checked by GStreamer's own JPEG 2000 decoder and muxers:
//  - properties: names, ranges and defaults; the src caps and their fields
//    (colorspace, sampling, num-components), which openjpegdec accepts;
//  - reversible coding gives the input back exactly through openjpegdec,
//    for every sink format at 1x1, 7x3, 33x17 and 321x241 (the 12-bit and
//    GBR formats, which openjpegdec does not output, through
//    opj_decompress), and for
//    settings of levels, code-blocks, progressions, layers, tiles and each
//    code-block style the core accepts;
//  - irreversible coding decodes to a picture close to the input (PSNR),
//    and `bitrate` bounds the codestream's size;
//  - image/x-j2c is the codestream in a 'jp2c' box; every buffer a sync point;
//  - mxfmux and mj2mux files, demuxed and decoded, equal the source;
//  - cpu and openmp give the same codestream bytes;
//  - refused settings and bad input are element errors naming the rule;
//  - memory:CUDAMemory (cudaupload) where nvcodec and a GPU are present.
// Known answers come from OpenJPEG (openjpegdec) and the source frames.
#include <gst/app/gstappsink.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "cudafilters/engine.hpp"
#include "cudafilters/j2k.hpp"
#include "gst_util.hpp"
#include "j2k_element_util.hpp"
#include "shell.hpp"

using namespace cfgt;

static const char *const kFormats[] = {"GRAY8", "GRAY16_LE", "RGB",  "BGR",  "RGBA", "BGRA",
                                       "RGBx",  "BGRx",      "I420", "Y42B", "Y444"};
struct Size {
  int w, h;
};
static const Size kSizes[] = {{1, 1}, {7, 3}, {33, 17}, {321, 241}};

// PSNR in dB of 8-bit frames over every component's samples (the same
// components, in any byte order).
static double psnr(const GstVideoInfo &info_a, GstBuffer *a, const GstVideoInfo &info_b, GstBuffer *b) {
  if (GST_VIDEO_INFO_N_COMPONENTS(&info_a) != GST_VIDEO_INFO_N_COMPONENTS(&info_b)) return 0;
  const GstVideoInfo &info = info_a;
  GstVideoInfo ia = info_a, ib = info_b;
  GstVideoFrame fa, fb;
  if (!gst_video_frame_map(&fa, &ia, a, GST_MAP_READ)) return 0;
  if (!gst_video_frame_map(&fb, &ib, b, GST_MAP_READ)) {
    gst_video_frame_unmap(&fa);
    return 0;
  }
  double sse = 0;
  long long n = 0;
  for (guint c = 0; c < GST_VIDEO_INFO_N_COMPONENTS(&info); ++c)
    for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&fa, c); ++y)
      for (int x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH(&fa, c); ++x) {
        const int d = int(GST_VIDEO_FRAME_COMP_DATA(
                          &fa, c)[y * GST_VIDEO_FRAME_COMP_STRIDE(&fa, c) + x * GST_VIDEO_FRAME_COMP_PSTRIDE(&fa, c)]) -
                      int(GST_VIDEO_FRAME_COMP_DATA(
                          &fb, c)[y * GST_VIDEO_FRAME_COMP_STRIDE(&fb, c) + x * GST_VIDEO_FRAME_COMP_PSTRIDE(&fb, c)]);
        sse += double(d) * d;
        ++n;
      }
  gst_video_frame_unmap(&fa);
  gst_video_frame_unmap(&fb);
  return sse == 0 ? 99 : 10 * std::log10(255.0 * 255.0 * double(n) / sse);
}

static void unref_all(std::vector<GstBuffer *> &v) {
  for (GstBuffer *b : v) gst_buffer_unref(b);
  v.clear();
}

static std::string source(const char *format, int w, int h, int frames, const char *pattern = "snow") {
  return "videotestsrc num-buffers=" + std::to_string(frames) + " pattern=" + pattern +
         " ! video/x-raw,format=" + format + ",width=" + std::to_string(w) + ",height=" + std::to_string(h) +
         ",framerate=25/1 ! tee name=t  t. ! queue ! appsink name=a sync=false wait-on-eos=false  t. ! queue ! ";
}

// The source frames (appsink a) and what `coding` (between the tee and
// appsink b, converted back to `format`) gives; empty vectors on failure.
struct Frames {
  std::vector<GstBuffer *> source, decoded;
  GstVideoInfo source_info, decoded_info;
  ~Frames() {
    unref_all(source);
    unref_all(decoded);
  }
};
static bool run_coded(const std::string &desc, Frames *f) {
  GstElement *p = launch(desc);
  if (!p) return false;
  const std::string err = run(p);
  CHECK_MSG(err.empty(), "%s: %s", desc.c_str(), err.c_str());
  f->source = pull_all(p, "a", &f->source_info);
  f->decoded = pull_all(p, "b", &f->decoded_info);
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(p);
  return err.empty();
}

// openjpegdec's output as it is: no videoconvert, which loses pixels of
// 1-pixel-wide RGB in GStreamer 1.22; the components are compared
// whatever their byte order.
static const char *const kDecoded = " ! openjpegdec ! appsink name=b sync=false wait-on-eos=false";

// Reversible coding with `props` through openjpegdec equals the source.
static void lossless(const char *format, int w, int h, const std::string &props, int frames = 2) {
  const std::string desc = source(format, w, h, frames) + "cudaj2kenc backend=cpu " + props + kDecoded;
  Frames f;
  if (!run_coded(desc, &f)) return;
  CHECK_MSG(f.source.size() == std::size_t(frames) && f.decoded.size() == f.source.size(),
            "%s: %zu source and %zu decoded frames", desc.c_str(), f.source.size(), f.decoded.size());
  for (std::size_t i = 0; i < f.source.size() && i < f.decoded.size(); ++i) {
    const std::string diff = compare_components(f.source_info, f.source[i], f.decoded_info, f.decoded[i]);
    CHECK_MSG(diff.empty(), "%s: frame %zu: %s", desc.c_str(), i, diff.c_str());
  }
}

// The 10- and 12-bit planar formats: those openjpegdec outputs (10-bit
// YUV) through it, the others through opj_decompress; either way every
// sample equals the source's.
static const char *const kDeepFormats[] = {"I420_10LE", "I422_10LE", "Y444_10LE", "GBR_10LE",
                                           "I420_12LE", "I422_12LE", "Y444_12LE", "GBR_12LE"};
static bool openjpegdec_outputs(const char *format) {
  return !std::strcmp(format, "I420_10LE") || !std::strcmp(format, "I422_10LE") || !std::strcmp(format, "Y444_10LE");
}

static std::string levels_prop(const char *format, int w, int h);
static std::vector<std::uint8_t> bytes_of(GstBuffer *b);

// The samples of a PGX file as opj_decompress writes them ("PG ML + depth
// w h", big-endian 16-bit samples above depth 8); empty when unreadable.
static std::vector<int> pgx_samples(const std::string &path, int &w, int &h) {
  std::ifstream f(path, std::ios::binary);
  std::string magic, order, sign;
  int depth = 0;
  if (!(f >> magic >> order >> sign >> depth >> w >> h) || magic != "PG" || order != "ML" || sign != "+") return {};
  f.get();  // the newline
  std::vector<int> v(std::size_t(w) * h);
  for (int &x : v) {
    const int hi = depth > 8 ? f.get() : 0, lo = f.get();
    x = hi << 8 | lo;
  }
  return f ? v : std::vector<int>{};
}

// Reversible coding of the formats openjpegdec does not output (12-bit
// planar, GBR): opj_decompress decodes the codestream to one PGX per
// component, each equal to the source's component.
static void lossless_by_opj(const char *format, int w, int h, const std::string &props) {
  const std::string desc =
      source(format, w, h, 1) + "cudaj2kenc backend=cpu " + props + " ! appsink name=b sync=false wait-on-eos=false";
  GstElement *p = launch(desc);
  if (!p) return;
  const std::string err = run(p);
  CHECK_MSG(err.empty(), "%s: %s", desc.c_str(), err.c_str());
  GstVideoInfo info;
  std::vector<GstBuffer *> src = pull_all(p, "a", &info), coded;
  GstElement *sink = gst_bin_get_by_name(GST_BIN(p), "b");
  while (GstSample *s = sink ? gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 0) : nullptr) {
    coded.push_back(gst_buffer_ref(gst_sample_get_buffer(s)));
    gst_sample_unref(s);
  }
  if (sink) gst_object_unref(sink);
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(p);
  CHECK_MSG(src.size() == 1 && coded.size() == 1, "%s: %zu source, %zu coded frames", desc.c_str(), src.size(),
            coded.size());
  cft::TempDir dir;
  if (src.size() == 1 && coded.size() == 1 && !dir.path.empty()) {
    const std::vector<std::uint8_t> bytes = bytes_of(coded[0]);
    std::ofstream(dir.path + "/f.j2k", std::ios::binary)
        .write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
    // Subsampled chroma decoded a component at a time (-c): opj_decompress
    // would take three components with subsampled chroma for sYCC and
    // write them as RGB at full size. Full-size ones together, so that the
    // colour transform (GBR) is undone.
    const bool subsampled = GST_VIDEO_FORMAT_INFO_W_SUB(info.finfo, 1) || GST_VIDEO_FORMAT_INFO_H_SUB(info.finfo, 1);
    const guint n = GST_VIDEO_INFO_N_COMPONENTS(&info);
    std::string out;
    for (guint c = 0; c < (subsampled ? n : 1); ++c) {
      const std::string pgx = dir.path + "/c" + std::to_string(c) + ".pgx";
      const std::string only = subsampled ? " -c " + std::to_string(c) : "";
      CHECK_MSG(cft::run_command("opj_decompress -i " + dir.path + "/f.j2k -o " + pgx + only, out) == 0,
                "%s: opj_decompress: %s", desc.c_str(), out.c_str());
    }
    GstVideoFrame frame;
    gst_video_frame_map(&frame, &info, src[0], GST_MAP_READ);
    for (guint c = 0; c < n; ++c) {
      int pw = 0, ph = 0;
      const std::string pgx = subsampled ? "/c" + std::to_string(c) + "_0.pgx" : "/c0_" + std::to_string(c) + ".pgx";
      const std::vector<int> got = pgx_samples(dir.path + pgx, pw, ph);
      const int cw = GST_VIDEO_FRAME_COMP_WIDTH(&frame, c), ch = GST_VIDEO_FRAME_COMP_HEIGHT(&frame, c);
      CHECK_MSG(!got.empty() && pw == cw && ph == ch, "%s: component %u: opj_decompress gives %dx%d, not %dx%d",
                desc.c_str(), c, pw, ph, cw, ch);
      long long differ = 0;
      for (int y = 0; y < ch && !got.empty() && pw == cw && ph == ch; ++y)
        for (int x = 0; x < cw; ++x) {
          const auto *q = GST_VIDEO_FRAME_COMP_DATA(&frame, c) + y * GST_VIDEO_FRAME_COMP_STRIDE(&frame, c) +
                          x * GST_VIDEO_FRAME_COMP_PSTRIDE(&frame, c);
          differ += (q[0] | q[1] << 8) != got[std::size_t(y) * cw + x];
        }
      CHECK_MSG(differ == 0, "%s: component %u: %lld samples differ from opj_decompress's", desc.c_str(), c, differ);
    }
    gst_video_frame_unmap(&frame);
  }
  unref_all(src);
  unref_all(coded);
}

static void deep_formats() {
  if (!cft::have_tool("opj_decompress")) {
    std::printf("SKIP: 10- and 12-bit planar formats: no opj_decompress\n");
    return;
  }
  int runs = 0;
  for (const char *format : kDeepFormats)
    for (const Size &s : {Size{7, 3}, Size{33, 17}}) {
      if (openjpegdec_outputs(format))
        lossless(format, s.w, s.h, levels_prop(format, s.w, s.h));
      else
        lossless_by_opj(format, s.w, s.h, levels_prop(format, s.w, s.h));
      ++runs;
    }
  std::printf("10- and 12-bit planar formats, reversible round trips: %d\n", runs);
}

static std::string levels_prop(const char *format, int w, int h) {
  return "levels=" + std::to_string(levels_for(format, w, h));
}

static void every_format_and_size() {
  int runs = 0;
  for (const char *format : kFormats)
    for (const Size &s : kSizes) {
      // Both media types through openjpegdec: it lists image/x-j2c first.
      const bool jpc = s.w == 1 || s.w == 33;
      lossless(format, s.w, s.h, levels_prop(format, s.w, s.h) + (jpc ? " ! image/x-jpc" : ""));
      ++runs;
    }
  std::printf("reversible round trips through openjpegdec: %d formats x sizes\n", runs);
}

// The core's message for a style or a setting, from the API (empty: accepted).
static std::string core_check(const cf::J2kSettings &s, int w = 64, int h = 64) {
  std::vector<std::uint8_t> gray(std::size_t(w) * h);
  cf::J2kInput in;
  in.frame.n_planes = in.frame.n_components = 1;
  in.frame.planes[0] = {gray.data(), w, w, h};
  in.frame.components[0].width = w;
  in.frame.components[0].height = h;
  return cf::j2k_encode_check(in, s);
}

static void settings_round_trips() {
  const char *const progressions[] = {"lrcp", "rlcp", "rpcl", "pcrl", "cprl"};
  std::vector<std::string> props = {"levels=0",
                                    "levels=1",
                                    "codeblock-width=4 codeblock-height=4",
                                    "codeblock-width=32 codeblock-height=16",
                                    "codeblock-width=1024 codeblock-height=4",
                                    "codeblock-width=4 codeblock-height=1024",
                                    "layers=3",
                                    "layers=7 progression=rpcl",
                                    "tile-width=16 tile-height=8 levels=0",
                                    "tile-width=48 tile-height=32 levels=2",
                                    "tile-width=100 tile-height=64 levels=3",
                                    "tile-width=100 tile-height=64 levels=3 markers=tlm+plt",
                                    "tile-width=100 tile-height=64 levels=3 progression=rpcl tile-parts=resolution "
                                    "markers=tlm",
                                    "layers=3 tile-parts=layer",
                                    "progression=cprl tile-parts=component",
                                    "precincts=64,64 levels=3",
                                    "precincts=32,32,16,8 progression=rpcl tile-width=100 tile-height=64 levels=3",
                                    "precincts=16,16,4,8 progression=pcrl layers=2 levels=3"};
  for (const char *p : progressions) props.push_back(std::string("progression=") + p + " layers=2");
  static const struct {
    const char *nick;
    unsigned bit;
  } styles[] = {
      {"bypass", cf::j2k_style::kBypass},           {"reset", cf::j2k_style::kReset},
      {"restart", cf::j2k_style::kRestart},         {"vertical-causal", cf::j2k_style::kVerticalCausal},
      {"predictable", cf::j2k_style::kPredictable}, {"segmentation-symbols", cf::j2k_style::kSegmentationSymbols}};
  std::string all;
  for (const auto &st : styles) {
    cf::J2kSettings s;
    s.levels = 3;
    s.codeblock_style = st.bit;
    const std::string why = core_check(s);
    if (!why.empty()) {
      std::printf("SKIP: codeblock-style=%s is refused by the core: %s\n", st.nick, why.c_str());
      continue;
    }
    props.push_back(std::string("codeblock-style=") + st.nick);
    all += std::string(all.empty() ? "" : "+") + st.nick;
  }
  if (all.find('+') != std::string::npos) props.push_back("codeblock-style=" + all);
  for (const std::string &p : props) {
    lossless("RGB", 321, 241, p + (p.find("levels") == std::string::npos ? " levels=5" : ""), 1);
    lossless("I420", 33, 17, p.find("levels") == std::string::npos ? p + " levels=3" : p, 1);
  }
  std::printf("reversible settings through openjpegdec: %zu\n", props.size());
}

static void irreversible() {
  // Smooth content: a quantised wavelet is meant for pictures, not noise.
  struct Case {
    const char *format, *props;
    double min_psnr;
  } cases[] = {{"RGB", "reversible=false", 50},
               {"I420", "reversible=false", 50},
               {"GRAY8", "reversible=false", 50},
               {"RGBA", "reversible=false layers=3", 50},
               {"RGB", "reversible=false bitrate=2", 40},
               {"RGB", "reversible=false bitrate=0.5", 25},
               {"Y444", "reversible=false bitrate=1 layers=4", 33}};
  for (const Case &c : cases) {
    const std::string desc = source(c.format, 321, 241, 1, "pinwheel") + "cudaj2kenc backend=cpu " + c.props + kDecoded;
    Frames f;
    if (!run_coded(desc, &f) || f.decoded.size() != 1 || f.source.size() != 1) {
      CHECK_MSG(false, "%s: no decoded frame", desc.c_str());
      continue;
    }
    const double db = psnr(f.source_info, f.source[0], f.decoded_info, f.decoded[0]);
    std::printf("%s %s: PSNR %.1f dB\n", c.format, c.props, db);
    CHECK_MSG(db >= c.min_psnr && db < 99, "%s: PSNR %.1f dB (expected %.0f or more, and not lossless)", desc.c_str(),
              db, c.min_psnr);
  }
}

// ---------------------------------------------------------------------------
// Caps, buffers, properties (GstHarness)

static GstBuffer *encode_one(const char *element, const char *format, int w, int h, std::uint32_t seed,
                             std::string *caps_out = nullptr) {
  Harness hx(element);
  if (!hx.set_caps(raw_caps(format, w, h).c_str())) {
    CHECK_MSG(false, "%s: %s caps refused: %s", element, format, hx.errors().c_str());
    return nullptr;
  }
  CHECK_MSG(hx.push(random_frame(video_info(format, w, h), seed)) == GST_FLOW_OK, "%s %s: %s", element, format,
            hx.errors().c_str());
  GstBuffer *out = hx.pull();
  if (caps_out) {
    GstCaps *c = hx.out_caps();
    *caps_out = caps_string(c);
    if (c) gst_caps_unref(c);
  }
  return out;
}

// `bitrate` bounds the whole codestream: at most width x height x bitrate / 8
// bytes, and noise (which needs more) fills most of it.
static void rate_budget() {
  for (double bpp : {0.25, 1.0, 3.0})
    for (const char *format : {"RGB", "I420", "GRAY16_LE"}) {
      char element[96];
      std::snprintf(element, sizeof element, "cudaj2kenc backend=cpu reversible=false layers=2 bitrate=%g", bpp);
      GstBuffer *out = encode_one(element, format, 321, 241, 11);
      const double budget = std::floor(321.0 * 241.0 * bpp / 8);
      const double size = out ? double(gst_buffer_get_size(out)) : 0;
      CHECK_MSG(size <= budget && size >= 0.8 * budget, "%s %s: %.0f bytes for a budget of %.0f", element, format, size,
                budget);
      if (out) gst_buffer_unref(out);
    }
}

// `markers` puts TLM in the main header and PLT in each tile-part header
// (their contents: test_j2k_encoder), nothing without it.
static void length_markers() {
  for (const char *markers : {"", " markers=tlm", " markers=plt", " markers=tlm+plt"}) {
    const std::string element = std::string("cudaj2kenc backend=cpu tile-width=128 tile-height=128") + markers;
    GstBuffer *out = encode_one(element.c_str(), "RGB", 321, 241, 13);
    GstMapInfo map;
    if (!out || !gst_buffer_map(out, &map, GST_MAP_READ)) {
      CHECK_MSG(false, "%s: no codestream", element.c_str());
      if (out) gst_buffer_unref(out);
      continue;
    }
    // Marker segments from SIZ to the first SOT (the main header), then
    // the segments of the first tile-part header, up to SOD.
    bool tlm = false, plt = false;
    std::size_t pos = 2, sot = 0;
    while (pos + 4 <= map.size && map.data[pos] == 0xFF && map.data[pos + 1] != 0x93) {
      const unsigned m = map.data[pos + 1];
      if (m == 0x90) sot = pos;
      tlm |= m == 0x55 && sot == 0;
      plt |= m == 0x58 && sot != 0;
      pos += 2 + (std::size_t(map.data[pos + 2]) << 8 | map.data[pos + 3]);
    }
    const bool want_tlm = std::strstr(markers, "tlm") != nullptr, want_plt = std::strstr(markers, "plt") != nullptr;
    CHECK_MSG(sot && tlm == want_tlm && plt == want_plt, "%s: TLM %d, PLT %d", element.c_str(), tlm, plt);
    gst_buffer_unmap(out, &map);
    gst_buffer_unref(out);
  }
}

// `max-bytes` caps every codestream, lossless coding included: noise
// (which needs more) lands within 2 % under the cap; a cap the frame fits
// leaves its bytes alone.
static void byte_limit() {
  for (const char *coder : {"part1", "ht"})
    for (const char *format : {"RGB", "I420"}) {
      char element[128];
      std::snprintf(element, sizeof element, "cudaj2kenc backend=cpu block-coder=%s", coder);
      GstBuffer *free = encode_one(element, format, 321, 241, 12);
      const std::size_t full = free ? gst_buffer_get_size(free) : 0;
      const std::size_t cap = full / 4;
      std::snprintf(element, sizeof element, "cudaj2kenc backend=cpu block-coder=%s max-bytes=%zu", coder, cap);
      GstBuffer *out = encode_one(element, format, 321, 241, 12);
      const double size = out ? double(gst_buffer_get_size(out)) : 0;
      CHECK_MSG(size <= double(cap) && size >= 0.98 * double(cap), "%s %s: %.0f bytes for a cap of %zu", element,
                format, size, cap);
      if (out) gst_buffer_unref(out);
      if (free) gst_buffer_unref(free);
    }
}

// Under max-bytes each frame's size comes in an element message: frame
// numbers in order, the buffer's bytes, the limit, and bits per pixel;
// without a limit no message.
static void size_messages() {
  for (const char *props : {"max-bytes=9000", ""}) {
    Harness hx((std::string("cudaj2kenc backend=cpu ") + props).c_str());
    CHECK(hx.set_caps(raw_caps("RGB", 96, 64).c_str()));
    std::vector<std::size_t> sizes;
    for (std::uint32_t i = 0; i < 3; ++i) {
      CHECK(hx.push(random_frame(video_info("RGB", 96, 64), 30 + i)) == GST_FLOW_OK);
      if (GstBuffer *out = hx.pull()) {
        sizes.push_back(gst_buffer_get_size(out));
        gst_buffer_unref(out);
      }
    }
    std::vector<GstStructure *> m;
    while (GstMessage *msg = gst_bus_pop_filtered(hx.bus, GST_MESSAGE_ELEMENT)) {
      if (gst_structure_has_name(gst_message_get_structure(msg), "cudaj2kenc"))
        m.push_back(gst_structure_copy(gst_message_get_structure(msg)));
      gst_message_unref(msg);
    }
    const bool limited = *props != 0;
    CHECK_MSG(m.size() == (limited ? sizes.size() : 0), "%s: %zu size messages for %zu frames", props, m.size(),
              sizes.size());
    for (std::size_t i = 0; i < m.size() && i < sizes.size(); ++i) {
      guint64 frame = 99, bytes = 0, limit = 0;
      double bpp = 0;
      gst_structure_get_uint64(m[i], "frame", &frame);
      gst_structure_get_uint64(m[i], "bytes", &bytes);
      gst_structure_get_uint64(m[i], "max-bytes", &limit);
      gst_structure_get_double(m[i], "bits-per-pixel", &bpp);
      CHECK_MSG(frame == i && bytes == sizes[i] && bytes <= 9000 && limit == 9000 &&
                    std::fabs(bpp - 8.0 * double(bytes) / (96 * 64)) < 1e-9,
                "message %zu: frame %llu, %llu bytes (buffer %zu), max %llu, %.3f bpp", i, (unsigned long long)frame,
                (unsigned long long)bytes, sizes[i], (unsigned long long)limit, bpp);
    }
    for (GstStructure *st : m) gst_structure_free(st);
  }
}

static std::vector<std::uint8_t> bytes_of(GstBuffer *b) {
  GstMapInfo m;
  std::vector<std::uint8_t> v;
  if (b && gst_buffer_map(b, &m, GST_MAP_READ)) {
    v.assign(m.data, m.data + m.size);
    gst_buffer_unmap(b, &m);
  }
  return v;
}

static void caps_fields() {
  // What GStreamer's JPEG 2000 caps say of each format (openjpegenc writes
  // the same): colour space, sampling, components.
  // What the codestream's SIZ and COD say: bits per sample, the chroma's
  // subsampling, and whether the colour transform is on (RGB only).
  struct Expect {
    const char *format, *colorspace, *sampling;
    int components, depth, chroma_x, chroma_y;
    bool mct;
  } expect[] = {{"GRAY8", "GRAY", "GRAYSCALE", 1, 8, 1, 1, false},
                {"GRAY16_LE", "GRAY", "GRAYSCALE", 1, 16, 1, 1, false},
                {"RGB", "sRGB", "RGB", 3, 8, 1, 1, true},
                {"BGR", "sRGB", "RGB", 3, 8, 1, 1, true},
                {"RGBA", "sRGB", "RGBA", 4, 8, 1, 1, true},
                {"BGRA", "sRGB", "RGBA", 4, 8, 1, 1, true},
                {"RGBx", "sRGB", "RGB", 3, 8, 1, 1, true},
                {"BGRx", "sRGB", "RGB", 3, 8, 1, 1, true},
                {"I420", "sYUV", "YCbCr-4:2:0", 3, 8, 2, 2, false},
                {"Y42B", "sYUV", "YCbCr-4:2:2", 3, 8, 2, 1, false},
                {"Y444", "sYUV", "YCbCr-4:4:4", 3, 8, 1, 1, false},
                {"I420_10LE", "sYUV", "YCbCr-4:2:0", 3, 10, 2, 2, false},
                {"I422_12LE", "sYUV", "YCbCr-4:2:2", 3, 12, 2, 1, false},
                {"Y444_12LE", "sYUV", "YCbCr-4:4:4", 3, 12, 1, 1, false},
                {"GBR_10LE", "sRGB", "RGB", 3, 10, 1, 1, true},
                {"GBR_12LE", "sRGB", "RGB", 3, 12, 1, 1, true}};
  GstElementFactory *dec = gst_element_factory_find("openjpegdec");
  GstCaps *dec_sink = nullptr;
  for (const GList *l = dec ? gst_element_factory_get_static_pad_templates(dec) : nullptr; l; l = l->next) {
    auto *t = static_cast<GstStaticPadTemplate *>(l->data);
    if (t->direction == GST_PAD_SINK) dec_sink = gst_static_caps_get(&t->static_caps);
  }
  for (const Expect &e : expect) {
    std::string caps;
    GstBuffer *out = encode_one("cudaj2kenc backend=cpu levels=2", e.format, 17, 9, 1, &caps);
    CHECK_MSG(out, "%s: no output", e.format);
    GstCaps *c = gst_caps_from_string(caps.c_str());
    const GstStructure *s = c && !gst_caps_is_empty(c) ? gst_caps_get_structure(c, 0) : nullptr;
    int n = 0, w = 0, h = 0;
    CHECK_MSG(s && gst_structure_has_name(s, "image/x-jpc") &&
                  !g_strcmp0(gst_structure_get_string(s, "colorspace"), e.colorspace) &&
                  !g_strcmp0(gst_structure_get_string(s, "sampling"), e.sampling) &&
                  gst_structure_get_int(s, "num-components", &n) && n == e.components &&
                  gst_structure_get_int(s, "width", &w) && w == 17 && gst_structure_get_int(s, "height", &h) && h == 9,
              "%s: caps %s", e.format, caps.c_str());
    if (dec_sink && c) CHECK_MSG(gst_caps_can_intersect(c, dec_sink), "openjpegdec refuses %s", caps.c_str());
    // A codestream: SOC, SIZ first (T.800 A.4.1, A.5.1), EOC last (A.4.4).
    const std::vector<std::uint8_t> b = bytes_of(out);
    CHECK_MSG(b.size() > 4 && b[0] == 0xFF && b[1] == 0x4F && b[2] == 0xFF && b[3] == 0x51 && b[b.size() - 2] == 0xFF &&
                  b[b.size() - 1] == 0xD9,
              "%s: not a codestream from SOC to EOC", e.format);
    CHECK_MSG(out && !GST_BUFFER_FLAG_IS_SET(out, GST_BUFFER_FLAG_DELTA_UNIT), "%s: not a sync point", e.format);
    // SIZ (T.800 A.5.1): Csiz at byte 40 from SOC, then Ssiz (depth - 1),
    // XRsiz, YRsiz per component. COD (A.6.1) follows it: Lcod, Scod,
    // progression, layers, then the multiple component transform byte.
    const std::size_t siz = 4 + 36;
    CHECK_MSG(b.size() > siz + 2 + 3 * std::size_t(e.components) && (b[siz] << 8 | b[siz + 1]) == e.components,
              "%s: Csiz", e.format);
    for (int c = 0; c < e.components && b.size() > siz + 2 + 3 * std::size_t(e.components); ++c) {
      const std::uint8_t *k = &b[siz + 2 + 3 * c];
      const int sub_x = c == 1 || c == 2 ? e.chroma_x : 1, sub_y = c == 1 || c == 2 ? e.chroma_y : 1;
      CHECK_MSG((k[0] & 0x7F) + 1 == e.depth && k[1] == sub_x && k[2] == sub_y,
                "%s component %d: %d bits, subsampled %dx%d", e.format, c, (k[0] & 0x7F) + 1, k[1], k[2]);
    }
    const std::size_t cod = siz + 2 + 3 * std::size_t(e.components);
    CHECK_MSG(b.size() > cod + 8 && b[cod] == 0xFF && b[cod + 1] == 0x52 && b[cod + 8] == (e.mct ? 1 : 0),
              "%s: COD does not follow SIZ, or its colour transform is not %d", e.format, e.mct ? 1 : 0);
    if (out) gst_buffer_unref(out);
    if (c) gst_caps_unref(c);
  }
  if (dec_sink) gst_caps_unref(dec_sink);
  if (dec) gst_object_unref(dec);
}

// image/x-j2c: a 'jp2c' box (LBox = its whole length, TBox 'jp2c') around
// the same codestream as image/x-jpc.
static void j2c_box() {
  GstBuffer *jpc = encode_one("cudaj2kenc backend=cpu levels=3", "RGB", 40, 30, 7);
  std::string caps;
  GstBuffer *j2c = encode_one("cudaj2kenc backend=cpu levels=3 ! capsfilter caps=image/x-j2c", "RGB", 40, 30, 7, &caps);
  CHECK_MSG(caps.rfind("image/x-j2c", 0) == 0, "caps %s", caps.c_str());
  const std::vector<std::uint8_t> a = bytes_of(jpc), b = bytes_of(j2c);
  const std::vector<std::uint8_t> box = {std::uint8_t(b.size() >> 24),
                                         std::uint8_t(b.size() >> 16),
                                         std::uint8_t(b.size() >> 8),
                                         std::uint8_t(b.size()),
                                         'j',
                                         'p',
                                         '2',
                                         'c'};
  CHECK_MSG(b.size() == a.size() + 8 && std::equal(box.begin(), box.end(), b.begin()) &&
                std::equal(a.begin(), a.end(), b.begin() + 8),
            "j2c (%zu bytes) is not jpc (%zu bytes) in a jp2c box", b.size(), a.size());
  if (jpc) gst_buffer_unref(jpc);
  if (j2c) gst_buffer_unref(j2c);
  lossless("RGBA", 33, 17, "levels=3 ! image/x-j2c", 2);
}

static void cpu_openmp_identical() {
  const char *const settings[] = {"", "reversible=false", "reversible=false bitrate=1.5 layers=3",
                                  "tile-width=107 tile-height=121 levels=3 progression=cprl",
                                  "codeblock-width=16 codeblock-height=8"};
  int compared = 0;
  for (const char *format : {"RGB", "GRAY16_LE", "I420", "RGBA", "Y42B"})
    for (const char *props : settings) {
      const std::string cpu = std::string("cudaj2kenc backend=cpu ") + props,
                        omp = std::string("cudaj2kenc backend=openmp ") + props;
      GstBuffer *a = encode_one(cpu.c_str(), format, 321, 241, 3);
      GstBuffer *b = encode_one(omp.c_str(), format, 321, 241, 3);
      CHECK_MSG(a && b && same_bytes(a, b), "%s %s: cpu and openmp codestreams differ", format, props);
      if (a) gst_buffer_unref(a);
      if (b) gst_buffer_unref(b);
      ++compared;
    }
  std::printf("cpu and openmp codestreams identical: %d\n", compared);
}

static GParamSpec *spec(GstElement *e, const char *name) {
  GParamSpec *p = g_object_class_find_property(G_OBJECT_GET_CLASS(e), name);
  CHECK_MSG(p, "no property %s", name);
  return p;
}

static void properties() {
  GstElement *e = gst_element_factory_make("cudaj2kenc", nullptr);
  CHECK(e && GST_IS_VIDEO_ENCODER(e));
  if (!e) return;
  gst_object_ref_sink(e);
  auto int_range = [&](const char *name, int lo, int hi, int def) {
    GParamSpec *p = spec(e, name);
    CHECK_MSG(p && G_IS_PARAM_SPEC_INT(p) && G_PARAM_SPEC_INT(p)->minimum == lo && G_PARAM_SPEC_INT(p)->maximum == hi &&
                  G_PARAM_SPEC_INT(p)->default_value == def,
              "%s: range or default", name);
  };
  int_range("levels", 0, 32, 5);
  int_range("codeblock-width", 4, 1024, 64);
  int_range("codeblock-height", 4, 1024, 64);
  int_range("layers", 1, 65535, 1);
  int_range("tile-width", 0, G_MAXINT, 0);
  int_range("tile-height", 0, G_MAXINT, 0);
  GParamSpec *p = spec(e, "reversible");
  CHECK(p && G_IS_PARAM_SPEC_BOOLEAN(p) && G_PARAM_SPEC_BOOLEAN(p)->default_value);
  p = spec(e, "bitrate");
  CHECK(p && G_IS_PARAM_SPEC_DOUBLE(p) && G_PARAM_SPEC_DOUBLE(p)->minimum == 0 &&
        G_PARAM_SPEC_DOUBLE(p)->default_value == 0);
  p = spec(e, "max-bytes");
  CHECK(p && G_IS_PARAM_SPEC_UINT64(p) && G_PARAM_SPEC_UINT64(p)->default_value == 0 &&
        (p->flags & GST_PARAM_MUTABLE_PLAYING));
  p = spec(e, "progression");
  if (p && G_IS_PARAM_SPEC_ENUM(p)) {
    GEnumClass *k = G_PARAM_SPEC_ENUM(p)->enum_class;
    const char *const nicks[] = {"lrcp", "rlcp", "rpcl", "pcrl", "cprl"};
    for (const char *n : nicks) CHECK_MSG(g_enum_get_value_by_nick(k, n), "progression %s", n);
    GEnumValue *def = g_enum_get_value(k, G_PARAM_SPEC_ENUM(p)->default_value);
    CHECK(def && !g_strcmp0(def->value_nick, "lrcp"));
  } else {
    CHECK_MSG(false, "progression is not an enum");
  }
  p = spec(e, "codeblock-style");
  if (p && G_IS_PARAM_SPEC_FLAGS(p)) {
    // T.800 Table A.19's bits, by name.
    GFlagsClass *k = G_PARAM_SPEC_FLAGS(p)->flags_class;
    const struct {
      const char *nick;
      guint bit;
    } bits[] = {{"bypass", 1},          {"reset", 2},        {"restart", 4},
                {"vertical-causal", 8}, {"predictable", 16}, {"segmentation-symbols", 32}};
    for (const auto &b : bits) {
      GFlagsValue *v = g_flags_get_value_by_nick(k, b.nick);
      CHECK_MSG(v && v->value == b.bit, "codeblock-style %s", b.nick);
    }
    CHECK(G_PARAM_SPEC_FLAGS(p)->default_value == 0);
  } else {
    CHECK_MSG(false, "codeblock-style is not flags");
  }
  p = spec(e, "tile-parts");
  if (p && G_IS_PARAM_SPEC_ENUM(p)) {
    GEnumClass *k = G_PARAM_SPEC_ENUM(p)->enum_class;
    const char *const nicks[] = {"one", "resolution", "layer", "component"};
    for (int i = 0; i < 4; ++i) {
      GEnumValue *v = g_enum_get_value_by_nick(k, nicks[i]);
      CHECK_MSG(v && v->value == i && !g_strcmp0(cf::j2k_tile_parts_name(cf::J2kTileParts(i)), nicks[i]),
                "tile-parts %s", nicks[i]);
    }
    CHECK(G_PARAM_SPEC_ENUM(p)->default_value == int(cf::J2kTileParts::One));
  } else {
    CHECK_MSG(false, "tile-parts is not an enum");
  }
  p = spec(e, "markers");
  if (p && G_IS_PARAM_SPEC_FLAGS(p)) {
    GFlagsClass *k = G_PARAM_SPEC_FLAGS(p)->flags_class;
    GFlagsValue *tlm = g_flags_get_value_by_nick(k, "tlm"), *plt = g_flags_get_value_by_nick(k, "plt");
    CHECK(tlm && tlm->value == cf::j2k_marker::kTlm && plt && plt->value == cf::j2k_marker::kPlt &&
          G_PARAM_SPEC_FLAGS(p)->default_value == 0);
  } else {
    CHECK_MSG(false, "markers is not flags");
  }
  p = spec(e, "precincts");
  CHECK(p && G_IS_PARAM_SPEC_STRING(p) && !g_strcmp0(G_PARAM_SPEC_STRING(p)->default_value, "") &&
        (p->flags & GST_PARAM_MUTABLE_PLAYING));
  g_object_set(e, "precincts", "256,256, 128,128", nullptr);
  gchar *text = nullptr;
  g_object_get(e, "precincts", &text, nullptr);
  CHECK_MSG(!g_strcmp0(text, "256,256, 128,128"), "precincts read back as '%s'", text);
  g_free(text);
  // The engine properties are the other elements' own.
  GstElement *other = gst_element_factory_make("cudacdf53", nullptr);
  gst_object_ref_sink(other);
  for (const char *name : {"backend", "threads", "device-id", "host-wait", "active-backend"}) {
    GParamSpec *a = spec(e, name), *b = spec(other, name);
    CHECK_MSG(a && b && G_PARAM_SPEC_VALUE_TYPE(a) == G_PARAM_SPEC_VALUE_TYPE(b) &&
                  !g_strcmp0(g_param_spec_get_blurb(a), g_param_spec_get_blurb(b)) && a->flags == b->flags &&
                  g_param_values_cmp(a, g_param_spec_get_default_value(a), g_param_spec_get_default_value(b)) == 0,
              "engine property %s differs from cudacdf53's", name);
  }
  gst_object_unref(other);
  gst_object_unref(e);
}

// ---------------------------------------------------------------------------
// Refusals

// `props` on a GRAY8 frame of w x h: an element error at caps time carrying
// the core's message for the same settings, which names `word`.
static void refused(const char *props, const cf::J2kSettings &s, int w, int h, const char *word) {
  const std::string why = core_check(s, w, h);
  CHECK_MSG(!why.empty() && contains(why, word), "the core accepts %s on %dx%d, or says '%s'", props, w, h,
            why.c_str());
  const std::string desc = std::string("cudaj2kenc backend=cpu ") + props;
  Harness hx(desc.c_str());
  const bool took = hx.set_caps(raw_caps("GRAY8", w, h).c_str());
  if (took) hx.push(random_frame(video_info("GRAY8", w, h), 1));
  GstBuffer *out = hx.pull();
  CHECK_MSG(!out, "%s: a frame came out", props);
  if (out) gst_buffer_unref(out);
  const std::string errors = hx.errors();
  CHECK_MSG(!why.empty() && contains(errors, why.c_str()), "%s on %dx%d: errors '%s', expected '%s'", props, w, h,
            errors.c_str(), why.c_str());
}

static void refusals() {
  cf::J2kSettings s;
  s.codeblock_width = 48;
  refused("codeblock-width=48", s, 64, 64, "48");
  s = {};
  s.codeblock_width = 128;
  refused("codeblock-width=128", s, 64, 64, "4096");
  s = {};
  s.levels = 5;
  refused("levels=5", s, 33, 17, "levels");
  s = {};
  s.bitrate = 2;
  refused("bitrate=2", s, 64, 64, "bitrate");
  s = {};
  s.levels = 3;
  s.precincts = {{6, 6}, {0, 0}};
  refused("levels=3 precincts=64,64,1,1", s, 64, 64, "at least 2x2");
  s = {};
  s.profile = cf::J2kProfile::Dci2k;
  refused("profile=dci-2k", s, 64, 64, "needs 3 components of 12 bits");
  // A frame the profile admits: SIZ's Rsiz says so.
  if (GstBuffer *b = encode_one("cudaj2kenc backend=cpu profile=dci-2k", "GBR_12LE", 64, 32, 9)) {
    const std::vector<std::uint8_t> cs = bytes_of(b);
    gst_buffer_unref(b);
    std::size_t siz = 0;
    while (siz + 6 < cs.size() && !(cs[siz] == 0xFF && cs[siz + 1] == 0x51)) ++siz;
    CHECK_MSG(siz + 6 < cs.size() && cs[siz + 4] == 0 && cs[siz + 5] == 3, "profile=dci-2k: Rsiz is not 3");
  }
  // An IMF profile with its level: Rsiz 0x0500 | sublevel << 4 | main level.
  if (GstBuffer *b = encode_one("cudaj2kenc backend=cpu profile=imf-4k profile-main-level=7 profile-sublevel=5",
                                "I422_10LE", 64, 32, 9)) {
    const std::vector<std::uint8_t> cs = bytes_of(b);
    gst_buffer_unref(b);
    CHECK_MSG(cs.size() > 8 && cs[6] == 0x05 && cs[7] == 0x57, "profile=imf-4k at level 7,5: Rsiz is not 0x0557");
  }
  s = {};
  s.profile = cf::J2kProfile::Imf2k;
  s.profile_level = {2, 2};
  refused("profile=imf-2k profile-main-level=2 profile-sublevel=2", s, 64, 64, "sublevel 2 must be 0..1");

  // Precincts as text that does not parse: the parser's message, at caps
  // time, and at the next frame when set while playing.
  for (const char *text : {"256,100", "64,64,32", "[64,64]"}) {
    std::vector<cf::J2kPrecinctSize> sizes;
    const std::string why = cf::j2k_parse_precincts(text, sizes);
    const std::string desc = std::string("cudaj2kenc backend=cpu levels=3 precincts=\"") + text + "\"";
    Harness hx(desc.c_str());
    const bool took = hx.set_caps(raw_caps("GRAY8", 64, 64).c_str());
    if (took) hx.push(random_frame(video_info("GRAY8", 64, 64), 1));
    GstBuffer *out = hx.pull();
    CHECK_MSG(!out, "precincts=%s: a frame came out", text);
    if (out) gst_buffer_unref(out);
    const std::string errors = hx.errors();
    CHECK_MSG(!why.empty() && contains(errors, why.c_str()), "precincts=%s: errors '%s', expected '%s'", text,
              errors.c_str(), why.c_str());
  }
  {
    Harness hx("cudaj2kenc name=enc backend=cpu levels=3 precincts=32,32");
    CHECK(hx.set_caps(raw_caps("GRAY8", 64, 64).c_str()));
    CHECK(hx.push(random_frame(video_info("GRAY8", 64, 64), 1)) == GST_FLOW_OK);
    GstBuffer *first = hx.pull();
    CHECK(first);
    if (first) gst_buffer_unref(first);
    GstElement *enc = hx.get("enc");
    g_object_set(enc, "precincts", "32,31", nullptr);
    gst_object_unref(enc);
    CHECK(hx.push(random_frame(video_info("GRAY8", 64, 64), 2)) == GST_FLOW_ERROR);
    const std::string errors = hx.errors();
    CHECK_MSG(contains(errors, "precincts \"32,31\": \"31\" is not a power of two"),
              "precincts=32,31 while playing: '%s'", errors.c_str());
  }

  // A change while playing: the next frame is an element error.
  {
    Harness hx("cudaj2kenc name=enc backend=cpu levels=3");
    CHECK(hx.set_caps(raw_caps("GRAY8", 64, 64).c_str()));
    CHECK(hx.push(random_frame(video_info("GRAY8", 64, 64), 1)) == GST_FLOW_OK);
    GstBuffer *first = hx.pull();
    CHECK(first);
    if (first) gst_buffer_unref(first);
    GstElement *enc = hx.get("enc");
    g_object_set(enc, "codeblock-height", 12, nullptr);
    gst_object_unref(enc);
    cf::J2kSettings bad;
    bad.levels = 3;
    bad.codeblock_height = 12;
    const std::string why = core_check(bad);
    CHECK(hx.push(random_frame(video_info("GRAY8", 64, 64), 2)) == GST_FLOW_ERROR);
    const std::string errors = hx.errors();
    CHECK_MSG(!why.empty() && contains(errors, why.c_str()), "codeblock-height=12 while playing: '%s'", errors.c_str());
  }

  // A buffer shorter than its caps say: named, with both sizes.
  {
    Harness hx("cudaj2kenc backend=cpu levels=3");
    CHECK(hx.set_caps(raw_caps("RGB", 64, 48).c_str()));
    CHECK(hx.push(gst_buffer_new_allocate(nullptr, 100, nullptr)) == GST_FLOW_ERROR);
    const std::string errors = hx.errors();
    CHECK_MSG(contains(errors, "input buffer holds 100 bytes") && contains(errors, "9216"), "short buffer: '%s'",
              errors.c_str());
  }

  // Formats outside the list are not negotiated.
  {
    Harness hx("cudaj2kenc backend=cpu");
    CHECK(!hx.set_caps(raw_caps("NV12", 64, 48).c_str()));
  }
}

// ---------------------------------------------------------------------------
// Files: mxfmux and mj2mux, demuxed and decoded again

// The demuxers give the JPEG 2000 caps without `sampling`, which GStreamer
// 1.22's openjpegdec requires: capssetter adds it (`sampling` of the format).
static void muxed(const char *muxer, const char *demuxer, const char *ext, const char *format, const char *sampling) {
  if (!have_elements({muxer, demuxer, "capssetter"})) return;
  char path[] = "/tmp/cf-j2kenc-XXXXXX";
  const int fd = mkstemp(path);
  if (fd >= 0) close(fd);
  const std::string file = std::string(path) + ext;
  Frames src, back;
  const std::string write = source(format, 64, 48, 3, "smpte") + "cudaj2kenc backend=cpu levels=4 ! " + muxer +
                            " ! filesink location=" + file;
  run_coded(write, &src);
  const std::string read = "filesrc location=" + file + " ! " + demuxer + " ! capssetter caps=\"" +
                           (std::string(demuxer) == "qtdemux" ? "image/x-j2c" : "image/x-jpc") +
                           ",sampling=" + sampling + "\"" + kDecoded;
  GstElement *p = launch(read);
  if (p) {
    const std::string err = run(p);
    CHECK_MSG(err.empty(), "%s: %s", read.c_str(), err.c_str());
    back.decoded = pull_all(p, "b", &back.decoded_info);
    gst_element_set_state(p, GST_STATE_NULL);
    gst_object_unref(p);
  }
  CHECK_MSG(src.source.size() == 3 && back.decoded.size() == 3, "%s %s: %zu frames written, %zu read back", muxer,
            format, src.source.size(), back.decoded.size());
  for (std::size_t i = 0; i < src.source.size() && i < back.decoded.size(); ++i) {
    const std::string diff = compare_components(src.source_info, src.source[i], back.decoded_info, back.decoded[i]);
    CHECK_MSG(diff.empty(), "%s %s frame %zu: %s", muxer, format, i, diff.c_str());
  }
  std::printf("%s ! %s %s: %zu frames equal the source\n", muxer, demuxer, format, back.decoded.size());
  std::remove(file.c_str());
  std::remove(path);
}

// ---------------------------------------------------------------------------
// memory:CUDAMemory

static void cuda_memory() {
  std::string why;
  if (!cf::cuda_device_usable(0, &why)) {
    std::printf("SKIP: memory:CUDAMemory: no usable CUDA device (%s)\n", why.c_str());
    return;
  }
  if (!have_elements({"cudaupload"})) return;
  for (const char *backend : {"cuda", "cpu"})
    for (const char *format : {"RGBA", "I420", "BGRx"}) {
      const std::string desc = source(format, 321, 241, 2) + "cudaupload ! video/x-raw(memory:CUDAMemory) ! " +
                               "cudaj2kenc backend=" + backend + kDecoded;
      Frames f;
      if (!run_coded(desc, &f)) continue;
      CHECK_MSG(f.decoded.size() == 2, "%s: %zu frames", desc.c_str(), f.decoded.size());
      for (std::size_t i = 0; i < f.source.size() && i < f.decoded.size(); ++i) {
        const std::string diff = compare_components(f.source_info, f.source[i], f.decoded_info, f.decoded[i]);
        CHECK_MSG(diff.empty(), "%s: frame %zu: %s", desc.c_str(), i, diff.c_str());
      }
    }
}

int main(int argc, char **argv) {
  init(&argc, &argv);
  if (!have_elements({"videotestsrc", "tee", "queue", "appsink", "openjpegdec"})) return cft::kSkip;
  properties();
  caps_fields();
  j2c_box();
  refusals();
  every_format_and_size();
  deep_formats();
  settings_round_trips();
  irreversible();
  rate_budget();
  byte_limit();
  length_markers();
  size_messages();
  cpu_openmp_identical();
  muxed("mxfmux", "mxfdemux", ".mxf", "I420", "YCbCr-4:2:0");
  muxed("mxfmux", "mxfdemux", ".mxf", "RGB", "RGB");
  muxed("mj2mux", "qtdemux", ".mj2", "Y42B", "YCbCr-4:2:2");
  muxed("mj2mux", "qtdemux", ".mj2", "RGBA", "RGBA");
  cuda_memory();
  return cft::test_result();
}
