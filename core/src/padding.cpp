#include "cudafilters/padding.hpp"

#include <cstdint>
#include <cstring>
#include <string>

#include "cudafilters/error.hpp"
#include "kernels/cuda_device.hpp"

namespace cf {

namespace {

// Bytes to zero in one plane, as 2-D regions (width bytes in each of
// `height` rows, `pitch` apart): the row tails between rows, then one row
// from the last row's samples to the plane's end. Host and device zero the
// same regions.
struct Region {
  std::uint8_t *data = nullptr;
  std::size_t pitch = 0, width = 0, height = 0;
};

int plane_regions(const MemoryPlane &p, std::size_t plane_bytes, Region out[2]) {
  auto *base = static_cast<std::uint8_t *>(p.data);
  const auto stride = std::size_t(p.stride), row_bytes = std::size_t(p.row_bytes);
  const std::size_t extent = stride * std::size_t(p.rows - 1) + row_bytes;
  int n = 0;
  if (stride > row_bytes && p.rows > 1)
    out[n++] = {base + row_bytes, stride, stride - row_bytes, std::size_t(p.rows - 1)};
  if (plane_bytes > extent) out[n++] = {base + extent, plane_bytes - extent, plane_bytes - extent, 1};
  return n;
}

}  // namespace

void zero_padding(Engine &e, const FrameView &f, const std::size_t plane_bytes[kMaxPlanes]) {
  if (const char *why = check_frame(f); *why) throw Error(std::string("frame: ") + why);
  if (f.memory == Memory::Device && !e.cuda())
    throw Error("zeroing the padding of a frame in device memory needs an engine with backend=cuda");
  for (int i = 0; i < f.n_planes; ++i) {
    Region regions[2];
    const int n = plane_regions(f.planes[i], plane_bytes[i], regions);
    for (int r = 0; r < n; ++r) {
      const Region &g = regions[r];
      if (f.memory == Memory::Device)
        detail::zero_async(e.cuda(), g.data, g.pitch, g.width, g.height);
      else
        for (std::size_t y = 0; y < g.height; ++y) std::memset(g.data + y * g.pitch, 0, g.width);
    }
  }
}

}  // namespace cf
