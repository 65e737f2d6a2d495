// cudaj2kdec against the source frames and third-party JPEG 2000 tools:
//  - properties: names, ranges and defaults; the engine properties are the
//    other elements' own; the rank lets decodebin pick it;
//  - cudaj2kenc (reversible) ! cudaj2kdec gives the source back exactly,
//    in the source's format, for GRAY8, GRAY16_LE, RGB, I420, Y42B, Y444
//    and RGBA at odd sizes, on cpu and openmp, with Part 1 and HT
//    code-blocks; so does openjpegenc;
//  - files from opj_compress (.j2k through filesrc with one buffer, and
//    through jpeg2000parse; .jp2 as image/jp2) equal opj_decompress's
//    decoding of them, reduce=1 included;
//  - mj2mux ! qtdemux (a 'jp2c' box per frame) and mxfmux ! mxfdemux into
//    cudaj2kdec give the source back;
//  - on a GPU, backend=cuda gives the source back too, in pinned system
//    memory and (RGB, RGBA, I420, Y444) in memory:CUDAMemory;
//  - refused caps are not negotiated; corrupt buffers are dropped with a
//    warning and the stream goes on; a cut codestream is pushed with a
//    warning; what the decoder does not take is an element error;
//  - max-samples: a header claiming 1109 x 2098808 samples (written by hand
//    from T.800 Annex A, tests/support/j2k_streams.hpp) is an element error
//    naming the property and the frame's samples; a frame of exactly
//    max-samples decodes (also at reduce=1), one of a sample more is refused.
// Known answers come from the source frames and OpenJPEG's opj_decompress.
#include <gst/app/gstappsink.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "cudafilters/engine.hpp"
#include "gst_util.hpp"
#include "j2k_element_util.hpp"
#include "j2k_streams.hpp"
#include "pnm.hpp"
#include "shell.hpp"

using namespace cfgt;

// The value of sample (x, y) of component c of a mapped frame.
static int sample_of(const GstVideoFrame &f, guint c, int x, int y) {
  const auto *p = GST_VIDEO_FRAME_COMP_DATA(&f, c) + y * GST_VIDEO_FRAME_COMP_STRIDE(&f, c) +
                  x * GST_VIDEO_FRAME_COMP_PSTRIDE(&f, c);
  return GST_VIDEO_FRAME_COMP_DEPTH(&f, c) > 8 ? p[0] | p[1] << 8 : p[0];
}

// Two frames of the same format and size, sample for sample; empty when
// equal, else the first difference.
static std::string compare_video(const GstVideoInfo &info_a, GstBuffer *a, const GstVideoInfo &info_b, GstBuffer *b) {
  if (GST_VIDEO_INFO_FORMAT(&info_a) != GST_VIDEO_INFO_FORMAT(&info_b) || info_a.width != info_b.width ||
      info_a.height != info_b.height)
    return std::string("decoded as ") + GST_VIDEO_INFO_NAME(&info_b) + " " + std::to_string(info_b.width) + "x" +
           std::to_string(info_b.height) + ", the source is " + GST_VIDEO_INFO_NAME(&info_a) + " " +
           std::to_string(info_a.width) + "x" + std::to_string(info_a.height);
  return compare_components(info_a, a, info_b, b);
}
struct Frames {
  std::vector<GstBuffer *> source, decoded;
  GstVideoInfo source_info, decoded_info;
  std::string error;
  ~Frames() {
    for (GstBuffer *b : source) gst_buffer_unref(b);
    for (GstBuffer *b : decoded) gst_buffer_unref(b);
  }
};

// Runs `desc` to EOS; appsink a holds the source frames (when there is
// one), appsink b the decoded ones.
static void run_frames(const std::string &desc, Frames *f) {
  GstElement *p = launch(desc);
  if (!p) return;
  f->error = run(p);
  f->source = pull_all(p, "a", &f->source_info);
  f->decoded = pull_all(p, "b", &f->decoded_info);
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(p);
}

static const char *const kSink = " ! appsink name=b sync=false wait-on-eos=false";

static std::string source(const char *format, int w, int h, int frames, const char *pattern = "snow") {
  return "videotestsrc num-buffers=" + std::to_string(frames) + " pattern=" + pattern +
         " ! video/x-raw,format=" + format + ",width=" + std::to_string(w) + ",height=" + std::to_string(h) +
         ",framerate=25/1 ! tee name=t  t. ! queue ! appsink name=a sync=false wait-on-eos=false  t. ! queue ! ";
}

// The decoded frames equal the source frames, in the source's format.
static void expect_source(const std::string &desc, const Frames &f, std::size_t frames) {
  CHECK_MSG(f.error.empty(), "%s: %s", desc.c_str(), f.error.c_str());
  CHECK_MSG(f.source.size() == frames && f.decoded.size() == frames, "%s: %zu source and %zu decoded frames",
            desc.c_str(), f.source.size(), f.decoded.size());
  for (std::size_t i = 0; i < f.source.size() && i < f.decoded.size(); ++i) {
    const std::string diff = compare_video(f.source_info, f.source[i], f.decoded_info, f.decoded[i]);
    CHECK_MSG(diff.empty(), "%s: frame %zu: %s", desc.c_str(), i, diff.c_str());
  }
}

// ---------------------------------------------------------------------------
// Round trips

static void round_trips() {
  const char *const formats[] = {"GRAY8", "GRAY16_LE", "RGB", "I420", "Y42B", "Y444", "RGBA"};
  const struct { int w, h; } sizes[] = {{1, 1}, {7, 3}, {33, 17}, {321, 241}};
  int runs = 0;
  for (const char *format : formats)
    for (const auto &s : sizes) {
      const char *backend = runs % 2 ? "openmp" : "cpu";
      const std::string desc = source(format, s.w, s.h, 2) +
                               "cudaj2kenc backend=cpu levels=" + std::to_string(levels_for(format, s.w, s.h)) +
                               " ! cudaj2kdec backend=" + backend + kSink;
      Frames f;
      run_frames(desc, &f);
      expect_source(desc, f, 2);
      ++runs;
    }
  // image/x-j2c (a jp2c box per frame), and tiles with more layers.
  for (const char *format : {"RGBA", "I420"}) {
    const std::string desc = source(format, 99, 67, 2) +
                             "cudaj2kenc backend=cpu levels=3 layers=3 tile-width=40 tile-height=24 ! image/x-j2c ! "
                             "cudaj2kdec backend=openmp" +
                             kSink;
    Frames f;
    run_frames(desc, &f);
    expect_source(desc, f, 2);
    ++runs;
  }
  // HTJ2K code-blocks, and MJ2 around them.
  for (const char *format : {"GRAY8", "RGB", "I420", "RGBA"}) {
    const std::string desc = source(format, 97, 61, 2) +
                             "cudaj2kenc backend=cpu block-coder=ht levels=3 ! image/x-j2c ! cudaj2kdec backend=" +
                             (runs % 2 ? "openmp" : "cpu") + kSink;
    Frames f;
    run_frames(desc, &f);
    expect_source(desc, f, 2);
    ++runs;
  }
  std::printf("cudaj2kenc ! cudaj2kdec exact: %d formats x sizes, HT among them\n", runs);
}

static void from_openjpegenc() {
  if (!have_elements({"openjpegenc"})) return;
  int runs = 0;
  for (const char *format : {"GRAY8", "I420", "Y42B", "Y444"})
    for (const char *caps : {"", " ! image/x-j2c"}) {
      const std::string desc =
          source(format, 65, 49, 2) + "openjpegenc num-resolutions=4" + caps + " ! cudaj2kdec backend=cpu" + kSink;
      Frames f;
      run_frames(desc, &f);
      expect_source(desc, f, 2);
      ++runs;
    }
  std::printf("openjpegenc ! cudaj2kdec exact: %d\n", runs);
}

// ---------------------------------------------------------------------------
// Files from opj_compress, against opj_decompress

using cft::TempDir;

static void write_pnm(const std::string &path, int w, int h, int planes, int maxval, std::uint32_t seed) {
  std::ofstream f(path, std::ios::binary);
  f << (planes == 3 ? "P6" : "P5") << "\n" << w << " " << h << "\n" << maxval << "\n";
  std::mt19937 rng(seed);
  for (long i = 0; i < long(w) * h * planes; ++i) {
    const std::uint32_t v = rng() % (std::uint32_t(maxval) + 1);
    if (maxval > 255) f.put(char(v >> 8));
    f.put(char(v & 0xFF));
  }
}

static long file_size(const std::string &path) {
  std::ifstream f(path, std::ios::binary | std::ios::ate);
  return f ? long(f.tellg()) : -1;
}

// Decoded frame b (one) against opj_decompress's PNM, every sample shifted
// left by `shift` (a format deeper than the codestream), within `tolerance`
// (the 9/7 wavelet in floating point: 1).
static void expect_pnm(const std::string &desc, const Frames &f, const std::string &pnm, int shift, int tolerance) {
  CHECK_MSG(f.error.empty(), "%s: %s", desc.c_str(), f.error.c_str());
  std::string why;
  const std::vector<cft::PnmPlane> planes = cft::read_pnm(pnm, why);
  CHECK_MSG(why.empty(), "%s", why.c_str());
  if (f.decoded.size() != 1 || planes.empty()) {
    CHECK_MSG(false, "%s: %zu frames decoded", desc.c_str(), f.decoded.size());
    return;
  }
  GstVideoInfo info = f.decoded_info;
  CHECK_MSG(info.width == int(planes[0].width) && info.height == int(planes[0].height) &&
                GST_VIDEO_INFO_N_COMPONENTS(&info) == planes.size(),
            "%s: %s %dx%d, opj_decompress %ux%u with %zu planes", desc.c_str(), GST_VIDEO_INFO_NAME(&info), info.width,
            info.height, planes[0].width, planes[0].height, planes.size());
  if (info.width != int(planes[0].width) || info.height != int(planes[0].height) ||
      GST_VIDEO_INFO_N_COMPONENTS(&info) != planes.size())
    return;
  GstVideoFrame vf;
  if (!gst_video_frame_map(&vf, &info, f.decoded[0], GST_MAP_READ)) return;
  long long differ = 0;
  std::string first;
  for (guint c = 0; c < planes.size(); ++c)
    for (int y = 0; y < info.height; ++y)
      for (int x = 0; x < info.width; ++x) {
        const int want = int(planes[c].samples[std::size_t(y) * info.width + x]) << shift;
        const int got = sample_of(vf, c, x, y);
        if (std::abs(got - want) > tolerance && differ++ == 0)
          first = "component " + std::to_string(c) + " (" + std::to_string(x) + ", " + std::to_string(y) +
                  "): " + std::to_string(got) + ", opj_decompress " + std::to_string(want);
      }
  gst_video_frame_unmap(&vf);
  CHECK_MSG(differ == 0, "%s: %s (%lld samples differ)", desc.c_str(), first.c_str(), differ);
}

static void opj_files() {
  if (!cft::have_tool("opj_compress") || !cft::have_tool("opj_decompress")) {
    std::printf("SKIP: no opj_compress / opj_decompress\n");
    return;
  }
  TempDir dir;
  const std::string d = dir.path;
  std::string out;
  struct Case {
    const char *name;
    int planes, maxval;
    const char *options, *format;  // opj_compress options; the format cudaj2kdec gives
    int shift, tolerance;
  } cases[] = {{"rgb", 3, 255, "-n 3", "RGB", 0, 0},
               {"rgb-irreversible", 3, 255, "-n 3 -I -r 8", "RGB", 0, 1},
               {"gray", 1, 255, "-n 4 -b 16,16 -p RPCL", "GRAY8", 0, 0},
               {"gray12", 1, 4095, "-n 2", "GRAY16_LE", 4, 0},
               {"gray-layers", 1, 255, "-n 3 -r 20,10,1", "GRAY8", 0, 0}};
  int files = 0;
  for (const Case &c : cases) {
    const std::string base = d + "/" + c.name, pnm = base + (c.planes == 3 ? ".ppm" : ".pgm");
    write_pnm(pnm, 37, 23, c.planes, c.maxval, 5);
    for (const char *ext : {".j2k", ".jp2"}) {
      const std::string coded = base + ext;
      if (cft::run_command(std::string("opj_compress -i ") + pnm + " -o " + coded + " " + c.options, out) != 0) {
        CHECK_MSG(false, "opj_compress %s: %s", c.options, out.c_str());
        continue;
      }
      for (int reduce : {0, 1}) {
        const std::string ref = base + ext + "-r" + std::to_string(reduce) + (c.planes == 3 ? ".ppm" : ".pgm");
        if (cft::run_command("opj_decompress -i " + coded + " -o " + ref + " -r " + std::to_string(reduce), out) != 0) {
          CHECK_MSG(false, "opj_decompress: %s", out.c_str());
          continue;
        }
        const std::string dec = " ! cudaj2kdec backend=openmp reduce=" + std::to_string(reduce);
        std::vector<std::string> pipelines;
        if (std::string(ext) == ".j2k") {
          pipelines.push_back("filesrc location=" + coded + " blocksize=" + std::to_string(file_size(coded)) +
                              " ! image/x-jpc" + dec + kSink);
          pipelines.push_back("filesrc location=" + coded + " ! jpeg2000parse" + dec + kSink);
        } else {
          pipelines.push_back("filesrc location=" + coded + " blocksize=" + std::to_string(file_size(coded)) +
                              " ! image/jp2" + dec + kSink);
        }
        for (const std::string &desc : pipelines) {
          Frames f;
          run_frames(desc, &f);
          expect_pnm(desc, f, ref, c.shift, c.tolerance);
          if (f.decoded.size() == 1)
            CHECK_MSG(!g_strcmp0(GST_VIDEO_INFO_NAME(&f.decoded_info), c.format), "%s: %s, expected %s", desc.c_str(),
                      GST_VIDEO_INFO_NAME(&f.decoded_info), c.format);
          ++files;
        }
      }
    }
  }
  std::printf("opj_compress files equal to opj_decompress's: %d pipelines\n", files);
}

// Three components without the colour transform: RGB or YCbCr only by
// what surrounds the codestream (JP2's colr, the caps), Y444 without.
static void colour_hints() {
  if (!cft::have_tool("opj_compress") || !cft::have_tool("opj_decompress")) return;
  TempDir dir;
  const std::string ppm = dir.path + "/in.ppm", j2k = dir.path + "/c.j2k", jp2 = dir.path + "/c.jp2",
                    ref = dir.path + "/ref.ppm";
  write_pnm(ppm, 21, 19, 3, 255, 4);
  std::string out;
  for (const std::string &coded : {j2k, jp2})
    CHECK(cft::run_command("opj_compress -n 2 -mct 0 -i " + ppm + " -o " + coded, out) == 0);
  CHECK(cft::run_command("opj_decompress -i " + j2k + " -o " + ref, out) == 0);
  const auto one_buffer = [](const std::string &file, const std::string &caps) {
    return "filesrc location=" + file + " blocksize=" + std::to_string(file_size(file)) + " ! " + caps;
  };
  const struct {
    std::string input;
    const char *format;
  } cases[] = {{one_buffer(jp2, "image/jp2"), "RGB"},
               {one_buffer(j2k, "image/x-jpc"), "Y444"},
               {one_buffer(j2k, "image/x-jpc,colorspace=sRGB"), "RGB"},
               {one_buffer(j2k, "image/x-jpc,sampling=RGB"), "RGB"},
               {one_buffer(j2k, "image/x-jpc,colorspace=sYUV"), "Y444"},
               {"filesrc location=" + j2k + " ! jpeg2000parse", "RGB"}};  // the parser guesses sRGB
  for (const auto &c : cases) {
    const std::string desc = c.input + " ! cudaj2kdec backend=cpu" + kSink;
    Frames f;
    run_frames(desc, &f);
    expect_pnm(desc, f, ref, 0, 0);
    CHECK_MSG(f.decoded.size() == 1 && !g_strcmp0(GST_VIDEO_INFO_NAME(&f.decoded_info), c.format),
              "%s: %s, expected %s", desc.c_str(), f.decoded.empty() ? "nothing" : GST_VIDEO_INFO_NAME(&f.decoded_info),
              c.format);
  }
}

// layers=N decodes the first N quality layers, as opj_decompress -l N.
static void fewer_layers() {
  if (!cft::have_tool("opj_compress") || !cft::have_tool("opj_decompress")) return;
  TempDir dir;
  const std::string pgm = dir.path + "/in.pgm", j2k = dir.path + "/l.j2k";
  write_pnm(pgm, 45, 31, 1, 255, 6);
  std::string out;
  CHECK(cft::run_command("opj_compress -n 3 -r 40,10,1 -i " + pgm + " -o " + j2k, out) == 0);
  for (int layers : {1, 2, 3}) {
    const std::string ref = dir.path + "/ref" + std::to_string(layers) + ".pgm";
    CHECK(cft::run_command("opj_decompress -l " + std::to_string(layers) + " -i " + j2k + " -o " + ref, out) == 0);
    const std::string desc = "filesrc location=" + j2k + " blocksize=" + std::to_string(file_size(j2k)) +
                             " ! image/x-jpc ! cudaj2kdec backend=cpu layers=" + std::to_string(layers) + kSink;
    Frames f;
    run_frames(desc, &f);
    expect_pnm(desc, f, ref, 0, 0);
  }
}

// ---------------------------------------------------------------------------
// Muxed files

static void muxed(const char *encoder, const char *muxer, const char *demuxer, const char *ext, const char *format) {
  if (!have_elements({encoder, muxer, demuxer})) return;
  char path[] = "/tmp/cf-j2kdec-XXXXXX";
  const int fd = mkstemp(path);
  if (fd >= 0) close(fd);
  const std::string file = std::string(path) + ext;
  const std::string levels = std::string(encoder) == "openjpegenc" ? " num-resolutions=4" : " levels=3";
  Frames src, back;
  const std::string write =
      source(format, 64, 48, 3, "smpte") + encoder + levels + " ! " + muxer + " ! filesink location=" + file;
  run_frames(write, &src);
  CHECK_MSG(src.error.empty(), "%s: %s", write.c_str(), src.error.c_str());
  const std::string read = "filesrc location=" + file + " ! " + demuxer + " ! cudaj2kdec backend=cpu" + kSink;
  run_frames(read, &back);
  CHECK_MSG(back.error.empty(), "%s: %s", read.c_str(), back.error.c_str());
  CHECK_MSG(src.source.size() == 3 && back.decoded.size() == 3, "%s: %zu frames written, %zu read back", read.c_str(),
            src.source.size(), back.decoded.size());
  for (std::size_t i = 0; i < src.source.size() && i < back.decoded.size(); ++i) {
    const std::string diff = compare_video(src.source_info, src.source[i], back.decoded_info, back.decoded[i]);
    CHECK_MSG(diff.empty(), "%s ! %s %s frame %zu: %s", encoder, muxer, format, i, diff.c_str());
  }
  std::printf("%s ! %s ! %s ! cudaj2kdec %s: %zu frames\n", encoder, muxer, demuxer, format, back.decoded.size());
  std::remove(file.c_str());
  std::remove(path);
}

// ---------------------------------------------------------------------------
// Properties, caps, faults (GstHarness)

static GParamSpec *spec(GstElement *e, const char *name) {
  GParamSpec *p = g_object_class_find_property(G_OBJECT_GET_CLASS(e), name);
  CHECK_MSG(p, "no property %s", name);
  return p;
}

static void properties() {
  GstElement *e = gst_element_factory_make("cudaj2kdec", nullptr);
  CHECK(e && GST_IS_VIDEO_DECODER(e));
  if (!e) return;
  gst_object_ref_sink(e);
  for (const auto &r : {std::make_tuple("reduce", 0, 32), std::make_tuple("layers", 0, 65535)}) {
    GParamSpec *p = spec(e, std::get<0>(r));
    CHECK_MSG(p && G_IS_PARAM_SPEC_INT(p) && G_PARAM_SPEC_INT(p)->minimum == std::get<1>(r) &&
                  G_PARAM_SPEC_INT(p)->maximum == std::get<2>(r) && G_PARAM_SPEC_INT(p)->default_value == 0,
              "%s: range or default", std::get<0>(r));
  }
  // max-samples: 0 (no limit) to any; 2^29 by default, a 16K frame of 4 components.
  GParamSpec *m = spec(e, "max-samples");
  CHECK_MSG(m && G_IS_PARAM_SPEC_UINT64(m) && G_PARAM_SPEC_UINT64(m)->minimum == 0 &&
                G_PARAM_SPEC_UINT64(m)->maximum == G_MAXUINT64 &&
                G_PARAM_SPEC_UINT64(m)->default_value == (guint64(1) << 29) &&
                G_PARAM_SPEC_UINT64(m)->default_value >= guint64(15360) * 8640 * 4,
            "max-samples: range or default");
  GstElement *other = gst_element_factory_make("cudaj2kenc", nullptr);
  gst_object_ref_sink(other);
  for (const char *name : {"backend", "threads", "device-id", "host-wait", "active-backend"}) {
    GParamSpec *a = spec(e, name), *b = spec(other, name);
    CHECK_MSG(a && b && G_PARAM_SPEC_VALUE_TYPE(a) == G_PARAM_SPEC_VALUE_TYPE(b) &&
                  !g_strcmp0(g_param_spec_get_blurb(a), g_param_spec_get_blurb(b)) && a->flags == b->flags,
              "engine property %s differs from cudaj2kenc's", name);
  }
  gst_object_unref(other);
  gst_object_unref(e);
  // decodebin autoplugs decoders of rank marginal and above.
  GstElementFactory *f = gst_element_factory_find("cudaj2kdec");
  CHECK(f && gst_plugin_feature_get_rank(GST_PLUGIN_FEATURE(f)) == GST_RANK_SECONDARY);
  if (f) gst_object_unref(f);
}

// A codestream from cudaj2kenc (cpu, reversible).
static std::vector<std::uint8_t> encode(const char *format, int w, int h, const char *props, std::uint32_t seed) {
  Harness hx((std::string("cudaj2kenc backend=cpu ") + props).c_str());
  std::vector<std::uint8_t> bytes;
  if (!hx.set_caps(raw_caps(format, w, h).c_str())) return bytes;
  hx.push(random_frame(video_info(format, w, h), seed));
  if (GstBuffer *b = hx.pull()) {
    GstMapInfo m;
    gst_buffer_map(b, &m, GST_MAP_READ);
    bytes.assign(m.data, m.data + m.size);
    gst_buffer_unmap(b, &m);
    gst_buffer_unref(b);
  }
  return bytes;
}

static GstBuffer *buffer_of(const std::vector<std::uint8_t> &bytes) {
  GstBuffer *b = gst_buffer_new_allocate(nullptr, bytes.size(), nullptr);
  if (!bytes.empty()) gst_buffer_fill(b, 0, bytes.data(), bytes.size());
  return b;
}

static void bad_caps() {
  Harness hx("cudaj2kdec backend=cpu");
  CHECK(!hx.set_caps(raw_caps("RGB", 16, 16).c_str()));
  Harness hy("cudaj2kdec backend=cpu");
  CHECK(!hy.set_caps("image/jpeg"));
}

static void faults() {
  const std::vector<std::uint8_t> good = encode("RGB", 40, 30, "levels=3 layers=2", 3);
  CHECK(!good.empty());
  // Garbage, an empty buffer, a cut box, broken headers: dropped with a
  // warning naming the problem; the next good frame still decodes.
  {
    Harness hx("cudaj2kdec backend=cpu");
    CHECK(hx.set_caps("image/x-jpc"));
    std::vector<std::uint8_t> siz_broken = good;
    // SIZ's Xsiz (T.800 A.5.1: after SOC, the marker, Lsiz and Rsiz) = 0,
    // not above XOsiz: an empty image.
    for (int i = 8; i < 12; ++i) siz_broken[i] = 0;
    const struct {
      std::vector<std::uint8_t> bytes;
      const char *names;
    } bad[] = {{{1, 2, 3, 4, 5, 6, 7, 8, 9}, "no codestream"},
               {{}, "empty"},
               {{0, 0, 1, 0, 'j', 'p', '2', 'c', 0xFF, 0x4F}, "runs past"},
               {siz_broken, "Xsiz"},
               {std::vector<std::uint8_t>(good.begin(), good.begin() + 30), "SIZ"}};
    for (const auto &b : bad) {
      CHECK(hx.push(buffer_of(b.bytes)) == GST_FLOW_OK);
      GstBuffer *out = hx.pull();
      CHECK_MSG(!out, "a frame came out of a corrupt buffer (%s)", b.names);
      if (out) gst_buffer_unref(out);
      const std::string warnings = pop_warnings(hx.bus);
      CHECK_MSG(contains(warnings, "frame dropped") && contains(warnings, b.names), "warnings '%s', expected '%s'",
                warnings.c_str(), b.names);
      CHECK_MSG(hx.errors().empty(), "an error for a corrupt frame");
    }
    CHECK(hx.push(buffer_of(good)) == GST_FLOW_OK);
    GstBuffer *out = hx.pull();
    CHECK_MSG(out, "no frame after the corrupt ones");
    if (out) gst_buffer_unref(out);
  }
  // A codestream cut inside its packets: pushed, with a warning.
  {
    Harness hx("cudaj2kdec backend=cpu");
    CHECK(hx.set_caps("image/x-jpc"));
    const std::vector<std::uint8_t> cut(good.begin(), good.begin() + std::ptrdiff_t(good.size() * 2 / 3));
    CHECK(hx.push(buffer_of(cut)) == GST_FLOW_OK);
    GstBuffer *out = hx.pull();
    CHECK_MSG(out, "a cut codestream gave no frame");
    if (out) gst_buffer_unref(out);
    const std::string warnings = pop_warnings(hx.bus);
    CHECK_MSG(contains(warnings, "decoded in part"), "warnings '%s'", warnings.c_str());
  }
  // Flipped bytes anywhere: a frame or a warning, never a crash or an error.
  {
    Harness hx("cudaj2kdec backend=openmp");
    CHECK(hx.set_caps("image/x-jpc"));
    std::mt19937 rng(7);
    int frames = 0, dropped = 0;
    for (int i = 0; i < 300; ++i) {
      std::vector<std::uint8_t> b = good;
      for (int k = 0; k < 1 + i % 4; ++k) b[rng() % b.size()] ^= std::uint8_t(1u << (rng() % 8));
      CHECK(hx.push(buffer_of(b)) == GST_FLOW_OK);
      if (GstBuffer *out = hx.pull()) {
        ++frames;
        gst_buffer_unref(out);
      } else {
        ++dropped;
      }
    }
    const std::string errors = hx.errors();
    CHECK_MSG(errors.empty(), "errors from flipped bytes: %s", errors.c_str());
    std::printf("flipped bytes: %d frames, %d dropped\n", frames, dropped);
  }
  // What the decoder does not take: an element error naming it.
  {
    Harness hx("cudaj2kdec backend=cpu reduce=5");
    CHECK(hx.set_caps("image/x-jpc"));
    CHECK(hx.push(buffer_of(good)) == GST_FLOW_ERROR);
    const std::string errors = hx.errors();
    CHECK_MSG(contains(errors, "reduce = 5") && contains(errors, "3 decomposition levels"), "errors '%s'",
              errors.c_str());
  }
  if (cft::have_tool("opj_compress")) {
    // 16-bit RGB: no GStreamer 1.22 format holds it.
    TempDir dir;
    const std::string pnm = dir.path + "/rgb16.ppm", coded = dir.path + "/rgb16.j2k";
    write_pnm(pnm, 16, 16, 3, 65535, 1);
    std::string out;
    CHECK(cft::run_command("opj_compress -n 2 -i " + pnm + " -o " + coded, out) == 0);
    std::ifstream f(coded, std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    Harness hx("cudaj2kdec backend=cpu");
    CHECK(hx.set_caps("image/x-jpc"));
    CHECK(hx.push(buffer_of(bytes)) == GST_FLOW_ERROR);
    const std::string errors = hx.errors();
    CHECK_MSG(contains(errors, "16-bit") && contains(errors, "more than 12 bits"), "errors '%s'", errors.c_str());
  }
}

// max-samples: the frame's samples, summed over its components at the
// reduced size, refused past it as an element error naming the property.
static void sample_limit() {
  const std::vector<std::uint8_t> huge = cft::hand_codestream(cft::huge_claim());
  {
    Harness hx("cudaj2kdec backend=cpu");
    CHECK(hx.set_caps("image/x-jpc"));
    CHECK(hx.push(buffer_of(huge)) == GST_FLOW_ERROR);
    const std::string errors = hx.errors();
    CHECK_MSG(contains(errors, "2327578072 samples (1109 x 2098808 x 1), more than max-samples = 536870912"),
              "errors '%s'", errors.c_str());
  }
  // 40 x 30 RGB: 3600 samples; at reduce=1, 20 x 15 x 3 = 900.
  const std::vector<std::uint8_t> good = encode("RGB", 40, 30, "levels=3", 5);
  const struct {
    const char *props;
    bool decodes;
    const char *says;
  } cases[] = {
      {"max-samples=3600", true, ""},
      {"max-samples=3599", false, "3600 samples (40 x 30 x 3), more than max-samples = 3599"},
      {"reduce=1 max-samples=900", true, ""},
      {"reduce=1 max-samples=899", false, "900 samples (20 x 15 x 3 at reduce = 1), more than max-samples = 899"}};
  for (const auto &c : cases) {
    Harness hx((std::string("cudaj2kdec backend=cpu ") + c.props).c_str());
    CHECK(hx.set_caps("image/x-jpc"));
    const GstFlowReturn ret = hx.push(buffer_of(good));
    GstBuffer *out = hx.pull();
    const std::string errors = hx.errors();
    if (c.decodes)
      CHECK_MSG(ret == GST_FLOW_OK && out && errors.empty(), "%s: no frame (%s)", c.props, errors.c_str());
    else
      CHECK_MSG(ret == GST_FLOW_ERROR && !out && contains(errors, c.says), "%s: errors '%s', expected '%s'", c.props,
                errors.c_str(), c.says);
    if (out) gst_buffer_unref(out);
  }
  std::printf(
      "max-samples: 1109 x 2098808 refused naming it; 40 x 30 x 3 at its limit decodes, a sample over refused\n");
}

// reduce=1: every side halved, rounded up (T.800 B-14), also after a change
// while playing.
static void reduced_size() {
  const std::vector<std::uint8_t> cs = encode("I420", 33, 17, "levels=3", 9);
  Harness hx("cudaj2kdec name=d backend=cpu reduce=1");
  CHECK(hx.set_caps("image/x-jpc"));
  const struct { int reduce, w, h; } expect[] = {{1, 17, 9}, {2, 9, 5}, {0, 33, 17}};
  for (const auto &e : expect) {
    GstElement *d = hx.get("d");
    g_object_set(d, "reduce", e.reduce, nullptr);
    gst_object_unref(d);
    CHECK(hx.push(buffer_of(cs)) == GST_FLOW_OK);
    GstBuffer *out = hx.pull();
    GstCaps *caps = hx.out_caps();
    GstVideoInfo info;
    CHECK_MSG(out && caps && gst_video_info_from_caps(&info, caps) && info.width == e.w && info.height == e.h &&
                  GST_VIDEO_INFO_FORMAT(&info) == GST_VIDEO_FORMAT_I420 &&
                  gst_buffer_get_size(out) >= GST_VIDEO_INFO_SIZE(&info),
              "reduce=%d: caps %s, expected I420 %dx%d", e.reduce, caps_string(caps).c_str(), e.w, e.h);
    if (caps) gst_caps_unref(caps);
    if (out) gst_buffer_unref(out);
  }
}

// ---------------------------------------------------------------------------
// The cuda backend

static void cuda_backend() {
  std::string why;
  if (!cf::cuda_device_usable(0, &why)) {
    std::printf("SKIP: backend=cuda: no usable CUDA device (%s)\n", why.c_str());
    return;
  }
  int runs = 0;
  const struct { int w, h; } sizes[] = {{33, 17}, {321, 241}};
  for (const char *format : {"GRAY8", "GRAY16_LE", "RGB", "I420", "Y42B", "Y444", "RGBA"})
    for (const auto &s : sizes) {
      const std::string desc = source(format, s.w, s.h, 2) +
                               "cudaj2kenc backend=cpu levels=" + std::to_string(levels_for(format, s.w, s.h)) +
                               " ! cudaj2kdec backend=cuda" + kSink;
      Frames f;
      run_frames(desc, &f);
      expect_source(desc, f, 2);
      ++runs;
    }
  if (!have_elements({"cudadownload"})) return;
  // The caps filter admits CUDA memory only: a decoder that gave system
  // memory would not negotiate.
  for (const char *format : {"RGB", "RGBA", "I420", "Y444"}) {
    const std::string desc = source(format, 321, 240, 2) +
                             "cudaj2kenc backend=cpu levels=4 tile-width=128 tile-height=96 ! cudaj2kdec backend=cuda "
                             "! video/x-raw(memory:CUDAMemory) ! cudadownload" +
                             kSink;
    Frames f;
    run_frames(desc, &f);
    expect_source(desc, f, 2);
    ++runs;
  }
  std::printf("cudaj2kenc ! cudaj2kdec backend=cuda exact: %d runs, 4 of them in memory:CUDAMemory\n", runs);
}

int main(int argc, char **argv) {
  init(&argc, &argv);
  if (!have_elements({"videotestsrc", "tee", "queue", "appsink", "filesrc"})) return cft::kSkip;
  properties();
  bad_caps();
  faults();
  sample_limit();
  reduced_size();
  round_trips();
  from_openjpegenc();
  opj_files();
  colour_hints();
  fewer_layers();
  muxed("cudaj2kenc", "mj2mux", "qtdemux", ".mj2", "Y42B");
  muxed("cudaj2kenc", "mj2mux", "qtdemux", ".mj2", "RGBA");
  muxed("openjpegenc", "mj2mux", "qtdemux", ".mj2", "I420");
  muxed("cudaj2kenc", "mxfmux", "mxfdemux", ".mxf", "I420");
  muxed("cudaj2kenc", "mxfmux", "mxfdemux", ".mxf", "RGB");
  cuda_backend();
  return cft::test_result();
}
