// Quality against size of cudacdf97's quantisation on real photos: for each
// quant-step, the PSNR of the 8-bit reconstruction and the zeroth-order
// entropy of the S16 indices in bits per pixel (cf::frame_entropy: the sum
// over planes of H x samples / pixels), plus the fraction of nonzero
// indices. Prints a Markdown table (pipelines/results/cdf97-quality.md).
//
//   cdf97_quality [levels]   (photos from CF_TEST_IMAGES; RGB, Mallat layout)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cudafilters/cdf97.hpp"
#include "cudafilters/entropy.hpp"
#include "frames.hpp"

int main(int argc, char **argv) {
  const int levels = argc > 1 ? std::atoi(argv[1]) : 5;
  cf::Engine e(cf::Backend::Cpu);
  std::printf("| photo | quant-step | threshold | PSNR (dB) | entropy (bits/pixel, RGB) | nonzero indices |\n");
  std::printf("|---|---:|---:|---:|---:|---:|\n");
  for (const cft::Photo &ph : cft::load_photos()) {
    cft::OwnedFrame raw = cft::make_raw(cft::Packing::Packed3, ph.width, ph.height, cf::SampleType::U8);
    cft::fill_from_rgb(raw, ph.width, ph.height, ph.rgb);
    struct Setting {
      float step, threshold;
    };
    for (Setting s :
         std::vector<Setting>{{0.5f, 0}, {1, 0}, {2, 0}, {4, 0}, {8, 0}, {16, 0}, {32, 0}, {4, 8}, {4, 16}, {8, 24}}) {
      cf::Cdf97Params p;
      p.levels = levels;
      p.quant_step = s.step;
      p.threshold = s.threshold;
      cft::OwnedFrame q = cft::make_planar_like(raw.view, cf::SampleType::S16);
      cf::cdf97_forward(e, p, raw.view, q.view);
      cft::OwnedFrame back = cft::copy_of(raw);
      cf::cdf97_inverse(e, p, q.view, back.view);
      double se = 0;
      long long n = 0, nonzero = 0, total = 0;
      for (int c = 0; c < 3; ++c)
        for (int y = 0; y < ph.height; ++y)
          for (int x = 0; x < ph.width; ++x, ++n) {
            const double d = double(cft::read_sample(raw.view, c, x, y) - cft::read_sample(back.view, c, x, y));
            se += d * d;
            nonzero += cft::read_sample(q.view, c, x, y) != 0;
            ++total;
          }
      std::vector<cf::Histogram> scratch;
      const cf::Entropy h = cf::frame_entropy(e, q.view, scratch);
      const double psnr = 10 * std::log10(255.0 * 255.0 / (se / double(n)));
      std::printf("| %s %dx%d | %g | %g | %.2f | %.3f | %.1f%% |\n", ph.name.c_str(), ph.width, ph.height, s.step,
                  s.threshold, psnr, h.bits_per_pixel, 100.0 * double(nonzero) / double(total));
    }
  }
  return 0;
}
