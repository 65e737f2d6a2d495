#include "bench_j2kdec.hpp"

#define GST_USE_UNSTABLE_API
#include <glib/gstdio.h>
#include <gst/check/gstharness.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/video/video.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

bool opj_takes(const std::string &format) { return format == "GRAY8" || format == "RGB" || format == "I420"; }

std::string raw_caps(const std::string &format, int w, int h) {
  return "video/x-raw,format=" + format + ",width=" + std::to_string(w) + ",height=" + std::to_string(h) +
         ",framerate=30/1";
}

// The codestream's caps with the fields jpeg2000parse gives: openjpegdec's
// sink caps require a sampling and its output takes the size from them;
// cudaj2kdec reads the colour space.
std::string stream_caps(const std::string &format, int w, int h) {
  const std::string size = ",width=" + std::to_string(w) + ",height=" + std::to_string(h) + ",framerate=30/1";
  if (format == "GRAY8") return "image/x-jpc,colorspace=GRAY,sampling=GRAYSCALE" + size;
  if (format == "RGB") return "image/x-jpc,colorspace=sRGB,sampling=RGB" + size;
  if (format == "RGBA") return "image/x-jpc,colorspace=sRGB,sampling=RGBA" + size;
  if (format == "I420") return "image/x-jpc,colorspace=sYUV,sampling=YCbCr-4:2:0" + size;
  return "image/x-jpc" + size;
}

// A harness gives its element no bus; with one, a failed row shows the
// element's message.
void attach_bus(GstElement *element) {
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(element, bus);
  gst_object_unref(bus);
}

// The element's first error (else warning) on its bus, or "".
std::string bus_message(GstElement *element) {
  GstMessage *m = gst_bus_pop_filtered(GST_ELEMENT_BUS(element), GST_MESSAGE_ERROR);
  if (!m) m = gst_bus_pop_filtered(GST_ELEMENT_BUS(element), GST_MESSAGE_WARNING);
  if (!m) return "";
  GError *e = nullptr;
  if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR)
    gst_message_parse_error(m, &e, nullptr);
  else
    gst_message_parse_warning(m, &e, nullptr);
  std::string text = e->message;
  g_error_free(e);
  gst_message_unref(m);
  return text;
}

// One codestream of the frame, made once and decoded by every row.
struct Stream {
  std::string name;           // ours | opj
  GstBuffer *data = nullptr;  // the codestream
  std::string file;           // the same bytes in a .j2k file, for opj_decompress
  std::string note;           // why there is none
};

// Ours: the frame through cudaj2kenc (backend openmp) at its defaults, the
// mode's properties and --props (block-coder=ht: HTJ2K code-blocks), as the
// encoder rows code it.
GstBuffer *encode_ours(GstBuffer *frame, const std::string &format, int w, int h, const J2kMode &m,
                       const std::string &props, std::string &note) {
  GstElement *e = gst_element_factory_make("cudaj2kenc", nullptr);
  if (!e) {
    note = "cudaj2kenc not found";
    return nullptr;
  }
  gst_util_set_object_arg(G_OBJECT(e), "backend", "openmp");
  for (const auto &[name, value] : bench_props(bench_j2k_mode_props(m) + " " + props))
    gst_util_set_object_arg(G_OBJECT(e), name.c_str(), value.c_str());
  attach_bus(e);
  GstHarness *harness = gst_harness_new_with_element(e, "sink", "src");
  gst_harness_set_sink_caps_str(harness, "image/x-jpc");
  gst_harness_set_src_caps_str(harness, raw_caps(format, w, h).c_str());
  GstBuffer *out =
      gst_harness_push(harness, gst_buffer_ref(frame)) == GST_FLOW_OK ? gst_harness_try_pull(harness) : nullptr;
  if (!out) {
    const std::string why = bus_message(e);
    note = "cudaj2kenc: " + (why.empty() ? "no codestream" : why);
  }
  gst_harness_teardown(harness);
  gst_object_unref(e);
  return out;
}

// Opj: the frame through opj_compress with the encoder rows' command line.
GstBuffer *encode_opj(GstBuffer *frame, const std::string &format, int w, int h, const J2kMode &m,
                      const std::string &threads, const std::string &dir, std::string &note) {
  if (!opj_takes(format)) {
    note = "opj_compress rows: GRAY8, RGB and I420";
    return nullptr;
  }
  const std::string in = dir + "/frame" + bench_opj_extension(format), out = dir + "/opj_compress.j2k";
  double ms = 0;
  if (!bench_write_opj_input(frame, format, w, h, in))
    note = "cannot write " + in;
  else
    note = bench_run_program(bench_opj_compress_args(format, w, h, m, threads, in, out), ms);
  gchar *bytes = nullptr;
  gsize size = 0;
  if (note.empty() && !g_file_get_contents(out.c_str(), &bytes, &size, nullptr)) note = "cannot read " + out;
  g_remove(in.c_str());
  g_remove(out.c_str());
  return note.empty() ? gst_buffer_new_wrapped(bytes, size) : nullptr;
}

// The stream's bytes into dir/<name>.j2k: "" or why not.
std::string write_stream_file(Stream &s, const std::string &dir) {
  s.file = dir + "/" + s.name + ".j2k";
  GstMapInfo map;
  if (!gst_buffer_map(s.data, &map, GST_MAP_READ)) return "cannot map the codestream";
  const bool written =
      g_file_set_contents(s.file.c_str(), reinterpret_cast<const gchar *>(map.data), gssize(map.size), nullptr);
  gst_buffer_unmap(s.data, &map);
  return written ? "" : "cannot write " + s.file;
}

std::string describe(const GstVideoInfo &info) {
  return std::string(gst_video_format_to_string(GST_VIDEO_INFO_FORMAT(&info))) + " " +
         std::to_string(GST_VIDEO_INFO_WIDTH(&info)) + "x" + std::to_string(GST_VIDEO_INFO_HEIGHT(&info));
}

// The first decoded frame against the source frame: "" or what is wrong.
// Its width and height must be the source's, its format too where
// `same_format` (cudaj2kdec; openjpegdec's formats are its own choice); a
// lossless stream decoded to the source's format must give its samples.
std::string check_decoded(GstHarness *h, GstBuffer *out, GstBuffer *frame, const GstVideoInfo &src, bool lossless,
                          bool same_format, std::string &out_format) {
  GstCaps *caps = gst_pad_get_current_caps(h->sinkpad);
  GstVideoInfo info;
  const bool raw = caps && gst_video_info_from_caps(&info, caps);
  if (caps) gst_caps_unref(caps);
  if (!raw) return "no raw video caps on the decoder's output";
  out_format = gst_video_format_to_string(GST_VIDEO_INFO_FORMAT(&info));
  const bool other_format = GST_VIDEO_INFO_FORMAT(&info) != GST_VIDEO_INFO_FORMAT(&src);
  if (GST_VIDEO_INFO_WIDTH(&info) != GST_VIDEO_INFO_WIDTH(&src) ||
      GST_VIDEO_INFO_HEIGHT(&info) != GST_VIDEO_INFO_HEIGHT(&src) || (same_format && other_format))
    return "decoded " + describe(info) + ", not the source's " + describe(src);
  GstVideoFrame a, b;
  if (!gst_video_frame_map(&a, &info, out, GST_MAP_READ))
    return "decoded buffer of " + std::to_string(gst_buffer_get_size(out)) + " bytes holds no " + describe(info);
  std::string wrong;
  if (lossless && !other_format && gst_video_frame_map(&b, &src, frame, GST_MAP_READ)) {
    // Plane p holds component p in the formats compared here (planar YUV,
    // packed RGB: one plane).
    for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&a) && wrong.empty(); ++p) {
      const int row = GST_VIDEO_FRAME_COMP_WIDTH(&a, p) * GST_VIDEO_FRAME_COMP_PSTRIDE(&a, p);
      for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&a, p) && wrong.empty(); ++y)
        if (std::memcmp(static_cast<const char *>(GST_VIDEO_FRAME_PLANE_DATA(&a, p)) +
                            std::size_t(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&a, p),
                        static_cast<const char *>(GST_VIDEO_FRAME_PLANE_DATA(&b, p)) +
                            std::size_t(y) * GST_VIDEO_FRAME_PLANE_STRIDE(&b, p),
                        row) != 0)
          wrong = "lossless stream decoded to other samples than the source's (plane " + std::to_string(p) + ", row " +
                  std::to_string(y) + ")";
    }
    gst_video_frame_unmap(&b);
  }
  gst_video_frame_unmap(&a);
  return wrong;
}

// Two warm-up frames, then frames until `seconds` have passed (at least 3),
// as the element rows run; `drain` waits at the end for the work elements
// in CUDA memory only queued.
template <class Frame>
void timed_loop(BenchResult &r, double seconds, Frame &&frame, bool drain) {
  if (!frame() || !frame()) return;
  const auto start = Clock::now();
  double elapsed = 0;
  while (elapsed < seconds || r.frames < 3) {
    if (!frame()) return;
    ++r.frames;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  if (drain) {
    bench_cuda_drain();
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  r.fps = r.frames / elapsed;
  r.ms = 1000.0 * elapsed / r.frames;
}

struct Decoded {
  BenchResult r;
  std::string out_format;  // of the decoded frames
};

// The decoder in a GstHarness fed with two copies of the codestream,
// pulling each frame; memory "cuda" asks for memory:CUDAMemory on the
// output, with host-wait=false.
Decoded decode_in_harness(const std::string &element, const std::string &backend, const std::string &memory,
                          const Stream &s, const std::string &caps, GstBuffer *frame, const GstVideoInfo &src,
                          bool lossless, double seconds) {
  Decoded d;
  BenchResult &r = d.r;
  const bool cuda = memory == "cuda";
  GstElement *e = gst_element_factory_make(element.c_str(), nullptr);
  if (!e) {
    r.note = element + " not found";
    return d;
  }
  if (backend != "-") gst_util_set_object_arg(G_OBJECT(e), "backend", backend.c_str());
  if (cuda) {
    g_object_set(e, "host-wait", FALSE, nullptr);
    if (!bench_set_cuda_context(e)) {
      r.note = "no GstCudaContext";
      gst_object_unref(e);
      return d;
    }
  }
  attach_bus(e);
  GstHarness *h = gst_harness_new_with_element(e, "sink", "src");
  gst_harness_set_sink_caps_str(h, cuda ? "video/x-raw(memory:CUDAMemory)" : "video/x-raw");
  gst_harness_set_src_caps_str(h, caps.c_str());
  GstBuffer *inputs[2] = {gst_buffer_copy_deep(s.data), gst_buffer_copy_deep(s.data)};
  r.in_bytes = gst_buffer_get_size(s.data);
  int pushed = 0;
  bool checked = false;
  timed_loop(
      r, seconds,
      [&] {
        const GstFlowReturn flow = gst_harness_push(h, gst_buffer_ref(inputs[pushed++ & 1]));
        if (flow != GST_FLOW_OK) {
          r.note = flow == GST_FLOW_NOT_NEGOTIATED ? "negotiation failed"
                                                   : std::string("push returned ") + gst_flow_get_name(flow);
          return false;
        }
        GstBuffer *out = gst_harness_try_pull(h);
        if (!out) {
          r.note = "no decoded frame";
          return false;
        }
        if (!checked) {
          checked = true;
          if (cuda) bench_cuda_drain();  // the frame is read below
          if (cuda && !gst_is_cuda_memory(gst_buffer_peek_memory(out, 0))) r.note = "output not in CUDA memory";
          if (r.note.empty())
            r.note = check_decoded(h, out, frame, src, lossless, element == "cudaj2kdec", d.out_format);
        }
        r.out_bytes = gst_buffer_get_size(out);
        gst_buffer_unref(out);
        return r.note.empty();
      },
      cuda);
  if (!r.note.empty())
    if (const std::string why = bus_message(e); !why.empty()) r.note += ": " + why;
  for (GstBuffer *b : inputs) gst_buffer_unref(b);
  gst_harness_teardown(h);
  gst_object_unref(e);
  return d;
}

// opj_decompress on the stream's .j2k file, writing the PGM, PPM or raw
// I420 file; timed as the encoder section's opj_compress rows.
BenchResult bench_opj_decompress(const Stream &s, const std::string &format, int w, int h, const std::string &dir,
                                 double seconds, const std::string &threads) {
  BenchResult r;
  if (!opj_takes(format)) {
    r.note = "opj_decompress rows: GRAY8, RGB and I420";
    return r;
  }
  const std::string out = dir + "/decoded" + bench_opj_extension(format);
  r.in_bytes = gst_buffer_get_size(s.data);
  bench_time_program({"opj_decompress", "-i", s.file, "-o", out, "-threads", threads}, seconds, r);
  // The file holds at least the frame's samples (PGM and PPM add a header).
  const std::size_t samples = format == "I420" ? std::size_t(w) * h + 2 * std::size_t((w + 1) / 2) * ((h + 1) / 2)
                                               : std::size_t(w) * h * (format == "RGB" ? 3 : 1);
  GStatBuf st;
  if (r.note.empty()) {
    r.out_bytes = g_stat(out.c_str(), &st) == 0 ? std::size_t(st.st_size) : 0;
    if (r.out_bytes < samples)
      r.note = "opj_decompress wrote " + std::to_string(r.out_bytes) + " bytes, less than the frame's " +
               std::to_string(samples) + " samples";
  }
  g_remove(out.c_str());
  return r;
}

// The figures of a row after its label cells: fps, ms/frame, Mpixel/s, the
// ceiling (0: none), or the note saying why not.
std::string figures(const BenchResult &r, int w, int h, double ceiling) {
  if (!r.note.empty()) return r.note + " | | | |";
  return bench_fmt("%.2f", r.fps) + " | " + bench_fmt("%.2f", r.ms) + " | " +
         bench_fmt("%.1f", double(w) * h * r.fps / 1e6) + " | " + (ceiling > 0 ? bench_fmt("%.0f", ceiling) : "-") +
         " |";
}

}  // namespace

bool bench_is_j2k_decoder(const std::string &element) {
  return element == "cudaj2kdec" || element == "openjpegdec" || element == "opj_decompress";
}

bool bench_j2kdec_section(const J2kBenchOptions &o, const std::function<void(const std::string &)> &line) {
  const std::string threads = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  line(
      "## JPEG 2000 decoders\n\n"
      "Each frame is coded once per mode, untimed, into two codestreams: ours (cudaj2kenc, backend openmp, at "
      "its defaults and the mode, as the encoder rows) and opj (opj_compress with the encoder rows' command "
      "line); params gives the mode and the codestream's bits per pixel. "
      "cudaj2kdec and openjpegdec: the element in a GstHarness fed alternately with two copies of the "
      "codestream (image/x-jpc with jpeg2000parse's fields: colorspace, sampling, width, height), pulling each raw "
      "frame; memory "
      "system: system-memory output; memory cuda: memory:CUDAMemory asked for on the output, host-wait=false, "
      "and each timed loop ends with a wait on the context's stream. "
      "openjpegdec: GStreamer's decoder, max-threads left at its default (0), system memory; params name its "
      "output format where it is not the source's. "
      "Each harness row checks its first frame: the source's width and height (cudaj2kdec: and format), and "
      "in reversible mode, decoded to the source's format, the source's samples; a row that fails says so. "
      "opj_decompress -threads " +
      threads +
      ": the program, from start to exit, reading the .j2k file and writing the PGM, PPM or raw I420 file "
      "included; ms/frame is the median of the runs. --props applies to ours (block-coder=ht: HTJ2K "
      "code-blocks), not to opj.\n"
      "Mpixel/s: width x height x fps. ceiling fps: cuda backend in system memory, 1 / (codestream / "
      "host-to-device + raw frame / device-to-host).\n");
  line("| decoder | stream | format | size | params | backend | memory | fps | ms/frame | Mpixel/s | ceiling fps |");
  line("|---|---|---|---|---|---|---|---:|---:|---:|---:|");
  gchar *tmp = g_dir_make_tmp("cf-bench-XXXXXX", nullptr);
  if (!tmp) {
    std::fprintf(stderr, "cf-bench: no temporary folder for the decoder section\n");
    return false;
  }
  const std::string dir = tmp;
  g_free(tmp);
  const Ceilings &ceil = o.ceilings;
  // GStreamer 1.22's CUDA allocator aborts on formats it does not know.
  static const std::string kCudaFormats = " RGB BGR RGBA BGRA I420 NV12 Y444 ";
  for (const auto &format : o.formats)
    for (const auto &size : o.sizes) {
      int w = 0, h = 0;
      if (std::sscanf(size.c_str(), "%dx%d", &w, &h) != 2) continue;
      GstBuffer *frame = bench_load_frame(o.image, format, w, h);
      if (!frame) {
        g_rmdir(dir.c_str());
        return false;
      }
      GstVideoInfo src;
      gst_video_info_set_format(&src, gst_video_format_from_string(format.c_str()), w, h);
      const std::string caps = stream_caps(format, w, h);
      for (const J2kMode &mode : o.modes) {
        Stream streams[2];
        streams[0].name = "ours";
        streams[1].name = "opj";
        streams[0].data = encode_ours(frame, format, w, h, mode, o.props, streams[0].note);
        streams[1].data = encode_opj(frame, format, w, h, mode, threads, dir, streams[1].note);
        for (Stream &s : streams) {
          if (s.data) s.note = write_stream_file(s, dir);
          const std::string params =
              bench_j2k_mode_params(mode) + (s.name == "ours" && !o.props.empty() ? " " + o.props : "") +
              (s.data ? bench_fmt(", %.3f bpp", 8.0 * gst_buffer_get_size(s.data) / (double(w) * h)) : "");
          const auto label = [&](const std::string &decoder, const std::string &extra, const std::string &backend,
                                 const std::string &memory) {
            return "| " + decoder + " | " + s.name + " | " + format + " | " + size + " | " + params + extra + " | " +
                   backend + " | " + memory + " | ";
          };
          if (!s.note.empty()) {
            line(label("-", "", "-", "-") + "no stream: " + s.note + " | | | |");
            continue;
          }
          for (const auto &element : o.elements)
            if (element == "cudaj2kdec") {
              for (const auto &memory : o.memories)
                for (const auto &backend : o.backends) {
                  if (memory != "system" && memory != "cuda") continue;
                  Decoded d;
                  if ((backend == "cuda" || memory == "cuda") && !o.gpu)
                    d.r.note = "no GPU: " + o.no_gpu_why;
                  else if (memory == "cuda" && kCudaFormats.find(" " + format + " ") == std::string::npos)
                    d.r.note = format + " has no GstCudaMemory layout in GStreamer 1.22";
                  else
                    d = decode_in_harness(element, backend, memory, s, caps, frame, src, mode.reversible, o.seconds);
                  const double ceiling =
                      backend == "cuda" && memory == "system" && ceil.note.empty() && d.r.note.empty()
                          ? 1.0 / (d.r.in_bytes / (ceil.h2d_gbps * 1e9) + d.r.out_bytes / (ceil.d2h_gbps * 1e9))
                          : 0;
                  line(label(element, "", backend, memory) + figures(d.r, w, h, ceiling));
                }
            } else if (element == "openjpegdec" && bench_has(o.memories, "system")) {
              const Decoded d =
                  decode_in_harness(element, "-", "system", s, caps, frame, src, mode.reversible, o.seconds);
              const std::string out = d.out_format.empty() || d.out_format == format ? "" : ", output " + d.out_format;
              line(label(element, out, "-", "system") + figures(d.r, w, h, 0));
            } else if (element == "opj_decompress" && bench_has(o.memories, "system")) {
              const BenchResult r = bench_opj_decompress(s, format, w, h, dir, o.seconds, threads);
              line(label(element, "", "-", "files") + figures(r, w, h, 0));
            }
        }
        for (Stream &s : streams) {
          if (s.data) gst_buffer_unref(s.data);
          if (!s.file.empty()) g_remove(s.file.c_str());
        }
      }
      gst_buffer_unref(frame);
    }
  g_rmdir(dir.c_str());
  return true;
}
