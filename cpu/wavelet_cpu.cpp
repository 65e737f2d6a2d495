// Serial reference of the reversible wavelets: it defines the correct result
// that the OpenMP and CUDA backends must reproduce bit for bit.
//
// Per component: load the samples into an int32 work plane (width x height,
// tightly packed), run the passes of cf::lifting::forward_passes (or
// inverse_passes) on it, store it to the destination, clamped to the
// destination's sample type (a no-op for coefficients within the limits of
// wavelet_max_levels, and for exact reconstructions of raw samples).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "cpu/samples.hpp"
#include "cpu/wavelet_cpu.hpp"
#include "cpu/wavelet_lifting.hpp"

namespace cf::cpu {

namespace {

enum class Direction { Forward, Inverse };

// The work plane and the scratch, kept between calls (per calling thread) so
// a stream of frames of one size allocates once.
struct Workspace {
  std::vector<std::int32_t> plane, tmp;
};
Workspace &workspace(std::size_t n) {
  thread_local Workspace ws;
  if (ws.plane.size() < n) {
    ws.plane.resize(n);
    ws.tmp.resize(n);
  }
  return ws;
}

void transform_component(Direction dir, const WaveletParams &p, const FrameView &src, const FrameView &dst, int c) {
  const int width = src.components[c].width, height = src.components[c].height;
  // The column pass lifts a whole band at once (every row is one sample), so
  // the scratch holds a whole plane; a row needs only `width`.
  Workspace &ws = workspace(std::size_t(width) * height);
  std::int32_t *const plane = ws.plane.data(), *const tmp = ws.tmp.data();
  auto row = [&](int y) { return plane + std::ptrdiff_t(y) * width; };

  for (int y = 0; y < height; ++y) samples::load_row(src, c, y, row(y));

  auto rows = [&](int w, int h) {
    for (int y = 0; y < h; ++y) {
      if (dir == Direction::Forward)
        lifting::forward_row(p.wavelet, row(y), w, tmp);
      else
        lifting::inverse_row(p.wavelet, row(y), w, tmp);
    }
  };
  auto cols = [&](int w, int h) {
    if (dir == Direction::Forward)
      lifting::forward(p.wavelet, plane, width, h, w, tmp);
    else
      lifting::inverse(p.wavelet, plane, width, h, w, tmp);
  };
  if (dir == Direction::Forward)
    lifting::forward_passes(p, width, height, rows, cols);
  else
    lifting::inverse_passes(p, width, height, rows, cols);

  for (int y = 0; y < height; ++y) samples::store_row(dst, c, y, row(y));
}

}  // namespace

void wavelet_forward(const WaveletParams &p, const FrameView &src, const FrameView &dst) {
  for (int c = 0; c < src.n_components; ++c) transform_component(Direction::Forward, p, src, dst, c);
}

void wavelet_inverse(const WaveletParams &p, const FrameView &src, const FrameView &dst) {
  for (int c = 0; c < src.n_components; ++c) transform_component(Direction::Inverse, p, src, dst, c);
}

}  // namespace cf::cpu
