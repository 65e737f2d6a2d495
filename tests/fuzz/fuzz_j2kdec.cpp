// Fuzz target: the JPEG 2000 decoder (cudafilters/j2k_decoder.hpp) on any
// bytes, on the cpu backend.
//
// The first byte chooses how the rest is read: bit 0 set, as a JP2 file
// (its first Contiguous Codestream box decoded, core/src/j2k_jp2.hpp),
// else as a codestream; bits 1-2 the reduction (0..3), bits 3-5 the layers
// kept (0: all). Then j2k_image_info, and J2kDecoder::decode into a frame
// of the sizes it reports, with J2kDecodeSettings::max_samples at
// kMaxSamples (the decoder refuses larger frames from their headers, and a
// frame it takes past that is a bug), in at most kMaxTiles tiles (so that
// every input runs in well under a second under the sanitizers: 3000 tiles
// of 3 x 5 take seconds there, each tile costing its plan and its
// allocations; a larger claim is still read up to its headers).
//
// Any cf::Error is a clean refusal; a crash, a sanitizer report, a leak, a
// timeout or an allocation past libFuzzer's limit is a bug. The output
// frame is padded on both sides with a known byte pattern, and the decoder
// must write neither outside the rows it was given nor into the padding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/src/j2k_jp2.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k_decoder.hpp"

namespace {

constexpr std::uint64_t kMaxSamples = std::uint64_t(1) << 21;
constexpr std::size_t kMaxTiles = 1024;
constexpr std::uint8_t kGuard = 0xA5;
constexpr int kPad = 16;  // guard bytes after each row and around each plane

[[noreturn]] void fail(const std::string &why) {
  std::fprintf(stderr, "fuzz_j2kdec: %s\n", why.c_str());
  std::abort();
}

void decode(const std::uint8_t *data, std::size_t size, const cf::J2kDecodeSettings &s) {
  const cf::J2kImageInfo info = cf::j2k_image_info(data, size, s);
  if (info.components < 1 || info.components > cf::kMaxPlanes)
    fail("j2k_image_info gave " + std::to_string(info.components) + " components");
  std::uint64_t samples = 0;
  int depth = 0;
  for (int c = 0; c < info.components; ++c) {
    if (info.component_width[c] < 0 || info.component_height[c] < 0 || info.bit_depth[c] < 1 || info.bit_depth[c] > 16)
      fail("j2k_image_info gave component " + std::to_string(c) + " of " + std::to_string(info.component_width[c]) +
           "x" + std::to_string(info.component_height[c]) + ", " + std::to_string(info.bit_depth[c]) + " bits");
    samples += std::uint64_t(info.component_width[c]) * std::uint64_t(info.component_height[c]);
    depth = depth > info.bit_depth[c] ? depth : info.bit_depth[c];
  }
  if (samples > kMaxSamples)
    fail("j2k_image_info took a frame of " + std::to_string(samples) + " samples, max_samples " +
         std::to_string(s.max_samples));
  if (cf::j2k::read_header(data, size).tiles.size() > kMaxTiles) return;
  const int bytes = depth > 8 ? 2 : 1;
  cf::FrameView v;
  v.type = bytes == 2 ? cf::SampleType::U16 : cf::SampleType::U8;
  v.n_planes = v.n_components = info.components;
  std::vector<std::vector<std::uint8_t>> buffers(std::size_t(info.components));
  for (int c = 0; c < info.components; ++c) {
    const int w = info.component_width[c], h = info.component_height[c];
    const std::size_t stride = std::size_t(w) * bytes + kPad;
    buffers[c].assign(stride * std::size_t(h) + 2 * kPad, kGuard);
    v.planes[c] = {buffers[c].data() + kPad, std::ptrdiff_t(stride), w * bytes, h};
    v.components[c] = {c, 0, 1, w, h};
  }
  cf::Engine engine(cf::Backend::Cpu);
  cf::J2kDecoder dec(engine);
  dec.decode(data, size, s, v);
  // Samples fit their depth; padding untouched.
  for (int c = 0; c < info.components; ++c) {
    const int w = info.component_width[c], h = info.component_height[c];
    const std::size_t stride = std::size_t(w) * bytes + kPad;
    const std::uint8_t *b = buffers[c].data();
    for (std::size_t i = 0; i < buffers[c].size(); ++i) {
      const bool pad = i < kPad || i >= kPad + stride * h || (i - kPad) % stride >= std::size_t(w) * bytes;
      if (pad && b[i] != kGuard) fail("component " + std::to_string(c) + ": a byte outside its samples written");
    }
    const std::uint32_t top = (1u << info.bit_depth[c]) - 1;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::uint8_t *p = b + kPad + std::size_t(y) * stride + std::size_t(x) * bytes;
        const std::uint32_t value = bytes == 2 ? std::uint32_t(p[0] | p[1] << 8) : p[0];
        if (value > top)
          fail("component " + std::to_string(c) + " (" + std::to_string(x) + "," + std::to_string(y) +
               "): " + std::to_string(value) + " over " + std::to_string(info.bit_depth[c]) + " bits");
      }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t flags = data[0];
  const std::uint8_t *stream = data + 1;
  std::size_t length = size - 1;
  cf::J2kDecodeSettings s;
  s.reduce = (flags >> 1) & 3;
  s.layers = (flags >> 3) & 7;
  s.max_samples = kMaxSamples;
  try {
    if (flags & 1) {
      const cf::j2k::Jp2Info jp2 = cf::j2k::read_jp2(stream, length);
      if (jp2.codestream.offset > length || jp2.codestream.length > length - jp2.codestream.offset)
        fail("read_jp2 gave a codestream outside the file");
      stream += jp2.codestream.offset;
      length = jp2.codestream.length;
    }
    decode(stream, length, s);
  } catch (const cf::Error &) {
  }
  return 0;
}
