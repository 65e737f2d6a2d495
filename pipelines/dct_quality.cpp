// Measurement: cudadct round-trip PSNR and zeroth-order entropy (bits per
// pixel, cf::frame_entropy of the quantised coefficients, padded planes
// included) per quality on the real photos, GRAY8 and I420, cpu backend.
// Prints the markdown rows of pipelines/results/dct-quality.md.
#include <cstdio>

#include "cudafilters/dct.hpp"
#include "cudafilters/entropy.hpp"
#include "dct_frames.hpp"

int main() {
  cf::Engine e(cf::Backend::Cpu);
  std::vector<cf::Histogram> scratch;
  std::printf("| photo | format | size | quality | PSNR (dB) | entropy (bits/pixel) |\n|---|---|---|---|---|---|\n");
  for (const cft::Photo &ph : cft::load_photos())
    for (cft::Packing pk : {cft::Packing::Gray, cft::Packing::Planar3}) {
      cft::OwnedFrame raw = cft::make_raw(pk, ph.width, ph.height, cf::SampleType::U8);
      cft::fill_from_rgb(raw, ph.width, ph.height, ph.rgb);
      const cf::Entropy input = cf::frame_entropy(e, raw.view, scratch);
      std::printf("| %s | %s | %dx%d | input | - | %.3f |\n", ph.name.c_str(),
                  pk == cft::Packing::Gray ? "GRAY8" : "I420", ph.width, ph.height, input.bits_per_pixel);
      for (int q : {0, 10, 25, 50, 75, 90, 100}) {
        cft::OwnedFrame co = cft::dct::make_coefficients(raw.view), back = cft::copy_of(raw);
        cf::dct_forward(e, cf::DctParams(q), raw.view, co.view);
        cf::dct_inverse(e, cf::DctParams(q), co.view, back.view);
        // Entropy per pixel of the picture (W x H), not of the padded planes.
        cf::Entropy h = cf::frame_entropy(e, co.view, scratch);
        double bits = 0;
        for (int c = 0; c < h.n; ++c) bits += h.bits_per_sample[c] * double(h.samples[c]);
        std::printf("| %s | %s | %dx%d | %d | %.2f | %.3f |\n", ph.name.c_str(),
                    pk == cft::Packing::Gray ? "GRAY8" : "I420", ph.width, ph.height, q,
                    cft::dct::psnr(raw.view, back.view), bits / (double(ph.width) * ph.height));
      }
    }
  return 0;
}
