#include "cudafilters/frame.hpp"

#include <cstdint>

namespace cf {

const char *sample_type_name(SampleType t) {
  switch (t) {
    case SampleType::U8: return "U8";
    case SampleType::U16: return "U16";
    case SampleType::S16: return "S16";
    case SampleType::S32: return "S32";
    case SampleType::F32: return "F32";
  }
  return "?";
}

ValueRange type_range(SampleType t) {
  switch (t) {
    case SampleType::U8: return {0, 255};
    case SampleType::U16: return {0, 65535};
    case SampleType::S16: return {-32768, 32767};
    case SampleType::S32: return {INT32_MIN, INT32_MAX};
    case SampleType::F32: return {-(1 << 24), 1 << 24};  // the integers a float holds exactly
  }
  return {};
}

std::size_t planar_size(const PlanarLayout &l, SampleType t) {
  std::size_t n = 0;
  for (int i = 0; i < l.n; ++i) n += std::size_t(l.width[i]) * l.height[i] * sample_size(t);
  return n;
}

FrameView planar_view(void *data, const PlanarLayout &l, SampleType t, Memory m) {
  FrameView f;
  f.type = t;
  f.memory = m;
  f.n_planes = f.n_components = l.n;
  auto *p = static_cast<std::uint8_t *>(data);
  for (int i = 0; i < l.n; ++i) {
    const int row_bytes = l.width[i] * sample_size(t);
    f.planes[i] = MemoryPlane{p, row_bytes, row_bytes, l.height[i]};
    f.components[i] = Component{i, 0, 1, l.width[i], l.height[i]};
    p += std::size_t(row_bytes) * l.height[i];
  }
  return f;
}

const char *check_frame(const FrameView &f) {
  if (f.n_planes < 1 || f.n_planes > kMaxPlanes) return "plane count out of range";
  if (f.n_components < 1 || f.n_components > kMaxPlanes) return "component count out of range";
  for (int i = 0; i < f.n_planes; ++i) {
    const MemoryPlane &p = f.planes[i];
    if (!p.data) return "plane without memory";
    if (p.rows < 1 || p.row_bytes < 1 || p.stride < p.row_bytes) return "plane geometry invalid";
  }
  for (int c = 0; c < f.n_components; ++c) {
    const Component &k = f.components[c];
    if (k.plane < 0 || k.plane >= f.n_planes) return "component refers to a missing plane";
    if (k.width < 1 || k.height < 1 || k.pixel_stride < 1 || k.offset < 0) return "component geometry invalid";
    const MemoryPlane &p = f.planes[k.plane];
    const long long last = k.offset + (long long)((k.width - 1) * k.pixel_stride + 1) * sample_size(f.type);
    if (k.height > p.rows || last > p.row_bytes) return "component lies outside its plane";
  }
  return "";
}

}  // namespace cf
