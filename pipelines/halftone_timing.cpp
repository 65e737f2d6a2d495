// Timing of cf::halftone per backend through the core API (no GStreamer):
// a real photo (fruits.jpg from CF_TEST_IMAGES, else random) resampled to
// 1280x720, 1920x1080 and 3840x2160, GRAY8 and RGBA (3 colour planes, alpha
// copied). Rows: cpu (serial), openmp (all cores), cuda with host frames
// (upload + kernel + download) and cuda with frames already in device memory
// (kernel only, one stream synchronisation per frame). Every output is
// compared with the serial one. Then, at 3840x2160 GRAY8, every method.
// Each row repeats the frame for at least --seconds (default 0.3) after one
// warm-up run. Prints a markdown table.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>

#include "check.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/halftone.hpp"
#include "frames.hpp"

using namespace cft;
using Clock = std::chrono::steady_clock;

namespace {

double seconds_per_frame(const std::function<void()> &run, double budget) {
  run();  // warm-up: workspaces, first launch
  int n = 0;
  const auto t0 = Clock::now();
  double elapsed = 0;
  do {
    run();
    ++n;
    elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  } while (elapsed < budget || n < 2);
  return elapsed / n;
}

struct DeviceCopy {
  cf::Engine &engine;
  cf::FrameView view;
  DeviceCopy(cf::Engine &e, const cf::FrameView &host) : engine(e), view(host) {
    view.memory = cf::Memory::Device;
    for (int p = 0; p < host.n_planes; ++p) {
      const std::size_t bytes = std::size_t(host.planes[p].stride) * host.planes[p].rows;
      view.planes[p].data = e.device_alloc(bytes);
      e.upload(view.planes[p].data, host.planes[p].data, bytes);
    }
  }
  void download(const cf::FrameView &host) {
    for (int p = 0; p < host.n_planes; ++p)
      engine.download(host.planes[p].data, view.planes[p].data,
                      std::size_t(host.planes[p].stride) * host.planes[p].rows);
  }
  ~DeviceCopy() {
    for (int p = 0; p < view.n_planes; ++p) engine.device_free(view.planes[p].data);
  }
};

}  // namespace

int main(int argc, char **argv) {
  double budget = 0.3;
  for (int i = 1; i + 1 < argc; ++i)
    if (!std::strcmp(argv[i], "--seconds")) budget = std::atof(argv[i + 1]);
  const bool have_cuda = cf::cuda_device_usable(0);
  cf::Engine cpu(cf::Backend::Cpu), omp(cf::Backend::OpenMP);
  std::unique_ptr<cf::Engine> cuda;
  if (have_cuda) cuda = std::make_unique<cf::Engine>(cf::Backend::Cuda);
  std::printf("# halftone timing: %s, %s, %s\n\n", cpu.describe().c_str(), omp.describe().c_str(),
              cuda ? cuda->describe().c_str() : "no CUDA device");

  int pw = 0, ph = 0;
  std::vector<std::uint8_t> rgb;
  const bool photo = !image_dir().empty() && load_rgb8(image_dir() + "/fruits.jpg", pw, ph, rgb);
  std::printf("input: %s\n\n", photo ? "fruits.jpg resampled" : "random samples");
  std::printf(
      "| method | format | size | backend | ms/frame | Gpixel/s | x serial | same bits "
      "|\n|---|---|---|---|---:|---:|---:|---|\n");

  auto row = [&](const cf::HalftoneParams &p, Packing packing, const char *format, int w, int h, bool all_backends) {
    OwnedFrame src = make_raw(packing, w, h, cf::SampleType::U8);
    if (photo)
      fill_from_rgb(src, pw, ph, rgb);
    else
      fill_random(src, 1);
    OwnedFrame want = copy_of(src), got = copy_of(src);
    const double pixels = double(w) * h;
    double serial = 0;
    auto print = [&](const char *backend, double s, bool same) {
      if (serial == 0) serial = s;
      std::printf("| %s%s | %s | %dx%d | %s | %.3f | %.3f | %.1f | %s |\n", cf::halftone_method_name(p.method),
                  p.serpentine ? " serpentine" : "", format, w, h, backend, s * 1e3, pixels / s * 1e-9, serial / s,
                  same ? "yes" : "NO");
      std::fflush(stdout);
    };
    print("cpu", seconds_per_frame([&] { cf::halftone(cpu, p, 0, src.view, want.view); }, budget), true);
    if (all_backends) {
      fill_bytes(got, 0);
      const double s = seconds_per_frame([&] { cf::halftone(omp, p, 0, src.view, got.view); }, budget);
      const bool same = count_differences(want.view, got.view) == 0;
      CHECK(same);
      print("openmp", s, same);
    }
    if (!cuda) return;
    if (all_backends) {
      fill_bytes(got, 0);
      const double s = seconds_per_frame([&] { cf::halftone(*cuda, p, 0, src.view, got.view); }, budget);
      const bool same = count_differences(want.view, got.view) == 0;
      CHECK(same);
      print("cuda (host frames)", s, same);
    }
    DeviceCopy dsrc(*cuda, src.view), ddst(*cuda, got.view);
    fill_bytes(got, 0);
    const double s = seconds_per_frame([&] { cf::halftone(*cuda, p, 0, dsrc.view, ddst.view); }, budget);
    ddst.download(got.view);
    const bool same = count_differences(want.view, got.view) == 0;
    CHECK(same);
    print("cuda (device frames)", s, same);
  };

  struct Size {
    int w, h;
  };
  for (const Size s : {Size{1280, 720}, Size{1920, 1080}, Size{3840, 2160}}) {
    cf::HalftoneParams gray;
    row(gray, Packing::Gray, "GRAY8", s.w, s.h, true);
    cf::HalftoneParams rgba;
    rgba.copy_mask = 1u << 3;
    row(rgba, Packing::Packed4, "RGBA", s.w, s.h, true);
  }
  for (int m = 1; m < cf::kHalftoneMethods; ++m) {
    cf::HalftoneParams p;
    p.method = cf::HalftoneMethod(m);
    row(p, Packing::Gray, "GRAY8", 3840, 2160, true);
  }
  cf::HalftoneParams stochastic;
  stochastic.stochastic = 0.5;
  stochastic.seed = 1;
  row(stochastic, Packing::Gray, "GRAY8 p=0.5", 3840, 2160, true);
  cf::HalftoneParams serpentine;
  serpentine.serpentine = true;
  row(serpentine, Packing::Gray, "GRAY8", 1280, 720, false);
  return test_result();
}
