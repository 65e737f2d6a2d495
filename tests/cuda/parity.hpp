// Checks of the CUDA wavelets against the serial reference, bit for bit (the
// checkasm idea: every optimised kernel against the plain definition). Shared
// by the test on a GPU (test_wavelet_cuda_parity.cpp) and by the same checks
// on the CPU emulation of the kernels (emulation/), which needs no GPU.
//
// Each check runs Backend::Cpu (the reference) and Backend::Cuda on the same
// input and compares every sample; outputs are poisoned before every run.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "check.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/wavelet.hpp"
#include "frames.hpp"

#if CFT_HAVE_CUDART
#include <cuda_runtime.h>
#endif

namespace cft::parity {

using cf::Backend;
using cf::Layout;
using cf::SampleType;
using cf::Wavelet;
using cf::WaveletParams;

// A raw layout of frames.hpp, as the elements' formats use them.
struct Kind {
  const char *name;
  Packing packing;
  SampleType type;
  bool subsampled;
};

inline constexpr Kind kGray8{"GRAY8", Packing::Gray, SampleType::U8, false};
inline constexpr Kind kGray16{"GRAY16", Packing::Gray, SampleType::U16, false};
inline constexpr Kind kRgb{"RGB", Packing::Packed3, SampleType::U8, false};
inline constexpr Kind kRgba{"RGBA", Packing::Packed4, SampleType::U8, false};
inline constexpr Kind kI420{"I420", Packing::Planar3, SampleType::U8, true};
inline constexpr Kind kY444{"Y444", Packing::Planar3, SampleType::U8, false};
inline constexpr Kind kNv12{"NV12", Packing::SemiPlanar, SampleType::U8, true};
inline constexpr Kind kRgba16{"RGBA/U16", Packing::Packed4, SampleType::U16, false};
// Coefficients of an earlier stage (a colour transform) as input: S16 -> S32.
inline constexpr Kind kGrayS16{"GRAY/S16", Packing::Gray, SampleType::S16, false};

inline constexpr Kind kKinds[] = {kGray8, kGray16, kRgb, kRgba, kI420, kY444, kNv12, kRgba16, kGrayS16};
inline constexpr Wavelet kWavelets[] = {Wavelet::Haar, Wavelet::Cdf53};
inline constexpr Layout kLayouts[] = {Layout::Mallat, Layout::Standard};

struct Size {
  int w, h;
};

// Frames at least this large run levels 1, 2, 3 and the deepest only.
inline constexpr long kLargeFrame = 100000;

inline int max_levels(const WaveletParams &p, const cf::FrameView &f) {
  const SampleType coef = cf::coefficient_type_for(f.type);
  int m = 1 << 30;
  for (int c = 0; c < f.n_components; ++c)
    m = std::min(
        m, cf::wavelet_max_levels(p.wavelet, p.layout, f.components[c].width, f.components[c].height, f.type, coef));
  return m;
}

inline std::vector<int> levels_to_run(int max, bool large) {
  std::vector<int> l;
  for (int k = 1; k <= max; ++k)
    if (!large || k <= 3 || k == max) l.push_back(k);
  return l;
}

inline std::string label(const WaveletParams &p, const Kind &k, const cf::FrameView &f, int pad) {
  char s[160];
  std::snprintf(s, sizeof s, "%s levels=%d %s, %s %dx%d pad=%d", cf::wavelet_name(p.wavelet), p.levels,
                cf::layout_name(p.layout), k.name, f.components[0].width, f.components[0].height, pad);
  return s;
}

inline OwnedFrame make_like(const Kind &k, const cf::FrameView &f, int pad) {
  return make_raw(k.packing, f.components[0].width, f.components[0].height, k.type, pad, k.subsampled);
}

inline long long &runs() {
  static long long n = 0;
  return n;
}

inline void report(const char *what, int failures_before) {
  std::printf("%s: %s (%lld runs so far)\n", what, failures() == failures_before ? "all equal" : "FAILURES", runs());
  std::fflush(stdout);
}

// Forward on both backends, compared; then the cuda inverse of the cuda
// coefficients, compared with the input.
inline void check_one(cf::Engine &cuda, cf::Engine &cpu, const WaveletParams &p, const Kind &k, const OwnedFrame &src,
                      int pad) {
  const std::string what = label(p, k, src.view, pad);
  try {
    const SampleType coef = cf::coefficient_type_for(src.view.type);
    OwnedFrame want = make_planar_like(src.view, coef), got = make_planar_like(src.view, coef);
    fill_bytes(want, 0xA5);
    fill_bytes(got, 0x5A);
    cf::wavelet_forward(cpu, p, src.view, want.view);
    cf::wavelet_forward(cuda, p, src.view, got.view);
    std::string first;
    long long n = count_differences(want.view, got.view, &first);
    CHECK_MSG(n == 0, "%s: forward: %lld coefficients differ from the serial reference; first: %s", what.c_str(), n,
              first.c_str());

    OwnedFrame back = make_like(k, src.view, pad);
    fill_bytes(back, 0x5A);
    cf::wavelet_inverse(cuda, p, got.view, back.view);
    n = count_differences(src.view, back.view, &first);
    CHECK_MSG(n == 0, "%s: round trip: %lld samples differ from the input; first: %s", what.c_str(), n, first.c_str());
  } catch (const cf::Error &e) {
    CHECK_MSG(false, "%s: %s", what.c_str(), e.what());
  }
  ++runs();
}

// Random frames of every kind, rows tight and padded, both wavelets, both
// layouts, every level count (or a few, for large frames).
inline void random_frames(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes) {
  std::uint32_t seed = 1;
  for (const Size &s : sizes) {
    const int before = failures();
    for (int pad : {0, 5})
      for (const Kind &k : kKinds) {
        OwnedFrame src = make_raw(k.packing, s.w, s.h, k.type, pad, k.subsampled);
        fill_random(src, seed++);
        for (Wavelet w : kWavelets)
          for (Layout l : kLayouts) {
            WaveletParams p{w, 1, l};
            for (int levels : levels_to_run(max_levels(p, src.view), long(s.w) * s.h >= kLargeFrame)) {
              p.levels = levels;
              check_one(cuda, cpu, p, k, src, pad);
            }
          }
      }
    report(("random " + std::to_string(s.w) + "x" + std::to_string(s.h)).c_str(), before);
  }
}

// The inverse of coefficients no forward made (out of range of every band):
// intermediate values leave the coefficient type, and the final clamp to the
// raw type matters. The CUDA inverse must still give the reference's bits.
inline void arbitrary_coefficients(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes) {
  std::uint32_t seed = 1000;
  const int before = failures();
  for (const Size &s : sizes)
    for (const Kind &k : {kGray8, kGray16, kRgba, kI420, kGrayS16})
      for (Wavelet w : kWavelets)
        for (Layout l : kLayouts) {
          OwnedFrame raw = make_raw(k.packing, s.w, s.h, k.type, 3, k.subsampled);
          WaveletParams p{w, 1, l};
          for (int levels : levels_to_run(max_levels(p, raw.view), long(s.w) * s.h >= kLargeFrame)) {
            p.levels = levels;
            const std::string what = label(p, k, raw.view, 3) + ", inverse of random coefficients";
            try {
              OwnedFrame coef = make_planar_like(raw.view, cf::coefficient_type_for(k.type));
              fill_random(coef, seed++);
              OwnedFrame want = make_like(k, raw.view, 3), got = make_like(k, raw.view, 3);
              fill_bytes(want, 0xA5);
              fill_bytes(got, 0x5A);
              cf::wavelet_inverse(cpu, p, coef.view, want.view);
              cf::wavelet_inverse(cuda, p, coef.view, got.view);
              std::string first;
              const long long n = count_differences(want.view, got.view, &first);
              CHECK_MSG(n == 0, "%s: %lld samples differ from the serial reference; first: %s", what.c_str(), n,
                        first.c_str());
            } catch (const cf::Error &e) {
              CHECK_MSG(false, "%s: %s", what.c_str(), e.what());
            }
            ++runs();
          }
        }
  report("inverse of random coefficients", before);
}

// Real photos (opencv-doc's samples) at their own size and resampled to
// `resampled`; skipped with a note when absent.
inline void photos(cf::Engine &cuda, cf::Engine &cpu, Size resampled) {
  const std::string dir = image_dir();
  if (dir.empty()) {
    std::printf("note: no test photos (opencv-doc's samples, or set CF_TEST_IMAGES): photo part skipped\n");
    return;
  }
  const int before = failures();
  int loaded = 0;
  for (const char *name : {"baboon.jpg", "lena.jpg", "fruits.jpg"}) {
    int pw = 0, ph = 0;
    std::vector<std::uint8_t> rgb;
    if (!load_rgb8(dir + "/" + name, pw, ph, rgb)) continue;
    ++loaded;
    for (const Size &s : {Size{pw, ph}, resampled})
      for (const Kind &k : {kGray8, kRgb, kRgba, kI420, kNv12, kGray16}) {
        const int pad = s.w == pw && s.h == ph ? 0 : 5;
        OwnedFrame src = make_raw(k.packing, s.w, s.h, k.type, pad, k.subsampled);
        fill_from_rgb(src, pw, ph, rgb);
        for (Wavelet w : kWavelets)
          for (Layout l : kLayouts) {
            WaveletParams p{w, 1, l};
            for (int levels : levels_to_run(max_levels(p, src.view), true)) {
              p.levels = levels;
              check_one(cuda, cpu, p, k, src, pad);
            }
          }
      }
  }
  report(("photos from " + dir + " (" + std::to_string(loaded) + " loaded)").c_str(), before);
}

// One engine across changing sizes (its workspace grows, and is reused for
// smaller frames); then, at sizes it has seen, no call allocates device memory.
// `sizes` should reach the largest size in `stable` before its end.
inline void engine_reuse(cf::Engine &cpu, const std::vector<Size> &sizes, const std::vector<Size> &stable) {
  cf::Engine cuda(Backend::Cuda);
  const int before = failures();
  std::uint32_t seed = 2000;
  auto run = [&](const Size &s, const Kind &k, const WaveletParams &p) {
    OwnedFrame src = make_raw(k.packing, s.w, s.h, k.type, 1, k.subsampled);
    fill_random(src, seed++);
    WaveletParams q = p;
    q.levels = std::min(p.levels, max_levels(p, src.view));
    check_one(cuda, cpu, q, k, src, 1);
  };
  const WaveletParams mallat{Wavelet::Cdf53, 3, Layout::Mallat}, standard{Wavelet::Haar, 3, Layout::Standard};
  for (const Size &s : sizes)
    for (const Kind &k : {kRgba, kI420, kGray16}) {
      run(s, k, mallat);
      run(s, k, standard);
    }
  const long long allocations_before = cuda.workspace_allocations();
  for (int i = 0; i < 3; ++i)
    for (const Size &s : stable)
      for (const Kind &k : {kRgba, kI420}) {
        run(s, k, mallat);
        run(s, k, standard);
      }
  CHECK_MSG(cuda.workspace_allocations() == allocations_before,
            "engine reuse: %lld workspace allocations at sizes seen before",
            cuda.workspace_allocations() - allocations_before);
  report("one engine across sizes", before);
}

#if CFT_HAVE_CUDART
inline void cuda_ok(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "test setup: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// A copy of a host frame's planes in device memory, with cudaMallocPitch's
// padded pitch, as GStreamer's CUDA memory would hold it.
struct DeviceFrame {
  cf::FrameView view;
  explicit DeviceFrame(const cf::FrameView &host) : view(host) {
    view.memory = cf::Memory::Device;
    for (int i = 0; i < host.n_planes; ++i) {
      void *p = nullptr;
      std::size_t pitch = 0;
      const cf::MemoryPlane &hp = host.planes[i];
      cuda_ok(cudaMallocPitch(&p, &pitch, hp.row_bytes, hp.rows), "cudaMallocPitch");
      cuda_ok(cudaMemcpy2D(p, pitch, hp.data, hp.stride, hp.row_bytes, hp.rows, cudaMemcpyHostToDevice), "upload");
      view.planes[i].data = p;
      view.planes[i].stride = std::ptrdiff_t(pitch);
    }
    // The engine works on its own non-blocking stream: the copies must be done.
    cuda_ok(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }
  void download(const cf::FrameView &host) const {
    for (int i = 0; i < host.n_planes; ++i)
      cuda_ok(cudaMemcpy2D(host.planes[i].data, host.planes[i].stride, view.planes[i].data, view.planes[i].stride,
                           host.planes[i].row_bytes, host.planes[i].rows, cudaMemcpyDeviceToHost),
              "download");
  }
  ~DeviceFrame() {
    for (int i = 0; i < view.n_planes; ++i) cudaFree(view.planes[i].data);
  }
  DeviceFrame(const DeviceFrame &) = delete;
  DeviceFrame &operator=(const DeviceFrame &) = delete;
};

// Frames in device memory, and each mix of host and device source and destination.
inline void device_memory(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes) {
  const int before = failures();
  std::uint32_t seed = 3000;
  for (const Size &s : sizes)
    for (const Kind &k : {kGray8, kRgba, kNv12, kGray16})
      for (const WaveletParams &p :
           {WaveletParams{Wavelet::Cdf53, 3, Layout::Mallat}, WaveletParams{Wavelet::Haar, 2, Layout::Standard}})
        for (int mix = 0; mix < 3; ++mix) {  // 0: all in device memory, 1: host source, 2: host output
          OwnedFrame src = make_raw(k.packing, s.w, s.h, k.type, 0, k.subsampled);
          fill_random(src, seed++);
          WaveletParams q = p;
          q.levels = std::min(p.levels, max_levels(p, src.view));
          const char *how = mix == 0 ? ", device memory" : mix == 1 ? ", host source" : ", host output";
          const std::string what = label(q, k, src.view, 0) + how;
          try {
            const SampleType coef = cf::coefficient_type_for(k.type);
            OwnedFrame want = make_planar_like(src.view, coef), got = make_planar_like(src.view, coef);
            fill_bytes(want, 0xA5);
            fill_bytes(got, 0x5A);
            cf::wavelet_forward(cpu, q, src.view, want.view);

            DeviceFrame dsrc(src.view), dcoef(got.view);
            cf::wavelet_forward(cuda, q, mix == 1 ? src.view : dsrc.view, dcoef.view);
            dcoef.download(got.view);
            std::string first;
            long long n = count_differences(want.view, got.view, &first);
            CHECK_MSG(n == 0, "%s: forward: %lld coefficients differ; first: %s", what.c_str(), n, first.c_str());

            OwnedFrame back = make_like(k, src.view, 0);
            fill_bytes(back, 0x5A);
            DeviceFrame dback(back.view);
            if (mix == 2) {
              cf::wavelet_inverse(cuda, q, dcoef.view, back.view);
            } else {
              cf::wavelet_inverse(cuda, q, dcoef.view, dback.view);
              dback.download(back.view);
            }
            n = count_differences(src.view, back.view, &first);
            CHECK_MSG(n == 0, "%s: round trip: %lld samples differ; first: %s", what.c_str(), n, first.c_str());
          } catch (const cf::Error &e) {
            CHECK_MSG(false, "%s: %s", what.c_str(), e.what());
          }
          ++runs();
        }
  report("frames in device memory", before);
}
#endif

// A device id that does not exist: a clear reason, and an error from Engine.
inline void missing_device() {
  std::string why;
  CHECK(!cf::cuda_device_usable(99, &why));
  CHECK_MSG(why.find("99") != std::string::npos, "the reason names the device id: \"%s\"", why.c_str());
  try {
    cf::Engine e(Backend::Cuda, 0, 99);
    CHECK_MSG(false, "Engine(Backend::Cuda, device 99) did not throw");
  } catch (const cf::Error &e) {
    CHECK_MSG(std::strstr(e.what(), "99") != nullptr, "the error names the device id: \"%s\"", e.what());
  }
}

}  // namespace cft::parity
