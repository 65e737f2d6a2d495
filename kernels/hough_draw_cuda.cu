// CUDA backend of cf::hough_draw: copies the frame device to device (host
// frames are staged through the engine's buffers), then one thread per
// (segment, point, brush cell) paints its pixel's samples with the rule of
// core/shared/hough_draw_rules.hpp. Every write to a sample stores the same value, so
// overlapping brushes need no ordering. All on the engine's stream; one wait
// at the end.
//
// With CF_CUDA_EMULATION defined this file compiles as C++ for the CPU
// emulation in tests/cuda/emulation.
#include <algorithm>
#include <string>
#include <vector>

#include "core/shared/hough_draw_rules.hpp"
#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/hough_draw_cuda.hpp"
#include "kernels/launch.cuh"
#include "kernels/samples.cuh"

namespace cf::cuda {

namespace {

using hough::Paint;
using hough::Segment;

constexpr int kDrawThreads = 256;

struct DrawParams {
  const Segment *segs;
  int blocks_per_segment;
  int thickness, width, height;
  Paint paint;
  PlaneRef comp[3];
};

__global__ void __launch_bounds__(kDrawThreads) draw_segments(const DrawParams p) {
  const int seg = int(blockIdx.x / unsigned(p.blocks_per_segment));
  const long long i = (long long)(blockIdx.x % unsigned(p.blocks_per_segment)) * kDrawThreads + threadIdx.x;
#ifdef CF_CUDA_EMULATION
  cf_emulate_check_access(p.segs + seg, sizeof(Segment));
#endif
  const Segment s = p.segs[seg];
  const int cells = p.thickness * p.thickness;
  if (i >= (long long)hough::segment_points(s) * cells) return;
  const int k = int(i / cells), cell = int(i % cells);
  int x, y;
  hough::segment_point(s, k, x, y);
  x += hough::brush_low(p.thickness) + cell % p.thickness;
  y += hough::brush_low(p.thickness) + cell / p.thickness;
  if (x < 0 || y < 0 || x >= p.width || y >= p.height) return;
  for (int c = 0; c < p.paint.n; ++c)
    store<std::uint8_t>(p.comp[c], x >> p.paint.shift_x[c], y >> p.paint.shift_y[c], p.paint.value[c]);
}

}  // namespace

void hough_draw(detail::CudaState *s, const std::vector<HoughLine> &lines, const HoughDrawParams &d,
                const FrameView &src, const FrameView &dst) {
  detail::DeviceScope scope(s);
  const FrameView in = detail::stage_source(s, src, detail::Slot::Source);
  const FrameView out = detail::stage_destination(s, dst, detail::Slot::Destination);
  if (in.planes[0].data != out.planes[0].data)  // else drawing in place
    for (int i = 0; i < in.n_planes; ++i)
      detail::check(cudaMemcpy2DAsync(out.planes[i].data, out.planes[i].stride, in.planes[i].data, in.planes[i].stride,
                                      in.planes[i].row_bytes, in.planes[i].rows, cudaMemcpyDeviceToDevice, s->stream),
                    [&] { return "copying plane " + std::to_string(i) + " of the frame to draw on"; });

  const std::vector<Segment> segs = hough::segments_of(lines);
  if (!segs.empty()) {
    DrawParams p{};
    p.paint = hough::paint_for(out, d.paint, d.rgb);
    p.thickness = d.thickness;
    p.width = out.components[0].width;
    p.height = out.components[0].height;
    int most = 0;
    for (const Segment &g : segs) most = std::max(most, hough::segment_points(g));
    const long long threads = (long long)most * d.thickness * d.thickness;
    p.blocks_per_segment = int((threads + kDrawThreads - 1) / kDrawThreads);
    for (int c = 0; c < p.paint.n; ++c) p.comp[c] = plane_ref(out, c);
    const std::size_t bytes = sizeof(Segment) * segs.size();
    auto *segs_d = static_cast<Segment *>(s->reserve(detail::Slot::Scratch, bytes));
    detail::check(cudaMemcpyAsync(segs_d, segs.data(), bytes, cudaMemcpyHostToDevice, s->stream),
                  "uploading the line segments");
    p.segs = segs_d;
    launch_kernel(s, draw_segments, (long long)p.blocks_per_segment * (long long)segs.size(), kDrawThreads, p,
                  "the line drawing kernel");
  }
  detail::finish_destination(s, dst, out);
}

}  // namespace cf::cuda
