// Checks that cf::J2kDecoder on cuda (tier-1, dequantisation, inverse
// wavelets and colour transform on the GPU) gives the frames of the serial
// reference, sample for sample, shared by the test on a GPU
// (tests/cuda/test_j2k_decode_cuda_parity.cpp) and the CPU emulation of the
// kernels (tests/cuda/emulation):
//  - our encoder's codestreams of random frames of odd sizes: RGB through
//    the RCT and the ICT, 4 components, GRAY of 12 bits, I420-like
//    subsampled YUV, tiles of 37 x 29 (starting at odd coordinates), 0 to
//    5 levels, layers;
//    the tiled ones also cut short and with bytes damaged (the same
//    problem, the first tile's in tile order);
//  - the T.803 conformance streams (CF_J2K_CONFORMANCE; skipped when
//    unset): ROI, mixed 5/3 and 9/7 components, signed samples,
//    subsampling, image and tile offsets;
//  - code-blocks absent: RGB frames grey in one tile of two or in both
//    (through the RCT and the ICT: no block of components 1 and 2 there),
//    and hand-written headers whose packets include nothing, some tiles
//    without a tile-part (tests/support/j2k_streams.hpp): tile-components
//    written as a constant, and those the colour transform joins to coded
//    ones;
// each at reduce 0, 1 and 3 (refused alike where a stream has fewer
// levels), with every layer and with one, into U16 frames (and U8 ones where every component
// has at most 8 bits), in host memory and in device memory (poisoned first:
// every sample must be written), and once with shift_up.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k.hpp"
#include "cudafilters/j2k_decoder.hpp"
#include "frames.hpp"
#include "j2k_decode_parity.hpp"  // encode, conformance_data
#include "j2k_streams.hpp"

namespace cft::j2k_frame_parity {

struct FrameCounts {
  int frames = 0, equal = 0, refused = 0;
};
inline FrameCounts &frame_counts() {
  static FrameCounts c;
  return c;
}

constexpr std::uint8_t kPoisonByte = 0xA5;

// A frame of the decoded image's components one after another, in host
// memory or (as a device allocation of e) in device memory, poisoned.
struct DecodedFrame {
  std::vector<std::uint8_t> host;
  void *device = nullptr;
  cf::FrameView view;
};

inline DecodedFrame frame_for(cf::Engine &e, const cf::J2kImageInfo &info, cf::SampleType type, bool device) {
  DecodedFrame f;
  const int size = type == cf::SampleType::U8 ? 1 : 2;
  std::size_t total = 0;
  for (int c = 0; c < info.components; ++c)
    total += std::size_t(info.component_width[c]) * info.component_height[c] * size;
  f.host.assign(total + 16, kPoisonByte);
  cf::FrameView &v = f.view;
  v.type = type;
  v.n_planes = v.n_components = info.components;
  if (device) {
    f.device = e.device_alloc(f.host.size());
    e.upload(f.device, f.host.data(), f.host.size());
    v.memory = cf::Memory::Device;
  }
  auto *base = static_cast<std::uint8_t *>(device ? f.device : f.host.data());
  std::size_t at = 0;
  for (int c = 0; c < info.components; ++c) {
    const int w = info.component_width[c], h = info.component_height[c];
    v.planes[c] = {base + at, std::ptrdiff_t(w) * size, w * size, h};
    v.components[c] = {c, 0, 1, w, h};
    at += std::size_t(w) * h * size;
  }
  return f;
}

// The bytes `e` decodes `data` to; `why` gets the error when it refuses.
inline std::vector<std::uint8_t> decode_bytes(cf::Engine &e, const std::vector<std::uint8_t> &data,
                                              const cf::J2kDecodeSettings &s, cf::SampleType type, bool device,
                                              std::string &problem, std::string &why) {
  try {
    const cf::J2kImageInfo info = cf::j2k_image_info(data.data(), data.size(), s);
    DecodedFrame f = frame_for(e, info, type, device);
    cf::J2kDecoder dec(e);
    try {
      dec.decode(data.data(), data.size(), s, f.view);
    } catch (...) {
      if (f.device) e.device_free(f.device);
      throw;
    }
    problem = dec.problem();
    if (f.device) {
      e.download(f.host.data(), f.device, f.host.size());
      e.device_free(f.device);
    }
    return f.host;
  } catch (const cf::Error &err) {
    why = err.what();
    return {};
  }
}

// One stream at one setting: cuda's frames (host and device memory) equal
// to cpu's, or both refuse alike.
inline void same_frame(cf::Engine &cuda, cf::Engine &cpu, const std::vector<std::uint8_t> &data,
                       const cf::J2kDecodeSettings &s, cf::SampleType type, const std::string &what) {
  std::string ref_problem, ref_why;
  const std::vector<std::uint8_t> ref = decode_bytes(cpu, data, s, type, false, ref_problem, ref_why);
  for (bool device : {false, true}) {
    std::string problem, why;
    const std::vector<std::uint8_t> got = decode_bytes(cuda, data, s, type, device, problem, why);
    const char *memory = device ? "device" : "host";
    ++frame_counts().frames;
    if (!ref_why.empty()) {
      CHECK_MSG(why == ref_why, "%s (%s memory): cpu refuses \"%s\", cuda \"%s\"", what.c_str(), memory,
                ref_why.c_str(), why.c_str());
      ++frame_counts().refused;
      continue;
    }
    CHECK_MSG(why.empty(), "%s (%s memory): cuda refuses: %s", what.c_str(), memory, why.c_str());
    CHECK_MSG(problem == ref_problem, "%s (%s memory): cpu's problem \"%s\", cuda's \"%s\"", what.c_str(), memory,
              ref_problem.c_str(), problem.c_str());
    if (got == ref) {
      ++frame_counts().equal;
      continue;
    }
    std::size_t i = 0;
    while (i < got.size() && i < ref.size() && got[i] == ref[i]) ++i;
    CHECK_MSG(false, "%s (%s memory): cuda's frame differs from cpu's first at byte %zu of %zu", what.c_str(), memory,
              i, ref.size());
  }
}

// The settings every stream is decoded at.
inline void every_setting(cf::Engine &cuda, cf::Engine &cpu, const std::vector<std::uint8_t> &data,
                          const std::string &name) {
  cf::J2kImageInfo info;
  try {
    info = cf::j2k_image_info(data.data(), data.size(), {});
  } catch (const cf::Error &) {
    ++frame_counts().refused;  // more than 4 components: j2k_decoder's own tests
    return;
  }
  bool u8 = true;
  for (int c = 0; c < info.components; ++c) u8 = u8 && info.bit_depth[c] <= 8;
  for (int reduce : {0, 1, 3})
    for (int layers : {0, 1}) {
      cf::J2kDecodeSettings s;
      s.reduce = reduce;
      s.layers = layers;
      const std::string what = name + ", reduce " + std::to_string(reduce) + ", layers " + std::to_string(layers);
      same_frame(cuda, cpu, data, s, cf::SampleType::U16, what + ", U16");
      if (u8 && reduce == 0) same_frame(cuda, cpu, data, s, cf::SampleType::U8, what + ", U8");
    }
  cf::J2kDecodeSettings s;
  for (int c = 0; c < info.components; ++c) s.shift_up[c] = 16 - info.bit_depth[c] > 3 ? 3 : 0;
  same_frame(cuda, cpu, data, s, cf::SampleType::U16, name + ", shifted up");
}

// Our encoder's codestreams of random frames of width x height.
inline void encoder_frames(cf::Engine &cuda, cf::Engine &cpu, int width, int height) {
  const int before = failures();
  OwnedFrame rgb = make_raw(Packing::Packed3, width, height, cf::SampleType::U8, 3);
  fill_random(rgb, 21);
  OwnedFrame rgba = make_raw(Packing::Packed4, width, height, cf::SampleType::U8, 4);
  fill_random(rgba, 22);
  OwnedFrame gray = make_raw(Packing::Gray, width, height, cf::SampleType::U16, 0);
  fill_random(gray, 23);
  OwnedFrame yuv = make_raw(Packing::Planar3, width, height, cf::SampleType::U8, 0, true);
  fill_random(yuv, 24);
  cf::J2kInput in_rgb, in_rgba, in_gray, in_yuv;
  in_rgb.frame = rgb.view;
  in_rgb.rgb = true;
  in_rgba.frame = rgba.view;
  in_rgba.rgb = true;
  in_gray.frame = gray.view;
  in_gray.bit_depth = 12;
  in_yuv.frame = yuv.view;
  for (int c = 1; c < 3; ++c) in_yuv.subsampling_x[c] = in_yuv.subsampling_y[c] = 2;
  std::vector<cf::J2kSettings> all;
  for (bool reversible : {true, false})
    for (int levels : {0, 1, 3, 5}) {
      cf::J2kSettings s;
      s.reversible = reversible;
      s.levels = levels;
      s.codeblock_width = 32;
      s.codeblock_height = 16;
      all.push_back(s);
    }
  cf::J2kSettings s;
  s.levels = 2;
  s.tile_width = 37;
  s.tile_height = 29;
  all.push_back(s);
  s.reversible = false;
  all.push_back(s);
  s = {};
  s.reversible = false;
  s.bitrate = 1;
  s.layers = 3;
  all.push_back(s);
  for (const cf::J2kSettings &t : all)
    for (const cf::J2kInput *in : {&in_rgb, &in_rgba, &in_gray, &in_yuv}) {
      const char *kind = in == &in_rgb ? "RGB" : in == &in_rgba ? "RGBA" : in == &in_gray ? "GRAY12" : "YUV 4:2:0";
      char name[160];
      std::snprintf(name, sizeof name, "%s %dx%d, %s, levels %d, tiles %dx%d, %d layers", kind, width, height,
                    t.reversible ? "5/3" : "9/7", t.levels, t.tile_width, t.tile_height, t.layers);
      if (!cf::j2k_encode_check(*in, t).empty()) continue;
      const std::vector<std::uint8_t> stream = j2k_decode_parity::encode(cpu, *in, t);
      every_setting(cuda, cpu, stream, name);
      if (t.tile_width == 0) continue;
      // Tiles decoded in one launch: each tile's problem as cpu's, the
      // first in tile order reported (a cut stream, damaged bytes).
      std::vector<std::uint8_t> cut(stream.begin(), stream.begin() + std::ptrdiff_t(stream.size() * 2 / 3));
      same_frame(cuda, cpu, cut, {}, cf::SampleType::U16, std::string(name) + ", cut at 2/3");
      std::vector<std::uint8_t> damaged = stream;
      for (std::size_t i = damaged.size() / 3; i < damaged.size() - 2; i += 97) damaged[i] ^= 0x5A;
      same_frame(cuda, cpu, damaged, {}, cf::SampleType::U16, std::string(name) + ", bytes damaged");
    }
  std::printf("whole frames of our encoder's codestreams: %s\n", failures() == before ? "same samples" : "DIFFERENT");
}

// Streams with absent code-blocks (the header's list).
inline void absent_block_frames(cf::Engine &cuda, cf::Engine &cpu, int width, int height) {
  const int before = failures();
  for (int grey_from : {width / 2, 0}) {
    OwnedFrame rgb = make_raw(Packing::Packed3, width, height, cf::SampleType::U8, 3);
    fill_random(rgb, 26);
    for (int y = 0; y < height; ++y)
      for (int x = grey_from; x < width; ++x)
        for (int c = 1; c < 3; ++c) write_sample(rgb.view, c, x, y, read_sample(rgb.view, 0, x, y));
    cf::J2kInput in;
    in.frame = rgb.view;
    in.rgb = true;
    for (bool reversible : {true, false}) {
      cf::J2kSettings s;
      s.reversible = reversible;
      s.levels = 2;
      s.tile_width = (width + 1) / 2;
      s.tile_height = height;
      const std::string name = std::string("RGB ") + std::to_string(width) + "x" + std::to_string(height) +
                               " grey from column " + std::to_string(grey_from) + ", " + (reversible ? "5/3" : "9/7");
      every_setting(cuda, cpu, j2k_decode_parity::encode(cpu, in, s), name);
    }
  }
  for (std::uint32_t components : {1u, 3u, 4u}) {
    cft::HandStream hs;
    hs.width = std::uint32_t(width), hs.height = std::uint32_t(height);
    hs.tile_width = hs.tile_height = 16;
    hs.components = components;
    hs.mct = components >= 3;
    hs.levels = 3;
    hs.precinct_exp = 2;
    hs.tile_parts = 3;  // the later tiles have none
    hs.body.assign(40, 0);
    every_setting(cuda, cpu, cft::hand_codestream(hs),
                  "hand-written " + std::to_string(components) + " components, packets of nothing");
  }
  std::printf("whole frames with absent code-blocks: %s\n", failures() == before ? "same samples" : "DIFFERENT");
}

// The conformance streams of at most `limit` bytes (0: all).
inline void conformance_frames(cf::Engine &cuda, cf::Engine &cpu, std::size_t limit) {
  std::vector<j2k_decode_parity::NamedStream> streams;
  std::size_t all = 0;
  if (!j2k_decode_parity::conformance_data(limit, "whole conformance frames", streams, all)) return;
  const int before = failures();
  for (const j2k_decode_parity::NamedStream &s : streams) every_setting(cuda, cpu, s.data, s.name);
  std::printf("whole frames of the conformance streams (%zu of %zu): %s\n", streams.size(), all,
              failures() == before ? "same samples" : "DIFFERENT");
}

}  // namespace cft::j2k_frame_parity
