// The CUDA encoder's stages one at a time, each waited for: the transform
// (the frame uploaded from host memory), the HT plane estimates with their
// copies back, the candidate windows on the host, and tier-1 with its
// copies back. The encoder runs them in this order too (core/src/
// j2k_encoder.cpp); here each is timed alone. A measurement tool, not a
// test; needs a GPU.
//
//   j2k_cuda_stages [--size 3840x2160] [--photos DIR] [--frames 8]
//                   [--ht-rate-planes 3,0] [--bpp 1]
//
// Frame: the camera photos tiled (tiled_photos.hpp), RGB, irreversible, HT
// code-blocks at the target rate; 5 levels, 64 x 64 code-blocks.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/codec/j2k_coded_blocks.hpp"
#include "core/codec/j2k_layout.hpp"
#include "core/src/j2k_plane_windows.hpp"
#include "core/src/j2k_rate.hpp"
#include "core/src/j2k_settings.hpp"
#include "core/src/j2k_subband_weights.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/j2k.hpp"
#include "kernels/j2k_encode_cuda.hpp"
#include "tiled_photos.hpp"

namespace {

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

cf::j2k::CodedBlocks pass_arrays(std::size_t blocks) {
  cf::j2k::CodedBlocks c;
  c.results.resize(blocks);
  c.pass_lengths.resize(blocks * cf::j2k::kMaxPasses);
  c.pass_distortion.resize(blocks * cf::j2k::kMaxPasses);
  return c;
}

}  // namespace

int main(int argc, char **argv) {
  int w = 3840, h = 2160, frames = 8;
  double bpp = 1;
  std::string photos_dir = "/usr/share/doc/opencv-doc/examples/data";
  std::vector<int> windows = {3, 0};
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i], v = argv[i + 1];
    if (a == "--size" && std::sscanf(v.c_str(), "%dx%d", &w, &h) == 2) continue;
    if (a == "--photos")
      photos_dir = v;
    else if (a == "--frames")
      frames = std::atoi(v.c_str());
    else if (a == "--bpp")
      bpp = std::atof(v.c_str());
    else if (a == "--ht-rate-planes") {
      windows.clear();
      for (std::size_t at = 0; at <= v.size();) {
        const std::size_t comma = std::min(v.find(',', at), v.size());
        windows.push_back(std::atoi(v.substr(at, comma - at).c_str()));
        at = comma + 1;
      }
    } else {
      std::fprintf(stderr, "unknown option %s %s\n", a.c_str(), v.c_str());
      return 2;
    }
  }
  namespace j2k = cf::j2k;
  std::vector<std::uint8_t> rgb = cft::tile_photos_rgb(cft::load_camera_photos(photos_dir), w, h);
  cf::J2kInput in;
  in.frame.n_planes = 1;
  in.frame.planes[0] = {rgb.data(), 3 * w, 3 * w, h};
  in.frame.n_components = 3;
  for (int c = 0; c < 3; ++c) in.frame.components[c] = {0, c, 3, w, h};
  in.rgb = true;
  cf::Engine engine(cf::Backend::Cuda);
  std::printf("%s, %dx%d RGB HT at %g bpp; ms per stage, each waited for\n", engine.describe().c_str(), w, h, bpp);
  for (int planes : windows) {
    cf::J2kSettings s;
    s.block_coder = cf::J2kBlockCoder::Ht;
    s.reversible = false;
    s.bitrate = bpp;
    s.ht_rate_planes = planes;
    const j2k::Layout l = j2k::make_layout(j2k::codestream_params(in, s));
    const auto steps = j2k::irreversible_steps(8, std::uint32_t(s.levels));
    const auto reciprocals = j2k::step_reciprocals(steps, 8, std::uint32_t(s.levels));
    const auto band_weights = j2k::distortion_weights(false, steps, 8, std::uint32_t(s.levels));
    const std::size_t n = l.blocks.size();
    j2k::CodedBlocks estimates = pass_arrays(n), out = pass_arrays(n);
    out.offset.resize(n);
    out.capacity.assign(n, planes > 0 ? 24576 : 65536);  // a 64 x 64 block's candidates fit
    for (std::size_t b = 0; b < n; ++b) out.offset[b] = b * out.capacity[b];
    out.data.resize(n * out.capacity[0]);
    std::vector<std::int32_t> coefficients(l.coefficient_count);
    const unsigned style = l.params.cb_style | j2k::ht::kCandidatePlanes;
    cf::cuda::J2kPlanPtr plan;
    j2k::RateRoom rate_room;
    for (int f = 0; f < frames; ++f) {
      const double t0 = now_ms();
      cf::cuda::j2k_transform(engine.cuda(), plan, in, l, reciprocals);
      cf::detail::cuda_synchronize(engine.cuda());
      const double t1 = now_ms();
      double t2 = t1, t3 = t1;
      if (planes > 0) {
        cf::cuda::j2k_estimate_planes(engine.cuda(), *plan, style, estimates);
        t2 = now_ms();
        out.windows = j2k::plane_windows(estimates, j2k::block_weights(l, band_weights, estimates),
                                         std::uint64_t(bpp * w * h / 8), (planes - 1) / 2,
                                         planes - 1 - (planes - 1) / 2, rate_room);
        t3 = now_ms();
      }
      cf::cuda::j2k_code_blocks(engine.cuda(), *plan, style, coefficients.data(), out);
      const double t4 = now_ms();
      std::size_t bytes = 0;
      for (const auto &r : out.results) bytes += std::size_t(r.bytes);
      std::printf(
          "planes %d (0: every plane): transform %.2f, estimates %.2f, windows %.2f, tier-1 %.2f; "
          "%.1f MB of candidates\n",
          planes, t1 - t0, t2 - t1, t3 - t2, t4 - t3, double(bytes) / 1e6);
    }
  }
  return 0;
}
