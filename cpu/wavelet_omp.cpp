// OpenMP schedule of the reversible wavelets. The arithmetic is the serial
// reference's (cpu/wavelet_lifting.hpp, cpu/samples.hpp); this file only says how the
// work is split: one parallel region per call, and inside it, component by
// component and pass by pass in the reference's order, work-shared loops over
// rows (load, row passes, store) and over blocks of columns (column passes).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "cpu/omp_threads.hpp"
#include "cpu/samples.hpp"
#include "cpu/wavelet_cpu.hpp"
#include "cpu/wavelet_lifting.hpp"

namespace cf::omp {

namespace {

// Columns lifted together by one task: 64 int32 = 256 bytes of every row, so
// a task streams whole cache lines and its scratch (height x 64) stays small.
constexpr int kColumnBlock = 64;

// Workspaces kept between calls, so the per-frame path allocates only when a
// frame grows. The work plane belongs to the calling thread (engines on
// different threads do not share it); the scratch to each OpenMP thread.
std::vector<std::int32_t> &cached(std::vector<std::int32_t> &v, std::size_t n) {
  if (v.size() < n) v.resize(n);
  return v;
}
std::int32_t *work_plane(std::size_t n) {
  thread_local std::vector<std::int32_t> plane;
  return cached(plane, n).data();
}
std::int32_t *thread_scratch(std::size_t n) {
  thread_local std::vector<std::int32_t> scratch;
  return cached(scratch, n).data();
}

enum class Direction { Forward, Inverse };

void run(Direction dir, const WaveletParams &p, const FrameView &src, const FrameView &dst, int threads) {
  std::size_t plane_size = 0, scratch_size = 0, samples = 0;
  for (int c = 0; c < src.n_components; ++c) {
    const Component &k = src.components[c];
    samples += std::size_t(k.width) * k.height;
    plane_size = std::max(plane_size, std::size_t(k.width) * k.height);
    scratch_size = std::max({scratch_size, std::size_t(k.width), std::size_t(k.height) * kColumnBlock});
  }
  std::int32_t *const plane = work_plane(plane_size);

#pragma omp parallel num_threads(thread_count(threads, samples))
  {
    std::int32_t *const tmp = thread_scratch(scratch_size);

    // Runs body(0..n-1) as one pass. A pass with enough work is split over
    // the team and ends at a barrier. A smaller one (the deep levels of a
    // pyramid, a small chroma plane) runs on the master thread alone with no
    // barrier: the master's passes run in order, and the next split pass
    // first waits for them. Every thread makes the same decisions.
    bool master_pending = false;
    auto pass = [&](std::size_t work, int n, auto &&body) {
      if (work < kMinSamplesPerThread) {
#pragma omp master
        for (int i = 0; i < n; ++i) body(i);
        master_pending = true;
        return;
      }
      if (master_pending) {
#pragma omp barrier
        master_pending = false;
      }
#pragma omp for schedule(static)
      for (int i = 0; i < n; ++i) body(i);
    };

    for (int c = 0; c < src.n_components; ++c) {
      const int width = src.components[c].width, height = src.components[c].height;
      const std::size_t size = std::size_t(width) * height;
      auto row = [&](int y) { return plane + std::ptrdiff_t(y) * width; };

      pass(size, height, [&](int y) { samples::load_row(src, c, y, row(y)); });

      auto rows = [&](int w, int h) {
        pass(std::size_t(w) * h, h, [&](int y) {
          if (dir == Direction::Forward)
            lifting::forward_row(p.wavelet, row(y), w, tmp);
          else
            lifting::inverse_row(p.wavelet, row(y), w, tmp);
        });
      };
      auto cols = [&](int w, int h) {
        const int blocks = (w + kColumnBlock - 1) / kColumnBlock;
        pass(std::size_t(w) * h, blocks, [&](int b) {
          const int x0 = b * kColumnBlock, lanes = std::min(kColumnBlock, w - x0);
          if (dir == Direction::Forward)
            lifting::forward(p.wavelet, plane + x0, width, h, lanes, tmp);
          else
            lifting::inverse(p.wavelet, plane + x0, width, h, lanes, tmp);
        });
      };
      if (dir == Direction::Forward)
        lifting::forward_passes(p, width, height, rows, cols);
      else
        lifting::inverse_passes(p, width, height, rows, cols);

      pass(size, height, [&](int y) { samples::store_row(dst, c, y, row(y)); });
    }
  }
}

}  // namespace

void wavelet_forward(const WaveletParams &p, const FrameView &src, const FrameView &dst, int threads) {
  run(Direction::Forward, p, src, dst, threads);
}

void wavelet_inverse(const WaveletParams &p, const FrameView &src, const FrameView &dst, int threads) {
  run(Direction::Inverse, p, src, dst, threads);
}

}  // namespace cf::omp
