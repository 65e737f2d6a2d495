// CUDA backend of the 8x8 DCT. One thread block of 8 x 32 threads takes a
// strip of four 8x8 blocks of one component, one thread per sample: the
// samples, then the row pass, go through shared memory, and every thread
// computes its element of each pass with the reference's dot8 (core/shared/dct_rules.hpp),
// so it sums the same products in the same order. One launch per
// component, all on the engine's stream; one wait at the end.
#include <cstdint>

#include "cudafilters/dct.hpp"
#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/dct_cuda.hpp"
#include "kernels/launch.cuh"
#include "kernels/samples.cuh"

#include "core/shared/dct_rules.hpp"

namespace cf::cuda {

// Named, not anonymous: the CPU emulation compiles every kernels/ file into one unit.
namespace dct_launch {

constexpr int kStripBlocks = 4;                // 8x8 blocks per thread block
constexpr int kStripWidth = 8 * kStripBlocks;  // samples per strip row
constexpr int kDctThreads = 8 * kStripWidth;

struct KernelParams {
  dct::Setup setup;
  PlaneRef in, out;
  int plane;          // index into setup.quant
  int width, height;  // the raw component (forward: replicate past it; inverse: write inside it)
  int strips_x;       // strips per row of blocks
  int padded_width;   // padded_to_blocks(width)
};

// Raw: the raw sample type (U8 or S16); coefficients are S16.
template <class Raw, bool Inverse>
__global__ void __launch_bounds__(kDctThreads) dct_kernel(const KernelParams p) {
  __shared__ float cosine[64], quant[64];
  __shared__ float x[8][kStripWidth], t[8][kStripWidth];
  const int tid = int(threadIdx.x), ly = tid / kStripWidth, lx = tid % kStripWidth;
  const int b = lx / 8 * 8, n = lx % 8;  // this thread's block (first column in the strip) and column in it
  if (tid < 64) {
    cosine[tid] = p.setup.cosine[tid];
    quant[tid] = p.setup.quant[p.plane][tid];
  }
  const int px = int(blockIdx.x) % p.strips_x * kStripWidth + lx, py = int(blockIdx.x) / p.strips_x * 8 + ly;
  const bool active = px < p.padded_width;  // whole 8x8 blocks are active or not
  __syncthreads();
  if (!Inverse) {
    const int sx = px < p.width ? px : p.width - 1, sy = py < p.height ? py : p.height - 1;
    x[ly][lx] = active ? float(load<Raw>(p.in, sx, sy)) - p.setup.shift : 0.0f;
    __syncthreads();
    t[ly][lx] = dct::dot8(cosine + 8 * n, 1, &x[ly][b], 1);  // T[y][k], k = n
    __syncthreads();
    if (active)
      store<std::int16_t>(p.out, px, py,
                          dct::quantise(dct::dot8(cosine + 8 * ly, 1, &t[0][b + n], kStripWidth), quant[8 * ly + n]));
  } else {
    x[ly][lx] = active ? dct::dequantise(load<std::int16_t>(p.in, px, py), quant[8 * ly + n]) : 0.0f;
    __syncthreads();
    t[ly][lx] = dct::dot8(cosine + n, 8, &x[ly][b], 1);  // rows of the transposed transform
    __syncthreads();
    const int v = dct::round_clamp(dct::add(dct::dot8(cosine + ly, 8, &t[0][b + n], kStripWidth), p.setup.shift),
                                   p.setup.lo, p.setup.hi);
    if (px < p.width && py < p.height) store<Raw>(p.out, px, py, v);
  }
}

}  // namespace dct_launch

void dct_transform(detail::CudaState *s, bool inverse, const dct::Setup &setup, const FrameView &src,
                   const FrameView &dst) {
  using namespace dct_launch;
  detail::DeviceScope scope(s);
  const FrameView in = detail::stage_source(s, src, detail::Slot::Source);
  const FrameView out = detail::stage_destination(s, dst, detail::Slot::Destination);
  const FrameView &raw = inverse ? dst : src;
  for (int c = 0; c < src.n_components; ++c) {
    KernelParams p{};
    p.setup = setup;
    p.in = plane_ref(in, c);
    p.out = plane_ref(out, c);
    p.plane = c;
    p.width = raw.components[c].width;
    p.height = raw.components[c].height;
    p.padded_width = padded_to_blocks(p.width);
    p.strips_x = (p.padded_width + kStripWidth - 1) / kStripWidth;
    const long long blocks = (long long)p.strips_x * (padded_to_blocks(p.height) / 8);
    if (raw.type == SampleType::U8)
      launch_kernel(s, inverse ? dct_kernel<std::uint8_t, true> : dct_kernel<std::uint8_t, false>, blocks, kDctThreads,
                    p, inverse ? "the inverse DCT kernel" : "the forward DCT kernel");
    else
      launch_kernel(s, inverse ? dct_kernel<std::int16_t, true> : dct_kernel<std::int16_t, false>, blocks, kDctThreads,
                    p, inverse ? "the inverse DCT kernel" : "the forward DCT kernel");
  }
  detail::finish_destination(s, dst, out);
}

}  // namespace cf::cuda
