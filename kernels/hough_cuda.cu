// CUDA backend of Hough line detection: stages the frame, runs the kernels of
// hough_kernels.cuh on the engine's stream, and downloads the counters, the
// peaks (the host sorts them: the list is small) and, when asked, the edge
// map and the accumulator. One wait at the end of the call; Canny's
// hysteresis adds one small flag download per relaunch (usually a few).
//
// Voting strategy (measured in pipelines/results/h100-hough-compare.md): shared-memory rho
// histograms per (angle, chunk of the edge list) by default;
// CF_HOUGH_VOTING=global selects the global-atomics baseline, constant the
// same baseline reading the angle table from constant memory (the whole
// theta_bins range fits: no fallback), shared:N forces N chunks per angle
// (for measurements and tests). Every strategy gives the same accumulator:
// the same integer table and rule, and sums do not depend on order.
//
// With CF_CUDA_EMULATION defined this file compiles as C++ for the CPU
// emulation in tests/cuda/emulation.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/hough_cuda.hpp"
#include "kernels/hough_kernels.cuh"
#include "kernels/launch.cuh"

namespace cf::cuda {

namespace {

using detail::CudaState;
using detail::Slot;
using namespace hough_k;

long long blocks_for(long long n, int per_block) { return (n + per_block - 1) / per_block; }

struct DeviceLimits {
  int sms = 4;
  std::size_t shared = 48 * 1024;  // dynamic shared memory a block may have
};

DeviceLimits device_limits(const CudaState *s) {
  DeviceLimits d;
#ifndef CF_CUDA_EMULATION
  int v = 0;
  if (cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, s->device) == cudaSuccess) d.sms = v;
  if (cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, s->device) == cudaSuccess)
    d.shared = std::size_t(v);
  cudaGetLastError();
#else
  (void)s;
#endif
  return d;
}

enum class VoteIn { Shared, Global, Constant };

struct Voting {
  VoteIn in = VoteIn::Shared;
  int chunks = 0;  // shared: 0 = chosen from the device
};

// CF_HOUGH_VOTING: unset or empty (shared, automatic chunks), "shared",
// "shared:N", "global" or "constant"; anything else is refused, so that a
// measurement never runs another strategy than the one it names.
Voting voting_strategy() {
  Voting v;
  const char *e = std::getenv("CF_HOUGH_VOTING");
  if (!e || !*e || std::strcmp(e, "shared") == 0) return v;
  if (std::strcmp(e, "global") == 0) {
    v.in = VoteIn::Global;
  } else if (std::strcmp(e, "constant") == 0) {
    v.in = VoteIn::Constant;
  } else if (std::strncmp(e, "shared:", 7) == 0 && std::atoi(e + 7) >= 1) {
    v.chunks = std::atoi(e + 7);
  } else {
    throw Error(std::string("CF_HOUGH_VOTING=") + e +
                " is not a voting strategy: global, constant, shared or shared:N");
  }
  return v;
}

// The constant-memory angle table is one per CUDA context, shared by every
// engine of the context. Each detection uploads it on its own stream, ahead
// of its voting kernel: rewriting the same theta_bins' table changes no
// word, so a kernel of another engine reading it is not disturbed. A
// different theta_bins first waits for the context's queued work (no voting
// kernel is still reading the old table). The returned lock is held until
// the voting kernel is queued, so that such a wait sees it.
std::unique_lock<std::mutex> upload_constant_trig(CudaState *s, const std::int32_t *trig, int theta_bins) {
  static std::mutex mutex;
  static std::map<CUcontext, int> held;  // theta_bins of each context's table
  std::unique_lock<std::mutex> lock(mutex);
  int &bins = held[s->context];
  if (bins != 0 && bins != theta_bins)
    detail::check(cudaDeviceSynchronize(), "waiting for voting kernels before replacing the constant angle table");
  const std::size_t bytes = sizeof(std::int32_t) * 2 * std::size_t(theta_bins);
#ifdef CF_CUDA_EMULATION
  std::memcpy(trig_constant, trig, bytes);  // the emulation runs every copy and kernel in call order
#else
  detail::check(cudaMemcpyToSymbolAsync(trig_constant, trig, bytes, 0, cudaMemcpyHostToDevice, s->stream),
                "uploading the Hough angle table to constant memory");
#endif
  bins = theta_bins;
  return lock;
}

// Enough (angle, chunk) blocks to fill every SM a few times over.
int auto_chunks(const DeviceLimits &d, int theta_bins, long long pixels) {
  const long long wanted = (4LL * d.sms + theta_bins - 1) / theta_bins;
  const long long useful = std::max(1LL, pixels / (256 * 1024));  // chunks of a few thousand edge pixels at 5%
  return int(std::clamp(std::min(wanted, useful), 1LL, 16LL));
}

// Offsets of the buffers of one detection in the engine's scratch slot.
struct ScratchLayout {
  std::size_t edges, packed, cls, points, acc, peaks, counters, trig, total;
};
ScratchLayout scratch_layout(const HoughGeometry &g, bool canny) {
  const std::size_t pixels = std::size_t(g.width) * g.height;
  ScratchLayout l{};
  std::size_t at = 0;
  auto take = [&](std::size_t bytes) {
    const std::size_t here = at;
    at += detail::align_up(bytes);
    return here;
  };
  l.counters = take(sizeof(Counters));
  l.trig = take(sizeof(std::int32_t) * 2 * g.theta_bins);
  l.edges = take(pixels);
  l.packed = take(canny ? pixels * 2 : 0);
  l.cls = take(canny ? pixels : 0);
  l.points = take(pixels * 4);
  l.acc = take(g.cells() * 4);
  l.peaks = take(g.cells() * 8);
  l.total = at;
  return l;
}

LumaRef luma_ref(const FrameView &f, LumaSource luma) {
  LumaRef l{};
  l.rgb = luma == LumaSource::Rgb;
  for (int c = 0; c < (l.rgb ? 3 : 1); ++c) {
    const Component &k = f.components[c];
    l.base[c] = static_cast<const unsigned char *>(f.planes[k.plane].data) + k.offset;
    l.stride[c] = f.planes[k.plane].stride;
    l.step[c] = k.pixel_stride;
  }
  return l;
}

void zero(CudaState *s, std::uint32_t *words, long long count) {
  const int blocks = int(std::min<long long>(blocks_for(count, kThreads), 1024));
  launch_kernel(s, zero_words, blocks, kThreads, FillParams{words, count, blocks}, "the Hough zeroing kernel");
}

// Peaks buffered per frame before a second download is needed.
constexpr std::size_t kPeakCap = 4096;

}  // namespace

void hough_detect(detail::CudaState *s, const HoughParams &p, const HoughGeometry &g, const std::int32_t *trig,
                  const FrameView &src, LumaSource luma, unsigned want, HoughResult &out,
                  std::vector<HoughPeak> &peaks) {
  detail::DeviceScope scope(s);
  const FrameView in = detail::stage_source(s, src, Slot::Source);
  const bool canny = p.edge == EdgeDetector::Canny;
  const long long pixels = (long long)g.width * g.height, cells = (long long)g.cells();
  const ScratchLayout l = scratch_layout(g, canny);
  auto *base = static_cast<unsigned char *>(s->reserve(Slot::Scratch, l.total));
  auto *counters = reinterpret_cast<Counters *>(base + l.counters);
  auto *trig_d = reinterpret_cast<std::int32_t *>(base + l.trig);
  auto *edges = base + l.edges;
  auto *packed = reinterpret_cast<std::uint16_t *>(base + l.packed);
  auto *cls = base + l.cls;
  auto *points = reinterpret_cast<std::uint32_t *>(base + l.points);
  auto *acc = reinterpret_cast<std::uint32_t *>(base + l.acc);
  auto *peak_list = reinterpret_cast<unsigned long long *>(base + l.peaks);
  const DeviceLimits limits = device_limits(s);

  Voting v = voting_strategy();
  const std::size_t hist_bytes = sizeof(std::uint32_t) * std::size_t(g.rho_bins);
  // A rho row larger than shared memory: global atomics.
  if (v.in == VoteIn::Shared && hist_bytes > limits.shared) v.in = VoteIn::Global;

  zero(s, reinterpret_cast<std::uint32_t *>(counters), sizeof(Counters) / 4);
  if (v.in != VoteIn::Constant)
    detail::check(
        cudaMemcpyAsync(trig_d, trig, sizeof(std::int32_t) * 2 * g.theta_bins, cudaMemcpyHostToDevice, s->stream),
        "uploading the Hough angle table");

  // Edges.
  const int tiles_x = int(blocks_for(g.width, kTileW));
  const GradientParams gp{luma_ref(in, luma), g.width, g.height, tiles_x, p.edge_threshold, edges, packed};
  const long long tiles = tiles_x * blocks_for(g.height, kTileH);
  if (p.edge == EdgeDetector::Input) {
    launch_kernel(s, binarize, blocks_for(pixels, kThreads), kThreads, gp, "the edge-map kernel");
  } else if (!canny) {
    launch_kernel(s, gradient<false>, tiles, kTileThreads, gp, "the Sobel kernel");
  } else {
    launch_kernel(s, gradient<true>, tiles, kTileThreads, gp, "the Canny gradient kernel");
    launch_kernel(s, classify, blocks_for(pixels, kThreads), kThreads,
                  ClassifyParams{packed, cls, g.width, g.height, p.canny_low, p.canny_high},
                  "the Canny suppression kernel");
    const int hx = int(blocks_for(g.width, kHystW));
    const HysteresisParams hp{cls, counters, g.width, g.height, hx};
    for (;;) {
      zero(s, &counters->changed, 1);
      launch_kernel(s, hysteresis, hx * blocks_for(g.height, kHystH), kHystThreads, hp, "the Canny hysteresis kernel");
      std::uint32_t changed = 0;
      detail::check(cudaMemcpyAsync(&changed, &counters->changed, 4, cudaMemcpyDeviceToHost, s->stream),
                    "reading the hysteresis flag");
      detail::check(cudaStreamSynchronize(s->stream), "running the Canny hysteresis");
      if (!changed) break;
    }
    launch_kernel(s, canny_finish, blocks_for(pixels, kThreads), kThreads, FinishParams{cls, edges, pixels},
                  "the Canny edge kernel");
  }
  launch_kernel(s, compact, blocks_for(pixels, kThreads), kThreads,
                CompactParams{edges, points, counters, g.width, pixels}, "the edge compaction kernel");

  // Votes.
  VoteParams vp{points, counters, trig_d, acc, g.theta_bins, g.rho_bins, g.rho_step, g.rho_offset, 1};
  if (v.in == VoteIn::Global) {
    zero(s, acc, cells);
    launch_kernel(s, vote_atomic<TrigIn::Global>, blocks_for(pixels, kThreads), kThreads, vp,
                  "the global-atomics voting kernel");
  } else if (v.in == VoteIn::Constant) {
    zero(s, acc, cells);
    vp.trig = nullptr;  // read from trig_constant
    const std::unique_lock<std::mutex> table = upload_constant_trig(s, trig, g.theta_bins);
    launch_kernel(s, vote_atomic<TrigIn::Constant>, blocks_for(pixels, kThreads), kThreads, vp,
                  "the constant-table voting kernel");
  } else {
    vp.chunks = v.chunks ? v.chunks : auto_chunks(limits, g.theta_bins, pixels);
    if (vp.chunks > 1) zero(s, acc, cells);
#ifndef CF_CUDA_EMULATION
    if (hist_bytes > 48 * 1024)
      detail::check(cudaFuncSetAttribute(vote_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, int(hist_bytes)),
                    "allowing the voting kernel its shared memory");
#endif
    launch_kernel(s, vote_shared, (long long)g.theta_bins * vp.chunks, kThreads, vp, "the voting kernel", hist_bytes);
  }

  // Threshold and peaks.
  const int stat_blocks = int(std::min<long long>(blocks_for(cells, kThreads), 4LL * limits.sms));
  launch_kernel(s, stats, stat_blocks, kThreads, StatsParams{acc, counters, cells, stat_blocks},
                "the statistics kernel");
  launch_kernel(s, threshold, 1, 32, ThresholdParams{counters, std::uint32_t(p.threshold), p.k_q8},
                "the threshold kernel");
  launch_kernel(s, hough_k::peaks, blocks_for(cells, kThreads), kThreads,
                PeakParams{acc, counters, peak_list, g.theta_bins, g.rho_bins, p.nms_window / 2}, "the peak kernel");

  // Results.
  Counters host{};
  thread_local std::vector<unsigned long long> found;
  found.resize(std::min<std::size_t>(kPeakCap, std::size_t(cells)));
  auto download = [&](void *dst, const void *from, std::size_t bytes, const char *what) {
    detail::check(cudaMemcpyAsync(dst, from, bytes, cudaMemcpyDeviceToHost, s->stream), what);
  };
  download(&host, counters, sizeof host, "downloading the Hough counters");
  download(found.data(), peak_list, found.size() * 8, "downloading the Hough peaks");
  if (want & kHoughWantEdges) {
    out.edges.resize(std::size_t(pixels));
    download(out.edges.data(), edges, out.edges.size(), "downloading the edge map");
  }
  if (want & kHoughWantAccumulator) {
    out.accumulator.resize(std::size_t(cells));
    download(out.accumulator.data(), acc, out.accumulator.size() * 4, "downloading the accumulator");
  }
  detail::check(cudaStreamSynchronize(s->stream), "running Hough line detection on the CUDA stream");
  if (host.peaks > found.size()) {
    found.resize(host.peaks);
    download(found.data() + kPeakCap, peak_list + kPeakCap, (host.peaks - kPeakCap) * 8, "downloading the Hough peaks");
    detail::check(cudaStreamSynchronize(s->stream), "downloading the Hough peaks");
  }
  out.threshold = host.threshold;
  out.edge_pixels = host.points;
  peaks.resize(host.peaks);
  for (std::uint32_t i = 0; i < host.peaks; ++i) {
    const std::uint32_t cell = std::uint32_t(found[i]);
    peaks[i] = {std::uint32_t(found[i] >> 32), int(cell / std::uint32_t(g.rho_bins)),
                int(cell % std::uint32_t(g.rho_bins))};
  }
}

}  // namespace cf::cuda
