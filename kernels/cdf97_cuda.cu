// CUDA backend of the CDF 9/7 (cudafilters/cdf97.hpp): per component, a
// float work plane in the engine's scratch buffer, one kernel to load it,
// two per pass, one to store it. A pass lifts tiles of 32 lines (rows or
// columns) x 128 samples in shared memory, each loaded with a halo of 4
// samples a side (the four steps each read one neighbour), writes them
// (de)interleaved into a second plane, and a copy puts the band back. The
// arithmetic is cpu/cdf97_math.hpp's, every multiply and add rounded on its
// own (__fmul_rn/__fadd_rn): each sample gets the serial reference's
// operations on the same values, so the bits are the same. All launches on
// the engine's stream; one wait at the end.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "cudafilters/error.hpp"
#include "kernels/cdf97_cuda.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/launch.cuh"
#include "kernels/samples.cuh"

#include "core/shared/cdf97_rules.hpp"
#include "core/shared/wavelet_rules.hpp"

namespace cf::cuda {

// Named, not anonymous: the CPU emulation compiles every kernels/ file into one unit.
namespace cdf97_launch {

constexpr int kThreads = 256;

struct Cdf97Args {
  PlaneRef plane;     // the frame's component (source or destination)
  float *work, *tmp;  // width x height, tight
  int width, height;  // the component
  cdf97::Post post;
  int ll_w, ll_h;  // final LL band (not thresholded)
};

__device__ __forceinline__ long long index() { return (long long)blockIdx.x * kThreads + threadIdx.x; }

template <class T>
__global__ void __launch_bounds__(kThreads) load_raw(const Cdf97Args a) {
  const long long i = index();
  if (i >= (long long)a.width * a.height) return;
  const int y = int(i / a.width), x = int(i - (long long)y * a.width);
  a.work[i] = float(*sample_at<T>(a.plane, x, y));
}

// A pass over a band: `lines` lines of n samples; line l, sample i at
// plane[l * width + i] (Rows) or plane[i * width + l] (columns).
constexpr int kLines = 32, kAlong = 128, kHalo = 4, kSpan = kAlong + 2 * kHalo;
struct PassArgs {
  float *work, *tmp;
  int width;
  int n, lines;
  int tiles_along;  // ceil(n / kAlong)
};

template <bool Rows>
__device__ __forceinline__ long long at(int width, int line, int i) {
  return Rows ? (long long)line * width + i : (long long)i * width + line;
}

// Item k of `count` per line, of `lines` lines: neighbouring threads take
// neighbouring samples of a row, or the same sample of neighbouring columns
// (coalesced either way).
template <bool Rows>
__device__ __forceinline__ void item(int k, int count, int lines, int *l, int *m) {
  if (Rows) {
    *l = k / count;
    *m = k - *l * count;
  } else {
    *m = k / lines;
    *l = k - *m * lines;
  }
}

// Forward: lift the tile and write it deinterleaved (low band at i/2, high
// at nl + i/2) and scaled into tmp. Inverse: load the interleaved, scaled
// samples, undo the steps, write them in order into tmp. Step k updates its
// parity within the loaded span less k + 1 samples a side (frame edges
// excepted, where the symmetric extension applies), so after four steps the
// tile's own samples hold exactly what the serial lifting gives.
template <bool Forward, bool Rows>
__global__ void __launch_bounds__(kThreads) lift_tiles(const PassArgs a) {
  __shared__ float s[kLines][kSpan + 1];
  const int tile = int(blockIdx.x % a.tiles_along), line0 = int(blockIdx.x / a.tiles_along) * kLines;
  const int t0 = tile * kAlong, t1 = std::min(t0 + kAlong, a.n), lines = std::min(a.lines - line0, +kLines);
  const int a0 = std::max(t0 - kHalo, 0), a1 = std::min(t1 + kHalo, a.n), span = a1 - a0, nl = (a.n + 1) / 2;
  for (int k = threadIdx.x; k < lines * span; k += kThreads) {
    int l, j;
    item<Rows>(k, span, lines, &l, &j);
    const int i = a0 + j;
    if (Forward)
      s[l][j] = a.work[at<Rows>(a.width, line0 + l, i)];
    else
      s[l][j] = cdf97::mul(a.work[at<Rows>(a.width, line0 + l, (i & 1) ? nl + i / 2 : i / 2)],
                           (i & 1) ? cdf97::kHighInv : cdf97::kLowInv);
  }
  __syncthreads();
  for (int step = 0; step < 4; ++step) {
    const int lo = a0 == 0 ? 0 : a0 + step + 1, hi = a1 == a.n ? a.n : a1 - step - 1;
    const int first = lo + ((lo & 1) != cdf97::step_first(Forward, step));
    const int count = first < hi ? (hi - first + 1) / 2 : 0;
    const float c = cdf97::step_coefficient(Forward, step);
    for (int k = threadIdx.x; k < lines * count; k += kThreads) {
      int l, m;
      item<Rows>(k, count, lines, &l, &m);
      const int i = first + 2 * m, j = i - a0;
      const float left = i > 0 ? s[l][j - 1] : s[l][1 - a0];
      const float right = i + 1 < a.n ? s[l][j + 1] : s[l][a.n - 2 - a0];
      s[l][j] = cdf97::lifted(s[l][j], c, left, right);
    }
    __syncthreads();
  }
  for (int k = threadIdx.x; k < lines * (t1 - t0); k += kThreads) {
    int l, m;
    item<Rows>(k, t1 - t0, lines, &l, &m);
    const int i = t0 + m;
    const float v = s[l][i - a0];
    if (Forward)
      a.tmp[at<Rows>(a.width, line0 + l, (i & 1) ? nl + i / 2 : i / 2)] =
          cdf97::mul(v, (i & 1) ? cdf97::kHighGain : cdf97::kLowGain);
    else
      a.tmp[at<Rows>(a.width, line0 + l, i)] = v;
  }
}

// The pass's band from tmp back into work (the rest of work is kept).
template <bool Rows>
__global__ void __launch_bounds__(kThreads) copy_band(const PassArgs a) {
  const long long k = index();
  if (k >= (long long)a.n * a.lines) return;
  int l, m;
  item<Rows>(int(k), a.n, a.lines, &l, &m);
  const long long p = at<Rows>(a.width, l, m);
  a.work[p] = a.tmp[p];
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
    // One pass: n samples along each of `lines` lines (n < 2: nothing to lift).
    auto pass = [&](auto rows_tag, int n, int lines) {
      constexpr bool kRows = decltype(rows_tag)::value;
      if (n < 2) return;
      const PassArgs b{a.work, a.tmp, a.width, n, lines, (n + kAlong - 1) / kAlong};
      const long long tiles = (long long)b.tiles_along * ((lines + kLines - 1) / kLines);
      if (forward)
        launch_kernel(s, lift_tiles<true, kRows>, tiles, kThreads, b, "the cdf97 lifting kernel");
      else
        launch_kernel(s, lift_tiles<false, kRows>, tiles, kThreads, b, "the cdf97 inverse lifting kernel");
      launch_kernel(s, copy_band<kRows>, blocks_for((long long)n * lines), kThreads, b, "the cdf97 copy kernel");
    };
    auto rows = [&](int w, int h) { pass(std::true_type{}, w, h); };
    auto cols = [&](int w, int h) { pass(std::false_type{}, h, w); };
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
