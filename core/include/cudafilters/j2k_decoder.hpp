// JPEG 2000 Part 1 decoding (ITU-T T.800 | ISO/IEC 15444-1): one codestream
// in, one frame out.
//
// The stages: the headers read and checked (every length against the data
// and T.800's limits); per tile, tier-2 (packet headers) and tier-1 (each
// code-block's bit-planes through the MQ decoder); dequantisation, the
// inverse wavelet, the inverse colour transform, the DC level shift and
// clamping. A truncated codestream decodes as far as its data goes
// (J2kDecoder::problem says where it stopped). cpu is the serial
// reference; openmp and cuda give the same samples. On cuda, the headers
// and tier-2 are read on the host and every stage after them runs on the
// GPU, into a frame in device or host memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "cudafilters/engine.hpp"
#include "cudafilters/frame.hpp"

namespace cf {

struct J2kDecodeSettings {
  int reduce = 0;  // highest resolution levels discarded (like opj_decompress -r)
  int layers = 0;  // quality layers decoded at most; 0 = all
  // Components decoded: components 0..N-1 of the codestream, the others'
  // code-blocks skipped (their packets still read). 0 = all of them, which
  // a codestream of more than 4 (a frame's most) refuses; N = 1..4 takes
  // the first ones (at least 3 when components 0..2 went through the
  // colour transform); more than the codestream has is refused.
  int components = 0;
  // Each decoded component's samples shifted left by this many bits (0..15)
  // on output: a format deeper than the codestream's samples (10-bit
  // samples in a 16-bit plane) gets them at its own scale. The depth plus
  // the shift must fit the frame's samples.
  int shift_up[kMaxPlanes] = {};
};

// The frame a codestream decodes to, from its headers alone.
struct J2kImageInfo {
  int width = 0, height = 0;      // of component 0 at the requested reduction
  int components = 0;             // decoded (J2kDecodeSettings::components); the arrays below hold these
  int codestream_components = 0;  // in the codestream (SIZ's Csiz)
  int bit_depth[kMaxPlanes] = {};
  bool is_signed[kMaxPlanes] = {};
  int component_width[kMaxPlanes] = {}, component_height[kMaxPlanes] = {};
  int subsampling_x[kMaxPlanes] = {}, subsampling_y[kMaxPlanes] = {};
  bool colour_transform = false;  // components 0..2 went through the RCT or ICT
};

// Reads the headers of `data` (a codestream, SOC to EOC); throws cf::Error
// naming what is wrong, or what this decoder does not take (more than 4
// components decoded, samples of more than 16 bits, ...).
J2kImageInfo j2k_image_info(const std::uint8_t *data, std::size_t size, const J2kDecodeSettings &s);

class J2kDecoder {
 public:
  explicit J2kDecoder(Engine &engine);
  ~J2kDecoder();
  J2kDecoder(const J2kDecoder &) = delete;
  J2kDecoder &operator=(const J2kDecoder &) = delete;

  // Decodes `data` into `out`: U8 (depths up to 8) or U16, one component
  // per component decoded, of j2k_image_info's sizes (signed components
  // come out offset by 2^(depth - 1)); host memory, or on cuda also device
  // memory. Throws cf::Error.
  void decode(const std::uint8_t *data, std::size_t size, const J2kDecodeSettings &s, const FrameView &out);

  // Empty after a complete decode; otherwise where the last decode stopped
  // (a truncated or corrupt tile), the frame holding what came before.
  const std::string &problem() const;

  // Wall time of the last decode's stages: the headers and tier-2 of every
  // tile on the host; tier-1 (on cuda: the upload, the kernel and the
  // statuses back, one wait); the reconstruction into the frame (on
  // cuda: the tables' upload, the kernels and, for a host frame, the copy
  // back).
  struct StageTimes {
    double packets_ms = 0, blocks_ms = 0, reconstruction_ms = 0;
  };
  StageTimes stage_times() const;

  struct State;

 private:
  Engine &engine_;
  std::unique_ptr<State> state_;
};

}  // namespace cf
