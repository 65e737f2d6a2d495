// Checks that the JPEG 2000 decoder's tier-1 on CUDA
// (cf::cuda::j2k_decode_blocks) gives the samples and the problem of the
// serial reference (cf::cpu::j2k_decode_blocks), shared by the test on a GPU
// (tests/cuda/test_j2k_decode_cuda_parity.cpp) and the same checks on the CPU
// emulation of the kernels (tests/cuda/emulation):
//  - tiles made of random code-blocks coded by t1::encode_block (odd sizes,
//    the four orientations, magnitudes up to 2^30, all 64 style
//    combinations, Mb above the planes used, fraction bits), cut after a
//    random number of passes at the encoder's truncation points and split
//    into chunks scattered over the tile's bytes as layers scatter them; some
//    blocks damaged (bytes changed, segment lengths, passes, zero bit-planes,
//    Mb out of range) so that several blocks of a tile are bad and the
//    problem must be the lowest-numbered one's; some bands skipped;
//  - codestreams of our encoder (every style switch, both paths, levels,
//    code-block sizes, tiles, layers at a rate) and the T.803 conformance
//    streams (CF_J2K_CONFORMANCE; skipped when unset), read through
//    read_header, make_tile_plan and read_tile_packets, every layer and
//    fewer, with a reduced resolution.
// Both entries: into device memory (poisoned first: every sample must be
// written or zeroed) and into host memory. A warm engine allocates nothing
// for a tile it has had.
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
#include "core/codec/j2k_header.hpp"
#include "core/codec/j2k_packet_reader.hpp"
#include "core/codec/j2k_tile_plan.hpp"
#include "core/shared/j2k_block_coder_rules.hpp"
#include "core/shared/j2k_ht_block_coder_rules.hpp"
#include "core/src/j2k_jp2.hpp"
#include "cpu/j2k_tier1_decode.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k.hpp"
#include "frames.hpp"
#include "kernels/j2k_tier1_decode_cuda.hpp"

namespace cft::j2k_decode_parity {

namespace j2k = cf::j2k;
namespace t1 = cf::j2k::t1;

struct Counts {
  long long tiles = 0, blocks = 0, problems = 0;
};
inline Counts &counts() {
  static Counts c;
  return c;
}

constexpr std::int32_t kPoison = 0x5A5A5A5A;

// The tile through both backends and both entries of cuda: the same samples
// and problem as the reference's.
inline void same_tile(cf::Engine &cuda, const j2k::TilePlan &plan, const j2k::TileCodewords &cw,
                      const std::vector<j2k::BandDecoding> &bands, const std::string &what) {
  const std::size_t n = plan.coefficient_count;
  std::vector<std::int32_t> ref(n, 0);
  const std::string ref_problem = cf::cpu::j2k_decode_blocks(plan, cw, bands, ref.data());

  std::vector<std::int32_t> host(n, kPoison);
  const std::string host_problem = cf::cuda::j2k_decode_blocks_to_host(cuda.cuda(), plan, cw, bands, host.data());
  CHECK_MSG(host_problem == ref_problem, "%s: reference problem \"%s\", cuda (host) \"%s\"", what.c_str(),
            ref_problem.c_str(), host_problem.c_str());
  CHECK_MSG(host == ref, "%s: cuda's coefficients (host) differ from the reference's", what.c_str());

  std::vector<std::int32_t> device(std::max<std::size_t>(n, 1), kPoison);
  void *d = cuda.device_alloc(sizeof(std::int32_t) * device.size());
  cuda.upload(d, device.data(), sizeof(std::int32_t) * device.size());
  const std::string device_problem =
      cf::cuda::j2k_decode_blocks(cuda.cuda(), plan, cw, bands, static_cast<std::int32_t *>(d));
  cuda.download(device.data(), d, sizeof(std::int32_t) * device.size());
  cuda.device_free(d);
  device.resize(n);
  CHECK_MSG(device_problem == ref_problem, "%s: reference problem \"%s\", cuda (device) \"%s\"", what.c_str(),
            ref_problem.c_str(), device_problem.c_str());
  if (device != ref) {
    std::size_t i = 0;
    while (device[i] == ref[i]) ++i;
    CHECK_MSG(false, "%s: cuda's coefficients (device) differ from the reference's first at %zu: %d, not %d",
              what.c_str(), i, device[i], ref[i]);
  }
  ++counts().tiles;
  for (const j2k::BlockCodeword &cb : cw.blocks) counts().blocks += j2k::block_decoded(plan, cb, bands);
  counts().problems += !ref_problem.empty();
}

// ---- Tiles of random code-blocks ----

struct RandomBlock {
  int width, height;
  std::vector<std::int32_t> v;
};

inline RandomBlock random_block(std::mt19937 &rng, int w, int h, int bits) {
  RandomBlock b{w, h, std::vector<std::int32_t>(std::size_t(w) * h)};
  const double density = (rng() % 4 + 1) / 4.0;
  std::uniform_real_distribution<double> u(0, 1);
  for (auto &v : b.v) {
    if (u(rng) >= density) continue;
    const int len = 1 + int(rng() % std::uint32_t(bits));
    const std::int32_t m = std::int32_t(rng() & ((1u << len) - 1));
    v = (rng() & 1) ? -m : m;
  }
  return b;
}

inline int planes_of(const RandomBlock &b) {
  std::uint32_t any = 0;
  for (std::int32_t v : b.v) any |= v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v);
  int n = 0;
  while (n < 32 && (any >> n) != 0) ++n;
  return n;
}

// A block's sides: mostly ordinary, some thin or long.
inline void random_size(std::mt19937 &rng, int &w, int &h) {
  switch (rng() % 6) {
    case 0: w = 1 + int(rng() % 4), h = 1 + int(rng() % 64); break;
    case 1: w = 64, h = 64; break;
    case 2: w = 1 + int(rng() % 256), h = 1 + int(rng() % 4); break;
    default: w = 1 + int(rng() % 64), h = 1 + int(rng() % 64);
  }
  h = std::min(h, t1::kMaxBlockArea / w);
}

// Damage to a block's inputs that the decoder must survive as the reference
// does: the problem names one of them.
// TailBytes: bytes near the end (an HT block's MEL and VLC, Scup spared).
enum class Damage { None, Bytes, TailBytes, SegmentLength, Passes, ZeroBitplanes, Bitplanes, Count };

// One tile of `blocks` random code-blocks in two components, each block its
// own subband, half of them Part 1 and half HT; shelves of blocks in each
// component's array.
inline void random_tile(cf::Engine &cuda, std::mt19937 &rng, int blocks, bool damage, const std::string &what) {
  j2k::TilePlan plan;
  j2k::TileCodewords cw;
  std::vector<j2k::BandDecoding> bands;
  std::vector<std::vector<std::uint8_t>> codewords;
  constexpr std::uint32_t kWidth = 300;
  std::uint32_t shelf_y[2] = {0, 0}, shelf_x[2] = {0, 0}, shelf_h[2] = {0, 0};
  for (int i = 0; i < blocks; ++i) {
    const std::uint32_t c = rng() % 2;
    int w, h;
    random_size(rng, w, h);
    if (shelf_x[c] + std::uint32_t(w) > kWidth) shelf_y[c] += shelf_h[c], shelf_x[c] = 0, shelf_h[c] = 0;
    j2k::PlanBand band;
    band.orientation = j2k::Orientation(rng() % 4);
    band.component = c;
    j2k::PlanBlock blk;
    blk.band = std::uint32_t(plan.bands.size());
    blk.rect = {0, 0, std::uint32_t(w), std::uint32_t(h)};
    blk.buffer_x = shelf_x[c];
    blk.buffer_y = shelf_y[c];
    shelf_x[c] += std::uint32_t(w);
    shelf_h[c] = std::max(shelf_h[c], std::uint32_t(h));
    plan.bands.push_back(band);

    j2k::BandDecoding d;
    const bool ht = rng() % 2 == 0;  // an HT block: one cleanup pass at a random plane
    d.style = ht ? j2k::ht::kStyleHt | (rng() % 2 ? t1::kStyleVerticalCausal : 0u) : rng() % 64;
    d.skip = rng() % 16 == 0;
    d.fraction_bits = int(rng() % 2);
    const int bits = rng() % 8 == 0 ? 30 : 1 + int(rng() % 20);
    const RandomBlock b = random_block(rng, w, h, bits);
    const int planes = planes_of(b);
    d.magnitude_bitplanes = std::min(t1::kMaxDecodeBitplanes, planes + int(rng() % 3));
    bands.push_back(d);

    // Coded, then cut after k passes at its truncation point, its segments
    // as pass_ends_segment groups the k passes.
    std::vector<std::uint8_t> work(std::size_t(t1::block_work_bytes(w, h))),
        bytes(std::size_t(w) * h * (ht ? 128 : 16) + 256);  // room for 30 bit-planes of noise (HT: every candidate)
    std::vector<int> lengths(std::size_t(std::max(1, t1::max_pass_count(d.magnitude_bitplanes))));
    const t1::BlockInput in{b.v.data(), w, h, w, t1::Orientation(band.orientation), d.magnitude_bitplanes, d.style};
    const t1::BlockOutput out{work.data(),    bytes.data(),        int(bytes.size()),
                              lengths.data(), int(lengths.size()), nullptr};
    j2k::BlockCodeword cb;
    cb.index = std::uint32_t(i);
    cb.block = blk;
    if (ht) {
      // Every cleanup plane a candidate, back to back; one of them kept.
      t1::BlockInput candidates = in;
      candidates.style |= j2k::ht::kCandidatePlanes;
      const t1::BlockResult res = j2k::ht::encode_ht_block(candidates, out, j2k::ht::encode_tables());
      CHECK_MSG(res.status == t1::BlockStatus::kOk, "%s: the HT encoder refused block %d (status %d)", what.c_str(), i,
                int(res.status));
      const int kept = res.passes ? int(rng() % std::uint32_t(res.passes)) : 0;
      int start = 0;
      for (int c = 0; c < kept; ++c) start += lengths[std::size_t(c)];
      cb.passes = res.passes && rng() % 4 ? 1 : 0;
      cb.zero_bitplanes = std::uint32_t(res.zero_bitplanes + kept);
      const int length = cb.passes ? lengths[std::size_t(kept)] : 0;
      if (cb.passes) cb.segment_lengths.push_back(std::uint32_t(length));
      bytes.erase(bytes.begin(), bytes.begin() + start);
      bytes.resize(std::size_t(length));
    } else {
      const t1::BlockResult res = t1::encode_block(in, out);
      CHECK_MSG(res.status == t1::BlockStatus::kOk, "%s: the encoder refused block %d (status %d)", what.c_str(), i,
                int(res.status));
      cb.zero_bitplanes = std::uint32_t(res.zero_bitplanes);
      const int k = res.passes == 0 ? 0 : rng() % 4 == 0 ? res.passes : int(rng() % std::uint32_t(res.passes + 1));
      cb.passes = std::uint32_t(k);
      const int length = k ? lengths[std::size_t(k - 1)] : 0;
      for (int p = 0, start = 0; p < k; ++p)
        if (t1::pass_ends_segment(d.style, p, k)) {
          cb.segment_lengths.push_back(std::uint32_t(lengths[std::size_t(p)] - start));
          start = lengths[std::size_t(p)];
        }
      bytes.resize(std::size_t(length));
    }
    // HT blocks more often, half of them in MEL and VLC: where decoding
    // stops inside a row matters there.
    Damage dmg = Damage::None;
    if (damage && rng() % (ht ? 2 : 5) == 0)
      dmg = ht && rng() % 2 ? Damage::TailBytes : Damage(1 + rng() % (int(Damage::Count) - 1));
    switch (dmg) {
      case Damage::Bytes:
        for (int j = 0; j < 3 && !bytes.empty(); ++j) bytes[rng() % bytes.size()] ^= std::uint8_t(1 + rng() % 255);
        break;
      case Damage::TailBytes:
        for (int j = 0; j < 3 && bytes.size() > 2; ++j)
          bytes[bytes.size() - 3 - rng() % std::min<std::size_t>(bytes.size() - 2, 16)] ^=
              std::uint8_t(1 + rng() % 255);
        break;
      case Damage::SegmentLength:
        if (!cb.segment_lengths.empty()) cb.segment_lengths[rng() % cb.segment_lengths.size()] += 1 + rng() % 3;
        break;
      case Damage::Passes: cb.passes = std::uint32_t(t1::max_pass_count(d.magnitude_bitplanes) + 1); break;
      case Damage::ZeroBitplanes: cb.zero_bitplanes = std::uint32_t(d.magnitude_bitplanes + 1); break;
      case Damage::Bitplanes: bands.back().magnitude_bitplanes = t1::kMaxDecodeBitplanes + 1; break;
      default: break;
    }
    codewords.push_back(bytes);
    cw.blocks.push_back(cb);
  }
  // The components' arrays, one after the other.
  for (std::uint32_t c = 0; c < 2; ++c) {
    j2k::PlanComponent pc;
    pc.rect = {0, 0, kWidth, shelf_y[c] + shelf_h[c]};
    pc.offset = plan.coefficient_count;
    pc.stride = pc.rect.width();
    pc.rows = pc.rect.height();
    plan.coefficient_count += std::size_t(pc.stride) * pc.rows;
    plan.components.push_back(pc);
  }
  // The codewords in up to three pieces, laid out layer by layer (piece l of
  // every block, then piece l + 1), with stray bytes between them.
  std::vector<std::vector<std::size_t>> cuts(codewords.size());
  for (std::size_t b = 0; b < codewords.size(); ++b) {
    const std::size_t len = codewords[b].size();
    const int pieces = len == 0 ? int(rng() % 2) : 1 + int(rng() % 3);
    std::vector<std::size_t> c{0};
    for (int p = 1; p < pieces; ++p) c.push_back(len ? rng() % (len + 1) : 0);
    c.push_back(len);
    std::sort(c.begin(), c.end());
    cuts[b] = c;
  }
  for (std::size_t layer = 0; layer < 3; ++layer)
    for (std::size_t b = 0; b < codewords.size(); ++b) {
      if (cuts[b].size() < layer + 2) continue;
      for (int j = int(rng() % 3); j > 0; --j) cw.joined.push_back(std::uint8_t(rng()));
      const std::size_t from = cuts[b][layer], to = cuts[b][layer + 1];
      cw.blocks[b].chunks.push_back({cw.joined.size(), to - from});
      cw.joined.insert(cw.joined.end(), codewords[b].begin() + std::ptrdiff_t(from),
                       codewords[b].begin() + std::ptrdiff_t(to));
    }
  cw.data = cw.joined.data();
  cw.size = cw.joined.size();
  cw.bytes_read = cw.size;
  same_tile(cuda, plan, cw, bands, what);
}

inline void random_tiles(cf::Engine &cuda, int tiles, int blocks) {
  const int before = failures();
  const long long problems = counts().problems;
  std::mt19937 rng(20240611);
  for (int t = 0; t < tiles; ++t)
    random_tile(cuda, rng, 1 + int(rng() % std::uint32_t(blocks)), t % 2 == 1, "random tile " + std::to_string(t));
  CHECK_MSG(counts().problems - problems >= tiles / 8, "only %lld of %d random tiles had a problem to report",
            counts().problems - problems, tiles);
  std::printf("random tiles: %s (%lld with a problem)\n", failures() == before ? "same samples" : "DIFFERENT",
              counts().problems - problems);
}

// ---- Codestreams ----

// Mb and the rest of a subband's tier-1 settings, as the decoder's glue
// derives them (T.800 E-2, E-5, the ROI shift of H.1).
inline std::vector<j2k::BandDecoding> band_decoding(const j2k::TilePlan &plan, const j2k::ResolvedTile &coding,
                                                    std::uint32_t reduce) {
  std::vector<j2k::BandDecoding> bands(plan.bands.size());
  for (std::size_t i = 0; i < plan.bands.size(); ++i) {
    const j2k::PlanBand &band = plan.bands[i];
    const j2k::PlanComponent &pc = plan.components[band.component];
    const j2k::ComponentQuant &q = coding.quant[band.component];
    const std::int64_t exponent =
        q.style == j2k::QuantStyle::Derived
            ? std::int64_t(q.steps[0].exponent) - std::int64_t(pc.levels) + std::int64_t(band.level)
            : std::int64_t(q.steps[band.step_index].exponent);
    j2k::BandDecoding &d = bands[i];
    d.skip = band.resolution + reduce > pc.levels;
    d.style = coding.components[band.component].cb_style;
    d.magnitude_bitplanes = int(q.guard_bits + exponent) - 1 + int(coding.roi_shift[band.component]);
    d.fraction_bits = coding.components[band.component].reversible ? 0 : 1;
  }
  return bands;
}

// Every tile of the codestream, with every layer and with `layers` of them
// (0: every one) at `reduce`.
inline void codestream(cf::Engine &cuda, const std::vector<std::uint8_t> &data, std::uint32_t layers,
                       std::uint32_t reduce, const std::string &what) {
  const j2k::Header h = j2k::read_header(data.data(), data.size());
  std::uint64_t samples = 0;
  for (const j2k::Component &c : h.grid.components)
    samples += (std::uint64_t(h.grid.x1 - h.grid.x0) / c.subsample_x + 1) *
               (std::uint64_t(h.grid.y1 - h.grid.y0) / c.subsample_y + 1);
  for (std::uint32_t t = 0; t < h.tiles.size(); ++t) {
    const j2k::ResolvedTile coding = j2k::resolve(h, t);
    const j2k::TilePlan plan = j2k::make_tile_plan(h, t, coding, std::size_t(samples + 64));
    std::uint32_t min_levels = j2k::kMaxLevels;
    for (const j2k::PlanComponent &pc : plan.components) min_levels = std::min(min_levels, pc.levels);
    struct Variant {
      std::uint32_t layers, reduce;
    };
    std::vector<Variant> variants{{0, 0}};
    if (layers || reduce) variants.push_back({layers, std::min(reduce, min_levels)});
    for (const Variant &v : variants) {
      const j2k::TileCodewords cw =
          j2k::read_tile_packets(data.data(), h, plan, coding, v.layers ? v.layers : UINT32_MAX);
      same_tile(cuda, plan, cw, band_decoding(plan, coding, v.reduce),
                what + ", tile " + std::to_string(t) + ", " +
                    (v.layers ? std::to_string(v.layers) : std::string("all")) + " layers, reduce " +
                    std::to_string(v.reduce));
    }
  }
}

inline std::vector<std::uint8_t> encode(cf::Engine &cpu, const cf::J2kInput &in, const cf::J2kSettings &s) {
  cf::J2kEncoder e(cpu);
  std::vector<std::uint8_t> bytes;
  e.encode(in, s, bytes);
  return bytes;
}

// Our encoder's codestreams of a random RGB frame and a GRAY16 one: each
// style switch and all of them, both paths, levels, code-block sizes, tiles,
// and layers at a rate (blocks in several chunks).
inline void encoder_streams(cf::Engine &cuda, cf::Engine &cpu, int width, int height) {
  const int before = failures();
  OwnedFrame rgb = make_raw(Packing::Packed3, width, height, cf::SampleType::U8, 3);
  fill_random(rgb, 11);
  OwnedFrame gray = make_raw(Packing::Gray, width, height, cf::SampleType::U16, 0);
  fill_random(gray, 12);
  cf::J2kInput in_rgb, in_gray;
  in_rgb.frame = rgb.view;
  in_rgb.rgb = true;
  in_gray.frame = gray.view;
  in_gray.bit_depth = 12;
  std::vector<cf::J2kSettings> all;
  for (unsigned style : {0u, 1u, 2u, 4u, 8u, 16u, 32u, 63u})
    for (bool reversible : {true, false}) {
      cf::J2kSettings s;
      s.reversible = reversible;
      s.levels = 2;
      s.codeblock_width = style % 2 ? 16 : 32;
      s.codeblock_height = style % 4 >= 2 ? 8 : 32;
      s.codeblock_style = style;
      all.push_back(s);
    }
  cf::J2kSettings s;
  s.levels = 0;
  all.push_back(s);
  s.levels = 3;
  s.tile_width = s.tile_height = 32;
  s.codeblock_width = s.codeblock_height = 8;
  all.push_back(s);
  s = {};
  s.reversible = false;
  s.bitrate = 2;
  s.layers = 4;
  s.codeblock_style = cf::j2k_style::kBypass | cf::j2k_style::kRestart;
  all.push_back(s);
  s.codeblock_style = 0;
  s.levels = 3;
  all.push_back(s);
  for (bool reversible : {true, false}) {  // HT code-blocks
    s = {};
    s.block_coder = cf::J2kBlockCoder::Ht;
    s.reversible = reversible;
    s.levels = 3;
    s.codeblock_width = s.codeblock_height = 16;
    all.push_back(s);
  }
  s.tile_width = s.tile_height = 32;
  s.codeblock_width = 4;
  s.codeblock_height = 8;
  s.codeblock_style = cf::j2k_style::kVerticalCausal;
  all.push_back(s);
  s.bitrate = 1;  // irreversible HT at a target: blocks at different cleanup planes
  s.codeblock_style = 0;
  all.push_back(s);
  for (const cf::J2kSettings &t : all)
    for (const cf::J2kInput *in : {&in_rgb, &in_gray}) {
      char name[160];
      std::snprintf(name, sizeof name, "%s %dx%d, %s, %s, levels %d, %dx%d blocks, style 0x%x, %d layers",
                    in == &in_rgb ? "RGB" : "GRAY16", width, height, cf::j2k_block_coder_name(t.block_coder),
                    t.reversible ? "5/3" : "9/7", t.levels, t.codeblock_width, t.codeblock_height, t.codeblock_style,
                    t.layers);
      if (!cf::j2k_encode_check(*in, t).empty()) continue;
      codestream(cuda, encode(cpu, *in, t), t.layers > 1 ? 2 : 0, t.levels > 0 ? 1 : 0, name);
    }
  std::printf("our encoder's codestreams: %s\n", failures() == before ? "same samples" : "DIFFERENT");
}

// The T.803 streams of CF_J2K_CONFORMANCE in name order: `all` of them,
// those of at most `limit` bytes (0: all) returned with their file names.
// False (a SKIP line naming `what` printed) when the variable names no
// streams/ folder.
struct NamedStream {
  std::string name;
  std::vector<std::uint8_t> data;
};
inline bool conformance_data(std::size_t limit, const char *what, std::vector<NamedStream> &out, std::size_t &all) {
  namespace fs = std::filesystem;
  const char *dir = std::getenv("CF_J2K_CONFORMANCE");
  if (!dir || !fs::is_directory(fs::path(dir) / "streams")) {
    std::printf("SKIP: %s (CF_J2K_CONFORMANCE unset or no streams/ folder)\n", what);
    return false;
  }
  std::vector<fs::path> streams;
  for (const auto &e : fs::directory_iterator(fs::path(dir) / "streams"))
    if (e.path().extension() == ".j2k") streams.push_back(e.path());
  std::sort(streams.begin(), streams.end());
  all = streams.size();
  for (const fs::path &p : streams) {
    std::ifstream f(p, std::ios::binary);
    std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (!limit || data.size() <= limit) out.push_back({p.filename().string(), std::move(data)});
  }
  return true;
}

// The conformance streams (at most `limit` bytes each; 0: all).
inline void conformance_streams(cf::Engine &cuda, std::size_t limit) {
  std::vector<NamedStream> streams;
  std::size_t all = 0;
  if (!conformance_data(limit, "no conformance streams", streams, all)) return;
  const int before = failures();
  int used = 0;
  for (const NamedStream &s : streams) {
    try {
      codestream(cuda, s.data, 1, 1, s.name);
      ++used;
    } catch (const cf::Error &e) {
      CHECK_MSG(false, "%s: %s", s.name.c_str(), e.what());
    }
  }
  CHECK_MSG(used > 0, "no conformance stream in CF_J2K_CONFORMANCE's streams/");
  std::printf("conformance streams (%d of %zu): %s\n", used, all, failures() == before ? "same samples" : "DIFFERENT");
}

// HT files of another encoder, with refinement passes (tests/data/htj2k,
// CF_HTJ2K_STREAMS, else that folder from the working directory).
inline void ht_streams(cf::Engine &cuda) {
  const char *env = std::getenv("CF_HTJ2K_STREAMS");
  const std::string dir = env ? env : "tests/data/htj2k";
  const int before = failures();
  int used = 0;
  std::error_code ec;
  for (const auto &entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".jph" && ext != ".j2c") continue;
    std::ifstream f(entry.path(), std::ios::binary);
    const std::vector<std::uint8_t> file(std::istreambuf_iterator<char>(f), {});
    std::vector<std::uint8_t> data = file;
    if (j2k::detect_j2k_format(file.data(), file.size()) == j2k::J2kFormat::Jp2) {
      const j2k::Jp2Info info = j2k::read_jp2(file.data(), file.size());
      data.assign(file.begin() + std::ptrdiff_t(info.codestream.offset),
                  file.begin() + std::ptrdiff_t(info.codestream.offset + info.codestream.length));
    }
    codestream(cuda, data, 1, 1, entry.path().filename().string());
    ++used;
  }
  CHECK_MSG(used > 0, "no HT files in %s", dir.c_str());
  std::printf("HT files with refinement passes (%d): %s\n", used, failures() == before ? "same samples" : "DIFFERENT");
}

// A warm engine decodes a tile it has decoded before without allocating.
inline void no_allocation_when_warm(cf::Engine &cuda, cf::Engine &cpu) {
  OwnedFrame f = make_raw(Packing::Packed3, 40, 30, cf::SampleType::U8, 0);
  fill_random(f, 13);
  cf::J2kInput in;
  in.frame = f.view;
  in.rgb = true;
  cf::J2kSettings s;
  s.levels = 2;
  const std::vector<std::uint8_t> data = encode(cpu, in, s);
  codestream(cuda, data, 0, 1, "warming up");
  const long long before = cuda.workspace_allocations();
  codestream(cuda, data, 0, 1, "warm");
  CHECK_MSG(cuda.workspace_allocations() == before, "a warm engine allocated %lld times for a tile it had decoded",
            cuda.workspace_allocations() - before);
}

}  // namespace cft::j2k_decode_parity
