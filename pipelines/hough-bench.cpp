// hough-bench: Hough line detection timed on every backend with the core
// library alone (no GStreamer), on grey frames given as binary PGM files
// (pipelines/hough_compare.py prepare writes them from real photos).
//
//   hough-bench --out DIR [--canny LOW,HIGH] frame.pgm [frame.pgm ...]
//
// --canny sets the Canny thresholds (default 50,150); scaled-up photos have
// soft edges, so lower thresholds give the ~5% edge pixels of a typical map.
// Per frame: ms/frame of the whole detection (Canny and Sobel) on cpu,
// openmp, cuda with the frame in host memory and in device memory; then
// voting + peaks alone on the Canny edge map (edge=input), on each backend
// and with each CUDA voting strategy (CF_HOUGH_VOTING), which is what NPP's
// nppiFilterHoughLine does on the same map (pipelines/hough_npp.cu). Writes
// DIR/<name>-edges.pgm (the Canny edge map) and DIR/<name>-lines.txt (the
// strongest lines: rho theta votes) for the comparisons, and checks that
// cuda's lines and accumulator equal the serial reference's.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/hough.hpp"

namespace {

struct Gray {
  int w = 0, h = 0;
  std::vector<std::uint8_t> pixels;
};

bool read_pgm(const std::string &path, Gray &g) {
  std::ifstream in(path, std::ios::binary);
  std::string magic;
  int max = 0;
  in >> magic >> g.w >> g.h >> max;
  in.get();
  if (magic != "P5" || max != 255 || g.w < 1 || g.h < 1) return false;
  g.pixels.resize(std::size_t(g.w) * g.h);
  in.read(reinterpret_cast<char *>(g.pixels.data()), std::streamsize(g.pixels.size()));
  return bool(in);
}

void write_pgm(const std::string &path, int w, int h, const std::vector<std::uint8_t> &p) {
  std::ofstream out(path, std::ios::binary);
  out << "P5\n" << w << " " << h << "\n255\n";
  out.write(reinterpret_cast<const char *>(p.data()), std::streamsize(p.size()));
}

cf::FrameView gray_view(void *data, int w, int h, cf::Memory m) {
  cf::FrameView v;
  v.memory = m;
  v.n_planes = v.n_components = 1;
  v.planes[0] = {data, w, w, h};
  v.components[0] = {0, 0, 1, w, h};
  return v;
}

// Median ms of runs of f(), at least 3 runs and 0.3 s, after one warm-up.
template <class F>
double time_ms(F &&f) {
  using Clock = std::chrono::steady_clock;
  f();
  std::vector<double> ms;
  const auto start = Clock::now();
  while (ms.size() < 3 || std::chrono::duration<double>(Clock::now() - start).count() < 0.3) {
    const auto t = Clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t).count());
    if (ms.size() >= 200) break;
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

std::string base_name(const std::string &path) {
  std::string b = path.substr(path.find_last_of('/') + 1);
  return b.substr(0, b.rfind('.'));
}

}  // namespace

int main(int argc, char **argv) {
  std::string out = ".";
  std::vector<std::string> files;
  int low = 50, high = 150;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--out" && i + 1 < argc)
      out = argv[++i];
    else if (a == "--canny" && i + 1 < argc && std::sscanf(argv[i + 1], "%d,%d", &low, &high) == 2)
      ++i;
    else
      files.push_back(a);
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: hough-bench --out DIR frame.pgm [...]\n");
    return 2;
  }
  const bool gpu = cf::cuda_device_usable(0);
  cf::Engine cpu(cf::Backend::Cpu), omp(cf::Backend::OpenMP);
  std::unique_ptr<cf::Engine> cuda = gpu ? std::make_unique<cf::Engine>(cf::Backend::Cuda) : nullptr;
  std::printf("backends: %s, %s, %s; Canny thresholds %d, %d\n\n", cpu.describe().c_str(), omp.describe().c_str(),
              cuda ? cuda->describe().c_str() : "no cuda", low, high);
  std::printf(
      "| frame | size | stage | Canny edge pixels | cpu ms | openmp ms | cuda ms (host frame) | cuda ms (device frame) "
      "| "
      "cuda vs cpu |\n|---|---|---|---:|---:|---:|---:|---:|---:|\n");
  int failures = 0;
  for (const std::string &file : files) {
    Gray g;
    if (!read_pgm(file, g)) {
      std::fprintf(stderr, "cannot read %s (binary PGM, maxval 255)\n", file.c_str());
      return 1;
    }
    const std::string name = base_name(file);
    const cf::FrameView host = gray_view(g.pixels.data(), g.w, g.h, cf::Memory::Host);
    void *dmem = cuda ? cuda->device_alloc(g.pixels.size()) : nullptr;
    if (cuda) cuda->upload(dmem, g.pixels.data(), g.pixels.size());
    const cf::FrameView device = gray_view(dmem, g.w, g.h, cf::Memory::Device);

    cf::HoughParams canny;
    canny.edge = cf::EdgeDetector::Canny;
    canny.canny_low = low;
    canny.canny_high = high;
    canny.max_lines = 30;
    cf::HoughResult ref;
    cf::hough_detect(cpu, canny, host, cf::LumaSource::Component0, ref, cf::kHoughWantEdges);
    write_pgm(out + "/" + name + "-edges.pgm", g.w, g.h, ref.edges);
    {
      std::ofstream lines(out + "/" + name + "-lines.txt");
      lines << "# rho theta votes (threshold " << ref.threshold << ", " << ref.edge_pixels << " edge pixels)\n";
      for (const cf::HoughLine &l : ref.lines) lines << l.rho << " " << l.theta << " " << l.votes << "\n";
    }
    Gray edges{g.w, g.h, ref.edges};
    const cf::FrameView edge_host = gray_view(edges.pixels.data(), g.w, g.h, cf::Memory::Host);
    void *emem = cuda ? cuda->device_alloc(edges.pixels.size()) : nullptr;
    if (cuda) cuda->upload(emem, edges.pixels.data(), edges.pixels.size());
    const cf::FrameView edge_device = gray_view(emem, g.w, g.h, cf::Memory::Device);

    cf::HoughParams sobel = canny, given = canny;
    sobel.edge = cf::EdgeDetector::Sobel;
    given.edge = cf::EdgeDetector::Input;
    struct Stage {
      const char *label;
      cf::HoughParams p;
      const cf::FrameView *h, *d;
    };
    const Stage stages[] = {{"canny + vote + peaks", canny, &host, &device},
                            {"sobel + vote + peaks", sobel, &host, &device},
                            {"vote + peaks on the canny map", given, &edge_host, &edge_device}};
    for (const Stage &s : stages) {
      cf::HoughResult r;
      auto run = [&](cf::Engine &e, const cf::FrameView &f) {
        return time_ms([&] { cf::hough_detect(e, s.p, f, cf::LumaSource::Component0, r); });
      };
      const double t_cpu = run(cpu, *s.h), t_omp = run(omp, *s.h);
      double t_host = 0, t_dev = 0;
      if (cuda) {
        t_host = run(*cuda, *s.h);
        t_dev = run(*cuda, *s.d);
        cf::HoughResult a, b;
        cf::hough_detect(cpu, s.p, *s.h, cf::LumaSource::Component0, a, cf::kHoughWantAccumulator);
        cf::hough_detect(*cuda, s.p, *s.d, cf::LumaSource::Component0, b, cf::kHoughWantAccumulator);
        bool same = a.accumulator == b.accumulator && a.lines.size() == b.lines.size() && a.threshold == b.threshold;
        for (std::size_t i = 0; same && i < a.lines.size(); ++i)
          same = a.lines[i].rho_bin == b.lines[i].rho_bin && a.lines[i].theta_bin == b.lines[i].theta_bin;
        if (!same) {
          ++failures;
          std::printf("PARITY FAILURE: %s %s\n", name.c_str(), s.label);
        }
      }
      std::printf("| %s | %dx%d | %s | %.1f%% | %.2f | %.2f | %.3f | %.3f | %.0fx |\n", name.c_str(), g.w, g.h, s.label,
                  100.0 * ref.edge_pixels / (double(g.w) * g.h), t_cpu, t_omp, t_host, t_dev,
                  t_dev > 0 ? t_cpu / t_dev : 0.0);
      std::fflush(stdout);
    }
    if (cuda) {
      std::printf("| %s | %dx%d | cuda voting strategies (vote + peaks, device frame) |", name.c_str(), g.w, g.h);
      for (const char *v : {"", "shared:1", "shared:4", "global"}) {
        if (*v)
          setenv("CF_HOUGH_VOTING", v, 1);
        else
          unsetenv("CF_HOUGH_VOTING");
        cf::HoughResult r;
        const double t = time_ms([&] { cf::hough_detect(*cuda, given, edge_device, cf::LumaSource::Component0, r); });
        std::printf(" %s %.3f ms |", *v ? v : "default", t);
      }
      unsetenv("CF_HOUGH_VOTING");
      std::printf("\n");
      cuda->device_free(dmem);
      cuda->device_free(emem);
    }
  }
  if (failures) std::printf("%d parity failures\n", failures);
  return failures ? 1 : 0;
}
