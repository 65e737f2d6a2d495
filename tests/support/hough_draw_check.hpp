// Checks of cf::hough_draw against a reference written here from the
// definition (the incremental all-octant Bresenham walk with a square brush,
// as cudahough drew before the rule moved to core), on every input layout,
// odd sizes, padded rows, thicknesses odd and even, in place and not, frames
// in host memory or (CFT_HAVE_CUDART) device memory. Shared by tests/unit
// (cpu, openmp) and tests/cuda (the GPU and the emulated kernels).
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "hough_parity.hpp"

#if CFT_HAVE_CUDART
#include <cuda_runtime.h>
#endif

namespace cft::hough_draw {

using hough::Layout;
using hough::Size;

// The points of the walk from (x0, y0) to (x1, y1), one step at a time.
inline std::vector<std::pair<int, int>> walk(int x0, int y0, int x1, int y1) {
  std::vector<std::pair<int, int>> v;
  const int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0), sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1;
  for (int x = x0, y = y0, err = dx + dy;;) {
    v.push_back({x, y});
    if (x == x1 && y == y1) break;
    const int e2 = 2 * err;
    if (e2 >= dy) err += dy, x += sx;
    if (e2 <= dx) err += dx, y += sy;
  }
  return v;
}

inline cf::HoughPaint paint_of(const Layout &l) {
  return l.packing == Packing::Gray      ? cf::HoughPaint::Gray
         : l.luma == cf::LumaSource::Rgb ? cf::HoughPaint::Rgb
                                         : cf::HoughPaint::Yuv;
}

// f drawn on in place by the definition.
inline void reference(const std::vector<cf::HoughLine> &lines, const cf::HoughDrawParams &d, const cf::FrameView &f) {
  const int r = int(d.rgb >> 16 & 255), g = int(d.rgb >> 8 & 255), b = int(d.rgb & 255);
  int value[3] = {r, g, b}, n = 3;
  if (d.paint == cf::HoughPaint::Gray) {
    n = 1;
    value[0] = (77 * r + 150 * g + 29 * b + 128) >> 8;
  } else if (d.paint == cf::HoughPaint::Yuv) {
    value[0] = ((66 * r + 129 * g + 25 * b + 128) >> 8) + 16;
    value[1] = ((-38 * r - 74 * g + 112 * b + 128) >> 8) + 128;
    value[2] = ((112 * r - 94 * g - 18 * b + 128) >> 8) + 128;
  }
  const int w = f.components[0].width, h = f.components[0].height;
  for (const cf::HoughLine &l : lines) {
    if (!l.visible) continue;
    for (const auto &p : walk(l.x0, l.y0, l.x1, l.y1))
      for (int y = p.second - (d.thickness - 1) / 2; y <= p.second + d.thickness / 2; ++y)
        for (int x = p.first - (d.thickness - 1) / 2; x <= p.first + d.thickness / 2; ++x) {
          if (x < 0 || y < 0 || x >= w || y >= h) continue;
          for (int c = 0; c < n; ++c) {
            const bool half = f.components[c].width != w || f.components[c].height != h;
            write_sample(f, c, half ? x / 2 : x, half ? y / 2 : y, value[c]);
          }
        }
  }
}

// Lines with end points in a w x h frame: random, horizontal, vertical,
// single points, corner to corner, and invisible ones (skipped whatever
// their end points say).
inline std::vector<cf::HoughLine> random_lines(int w, int h, std::uint32_t seed) {
  std::mt19937 rng(seed);
  auto X = [&] { return int(rng() % unsigned(w)); };
  auto Y = [&] { return int(rng() % unsigned(h)); };
  std::vector<cf::HoughLine> v;
  auto add = [&](int x0, int y0, int x1, int y1, bool visible = true) {
    cf::HoughLine l;
    l.visible = visible;
    l.x0 = x0, l.y0 = y0, l.x1 = x1, l.y1 = y1;
    v.push_back(l);
  };
  for (int i = 0; i < 6; ++i) add(X(), Y(), X(), Y());
  add(0, Y(), w - 1, Y());
  add(X(), 0, X(), h - 1);
  const int x = X(), y = Y();
  add(x, y, x, y);
  add(w - 1, h - 1, 0, 0);
  add(0, 0, 0, 0, false);
  return v;
}

#if CFT_HAVE_CUDART
// A device copy of a host frame (same layout), freed with the object.
struct DeviceFrame {
  void *mem = nullptr;
  cf::FrameView view;
  explicit DeviceFrame(const OwnedFrame &host) : view(host.view) {
    if (cudaMalloc(&mem, host.bytes.size()) != cudaSuccess) {
      mem = nullptr;
      return;
    }
    const std::size_t n = host.bytes.size();
    cudaMemcpy2D(mem, n, host.bytes.data(), n, n, 1, cudaMemcpyHostToDevice);
    // From pageable memory the copy may still be in flight when cudaMemcpy2D
    // returns, and the engine's non-blocking stream does not wait for the
    // default stream: finish it (compute-sanitizer's synccheck timing showed
    // the drawing reading a half-uploaded frame).
    cudaDeviceSynchronize();
    view.memory = cf::Memory::Device;
    for (int i = 0; i < view.n_planes; ++i)
      view.planes[i].data = static_cast<std::uint8_t *>(mem) +
                            (static_cast<const std::uint8_t *>(host.view.planes[i].data) - host.bytes.data());
  }
  void download(OwnedFrame &host) const {
    const std::size_t n = host.bytes.size();
    cudaMemcpy2D(host.bytes.data(), n, mem, n, n, 1, cudaMemcpyDeviceToHost);
  }
  ~DeviceFrame() { cudaFree(mem); }
  DeviceFrame(const DeviceFrame &) = delete;
  DeviceFrame &operator=(const DeviceFrame &) = delete;
};
#endif

// e's drawing equals the reference: out of place (dst poisoned first), in
// place, and with device = true on device copies of the frames.
inline void check(cf::Engine &e, const std::vector<Size> &sizes, const std::vector<int> &thicknesses,
                  bool device = false) {
  std::uint32_t seed = 11;
  for (const Size &s : sizes)
    for (const Layout &l : hough::layouts())
      for (int pad : {0, 3})
        for (int t : thicknesses) {
          const std::string what = std::string(l.name) + " " + std::to_string(s.w) + "x" + std::to_string(s.h) +
                                   " pad " + std::to_string(pad) + " thickness " + std::to_string(t) +
                                   (device ? " device" : " host") + " on " + e.describe();
          OwnedFrame src = hough::make_frame(l, s.w, s.h, pad);
          fill_random(src, seed);
          const std::vector<cf::HoughLine> lines = random_lines(s.w, s.h, seed++);
          const cf::HoughDrawParams d{paint_of(l), 0x12c0fe ^ (seed * 0x10101u & 0xffffff), t};
          OwnedFrame want = copy_of(src);
          reference(lines, d, want.view);
          for (bool in_place : {false, true}) {
            OwnedFrame got = copy_of(src);
            if (!in_place) fill_bytes(got, 0xa5);
            try {
#if CFT_HAVE_CUDART
              if (device) {
                DeviceFrame ds(src), dd(got);
                CHECK_MSG(ds.mem && dd.mem, "%s: cudaMalloc failed", what.c_str());
                if (!ds.mem || !dd.mem) return;
                cf::hough_draw(e, lines, d, in_place ? dd.view : ds.view, dd.view);
                dd.download(got);
              } else
#endif
                cf::hough_draw(e, lines, d, in_place ? got.view : src.view, got.view);
            } catch (const cf::Error &err) {
              CHECK_MSG(false, "%s: %s", what.c_str(), err.what());
              continue;
            }
            std::string first;
            const long long n = count_differences(want.view, got.view, &first);
            CHECK_MSG(n == 0, "%s%s: %lld samples differ from the reference, first %s", what.c_str(),
                      in_place ? " in place" : "", n, first.c_str());
            ++hough::comparisons();
          }
        }
}

}  // namespace cft::hough_draw
