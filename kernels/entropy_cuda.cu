// CUDA histograms for cf::histograms: per component one launch of blocks
// that each count a grid-stride share of the samples into a shared-memory
// sub-histogram (the window of kWindow bins where most samples fall: all of
// U8, and the values near 0 of S16 coefficients or the dark end of U16),
// then add it to the component's histogram in global memory with one atomic
// per non-empty bin. Samples outside the window go to global memory
// directly. Atomics add integers, so the result does not depend on their
// order. One download of the counts and one wait at the end.
#include <algorithm>
#include <cstdint>

#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/entropy_cuda.hpp"
#include "kernels/launch.cuh"
#include "kernels/samples.cuh"

namespace cf::cuda {

// Named, not anonymous: the CPU emulation compiles every kernels/ file into one unit.
namespace histogram_launch {

constexpr int kHistogramThreads = 256;
constexpr int kWindow = 4096;           // shared bins per block: 16 KiB
constexpr long long kMaxBlocks = 1024;  // about 8 per SM; a grid-stride loop covers the rest

struct HistogramParams {
  PlaneRef in;
  int width, height, blocks;
  long long lo;         // value of bin 0 of `counts`
  long long window_lo;  // value of shared bin 0
  int window;           // shared bins in use (<= kWindow)
  unsigned *counts;     // the component's histogram, global memory
};

__device__ __forceinline__ void global_add(unsigned *p, unsigned v) {
#ifdef CF_CUDA_EMULATION
  cf_emulate_check_access(p, sizeof *p);
#endif
  atomicAdd(p, v);
}

template <class T>
__global__ void __launch_bounds__(kHistogramThreads) histogram_kernel(const HistogramParams p) {
  __shared__ unsigned local[kWindow];
  for (int i = threadIdx.x; i < p.window; i += kHistogramThreads) local[i] = 0;
  __syncthreads();
  const long long total = (long long)p.width * p.height;
  for (long long i = (long long)blockIdx.x * kHistogramThreads + threadIdx.x; i < total;
       i += (long long)p.blocks * kHistogramThreads) {
    const int y = int(i / p.width), x = int(i - (long long)y * p.width);
    const long long v = load<T>(p.in, x, y);
    const long long w = v - p.window_lo;
    if (w >= 0 && w < p.window)
      atomicAdd(&local[w], 1u);
    else
      global_add(&p.counts[v - p.lo], 1u);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < p.window; i += kHistogramThreads)
    if (local[i]) global_add(&p.counts[p.window_lo - p.lo + i], local[i]);
}

}  // namespace histogram_launch

void histograms(detail::CudaState *s, const FrameView &f, const HistogramShape &shape, std::uint32_t *counts) {
  using namespace histogram_launch;
  detail::DeviceScope scope(s);
  const FrameView in = detail::stage_source(s, f, detail::Slot::Source);
  const std::size_t bytes = std::size_t(f.n_components) * shape.bins * sizeof(unsigned);
  auto *device = static_cast<unsigned *>(s->reserve(detail::Slot::Scratch, bytes));
  detail::check(cudaMemsetAsync(device, 0, bytes, s->stream), "clearing the histograms");
  // The window: all bins when they fit, else the kWindow values from 0 up
  // (around 0 for signed samples).
  const long long window_lo = shape.bins <= std::size_t(kWindow) ? shape.lo : shape.lo < 0 ? -kWindow / 2 : 0;
  for (int c = 0; c < f.n_components; ++c) {
    HistogramParams p{};
    p.in = plane_ref(in, c);
    p.width = f.components[c].width;
    p.height = f.components[c].height;
    p.lo = shape.lo;
    p.window_lo = window_lo;
    p.window = int(std::min<std::size_t>(shape.bins, kWindow));
    p.counts = device + c * shape.bins;
    p.blocks = int(std::min(kMaxBlocks, ((long long)p.width * p.height + kHistogramThreads - 1) / kHistogramThreads));
    switch (f.type) {
      case SampleType::U8:
        launch_kernel(s, histogram_kernel<std::uint8_t>, p.blocks, kHistogramThreads, p, "the histogram kernel");
        break;
      case SampleType::U16:
        launch_kernel(s, histogram_kernel<std::uint16_t>, p.blocks, kHistogramThreads, p, "the histogram kernel");
        break;
      case SampleType::S16:
        launch_kernel(s, histogram_kernel<std::int16_t>, p.blocks, kHistogramThreads, p, "the histogram kernel");
        break;
      case SampleType::S32:
      case SampleType::F32: throw Error("entropy of S32 or F32 samples is not supported");
    }
  }
  detail::check(cudaMemcpyAsync(counts, device, bytes, cudaMemcpyDeviceToHost, s->stream),
                "downloading the histograms");
  detail::check(cudaStreamSynchronize(s->stream), "computing the histograms on the CUDA stream");
}

}  // namespace cf::cuda
