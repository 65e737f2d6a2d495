// The JPEG 2000 lecture's measurements (seed document 002) on the core
// library, printed as one JSON object for pipelines/seeds/seeds_j2k_lecture.py:
// at 1280x720, 1920x1080 and 3840x2160 (the photo resampled), GRAY8 and RGB,
// per backend (serial cpu, OpenMP, CUDA on frames in device memory):
//  - the DWTs alone, 5 levels: the reversible 5/3 (cf::wavelet_forward) and
//    the 9/7 (cf::cdf97_forward, float);
//  - the whole encoder, lossless and at 1 bit per pixel, with its split
//    (J2kEncoder::stage_times): the block stage (level shift, colour
//    transform, DWT, quantisation and tier-1: context modelling and MQ
//    coding; on CUDA also the copies between host and GPU) and the
//    codestream stage (rate allocation and tier-2, on the host).
// Every codestream is compared with the serial or OpenMP one; a difference
// exits 1.
//
//   j2k_lecture_seeds photo.ppm
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "best_time.hpp"
#include "cudafilters/cdf97.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/j2k.hpp"
#include "cudafilters/wavelet.hpp"
#include "device_frame.hpp"
#include "frames.hpp"
#include "seeds_json.hpp"
#include "seeds_photo.hpp"

namespace {

using cfbench::OnDevice;
using cfseeds::json_number;
using cfseeds::json_string;

struct Encoded {
  double total_ms = 0, blocks_ms = 0, codestream_ms = 0;
  std::vector<std::uint8_t> codestream;
};

Encoded encode(cf::Engine &e, const cf::FrameView &frame, bool rgb, bool lossless, int rounds) {
  cf::J2kEncoder enc(e);
  cf::J2kInput in;
  in.frame = frame;
  in.rgb = rgb;
  cf::J2kSettings s;
  s.reversible = lossless;
  s.bitrate = lossless ? 0 : 1.0;
  Encoded out;
  out.total_ms = cfbench::time_ms(rounds, 1, [&] { enc.encode(in, s, out.codestream); });
  const cf::J2kEncoder::StageTimes t = enc.stage_times();
  out.blocks_ms = t.blocks_ms;
  out.codestream_ms = t.codestream_ms;
  return out;
}

std::string encoded_json(const Encoded &e) {
  return "{\"total_ms\": " + json_number(e.total_ms) + ", \"blocks_ms\": " + json_number(e.blocks_ms) +
         ", \"codestream_ms\": " + json_number(e.codestream_ms) + ", \"bytes\": " + std::to_string(e.codestream.size()) +
         "}";
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: j2k_lecture_seeds photo.ppm\n");
    return 2;
  }
  const cfseeds::Photo photo = cfseeds::read_photos({argv[1]})[0];
  const bool quick = cfseeds::quick_run();
  const int rounds = quick ? 1 : 3;
  std::string why;
  const bool cuda_usable = cf::cuda_device_usable(0, &why);
  std::vector<std::pair<std::string, std::unique_ptr<cf::Engine>>> backends;
  if (!quick) backends.emplace_back("cpu", std::make_unique<cf::Engine>(cf::Backend::Cpu));
  backends.emplace_back("openmp", std::make_unique<cf::Engine>(cf::Backend::OpenMP));
  if (cuda_usable) backends.emplace_back("cuda_device", std::make_unique<cf::Engine>(cf::Backend::Cuda));
  const std::vector<std::pair<int, int>> sizes =
      quick ? std::vector<std::pair<int, int>>{{320, 180}} : std::vector<std::pair<int, int>>{{1280, 720}, {1920, 1080}, {3840, 2160}};

  std::string rows;
  for (auto [w, h] : sizes)
    for (cft::Packing packing : {cft::Packing::Gray, cft::Packing::Packed3}) {
      const bool is_rgb = packing == cft::Packing::Packed3;
      cft::OwnedFrame raw = cft::make_raw(packing, w, h, cf::SampleType::U8, 0, false);
      cft::fill_from_rgb(raw, photo.width, photo.height, photo.rgb);
      cft::OwnedFrame c53 = cft::make_planar_like(raw.view, cf::SampleType::S16);
      cf::Cdf97Params p97;
      p97.levels = 5;
      cft::OwnedFrame c97 = cft::make_planar_like(raw.view, cf::cdf97_coefficient_type(p97, cf::SampleType::U8));
      const cf::WaveletParams p53(cf::Wavelet::Cdf53, 5, cf::Layout::Mallat);
      std::vector<std::uint8_t> want_lossless, want_lossy;
      for (auto &backend : backends) {
        // Named references, not a structured binding: lambdas capture them (C++17).
        const std::string &name = backend.first;
        cf::Engine &engine = *backend.second;
        const bool on_gpu = name == "cuda_device";
        std::unique_ptr<OnDevice> draw, d53, d97;
        cf::FrameView src = raw.view, dst53 = c53.view, dst97 = c97.view;
        if (on_gpu) {
          draw = std::make_unique<OnDevice>(engine, raw);
          d53 = std::make_unique<OnDevice>(engine, c53);
          d97 = std::make_unique<OnDevice>(engine, c97);
          src = draw->view, dst53 = d53->view, dst97 = d97->view;
        }
        const double dwt53 = cfbench::time_ms(rounds, 3, [&] { cf::wavelet_forward(engine, p53, src, dst53); });
        const double dwt97 = cfbench::time_ms(rounds, 3, [&] { cf::cdf97_forward(engine, p97, src, dst97); });
        const Encoded lossless = encode(engine, src, is_rgb, true, rounds);
        const Encoded lossy = encode(engine, src, is_rgb, false, rounds);
        if (want_lossless.empty()) {
          want_lossless = lossless.codestream;
          want_lossy = lossy.codestream;
        } else if (lossless.codestream != want_lossless || lossy.codestream != want_lossy) {
          std::fprintf(stderr, "%dx%d %s: the %s codestream differs from the first backend's\n", w, h,
                       is_rgb ? "RGB" : "GRAY8", name.c_str());
          return 1;
        }
        rows += (rows.empty() ? "" : ",\n") + std::string("    {\"width\": ") + std::to_string(w) +
                ", \"height\": " + std::to_string(h) + ", \"format\": \"" + (is_rgb ? "RGB" : "GRAY8") +
                "\", \"backend\": " + json_string(name) + ", \"dwt53_ms\": " + json_number(dwt53) +
                ", \"dwt97_ms\": " + json_number(dwt97) + ", \"lossless\": " + encoded_json(lossless) +
                ", \"bpp1\": " + encoded_json(lossy) + "}";
      }
    }
  std::printf("{\n  \"cuda\": %s,\n  \"rows\": [\n%s\n  ]\n}\n", cuda_usable ? "true" : "false", rows.c_str());
  return 0;
}
