// The CUDA 8x8 DCT against the serial reference, shared by the GPU test
// (test_dct_cuda_parity) and the CPU emulation of the kernels
// (emulation/test_dct_cuda_emulated): every coefficient and every
// reconstructed sample within cf::kDctCudaTolerance (1) of the CPU's, on
// random frames of odd sizes and padded rows, every raw layout, qualities
// 0..100, a colour stage's S16 input, real photos, and frames in device
// memory whose planes start off word boundaries and whose strides are odd.
// Prints how many values differ at all (the kernels are written to give the
// same bits).
#pragma once

#include <cstdio>
#include <vector>

#if CFT_HAVE_CUDART
#include <cuda_runtime.h>
#endif

#include "check.hpp"
#include "cudafilters/dct.hpp"
#include "cudafilters/engine.hpp"
#include "dct_frames.hpp"

namespace cft::dct_parity {

struct Size {
  int w, h;
};

inline long long &differing() {
  static long long n = 0;
  return n;
}

// Forward and inverse of `raw` on both engines; the inverse of the CPU's
// coefficients on both (so the inverse is compared on the same input).
inline void compare(cf::Engine &cuda, cf::Engine &cpu, const OwnedFrame &raw, const cf::DctParams &p,
                    const char *what) {
  OwnedFrame a = dct::make_coefficients(raw.view), b = dct::make_coefficients(raw.view);
  fill_bytes(a, 0x5a);
  cf::dct_forward(cuda, p, raw.view, a.view);
  cf::dct_forward(cpu, p, raw.view, b.view);
  const long fd = dct::max_difference(a.view, b.view);
  CHECK_MSG(fd <= cf::kDctCudaTolerance, "%s q%d: CUDA coefficients %ld from the CPU's", what, p.quality, fd);
  OwnedFrame x = copy_of(raw), y = copy_of(raw);
  fill_bytes(x, 0x11);
  fill_bytes(y, 0x77);
  cf::dct_inverse(cuda, p, b.view, x.view);
  cf::dct_inverse(cpu, p, b.view, y.view);
  const long id = dct::max_difference(x.view, y.view);
  CHECK_MSG(id <= cf::kDctCudaTolerance, "%s q%d: CUDA inverse %ld from the CPU's", what, p.quality, id);
  differing() += count_differences(a.view, b.view) + count_differences(x.view, y.view);
}

inline void random_frames(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes,
                          const std::vector<int> &qualities) {
  const Packing packings[] = {Packing::Gray, Packing::Planar3, Packing::Packed3, Packing::Packed4, Packing::SemiPlanar};
  for (const Size &s : sizes)
    for (Packing pk : packings)
      for (int pad : {0, 3})
        for (int q : qualities) {
          OwnedFrame raw = make_raw(pk, s.w, s.h, cf::SampleType::U8, pad);
          fill_random(raw, std::uint32_t(s.w * 31 + s.h + q + pad));
          char what[64];
          std::snprintf(what, sizeof what, "packing %d %dx%d pad %d", int(pk), s.w, s.h, pad);
          compare(cuda, cpu, raw, cf::DctParams(q), what);
        }
}

// S16 in [-255, 255] (a colour stage's output), no level shift.
inline void colour_range(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes) {
  for (const Size &s : sizes) {
    OwnedFrame raw = make_raw(Packing::Planar3, s.w, s.h, cf::SampleType::S16, 2, false);
    fill_random(raw, 9);
    for (int c = 0; c < 3; ++c)
      for (int y = 0; y < s.h; ++y)
        for (int x = 0; x < s.w; ++x) write_sample(raw.view, c, x, y, read_sample(raw.view, c, x, y) % 256);
    compare(cuda, cpu, raw, cf::DctParams(0, {-255, 255}), "S16 [-255, 255]");
    compare(cuda, cpu, raw, cf::DctParams(75, {-255, 255}), "S16 [-255, 255]");
  }
}

inline void photos(cf::Engine &cuda, cf::Engine &cpu, const Size *limit) {
  for (const Photo &ph : load_photos())
    for (Packing pk : {Packing::Gray, Packing::Planar3})
      for (int q : {0, 50}) {
        const int w = limit ? std::min(ph.width, limit->w) : ph.width,
                  h = limit ? std::min(ph.height, limit->h) : ph.height;
        OwnedFrame raw = make_raw(pk, w, h, cf::SampleType::U8, 1);
        fill_from_rgb(raw, ph.width, ph.height, ph.rgb);
        compare(cuda, cpu, raw, cf::DctParams(q), ph.name.c_str());
      }
}

#if CFT_HAVE_CUDART
// A device copy of a host frame whose planes start `skew` bytes past an
// allocation's start and whose rows are `extra` bytes longer than the
// host's: no block row lies on the word boundaries the kernels' word loads
// and stores need, so they take the sample-by-sample path.
struct SkewedDeviceFrame {
  cf::FrameView view;
  void *allocations[cf::kMaxPlanes] = {};
  SkewedDeviceFrame(const cf::FrameView &host, int skew, int extra) : view(host) {
    view.memory = cf::Memory::Device;
    for (int i = 0; i < host.n_planes; ++i) {
      const cf::MemoryPlane &hp = host.planes[i];
      const std::size_t stride = std::size_t(hp.row_bytes + extra);
      CHECK(cudaMalloc(&allocations[i], skew + stride * hp.rows) == cudaSuccess);
      view.planes[i].data = static_cast<unsigned char *>(allocations[i]) + skew;
      view.planes[i].stride = std::ptrdiff_t(stride);
      CHECK(cudaMemcpy2D(view.planes[i].data, stride, hp.data, hp.stride, hp.row_bytes, hp.rows,
                         cudaMemcpyHostToDevice) == cudaSuccess);
    }
    // The engine works on its own non-blocking stream: the copies must be done.
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
  }
  void download(const cf::FrameView &host) const {
    for (int i = 0; i < host.n_planes; ++i)
      CHECK(cudaMemcpy2D(host.planes[i].data, host.planes[i].stride, view.planes[i].data, view.planes[i].stride,
                         host.planes[i].row_bytes, host.planes[i].rows, cudaMemcpyDeviceToHost) == cudaSuccess);
  }
  ~SkewedDeviceFrame() {
    for (void *a : allocations) cudaFree(a);
  }
  SkewedDeviceFrame(const SkewedDeviceFrame &) = delete;
  SkewedDeviceFrame &operator=(const SkewedDeviceFrame &) = delete;
};

// op(in, out) on skewed device copies of `in` and `out` (each with its skew
// and extra row bytes); `out` gets the result.
template <class Op>
void on_skewed_device(const cf::FrameView &in, int in_skew, int in_extra, const cf::FrameView &out, int out_skew,
                      int out_extra, Op &&op) {
  SkewedDeviceFrame din(in, in_skew, in_extra), dout(out, out_skew, out_extra);
  op(din.view, dout.view);
  dout.download(out);
}

// Forward and inverse with every frame in such device memory (U8 rows one
// byte off, S16 rows one sample off, strides odd in samples).
inline void skewed_device_frames(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes) {
  const Packing packings[] = {Packing::Gray, Packing::Packed4, Packing::SemiPlanar, Packing::Planar3};
  std::uint32_t seed = 900;
  for (const Size &s : sizes)
    for (Packing pk : packings)
      for (int q : {0, 50}) {
        char what[64];
        std::snprintf(what, sizeof what, "device memory, packing %d %dx%d", int(pk), s.w, s.h);
        const cf::DctParams p(q);
        OwnedFrame raw = make_raw(pk, s.w, s.h, cf::SampleType::U8, 0);
        fill_random(raw, seed++);
        OwnedFrame want = dct::make_coefficients(raw.view), got = dct::make_coefficients(raw.view);
        cf::dct_forward(cpu, p, raw.view, want.view);
        on_skewed_device(raw.view, 1, 3, got.view, 2, 6,
                         [&](const cf::FrameView &in, const cf::FrameView &out) { cf::dct_forward(cuda, p, in, out); });
        const long fd = dct::max_difference(want.view, got.view);
        CHECK_MSG(fd <= cf::kDctCudaTolerance, "%s q%d: CUDA coefficients %ld from the CPU's", what, q, fd);
        OwnedFrame a = copy_of(raw), b = copy_of(raw);
        cf::dct_inverse(cpu, p, want.view, a.view);
        on_skewed_device(want.view, 2, 6, b.view, 1, 3,
                         [&](const cf::FrameView &in, const cf::FrameView &out) { cf::dct_inverse(cuda, p, in, out); });
        const long id = dct::max_difference(a.view, b.view);
        CHECK_MSG(id <= cf::kDctCudaTolerance, "%s q%d: CUDA inverse %ld from the CPU's", what, q, id);
        differing() += count_differences(want.view, got.view) + count_differences(a.view, b.view);
      }
}
#endif

}  // namespace cft::dct_parity
