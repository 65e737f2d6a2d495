#include "bench_j2k.hpp"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <gst/video/video.h>
#include <spawn.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <thread>

extern char **environ;

namespace {

// Whether the element's sink pad template lists the raw format (a harness
// push of another one fails without an error message).
bool takes_format(const std::string &element, const std::string &format) {
  GstElementFactory *factory = gst_element_factory_find(element.c_str());
  if (!factory) return true;  // bench_element says that it is missing
  GstCaps *raw = gst_caps_from_string(("video/x-raw,format=" + format).c_str());
  bool takes = false;
  for (const GList *t = gst_element_factory_get_static_pad_templates(factory); t; t = t->next) {
    auto *tmpl = static_cast<GstStaticPadTemplate *>(t->data);
    if (tmpl->direction != GST_PAD_SINK) continue;
    GstCaps *caps = gst_static_pad_template_get_caps(tmpl);
    takes = takes || gst_caps_can_intersect(caps, raw);
    gst_caps_unref(caps);
  }
  gst_caps_unref(raw);
  gst_object_unref(factory);
  return takes;
}

// The figures of a row after its label cells: fps, ms/frame, bits per pixel
// of the codestream, the ceiling (0: none), or the note saying why not.
std::string figures(const BenchResult &r, int w, int h, double ceiling) {
  if (!r.note.empty()) return r.note + " | | | |";
  return bench_fmt("%.2f", r.fps) + " | " + bench_fmt("%.2f", r.ms) + " | " +
         bench_fmt("%.3f", 8.0 * r.out_bytes / (double(w) * h)) + " | " +
         (ceiling > 0 ? bench_fmt("%.0f", ceiling) : "-") + " |";
}

}  // namespace

std::string bench_j2k_mode_params(const J2kMode &m) {
  return m.reversible ? "reversible" : "irreversible " + bench_fmt("%g", m.bitrate) + " bpp";
}

std::string bench_j2k_mode_props(const J2kMode &m) {
  return m.reversible ? "reversible=true" : "reversible=false bitrate=" + bench_fmt("%g", m.bitrate);
}

std::string bench_opj_extension(const std::string &format) {
  return format == "GRAY8" ? ".pgm" : format == "RGB" ? ".ppm" : ".raw";
}

bool bench_write_opj_input(GstBuffer *frame, const std::string &format, int w, int h, const std::string &path) {
  GstVideoInfo info;
  if (!gst_video_info_set_format(&info, gst_video_format_from_string(format.c_str()), w, h)) return false;
  GstVideoFrame f;
  if (!gst_video_frame_map(&f, &info, frame, GST_MAP_READ)) return false;
  std::ofstream out(path, std::ios::binary);
  if (format != "I420") out << (format == "GRAY8" ? "P5\n" : "P6\n") << w << " " << h << "\n255\n";
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES(&f); ++p) {
    const int comp = int(p);  // GRAY8, RGB: one plane; I420: plane i holds component i
    const auto *data = static_cast<const char *>(GST_VIDEO_FRAME_PLANE_DATA(&f, p));
    const int stride = GST_VIDEO_FRAME_PLANE_STRIDE(&f, p);
    const int row = GST_VIDEO_FRAME_COMP_WIDTH(&f, comp) * GST_VIDEO_FRAME_COMP_PSTRIDE(&f, comp);
    for (int y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT(&f, comp); ++y) out.write(data + std::size_t(y) * stride, row);
  }
  gst_video_frame_unmap(&f);
  return bool(out);
}

std::string bench_run_program(const std::vector<std::string> &args, double &ms) {
  std::vector<char *> argv;
  for (const auto &a : args) argv.push_back(const_cast<char *>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t quiet;
  posix_spawn_file_actions_init(&quiet);
  posix_spawn_file_actions_addopen(&quiet, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&quiet, 1, 2);
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  int status = 0;
  const int spawn_error = posix_spawnp(&pid, argv[0], &quiet, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&quiet);
  if (spawn_error) return args[0] + " not found";
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return args[0] + " failed (exit status " + std::to_string(WEXITSTATUS(status)) + ")";
  ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return "";
}

void bench_time_program(const std::vector<std::string> &args, double seconds, BenchResult &r) {
  std::vector<double> times;
  double elapsed = 0, ms = 0;
  r.note = bench_run_program(args, ms);  // warm-up: the file cache, the library's loading
  while (r.note.empty() && (elapsed < 1000 * seconds || times.size() < 3)) {
    r.note = bench_run_program(args, ms);
    times.push_back(ms);
    elapsed += ms;
  }
  if (!r.note.empty()) return;
  std::sort(times.begin(), times.end());
  r.ms = times[times.size() / 2];
  r.fps = 1000 / r.ms;
  r.frames = int(times.size());
}

std::vector<std::string> bench_opj_compress_args(const std::string &format, int w, int h, const J2kMode &m,
                                                 const std::string &threads, const std::string &in,
                                                 const std::string &out) {
  // Same coding as cudaj2kenc's defaults: 5 levels (6 resolutions), 64 x 64
  // code-blocks, one layer, LRCP, one tile.
  std::vector<std::string> args = {"opj_compress", "-i", in, "-o", out, "-threads", threads, "-n", "6"};
  const int comps = format == "GRAY8" ? 1 : 3;
  if (format == "I420")  // YUV is coded as it is, as cudaj2kenc does
    args.insert(args.end(), {"-F", std::to_string(w) + "," + std::to_string(h) + ",3,8,u@1x1:2x2:2x2", "-mct", "0"});
  // OpenJPEG's -r is a ratio to components x 8 bits per pixel of the full
  // grid, chroma subsampling not counted (I420 at -r 24 gives 1 bpp).
  if (!m.reversible) args.insert(args.end(), {"-I", "-r", bench_fmt("%g", comps * 8 / m.bitrate)});
  return args;
}

namespace {

// opj_compress on the frame written once to a file: the median time of the
// runs (one warm-up run, then at least 3 and until `seconds` have passed),
// process start, file read and file write included.
BenchResult bench_opj_compress(GstBuffer *frame, const std::string &format, int w, int h, const J2kMode &m,
                               double seconds, const std::string &threads) {
  BenchResult r;
  if (format != "GRAY8" && format != "RGB" && format != "I420") {
    r.note = "opj_compress rows: GRAY8, RGB and I420";
    return r;
  }
  gchar *dir = g_dir_make_tmp("cf-bench-XXXXXX", nullptr);
  if (!dir) {
    r.note = "no temporary folder";
    return r;
  }
  const std::string in = std::string(dir) + "/frame" + bench_opj_extension(format);
  const std::string out = std::string(dir) + "/frame.j2k";
  const std::vector<std::string> args = bench_opj_compress_args(format, w, h, m, threads, in, out);
  r.in_bytes = gst_buffer_get_size(frame);
  if (!bench_write_opj_input(frame, format, w, h, in)) r.note = "cannot write " + in;
  if (r.note.empty()) bench_time_program(args, seconds, r);
  if (r.note.empty()) {
    GStatBuf st;
    r.out_bytes = g_stat(out.c_str(), &st) == 0 ? std::size_t(st.st_size) : 0;
  }
  g_remove(in.c_str());
  g_remove(out.c_str());
  g_rmdir(dir);
  g_free(dir);
  return r;
}

}  // namespace

bool bench_is_j2k(const std::string &element) {
  return element == "cudaj2kenc" || element == "openjpegenc" || element == "opj_compress";
}

bool bench_j2k_mode(const std::string &text, J2kMode &mode, std::string &why) {
  mode = J2kMode{};
  if (text == "reversible") return true;
  char *end = nullptr;
  const double bpp = std::strtod(text.c_str(), &end);
  if (end != text.c_str() && std::string(end) == "bpp" && bpp > 0) {
    mode.reversible = false;
    mode.bitrate = bpp;
    return true;
  }
  why = "--j2k-modes: \"" + text + "\" is no mode; use reversible or <bits per pixel>bpp (e.g. 1bpp)";
  return false;
}

bool bench_j2k_section(const J2kBenchOptions &o, const std::function<void(const std::string &)> &line) {
  const std::string threads = std::to_string(std::max(1u, std::thread::hardware_concurrency()));
  line(
      "## JPEG 2000 encoders\n\n"
      "cudaj2kenc in the GstHarness of the element rows, at its defaults (5 levels, 64 x 64 code-blocks, one "
      "layer, one tile) and the mode in params; memory cuda: memory:CUDAMemory in, host-wait=false; the codestream "
      "is host memory in both. Its core rows are pipelines/j2k_timing's. "
      "openjpegenc: GStreamer's encoder in the same harness, system memory; lossless only (no rate or 9/7 "
      "property); one thread per frame (its num-threads codes stripes in parallel, another output); no RGB in "
      "its caps, so RGB rows push xRGB. "
      "opj_compress -threads " +
      threads +
      ": the program, from start to exit, reading the PGM, PPM or raw I420 file and writing the .j2k included; "
      "ms/frame is the median of the runs.\n"
      "bits/pixel: codestream bytes x 8 / (width x height). ceiling fps: cuda backend in system memory, "
      "1 / (input / host-to-device + codestream / device-to-host); an encoder is not bound by copies in CUDA "
      "memory, so no ceiling there.\n");
  line("| element | format | size | params | backend | memory | fps | ms/frame | bits/pixel | ceiling fps |");
  line("|---|---|---|---|---|---|---:|---:|---:|---:|");
  const Ceilings &ceil = o.ceilings;
  for (const auto &format : o.formats)
    for (const auto &size : o.sizes) {
      int w = 0, h = 0;
      if (std::sscanf(size.c_str(), "%dx%d", &w, &h) != 2) continue;
      GstBuffer *frame = bench_load_frame(o.image, format, w, h);
      if (!frame) return false;
      const auto label = [&](const std::string &element, const std::string &params, const std::string &backend,
                             const std::string &memory) {
        return "| " + element + " | " + format + " | " + size + " | " + params + " | " + backend + " | " + memory +
               " | ";
      };
      for (const auto &element : o.elements)
        for (const J2kMode &mode : o.modes) {
          const std::string params = bench_j2k_mode_params(mode);
          const std::string mode_props = bench_j2k_mode_props(mode);
          if (element == "cudaj2kenc") {
            for (const auto &memory : o.memories)
              for (const auto &backend : o.backends) {
                if (memory != "system" && memory != "cuda") continue;  // core rows: j2k_timing
                BenchCase c{element, format, backend, memory, w, h, 0, 0, mode_props + " " + o.props, "image/x-jpc"};
                BenchResult r;
                if (!takes_format(element, format))
                  r.note = format + " is not in " + element + "'s sink caps";
                else if ((backend == "cuda" || memory == "cuda") && !o.gpu)
                  r.note = "no GPU: " + o.no_gpu_why;
                else
                  r = bench_element(c, frame, o.seconds);
                const double ceiling =
                    backend == "cuda" && memory == "system" && ceil.note.empty() && r.note.empty()
                        ? 1.0 / (r.in_bytes / (ceil.h2d_gbps * 1e9) + r.out_bytes / (ceil.d2h_gbps * 1e9))
                        : 0;
                line(label(element, params + (o.props.empty() ? "" : " " + o.props), backend, memory) +
                     figures(r, w, h, ceiling));
              }
          } else if (element == "openjpegenc" && bench_has(o.memories, "system")) {
            BenchResult r;
            if (!mode.reversible) {
              r.note = "openjpegenc has no rate or 9/7 property";
              line(label(element, params, "-", "system") + figures(r, w, h, 0));
              continue;
            }
            const bool xrgb = format == "RGB";
            GstBuffer *input = xrgb ? bench_load_frame(o.image, "xRGB", w, h) : gst_buffer_ref(frame);
            if (!input) {
              gst_buffer_unref(frame);
              return false;
            }
            BenchCase c{element, xrgb ? "xRGB" : format, "-", "system", w, h, 0, 0, "", "image/x-jpc"};
            if (takes_format(element, c.format))
              r = bench_element(c, input, o.seconds);
            else
              r.note = format + " is not in " + element + "'s sink caps";
            gst_buffer_unref(input);
            line(label(element, params + (xrgb ? ", xRGB input" : ""), "-", "system") + figures(r, w, h, 0));
          } else if (element == "opj_compress" && bench_has(o.memories, "system")) {
            const BenchResult r = bench_opj_compress(frame, format, w, h, mode, o.seconds, threads);
            line(label(element, params, "-", "files") + figures(r, w, h, 0));
          }
        }
      gst_buffer_unref(frame);
    }
  return true;
}
