// OpenMP schedule of the lossless predictors. The arithmetic is the serial
// reference's (core/shared/predictor_rules.hpp, the row loops of predictor_cpu.cpp); this
// file only says how rows are shared out.
//
// Forward: every residual depends on input pixels only, so each thread takes
// a contiguous block of rows of every component, in one parallel region.
// Inverse: pixel (x, y) needs row y-1 reconstructed up to x+1 (N, NE; row
// y-2's NN and NNE were needed by row y-1 first), and its own row up to x-1.
//   - Many slices: they are independent; threads take whole slices.
//   - Otherwise a wavefront: rows go round robin to the threads, each row is
//     reconstructed in chunks of kChunk pixels into an int32 work plane, and
//     after each chunk its thread publishes how far the row is (release); a
//     chunk [x0, x1) of row y starts once row y-1 has published x1 + 1
//     (acquire). A row waits only on the row before it, which its thread
//     started earlier, so the wavefront cannot deadlock. The first row of a
//     slice waits on nothing.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "core/shared/predictor_rules.hpp"
#include "cpu/omp_threads.hpp"
#include "cpu/predictor_cpu.hpp"
#include "cpu/samples.hpp"

namespace cf::omp {

namespace {

// Pixels a wavefront row reconstructs between two publications of its progress.
constexpr int kChunk = 256;
// Slices per thread from which whole slices are shared out instead.
constexpr int kSlicesPerThread = 2;

std::size_t total_samples(const FrameView &f) {
  std::size_t n = 0;
  for (int c = 0; c < f.n_components; ++c) n += std::size_t(f.components[c].width) * f.components[c].height;
  return n;
}

int slice_count(const PredictorParams &p, int height) {
  return p.slice_height > 0 ? (height + p.slice_height - 1) / p.slice_height : 1;
}

// Waits until `progress` reaches `target`. Spins briefly, then yields the
// core: on a machine with fewer cores than threads the row above needs it.
void wait_for(const std::atomic<int> &progress, int target) {
  for (int spin = 0; progress.load(std::memory_order_acquire) < target; ++spin)
    if (spin > 64) std::this_thread::yield();
}

// The wavefront's int32 work plane and per-row progress, kept between calls.
struct Wavefront {
  std::vector<std::int32_t> plane;
  std::unique_ptr<std::atomic<int>[]> progress;
  std::size_t rows = 0;
  void reserve(std::size_t samples, std::size_t height) {
    if (plane.size() < samples) plane.resize(samples);
    if (rows < height) {
      progress.reset(new std::atomic<int>[height]);
      rows = height;
    }
  }
};

void wavefront_component(const PredictorParams &p, const FrameView &res, const FrameView &raw, int c, Wavefront &wf,
                         int thread, int threads) {
  const int w = raw.components[c].width, h = raw.components[c].height;
  const predict::Range r = predict::range_of(raw.type);
  auto row = [&](int y) { return wf.plane.data() + std::ptrdiff_t(y) * w; };
  for (int y = thread; y < h; y += threads) wf.progress[y].store(0, std::memory_order_relaxed);
#pragma omp barrier
  for (int y = thread; y < h; y += threads) {
    const predict::SliceRows s = predict::SliceRows::of(y, p.slice_height);
    samples::load_row(res, c, y, row(y));
    const std::int32_t *up1 = s.has_up1(y) ? row(y - 1) : nullptr;
    const std::int32_t *up2 = s.has_up2(y) ? row(y - 2) : up1;
    for (int x0 = 0; x0 < w; x0 += kChunk) {
      const int x1 = std::min(w, x0 + kChunk);
      if (up1) wait_for(wf.progress[y - 1], std::min(w, x1 + 1));
      predict::inverse_row(p, r, up2, up1, row(y), w, x0, x1);
      wf.progress[y].store(x1, std::memory_order_release);
    }
    samples::store_row(raw, c, y, row(y));
  }
#pragma omp barrier
}

}  // namespace

void predictor_forward(const PredictorParams &p, const FrameView &raw, const FrameView &res, int threads) {
  // One parallel region: components are independent, so no barrier between them.
#pragma omp parallel num_threads(thread_count(threads, total_samples(raw)))
  {
#ifdef _OPENMP
    const int t = omp_get_thread_num(), n = omp_get_num_threads();
#else
    const int t = 0, n = 1;
#endif
    for (int c = 0; c < raw.n_components; ++c) {
      const std::int64_t h = raw.components[c].height;
      cpu::predictor_forward_rows(p, raw, res, c, int(h * t / n), int(h * (t + 1) / n));
    }
  }
}

void predictor_inverse(const PredictorParams &p, const FrameView &res, const FrameView &raw, int threads) {
  const int team = thread_count(threads, total_samples(raw));
  int fewest_slices = 1 << 30;
  std::size_t largest = 0, tallest = 0;
  for (int c = 0; c < raw.n_components; ++c) {
    const Component &k = raw.components[c];
    fewest_slices = std::min(fewest_slices, slice_count(p, k.height));
    largest = std::max(largest, std::size_t(k.width) * k.height);
    tallest = std::max(tallest, std::size_t(k.height));
  }
  if (team <= 1) return cpu::predictor_inverse(p, res, raw);

  if (fewest_slices >= kSlicesPerThread * team) {
    // Independent slices of every component, a slice per task.
    std::vector<std::pair<int, int>> tasks;  // (component, first row)
    for (int c = 0; c < raw.n_components; ++c)
      for (int y = 0; y < raw.components[c].height; y += p.slice_height) tasks.emplace_back(c, y);
#pragma omp parallel for num_threads(team) schedule(dynamic, 1)
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      const auto [c, y] = tasks[i];
      cpu::predictor_inverse_rows(p, res, raw, c, y, std::min(raw.components[c].height, y + p.slice_height));
    }
    return;
  }

  thread_local Wavefront cache;  // the calling thread's; shared by the team below
  Wavefront &wf = cache;
  wf.reserve(largest, tallest);
#pragma omp parallel num_threads(team)
  {
#ifdef _OPENMP
    const int t = omp_get_thread_num(), n = omp_get_num_threads();
#else
    const int t = 0, n = 1;
#endif
    for (int c = 0; c < raw.n_components; ++c) wavefront_component(p, res, raw, c, wf, t, n);
  }
}

}  // namespace cf::omp
