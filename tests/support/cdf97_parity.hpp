// Checks that a CDF 9/7 backend gives the serial reference's bits (F32
// coefficients, quantised S16 indices, and the inverse's output), shared by
// the OpenMP test (tests/unit), the CUDA test on a GPU and the CPU emulation
// of the kernels (tests/cuda). Outputs are poisoned before every run.
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "check.hpp"
#include "cudafilters/cdf97.hpp"
#include "cudafilters/error.hpp"
#include "frames.hpp"

namespace cft::cdf97_parity {

struct Size {
  int w, h;
};

inline long long &runs() {
  static long long n = 0;
  return n;
}

// Byte-exact comparison of the samples of two tight planar frames of the
// same layout (the buffers' bytes beyond the planes are not compared).
inline bool same_bytes(const OwnedFrame &a, const OwnedFrame &b) {
  const std::size_t size = std::size_t(cf::sample_size(a.view.type));
  for (int c = 0; c < a.view.n_components; ++c)
    for (int y = 0; y < a.view.components[c].height; ++y)
      if (std::memcmp(a.view.sample(c, 0, y), b.view.sample(c, 0, y), size * a.view.components[c].width) != 0)
        return false;
  return true;
}

// Parameter sets: plain F32, thresholds, quantisation.
inline std::vector<cf::Cdf97Params> param_sets(int levels, cf::Layout layout) {
  std::vector<cf::Cdf97Params> out;
  cf::Cdf97Params p;
  p.levels = levels;
  p.layout = layout;
  out.push_back(p);
  cf::Cdf97Params t = p;
  t.threshold = 6;
  t.threshold_mode = cf::ThresholdMode::Soft;
  out.push_back(t);
  cf::Cdf97Params q = p;
  q.quant_step = 4;
  q.threshold = 3;
  out.push_back(q);
  return out;
}

// Forward and inverse of `raw` on both engines; every byte compared.
inline void compare(cf::Engine &test, cf::Engine &ref, const OwnedFrame &raw, const cf::Cdf97Params &p,
                    const std::string &what) {
  ++runs();
  const cf::SampleType ct = cf::cdf97_coefficient_type(p, raw.view.type);
  OwnedFrame ca = make_planar_like(raw.view, ct), cb = make_planar_like(raw.view, ct);
  fill_bytes(ca, 0xa5);
  fill_bytes(cb, 0x5a);
  try {
    cf::cdf97_forward(test, p, raw.view, ca.view);
    cf::cdf97_forward(ref, p, raw.view, cb.view);
  } catch (const cf::Error &e) {
    CHECK_MSG(false, "%s: forward threw %s", what.c_str(), e.what());
    return;
  }
  CHECK_MSG(same_bytes(ca, cb), "%s: forward coefficients differ", what.c_str());
  OwnedFrame ra = copy_of(raw), rb = copy_of(raw);
  fill_bytes(ra, 0x33);
  fill_bytes(rb, 0xcc);
  // Each engine's inverse of the same (reference) coefficients.
  cf::cdf97_inverse(test, p, cb.view, ra.view);
  cf::cdf97_inverse(ref, p, cb.view, rb.view);
  std::string first;
  CHECK_MSG(count_differences(ra.view, rb.view, &first) == 0, "%s: inverse differs: %s", what.c_str(), first.c_str());
  // The float reconstruction before rounding too.
  OwnedFrame fa = make_planar_like(raw.view, cf::SampleType::F32), fb = make_planar_like(raw.view, cf::SampleType::F32);
  fill_bytes(fa, 0x11);
  fill_bytes(fb, 0x22);
  cf::cdf97_inverse(test, p, cb.view, fa.view);
  cf::cdf97_inverse(ref, p, cb.view, fb.view);
  CHECK_MSG(same_bytes(fa, fb), "%s: float reconstruction differs", what.c_str());
}

struct Kind {
  const char *name;
  Packing packing;
  cf::SampleType type;
  bool subsampled;
};
inline const std::vector<Kind> &kinds() {
  static const std::vector<Kind> k = {{"GRAY8", Packing::Gray, cf::SampleType::U8, false},
                                      {"RGBA", Packing::Packed4, cf::SampleType::U8, false},
                                      {"I420", Packing::Planar3, cf::SampleType::U8, true},
                                      {"NV12", Packing::SemiPlanar, cf::SampleType::U8, true},
                                      {"GRAY16", Packing::Gray, cf::SampleType::U16, false}};
  return k;
}

// Random frames of every kind and size, rows tight and padded, levels 1 and
// the deepest the frame allows, both layouts, every parameter set.
inline void random_frames(cf::Engine &test, cf::Engine &ref, const std::vector<Size> &sizes) {
  std::uint32_t seed = 97;
  for (const Kind &k : kinds())
    for (Size s : sizes)
      for (int pad : {0, 5}) {
        OwnedFrame raw = make_raw(k.packing, s.w, s.h, k.type, pad, k.subsampled);
        fill_random(raw, seed++);
        int deepest = 64;
        for (int c = 0; c < raw.view.n_components; ++c)
          deepest =
              std::min(deepest, cf::cdf97_max_levels(raw.view.components[c].width, raw.view.components[c].height));
        for (int levels : {1, deepest})
          for (cf::Layout layout : {cf::Layout::Mallat, cf::Layout::Standard})
            for (const cf::Cdf97Params &p : param_sets(levels, layout))
              compare(test, ref, raw, p,
                      std::string(k.name) + " " + std::to_string(s.w) + "x" + std::to_string(s.h) + " pad " +
                          std::to_string(pad) + " levels " + std::to_string(levels) + " " + cf::layout_name(layout) +
                          " q " + std::to_string(p.quant_step) + " t " + std::to_string(p.threshold));
      }
}

// The real photos (RGB), at their size or cropped to `limit`.
inline void photos(cf::Engine &test, cf::Engine &ref, const Size *limit) {
  for (const Photo &ph : load_photos()) {
    const int w = limit ? std::min(limit->w, ph.width) : ph.width,
              h = limit ? std::min(limit->h, ph.height) : ph.height;
    OwnedFrame raw = make_raw(Packing::Packed3, w, h, cf::SampleType::U8);
    fill_from_rgb(raw, ph.width, ph.height, ph.rgb);
    for (const cf::Cdf97Params &p : param_sets(3, cf::Layout::Mallat)) compare(test, ref, raw, p, ph.name);
  }
}

}  // namespace cft::cdf97_parity
