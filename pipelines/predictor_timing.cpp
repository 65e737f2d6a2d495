// Timing of the predictors at 3840x2160 through the core API (not a test):
// serial cpu, OpenMP and CUDA on device frames, forward and inverse, slice
// heights 0 and 64, ms per frame and speed-up over serial; the forward's
// bandwidth against a device-to-device copy measured in the same run. Every
// CUDA result is also checked against the serial one (exits 1 on a mismatch).
//
//   predictor_timing [photo.jpg] [WxH]    (default: fruits.jpg from CF_TEST_IMAGES, 3840x2160)
//
// CFT_TIMING_FAST=1: one serial call per row (still checked), no OpenMP.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "best_time.hpp"
#include "check.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/predictor.hpp"
#include "frames.hpp"

namespace {

using cfbench::time_ms;

struct DeviceCopy {
  cf::Engine &e;
  void *p;
  DeviceCopy(cf::Engine &engine, const cf::FrameView &host, std::size_t bytes)
      : e(engine), p(engine.device_alloc(bytes)) {
    e.upload(p, host.planes[0].data, bytes);
  }
  ~DeviceCopy() { e.device_free(p); }
};

// A tight device copy of a tight host frame (one memory plane per component plane).
cf::FrameView on_device(const cf::FrameView &host, void *base) {
  cf::FrameView d = host;
  d.memory = cf::Memory::Device;
  auto *p = static_cast<unsigned char *>(base);
  const auto *h0 = static_cast<const unsigned char *>(host.planes[0].data);
  for (int i = 0; i < host.n_planes; ++i)
    d.planes[i].data = p + (static_cast<const unsigned char *>(host.planes[i].data) - h0);
  return d;
}

std::size_t frame_bytes(const cft::OwnedFrame &f) { return f.bytes.size(); }

}  // namespace

int main(int argc, char **argv) {
  std::string why;
  if (!cf::cuda_device_usable(0, &why)) {
    std::printf("SKIP: no usable CUDA device: %s\n", why.c_str());
    return cft::kSkip;
  }
  std::string photo = argc > 1 ? argv[1] : cft::image_dir() + "/fruits.jpg";
  int W = 3840, H = 2160;
  if (argc > 2) std::sscanf(argv[2], "%dx%d", &W, &H);
  int pw = 0, ph = 0;
  std::vector<std::uint8_t> rgb;
  const bool have_photo = cft::load_rgb8(photo, pw, ph, rgb);
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu), omp(cf::Backend::OpenMP);
  // Calls on device frames that return once queued, as in CUDA-memory pipelines.
  cf::Engine queued(cf::Backend::Cuda);
  queued.use_legacy_stream(true);
  const bool fast = std::getenv("CFT_TIMING_FAST") != nullptr;
  // Serial (one call when fast) and OpenMP (skipped when fast) timings.
  auto time_cpu = [&](auto &&f) { return fast ? time_ms(1, 1, f) : time_ms(1, 2, f); };
  auto time_omp = [&](auto &&f) { return fast ? 0.0 : time_ms(3, 3, f); };
  std::printf("# predictor timing, %dx%d, %s\n\n%s; %s; %s\n\n", W, H,
              have_photo ? (photo + " resampled").c_str() : "random data", cuda.describe().c_str(),
              cpu.describe().c_str(), omp.describe().c_str());

  // Device-to-device copy bandwidth (bytes read + written), best of 5 x 10.
  double copy_gbps = 0;
  {
    const std::size_t bytes = std::size_t(256) << 20;
    void *a = cuda.device_alloc(bytes), *b = cuda.device_alloc(bytes);
    const double ms = time_ms(5, 10, [&] { cuda.device_copy(b, a, bytes); });
    copy_gbps = 2.0 * bytes / (ms * 1e6);
    cuda.device_free(a);
    cuda.device_free(b);
  }
  std::printf("device-to-device copy: %.0f GB/s (read + written)\n", copy_gbps);
  // What one call costs besides the kernel (launch, stream synchronisation):
  // the forward of a 64x64 GRAY8 frame in device memory.
  {
    cft::OwnedFrame raw = cft::make_raw(cft::Packing::Gray, 64, 64, cf::SampleType::U8, 0, false);
    cft::OwnedFrame res = cft::make_planar_like(raw.view, cf::SampleType::S16);
    DeviceCopy draw(cuda, raw.view, frame_bytes(raw)), dres(cuda, res.view, frame_bytes(res));
    const cf::FrameView raw_d = on_device(raw.view, draw.p), res_d = on_device(res.view, dres.p);
    const double floor_ms = time_ms(5, 50, [&] { cf::predictor_forward(cuda, cf::PredictorParams{}, raw_d, res_d); });
    std::printf("per-call floor (64x64 GRAY8 MED forward, device frames): %.4f ms\n", floor_ms);
  }
  std::printf("\n");
  std::printf(
      "cuda ms: each call returns complete; queued ms: back-to-back calls that return once queued\n"
      "(Engine::use_legacy_stream), the time of the last included; GB/s and %% of copy from queued ms.\n\n");
  std::printf(
      "| format | predictor | slice-height | direction | cpu ms | openmp ms | cuda ms | queued ms | cuda x cpu | "
      "openmp x cpu | cuda GB/s | %% of copy |\n");
  std::printf("|---|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");

  for (cft::Packing packing : {cft::Packing::Gray, cft::Packing::Packed4}) {
    const char *fname = packing == cft::Packing::Gray ? "GRAY8" : "RGBA";
    cft::OwnedFrame raw = cft::make_raw(packing, W, H, cf::SampleType::U8, 0, false);
    if (have_photo)
      cft::fill_from_rgb(raw, pw, ph, rgb);
    else
      cft::fill_random(raw, 1);
    cft::OwnedFrame res = cft::make_planar_like(raw.view, cf::SampleType::S16);
    cft::OwnedFrame got_res = cft::make_planar_like(raw.view, cf::SampleType::S16);
    cft::OwnedFrame back = cft::make_raw(packing, W, H, cf::SampleType::U8, 0, false);
    DeviceCopy draw(cuda, raw.view, frame_bytes(raw)), dres(cuda, res.view, frame_bytes(res));
    const cf::FrameView raw_d = on_device(raw.view, draw.p), res_d = on_device(res.view, dres.p);
    const double bytes = double(frame_bytes(raw) + frame_bytes(res));
    for (cf::Predictor pr : {cf::Predictor::Med, cf::Predictor::Gap, cf::Predictor::Ged})
      for (int slice : {0, 64}) {
        const cf::PredictorParams p{pr, cf::kDefaultGedThreshold, slice};
        try {
          const double f_cpu = time_cpu([&] { cf::predictor_forward(cpu, p, raw.view, res.view); });
          const double f_omp = time_omp([&] { cf::predictor_forward(omp, p, raw.view, got_res.view); });
          const double f_cuda = time_ms(5, 20, [&] { cf::predictor_forward(cuda, p, raw_d, res_d); });
          const double f_queued = time_ms(
              5, 20, [&] { cf::predictor_forward(queued, p, raw_d, res_d); }, [&] { queued.synchronize(); });
          cuda.download(got_res.view.planes[0].data, dres.p, frame_bytes(got_res));
          std::string first;
          long long n = cft::count_differences(res.view, got_res.view, &first);
          CHECK_MSG(n == 0, "%s %s slice %d: cuda forward differs from cpu: %lld, first %s", fname,
                    cf::predictor_name(pr), slice, n, first.c_str());
          const double i_cpu = time_cpu([&] { cf::predictor_inverse(cpu, p, res.view, back.view); });
          const double i_omp = time_omp([&] { cf::predictor_inverse(omp, p, res.view, back.view); });
          n = cft::count_differences(raw.view, back.view, &first);
          CHECK_MSG(n == 0, "%s %s slice %d: openmp inverse differs: %lld, first %s", fname, cf::predictor_name(pr),
                    slice, n, first.c_str());
          const double i_cuda = time_ms(5, 10, [&] { cf::predictor_inverse(cuda, p, res_d, raw_d); });
          const double i_queued = time_ms(
              5, 10, [&] { cf::predictor_inverse(queued, p, res_d, raw_d); }, [&] { queued.synchronize(); });
          cuda.download(back.view.planes[0].data, draw.p, frame_bytes(back));
          n = cft::count_differences(raw.view, back.view, &first);
          CHECK_MSG(n == 0, "%s %s slice %d: cuda inverse differs: %lld, first %s", fname, cf::predictor_name(pr),
                    slice, n, first.c_str());
          auto row = [&](const char *dir, double c, double o, double g, double q) {
            std::printf("| %s | %s | %d | %s | %.2f | %.2f | %.3f | %.3f | %.1fx | %.1fx | %.0f | %.0f%% |\n", fname,
                        cf::predictor_name(pr), slice, dir, c, o, g, q, c / g, c / o, bytes / (q * 1e6),
                        100 * bytes / (q * 1e6) / copy_gbps);
          };
          row("forward", f_cpu, f_omp, f_cuda, f_queued);
          row("inverse", i_cpu, i_omp, i_cuda, i_queued);
          std::fflush(stdout);
        } catch (const cf::Error &e) {
          CHECK_MSG(false, "%s %s slice %d: %s", fname, cf::predictor_name(pr), slice, e.what());
        }
      }
  }
  return cft::test_result();
}
