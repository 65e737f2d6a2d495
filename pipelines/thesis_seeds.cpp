// The thesis's experiments (seed document 000) on the core library, printed
// as one JSON object for pipelines/seeds/seeds_thesis.py:
//  - entropy: zeroth-order bits per pixel (cf::frame_entropy) of every
//    technique's output on each photo at its own size: Haar and 5/3 at
//    levels 1..5 in both layouts, the DCT, RCT and YCoCg-R alone, MED, GAP
//    and GED; and RCT or YCoCg-R before each of the others;
//  - timing: forward and inverse ms per frame of each technique alone on
//    the first photo resampled to --size (default 2048x1365, the width of
//    the CLIC photos the thesis used), on serial cpu, OpenMP, and CUDA with
//    the frame in device memory and in host memory. Every OpenMP and CUDA
//    output is compared with the serial one (the DCT on CUDA: within 1);
//    a difference exits 1.
//
//   thesis_seeds [--size WxH] photo.ppm [photo.ppm ...]
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "best_time.hpp"
#include "cudafilters/colour.hpp"
#include "cudafilters/dct.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/entropy.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/predictor.hpp"
#include "cudafilters/wavelet.hpp"
#include "dct_frames.hpp"
#include "device_frame.hpp"
#include "frames.hpp"
#include "seeds_json.hpp"
#include "seeds_photo.hpp"

namespace {

using cfbench::OnDevice;
using cfseeds::json_number;
using cfseeds::json_string;
using cfseeds::kMissing;

using Stage = std::function<void(cf::Engine &, const cf::FrameView &, const cf::FrameView &)>;

// One technique as the thesis measured it: forward from its input to its
// coefficients, inverse back. `input` is the range of the source's values
// (empty: 8-bit raw samples; a colour stage's range when chained).
struct Technique {
  std::string name, layout;  // layout: wavelets only
  int levels = 0;            // wavelets only
  int tolerance = 0;         // CUDA against serial
  std::function<cft::OwnedFrame(const cf::FrameView &src)> make_output;
  Stage forward, inverse;
};

cft::OwnedFrame same_size_s16(const cf::FrameView &src) { return cft::make_planar_like(src, cf::SampleType::S16); }

std::vector<Technique> techniques(cf::ValueRange input, bool with_colour) {
  std::vector<Technique> out;
  for (cf::Wavelet w : {cf::Wavelet::Haar, cf::Wavelet::Cdf53})
    for (cf::Layout l : {cf::Layout::Standard, cf::Layout::Mallat})
      for (int levels = 1; levels <= 5; ++levels) {
        const cf::WaveletParams p(w, levels, l, input);
        out.push_back({cf::wavelet_name(w), cf::layout_name(l), levels, 0, same_size_s16,
                       [p](cf::Engine &e, const cf::FrameView &s, const cf::FrameView &d) { cf::wavelet_forward(e, p, s, d); },
                       [p](cf::Engine &e, const cf::FrameView &s, const cf::FrameView &d) { cf::wavelet_inverse(e, p, s, d); }});
      }
  const cf::DctParams dct(0, input);
  out.push_back({"dct", "", 0, cf::kDctCudaTolerance, cft::dct::make_coefficients,
                 [dct](cf::Engine &e, const cf::FrameView &s, const cf::FrameView &d) { cf::dct_forward(e, dct, s, d); },
                 [dct](cf::Engine &e, const cf::FrameView &s, const cf::FrameView &d) { cf::dct_inverse(e, dct, s, d); }});
  if (with_colour)
    for (cf::ColourTransform t : {cf::ColourTransform::Rct, cf::ColourTransform::YCoCg})
      out.push_back({cf::colour_name(t), "", 0, 0, same_size_s16,
                     [t](cf::Engine &e, const cf::FrameView &s, const cf::FrameView &d) { cf::colour_forward(e, t, s, d); },
                     [t](cf::Engine &e, const cf::FrameView &s, const cf::FrameView &d) { cf::colour_inverse(e, t, s, d); }});
  for (cf::Predictor pr : {cf::Predictor::Med, cf::Predictor::Gap, cf::Predictor::Ged}) {
    const cf::PredictorParams p(pr, cf::kDefaultGedThreshold, 0, input);
    out.push_back({cf::predictor_name(pr), "", 0, 0, same_size_s16,
                   [p](cf::Engine &e, const cf::FrameView &s, const cf::FrameView &d) { cf::predictor_forward(e, p, s, d); },
                   [p](cf::Engine &e, const cf::FrameView &s, const cf::FrameView &d) { cf::predictor_inverse(e, p, s, d); }});
  }
  return out;
}

std::string technique_fields(const std::string &colour, const Technique &t) {
  return "\"colour\": " + (colour.empty() ? std::string("null") : json_string(colour)) +
         ", \"technique\": " + json_string(t.name) + ", \"layout\": " +
         (t.layout.empty() ? std::string("null") : json_string(t.layout)) + ", \"levels\": " + std::to_string(t.levels);
}

// Bits per pixel of technique t's output on src, or missing when t refuses
// src (a level count too deep for the chained input's range).
double entropy_after(cf::Engine &cpu, const Technique &t, const cf::FrameView &src) {
  cft::OwnedFrame out = t.make_output(src);
  try {
    t.forward(cpu, src, out.view);
  } catch (const cf::Error &) {
    return kMissing;
  }
  std::vector<cf::Histogram> scratch;
  return cf::frame_entropy(cpu, out.view, scratch).bits_per_pixel;
}

std::string entropy_rows(cf::Engine &cpu, const std::string &photo, const cf::FrameView &raw) {
  std::string rows;
  auto row = [&](const std::string &colour, const Technique &t, double bpp) {
    rows += (rows.empty() ? "" : ",\n") + std::string("    {\"photo\": ") + json_string(photo) + ", " +
            technique_fields(colour, t) + ", \"bits_per_pixel\": " + json_number(bpp) + "}";
  };
  std::vector<cf::Histogram> scratch;
  Technique untransformed;
  untransformed.name = "raw";
  row("", untransformed, cf::frame_entropy(cpu, raw, scratch).bits_per_pixel);
  for (const Technique &t : techniques({}, true)) row("", t, entropy_after(cpu, t, raw));
  for (cf::ColourTransform c : {cf::ColourTransform::Rct, cf::ColourTransform::YCoCg}) {
    cft::OwnedFrame decorrelated = same_size_s16(raw);
    cf::colour_forward(cpu, c, raw, decorrelated.view);
    for (const Technique &t : techniques(cf::colour_output_range(c, cf::SampleType::U8), false))
      row(cf::colour_name(c), t, entropy_after(cpu, t, decorrelated.view));
  }
  return rows;
}

// Exits 1 (after saying what differs) when got is not within `tolerance` of want.
void expect_same(const cf::FrameView &want, const cf::FrameView &got, int tolerance, const std::string &what) {
  const long d = cft::dct::max_difference(want, got);
  if (d > tolerance) {
    std::fprintf(stderr, "%s differs from the serial result by up to %ld\n", what.c_str(), d);
    std::exit(1);
  }
}

struct Timer {
  bool quick;
  template <class F>
  double ms(F &&f) const {
    return quick ? cfbench::time_ms(1, 1, f) : cfbench::time_ms(3, 3, f);
  }
};

std::string timing_rows(const cft::OwnedFrame &raw, bool cuda_usable, bool quick) {
  cf::Engine cpu(cf::Backend::Cpu), omp(cf::Backend::OpenMP);
  std::unique_ptr<cf::Engine> cuda = cuda_usable ? std::make_unique<cf::Engine>(cf::Backend::Cuda) : nullptr;
  const Timer timer{quick};
  std::string rows;
  for (const Technique &t : techniques({}, true)) {
    cft::OwnedFrame want = t.make_output(raw.view), got = t.make_output(raw.view);
    cft::OwnedFrame back = cft::copy_of(raw), got_back = cft::copy_of(raw);
    const std::string name = t.name + (t.layout.empty() ? "" : " " + t.layout + " L" + std::to_string(t.levels));
    double f[4], i[4];  // cpu, openmp, cuda device, cuda host
    f[0] = timer.ms([&] { t.forward(cpu, raw.view, want.view); });
    i[0] = timer.ms([&] { t.inverse(cpu, want.view, back.view); });
    expect_same(raw.view, back.view, t.tolerance, name + " serial round trip");
    f[1] = timer.ms([&] { t.forward(omp, raw.view, got.view); });
    expect_same(want.view, got.view, 0, name + " openmp forward");
    i[1] = timer.ms([&] { t.inverse(omp, want.view, got_back.view); });
    expect_same(back.view, got_back.view, 0, name + " openmp inverse");
    f[2] = i[2] = f[3] = i[3] = kMissing;
    if (cuda) {
      OnDevice draw(*cuda, raw), dout(*cuda, got), dback(*cuda, got_back);
      f[2] = timer.ms([&] { t.forward(*cuda, draw.view, dout.view); });
      dout.to_host(got);
      expect_same(want.view, got.view, t.tolerance, name + " cuda forward");
      i[2] = timer.ms([&] { t.inverse(*cuda, dout.view, dback.view); });
      dback.to_host(got_back);
      expect_same(raw.view, got_back.view, 2 * t.tolerance, name + " cuda round trip");
      f[3] = timer.ms([&] { t.forward(*cuda, raw.view, got.view); });
      i[3] = timer.ms([&] { t.inverse(*cuda, want.view, got_back.view); });
    }
    for (int dir = 0; dir < 2; ++dir) {
      const double *m = dir == 0 ? f : i;
      rows += (rows.empty() ? "" : ",\n") + std::string("    {") + technique_fields("", t) + ", \"direction\": \"" +
              (dir == 0 ? "forward" : "inverse") + "\", \"cpu_ms\": " + json_number(m[0]) +
              ", \"openmp_ms\": " + json_number(m[1]) + ", \"cuda_device_ms\": " + json_number(m[2]) +
              ", \"cuda_host_ms\": " + json_number(m[3]) + "}";
    }
  }
  return rows;
}

}  // namespace

int main(int argc, char **argv) {
  const bool quick = cfseeds::quick_run();
  int W = quick ? 256 : 2048, H = quick ? 170 : 1365;
  std::vector<std::string> paths;
  for (int a = 1; a < argc; ++a) {
    const std::string arg = argv[a];
    if (arg == "--size" && a + 1 < argc) {
      if (std::sscanf(argv[++a], "%dx%d", &W, &H) != 2 || W < 1 || H < 1) {
        std::fprintf(stderr, "--size takes WxH, e.g. 2048x1365\n");
        return 2;
      }
    } else {
      paths.push_back(arg);
    }
  }
  if (paths.empty()) {
    std::fprintf(stderr, "usage: thesis_seeds [--size WxH] photo.ppm [photo.ppm ...]\n");
    return 2;
  }
  std::string why;
  const bool cuda_usable = cf::cuda_device_usable(0, &why);
  cf::Engine cpu(cf::Backend::Cpu), omp(cf::Backend::OpenMP);
  std::string photos, entropy;
  const std::vector<cfseeds::Photo> all = cfseeds::read_photos(paths);
  for (const cfseeds::Photo &ph : all) {
    cft::OwnedFrame raw = cft::make_raw(cft::Packing::Packed3, ph.width, ph.height, cf::SampleType::U8, 0, false);
    cft::fill_from_rgb(raw, ph.width, ph.height, ph.rgb);
    photos += (photos.empty() ? "" : ", ") + cfseeds::photo_json(ph);
    if (!quick || entropy.empty()) entropy += (entropy.empty() ? "" : ",\n") + entropy_rows(cpu, ph.name, raw.view);
  }
  cft::OwnedFrame timing_frame = cft::make_raw(cft::Packing::Packed3, W, H, cf::SampleType::U8, 0, false);
  cft::fill_from_rgb(timing_frame, all[0].width, all[0].height, all[0].rgb);
  const std::string timing = timing_rows(timing_frame, cuda_usable, quick);
  std::printf("{\n  \"cuda\": %s,\n  \"cuda_note\": %s,\n  \"openmp\": %s,\n  \"photos\": [%s],\n", cuda_usable ? "true" : "false",
              json_string(cuda_usable ? cf::Engine(cf::Backend::Cuda).describe() : why).c_str(),
              json_string(omp.describe()).c_str(), photos.c_str());
  std::printf("  \"entropy\": [\n%s\n  ],\n", entropy.c_str());
  std::printf("  \"timing\": {\"width\": %d, \"height\": %d, \"photo\": %s, \"rows\": [\n%s\n  ]}\n}\n", W, H,
              json_string(all[0].name).c_str(), timing.c_str());
  return 0;
}
