// Known answers for cf::zero_padding, from its definition: in a plane of
// `rows` rows of `row_bytes` sample bytes, `stride` apart, the bytes to zero
// are those of rows 0..rows-2 from row_bytes to the stride, and those from
// the last row's samples to plane_bytes; every other byte (samples, bytes
// past plane_bytes) keeps its value. Frames in host memory, or in device
// memory of a CUDA engine (uploaded, zeroed, downloaded).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "check.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/padding.hpp"

namespace cft::padding {

struct PlaneShape {
  std::size_t offset;  // in the test buffer
  int stride, row_bytes, rows;
  std::size_t plane_bytes;  // what the caller says the plane spans
};

struct Shape {
  const char *name;
  std::vector<PlaneShape> planes;
  std::size_t size;  // of the whole buffer, bytes after the planes included
};

// RGB 7x3 (rows of 21 bytes in 24, its last row padded too); I420 7x5 in
// GStreamer's layout (luma 8 x 6 rows, the sixth a gap; chroma 4x3 in
// strides of 4: nothing to zero) followed by 8 bytes outside the frame; I420
// 9x5 (chroma rows of 5 in 8); a plane whose caller gives no span (only the
// tails between rows); one plane, one row.
inline std::vector<Shape> shapes() {
  return {
      {"RGB 7x3", {{0, 24, 21, 3, 72}}, 72},
      {"I420 7x5", {{0, 8, 7, 5, 48}, {48, 4, 4, 3, 12}, {60, 4, 4, 3, 12}}, 80},
      {"I420 9x5", {{0, 12, 9, 5, 72}, {72, 8, 5, 3, 24}, {96, 8, 5, 3, 24}}, 120},
      {"no span", {{0, 10, 6, 4, 0}}, 40},
      {"one row", {{3, 16, 5, 1, 16}}, 24},
  };
}

// The buffer after zero_padding: `before` with the plane's padding zeroed.
inline std::vector<std::uint8_t> expected(const Shape &s, const std::vector<std::uint8_t> &before) {
  std::vector<std::uint8_t> want = before;
  for (const PlaneShape &p : s.planes) {
    const std::size_t extent = std::size_t(p.stride) * (p.rows - 1) + p.row_bytes;
    for (std::size_t i = 0; i < std::max(extent, p.plane_bytes); ++i) {
      const bool sample = int(i / p.stride) < p.rows && int(i % p.stride) < p.row_bytes;
      if (!sample) want[p.offset + i] = 0;
    }
  }
  return want;
}

inline cf::FrameView view_of(const Shape &s, std::uint8_t *base, cf::Memory m) {
  cf::FrameView f;
  f.memory = m;
  f.n_planes = f.n_components = int(s.planes.size());
  for (int i = 0; i < f.n_planes; ++i) {
    const PlaneShape &p = s.planes[i];
    f.planes[i] = cf::MemoryPlane{base + p.offset, p.stride, p.row_bytes, p.rows};
    f.components[i] = cf::Component{i, 0, 1, p.row_bytes, p.rows};
  }
  return f;
}

// Zeroes the padding of every shape in `memory` and compares with expected().
inline int check_shapes(cf::Engine &e, cf::Memory memory) {
  int runs = 0;
  for (const Shape &s : shapes()) {
    std::vector<std::uint8_t> before(s.size), after(s.size);
    for (std::size_t i = 0; i < s.size; ++i) before[i] = std::uint8_t(0x80 | (i * 37));  // never 0
    std::size_t plane_bytes[cf::kMaxPlanes] = {};
    for (std::size_t i = 0; i < s.planes.size(); ++i) plane_bytes[i] = s.planes[i].plane_bytes;
    if (memory == cf::Memory::Host) {
      after = before;
      cf::zero_padding(e, view_of(s, after.data(), memory), plane_bytes);
    } else {
      auto *d = static_cast<std::uint8_t *>(e.device_alloc(s.size));
      e.upload(d, before.data(), s.size);
      cf::zero_padding(e, view_of(s, d, memory), plane_bytes);
      e.synchronize();
      e.download(after.data(), d, s.size);
      e.device_free(d);
    }
    const std::vector<std::uint8_t> want = expected(s, before);
    std::size_t first = s.size;
    for (std::size_t i = 0; i < s.size && first == s.size; ++i)
      if (after[i] != want[i]) first = i;
    CHECK_MSG(first == s.size, "%s, %s memory: byte %zu is %d, not %d", s.name,
              memory == cf::Memory::Host ? "host" : "device", first, first < s.size ? after[first] : 0,
              first < s.size ? want[first] : 0);
    ++runs;
  }
  return runs;
}

// Device frames need a CUDA engine.
inline void check_device_refused(cf::Engine &cpu) {
  std::uint8_t byte = 1;
  const Shape s = shapes()[0];
  std::size_t plane_bytes[cf::kMaxPlanes] = {72};
  std::string what;
  try {
    cf::zero_padding(cpu, view_of(s, &byte, cf::Memory::Device), plane_bytes);
  } catch (const cf::Error &e) {
    what = e.what();
  }
  CHECK_MSG(what.find("backend=cuda") != std::string::npos, "device frame on %s: '%s'", cpu.describe().c_str(),
            what.c_str());
}

}  // namespace cft::padding
