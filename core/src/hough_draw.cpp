// cf::hough_draw: validation and backend dispatch (the rule:
// core/shared/hough_draw_rules.hpp).
#include <string>

#include "cpu/hough_cpu.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/hough.hpp"
#include "kernels/hough_draw_cuda.hpp"

namespace cf {

namespace {

// Same planes and components in src and dst, 8-bit, the components the
// paint model needs with the sizes it allows.
void check_frames(const HoughDrawParams &d, const FrameView &src, const FrameView &dst) {
  if (const char *why = check_frame(src); *why) throw Error(std::string("source frame: ") + why);
  if (const char *why = check_frame(dst); *why) throw Error(std::string("destination frame: ") + why);
  if (src.type != SampleType::U8 || dst.type != SampleType::U8)
    throw Error(std::string("drawing lines takes 8-bit samples (U8), not ") + sample_type_name(src.type) + " -> " +
                sample_type_name(dst.type));
  if (src.n_planes != dst.n_planes || src.n_components != dst.n_components)
    throw Error("source and destination frames differ in planes or components");
  for (int i = 0; i < src.n_planes; ++i)
    if (src.planes[i].rows != dst.planes[i].rows || src.planes[i].row_bytes != dst.planes[i].row_bytes)
      throw Error("source and destination plane " + std::to_string(i) + " differ in size");
  for (int c = 0; c < src.n_components; ++c) {
    const Component &a = src.components[c], &b = dst.components[c];
    if (a.width != b.width || a.height != b.height || a.plane != b.plane || a.offset != b.offset ||
        a.pixel_stride != b.pixel_stride)
      throw Error("source and destination component " + std::to_string(c) + " differ");
  }
  const int needed = d.paint == HoughPaint::Gray ? 1 : 3;
  if (src.n_components < needed)
    throw Error("drawing in " + std::string(d.paint == HoughPaint::Gray ? "gray" : "colour") + " needs " +
                std::to_string(needed) + " components, the frame has " + std::to_string(src.n_components));
  const int w = src.components[0].width, h = src.components[0].height;
  for (int c = 1; c < needed; ++c) {
    const Component &k = src.components[c];
    const bool full = k.width == w && k.height == h;
    const bool half = (k.width == w || k.width == (w + 1) / 2) && (k.height == h || k.height == (h + 1) / 2);
    if (d.paint == HoughPaint::Rgb ? !full : !half)
      throw Error("component " + std::to_string(c) + " is " + std::to_string(k.width) + "x" + std::to_string(k.height) +
                  ": " + (d.paint == HoughPaint::Rgb ? "R, G and B must be " : "chroma must be ") + std::to_string(w) +
                  "x" + std::to_string(h) + (d.paint == HoughPaint::Rgb ? "" : " or half of it"));
  }
}

void check_params(const HoughDrawParams &d, const std::vector<HoughLine> &lines, int w, int h) {
  if (d.thickness < 1 || d.thickness > kHoughMaxThickness)
    throw Error("thickness=" + std::to_string(d.thickness) + " must be 1.." + std::to_string(kHoughMaxThickness));
  if (d.rgb > 0xffffff) throw Error("the colour must be 0xRRGGBB");
  for (const HoughLine &l : lines)
    if (l.visible && (l.x0 < 0 || l.x1 < 0 || l.y0 < 0 || l.y1 < 0 || l.x0 >= w || l.x1 >= w || l.y0 >= h || l.y1 >= h))
      throw Error("a line's end points (" + std::to_string(l.x0) + "," + std::to_string(l.y0) + ")-(" +
                  std::to_string(l.x1) + "," + std::to_string(l.y1) + ") are outside the " + std::to_string(w) + "x" +
                  std::to_string(h) + " frame");
}

}  // namespace

void hough_draw(Engine &e, const std::vector<HoughLine> &lines, const HoughDrawParams &d, const FrameView &src,
                const FrameView &dst) {
  check_frames(d, src, dst);
  check_params(d, lines, src.components[0].width, src.components[0].height);
  if (e.backend() == Backend::Cuda) return cuda::hough_draw(e.cuda(), lines, d, src, dst);
  if (src.memory != Memory::Host || dst.memory != Memory::Host)
    throw Error("a frame in device memory needs backend=cuda");
  if (e.backend() == Backend::OpenMP)
    omp::hough_draw(lines, d, src, dst, e.threads());
  else
    cpu::hough_draw(lines, d, src, dst);
}

}  // namespace cf
