// CUDA backend of error-diffusion halftoning: stages host frames, copies the
// components that pass through (alpha), and launches one kernel for all the
// other planes (halftone_kernels.cuh says what a warp does), on the engine's
// stream, with one wait at the end (finish_destination).
//
// Workspace (Slot::Scratch): the raster scan's ticket and boundary rows (one
// 64-bit word per column per band, zeroed by one cudaMemsetAsync per call),
// or the serpentine scan's int16 error planes.
#include <algorithm>
#include <string>

#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/halftone_cuda.hpp"
#include "kernels/halftone_kernels.cuh"
#include "kernels/launch.cuh"

namespace cf::cuda {

namespace {

using detail::CudaState;
using detail::Slot;
namespace hg = halftone_gpu;
namespace hr = halftone_rules;

// Component c's samples in and out, as the copy kernel and the wavefront address them.
hg::CopyParams component_io(const FrameView &in, const FrameView &out, int c) {
  const Component &ki = in.components[c], &ko = out.components[c];
  return {static_cast<const unsigned char *>(in.sample(c, 0, 0)),
          static_cast<unsigned char *>(out.sample(c, 0, 0)),
          (long long)in.planes[ki.plane].stride,
          (long long)out.planes[ko.plane].stride,
          ki.pixel_stride,
          ko.pixel_stride,
          ki.width,
          ki.height};
}

void copy_component(CudaState *s, const FrameView &in, const FrameView &out, int c) {
  const hg::CopyParams p = component_io(in, out, c);
  const Component &ki = in.components[c];
  const long long n = (long long)ki.width * ki.height;
  launch_kernel(s, hg::copy_kernel, int((n + hg::kCopyThreads - 1) / hg::kCopyThreads), hg::kCopyThreads, p,
                "the halftone copy kernel");
}

void raster(CudaState *s, const hr::Setup &setup, const FrameView &in, const FrameView &out, const int *planes, int n) {
  hg::WavefrontParams p{};
  int bands = 0, widest = 0;
  for (int i = 0; i < n; ++i) {
    const int c = planes[i];
    const hg::CopyParams io = component_io(in, out, c);
    p.plane[i] = {io.src,
                  io.dst,
                  io.src_stride,
                  io.dst_stride,
                  io.src_step,
                  io.dst_step,
                  io.width,
                  io.height,
                  bands,
                  c,
                  hr::plane_key(setup.seed, setup.frame, c)};
    bands += (io.height + hg::kWarp - 1) / hg::kWarp;
    widest = std::max(widest, io.width);
  }
  p.n_planes = n;
  p.bands = bands;
  const hr::PixelRules rules = hr::pixel_rules(setup, 0);
  p.threshold = rules.threshold;
  p.scale = rules.scale;
  p.pitch = widest;
  std::copy(setup.table, setup.table + 256, p.table);
  const std::size_t bytes = detail::kDeviceAlign + std::size_t(bands) * std::size_t(widest) * 8;
  auto *scratch = static_cast<unsigned char *>(s->reserve(Slot::Scratch, bytes));
  p.ticket = reinterpret_cast<unsigned *>(scratch);
  p.boundary = reinterpret_cast<unsigned long long *>(scratch + detail::kDeviceAlign);
  detail::check(cudaMemsetAsync(scratch, 0, bytes, s->stream), "clearing the halftone boundary rows");
  const int blocks = (bands + hg::kWarpsPerBlock - 1) / hg::kWarpsPerBlock;
  hr::dispatch(setup, [&](auto m, auto multi, auto stochastic) {
    launch_kernel(s, hg::wavefront_kernel<decltype(m)::value, decltype(multi)::value, decltype(stochastic)::value>,
                  blocks, hg::kThreads, p, "the halftone wavefront kernel");
  });
}

void serpentine(CudaState *s, const hr::Setup &setup, const FrameView &in, const FrameView &out, const int *planes,
                int n) {
  std::size_t bytes = 0;
  for (int i = 0; i < n; ++i)
    bytes += detail::align_up(std::size_t(in.components[planes[i]].width) * in.components[planes[i]].height * 2);
  auto *scratch = static_cast<unsigned char *>(s->reserve(Slot::Scratch, std::max<std::size_t>(bytes, 1)));
  hg::SerpentineParams p{};
  for (int i = 0; i < n; ++i) {
    const int c = planes[i];
    auto *err = reinterpret_cast<std::int16_t *>(scratch);
    p.plane[i] = hr::plane_ref(in, out, c, err);
    p.component[i] = c;
    scratch += detail::align_up(std::size_t(in.components[c].width) * in.components[c].height * 2);
  }
  p.n_planes = n;
  const hr::PixelRules rules = hr::pixel_rules(setup, 0);
  p.threshold = rules.threshold;
  p.scale = rules.scale;
  p.seed = setup.seed;
  p.frame = setup.frame;
  std::copy(setup.table, setup.table + 256, p.table);
  hr::dispatch(setup, [&](auto m, auto multi, auto stochastic) {
    launch_kernel(s, hg::serpentine_kernel<decltype(m)::value, decltype(multi)::value, decltype(stochastic)::value>, n,
                  hg::kWarp, p, "the halftone serpentine kernel");
  });
}

}  // namespace

void halftone(CudaState *s, const hr::Setup &setup, const FrameView &src, const FrameView &dst) {
  detail::DeviceScope scope(s);
  const FrameView in = detail::stage_source(s, src, Slot::Source);
  const FrameView out = detail::stage_destination(s, dst, Slot::Destination);
  int planes[kMaxPlanes], n = 0;
  for (int c = 0; c < in.n_components; ++c) {
    if (setup.copy_mask >> c & 1)
      copy_component(s, in, out, c);
    else
      planes[n++] = c;
  }
  if (n > 0) {
    if (setup.serpentine)
      serpentine(s, setup, in, out, planes, n);
    else
      raster(s, setup, in, out, planes, n);
  }
  detail::finish_destination(s, dst, out);
}

}  // namespace cf::cuda
