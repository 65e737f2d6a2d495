// CUDA backend of the CDF 9/7 (cudafilters/cdf97.hpp): per component, a
// float work plane in the engine's scratch buffer, one kernel to load it,
// one per pass (a thread per row, or per column: neighbouring threads read
// neighbouring columns, so the column passes are coalesced), one to store
// it. The arithmetic is cpu/cdf97_math.hpp's, with every multiply and add
// rounded on its own (__fmul_rn/__fadd_rn), so the bits are the serial
// reference's. All launches on the engine's stream; one wait at the end.
// Simple rather than fast: the row passes read strided memory.
#include <algorithm>
#include <cstdint>

#include "cuda_bridge.hpp"
#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/launch.cuh"
#include "kernels/samples.cuh"

#include "cpu/cdf97_math.hpp"  // after samples.cuh: CF_HD is __host__ __device__
#include "cpu/lifting.hpp"

namespace cf::cuda {

// Named, not anonymous: the CPU emulation compiles every kernels/ file into one unit.
namespace cdf97_launch {

constexpr int kThreads = 256;

struct Cdf97Args {
  PlaneRef plane;          // the frame's component (source or destination)
  float *work, *tmp;       // width x height, tight
  int width, height;       // the component
  int w, h;                // the band a pass lifts
  cdf97::Post post;
  int ll_w, ll_h;          // final LL band (not thresholded)
};

__device__ __forceinline__ long long index() { return (long long)blockIdx.x * kThreads + threadIdx.x; }

template <class T>
__global__ void __launch_bounds__(kThreads) load_raw(const Cdf97Args a) {
  const long long i = index();
  if (i >= (long long)a.width * a.height) return;
  const int y = int(i / a.width), x = int(i - (long long)y * a.width);
  a.work[i] = float(*sample_at<T>(a.plane, x, y));
}

template <bool Forward>
__global__ void __launch_bounds__(kThreads) lift_rows(const Cdf97Args a) {
  const long long y = index();
  if (y >= a.h) return;
  const cdf97::Signal x{a.work + y * a.width, 1}, t{a.tmp + y * a.width, 1};
  if (Forward)
    cdf97::forward(x, a.w, t);
  else
    cdf97::inverse(x, a.w, t);
}

template <bool Forward>
__global__ void __launch_bounds__(kThreads) lift_cols(const Cdf97Args a) {
  const long long c = index();
  if (c >= a.w) return;
  const cdf97::Signal x{a.work + c, a.width}, t{a.tmp + c, a.width};
  if (Forward)
    cdf97::forward(x, a.h, t);
  else
    cdf97::inverse(x, a.h, t);
}

// Threshold (detail bands) and, for int16 output, quantisation.
template <class T>
__global__ void __launch_bounds__(kThreads) store_coeff(const Cdf97Args a) {
  const long long i = index();
  if (i >= (long long)a.width * a.height) return;
  const int y = int(i / a.width), x = int(i - (long long)y * a.width);
  const float c = cdf97::shrink(a.post, a.work[i], !(x < a.ll_w && y < a.ll_h));
  T *out = const_cast<T *>(sample_at<T>(a.plane, x, y));
  if constexpr (std::is_same_v<T, float>)
    *out = c;
  else
    *out = T(cdf97::quantise(c, a.post.step, sizeof(T) == 2 ? cdf97::kMaxIndexS16 : cdf97::kMaxIndexS32));
}

template <class T>
__global__ void __launch_bounds__(kThreads) load_coeff(const Cdf97Args a) {
  const long long i = index();
  if (i >= (long long)a.width * a.height) return;
  const int y = int(i / a.width), x = int(i - (long long)y * a.width);
  const T v = *sample_at<T>(a.plane, x, y);
  if constexpr (std::is_same_v<T, float>)
    a.work[i] = v;
  else
    a.work[i] = cdf97::dequantise(v, a.post.step);
}

template <class T>
__global__ void __launch_bounds__(kThreads) store_raw(const Cdf97Args a) {
  const long long i = index();
  if (i >= (long long)a.width * a.height) return;
  const int y = int(i / a.width), x = int(i - (long long)y * a.width);
  T *out = const_cast<T *>(sample_at<T>(a.plane, x, y));
  if constexpr (std::is_same_v<T, float>) {
    *out = a.work[i];
  } else {
    constexpr float lo = std::is_signed_v<T> ? -float(1u << (8 * sizeof(T) - 1)) : 0.0f;
    constexpr float hi = std::is_same_v<T, std::int32_t> ? 2147483520.0f
                         : std::is_signed_v<T>           ? float((1u << (8 * sizeof(T) - 1)) - 1)
                                                         : float((1ull << (8 * sizeof(T))) - 1);
    *out = T(cdf97::round_clamp(a.work[i], lo, hi));
  }
}

long long blocks_for(long long n) { return (n + kThreads - 1) / kThreads; }

void run(detail::CudaState *s, bool forward, const Cdf97Params &p, const FrameView &src, const FrameView &dst) {
  detail::DeviceScope scope(s);
  const FrameView in = detail::stage_source(s, src, detail::Slot::Source);
  const FrameView out = detail::stage_destination(s, dst, detail::Slot::Destination);
  std::size_t plane = 0;
  for (int c = 0; c < src.n_components; ++c)
    plane = std::max(plane, detail::align_up(sizeof(float) * src.components[c].width * src.components[c].height));
  auto *scratch = static_cast<unsigned char *>(s->reserve(detail::Slot::Scratch, 2 * plane));
  const WaveletParams order(Wavelet::Cdf53, p.levels, p.layout);  // the 2-D pass order

  for (int c = 0; c < src.n_components; ++c) {
    Cdf97Args a{};
    a.work = reinterpret_cast<float *>(scratch);
    a.tmp = reinterpret_cast<float *>(scratch + plane);
    a.width = src.components[c].width;
    a.height = src.components[c].height;
    a.post = cdf97::post_of(p);
    a.ll_w = a.width;
    a.ll_h = a.height;
    for (int k = 0; k < p.levels; ++k) {
      a.ll_w = lifting::low_count(a.ll_w);
      a.ll_h = lifting::low_count(a.ll_h);
    }
    const long long samples = (long long)a.width * a.height;
    auto rows = [&](int w, int h) {
      Cdf97Args b = a;
      b.w = w;
      b.h = h;
      if (forward)
        launch_kernel(s, lift_rows<true>, blocks_for(h), kThreads, b, "the cdf97 row kernel");
      else
        launch_kernel(s, lift_rows<false>, blocks_for(h), kThreads, b, "the cdf97 inverse row kernel");
    };
    auto cols = [&](int w, int h) {
      Cdf97Args b = a;
      b.w = w;
      b.h = h;
      if (forward)
        launch_kernel(s, lift_cols<true>, blocks_for(w), kThreads, b, "the cdf97 column kernel");
      else
        launch_kernel(s, lift_cols<false>, blocks_for(w), kThreads, b, "the cdf97 inverse column kernel");
    };
    if (forward) {
      a.plane = plane_ref(in, c);
      with_sample_type(src.type, [&](auto t) {
        launch_kernel(s, load_raw<decltype(t)>, blocks_for(samples), kThreads, a, "the cdf97 load kernel");
      });
      lifting::forward_passes(order, a.width, a.height, rows, cols);
      a.plane = plane_ref(out, c);
      if (dst.type == SampleType::F32)
        launch_kernel(s, store_coeff<float>, blocks_for(samples), kThreads, a, "the cdf97 store kernel");
      else if (dst.type == SampleType::S16)
        launch_kernel(s, store_coeff<std::int16_t>, blocks_for(samples), kThreads, a, "the cdf97 store kernel");
      else
        launch_kernel(s, store_coeff<std::int32_t>, blocks_for(samples), kThreads, a, "the cdf97 store kernel");
    } else {
      a.plane = plane_ref(in, c);
      if (src.type == SampleType::F32)
        launch_kernel(s, load_coeff<float>, blocks_for(samples), kThreads, a, "the cdf97 load kernel");
      else if (src.type == SampleType::S16)
        launch_kernel(s, load_coeff<std::int16_t>, blocks_for(samples), kThreads, a, "the cdf97 load kernel");
      else
        launch_kernel(s, load_coeff<std::int32_t>, blocks_for(samples), kThreads, a, "the cdf97 load kernel");
      lifting::inverse_passes(order, a.width, a.height, rows, cols);
      a.plane = plane_ref(out, c);
      with_sample_type(dst.type, [&](auto t) {
        launch_kernel(s, store_raw<decltype(t)>, blocks_for(samples), kThreads, a, "the cdf97 store kernel");
      });
    }
  }
  detail::finish_destination(s, dst, out);
}

}  // namespace cdf97_launch

void cdf97_forward(detail::CudaState *s, const Cdf97Params &p, const FrameView &src, const FrameView &dst) {
  cdf97_launch::run(s, true, p, src, dst);
}
void cdf97_inverse(detail::CudaState *s, const Cdf97Params &p, const FrameView &src, const FrameView &dst) {
  cdf97_launch::run(s, false, p, src, dst);
}

}  // namespace cf::cuda
