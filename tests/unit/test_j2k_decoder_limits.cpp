// What the JPEG 2000 decoder (cudafilters/j2k_decoder.hpp) spends on a
// codestream is bounded by its frame and its data:
//  - J2kDecodeSettings::max_samples: a header claiming 1109 x 2098808
//    samples in tiles of 10^6 x 10^6 (tests/support/j2k_streams.hpp,
//    written from T.800 Annex A) is refused by j2k_image_info and by
//    decode, on cpu and openmp, with the message naming the frame's
//    samples and the limit, before anything of its size is allocated (the
//    process's peak memory stays put); 0 takes it; a frame of exactly the
//    limit decodes and one sample more is refused, subsampled and at a
//    reduction; the default takes a 16K frame of 4 components
//    (15360 x 8640) and 2^29 samples, not one more row;
//  - code-blocks the packets do not include cost nothing beyond the frame:
//    tier-2 lists only the blocks its packets include; a frame of 4096 x
//    4096 x 3 in 64 tiles of 1 x 1 code-blocks (one per sample) whose
//    packets include none decodes on cpu and openmp to the value of a zero
//    coefficient (2^7 for 8 unsigned bits, T.800 G.1.2) with a peak memory
//    within the frame's size and a margin;
//  - a grey RGB frame through the colour transform codes no block of
//    components 1 and 2 (their coefficients are zero): decoded from only
//    component 0's blocks, it gives the frame back exactly.
// Timings are not checked here (CONTRIBUTING.md: measured in commits).
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "check.hpp"
#include "core/codec/j2k_header.hpp"
#include "core/codec/j2k_packet_reader.hpp"
#include "core/codec/j2k_tile_plan.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k.hpp"
#include "cudafilters/j2k_decoder.hpp"
#include "cudafilters/j2k_file.hpp"
#include "j2k_streams.hpp"

namespace {

const cf::Backend kBackends[] = {cf::Backend::Cpu, cf::Backend::OpenMP};

// The process's peak resident memory (VmHWM), reset to the current one
// (/proc/self/clear_refs, Linux 4.0 and later): false where that cannot be
// done, and memory is then not checked.
bool reset_peak() {
  std::ofstream f("/proc/self/clear_refs");
  return f && (f << "5").good();
}
long long peak_bytes() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;
  return -1;
}

struct Planes {
  cf::J2kImageInfo info;
  std::vector<std::vector<std::uint8_t>> planes;
  cf::FrameView view;
};

// U8 planes of the sizes j2k_image_info gives.
Planes planes_of(const std::vector<std::uint8_t> &data, const cf::J2kDecodeSettings &s) {
  Planes p;
  p.info = cf::j2k_image_info(data.data(), data.size(), s);
  p.view.type = cf::SampleType::U8;
  p.view.n_planes = p.view.n_components = p.info.components;
  p.planes.resize(std::size_t(p.info.components));
  for (int c = 0; c < p.info.components; ++c) {
    const int w = p.info.component_width[c], h = p.info.component_height[c];
    p.planes[c].assign(std::size_t(w) * h, 0x5A);
    p.view.planes[c] = {p.planes[c].data(), std::ptrdiff_t(w), w, h};
    p.view.components[c] = {c, 0, 1, w, h};
  }
  return p;
}

// Expects `call` to throw a cf::Error of `kind` whose message holds `why`.
template <class Call>
void refuses(const char *what, const std::string &why, Call &&call, cf::ErrorKind kind = cf::ErrorKind::Unsupported) {
  try {
    call();
    CHECK_MSG(false, "%s accepted, expected a refusal saying '%s'", what, why.c_str());
  } catch (const cf::Error &e) {
    CHECK_MSG(std::string(e.what()).find(why) != std::string::npos, "%s: '%s' does not say '%s'", what, e.what(),
              why.c_str());
    CHECK_MSG(e.kind() == kind, "%s: error kind %d, expected %d", what, int(e.kind()), int(kind));
  }
}

// Each kind of failure carries its kind: a corrupt header, a broken JP2
// box and a codestream of neither kind are CorruptData; settings the
// encoder cannot take are BadArgument (the decoder's limits, above, are
// Unsupported).
void error_kinds() {
  const std::vector<std::uint8_t> good = cft::hand_codestream(cft::huge_claim());
  std::vector<std::uint8_t> cut(good.begin(), good.begin() + 20);  // SIZ cut short
  cf::J2kDecodeSettings s;
  s.max_samples = 0;
  refuses(
      "a codestream cut inside SIZ", "JPEG 2000 codestream:", [&] { cf::j2k_image_info(cut.data(), cut.size(), s); },
      cf::ErrorKind::CorruptData);
  std::vector<std::uint8_t> jp2 = {0, 0, 0, 12, 'j', 'P', ' ', ' ', 0x0D, 0x0A, 0x87, 0x0A, 0, 0, 0, 99, 'f', 't'};
  refuses(
      "a JP2 file cut in its second box", "JP2 file:", [&] { cf::j2k_read_file(jp2.data(), jp2.size()); },
      cf::ErrorKind::CorruptData);
  const std::uint8_t junk[] = {1, 2, 3, 4, 5, 6, 7, 8};
  refuses(
      "neither a codestream nor a file", "neither a codestream", [&] { cf::j2k_read_file(junk, sizeof junk); },
      cf::ErrorKind::CorruptData);
  std::uint8_t sample = 0;
  cf::J2kInput in;
  in.frame.type = cf::SampleType::U8;
  in.frame.n_planes = in.frame.n_components = 1;
  in.frame.planes[0] = {&sample, 1, 1, 1};
  in.frame.components[0] = {0, 0, 1, 1, 1};
  cf::J2kSettings bad;
  bad.codeblock_width = 48;
  cf::Engine engine(cf::Backend::Cpu);
  cf::J2kEncoder enc(engine);
  std::vector<std::uint8_t> out;
  refuses(
      "code-blocks 48 wide", "power of two", [&] { enc.encode(in, bad, out); }, cf::ErrorKind::BadArgument);
  std::printf("error kinds: corrupt data, bad arguments and refusals named as such\n");
}

// Whether every sample of every plane is v.
bool all_equal(const Planes &p, std::uint8_t v) {
  for (const auto &plane : p.planes)
    if (std::any_of(plane.begin(), plane.end(), [&](std::uint8_t s) { return s != v; })) return false;
  return true;
}

void huge_claim() {
  const std::vector<std::uint8_t> data = cft::hand_codestream(cft::huge_claim());
  const std::string why =
      "JPEG 2000 decoder: the frame has 2327578072 samples (1109 x 2098808 x 1), more than max_samples = 536870912";
  const bool peak = reset_peak();
  const long long before = peak_bytes();
  const cf::J2kDecodeSettings s;
  refuses("j2k_image_info of 1109 x 2098808", why, [&] { cf::j2k_image_info(data.data(), data.size(), s); });
  // A frame of 1 x 1: the refusal comes from the headers, before the frame is looked at.
  std::uint8_t sample = 0;
  cf::FrameView v;
  v.type = cf::SampleType::U8;
  v.n_planes = v.n_components = 1;
  v.planes[0] = {&sample, 1, 1, 1};
  v.components[0] = {0, 0, 1, 1, 1};
  for (cf::Backend b : kBackends) {
    cf::Engine engine(b);
    cf::J2kDecoder dec(engine);
    refuses((std::string("decode of 1109 x 2098808 on ") + cf::backend_name(b)).c_str(), why,
            [&] { dec.decode(data.data(), data.size(), s, v); });
  }
  if (peak) {
    const long long grew = peak_bytes() - before;
    CHECK_MSG(grew < 64ll << 20, "refusing 1109 x 2098808 raised the peak memory by %lld MB", grew >> 20);
  }
  cf::J2kDecodeSettings unlimited;
  unlimited.max_samples = 0;
  const cf::J2kImageInfo info = cf::j2k_image_info(data.data(), data.size(), unlimited);
  CHECK_MSG(info.width == 1109 && info.height == 2098808, "max_samples = 0: %dx%d", info.width, info.height);
  std::printf("1109 x 2098808 (%zu bytes): refused by info and decode on cpu and openmp%s; max_samples = 0 takes it\n",
              data.size(), peak ? " without raising the peak memory" : "");
}

// A frame of exactly max_samples decodes, one sample more is refused:
// 40 x 30 with components 1 and 2 subsampled 2 x 2 (40 x 30 + 20 x 15 +
// 20 x 15 = 1800 samples), and at reduce 1 (20 x 15 + 10 x 8 + 10 x 8 = 460).
void at_the_limit() {
  cft::HandStream hs;
  hs.width = 40, hs.height = 30, hs.tile_width = 40, hs.tile_height = 30;
  hs.components = 3, hs.chroma_subsampling = 2, hs.levels = 2;
  hs.body.assign(9, 0);  // an empty packet per resolution of each component
  const std::vector<std::uint8_t> data = cft::hand_codestream(hs);
  const struct {
    int reduce;
    std::uint64_t samples;
    const char *sizes;
  } cases[] = {{0, 1800, "40 x 30 + 20 x 15 + 20 x 15"}, {1, 460, "20 x 15 + 10 x 8 + 10 x 8 at reduce = 1"}};
  for (const auto &c : cases) {
    cf::J2kDecodeSettings s;
    s.reduce = c.reduce;
    s.max_samples = c.samples;
    for (cf::Backend b : kBackends) {
      Planes p = planes_of(data, s);
      cf::Engine engine(b);
      cf::J2kDecoder dec(engine);
      dec.decode(data.data(), data.size(), s, p.view);
      CHECK_MSG(dec.problem().empty() && all_equal(p, 128), "reduce %d, max_samples = %llu on %s: %s", c.reduce,
                (unsigned long long)c.samples, cf::backend_name(b), dec.problem().c_str());
      s.max_samples = c.samples - 1;
      const std::string why = "the frame has " + std::to_string(c.samples) + " samples (" + c.sizes +
                              "), more than max_samples = " + std::to_string(c.samples - 1);
      refuses("j2k_image_info one sample past the limit", why,
              [&] { cf::j2k_image_info(data.data(), data.size(), s); });
      refuses("decode one sample past the limit", why, [&] { dec.decode(data.data(), data.size(), s, p.view); });
      s.max_samples = c.samples;
    }
  }
  std::printf("max_samples: 1800 and 460 samples (reduce 1) decode at their limit, refused one below\n");
}

// The default: 2^29 samples, a 16K frame of 4 components (15360 x 8640 x 4
// = 530,841,600) and 16384 x 8192 x 4 taken, 16384 x 8193 x 4 refused;
// from the headers alone.
void default_limit() {
  CHECK(cf::J2kDecodeSettings().max_samples == (std::uint64_t(1) << 29));
  const auto stream = [](std::uint32_t w, std::uint32_t h) {
    cft::HandStream hs;
    hs.width = hs.tile_width = w, hs.height = hs.tile_height = h;
    hs.components = 4;
    return cft::hand_codestream(hs);
  };
  for (const auto &[w, h] : {std::pair<std::uint32_t, std::uint32_t>{15360, 8640}, {16384, 8192}}) {
    const std::vector<std::uint8_t> data = stream(w, h);
    const cf::J2kImageInfo info = cf::j2k_image_info(data.data(), data.size(), {});
    CHECK_MSG(info.components == 4 && info.width == int(w) && info.height == int(h), "%ux%u x4: info %dx%d x%d", w, h,
              info.width, info.height, info.components);
  }
  const std::vector<std::uint8_t> over = stream(16384, 8193);
  refuses("16384 x 8193 x 4", "the frame has 536936448 samples (16384 x 8193 x 4), more than max_samples = 536870912",
          [&] { cf::j2k_image_info(over.data(), over.size(), {}); });
  std::printf("default max_samples: 15360 x 8640 x 4 and 16384 x 8192 x 4 taken, 16384 x 8193 x 4 refused\n");
}

// 4096 x 4096 x 3 (the colour transform on) in 64 tiles of 512 x 512,
// precincts of 2 x 2 (so 1 x 1 code-blocks in the subbands of resolutions
// 1..3 and 2 x 2 in LL, B.6, B.7): about a code-block per sample, and the
// packets include none.
void absent_blocks() {
  cft::HandStream hs;
  hs.width = hs.height = 4096, hs.tile_width = hs.tile_height = 512;
  hs.components = 3, hs.mct = true, hs.levels = 3, hs.precinct_exp = 1;
  hs.tile_parts = 64;
  hs.body.assign(64, 0);  // the first 64 packets of each tile empty; then the data ends
  const std::vector<std::uint8_t> data = cft::hand_codestream(hs);

  // Tier-2 lists no block: the tile plan counts them.
  const cf::j2k::Header h = cf::j2k::read_header(data.data(), data.size());
  const cf::j2k::ResolvedTile coding = cf::j2k::resolve(h, 0);
  const cf::j2k::TilePlan plan = cf::j2k::make_tile_plan(h, 0, coding, std::size_t(1) << 24);
  const cf::j2k::TileCodewords cw = cf::j2k::read_tile_packets(data.data(), h, plan, coding, UINT32_MAX);
  // Per component, resolutions of 64, 128, 256 and 512 a side in precincts
  // of 2 x 2: 32^2 + 64^2 + 128^2 + 256^2; LL (64 x 64) in blocks of 2 x 2,
  // the subbands of resolution r (half its side) in blocks of 1 x 1.
  const std::uint32_t precincts = 3 * (32 * 32 + 64 * 64 + 128 * 128 + 256 * 256);
  const std::uint32_t blocks = 3 * (32 * 32 + 3 * (64 * 64 + 128 * 128 + 256 * 256));
  CHECK_MSG(plan.block_count == blocks && plan.precinct_count == precincts,
            "tile 0: %u code-blocks and %u precincts, expected %u and %u", plan.block_count, plan.precinct_count,
            blocks, precincts);
  CHECK_MSG(cw.blocks.empty() && !cw.problem.empty(), "tile 0: %zu blocks listed, problem '%s'", cw.blocks.size(),
            cw.problem.c_str());

  for (cf::Backend b : kBackends) {
    const cf::J2kDecodeSettings s;
    Planes p = planes_of(data, s);
    const long long frame = 3ll * 4096 * 4096;
    const bool peak = reset_peak();
    const long long before = peak_bytes();
    cf::Engine engine(b);
    cf::J2kDecoder dec(engine);
    dec.decode(data.data(), data.size(), s, p.view);
    CHECK_MSG(all_equal(p, 128), "%s: the frame of absent code-blocks is not all 128", cf::backend_name(b));
    CHECK_MSG(dec.problem().find("the data ends") != std::string::npos, "%s: problem '%s'", cf::backend_name(b),
              dec.problem().c_str());
    if (peak) {
      const long long grew = peak_bytes() - before;
      CHECK_MSG(grew < frame / 4 + (64ll << 20), "%s: decoding absent code-blocks raised the peak memory by %lld MB",
                cf::backend_name(b), grew >> 20);
    }
  }
  std::printf("4096 x 4096 x 3 of %u code-blocks a tile, none included: all 128 on cpu and openmp\n", blocks);
}

// R = G = B through the RCT: components 1 and 2 are zero, no block of theirs
// is coded, and the frame comes back from component 0's blocks alone.
void grey_rgb() {
  const int w = 70, h = 45;
  std::vector<std::uint8_t> rgb(std::size_t(w) * h * 3);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::uint8_t v = std::uint8_t((x * 7 + y * 13 + (x * y) % 17) & 0xFF);
      for (int c = 0; c < 3; ++c) rgb[(std::size_t(y) * w + x) * 3 + c] = v;
    }
  cf::J2kInput in;
  in.frame.type = cf::SampleType::U8;
  in.frame.n_planes = 1;
  in.frame.n_components = 3;
  in.frame.planes[0] = {rgb.data(), std::ptrdiff_t(w) * 3, w * 3, h};
  for (int c = 0; c < 3; ++c) in.frame.components[c] = {0, c, 3, w, h};
  in.rgb = true;
  cf::J2kSettings es;
  es.levels = 3, es.codeblock_width = es.codeblock_height = 16;
  es.tile_width = 35, es.tile_height = 45;
  cf::Engine cpu(cf::Backend::Cpu);
  cf::J2kEncoder enc(cpu);
  std::vector<std::uint8_t> data;
  enc.encode(in, es, data);

  const cf::j2k::Header hd = cf::j2k::read_header(data.data(), data.size());
  std::size_t coded = 0, others = 0;
  for (std::uint32_t t = 0; t < hd.tiles.size(); ++t) {
    const cf::j2k::ResolvedTile coding = cf::j2k::resolve(hd, t);
    const cf::j2k::TilePlan plan = cf::j2k::make_tile_plan(hd, t, coding, std::size_t(1) << 20);
    const cf::j2k::TileCodewords cw = cf::j2k::read_tile_packets(data.data(), hd, plan, coding, UINT32_MAX);
    for (const cf::j2k::BlockCodeword &cb : cw.blocks) ++(plan.bands[cb.block.band].component == 0 ? coded : others);
  }
  CHECK_MSG(coded > 0 && others == 0, "grey RGB: %zu blocks of component 0, %zu of components 1 and 2", coded, others);

  for (cf::Backend b : kBackends) {
    const cf::J2kDecodeSettings s;
    Planes p = planes_of(data, s);
    cf::Engine engine(b);
    cf::J2kDecoder dec(engine);
    dec.decode(data.data(), data.size(), s, p.view);
    std::size_t wrong = 0;
    for (int c = 0; c < 3; ++c)
      for (std::size_t i = 0; i < p.planes[c].size(); ++i) wrong += p.planes[c][i] != rgb[i * 3 + std::size_t(c)];
    CHECK_MSG(dec.problem().empty() && wrong == 0, "grey RGB on %s: %zu samples differ (%s)", cf::backend_name(b),
              wrong, dec.problem().c_str());
  }
  std::printf("grey RGB %dx%d: %zu blocks, all of component 0; decoded exactly on cpu and openmp\n", w, h, coded);
}

}  // namespace

int main() {
  huge_claim();
  at_the_limit();
  default_limit();
  absent_blocks();
  grey_rgb();
  error_kinds();
  return cft::test_result();
}
