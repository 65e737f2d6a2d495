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
//
// What a decode costs is bounded by its frame and its data: a frame of
// more samples than J2kDecodeSettings::max_samples is refused from the
// headers alone, before anything of its size is allocated; within it, the
// per-tile state grows with the packets read (precincts and code-blocks
// are numbered, not listed, and tier-2 keeps only those the packets
// reach), coefficients are stored only for the tile-components and
// resolutions decoded that have a coded code-block, and a tile-component
// with none (an empty tile, or packets that include no code-block) is
// written as the value of a zero coefficient without a wavelet level.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "cudafilters/engine.hpp"
#include "cudafilters/frame.hpp"

namespace cf {

// J2kDecodeSettings::max_samples's default, 2^29: a 16K frame of 4
// components (15360 x 8640 x 4 = 530,841,600 samples; 16384 x 8192 x 4
// exactly).
constexpr std::uint64_t kJ2kDefaultMaxSamples = std::uint64_t(1) << 29;

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
  // The most samples one decode may produce: the sum over the components
  // decoded of J2kImageInfo's component_width x component_height (at the
  // requested reduction). j2k_image_info and J2kDecoder::decode refuse a
  // frame past it from the headers alone, with a cf::Error naming the
  // frame's samples and this limit. 0 = no limit.
  std::uint64_t max_samples = kJ2kDefaultMaxSamples;
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
// components decoded, samples of more than 16 bits, a frame of more than
// max_samples samples, ...).
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
