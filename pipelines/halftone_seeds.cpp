// The halftone report's experiments (seed document 001) on the core library,
// printed as one JSON object for pipelines/seeds/seeds_halftone.py:
//  - timing: ms per GRAY8 frame of the six methods, deterministic and
//    stochastic (p = 0.5, seed 1), on serial cpu, OpenMP (all cores), and
//    CUDA with the frame in device memory (call + one stream
//    synchronisation) and in host memory (upload + kernel + download), at
//    the report's size classes: small 256x256, medium 512x512, large
//    1024x1024, xlarge 1920x1080 and 3840x2160. The input is the first
//    photo in grey (ITU-R BT.601 luma, rounded), resampled to each size by
//    nearest neighbour; random samples when no photo is given. Every OpenMP
//    and CUDA output is compared with the serial one; a difference exits 1
//    after the JSON is printed. Timing: best of 5 rounds of n frames
//    (n = frames for about 1 Mpixel) after one warm-up frame.
//  - halftones (with --halftones DIR): each photo in grey and its serial
//    halftone per method, deterministic and stochastic, at the photo's own
//    size, as 8-bit PGM files in DIR (for the WSNR in Python).
//
//   halftone_seeds [--halftones DIR] [photo.ppm ...]
//
// CF_SEEDS_QUICK=1: small and medium only, one frame per row.
#include <sched.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "best_time.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/halftone.hpp"
#include "device_frame.hpp"
#include "frames.hpp"
#include "seeds_json.hpp"
#include "seeds_photo.hpp"

namespace {

using cfbench::OnDevice;
using cfseeds::json_number;
using cfseeds::json_string;
using cfseeds::kMissing;

constexpr double kStochastic = 0.5;  // the report's p is not stated; the middle of its range [0, 1]
constexpr std::uint64_t kSeed = 1;

struct SizeClass {
  const char *name;
  int width, height;
};
const SizeClass kSizes[] = {
    {"small", 256, 256}, {"medium", 512, 512}, {"large", 1024, 1024}, {"xlarge", 1920, 1080}, {"xlarge", 3840, 2160}};

struct Grey {
  std::string name;  // the file name without folder and extension
  int width = 0, height = 0;
  std::vector<std::uint8_t> samples;
};

// The photo in grey: Y = (299 R + 587 G + 114 B) / 1000, rounded.
Grey to_grey(const cfseeds::Photo &photo) {
  const std::vector<std::uint8_t> &rgb = photo.rgb;
  Grey g;
  g.name = photo.name;
  g.width = photo.width;
  g.height = photo.height;
  g.samples.resize(std::size_t(g.width) * g.height);
  for (std::size_t i = 0; i < g.samples.size(); ++i)
    g.samples[i] = std::uint8_t((299 * rgb[3 * i] + 587 * rgb[3 * i + 1] + 114 * rgb[3 * i + 2] + 500) / 1000);
  return g;
}

// A GRAY8 frame of w x h from g by nearest neighbour (g itself at its size).
cft::OwnedFrame grey_frame(const Grey &g, int w, int h) {
  cft::OwnedFrame f = cft::make_raw(cft::Packing::Gray, w, h, cf::SampleType::U8, 0, false);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const int sx = int(std::int64_t(x) * g.width / w), sy = int(std::int64_t(y) * g.height / h);
      cft::write_sample(f.view, 0, x, y, g.samples[std::size_t(sy) * g.width + sx]);
    }
  return f;
}

void write_pgm(const std::string &path, const cf::FrameView &f) {
  const int w = f.components[0].width, h = f.components[0].height;
  std::ofstream out(path, std::ios::binary);
  out << "P5\n" << w << " " << h << "\n255\n";
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) out.put(char(cft::read_sample(f, 0, x, y)));
  if (!out) {
    std::fprintf(stderr, "%s: cannot write\n", path.c_str());
    std::exit(2);
  }
}

// The OpenMP engine's default thread count: OMP_NUM_THREADS, else the CPUs
// this process may run on.
int openmp_threads() {
  if (const char *n = std::getenv("OMP_NUM_THREADS"); n && std::atoi(n) > 0) return std::atoi(n);
  cpu_set_t set;
  return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}

cf::HalftoneParams params(int method, bool stochastic) {
  cf::HalftoneParams p;
  p.method = cf::HalftoneMethod(method);
  if (stochastic) {
    p.stochastic = kStochastic;
    p.seed = kSeed;
  }
  return p;
}

struct Runner {
  explicit Runner(bool q) : quick(q) {}
  bool quick;
  cf::Engine cpu{cf::Backend::Cpu}, omp{cf::Backend::OpenMP};
  std::unique_ptr<cf::Engine> cuda;
  bool all_same = true;

  // ms per frame of `run`; `settle` ends each round (waits for calls that
  // only queue work).
  double ms(std::size_t pixels, const std::function<void()> &run, const std::function<void()> &settle = {}) const {
    const int n = quick ? 1 : int(std::max<std::size_t>(1, (std::size_t(1) << 20) / pixels));
    return cfbench::time_ms(quick ? 1 : 5, n, run, [&] {
      if (settle) settle();
    });
  }

  // JSON true/false for got == want; a difference is reported and fails the run.
  std::string same(const cft::OwnedFrame &want, const cft::OwnedFrame &got, const std::string &what) {
    std::string first;
    const long long n = cft::count_differences(want.view, got.view, &first);
    if (n == 0) return "true";
    std::fprintf(stderr, "%s: %lld samples differ from serial, first %s\n", what.c_str(), n, first.c_str());
    all_same = false;
    return "false";
  }

  std::string row(const SizeClass &s, const cft::OwnedFrame &src, int method, bool stochastic) {
    const cf::HalftoneParams p = params(method, stochastic);
    const std::size_t pixels = std::size_t(s.width) * s.height;
    const std::string what = std::string(cf::halftone_method_name(p.method)) + (stochastic ? " stochastic " : " ") +
                             std::to_string(s.width) + "x" + std::to_string(s.height);
    cft::OwnedFrame want = cft::copy_of(src), got = cft::copy_of(src);
    const double serial = ms(pixels, [&] { cf::halftone(cpu, p, 0, src.view, want.view); });
    cft::fill_bytes(got, 0);
    const double openmp = ms(pixels, [&] { cf::halftone(omp, p, 0, src.view, got.view); });
    const std::string openmp_same = same(want, got, what + " openmp");
    double device = kMissing, host = kMissing;
    std::string device_same = "null", host_same = "null";
    if (cuda) {
      cft::fill_bytes(got, 0);
      OnDevice dsrc(*cuda, src), ddst(*cuda, got);
      const auto sync = [&] { cuda->synchronize(); };
      const auto on_device = [&] { cf::halftone(*cuda, p, 0, dsrc.view, ddst.view); };
      device = ms(pixels, on_device, sync);
      ddst.to_host(got);
      device_same = same(want, got, what + " cuda device frames");
      cft::fill_bytes(got, 0);
      host = ms(pixels, [&] { cf::halftone(*cuda, p, 0, src.view, got.view); });
      host_same = same(want, got, what + " cuda host frames");
    }
    return std::string("    {\"class\": ") + json_string(s.name) + ", \"width\": " + std::to_string(s.width) +
           ", \"height\": " + std::to_string(s.height) +
           ", \"method\": " + json_string(cf::halftone_method_name(p.method)) +
           ", \"stochastic\": " + json_number(p.stochastic) + ", \"serial_ms\": " + json_number(serial) +
           ", \"openmp_ms\": " + json_number(openmp) + ", \"cuda_device_ms\": " + json_number(device) +
           ", \"cuda_host_ms\": " + json_number(host) + ", \"openmp_same\": " + openmp_same +
           ", \"cuda_device_same\": " + device_same + ", \"cuda_host_same\": " + host_same + "}";
  }
};

// Each photo and its serial halftones as PGM files in dir; their JSON entries.
std::string write_halftones(cf::Engine &cpu, const std::vector<Grey> &photos, const std::string &dir) {
  std::string entries;
  for (const Grey &g : photos) {
    const cft::OwnedFrame src = grey_frame(g, g.width, g.height);
    const std::string grey_path = dir + "/" + g.name + "-grey.pgm";
    write_pgm(grey_path, src.view);
    std::string methods;
    for (int m = 0; m < cf::kHalftoneMethods; ++m) {
      std::string files;
      for (bool stochastic : {false, true}) {
        const cf::HalftoneParams p = params(m, stochastic);
        cft::OwnedFrame out = cft::copy_of(src);
        cf::halftone(cpu, p, 0, src.view, out.view);
        const std::string path =
            dir + "/" + g.name + "-" + cf::halftone_method_name(p.method) + (stochastic ? "-stochastic" : "") + ".pgm";
        write_pgm(path, out.view);
        files += std::string(stochastic ? ", \"stochastic\": " : "\"deterministic\": ") + json_string(path);
      }
      methods += (methods.empty() ? "" : ", ") + json_string(cf::halftone_method_name(cf::HalftoneMethod(m))) + ": {" +
                 files + "}";
    }
    entries += (entries.empty() ? "" : ",\n") + std::string("    {\"photo\": ") + json_string(g.name) +
               ", \"width\": " + std::to_string(g.width) + ", \"height\": " + std::to_string(g.height) +
               ", \"grey\": " + json_string(grey_path) + ", \"methods\": {" + methods + "}}";
  }
  return entries;
}

}  // namespace

int main(int argc, char **argv) {
  std::string dir;
  std::vector<std::string> paths;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--halftones") {
      if (a + 1 >= argc) {
        std::fprintf(stderr, "--halftones takes a folder\n");
        return 2;
      }
      dir = argv[++a];
    } else if (!arg.empty() && arg[0] == '-') {
      std::fprintf(stderr, "unknown option %s; usage: halftone_seeds [--halftones DIR] [photo.ppm ...]\n", arg.c_str());
      return 2;
    } else {
      paths.push_back(arg);
    }
  }
  std::vector<Grey> photos;
  for (const cfseeds::Photo &p : cfseeds::read_photos(paths)) photos.push_back(to_grey(p));

  Runner run(cfseeds::quick_run());
  std::string why;
  if (cf::cuda_device_usable(0, &why)) run.cuda = std::make_unique<cf::Engine>(cf::Backend::Cuda);

  std::string sizes, rows;
  for (const SizeClass &s : kSizes) {
    if (run.quick && s.width > 512) continue;
    sizes += (sizes.empty() ? "" : ", ") + std::string("{\"class\": ") + json_string(s.name) +
             ", \"width\": " + std::to_string(s.width) + ", \"height\": " + std::to_string(s.height) + "}";
    cft::OwnedFrame src = photos.empty()
                              ? cft::make_raw(cft::Packing::Gray, s.width, s.height, cf::SampleType::U8, 0, false)
                              : grey_frame(photos[0], s.width, s.height);
    if (photos.empty()) cft::fill_random(src, 1);
    for (bool stochastic : {false, true})
      for (int m = 0; m < cf::kHalftoneMethods; ++m)
        rows += (rows.empty() ? "" : ",\n") + run.row(s, src, m, stochastic);
  }
  const std::string halftones = dir.empty() ? "" : write_halftones(run.cpu, photos, dir);

  std::printf("{\n  \"format\": \"GRAY8\",\n  \"input\": %s,\n  \"quick\": %s,\n",
              json_string(photos.empty() ? "random samples" : photos[0].name + " in grey, resampled").c_str(),
              run.quick ? "true" : "false");
  std::printf("  \"repetitions\": %s,\n",
              json_string(run.quick ? "one frame per row"
                                    : "best of 5 rounds of n frames (n = frames for about 1 Mpixel), after a warm-up")
                  .c_str());
  std::printf("  \"stochastic_amplitude\": %s,\n  \"stochastic_seed\": %d,\n", json_number(kStochastic).c_str(),
              int(kSeed));
  std::printf("  \"serial\": %s,\n  \"openmp\": %s,\n  \"openmp_threads\": %d,\n",
              json_string(run.cpu.describe()).c_str(), json_string(run.omp.describe()).c_str(), openmp_threads());
  std::printf("  \"cuda\": %s,\n  \"cuda_note\": %s,\n", run.cuda ? "true" : "false",
              json_string(run.cuda ? run.cuda->describe() : why).c_str());
  std::printf("  \"sizes\": [%s],\n  \"timing\": [\n%s\n  ],\n", sizes.c_str(), rows.c_str());
  std::printf("  \"halftones\": %s\n}\n", dir.empty() ? "null" : ("[\n" + halftones + "\n  ]").c_str());
  return run.all_same ? 0 : 1;
}
