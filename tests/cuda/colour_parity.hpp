// Checks of the CUDA colour transforms and histograms against the serial
// reference, bit for bit (shared by the GPU test and the CPU emulation, like
// parity.hpp, whose helpers it uses): forward and inverse of random frames
// and photos in every RGB layout, the inverse of arbitrary coefficients
// (clamping), histograms of raw and coefficient frames (values inside and
// outside the kernels' shared-memory window, constant frames, long runs of
// one value, rows off the kernels' 16-byte units), and colour -> wavelet
// chains in device memory.
#pragma once

#include "cudafilters/colour.hpp"
#include "cudafilters/entropy.hpp"
#include "parity.hpp"

namespace cft::parity {

using cf::ColourTransform;

struct ColourLayout {
  const char *name;
  Packing packing;
  SampleType type;
};
inline constexpr ColourLayout kColourLayouts[] = {{"RGB", Packing::Packed3, SampleType::U8},
                                                  {"RGBA", Packing::Packed4, SampleType::U8},
                                                  {"planar RGB", Packing::Planar3, SampleType::U8},
                                                  {"RGBA/U16", Packing::Packed4, SampleType::U16}};
inline constexpr ColourTransform kColours[] = {ColourTransform::Rct, ColourTransform::YCoCg};

inline void compare_colour(cf::Engine &cuda, cf::Engine &cpu, ColourTransform t, const ColourLayout &l,
                           const OwnedFrame &src, int pad, const char *content) {
  char what[160];
  std::snprintf(what, sizeof what, "%s %s %dx%d pad=%d %s", cf::colour_name(t), l.name, src.view.components[0].width,
                src.view.components[0].height, pad, content);
  try {
    const SampleType ct = cf::coefficient_type_for(l.type);
    OwnedFrame want = make_planar_like(src.view, ct), got = make_planar_like(src.view, ct);
    fill_bytes(want, 0xA5);
    fill_bytes(got, 0x5A);
    cf::colour_forward(cpu, t, src.view, want.view);
    cf::colour_forward(cuda, t, src.view, got.view);
    std::string first;
    long long n = count_differences(want.view, got.view, &first);
    CHECK_MSG(n == 0, "%s: forward: %lld differ, first %s", what, n, first.c_str());
    OwnedFrame back =
        make_raw(l.packing, src.view.components[0].width, src.view.components[0].height, l.type, pad, false);
    fill_bytes(back, 0x5A);
    cf::colour_inverse(cuda, t, got.view, back.view);
    n = count_differences(src.view, back.view, &first);
    CHECK_MSG(n == 0, "%s: round trip: %lld differ, first %s", what, n, first.c_str());
    // Arbitrary coefficients: out-of-range results are clamped alike.
    fill_random(got, 77);
    OwnedFrame a = make_raw(l.packing, src.view.components[0].width, src.view.components[0].height, l.type, pad, false);
    OwnedFrame b = make_raw(l.packing, src.view.components[0].width, src.view.components[0].height, l.type, pad, false);
    cf::colour_inverse(cpu, t, got.view, a.view);
    cf::colour_inverse(cuda, t, got.view, b.view);
    n = count_differences(a.view, b.view, &first);
    CHECK_MSG(n == 0, "%s: inverse of random coefficients: %lld differ, first %s", what, n, first.c_str());
  } catch (const cf::Error &e) {
    CHECK_MSG(false, "%s: %s", what, e.what());
  }
  ++runs();
}

inline void colour_frames(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes) {
  const int before = failures();
  std::uint32_t seed = 5000;
  for (const Size &s : sizes)
    for (const ColourLayout &l : kColourLayouts)
      for (int pad : {0, 5}) {
        OwnedFrame src = make_raw(l.packing, s.w, s.h, l.type, pad, false);
        fill_random(src, seed++);
        for (ColourTransform t : kColours) compare_colour(cuda, cpu, t, l, src, pad, "random");
      }
  report("colour transforms, random frames", before);
}

inline bool same_histograms(const std::vector<cf::Histogram> &a, const std::vector<cf::Histogram> &b) {
  if (a.size() != b.size()) return false;
  for (std::size_t c = 0; c < a.size(); ++c)
    if (a[c].lo != b[c].lo || a[c].counts != b[c].counts) return false;
  return true;
}

inline void compare_histograms(cf::Engine &cuda, cf::Engine &cpu, const OwnedFrame &f, const std::string &what) {
  try {
    std::vector<cf::Histogram> want, got;
    cf::histograms(cpu, f.view, want);
    cf::histograms(cuda, f.view, got);
    CHECK_MSG(same_histograms(want, got), "%s: histograms differ from the serial reference", what.c_str());
  } catch (const cf::Error &e) {
    CHECK_MSG(false, "%s: %s", what.c_str(), e.what());
  }
  ++runs();
}

// Raw frames of several kinds, and S16 coefficients: small ones (inside the
// kernels' shared window around 0) with outliers (outside it).
inline void histogram_frames(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes) {
  const int before = failures();
  std::uint32_t seed = 6000;
  for (const Size &s : sizes) {
    for (const Kind &k : {kGray8, kRgba, kI420, kNv12, kGray16, kRgba16, kGrayS16}) {
      for (int pad : {0, 3}) {
        OwnedFrame f = make_raw(k.packing, s.w, s.h, k.type, pad, k.subsampled);
        fill_random(f, seed++);
        compare_histograms(cuda, cpu, f, std::string(k.name) + " " + std::to_string(s.w) + "x" + std::to_string(s.h));
      }
    }
    OwnedFrame coef = make_raw(Packing::Packed3, s.w, s.h, SampleType::S16, 0, false);
    std::mt19937 rng(seed++);
    for (int c = 0; c < 3; ++c)
      for (int y = 0; y < s.h; ++y)
        for (int x = 0; x < s.w; ++x)
          write_sample(coef.view, c, x, y, rng() % 50 ? int(rng() % 61) - 30 : std::int16_t(rng()));
    compare_histograms(cuda, cpu, coef, "S16 near 0 with outliers " + std::to_string(s.w) + "x" + std::to_string(s.h));
  }
  report("histograms", before);
}

// Histograms of frames that stress the kernel's counting rather than its
// values: every sample equal (all threads of a warp on one bin), runs of
// one value that cross the kernel's units, at values inside and outside
// its shared window and at the ends of the range; every raw layout,
// several components, odd sizes. With the CUDA runtime, also frames in
// device memory whose planes start one sample off a 16-byte boundary, with
// odd strides, so that no row is in aligned units.
inline void histogram_edge_cases(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes) {
  const int before = failures();
  const Kind kinds[] = {kGray8, kRgb, kRgba, kI420, kNv12, kGray16, kRgba16, kGrayS16};
  auto values_of = [](SampleType t) -> std::vector<int> {
    if (t == SampleType::U8) return {0, 77, 255};
    if (t == SampleType::U16) return {0, 300, 9000, 65535};
    return {0, -1, 5000, -32768, 32767};
  };
  for (const Size &s : sizes)
    for (const Kind &k : kinds)
      for (int value : values_of(k.type))
        for (int run : {0, 5}) {  // 0: constant; 5: runs of 5 samples of value, value + 1, value + 2 (+ c)
          OwnedFrame f = make_raw(k.packing, s.w, s.h, k.type, 3, k.subsampled);
          const cf::ValueRange r = cf::type_range(k.type);
          for (int c = 0; c < f.view.n_components; ++c)
            for (int y = 0; y < f.view.components[c].height; ++y)
              for (int x = 0; x < f.view.components[c].width; ++x)
                write_sample(f.view, c, x, y,
                             std::min<std::int64_t>(r.hi, value + (run ? (y * s.w + x) / run % 3 : 0) + c));
          const std::string what = std::string(k.name) + " " + std::to_string(s.w) + "x" + std::to_string(s.h) +
                                   (run ? " runs from " : " constant ") + std::to_string(value);
          compare_histograms(cuda, cpu, f, what);
#if CFT_HAVE_CUDART
          if (run) continue;
          // One sample past a 16-byte boundary, strides odd in samples.
          cf::FrameView d = f.view;
          d.memory = cf::Memory::Device;
          std::vector<void *> blocks;
          const int size = cf::sample_size(k.type);
          for (int i = 0; i < d.n_planes; ++i) {
            const std::size_t stride = std::size_t(f.view.planes[i].row_bytes + size * 3);
            void *p = nullptr;
            CHECK(cudaMalloc(&p, size + stride * f.view.planes[i].rows) == cudaSuccess);
            blocks.push_back(p);
            d.planes[i].data = static_cast<unsigned char *>(p) + size;
            d.planes[i].stride = std::ptrdiff_t(stride);
            CHECK(cudaMemcpy2D(d.planes[i].data, stride, f.view.planes[i].data, f.view.planes[i].stride,
                               f.view.planes[i].row_bytes, f.view.planes[i].rows,
                               cudaMemcpyHostToDevice) == cudaSuccess);
          }
          CHECK(cudaDeviceSynchronize() == cudaSuccess);  // before the engine's own stream reads them
          try {
            std::vector<cf::Histogram> want, got;
            cf::histograms(cpu, f.view, want);
            cf::histograms(cuda, d, got);
            CHECK_MSG(same_histograms(want, got), "%s, device memory off 16-byte units: histograms differ",
                      what.c_str());
          } catch (const cf::Error &e) {
            CHECK_MSG(false, "%s, device memory: %s", what.c_str(), e.what());
          }
          for (void *p : blocks) cudaFree(p);
          ++runs();
#endif
        }
  report("histograms of constant frames and runs", before);
}

// Photos through both colour transforms and into histograms.
inline void colour_photos(cf::Engine &cuda, cf::Engine &cpu, Size resampled) {
  const std::string dir = image_dir();
  if (dir.empty()) {
    std::printf("note: no test photos: colour photo part skipped\n");
    return;
  }
  const int before = failures();
  for (const char *name : {"baboon.jpg", "fruits.jpg", "building.jpg"}) {
    int pw = 0, ph = 0;
    std::vector<std::uint8_t> rgb;
    if (!load_rgb8(dir + "/" + name, pw, ph, rgb)) continue;
    for (const Size &s : {Size{pw, ph}, resampled})
      for (const ColourLayout &l : kColourLayouts) {
        OwnedFrame src = make_raw(l.packing, s.w, s.h, l.type, 1, false);
        fill_from_rgb(src, pw, ph, rgb);
        for (ColourTransform t : kColours) {
          compare_colour(cuda, cpu, t, l, src, 1, name);
          OwnedFrame coef = make_planar_like(src.view, cf::coefficient_type_for(l.type));
          cf::colour_forward(cpu, t, src.view, coef.view);
          if (l.type == SampleType::U8)
            compare_histograms(cuda, cpu, coef, std::string(name) + " " + cf::colour_name(t));
        }
        compare_histograms(cuda, cpu, src, std::string(name) + " " + l.name);
      }
  }
  report("colour transforms and histograms of photos", before);
}

#if CFT_HAVE_CUDART
// colour -> wavelet (S16 with the colour range) -> inverse wavelet -> inverse
// colour, every frame in device memory, against the same chain on the CPU.
inline void colour_chains_in_device_memory(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes) {
  const int before = failures();
  std::uint32_t seed = 7000;
  for (const Size &s : sizes)
    for (ColourTransform t : kColours)
      for (const WaveletParams &base :
           {WaveletParams{Wavelet::Cdf53, 3, Layout::Mallat}, WaveletParams{Wavelet::Haar, 2, Layout::Standard}}) {
        OwnedFrame src = make_raw(Packing::Packed4, s.w, s.h, SampleType::U8, 0, false);
        fill_random(src, seed++);
        WaveletParams p = base;
        p.input = cf::colour_output_range(t, SampleType::U8);
        p.levels = std::min(p.levels, cf::wavelet_max_levels(p.wavelet, p.layout, s.w, s.h, p.input, SampleType::S16));
        const std::string what =
            std::string(cf::colour_name(t)) + "," + label(p, kRgba, src.view, 0) + ", device memory";
        try {
          OwnedFrame colour = make_planar_like(src.view, SampleType::S16),
                     want = make_planar_like(src.view, SampleType::S16);
          cf::colour_forward(cpu, t, src.view, colour.view);
          cf::wavelet_forward(cpu, p, colour.view, want.view);
          OwnedFrame got = make_planar_like(src.view, SampleType::S16),
                     back = make_raw(Packing::Packed4, s.w, s.h, SampleType::U8, 0, false);
          fill_bytes(got, 0x5A);
          fill_bytes(back, 0x5A);
          DeviceFrame dsrc(src.view), dcolour(colour.view), dcoef(got.view), dmid(colour.view), dback(back.view);
          cf::colour_forward(cuda, t, dsrc.view, dcolour.view);
          cf::wavelet_forward(cuda, p, dcolour.view, dcoef.view);
          dcoef.download(got.view);
          std::string first;
          long long n = count_differences(want.view, got.view, &first);
          CHECK_MSG(n == 0, "%s: coefficients: %lld differ, first %s", what.c_str(), n, first.c_str());
          cf::wavelet_inverse(cuda, p, dcoef.view, dmid.view);
          cf::colour_inverse(cuda, t, dmid.view, dback.view);
          dback.download(back.view);
          n = count_differences(src.view, back.view, &first);
          CHECK_MSG(n == 0, "%s: round trip: %lld differ, first %s", what.c_str(), n, first.c_str());
          std::vector<cf::Histogram> hw, hg;
          cf::histograms(cpu, want.view, hw);
          cf::histograms(cuda, dcoef.view, hg);
          CHECK_MSG(same_histograms(hw, hg), "%s: histograms of device coefficients differ", what.c_str());
        } catch (const cf::Error &e) {
          CHECK_MSG(false, "%s: %s", what.c_str(), e.what());
        }
        ++runs();
      }
  report("colour -> wavelet chains in device memory", before);
}
#endif

}  // namespace cft::parity
