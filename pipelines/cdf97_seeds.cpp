// The CDF 9/7 report's experiments (seed document 004) on the core library,
// printed as one JSON object for pipelines/seeds/seeds_cdf97.py. Its input:
// 512x512 grey photos; each photo given is resampled to 512x512 (box
// filter, box_resample.hpp) and made grey with the library's luma
// (cf::hough_luma, BT.601 in Q8).
//  - timing: cf::cdf97_forward and cf::cdf97_inverse alone (F32
//    coefficients, Mallat layout) on the first photo, at 1 level (what the
//    report's timed code runs) and 3 (what its text says), ms per frame on
//    serial cpu, openmp, cuda with frames in device memory and in host
//    memory; every openmp and cuda output is compared with the serial one,
//    bit for bit (a difference exits 1);
//  - run length: for each photo, level count, quantisation step and
//    threshold (hard, detail bands), the forward transform's S16 indices
//    coded as runs in raster order (pipelines/run_length.hpp): segments,
//    the report's printed size (8 bytes per segment), nonzero indices and
//    the PSNR of the reconstruction; beside the report's "Original Size",
//    4 bytes per pixel (a float image).
// CF_SEEDS_QUICK=1: the first photo only, one call per timing.
//
//   cdf97_seeds photo.ppm [photo.ppm ...]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "best_time.hpp"
#include "box_resample.hpp"
#include "cudafilters/cdf97.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/hough.hpp"
#include "device_frame.hpp"
#include "frames.hpp"
#include "run_length.hpp"
#include "seeds_json.hpp"
#include "seeds_photo.hpp"

namespace {

using cfbench::OnDevice;
using cfseeds::json_number;
using cfseeds::json_string;
using cfseeds::kMissing;

constexpr int kSide = 512;  // the report's images

// A photo as the report's input: kSide x kSide GRAY8.
cft::OwnedFrame grey_512(const std::vector<std::uint8_t> &rgb, int w, int h) {
  const std::vector<std::uint8_t> small = cfseeds::box_resample(rgb, w, h, kSide, kSide);
  cft::OwnedFrame grey = cft::make_raw(cft::Packing::Gray, kSide, kSide, cf::SampleType::U8);
  for (int y = 0; y < kSide; ++y)
    for (int x = 0; x < kSide; ++x) {
      const std::uint8_t *p = &small[(std::size_t(y) * kSide + x) * 3];
      cft::write_sample(grey.view, 0, x, y, cf::hough_luma(p[0], p[1], p[2]));
    }
  return grey;
}

void expect_same(const cft::OwnedFrame &want, const cft::OwnedFrame &got, const std::string &what) {
  if (want.bytes != got.bytes) {
    std::fprintf(stderr, "%s differs from the serial result\n", what.c_str());
    std::exit(1);
  }
}

template <class F>
double ms_per_call(bool quick, F &&f) {
  return quick ? cfbench::time_ms(1, 1, f) : cfbench::time_ms(5, 20, f);
}

std::string timing_rows(const cft::OwnedFrame &raw, bool quick, cf::Engine *cuda) {
  cf::Engine cpu(cf::Backend::Cpu), omp(cf::Backend::OpenMP);
  std::string rows;
  for (int levels : {1, 3}) {
    cf::Cdf97Params p;
    p.levels = levels;
    cft::OwnedFrame want = cft::make_planar_like(raw.view, cf::SampleType::F32);
    cft::OwnedFrame got = cft::copy_of(want);
    cft::OwnedFrame back = cft::copy_of(raw), got_back = cft::copy_of(raw);
    double f[4], i[4];  // cpu, openmp, cuda device, cuda host
    const std::string name = "cdf97 L" + std::to_string(levels);
    f[0] = ms_per_call(quick, [&] { cf::cdf97_forward(cpu, p, raw.view, want.view); });
    i[0] = ms_per_call(quick, [&] { cf::cdf97_inverse(cpu, p, want.view, back.view); });
    f[1] = ms_per_call(quick, [&] { cf::cdf97_forward(omp, p, raw.view, got.view); });
    expect_same(want, got, name + " openmp forward");
    i[1] = ms_per_call(quick, [&] { cf::cdf97_inverse(omp, p, want.view, got_back.view); });
    expect_same(back, got_back, name + " openmp inverse");
    f[2] = i[2] = f[3] = i[3] = kMissing;
    if (cuda) {
      OnDevice draw(*cuda, raw), dout(*cuda, got), dback(*cuda, got_back);
      f[2] = ms_per_call(quick, [&] { cf::cdf97_forward(*cuda, p, draw.view, dout.view); });
      dout.to_host(got);
      expect_same(want, got, name + " cuda forward (device frames)");
      OnDevice din(*cuda, want);
      i[2] = ms_per_call(quick, [&] { cf::cdf97_inverse(*cuda, p, din.view, dback.view); });
      dback.to_host(got_back);
      expect_same(back, got_back, name + " cuda inverse (device frames)");
      f[3] = ms_per_call(quick, [&] { cf::cdf97_forward(*cuda, p, raw.view, got.view); });
      expect_same(want, got, name + " cuda forward (host frames)");
      i[3] = ms_per_call(quick, [&] { cf::cdf97_inverse(*cuda, p, want.view, got_back.view); });
      expect_same(back, got_back, name + " cuda inverse (host frames)");
    }
    for (int dir = 0; dir < 2; ++dir) {
      const double *m = dir == 0 ? f : i;
      rows += (rows.empty() ? "" : ",\n") + std::string("    {\"levels\": ") + std::to_string(levels) +
              ", \"direction\": \"" + (dir == 0 ? "forward" : "inverse") + "\", \"cpu_ms\": " + json_number(m[0]) +
              ", \"openmp_ms\": " + json_number(m[1]) + ", \"cuda_device_ms\": " + json_number(m[2]) +
              ", \"cuda_host_ms\": " + json_number(m[3]) + "}";
    }
  }
  return rows;
}

double psnr(const cft::OwnedFrame &a, const cft::OwnedFrame &b) {
  double se = 0;
  for (int y = 0; y < kSide; ++y)
    for (int x = 0; x < kSide; ++x) {
      const double d = double(cft::read_sample(a.view, 0, x, y) - cft::read_sample(b.view, 0, x, y));
      se += d * d;
    }
  return se == 0 ? INFINITY : 10 * std::log10(255.0 * 255.0 / (se / (double(kSide) * kSide)));
}

// Quantisation steps and thresholds: the report's two settings (step 10
// with threshold 100 in its sequential program, 10 in its CUDA one) inside
// a small grid.
const float kSteps[] = {1, 4, 10, 20};
const float kThresholds[] = {0, 10, 100};

std::string run_length_rows(cf::Engine &cpu, const std::string &photo, const cft::OwnedFrame &raw) {
  std::string rows;
  for (int levels : {1, 3})
    for (float step : kSteps)
      for (float threshold : kThresholds) {
        cf::Cdf97Params p;
        p.levels = levels;
        p.quant_step = step;
        p.threshold = threshold;
        p.threshold_mode = cf::ThresholdMode::Hard;
        cft::OwnedFrame q = cft::make_planar_like(raw.view, cf::cdf97_coefficient_type(p, cf::SampleType::U8));
        cf::cdf97_forward(cpu, p, raw.view, q.view);
        // A tight S16 plane: its samples in raster order over the whole image.
        if (q.view.planes[0].stride != kSide * 2) throw cf::Error("cdf97_seeds expects a tight S16 plane");
        const auto *indices = reinterpret_cast<const std::int16_t *>(q.view.planes[0].data);
        const std::size_t n = std::size_t(kSide) * kSide;
        std::size_t nonzero = 0;
        for (std::size_t k = 0; k < n; ++k) nonzero += indices[k] != 0;
        const std::size_t segments = cfseeds::run_count(indices, n);
        cft::OwnedFrame back = cft::copy_of(raw);
        cf::cdf97_inverse(cpu, p, q.view, back.view);
        rows += (rows.empty() ? "" : ",\n") + std::string("    {\"photo\": ") + json_string(photo) +
                ", \"levels\": " + std::to_string(levels) + ", \"quant_step\": " + json_number(step) +
                ", \"threshold\": " + json_number(threshold) + ", \"segments\": " + std::to_string(segments) +
                ", \"bytes\": " + std::to_string(segments * cfseeds::kReportBytesPerSegment) +
                ", \"nonzero\": " + std::to_string(nonzero) + ", \"psnr_db\": " + json_number(psnr(raw, back)) + "}";
      }
  return rows;
}

}  // namespace

int main(int argc, char **argv) {
  const bool quick = cfseeds::quick_run();
  std::vector<std::string> paths(argv + 1, argv + argc);
  if (paths.empty()) {
    std::fprintf(stderr, "usage: cdf97_seeds photo.ppm [photo.ppm ...]\n");
    return 2;
  }
  std::string why;
  const bool cuda_usable = cf::cuda_device_usable(0, &why);
  std::unique_ptr<cf::Engine> cuda = cuda_usable ? std::make_unique<cf::Engine>(cf::Backend::Cuda) : nullptr;
  cf::Engine cpu(cf::Backend::Cpu), omp(cf::Backend::OpenMP);
  try {
    std::string photos, rle, timing;
    for (const cfseeds::Photo &ph : cfseeds::read_photos(paths)) {
      const cft::OwnedFrame raw = grey_512(ph.rgb, ph.width, ph.height);
      photos += (photos.empty() ? "" : ", ") + cfseeds::photo_json(ph);
      rle += (rle.empty() ? "" : ",\n") + run_length_rows(cpu, ph.name, raw);
      if (timing.empty()) timing = timing_rows(raw, quick, cuda.get());
      if (quick) break;
    }
    std::printf("{\n  \"cuda\": %s,\n  \"cuda_note\": %s,\n  \"openmp\": %s,\n", cuda ? "true" : "false",
                json_string(cuda ? cuda->describe() : why).c_str(), json_string(omp.describe()).c_str());
    std::printf("  \"width\": %d, \"height\": %d, \"original_bytes\": %zu, \"bytes_per_segment\": %zu,\n", kSide, kSide,
                sizeof(float) * kSide * kSide, cfseeds::kReportBytesPerSegment);
    std::printf("  \"photos\": [%s],\n  \"timing\": [\n%s\n  ],\n  \"run_length\": [\n%s\n  ]\n}\n", photos.c_str(),
                timing.c_str(), rle.c_str());
  } catch (const cf::Error &e) {
    std::fprintf(stderr, "cdf97_seeds: %s\n", e.what());
    return 1;
  }
  return 0;
}
