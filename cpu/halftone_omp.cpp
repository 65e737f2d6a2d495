// OpenMP schedule of error-diffusion halftoning. The arithmetic is the
// serial reference's (core/shared/halftone_rules.hpp); this file only says in which
// order pixels run, keeping every dependency of the serial scan:
//
// Raster scan (no serpentine): a wavefront of rows. Threads take rows in
// order from a shared ticket (planes one after another) and run each in
// chunks of kChunk pixels. Before a chunk [s0, s1) of row y, the row above
// must have finished its pixels up to s1 - 1 + reach_x (the widest tap),
// which, by induction, also holds for the rows above it; each row publishes
// its progress after every chunk (release store, acquire load). A row only
// waits on the row whose ticket came just before it, taken by a running
// thread, so the wait always ends.
//
// Serpentine: the first pixel of a row needs the last pixel of the row above
// (the rows run in opposite directions), so a plane is one sequential chain;
// planes run in parallel.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "cpu/halftone_cpu.hpp"

namespace cf::omp {

namespace {

namespace hr = halftone_rules;

constexpr int kChunk = 64;  // pixels between progress updates
// Below this many pixels a frame runs on one thread (the wavefront's fill
// and its synchronisation cost more than they save).
constexpr std::size_t kMinPixelsPerThread = 64 * 1024;

int thread_count(int threads, std::size_t pixels, std::size_t units) {
#ifdef _OPENMP
  const std::size_t wanted = threads > 0 ? std::size_t(threads) : std::size_t(omp_get_max_threads());
  const std::size_t cores = std::size_t(std::max(1, omp_get_num_procs()));
  const std::size_t useful = std::max<std::size_t>(1, pixels / kMinPixelsPerThread);
  return int(std::min({wanted, cores, useful, std::max<std::size_t>(units, 1)}));
#else
  (void)threads;
  (void)pixels;
  (void)units;
  return 1;
#endif
}

struct alignas(64) Progress {  // one cache line per row: no false sharing
  std::atomic<int> done{0};
};

void wait_for(const std::atomic<int> &done, int need) {
  for (int spins = 0; done.load(std::memory_order_acquire) < need; ++spins)
    if (spins > 64) std::this_thread::yield();
}

}  // namespace

void halftone(const hr::Setup &s, const FrameView &src, const FrameView &dst, int threads) {
  // The planes to halftone, their error planes in one cached buffer, and the
  // first ticket (row) of each.
  struct Plane {
    int c;
    std::size_t err_offset;
    int first_row;
  };
  std::vector<Plane> planes;
  std::size_t err_size = 0, pixels = 0;
  int rows = 0;
  for (int c = 0; c < src.n_components; ++c) {
    if (s.copy_mask >> c & 1) {
      cpu::copy_component(src, dst, c);
      continue;
    }
    const Component &k = src.components[c];
    planes.push_back({c, err_size, rows});
    err_size += std::size_t(k.width) * k.height;
    pixels += std::size_t(k.width) * k.height;
    rows += k.height;
  }
  // The calling thread's buffer, reached through a pointer: inside the
  // parallel region the name would denote each thread's own (empty) copy.
  thread_local std::vector<std::int16_t> err_buffer;
  if (err_buffer.size() < err_size) err_buffer.resize(err_size);
  std::int16_t *const err = err_buffer.data();

  auto plane_ref = [&](const Plane &p) { return hr::plane_ref(src, dst, p.c, err + p.err_offset); };

  hr::dispatch(s, [&](auto m, auto multi, auto stochastic) {
    constexpr HalftoneMethod M = decltype(m)::value;
    constexpr bool Multi = decltype(multi)::value, Stochastic = decltype(stochastic)::value;
    constexpr int kReach = hr::kernel_of(M).reach_x;

    if (s.serpentine) {
      const int n = int(planes.size());
#pragma omp parallel for schedule(dynamic, 1) num_threads(thread_count(threads, pixels, planes.size()))
      for (int i = 0; i < n; ++i) {
        const hr::PlaneRef p = plane_ref(planes[i]);
        const hr::PixelRules r = hr::pixel_rules(s, planes[i].c);
        for (int y = 0; y < p.height; ++y) hr::diffuse_span<M, Multi, Stochastic>(p, r, true, y, 0, p.width);
      }
      return;
    }

    // Progress counters, kept between calls (per calling thread) and reset here.
    thread_local std::unique_ptr<Progress[]> counters;
    thread_local int capacity = 0;
    if (capacity < rows) {
      counters.reset(new Progress[std::size_t(rows)]);
      capacity = rows;
    }
    Progress *const progress = counters.get();
    for (int i = 0; i < rows; ++i) progress[i].done.store(0, std::memory_order_relaxed);
    std::atomic<int> next{0};
#pragma omp parallel num_threads(thread_count(threads, pixels, std::size_t(rows)))
    {
      for (int t; (t = next.fetch_add(1, std::memory_order_relaxed)) < rows;) {
        std::size_t i = 0;
        while (i + 1 < planes.size() && planes[i + 1].first_row <= t) ++i;
        const hr::PlaneRef p = plane_ref(planes[i]);
        const hr::PixelRules r = hr::pixel_rules(s, planes[i].c);
        const int y = t - planes[i].first_row;
        for (int s0 = 0; s0 < p.width; s0 += kChunk) {
          const int s1 = std::min(p.width, s0 + kChunk);
          if (y > 0) wait_for(progress[t - 1].done, std::min(p.width, s1 + kReach));
          hr::diffuse_span<M, Multi, Stochastic>(p, r, false, y, s0, s1);
          progress[t].done.store(s1, std::memory_order_release);
        }
      }
    }
  });
}

}  // namespace cf::omp
