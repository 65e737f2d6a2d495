// CUDA kernels of the Hough stages (internal to kernels/). The rules are
// core/shared/hough_rules.hpp's; these kernels only schedule them:
//   gradient:   a block per 32 x 8 tile, luma of the tile plus a one-pixel
//               halo in shared memory (clamped coordinates = replicated
//               borders); Sobel writes the edge map, Canny the packed
//               magnitude | sector << 12.
//   classify:   Canny non-maximum suppression, a thread per pixel.
//   hysteresis: a block per 64 x 16 tile propagates "strong" through weak
//               pixels inside the tile (plus a one-pixel halo) until nothing
//               changes, then writes back and raises a flag; the host
//               relaunches until a launch changes nothing. Only weak -> strong
//               ever happens, so the fixpoint is the connectivity definition
//               whatever the order of blocks and threads.
//   compact:    edge pixels into a list (y << 16 | x), one global atomic per
//               block (its count), order irrelevant: votes are sums.
//   vote:       a block per (angle, chunk of the list) accumulates a rho
//               histogram in shared memory and writes it (one chunk) or adds
//               its non-zero bins (several chunks); vote_atomic is the plain
//               global-atomics baseline, for comparison, reading the angle
//               table from global memory or from constant memory
//               (trig_constant).
//   stats, threshold, peaks: integer reductions, the automatic threshold in
//               one thread, and a thread per cell testing is_peak and
//               appending (votes << 32 | cell) to a list the host sorts.
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"
#include "core/shared/hough_rules.hpp"

namespace cf::cuda::hough_k {

using std::uint32_t;
using std::uint64_t;
using std::uint8_t;

// Global memory access, checked against the device allocations under the
// CPU emulation (tests/cuda/emulation).
template <class T>
CF_HD T &dev(T *p, long long i) {
#ifdef CF_CUDA_EMULATION
  cf_emulate_check_access(p + i, sizeof(T));
#endif
  return p[i];
}

// Under the CPU emulation, a check of an invariant (a bin inside its row).
#ifdef CF_CUDA_EMULATION
#define CF_HOUGH_EMU_CHECK(cond) cf_emulate_check((cond), #cond, __FILE__, __LINE__)
#else
#define CF_HOUGH_EMU_CHECK(cond) ((void)0)
#endif

constexpr int kTileW = 32, kTileH = 8, kTileThreads = kTileW * kTileH;
constexpr int kHystW = 64, kHystH = 16, kHystThreads = 256;
constexpr int kThreads = 256;

// Counters and results of one detection, in device memory.
struct Counters {
  uint32_t points, peaks, threshold, changed;
  uint32_t max, pad[3];
  unsigned long long n, sum, squares;
};

// Up to three 8-bit components (R, G, B, or luma in the first).
struct LumaRef {
  const unsigned char *base[3];
  long long stride[3];
  int step[3];
  bool rgb;
};

CF_HD int luma_at(const LumaRef &l, int x, int y) {
  auto s = [&](int c) { return int(dev(l.base[c], y * l.stride[c] + (long long)x * l.step[c])); };
  return l.rgb ? hough::luma_rgb(s(0), s(1), s(2)) : s(0);
}

struct GradientParams {
  LumaRef luma;
  int width, height, tiles_x;
  int threshold;          // Sobel
  uint8_t *edges;         // Sobel output
  std::uint16_t *packed;  // Canny output
};

template <bool kCanny>
__global__ void __launch_bounds__(kTileThreads) gradient(const GradientParams p) {
  __shared__ int tile[kTileH + 2][kTileW + 2];
  const int x0 = int(blockIdx.x % unsigned(p.tiles_x)) * kTileW, y0 = int(blockIdx.x / unsigned(p.tiles_x)) * kTileH;
  const int tid = int(threadIdx.x);
  for (int i = tid; i < (kTileW + 2) * (kTileH + 2); i += kTileThreads) {
    const int lx = i % (kTileW + 2), ly = i / (kTileW + 2);
    tile[ly][lx] = luma_at(p.luma, hough::clamp_index(x0 - 1 + lx, p.width), hough::clamp_index(y0 - 1 + ly, p.height));
  }
  __syncthreads();
  const int tx = tid % kTileW, ty = tid / kTileW, x = x0 + tx, y = y0 + ty;
  if (x >= p.width || y >= p.height) return;
  int n[9];
  for (int dy = 0; dy < 3; ++dy)
    for (int dx = 0; dx < 3; ++dx) n[dy * 3 + dx] = tile[ty + dy][tx + dx];
  int gx, gy;
  hough::sobel(n, gx, gy);
  const long long i = (long long)y * p.width + x;
  if (kCanny)
    dev(p.packed, i) = std::uint16_t(hough::magnitude(gx, gy) | hough::canny_sector(gx, gy) << 12);
  else
    dev(p.edges, i) = hough::magnitude(gx, gy) >= p.threshold ? hough::kEdge : 0;
}

// edge=input: the luma is the edge map.
__global__ void __launch_bounds__(kThreads) binarize(const GradientParams p) {
  const long long i = (long long)blockIdx.x * kThreads + threadIdx.x;
  if (i >= (long long)p.width * p.height) return;
  dev(p.edges, i) = luma_at(p.luma, int(i % p.width), int(i / p.width)) ? hough::kEdge : 0;
}

struct ClassifyParams {
  const std::uint16_t *packed;
  uint8_t *cls;
  int width, height, low, high;
};

__global__ void __launch_bounds__(kThreads) classify(const ClassifyParams p) {
  const long long i = (long long)blockIdx.x * kThreads + threadIdx.x;
  if (i >= (long long)p.width * p.height) return;
  const int x = int(i % p.width), y = int(i / p.width);
  auto mag = [&](int xx, int yy) {
    return xx < 0 || xx >= p.width || yy < 0 || yy >= p.height ? 0
                                                               : dev(p.packed, (long long)yy * p.width + xx) & 0xfff;
  };
  const int v = dev(p.packed, i);
  int dx, dy;
  hough::sector_offset(v >> 12, dx, dy);
  dev(p.cls, i) = hough::canny_class(v & 0xfff, mag(x + dx, y + dy), mag(x - dx, y - dy), p.low, p.high);
}

struct HysteresisParams {
  uint8_t *cls;
  Counters *counters;
  int width, height, tiles_x;
};

__global__ void __launch_bounds__(kHystThreads) hysteresis(const HysteresisParams p) {
  constexpr int kW = kHystW + 2, kH = kHystH + 2, kPer = kHystW * kHystH / kHystThreads;
  __shared__ uint8_t tile[kH][kW];
  const int x0 = int(blockIdx.x % unsigned(p.tiles_x)) * kHystW, y0 = int(blockIdx.x / unsigned(p.tiles_x)) * kHystH;
  const int tid = int(threadIdx.x);
  for (int i = tid; i < kW * kH; i += kHystThreads) {
    const int x = x0 - 1 + i % kW, y = y0 - 1 + i / kW;
    tile[i / kW][i % kW] = x < 0 || x >= p.width || y < 0 || y >= p.height
                               ? 0
                               : *static_cast<volatile uint8_t *>(&dev(p.cls, (long long)y * p.width + x));
  }
  __syncthreads();
  // Pixel j of this thread: tile column tid % 64, row tid / 64 + 4 j.
  bool grew = false;
  for (;;) {
    bool flip[kPer];
    int changed = 0;
    for (int j = 0; j < kPer; ++j) {
      const int tx = 1 + tid % kHystW, ty = 1 + tid / kHystW + j * (kHystThreads / kHystW);
      flip[j] = false;
      if (tile[ty][tx] != hough::kWeak) continue;
      for (int dy = -1; dy <= 1 && !flip[j]; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
          if (tile[ty + dy][tx + dx] == hough::kStrong) flip[j] = true;
      changed |= flip[j];
    }
    __syncthreads();  // every read of this round before any write
    for (int j = 0; j < kPer; ++j)
      if (flip[j]) tile[1 + tid / kHystW + j * (kHystThreads / kHystW)][1 + tid % kHystW] = hough::kStrong;
    grew |= changed != 0;
    if (!__syncthreads_or(changed)) break;
  }
  bool wrote = false;
  if (grew)
    for (int j = 0; j < kPer; ++j) {
      const int tx = tid % kHystW, ty = tid / kHystW + j * (kHystThreads / kHystW), x = x0 + tx, y = y0 + ty;
      if (x >= p.width || y >= p.height || tile[ty + 1][tx + 1] != hough::kStrong) continue;
      uint8_t &c = dev(p.cls, (long long)y * p.width + x);
      if (c != hough::kStrong) {
        c = hough::kStrong;
        wrote = true;
      }
    }
  if (wrote) dev(&p.counters->changed, 0) = 1;
}

struct FinishParams {
  const uint8_t *cls;
  uint8_t *edges;
  long long pixels;
};

__global__ void __launch_bounds__(kThreads) canny_finish(const FinishParams p) {
  const long long i = (long long)blockIdx.x * kThreads + threadIdx.x;
  if (i < p.pixels) dev(p.edges, i) = dev(p.cls, i) == hough::kStrong ? hough::kEdge : 0;
}

struct CompactParams {
  const uint8_t *edges;
  uint32_t *points;
  Counters *counters;
  int width;
  long long pixels;
};

__global__ void __launch_bounds__(kThreads) compact(const CompactParams p) {
  __shared__ uint32_t count, base;
  const long long i = (long long)blockIdx.x * kThreads + threadIdx.x;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  const bool edge = i < p.pixels && dev(p.edges, i) != 0;
  const uint32_t local = edge ? atomicAdd(&count, 1u) : 0;
  __syncthreads();
  if (threadIdx.x == 0 && count) base = atomicAdd(&dev(&p.counters->points, 0), count);
  __syncthreads();
  if (edge) dev(p.points, base + local) = uint32_t(i / p.width) << 16 | uint32_t(i % p.width);
}

struct VoteParams {
  const uint32_t *points;
  const Counters *counters;
  const std::int32_t *trig;
  uint32_t *acc;
  int theta_bins, rho_bins, rho_step, rho_offset, chunks;
};

// Dynamic shared memory: rho_bins counters.
__global__ void __launch_bounds__(kThreads) vote_shared(const VoteParams p) {
#ifdef CF_CUDA_EMULATION
  uint32_t *hist = static_cast<uint32_t *>(cf_emulate_dynamic_shared(sizeof(uint32_t) * p.rho_bins));
#else
  extern __shared__ uint32_t hist[];
#endif
  const int t = int(blockIdx.x) / p.chunks, chunk = int(blockIdx.x) % p.chunks;
  const long long n = dev(&p.counters->points, 0);
  const long long begin = n * chunk / p.chunks, end = n * (chunk + 1) / p.chunks;
  for (int r = int(threadIdx.x); r < p.rho_bins; r += kThreads) hist[r] = 0;
  __syncthreads();
  const int c = dev(p.trig, 2 * t), s = dev(p.trig, 2 * t + 1);
  for (long long i = begin + threadIdx.x; i < end; i += kThreads) {
    const uint32_t q = dev(p.points, i);
    const int r = hough::rho_bin(int(q & 0xffff), int(q >> 16), c, s, p.rho_step, p.rho_offset);
    CF_HOUGH_EMU_CHECK(r >= 0 && r < p.rho_bins);
    atomicAdd(&hist[r], 1u);
  }
  __syncthreads();
  uint32_t *row = p.acc + (long long)t * p.rho_bins;
  for (int r = int(threadIdx.x); r < p.rho_bins; r += kThreads) {
    if (p.chunks == 1)
      dev(row, r) = hist[r];
    else if (hist[r])
      atomicAdd(&dev(row, r), hist[r]);
  }
}

// The angle table in constant memory (CF_HOUGH_VOTING=constant): room for
// the largest theta_bins, so no size falls back to the global table. Every
// thread of a warp reads the same angle at the same time, which the constant
// cache serves as one broadcast. One copy per CUDA context (the host side
// in hough_cuda.cu orders its uploads). The CPU emulation has no constant
// memory: a plain array there, filled by memcpy.
constexpr int kConstantTrigWords = 2 * kHoughMaxThetaBins;
static_assert(sizeof(std::int32_t) * kConstantTrigWords <= 64 * 1024, "the constant bank holds 64 KiB");
#ifdef CF_CUDA_EMULATION
inline std::int32_t trig_constant[kConstantTrigWords];
#else
__constant__ std::int32_t trig_constant[kConstantTrigWords];
#endif

enum class TrigIn { Global, Constant };

// The baseline: a thread per edge pixel, every angle, global atomics; the
// angle table read from p.trig (global memory) or trig_constant.
template <TrigIn kTrig>
__global__ void __launch_bounds__(kThreads) vote_atomic(const VoteParams p) {
  const long long i = (long long)blockIdx.x * kThreads + threadIdx.x;
  if (i >= dev(&p.counters->points, 0)) return;
  const uint32_t q = dev(p.points, i);
  const int x = int(q & 0xffff), y = int(q >> 16);
  for (int t = 0; t < p.theta_bins; ++t) {
    const int c = kTrig == TrigIn::Constant ? trig_constant[2 * t] : dev(p.trig, 2 * t);
    const int s = kTrig == TrigIn::Constant ? trig_constant[2 * t + 1] : dev(p.trig, 2 * t + 1);
    const int r = hough::rho_bin(x, y, c, s, p.rho_step, p.rho_offset);
    CF_HOUGH_EMU_CHECK(r >= 0 && r < p.rho_bins);
    atomicAdd(&dev(p.acc, (long long)t * p.rho_bins + r), 1u);
  }
}

struct FillParams {
  uint32_t *words;
  long long count;
  int blocks;
};

__global__ void __launch_bounds__(kThreads) zero_words(const FillParams p) {
  for (long long i = (long long)blockIdx.x * kThreads + threadIdx.x; i < p.count; i += (long long)p.blocks * kThreads)
    dev(p.words, i) = 0;
}

struct StatsParams {
  const uint32_t *acc;
  Counters *counters;
  long long cells;
  int blocks;
};

__global__ void __launch_bounds__(kThreads) stats(const StatsParams p) {
  __shared__ unsigned long long n, sum, squares;
  __shared__ uint32_t max;
  if (threadIdx.x == 0) n = sum = squares = max = 0;
  __syncthreads();
  unsigned long long mn = 0, ms = 0, mq = 0;
  uint32_t mm = 0;
  for (long long i = (long long)blockIdx.x * kThreads + threadIdx.x; i < p.cells; i += (long long)p.blocks * kThreads)
    if (const uint32_t v = dev(p.acc, i)) {
      ++mn;
      ms += v;
      mq += (unsigned long long)v * v;
      mm = v > mm ? v : mm;
    }
  if (mn) {
    atomicAdd(&n, mn);
    atomicAdd(&sum, ms);
    atomicAdd(&squares, mq);
    atomicMax(&max, mm);
  }
  __syncthreads();
  if (threadIdx.x == 0 && n) {
    atomicAdd(&dev(&p.counters->n, 0), n);
    atomicAdd(&dev(&p.counters->sum, 0), sum);
    atomicAdd(&dev(&p.counters->squares, 0), squares);
    atomicMax(&dev(&p.counters->max, 0), max);
  }
}

struct ThresholdParams {
  Counters *counters;
  uint32_t fixed;  // 0: automatic
  int k_q8;
};

__global__ void threshold(const ThresholdParams p) {
  if (threadIdx.x != 0) return;
  Counters &c = dev(p.counters, 0);
  c.threshold = p.fixed ? p.fixed : hough::auto_threshold(c.n, c.sum, c.squares, c.max, p.k_q8);
}

struct PeakParams {
  const uint32_t *acc;
  Counters *counters;
  unsigned long long *peaks;  // votes << 32 | cell
  int theta_bins, rho_bins, radius;
};

__global__ void __launch_bounds__(kThreads) peaks(const PeakParams p) {
  const long long i = (long long)blockIdx.x * kThreads + threadIdx.x;
  if (i >= (long long)p.theta_bins * p.rho_bins) return;
  const int t = int(i / p.rho_bins), r = int(i % p.rho_bins);
#ifdef CF_CUDA_EMULATION
  // is_peak reads the window; check it lies in the accumulator.
  for (int dr = -p.radius; dr <= p.radius; ++dr)
    if (r + dr >= 0 && r + dr < p.rho_bins) (void)dev(p.acc, (long long)t * p.rho_bins + r + dr);
#endif
  if (!hough::is_peak(p.acc, p.theta_bins, p.rho_bins, t, r, p.radius, dev(&p.counters->threshold, 0))) return;
  const uint32_t k = atomicAdd(&dev(&p.counters->peaks, 0), 1u);
  dev(p.peaks, k) = (unsigned long long)dev(p.acc, i) << 32 | (unsigned long long)i;
}

}  // namespace cf::cuda::hough_k
