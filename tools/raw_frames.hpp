// Raw planar frames for cf-j2k: the planes one after another, each tightly
// packed, in GStreamer's names: I420 (Y, then U and V at half size each
// way, rounded up), Y42B (U and V at half width), Y444, GRAY8, and
// GRAY16_LE (16-bit little-endian samples).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cudafilters/frame.hpp"

namespace cfj2k {

struct RawFormat {
  std::string name;
  int components = 0;
  int subsampling_x[3] = {1, 1, 1}, subsampling_y[3] = {1, 1, 1};
  int sample_bytes = 1;
};

// The format of that name; throws std::invalid_argument listing the known ones.
RawFormat raw_format(const std::string &name);

// Bytes of one w x h frame.
std::size_t raw_frame_bytes(const RawFormat &f, int w, int h);

// A view of `bytes` (raw_frame_bytes of them; 16-bit samples in the
// machine's order, which is little-endian on the machines this runs on).
cf::FrameView raw_view(const RawFormat &f, int w, int h, std::uint8_t *bytes);

}  // namespace cfj2k
