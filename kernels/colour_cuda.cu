// CUDA backend of the colour transforms: one thread per pixel (grid-stride),
// the per-pixel arithmetic being the reference's own (core/shared/colour_rules.hpp).
// Host frames are staged through the engine's workspace on its stream; one
// launch per call, one wait at its end.
#include <cstdint>

#include "cudafilters/error.hpp"
#include "kernels/colour_cuda.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/launch.cuh"
#include "kernels/samples.cuh"

#include "core/shared/colour_rules.hpp"

namespace cf::cuda {

// Named, not anonymous: the CPU emulation compiles every kernels/ file into one unit.
namespace colour_launch {

constexpr int kColourThreads = 256;
constexpr long long kMaxBlocks = 8192;  // a grid-stride loop covers the rest

struct ColourParams {
  PlaneRef in[kMaxPlanes], out[kMaxPlanes];
  int n, width, height, blocks;
  ColourTransform t;
};

template <class TIn, class TOut, bool Inverse>
__global__ void __launch_bounds__(kColourThreads) colour_kernel(const ColourParams p) {
  const long long total = (long long)p.width * p.height;
  for (long long i = (long long)blockIdx.x * kColourThreads + threadIdx.x; i < total;
       i += (long long)p.blocks * kColourThreads) {
    const int y = int(i / p.width), x = int(i - (long long)y * p.width);
    std::int32_t v[3] = {load<TIn>(p.in[0], x, y), load<TIn>(p.in[1], x, y), load<TIn>(p.in[2], x, y)};
    if (Inverse)
      colour::inverse(p.t, v);
    else
      colour::forward(p.t, v);
    for (int c = 0; c < 3; ++c) store<TOut>(p.out[c], x, y, v[c]);
    if (p.n == 4) store<TOut>(p.out[3], x, y, load<TIn>(p.in[3], x, y));
  }
}

}  // namespace colour_launch

void colour_transform(detail::CudaState *s, bool inverse, ColourTransform t, const FrameView &src,
                      const FrameView &dst) {
  using namespace colour_launch;
  detail::DeviceScope scope(s);
  const FrameView in = detail::stage_source(s, src, detail::Slot::Source);
  const FrameView out = detail::stage_destination(s, dst, detail::Slot::Destination);
  ColourParams p{};
  p.n = src.n_components;
  p.width = src.components[0].width;
  p.height = src.components[0].height;
  p.t = t;
  for (int c = 0; c < p.n; ++c) {
    p.in[c] = plane_ref(in, c);
    p.out[c] = plane_ref(out, c);
  }
  const long long pixels = (long long)p.width * p.height;
  p.blocks = int(std::min(kMaxBlocks, (pixels + kColourThreads - 1) / kColourThreads));
  if (src.type == SampleType::F32 || dst.type == SampleType::F32)
    throw Error("the colour transforms take no F32 samples");
  with_sample_type(src.type, [&](auto tin) {
    with_sample_type(dst.type, [&](auto tout) {
      using TIn = decltype(tin);
      using TOut = decltype(tout);
      if constexpr (std::is_same_v<TIn, float> || std::is_same_v<TOut, float>)
        return;  // refused above
      else if (inverse)
        launch_kernel(s, colour_kernel<TIn, TOut, true>, p.blocks, kColourThreads, p, "the inverse colour kernel");
      else
        launch_kernel(s, colour_kernel<TIn, TOut, false>, p.blocks, kColourThreads, p, "the forward colour kernel");
    });
  });
  detail::finish_destination(s, dst, out);
}

}  // namespace cf::cuda
