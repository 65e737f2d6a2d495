// cf-bench: frames per second of cudafilters elements against the hardware's
// ceilings, and of realistic decode pipelines.
//
// Element rows: a real photo is decoded and scaled once per format and size,
// two copies are kept in memory (system memory, or uploaded once into
// GstCudaMemory), and they are pushed alternately through the element in a
// GstHarness, pulling each output; the source's cost is not in the time. In
// system memory a chain call returns complete; in CUDA memory (elements with
// host-wait=false) and in core rows calls only queue work on the context's
// legacy stream, and each timed loop ends by waiting for it: the time per
// frame is then the throughput. memory=core rows run the core library on device
// frames without GStreamer (what the kernels cost), memory=core-pinned on pinned host
// frames (the core's upload, kernels and download, without GStreamer). Ceilings, measured in the same run:
// device-to-device copy bandwidth (bytes read + written), and pinned host <->
// device copies; each becomes the fps a frame of that size would allow.
//
//   cf-bench --image photo.jpg [--elements cudahaar,cudacdf53,cudacdf97,cudarct,...] [--levels 3] [--slice-heights
//   0,64]
//            [--backends cpu,openmp,cuda] [--memory system,cuda,core,core-pinned]
//            [--formats GRAY8,RGBA,I420] [--sizes 1280x720,1920x1080,3840x2160]
//            [--seconds 1] [--clips DIR] [--markdown results.md] [--props "edge=canny"]
// --elements also takes the predictors (cudamed, cudagap, cudaged; run at
// every --slice-heights) and "cudainverse:<element>", the inverse of that
// element's stream (e.g. cudainverse:cudamed).
// --props sets further element properties (cudahough: edge=canny, theta-bins=...;
// cudadct: quality=75, also read by its core rows).
// --clips DIR runs vtest-WxH.mp4 clips through nvh264dec (CUDA memory) and
// openh264dec (system memory) into the elements, end to end.
// JPEG 2000 encoders have a section of their own (fps, ms per frame and the
// codestream's bits per pixel): --elements cudaj2kenc (memory system and
// cuda, every backend; --props applies to it), openjpegenc (GStreamer's,
// system memory) and opj_compress (the program on all cores, files in and
// out), each at every --j2k-modes (default reversible,1bpp: lossless, and
// irreversible at 1 bit per pixel). Formats: GRAY8, RGB, I420 (and whatever
// else the element takes).
// JPEG 2000 decoders have a section too (fps, ms per frame, Mpixel/s):
// --elements cudaj2kdec (memory system and cuda, every backend),
// openjpegdec (GStreamer's, system memory) and opj_decompress (the program
// on all cores, files in and out), each decoding two codestreams of every
// frame at every --j2k-modes: ours (cudaj2kenc's, with --props: e.g.
// block-coder=ht for HTJ2K) and opj_compress's.
#include <gst/gst.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench_cases.hpp"
#include "bench_j2k.hpp"
#include "bench_j2kdec.hpp"
#include "cudafilters/engine.hpp"

namespace {

std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string command_output(const char *cmd) {
  std::string out;
  if (FILE *p = popen(cmd, "r")) {
    char buf[256];
    while (fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

std::string machine_description() {
  const std::string gpu =
      command_output("nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1");
  std::ostringstream s;
  s << "- GPU: " << (gpu.empty() ? "none" : gpu + " (name, driver)") << "\n"
    << "- CPU:" << command_output("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2") << ", "
    << command_output("nproc") << " cores available\n"
    << "- Date: " << command_output("date -u +%Y-%m-%dT%H:%MZ") << "\n";
  return s.str();
}

std::string fmt(const char *f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

struct Output {
  std::ostringstream all;
  void line(const std::string &s) {
    std::printf("%s\n", s.c_str());
    std::fflush(stdout);
    all << s << "\n";
  }
};

// Levels only mean something for the wavelets; the colour transforms (RGB
// family only) and cudaentropy get one row per format, with "-".
std::vector<std::string> element_levels(const std::string &element, const std::vector<std::string> &levels) {
  return bench_has_levels(element) ? levels : std::vector<std::string>{"-"};
}
bool element_takes(const std::string &element, const std::string &format) {
  static const std::string kRgb = " RGB BGR RGBA BGRA RGBx BGRx ";
  return (element != "cudarct" && element != "cudaycocg") || kRgb.find(" " + format + " ") != std::string::npos;
}

}  // namespace

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  std::string image, markdown, clips;
  std::vector<std::string> elements = {"cudahaar",  "cudacdf53",   "cudacdf97",    "cudarct",
                                       "cudaycocg", "cudaentropy", "cudahalftone", "cudadct"},
                           backends = {"cpu", "openmp", "cuda"}, memories = {"system", "cuda", "core"},
                           formats = {"GRAY8", "RGBA", "I420"}, sizes = {"1280x720", "1920x1080", "3840x2160"},
                           levels = {"3"}, slice_heights = {"0", "64"}, j2k_modes = {"reversible", "1bpp"};
  double seconds = 1.0;
  std::string props;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--image")
      image = v;
    else if (k == "--elements")
      elements = split(v);
    else if (k == "--backends")
      backends = split(v);
    else if (k == "--memory")
      memories = split(v);
    else if (k == "--formats")
      formats = split(v);
    else if (k == "--sizes")
      sizes = split(v);
    else if (k == "--levels")
      levels = split(v);
    else if (k == "--slice-heights")
      slice_heights = split(v);
    else if (k == "--seconds")
      seconds = std::stod(v);
    else if (k == "--clips")
      clips = v;
    else if (k == "--markdown")
      markdown = v;
    else if (k == "--props")
      props = v;
    else if (k == "--j2k-modes")
      j2k_modes = split(v);
    else {
      std::fprintf(stderr, "unknown option %s (see the top of cf-bench.cpp)\n", k.c_str());
      return 2;
    }
  }
  if (image.empty()) {
    std::fprintf(stderr, "usage: cf-bench --image photo.jpg [options] (see the top of cf-bench.cpp)\n");
    return 2;
  }
  std::vector<J2kMode> modes(j2k_modes.size());
  for (std::size_t i = 0; i < modes.size(); ++i)
    if (std::string why; !bench_j2k_mode(j2k_modes[i], modes[i], why)) {
      std::fprintf(stderr, "%s\n", why.c_str());
      return 2;
    }
  std::vector<std::string> encoders, decoders, filters;
  for (const auto &e : elements)
    (bench_is_j2k(e) ? encoders : bench_is_j2k_decoder(e) ? decoders : filters).push_back(e);
  Output out;
  std::string why;
  const bool gpu = cf::cuda_device_usable(0, &why);
  const Ceilings ceil = gpu ? bench_ceilings() : Ceilings{0, 0, 0, "no GPU (" + why + "): the CUDA rows are left out"};
  if (!gpu) {
    // Without a device only system memory through the CPU backends is measured; one line says why.
    const auto drop = [](std::vector<std::string> &v, auto gone) {
      v.erase(std::remove_if(v.begin(), v.end(), gone), v.end());
    };
    drop(backends, [](const std::string &b) { return b == "cuda"; });
    drop(memories, [](const std::string &m) { return m != "system"; });
  }
  out.line("# cf-bench\n\n" + machine_description() + "- Input: " + image + ", decoded and scaled once; " +
           fmt("%.2f", seconds) + " s per row after 2 warm-up frames" +
           (props.empty() ? "" : "; element properties: " + props) + "\n");
  out.line("## Ceilings (same run)\n");
  if (ceil.note.empty())
    out.line("- device-to-device copy: " + fmt("%.1f", ceil.d2d_gbps) +
             " GB/s (read + written)\n- pinned host to device: " + fmt("%.1f", ceil.h2d_gbps) +
             " GB/s\n- pinned device to host: " + fmt("%.1f", ceil.d2h_gbps) + " GB/s\n");
  else
    out.line("- " + ceil.note + "\n");
  if (!filters.empty()) {
    out.line(
        "## Elements\n\nmemory: system = GstHarness, system-memory buffers; cuda = GstHarness, "
        "memory:CUDAMemory in and out; core = libcudafilters on device frames, no GStreamer; "
        "core-pinned = libcudafilters on pinned host frames, no GStreamer.\n"
        "ceiling fps: cuda/core rows, copy bandwidth / (input + output bytes); system and core-pinned rows on "
        "cuda, "
        "1 / (input / host-to-device + output / device-to-host).\n");
    out.line(
        "| element | format | size | params | backend | memory | fps | ms/frame | GB/s (in+out) | "
        "ceiling fps | % of ceiling |");
    out.line("|---|---|---|---|---|---|---:|---:|---:|---:|---:|");
    for (const auto &format : formats)
      for (const auto &size : sizes) {
        int w = 0, h = 0;
        if (std::sscanf(size.c_str(), "%dx%d", &w, &h) != 2) continue;
        GstBuffer *frame = bench_load_frame(image, format, w, h);
        if (!frame) return 1;
        for (const auto &element : filters)
          for (const auto &param : bench_is_predictor(element) ? slice_heights : element_levels(element, levels))
            for (const auto &memory : memories)
              for (const auto &backend : backends) {
                if (memory != "system" && backend != "cuda") continue;  // device memory needs CUDA
                if (!element_takes(element, format)) continue;
                BenchCase c{element, format, backend, memory, w, h, 0, 0, props, ""};
                if (param != "-") (bench_is_predictor(element) ? c.slice_height : c.levels) = std::stoi(param);
                BenchResult r;
                if (backend == "cuda" && !gpu)
                  r.note = "no GPU: " + why;
                else if (memory == "core" || memory == "core-pinned")
                  r = bench_core(c, frame, seconds);
                else
                  r = bench_element(c, frame, seconds);
                std::string row = "| " + element + " | " + format + " | " + size + " | " + bench_params(c) + " | " +
                                  backend + " | " + memory + " | ";
                if (!r.note.empty()) {
                  out.line(row + r.note + " | | | | |");
                  continue;
                }
                const double bytes = double(r.in_bytes + r.out_bytes);
                double ceiling = 0;
                if (backend == "cuda" && ceil.note.empty())
                  ceiling = memory == "system" || memory == "core-pinned"
                                ? 1.0 / (r.in_bytes / (ceil.h2d_gbps * 1e9) + r.out_bytes / (ceil.d2h_gbps * 1e9))
                                : ceil.d2d_gbps * 1e9 / bytes;
                out.line(row + fmt("%.1f", r.fps) + " | " + fmt("%.3f", r.ms) + " | " + fmt("%.1f", r.gbps) + " | " +
                         (ceiling ? fmt("%.0f", ceiling) : "-") + " | " +
                         (ceiling ? fmt("%.0f%%", 100 * r.fps / ceiling) : "-") + " |");
              }
        gst_buffer_unref(frame);
      }
  }
  if (!encoders.empty()) {
    J2kBenchOptions j{image, encoders, formats, sizes, backends, memories, modes, seconds, props, gpu, why, ceil};
    if (!bench_j2k_section(j, [&](const std::string &s) { out.line(s); })) return 1;
  }
  if (!decoders.empty()) {
    J2kBenchOptions j{image, decoders, formats, sizes, backends, memories, modes, seconds, props, gpu, why, ceil};
    if (!bench_j2kdec_section(j, [&](const std::string &s) { out.line(s); })) return 1;
  }

  if (!clips.empty()) {
    out.line("\n## Realistic pipelines (H.264 clips of opencv-doc's vtest.avi, 300 frames)\n");
    out.line("| clip | decode | chain | fps (end to end) | ms/frame |");
    out.line("|---|---|---|---:|---:|");
    const std::vector<std::pair<std::string, std::string>> decoders = {
        {"nvh264dec (GPU, CUDA memory)", "nvh264dec"}, {"openh264dec (CPU, system memory)", "openh264dec"}};
    const std::vector<std::string> chains = {"", "cudacdf53 levels=3", "cudacdf53 levels=3 ! cudainverse",
                                             "cudahaar levels=3"};
    for (const auto &size : sizes)
      for (const auto &[label, decoder] : decoders)
        for (const auto &chain : chains) {
          const std::string clip = clips + "/vtest-" + size + ".mp4";
          const std::string desc = "filesrc location=" + clip + " ! qtdemux ! h264parse ! " + decoder + " ! " +
                                   (chain.empty() ? "" : chain + " ! ") + "fakesink name=sink";
          const BenchResult r = bench_pipeline(desc);
          const std::string row =
              "| " + size + " | " + label + " | " + (chain.empty() ? "(decode only)" : chain) + " | ";
          out.line(row + (r.note.empty() ? fmt("%.1f", r.fps) + " | " + fmt("%.3f", r.ms) : r.note + " |") + " |");
        }
  }
  if (!markdown.empty()) std::ofstream(markdown) << out.all.str();
  return 0;
}
