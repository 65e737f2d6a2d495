#include "raw_frames.hpp"

#include <stdexcept>

namespace cfj2k {

RawFormat raw_format(const std::string &name) {
  RawFormat f;
  f.name = name;
  if (name == "I420" || name == "Y42B" || name == "Y444") {
    f.components = 3;
    for (int c = 1; c < 3; ++c) {
      f.subsampling_x[c] = name == "Y444" ? 1 : 2;
      f.subsampling_y[c] = name == "I420" ? 2 : 1;
    }
  } else if (name == "GRAY8" || name == "GRAY16_LE") {
    f.components = 1;
    f.sample_bytes = name == "GRAY8" ? 1 : 2;
  } else {
    throw std::invalid_argument("--format " + name + ": I420, Y42B, Y444, GRAY8 or GRAY16_LE");
  }
  return f;
}

namespace {
int plane_width(const RawFormat &f, int c, int w) { return (w + f.subsampling_x[c] - 1) / f.subsampling_x[c]; }
int plane_height(const RawFormat &f, int c, int h) { return (h + f.subsampling_y[c] - 1) / f.subsampling_y[c]; }
}  // namespace

std::size_t raw_frame_bytes(const RawFormat &f, int w, int h) {
  std::size_t n = 0;
  for (int c = 0; c < f.components; ++c) n += std::size_t(plane_width(f, c, w)) * plane_height(f, c, h);
  return n * std::size_t(f.sample_bytes);
}

cf::FrameView raw_view(const RawFormat &f, int w, int h, std::uint8_t *bytes) {
  cf::FrameView v;
  v.type = f.sample_bytes == 2 ? cf::SampleType::U16 : cf::SampleType::U8;
  v.n_planes = f.components;
  v.n_components = f.components;
  std::size_t at = 0;
  for (int c = 0; c < f.components; ++c) {
    const int pw = plane_width(f, c, w), ph = plane_height(f, c, h), row = pw * f.sample_bytes;
    v.planes[c] = {bytes + at, row, row, ph};
    v.components[c] = {c, 0, 1, pw, ph};
    at += std::size_t(row) * ph;
  }
  return v;
}

}  // namespace cfj2k
