// Backend-neutral views of video frames and coefficient frames.
//
// A FrameView mirrors GstVideoInfo without depending on GStreamer: up to four
// memory planes (what gets copied between host and device) and up to four
// components (what a technique transforms), each component living in one
// memory plane at a byte offset with a pixel stride, so packed RGB, semi-planar
// NV12 and planar I420 are all described the same way.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cf {

// F32: the float coefficients of cudacdf97 (cudafilters/cdf97.hpp); the
// integer techniques refuse it.
enum class SampleType { U8, U16, S16, S32, F32 };

constexpr int sample_size(SampleType t) {
  return t == SampleType::U8 ? 1 : (t == SampleType::U16 || t == SampleType::S16) ? 2 : 4;
}
constexpr bool is_signed(SampleType t) { return t == SampleType::S16 || t == SampleType::S32; }
const char *sample_type_name(SampleType t);

// A closed interval of sample values. A stage whose output holds far fewer
// values than its sample type can (a colour transform's 9-bit differences in
// S16) states them this way, so that the next stage's limits stay exact.
// Empty (lo > hi, the default) means "the sample type's whole range".
struct ValueRange {
  std::int64_t lo = 0, hi = -1;
  bool empty() const { return lo > hi; }
};
ValueRange type_range(SampleType t);
// `r`, or type_range(t) when r is empty.
inline ValueRange range_or_type(ValueRange r, SampleType t) { return r.empty() ? type_range(t) : r; }

// Where the frame's bytes live. Device pointers belong to the engine's CUDA
// device, and their contents must be complete when a call starts: the engine
// works on its own non-blocking stream, which waits for no other stream
// (synchronise the stream or device that wrote them first).
enum class Memory { Host, Device };

constexpr int kMaxPlanes = 4;

struct MemoryPlane {
  void *data = nullptr;
  std::ptrdiff_t stride = 0;  // bytes from one row to the next
  int row_bytes = 0;          // bytes of a row that hold samples
  int rows = 0;
};

struct Component {
  int plane = 0;         // index into FrameView::planes
  int offset = 0;        // bytes from the plane's start to the first sample
  int pixel_stride = 1;  // samples from one pixel to the next (3 for packed RGB)
  int width = 0;         // in pixels
  int height = 0;
};

struct FrameView {
  SampleType type = SampleType::U8;  // one sample type for every component
  Memory memory = Memory::Host;
  int n_planes = 0;
  MemoryPlane planes[kMaxPlanes];
  int n_components = 0;
  Component components[kMaxPlanes];

  // Address of sample (x, y) of component c; x, y are not checked.
  void *sample(int c, int x, int y) const {
    const Component &k = components[c];
    const MemoryPlane &p = planes[k.plane];
    return static_cast<std::uint8_t *>(p.data) + k.offset + y * p.stride +
           std::ptrdiff_t(x) * k.pixel_stride * sample_size(type);
  }
};

// A planar, tightly packed frame of one component per plane (the layout of a
// coefficient buffer): planes follow each other in `data`.
struct PlanarLayout {
  int n = 0;
  int width[kMaxPlanes] = {};
  int height[kMaxPlanes] = {};
};
std::size_t planar_size(const PlanarLayout &l, SampleType t);
FrameView planar_view(void *data, const PlanarLayout &l, SampleType t, Memory m);

// Validates geometry: components inside their planes, planes non-null.
// Returns an empty string when valid, otherwise what is wrong.
const char *check_frame(const FrameView &f);

}  // namespace cf
