// CUDA kernels of error-diffusion halftoning (internal to kernels/). The
// per-pixel arithmetic is core/shared/halftone_rules.hpp's, compiled for the device;
// these kernels only schedule it, keeping every dependency of the serial scan.
//
// Raster scan: wavefront_kernel. A warp owns a band of 32 rows of one plane,
// lane i row 32b + i, and the lanes step in lockstep (a __syncwarp per step):
// at step t lane i diffuses pixel x = t - i*L - 1, L = reach_x + 2 columns
// behind the lane above, then gathers the rows-above part of the sum of
// pixel x + 1 (prefetched one step ahead, so only the same-row taps stay on
// the per-pixel chain). Every source a pixel needs was written at least one
// step earlier (the lane above wrote column x + 1 + reach_x at step t - 1),
// so a step reads only values published before the last __syncwarp.
// Errors live in a shared-memory ring per warp: 3 + 32 rows of kRing columns
// (rows -3..-1 are the previous band's last rows), indexed by column mod kRing.
//
// Between bands: the last lane writes, for each column it finishes, one
// 64-bit word (errors of rows 29, 30, 31 and a valid bit) to the band's
// boundary row in global memory; the next band polls these words (volatile
// loads, __nanosleep while a word is not yet valid), a chunk of kChunk
// columns at a time, loaded two chunks ahead. Data and flag share a word,
// so no fence is needed. Bands are taken in order from an atomic ticket: a
// warp only waits on the band before its own, whose ticket was taken by a
// warp already running, so the wait always ends (no deadlock, whatever the
// number of resident warps).
//
// Serpentine: each plane is one sequential chain (see cudafilters/halftone.hpp);
// serpentine_kernel runs cpu's diffuse_span on one thread per plane.
#pragma once

#include <cstdint>

#include "core/shared/halftone_rules.hpp"
#include "kernels/unroll.cuh"

namespace cf::cuda::halftone_gpu {

namespace hr = cf::halftone_rules;

constexpr int kWarp = 32;
constexpr int kChunk = 16;  // steps per chunk: input prefetch and boundary batches
constexpr int kRing = 64;   // columns of the error ring (a power of two)
constexpr int kTop = 3;     // rows above a band the ring keeps (largest reach_y)
constexpr int kWarpsPerBlock = 4;
constexpr int kThreads = kWarp * kWarpsPerBlock;
constexpr unsigned long long kValid = 1ULL << 63;

struct GpuPlane {
  const unsigned char *src;
  unsigned char *dst;
  long long src_stride, dst_stride;  // bytes
  int src_step, dst_step;            // bytes from pixel to pixel
  int width, height;
  int first_band;  // global index of the plane's first band
  int component;
  unsigned long long key;  // stochastic key of the plane
};

struct WavefrontParams {
  GpuPlane plane[kMaxPlanes];
  int n_planes, bands;
  int threshold, scale;
  unsigned *ticket;              // zeroed before the launch
  unsigned long long *boundary;  // bands x pitch words, zeroed before the launch
  long long pitch;               // words per band (the widest plane)
  unsigned char table[256];
};

template <class T>
__device__ __forceinline__ T *checked(T *p) {
#ifdef CF_CUDA_EMULATION
  cf_emulate_check_access(p, sizeof(T));  // tests/cuda/emulation: inside a device allocation?
#endif
  return p;
}

__device__ __forceinline__ unsigned long long load_volatile(const unsigned long long *p) {
  return *static_cast<const volatile unsigned long long *>(checked(p));
}

template <HalftoneMethod M, bool Multi, bool Stochastic>
__global__ void __launch_bounds__(kThreads) wavefront_kernel(const WavefrontParams P) {
  constexpr hr::Kernel K = hr::kernel_of(M);
  constexpr int L = K.reach_x + 2;  // lag between rows, in columns
  static_assert(K.reach_y <= kTop, "the ring keeps kTop rows above a band");
  static_assert(2 * kChunk + 3 * L + K.reach_x + 2 <= kRing, "the ring holds every column still read");
  constexpr unsigned kAll = 0xffffffffu;

  __shared__ short ring_all[kWarpsPerBlock][kTop + kWarp][kRing];
  __shared__ unsigned char table[256];
  for (int i = threadIdx.x; i < 256; i += kThreads) table[i] = P.table[i];
  __syncthreads();

  const int lane = threadIdx.x % kWarp;
  short(*ring)[kRing] = ring_all[threadIdx.x / kWarp];
  short *own = ring[kTop + lane];

  for (;;) {
    unsigned ticket = 0;
    if (lane == 0) ticket = atomicAdd(checked(P.ticket), 1u);
    const int band = int(__shfl_sync(kAll, ticket, 0));
    if (band >= P.bands) break;
    int pi = 0;
    while (pi + 1 < P.n_planes && P.plane[pi + 1].first_band <= band) ++pi;
    const GpuPlane &pl = P.plane[pi];
    const int b = band - pl.first_band, W = pl.width;
    const int y = b * kWarp + lane;
    const bool valid = y < pl.height;
    const bool has_above = b > 0, has_below = (b + 1) * kWarp < pl.height;
    const unsigned long long *above = P.boundary + (band - 1) * P.pitch;
    unsigned long long *below = P.boundary + band * P.pitch;
    const hr::PixelRules rules{P.threshold, P.scale, pl.key, table};
    const unsigned char *src_row = pl.src + y * pl.src_stride;
    unsigned char *dst_row = pl.dst + y * pl.dst_stride;

    for (int i = lane; i < kTop * kRing; i += kWarp) ring[i / kRing][i % kRing] = 0;  // rows above the image: 0
    __syncwarp();

    // The previous band's rows 29..31 at columns [m*kChunk, (m+1)*kChunk):
    // lane j < kChunk loads column m*kChunk + j; commit waits until every
    // needed word is valid and stores them into ring rows 0..2.
    auto load_batch = [&](int m) -> unsigned long long {
      const int col = m * kChunk + lane;
      return has_above && lane < kChunk && col < W ? load_volatile(above + col) : kValid;
    };
    auto commit_batch = [&](int m, unsigned long long w) {
      const int col = m * kChunk + lane;
      while (!__all_sync(kAll, (w & kValid) != 0)) {
        if (!(w & kValid)) {
          __nanosleep(100);
          w = load_volatile(above + col);
        }
      }
      if (has_above && lane < kChunk && col < W) {
        ring[0][col % kRing] = short(w >> 32);
        ring[1][col % kRing] = short(w >> 16);
        ring[2][col % kRing] = short(w);
      }
      __syncwarp();
    };
    auto load_input = [&](int x) -> int {
      return valid && x >= 0 && x < W ? *checked(src_row + (long long)x * pl.src_step) : 0;
    };

    commit_batch(0, load_batch(0));
    commit_batch(1, load_batch(1));

    int cur[kChunk], next[kChunk];
    CF_UNROLL
    for (int j = 0; j < kChunk; ++j) cur[j] = load_input(j - lane * L - 1);

    int e1 = 0, e2 = 0;  // e' of the pixels one and two before, in this row
    int above_sum = 0;   // rows-above part of the sum of the next pixel
    const int steps = W + (kWarp - 1) * L + 1;
    for (int t0 = 0; t0 < steps; t0 += kChunk) {
      const int n = t0 / kChunk;
      const unsigned long long batch = load_batch(n + 2);
      CF_UNROLL
      for (int j = 0; j < kChunk; ++j) next[j] = load_input(t0 + kChunk + j - lane * L - 1);

      CF_UNROLL
      for (int j = 0; j < kChunk; ++j) {
        const int x = t0 + j - lane * L - 1;
        if (valid && x >= 0 && x < W) {
          int sum = above_sum;
          CF_UNROLL
          for (int i = 0; i < K.n; ++i)
            if (K.taps[i].dy == 0 && x - K.taps[i].dx >= 0) sum += K.taps[i].w * (K.taps[i].dx == 1 ? e1 : e2);
          int q;
          const int e = hr::diffuse<Multi, Stochastic>(cur[j], sum, K.divisor, rules, x, y, &q);
          *checked(dst_row + (long long)x * pl.dst_step) = static_cast<unsigned char>(q);
          own[x % kRing] = short(e);
          e2 = e1;
          e1 = e;
          if (has_below && lane == kWarp - 1) {
            const unsigned long long w = kValid | (unsigned long long)(unsigned short)ring[kTop + 29][x % kRing] << 32 |
                                         (unsigned long long)(unsigned short)ring[kTop + 30][x % kRing] << 16 |
                                         (unsigned short)e;
            *static_cast<volatile unsigned long long *>(checked(below + x)) = w;
          }
        }
        const int xn = x + 1;
        if (valid && xn >= 0 && xn < W) {
          int s = 0;
          CF_UNROLL
          for (int i = 0; i < K.n; ++i) {
            const int xs = xn - K.taps[i].dx;
            if (K.taps[i].dy > 0 && xs >= 0 && xs < W) s += K.taps[i].w * ring[kTop + lane - K.taps[i].dy][xs % kRing];
          }
          above_sum = s;
        }
        __syncwarp();
      }
      commit_batch(n + 2, batch);
      CF_UNROLL
      for (int j = 0; j < kChunk; ++j) cur[j] = next[j];
    }
    __syncwarp();
  }
}

// Serpentine: one thread per plane runs the serial scan over a global error plane.
struct SerpentineParams {
  hr::PlaneRef plane[kMaxPlanes];
  int component[kMaxPlanes];
  int n_planes;
  int threshold, scale;
  unsigned long long seed, frame;
  unsigned char table[256];
};

template <HalftoneMethod M, bool Multi, bool Stochastic>
__global__ void serpentine_kernel(const SerpentineParams P) {
  if (threadIdx.x != 0 || int(blockIdx.x) >= P.n_planes) return;
  const hr::PlaneRef &p = P.plane[blockIdx.x];
  const hr::PixelRules r{P.threshold, P.scale, hr::plane_key(P.seed, P.frame, P.component[blockIdx.x]), P.table};
  for (int y = 0; y < p.height; ++y) hr::diffuse_span<M, Multi, Stochastic>(p, r, true, y, 0, p.width);
}

// Copies a component unchanged (alpha), one thread per sample.
struct CopyParams {
  const unsigned char *src;
  unsigned char *dst;
  long long src_stride, dst_stride;
  int src_step, dst_step, width, height;
};

constexpr int kCopyThreads = 256;

__global__ void copy_kernel(const CopyParams P) {
  const long long i = (long long)blockIdx.x * kCopyThreads + threadIdx.x;
  if (i >= (long long)P.width * P.height) return;
  const int x = int(i % P.width), y = int(i / P.width);
  *checked(P.dst + y * P.dst_stride + (long long)x * P.dst_step) =
      *checked(P.src + y * P.src_stride + (long long)x * P.src_step);
}

}  // namespace cf::cuda::halftone_gpu
