// Checks that the cuda backend of the JPEG 2000 encoder gives the serial
// reference's codestream byte for byte, shared by the test on a GPU
// (tests/cuda/test_j2k_cuda_parity.cpp) and the same checks on the CPU
// emulation of the kernels (tests/cuda/emulation), which needs no GPU:
// random and photo content, GRAY8, GRAY16, RGB, RGBA and I420 inputs with
// padded rows, odd sizes, both paths, levels, tiles, code-block sizes and
// styles, code-blocks clipped by precincts, frames in host and in device memory, and an encoder kept over
// frames of one shape and then of another. When the reference refuses a
// setting, the cuda backend must refuse it with the same message.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "check.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k.hpp"
#include "frames.hpp"

// The backend's internal entries, for the overflow check (the source root is
// on the include path of both tests).
#include "core/codec/j2k_coded_blocks.hpp"
#include "core/codec/j2k_layout.hpp"
#include "core/src/j2k_settings.hpp"
#include "core/src/j2k_subband_weights.hpp"
#include "cpu/j2k_tier1.hpp"
#include "cpu/j2k_transform.hpp"
#include "kernels/j2k_encode_cuda.hpp"

#include "parity.hpp"  // DeviceFrame

namespace cft::j2k_parity {

struct Size {
  int w, h;
};

inline long long &runs() {
  static long long n = 0;
  return n;
}
inline long long &refused() {  // runs that both backends refused
  static long long n = 0;
  return n;
}

enum class Input { Gray8, Gray16, Rgb, Rgba, I420 };
inline const char *input_name(Input k) {
  switch (k) {
    case Input::Gray8: return "GRAY8";
    case Input::Gray16: return "GRAY16";
    case Input::Rgb: return "RGB";
    case Input::Rgba: return "RGBA";
    case Input::I420: return "I420";
  }
  return "?";
}

// A frame of that layout, rows padded by `pad` bytes.
inline OwnedFrame make_frame(Input k, Size s, int pad) {
  switch (k) {
    case Input::Gray8: return make_raw(Packing::Gray, s.w, s.h, cf::SampleType::U8, pad);
    case Input::Gray16: return make_raw(Packing::Gray, s.w, s.h, cf::SampleType::U16, pad);
    case Input::Rgb: return make_raw(Packing::Packed3, s.w, s.h, cf::SampleType::U8, pad);
    case Input::Rgba: return make_raw(Packing::Packed4, s.w, s.h, cf::SampleType::U8, pad);
    case Input::I420: return make_raw(Packing::Planar3, s.w, s.h, cf::SampleType::U8, pad, true);
  }
  return {};
}

inline cf::J2kInput input_of(Input k, const cf::FrameView &f) {
  cf::J2kInput in;
  in.frame = f;
  in.bit_depth = f.type == cf::SampleType::U16 ? 16 : 8;
  in.rgb = k == Input::Rgb || k == Input::Rgba;
  if (k == Input::I420)
    for (int c = 1; c < 3; ++c) in.subsampling_x[c] = in.subsampling_y[c] = 2;
  return in;
}

struct Outcome {
  std::vector<std::uint8_t> bytes;
  std::string error;
};

inline Outcome encode(cf::J2kEncoder &e, const cf::J2kInput &in, const cf::J2kSettings &s) {
  Outcome o;
  try {
    e.encode(in, s, o.bytes);
  } catch (const cf::Error &x) {
    o.error = x.what();
  }
  return o;
}

inline std::string describe(const cf::J2kSettings &s) {
  char b[280];
  std::snprintf(b, sizeof b,
                "%s %s levels %d, code-blocks %dx%d, tiles %dx%d, style 0x%x, %g bpp, %d layers, %d HT planes, "
                "%d Part 1 planes below, max %llu bytes",
                cf::j2k_block_coder_name(s.block_coder), s.reversible ? "reversible" : "irreversible", s.levels,
                s.codeblock_width, s.codeblock_height, s.tile_width, s.tile_height, s.codeblock_style, s.bitrate,
                s.layers, s.ht_rate_planes, s.part1_planes_below, (unsigned long long)s.max_bytes);
  return b;
}

// The reference's outcome against the tested one, byte for byte.
inline void same(const Outcome &ref, const Outcome &got, const std::string &what) {
  ++runs();
  if (!ref.error.empty()) ++refused();
  CHECK_MSG(ref.error == got.error, "%s: reference error \"%s\", cuda \"%s\"", what.c_str(), ref.error.c_str(),
            got.error.c_str());
  if (ref.bytes == got.bytes) return;
  std::size_t i = 0;
  while (i < ref.bytes.size() && i < got.bytes.size() && ref.bytes[i] == got.bytes[i]) ++i;
  CHECK_MSG(false, "%s: codestreams of %zu (reference) and %zu bytes differ first at byte %zu", what.c_str(),
            ref.bytes.size(), got.bytes.size(), i);
}

inline void compare(cf::Engine &cuda, cf::Engine &cpu, const cf::J2kInput &in, const cf::J2kSettings &s,
                    const std::string &what) {
  cf::J2kEncoder ref(cpu), got(cuda);
  same(encode(ref, in, s), encode(got, in, s), what + ", " + describe(s));
}

// Settings that the frame allows: both paths, levels from 0 to 5, code-block
// sizes, tiles of 16 x 16 (with partial ones at the edges) and of 18 x 10
// (odd origins at lower resolutions), the style
// switches, a target rate over quality layers, and HT code-blocks.
inline std::vector<cf::J2kSettings> settings_for(const cf::J2kInput &in) {
  std::vector<cf::J2kSettings> all;
  for (bool reversible : {true, false})
    for (int levels : {0, 1, 2, 5}) {
      cf::J2kSettings s;
      s.reversible = reversible;
      s.levels = levels;
      all.push_back(s);
    }
  cf::J2kSettings s;
  s.levels = 2;
  s.codeblock_width = 16;
  s.codeblock_height = 4;
  all.push_back(s);
  s.codeblock_width = 4;
  s.codeblock_height = 32;
  s.codeblock_style = cf::j2k_style::kReset | cf::j2k_style::kVerticalCausal;
  all.push_back(s);
  s.codeblock_width = s.codeblock_height = 8;
  s.codeblock_style = cf::j2k_style::kAll;
  all.push_back(s);
  s.codeblock_style = cf::j2k_style::kBypass;
  s.reversible = false;
  all.push_back(s);
  s = {};
  s.levels = 1;
  s.tile_width = s.tile_height = 16;
  all.push_back(s);
  s.reversible = false;
  s.codeblock_width = s.codeblock_height = 8;
  all.push_back(s);
  // Tiles whose second resolution starts on an odd column and row (18 -> 9,
  // 10 -> 5; I420's chroma from the first): the transform's high-pass
  // samples come first there.
  for (bool reversible : {true, false}) {
    s = {};
    s.reversible = reversible;
    s.levels = 2;
    s.tile_width = 18;
    s.tile_height = 10;
    s.codeblock_width = s.codeblock_height = 8;
    all.push_back(s);
  }
  // Rate allocation reads the passes' distortions and lengths.
  s = {};
  s.reversible = false;
  s.levels = 2;
  s.codeblock_width = s.codeblock_height = 16;
  s.bitrate = 1.5;
  s.layers = 3;
  all.push_back(s);
  for (bool reversible : {true, false})
    for (int levels : {0, 2, 5}) {
      s = {};
      s.block_coder = cf::J2kBlockCoder::Ht;
      s.reversible = reversible;
      s.levels = levels;
      all.push_back(s);
    }
  s.codeblock_width = 4;
  s.codeblock_height = 32;
  s.tile_width = s.tile_height = 16;
  s.codeblock_style = cf::j2k_style::kVerticalCausal;
  all.push_back(s);
  s = {};  // rows of quads longer than the cuda kernel's 32-quad step
  s.block_coder = cf::J2kBlockCoder::Ht;
  s.levels = 0;
  s.codeblock_width = 256;
  s.codeblock_height = 16;
  all.push_back(s);
  s.reversible = false;
  s.bitrate = 2;
  all.push_back(s);
  s = {};  // HT at a target rate: a window of cleanup planes, or every one
  s.block_coder = cf::J2kBlockCoder::Ht;
  s.reversible = false;
  s.levels = 2;
  s.codeblock_width = s.codeblock_height = 16;
  s.bitrate = 1.5;
  all.push_back(s);
  s.ht_rate_planes = 0;
  all.push_back(s);
  s = {};  // Part 1 at a target rate: down to the estimated plane, or every plane
  s.reversible = false;
  s.levels = 2;
  s.codeblock_width = s.codeblock_height = 16;
  s.bitrate = 1.5;
  s.part1_planes_below = 0;
  all.push_back(s);
  s.part1_planes_below = -1;
  all.push_back(s);
  s = {};  // a byte limit on reversible coding, both block coders
  s.levels = 2;
  s.max_bytes = 700;
  all.push_back(s);
  s.block_coder = cf::J2kBlockCoder::Ht;
  all.push_back(s);
  std::vector<cf::J2kSettings> ok;
  for (const cf::J2kSettings &t : all)
    if (cf::j2k_encode_check(in, t).empty()) ok.push_back(t);
  return ok;
}

inline void random_frames(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes,
                          const std::vector<Input> &inputs) {
  const int before = failures();
  std::uint32_t seed = 1;
  for (Size z : sizes)
    for (Input k : inputs) {
      OwnedFrame f = make_frame(k, z, int(seed % 3) * 5);
      fill_random(f, seed++);
      const cf::J2kInput in = input_of(k, f.view);
      const std::string what =
          std::string("random ") + input_name(k) + " " + std::to_string(z.w) + "x" + std::to_string(z.h);
      for (const cf::J2kSettings &s : settings_for(in)) compare(cuda, cpu, in, s, what);
    }
  std::printf("random frames: %s\n", failures() == before ? "same codestreams" : "DIFFERENT");
}

// The photos resampled to `size` (their own size when null): RGB through the
// colour transform, and GRAY8; reversible, irreversible, and at a target
// rate in four layers.
inline void photos(cf::Engine &cuda, cf::Engine &cpu, const Size *size) {
  const int before = failures();
  for (const Photo &p : load_photos()) {
    const Size z = size ? *size : Size{p.width, p.height};
    for (Input k : {Input::Rgb, Input::Gray8}) {
      OwnedFrame f = make_frame(k, z, 0);
      fill_from_rgb(f, p.width, p.height, p.rgb);
      const cf::J2kInput in = input_of(k, f.view);
      for (double bitrate : {-1.0, 0.0, 0.8}) {
        cf::J2kSettings s;
        s.reversible = bitrate < 0;
        s.bitrate = std::max(bitrate, 0.0);
        s.layers = bitrate > 0 ? 4 : 1;
        compare(cuda, cpu, in, s, p.name + " " + input_name(k));
      }
    }
  }
  std::printf("photos: %s\n", failures() == before ? "same codestreams" : "DIFFERENT");
}

// Rows longer than the row kernel's line of shared memory (12288 samples)
// are lifted in global memory: a frame just wider than that.
inline void wide_rows(cf::Engine &cuda, cf::Engine &cpu) {
  const int before = failures();
  OwnedFrame f = make_frame(Input::Gray8, {12301, 3}, 0);
  fill_random(f, 300);
  const cf::J2kInput in = input_of(Input::Gray8, f.view);
  for (bool reversible : {true, false}) {
    cf::J2kSettings s;
    s.reversible = reversible;
    s.levels = 1;
    compare(cuda, cpu, in, s, "GRAY8 12301x3");
  }
  std::printf("rows longer than shared memory: %s\n", failures() == before ? "same codestreams" : "DIFFERENT");
}

// One encoder per backend over a sequence of frames: two of one shape (the
// plan kept), one of another shape (a new plan), the first shape again.
inline void sequence(cf::Engine &cuda, cf::Engine &cpu, Size a, Size b) {
  const int before = failures();
  cf::J2kEncoder ref(cpu), got(cuda);
  cf::J2kSettings s;
  s.levels = 2;
  s.codeblock_width = s.codeblock_height = 16;
  std::uint32_t seed = 100;
  for (Size z : {a, a, b, a}) {
    OwnedFrame f = make_frame(Input::Rgb, z, 3);
    fill_random(f, seed++);
    const cf::J2kInput in = input_of(Input::Rgb, f.view);
    same(encode(ref, in, s), encode(got, in, s), "frame " + std::to_string(seed) + " of a sequence");
  }
  std::printf("a sequence of frames: %s\n", failures() == before ? "same codestreams" : "DIFFERENT");
}

// Slots of `capacity` bytes for every block, back to back.
inline cf::j2k::CodedBlocks slots_of(std::size_t blocks, std::uint32_t capacity) {
  cf::j2k::CodedBlocks c;
  c.capacity.assign(blocks, capacity);
  c.offset.resize(blocks);
  for (std::size_t b = 0; b < blocks; ++b) c.offset[b] = b * capacity;
  c.data.resize(blocks * capacity);
  c.results.resize(blocks);
  c.pass_lengths.resize(blocks * cf::j2k::kMaxPasses);
  c.pass_distortion.resize(blocks * cf::j2k::kMaxPasses);
  return c;
}

// Block b of `got` against the reference's: status, passes, bytes, pass lengths
// and distortions, codeword.
inline bool same_block(const cf::j2k::CodedBlocks &ref, const cf::j2k::CodedBlocks &got, std::size_t b) {
  const cf::j2k::t1::BlockResult &r = ref.results[b], &g = got.results[b];
  if (r.status != g.status || r.passes != g.passes || r.bytes != g.bytes || r.zero_bitplanes != g.zero_bitplanes)
    return false;
  if (r.distortion_shift != g.distortion_shift) return false;
  const std::size_t p = b * cf::j2k::kMaxPasses;
  return std::equal(ref.pass_lengths.begin() + p, ref.pass_lengths.begin() + p + r.passes,
                    got.pass_lengths.begin() + p) &&
         std::equal(ref.pass_distortion.begin() + p, ref.pass_distortion.begin() + p + r.passes,
                    got.pass_distortion.begin() + p) &&
         std::equal(ref.codeword(b), ref.codeword(b) + r.bytes, got.codeword(b));
}

// The backend's entry with slots too small for most blocks: those report
// kOverflow with the length they need, the others their codeword; the
// coefficients come back to the host for the encoder to code them again.
// Then slots grown as the encoder grows them, with the same plan: every
// block as the reference codes it. A frame without overflow leaves the host
// coefficients alone. For either block coder.
inline void overflow(cf::Engine &cuda, cf::J2kBlockCoder coder) {
  namespace j2k = cf::j2k;
  const int before = failures();
  OwnedFrame f = make_frame(Input::Rgb, {45, 37}, 0);
  fill_random(f, 7);
  const cf::J2kInput in = input_of(Input::Rgb, f.view);
  cf::J2kSettings s;
  s.levels = 2;
  s.codeblock_width = s.codeblock_height = 16;
  s.block_coder = coder;
  const j2k::Layout l = j2k::make_layout(j2k::codestream_params(in, s));
  const unsigned style = l.params.cb_style;
  const std::size_t n = l.blocks.size();
  std::vector<std::int32_t> ref_coefficients(l.coefficient_count);
  cf::cpu::j2k_transform(in, l, {}, ref_coefficients.data());
  j2k::CodedBlocks ref = slots_of(n, 4096);
  cf::cpu::j2k_code_blocks(l, ref_coefficients.data(), style, ref);

  constexpr std::uint32_t kSmall = 40;
  j2k::CodedBlocks got = slots_of(n, kSmall);
  std::vector<std::int32_t> coefficients(l.coefficient_count, -12345);
  cf::cuda::J2kPlanPtr plan;
  cf::cuda::j2k_transform(cuda.cuda(), plan, in, l, {});
  cf::cuda::j2k_code_blocks(cuda.cuda(), *plan, style, coefficients.data(), got);
  std::size_t overflowed = 0;
  for (std::size_t b = 0; b < n; ++b) {
    const bool over = ref.results[b].bytes > int(kSmall);
    overflowed += over;
    if (over)
      CHECK_MSG(
          got.results[b].status == j2k::t1::BlockStatus::kOverflow && got.results[b].bytes == ref.results[b].bytes,
          "block %zu of %d bytes in a slot of %u: status %d, %d bytes", b, ref.results[b].bytes, kSmall,
          int(got.results[b].status), got.results[b].bytes);
    else
      CHECK_MSG(same_block(ref, got, b), "block %zu, which fits its slot, differs from the reference", b);
  }
  CHECK_MSG(overflowed > 0 && overflowed < n, "%zu of %zu blocks overflowed: the check needs some of each", overflowed,
            n);
  CHECK_MSG(coefficients == ref_coefficients, "the coefficients brought back for the overflowed blocks differ");

  for (std::size_t b = 0; b < n; ++b)
    if (got.results[b].status == j2k::t1::BlockStatus::kOverflow)
      got.capacity[b] = std::uint32_t(got.results[b].bytes) + 64;
  std::size_t total = 0;
  for (std::uint32_t c : got.capacity) total += c;
  got.data.resize(total);
  std::fill(coefficients.begin(), coefficients.end(), -12345);
  cf::cuda::j2k_transform(cuda.cuda(), plan, in, l, {});
  cf::cuda::j2k_code_blocks(cuda.cuda(), *plan, style, coefficients.data(), got);
  for (std::size_t b = 0; b < n; ++b)
    CHECK_MSG(same_block(ref, got, b), "block %zu in its grown slot differs from the reference", b);
  CHECK_MSG(std::all_of(coefficients.begin(), coefficients.end(), [](std::int32_t v) { return v == -12345; }),
            "a frame without overflow copied the coefficients back");
  std::printf("overflowed %s slots (%zu of %zu blocks): %s\n", cf::j2k_block_coder_name(coder), overflowed, n,
              failures() == before ? "reported, then coded in grown slots" : "WRONG");
}

// Rate control's estimate of every plane of every block (HT: a cleanup
// pass at each; Part 1: the passes down to each), and the blocks coded at
// windows of planes: the reference's results, lengths and distortions (and
// codewords), on a random frame and a photo's.
inline void plane_estimates(cf::Engine &cuda, cf::J2kBlockCoder coder) {
  namespace j2k = cf::j2k;
  const int before = failures();
  const std::vector<Photo> photos = load_photos();
  const bool ht = coder == cf::J2kBlockCoder::Ht;
  for (int frame = 0; frame < 2; ++frame) {
    OwnedFrame f = make_frame(Input::Rgb, {83, 61}, 0);
    if (frame == 0 || photos.empty())
      fill_random(f, 11);
    else
      fill_from_rgb(f, photos[0].width, photos[0].height, photos[0].rgb);
    const cf::J2kInput in = input_of(Input::Rgb, f.view);
    cf::J2kSettings s;
    s.reversible = false;
    s.levels = 3;
    s.codeblock_width = s.codeblock_height = 16;
    s.block_coder = coder;
    const j2k::Layout l = j2k::make_layout(j2k::codestream_params(in, s));
    const unsigned style = l.params.cb_style | (ht ? j2k::ht::kCandidatePlanes : 0u);
    const std::size_t n = l.blocks.size();
    const std::vector<j2k::SubbandStep> steps = j2k::irreversible_steps(8, 3);
    const std::vector<float> reciprocals = j2k::step_reciprocals(steps, 8, 3);
    std::vector<std::int32_t> coefficients(l.coefficient_count);
    cf::cpu::j2k_transform(in, l, reciprocals, coefficients.data());
    j2k::CodedBlocks ref = slots_of(n, 8192), got = slots_of(n, 8192);
    cf::cpu::j2k_estimate_planes(l, coefficients.data(), style, ref);
    cf::cuda::J2kPlanPtr plan;
    cf::cuda::j2k_transform(cuda.cuda(), plan, in, l, reciprocals);
    cf::cuda::j2k_estimate_planes(cuda.cuda(), *plan, style, got);
    for (std::size_t b = 0; b < n; ++b) {
      const j2k::t1::BlockResult &r = ref.results[b], &g = got.results[b];
      const std::size_t p = b * j2k::kMaxPasses;
      CHECK_MSG(r.status == g.status && r.passes == g.passes && r.zero_bitplanes == g.zero_bitplanes &&
                    std::equal(ref.pass_lengths.begin() + p, ref.pass_lengths.begin() + p + r.passes,
                               got.pass_lengths.begin() + p) &&
                    std::equal(ref.pass_distortion.begin() + p, ref.pass_distortion.begin() + p + r.passes,
                               got.pass_distortion.begin() + p),
                "frame %d, block %zu: the plane estimates differ from the reference's", frame, b);
    }
    // Windows of every shape: one plane, from the top, clamped at plane 0.
    ref.windows.resize(n);
    for (std::size_t b = 0; b < n; ++b) ref.windows[b] = {std::uint8_t(b % 5), std::uint8_t(1 + b % 3)};
    got.windows = ref.windows;
    cf::cpu::j2k_code_blocks(l, coefficients.data(), style, ref);
    cf::cuda::j2k_code_blocks(cuda.cuda(), *plan, style, coefficients.data(), got);
    for (std::size_t b = 0; b < n; ++b)
      CHECK_MSG(same_block(ref, got, b), "frame %d, block %zu: %s coded at window (%d, %d) differs", frame, b,
                cf::j2k_block_coder_name(coder), ref.windows[b].top, ref.windows[b].count);
  }
  std::printf("%s plane estimates and windows of planes: %s\n", cf::j2k_block_coder_name(coder),
              failures() == before ? "the reference's" : "DIFFERENT");
}

// Precincts that clip the code-blocks (T.800 B.7): 64 x 64 blocks under
// 32 x 32 precincts (16 x 16 blocks above resolution 0), PPx != PPy down
// to 2 x 1 blocks, 1 x 1 blocks under 1 x 1 precincts at resolution 0,
// with tiles and I420's subsampled chroma; Part 1 in every style switch
// and HT, reversible, irreversible and at a rate. The cuda backend's
// blocks are sized by the nominal code-block, which clipping only shrinks.
inline void clipped_blocks(cf::Engine &cuda, cf::Engine &cpu, Size z) {
  const int before = failures();
  std::vector<cf::J2kSettings> all;
  cf::J2kSettings s;
  s.levels = 2;
  s.precincts = {{5, 5}};
  all.push_back(s);
  s.precincts = {{4, 5}, {2, 1}, {0, 0}};
  s.progression = cf::J2kProgression::Pcrl;
  all.push_back(s);
  s.codeblock_style = cf::j2k_style::kAll;
  s.reversible = false;
  all.push_back(s);
  s = {};
  s.levels = 2;
  s.precincts = {{5, 4}, {3, 3}};
  s.tile_width = z.w / 2 + 3;  // two tiles each way, the second a little smaller
  s.tile_height = z.h / 2 + 3;
  s.reversible = false;
  s.bitrate = 1.5;
  s.layers = 2;
  all.push_back(s);
  s = {};
  s.levels = 2;
  s.block_coder = cf::J2kBlockCoder::Ht;
  s.precincts = {{4, 3}, {2, 2}};
  all.push_back(s);
  s.reversible = false;
  s.bitrate = 2;
  all.push_back(s);
  std::uint32_t seed = 400;
  for (Input k : {Input::Rgb, Input::I420}) {
    OwnedFrame f = make_frame(k, z, 3);
    fill_random(f, seed++);
    const cf::J2kInput in = input_of(k, f.view);
    for (const cf::J2kSettings &t : all) {
      const std::string what = std::string("clipped blocks ") + input_name(k) + " " + std::to_string(z.w) + "x" +
                               std::to_string(z.h) + ", precincts " + cf::j2k_precincts_text(t.precincts);
      const std::string why = cf::j2k_encode_check(in, t);
      CHECK_MSG(why.empty(), "%s: refused (%s): the case checks nothing", what.c_str(), why.c_str());
      compare(cuda, cpu, in, t, what);
    }
  }
  std::printf("code-blocks clipped by precincts: %s\n", failures() == before ? "same codestreams" : "DIFFERENT");
}

#if CFT_HAVE_CUDART
// Frames in device memory, read in place by the cuda backend: the same
// codestream as the reference's from the host copy.
inline void device_frames(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes) {
  const int before = failures();
  std::uint32_t seed = 200;
  for (Size z : sizes)
    for (Input k : {Input::Gray16, Input::Rgba, Input::I420}) {
      OwnedFrame f = make_frame(k, z, 7);
      fill_random(f, seed++);
      const parity::DeviceFrame d(f.view);
      for (bool reversible : {true, false}) {
        cf::J2kSettings s;
        s.reversible = reversible;
        s.levels = 2;
        s.codeblock_width = s.codeblock_height = 16;
        cf::J2kEncoder ref(cpu), got(cuda);
        same(encode(ref, input_of(k, f.view), s), encode(got, input_of(k, d.view), s),
             std::string("device ") + input_name(k) + " " + std::to_string(z.w) + "x" + std::to_string(z.h) + ", " +
                 describe(s));
      }
    }
  std::printf("frames in device memory: %s\n", failures() == before ? "same codestreams" : "DIFFERENT");
}
#endif

}  // namespace cft::j2k_parity
