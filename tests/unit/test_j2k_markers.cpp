// JPEG 2000 codestream syntax (core/codec/j2k_markers.hpp):
//  - marker segments against bytes written here by hand from the field
//    tables of T.800 Annex A;
//  - whole codestreams whose packets are all empty, decoded by OpenJPEG's
//    opj_decompress (every sample must be the DC level 2^(B-1)) and read
//    back by opj_dump; exits 77 (skipped) when the tools are missing;
//  - the parameter rules, each refused with its message.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "check.hpp"
#include "core/codec/j2k_layout.hpp"
#include "core/codec/j2k_markers.hpp"
#include "core/src/j2k_codestream.hpp"
#include "core/src/j2k_packet_plan.hpp"
#include "cudafilters/error.hpp"
#include "pnm.hpp"
#include "shell.hpp"

using namespace cf::j2k;
using Bytes = std::vector<std::uint8_t>;

static bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

static void check_bytes(ByteWriter &w, const Bytes &want, const char *what) {
  const Bytes &got = w.bytes();
  bool same = got == want;
  CHECK_MSG(same, "%s: %zu bytes written, %zu expected", what, got.size(), want.size());
  for (std::size_t i = 0; !same && i < std::min(got.size(), want.size()); ++i)
    if (got[i] != want[i]) {
      std::fprintf(stderr, "  first difference at byte %zu: 0x%02X, expected 0x%02X\n", i, got[i], want[i]);
      break;
    }
}

static Component unsigned_component(std::uint32_t depth, std::uint32_t sub = 1) { return {depth, false, sub, sub}; }

// ---------------------------------------------------------------------------
// 1. Known bytes, from T.800 Annex A's tables.

// 1 component, 8-bit, 7 x 3, 1 level, 64 x 64 code-blocks, LRCP, 1 layer,
// reversible, 2 guard bits.
static CodestreamParams small_config() {
  CodestreamParams p = one_tile_image(7, 3, {unsigned_component(8)});
  p.levels = 1;
  p.cb_width_exp = p.cb_height_exp = 6;
  p.progression = Progression::Lrcp;
  p.layers = 1;
  p.reversible = true;
  p.guard_bits = 2;
  return p;
}

static void known_bytes_small_config() {
  const CodestreamParams p = small_config();
  {
    ByteWriter w;
    write_siz(w, p);
    check_bytes(w,
                {
                    0xFF, 0x51,              // SIZ
                    0x00, 0x29,              // Lsiz = 38 + 3 Csiz = 41
                    0x00, 0x00,              // Rsiz: Part 1 only
                    0x00, 0x00, 0x00, 0x07,  // Xsiz = 7
                    0x00, 0x00, 0x00, 0x03,  // Ysiz = 3
                    0x00, 0x00, 0x00, 0x00,  // XOsiz = 0
                    0x00, 0x00, 0x00, 0x00,  // YOsiz = 0
                    0x00, 0x00, 0x00, 0x07,  // XTsiz = 7
                    0x00, 0x00, 0x00, 0x03,  // YTsiz = 3
                    0x00, 0x00, 0x00, 0x00,  // XTOsiz = 0
                    0x00, 0x00, 0x00, 0x00,  // YTOsiz = 0
                    0x00, 0x01,              // Csiz = 1
                    0x07,                    // Ssiz: unsigned (bit 7 clear), depth - 1 = 7
                    0x01,                    // XRsiz = 1
                    0x01,                    // YRsiz = 1
                },
                "SIZ of 7x3 8-bit");
  }
  {
    ByteWriter w;
    write_cod(w, p);
    check_bytes(w,
                {
                    0xFF, 0x52,  // COD
                    0x00, 0x0C,  // Lcod = 12 (no precinct sizes)
                    0x00,        // Scod: default precincts, no SOP, no EPH
                    0x00,        // SGcod progression: LRCP
                    0x00, 0x01,  // SGcod layers = 1
                    0x00,        // SGcod multiple component transform: none
                    0x01,        // SPcod decomposition levels = 1
                    0x04,        // SPcod code-block width: xcb - 2 = 4 (64)
                    0x04,        // SPcod code-block height: ycb - 2 = 4 (64)
                    0x00,        // SPcod code-block style
                    0x01,        // SPcod transform: 5/3 reversible
                },
                "COD of the small configuration");
  }
  {
    // Reversible exponents epsilon_b = B + log2(gain_b) (T.800 E.1.1 gains:
    // LL 1, HL 2, LH 2, HH 4), subbands LL, HL, LH, HH of level 1.
    const std::vector<SubbandStep> steps{{8, 0}, {9, 0}, {9, 0}, {10, 0}};
    ByteWriter w;
    write_qcd(w, p, steps);
    check_bytes(w,
                {
                    0xFF, 0x5C,  // QCD
                    0x00, 0x07,  // Lqcd = 3 + 4 subbands
                    0x40,        // Sqcd: 2 guard bits (bits 5-7), style 0 no quantisation
                    0x40,        // LL: epsilon 8 in bits 3-7
                    0x48,        // HL: epsilon 9
                    0x48,        // LH: epsilon 9
                    0x50,        // HH: epsilon 10
                },
                "QCD of the small configuration");
    const auto helper = reversible_steps(8, 1);
    bool same = helper.size() == steps.size();
    for (std::size_t i = 0; same && i < steps.size(); ++i)
      same = helper[i].exponent == steps[i].exponent && helper[i].mantissa == 0;
    CHECK_MSG(same, "reversible_steps(8, 1) is not {8, 9, 9, 10}");
  }
}

// 3 components (a signed 12-bit one, two 2x2-subsampled 8-bit ones), offset
// image on a grid of 2 x 2 tiles; COD and QCD with every field non-zero.
static void known_bytes_wide_config() {
  CodestreamParams p;
  p.x1 = 70000, p.y1 = 6, p.x0 = 3, p.y0 = 1;
  p.tile_width = 40000, p.tile_height = 4, p.tile_x0 = 1, p.tile_y0 = 0;
  p.components = {{12, true, 1, 1}, unsigned_component(8, 2), unsigned_component(8, 2)};
  CHECK(tile_count(p) == 4);
  {
    ByteWriter w;
    write_siz(w, p);
    check_bytes(w,
                {
                    0xFF, 0x51,              // SIZ
                    0x00, 0x2F,              // Lsiz = 38 + 3 * 3 = 47
                    0x00, 0x00,              // Rsiz
                    0x00, 0x01, 0x11, 0x70,  // Xsiz = 70000
                    0x00, 0x00, 0x00, 0x06,  // Ysiz = 6
                    0x00, 0x00, 0x00, 0x03,  // XOsiz = 3
                    0x00, 0x00, 0x00, 0x01,  // YOsiz = 1
                    0x00, 0x00, 0x9C, 0x40,  // XTsiz = 40000
                    0x00, 0x00, 0x00, 0x04,  // YTsiz = 4
                    0x00, 0x00, 0x00, 0x01,  // XTOsiz = 1
                    0x00, 0x00, 0x00, 0x00,  // YTOsiz = 0
                    0x00, 0x03,              // Csiz = 3
                    0x8B, 0x01, 0x01,        // signed (bit 7), depth 12 - 1 = 11; 1 x 1
                    0x07, 0x02, 0x02,        // unsigned 8-bit, XRsiz = YRsiz = 2
                    0x07, 0x02, 0x02,        // the same
                },
                "SIZ of 3 components, offsets, 4 tiles");
  }
  p.components = {unsigned_component(10), unsigned_component(10), unsigned_component(10)};
  p.sop = p.eph = true;
  p.progression = Progression::Rpcl;
  p.layers = 300;
  p.mct = true;
  p.levels = 3;
  p.cb_width_exp = 5, p.cb_height_exp = 4;
  p.cb_style = t1::kStyleBypass | t1::kStyleRestart;
  p.reversible = false;
  p.guard_bits = 1;
  {
    ByteWriter w;
    write_cod(w, p);
    check_bytes(w,
                {
                    0xFF, 0x52,  // COD
                    0x00, 0x0C,  // Lcod = 12
                    0x06,        // Scod: SOP (bit 1) and EPH (bit 2)
                    0x02,        // progression RPCL
                    0x01, 0x2C,  // layers = 300
                    0x01,        // multiple component transform on components 0..2
                    0x03,        // 3 decomposition levels
                    0x03,        // xcb - 2 = 3 (32 wide)
                    0x02,        // ycb - 2 = 2 (16 high)
                    0x05,        // style: bypass (bit 0), termination on each pass (bit 2)
                    0x00,        // transform: 9/7 irreversible
                },
                "COD with every field set");
  }
  {
    p.levels = 1;
    ByteWriter w;
    write_qcd(w, p, {{10, 0}, {9, 1024}, {9, 2047}, {8, 1}});
    check_bytes(w,
                {
                    0xFF, 0x5C,  // QCD
                    0x00, 0x0B,  // Lqcd = 3 + 2 * 4 subbands
                    0x22,        // Sqcd: 1 guard bit (bits 5-7), style 2 scalar expounded
                    0x50, 0x00,  // LL: epsilon 10 (bits 11-15), mu 0
                    0x4C, 0x00,  // HL: epsilon 9, mu 1024
                    0x4F, 0xFF,  // LH: epsilon 9, mu 2047
                    0x40, 0x01,  // HH: epsilon 8, mu 1
                },
                "QCD scalar expounded");
  }
}

static void known_bytes_other_segments() {
  {
    ByteWriter w;
    write_com(w, kEncoderComment);
    check_bytes(w,
                {0xFF, 0x64,  // COM
                 0x00, 0x0F,  // Lcom = 4 + 11 characters
                 0x00, 0x01,  // Rcom: Latin text
                 'c', 'u', 'd', 'a', 'f', 'i', 'l', 't', 'e', 'r', 's'},
                "COM");
  }
  {
    ByteWriter w;
    write_soc(w);
    const std::size_t sot = begin_tile_part(w, 5, 1, 3);
    CHECK(sot == 2);
    write_sod(w);
    w.u8(0xAA), w.u8(0xBB), w.u8(0xCC);  // the tile-part's data
    end_tile_part(w, sot);
    write_eoc(w);
    check_bytes(w,
                {
                    0xFF, 0x4F,              // SOC
                    0xFF, 0x90,              // SOT
                    0x00, 0x0A,              // Lsot = 10
                    0x00, 0x05,              // Isot = 5
                    0x00, 0x00, 0x00, 0x11,  // Psot = 12 (SOT) + 2 (SOD) + 3 data bytes = 17
                    0x01,                    // TPsot = 1
                    0x03,                    // TNsot = 3
                    0xFF, 0x93,              // SOD
                    0xAA, 0xBB, 0xCC,        // data
                    0xFF, 0xD9,              // EOC
                },
                "SOC SOT SOD data EOC");
  }
  {
    ByteWriter w;
    w.u32(0x01020304);
    w.u16(0x0506);
    w.patch_u16(1, 0xA1A2);
    check_bytes(w, {0x01, 0xA1, 0xA2, 0x04, 0x05, 0x06}, "big-endian writes and a patch");
  }
}

// TLM and PLT (T.800 A.7.1, A.7.3): known bytes, and the split into
// several segments when Lxxx's 16 bits run out.
static void length_segments() {
  {
    ByteWriter w;
    const std::vector<std::size_t> at = write_tlm(w, {0, 1, 7});
    w.patch_u32(at[0], 0x01020304);
    w.patch_u32(at[2], 300);
    // FF55, Ltlm = 4 + 3 x 6, Ztlm 0, Stlm 0x60, (Ttlm 16 bits, Ptlm 32 bits) x 3
    check_bytes(w, {0xFF, 0x55, 0x00, 0x16, 0x00, 0x60, 0x00, 0x00, 0x01, 0x02, 0x03, 0x04,
                    0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x01, 0x2C},
                "TLM of three tile-parts");
  }
  {
    ByteWriter w;
    w.u8(0xAA);
    w.u8(0xBB);
    // 0x7F: one group; 0x80 = 1 0000000: 0x81 0x00; 0x4000 = 1 0000000 0000000: 0x81 0x80 0x00
    write_plt(w, 1, {0x7F, 0x80, 0x4000, 0});
    check_bytes(w, {0xAA, 0xFF, 0x58, 0x00, 0x0A, 0x00, 0x7F, 0x81, 0x00, 0x81, 0x80, 0x00, 0x00, 0xBB},
                "PLT of four packets put before the byte at 1");
  }
  {
    // 30,000 lengths of 3 bytes each: 90,000 bytes, two segments.
    const std::vector<std::uint32_t> lengths(30000, 0x4000);
    ByteWriter w;
    write_plt(w, 0, lengths);
    const Bytes &b = w.bytes();
    std::size_t pos = 0, read = 0;
    int segments = 0;
    while (pos + 5 <= b.size()) {
      CHECK(b[pos] == 0xFF && b[pos + 1] == 0x58);
      const std::size_t l = std::size_t(b[pos + 2]) << 8 | b[pos + 3];
      CHECK_MSG(b[pos + 4] == segments, "PLT segment %d: Zplt %d", segments, b[pos + 4]);
      CHECK_MSG((l - 3) % 3 == 0, "PLT segment %d splits a length (Lplt %zu)", segments, l);
      read += (l - 3) / 3;
      pos += 2 + l;
      ++segments;
    }
    CHECK_MSG(pos == b.size() && segments == 2 && read == lengths.size(),
              "PLT of 30000 lengths: %d segments holding %zu lengths, %zu of %zu bytes walked", segments, read, pos,
              b.size());
  }
  {
    // 11,000 tile-parts: 10,921 entries fit one TLM segment.
    std::vector<std::uint32_t> tiles(11000);
    for (std::size_t i = 0; i < tiles.size(); ++i) tiles[i] = std::uint32_t(i);
    ByteWriter w;
    const std::vector<std::size_t> at = write_tlm(w, tiles);
    const Bytes &b = w.bytes();
    const std::size_t first = std::size_t(b[2]) << 8 | b[3];
    CHECK_MSG(at.size() == tiles.size() && first == 4 + 6 * 10921 && b[4] == 0 && b[2 + first + 2 + 2] == 1,
              "TLM of 11000 tile-parts: first Ltlm %zu, second Ztlm %d", first, b[2 + first + 2 + 2]);
    CHECK(b.size() == 2 * 6 + 6 * tiles.size());  // FF55, Ltlm, Ztlm, Stlm per segment
    CHECK(at[10921] == 2 + first + 8);            // the second segment's first Ptlm, after its Ttlm
  }
}

// tile_parts_of (the count before the tile-parts are written, from at
// most three layers) against the tile-parts starts_tile_part makes along
// every packet of the tile; every precinct gets one packet per layer.
// Tiles of a frame with subsampled components, maximal precincts and
// precincts of several sizes, every order and division.
static void tile_part_counts() {
  for (int order = 0; order < 5; ++order)
    for (int d = 0; d < 4; ++d)
      for (std::uint32_t layers : {1u, 2u, 3u, 5u})
        for (std::uint32_t levels = 0; levels <= 2; ++levels)
          for (std::uint32_t components = 1; components <= 3; ++components)
            for (int sizes = 0; sizes < 2; ++sizes) {
              std::vector<Component> comps(components);
              if (components == 3) comps[1].subsample_x = comps[2].subsample_x = comps[1].subsample_y = 2;
              CodestreamParams p = one_tile_image(37, 29, comps);
              p.tile_width = 20;
              p.tile_height = 16;
              p.levels = levels;
              p.layers = layers;
              p.progression = Progression(order);
              p.tile_parts = TilePartDivision(d);
              if (sizes)
                for (std::uint32_t r = 0; r <= levels; ++r) {
                  p.precinct_width_exp.push_back(std::uint8_t(r == 0 ? 1 : 2));
                  p.precinct_height_exp.push_back(std::uint8_t(r + 1));
                }
              const Layout l = make_layout(p);
              const PacketPlan packets = make_packet_plan(l);
              for (std::size_t t = 0; t < l.tiles.size(); ++t) {
                std::uint64_t parts = 1, seen = 0;
                PacketId last;
                for_each_packet(packets.tiles[t], packets.coding, [&](const PacketId &k) {
                  if (seen++ > 0 && starts_tile_part(p.tile_parts, last, k)) ++parts;
                  last = k;
                  return true;
                });
                CHECK_MSG(
                    packets.tile_parts[t] == parts && seen == std::uint64_t(layers) * packets.tiles[t].precinct_count,
                    "order %d division %d, %u layers, %u levels, %u components, precincts %d, tile %zu: %u "
                    "tile-parts counted, %llu made; %llu packets of %u precincts",
                    order, d, layers, levels, components, sizes, t, packets.tile_parts[t], (unsigned long long)parts,
                    (unsigned long long)seen, packets.tiles[t].precinct_count);
              }
            }
}

// COD with precinct sizes (T.800 A.6.1, Table A.21): Scod bit 0 set and,
// after SPcod's transform byte, a byte per resolution from 0 up, PPx in
// bits 0-3 and PPy in bits 4-7. Sizes of 15 everywhere are maximal: COD
// says none.
static void known_bytes_precincts() {
  CodestreamParams p = small_config();  // 1 level: resolutions 0 and 1
  p.precinct_width_exp = {3, 6};
  p.precinct_height_exp = {0, 15};
  ByteWriter w;
  write_cod(w, p);
  check_bytes(w,
              {
                  0xFF, 0x52,  // COD
                  0x00, 0x0E,  // Lcod = 12 + 2 resolutions
                  0x01,        // Scod: precinct sizes follow, no SOP, no EPH
                  0x00,        // SGcod progression: LRCP
                  0x00, 0x01,  // SGcod layers = 1
                  0x00,        // SGcod multiple component transform: none
                  0x01,        // SPcod decomposition levels = 1
                  0x04,        // SPcod code-block width: xcb - 2 = 4 (64)
                  0x04,        // SPcod code-block height: ycb - 2 = 4 (64)
                  0x00,        // SPcod code-block style
                  0x01,        // SPcod transform: 5/3 reversible
                  0x03,        // resolution 0: PPx = 3 (8), PPy = 0 (1)
                  0xF6,        // resolution 1: PPx = 6 (64), PPy = 15 (32768)
              },
              "COD with precincts");
  p.precinct_width_exp = p.precinct_height_exp = {15, 15};
  ByteWriter maximal, none;
  write_cod(maximal, p);
  write_cod(none, small_config());
  CHECK_MSG(maximal.bytes() == none.bytes(), "COD of 15 x 15 precincts lists sizes");
  // B.7: code-blocks clipped to 2^min(xcb, PPx) at resolution 0, 2^min(xcb, PPx - 1) above.
  p.precinct_width_exp = {3, 6};
  p.precinct_height_exp = {0, 15};
  CHECK(block_width_exp(p, 0) == 3 && block_height_exp(p, 0) == 0 && block_width_exp(p, 1) == 5 &&
        block_height_exp(p, 1) == 6);
}

static void subband_order() {
  const auto bands = subbands_in_order(2);
  const struct {
    Orientation o;
    std::uint32_t level, resolution;
  } want[] = {{Orientation::LL, 2, 0}, {Orientation::HL, 2, 1}, {Orientation::LH, 2, 1}, {Orientation::HH, 2, 1},
              {Orientation::HL, 1, 2}, {Orientation::LH, 1, 2}, {Orientation::HH, 1, 2}};
  CHECK(bands.size() == 7 && subband_count(2) == 7);
  for (std::size_t i = 0; i < std::min<std::size_t>(bands.size(), 7); ++i)
    CHECK_MSG(bands[i].orientation == want[i].o && bands[i].level == want[i].level &&
                  bands[i].resolution == want[i].resolution,
              "subband %zu of 2 levels", i);
  CHECK(subbands_in_order(0).size() == 1 && subbands_in_order(0)[0].orientation == Orientation::LL);
  CHECK(subband_count(0) == 1 && subband_count(32) == 97 && subbands_in_order(32).size() == 97);
  CHECK(gain_log2(Orientation::LL) == 0 && gain_log2(Orientation::HL) == 1 && gain_log2(Orientation::LH) == 1 &&
        gain_log2(Orientation::HH) == 2);
  const auto r = reversible_steps(9, 2);
  const std::uint32_t want_exp[] = {9, 10, 10, 11, 10, 10, 11};
  CHECK(r.size() == 7);
  for (std::size_t i = 0; i < std::min<std::size_t>(r.size(), 7); ++i) CHECK(r[i].exponent == want_exp[i]);
}

// Delta = 2^(R - eps) (1 + mu / 2048), by hand.
static void expounded_steps() {
  auto is = [](SubbandStep s, std::uint32_t e, std::uint32_t m) { return s.exponent == e && s.mantissa == m; };
  CHECK(is(expounded_step(1.0, 8), 8, 0));                        // 2^0
  CHECK(is(expounded_step(1.5, 8), 8, 1024));                     // 2^0 (1 + 1024/2048)
  CHECK(is(expounded_step(0.75, 8), 9, 1024));                    // 2^-1 (1 + 1/2)
  CHECK(is(expounded_step(0.125 * (1 + 1.0 / 2048), 8), 11, 1));  // 2^-3 (1 + 1/2048)
  CHECK(is(expounded_step(6.0, 10), 8, 1024));                    // 2^2 (1 + 1/2)
  CHECK(is(expounded_step(2.0 - 1.0 / 8192, 8), 7, 0));           // mantissa rounds up to 2^1
}

// ---------------------------------------------------------------------------
// 2. Empty codestreams through OpenJPEG.

static std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// Packets of the single tile (T.800 B.5, B.6, B.9): per layer, component and
// resolution, one per precinct. Precincts are the maximal 2^15 x 2^15
// (Scod bit 0 clear); a resolution of no width or height has none.
static std::uint64_t packets_in_tile(const CodestreamParams &p) {
  std::uint64_t precincts = 0;
  for (const Component &c : p.components) {
    const std::uint64_t tcx0 = ceil_div(p.x0, c.subsample_x), tcx1 = ceil_div(p.x1, c.subsample_x);
    const std::uint64_t tcy0 = ceil_div(p.y0, c.subsample_y), tcy1 = ceil_div(p.y1, c.subsample_y);
    for (std::uint32_t r = 0; r <= p.levels; ++r) {
      const std::uint64_t scale = std::uint64_t(1) << (p.levels - r);
      const std::uint64_t trx0 = ceil_div(tcx0, scale), trx1 = ceil_div(tcx1, scale);
      const std::uint64_t try0 = ceil_div(tcy0, scale), try1 = ceil_div(tcy1, scale);
      const std::uint64_t pp = std::uint64_t(1) << 15;
      const std::uint64_t wide = trx1 > trx0 ? ceil_div(trx1, pp) - trx0 / pp : 0;
      const std::uint64_t high = try1 > try0 ? ceil_div(try1, pp) - try0 / pp : 0;
      precincts += wide * high;
    }
  }
  return precincts * p.layers;
}

struct EmptyCase {
  const char *name;
  std::uint32_t width, height, components, depth, levels;
  bool reversible;
  std::uint32_t layers;
  Progression progression;
  std::uint32_t chroma_subsample = 1;
  bool mct = false, sop = false, eph = false;
  std::uint32_t x0 = 0, y0 = 0;  // image offset on the grid
};

static CodestreamParams params_of(const EmptyCase &k) {
  CodestreamParams p;
  p.x0 = k.x0, p.y0 = k.y0;
  p.x1 = p.tile_width = k.x0 + k.width;
  p.y1 = p.tile_height = k.y0 + k.height;
  for (std::uint32_t c = 0; c < k.components; ++c)
    p.components.push_back(unsigned_component(k.depth, c == 0 ? 1 : k.chroma_subsample));
  p.levels = k.levels;
  p.reversible = k.reversible;
  p.layers = k.layers;
  p.progression = k.progression;
  p.mct = k.mct, p.sop = k.sop, p.eph = k.eph;
  return p;
}

// QCD's steps of a case: the reversible exponents, or arbitrary steps for
// the 9/7 (all coefficients are zero, so any step decodes to the DC level).
static std::vector<SubbandStep> steps_of(const CodestreamParams &p) {
  if (p.reversible) return reversible_steps(p.components[0].bit_depth, p.levels);
  std::vector<SubbandStep> steps;
  for (const Subband &b : subbands_in_order(p.levels))
    steps.push_back(expounded_step(0.5 + 0.25 * b.resolution, p.components[0].bit_depth + gain_log2(b.orientation)));
  return steps;
}

// Main header, one tile-part of empty packets, EOC. An empty packet's header
// is the single bit 0 padded to a byte (T.800 B.10.3), so 0x00, inside SOP
// and EPH when they are on.
static Bytes empty_codestream(const CodestreamParams &p, const std::vector<SubbandStep> &steps, std::uint64_t packets) {
  ByteWriter w;
  write_main_header(w, p, steps, kEncoderComment);
  const std::size_t sot = begin_tile_part(w, 0, 0, 1);
  write_sod(w);
  for (std::uint64_t n = 0; n < packets; ++n) {
    if (p.sop) {
      w.marker(kSop);
      w.u16(4);                 // Lsop
      w.u16(std::uint16_t(n));  // Nsop: packet index modulo 65536
    }
    w.u8(0x00);
    if (p.eph) w.marker(kEph);
  }
  end_tile_part(w, sot);
  write_eoc(w);
  return w.bytes();
}

using Plane = cft::PnmPlane;
using cft::read_pnm;

static void write_file(const std::string &path, const Bytes &bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
}

// Decodes the case's empty codestream and checks every sample of every
// component is 2^(B-1); then what opj_dump reads of the header.
static void decode_empty(const EmptyCase &k, const std::string &dir, bool dump) {
  const CodestreamParams p = params_of(k);
  const std::uint64_t packets = packets_in_tile(p);
  const std::string base = dir + "/" + k.name;
  const std::vector<SubbandStep> steps = steps_of(p);
  write_file(base + ".j2k", empty_codestream(p, steps, packets));

  // One PGM (one component) or PPM (three alike); subsampled components one
  // at a time (-c), as opj_decompress would otherwise convert them to RGB.
  const bool alike = k.chroma_subsample == 1;
  std::vector<Plane> planes;
  std::string why;
  for (std::uint32_t c = 0; c < (alike ? 1 : k.components) && why.empty(); ++c) {
    const std::string out =
        base + (alike ? "" : "_" + std::to_string(c)) + (k.components == 3 && alike ? ".ppm" : ".pgm");
    std::string log;
    const int rc = cft::run_command(
        "opj_decompress -i '" + base + ".j2k' -o '" + out + "'" + (alike ? "" : " -c " + std::to_string(c)), log);
    CHECK_MSG(rc == 0, "%s: opj_decompress failed (%d):\n%s", k.name, rc, log.c_str());
    if (rc != 0) return;
    CHECK_MSG(!contains(log, "[WARNING]") && !contains(log, "[ERROR]"), "%s: opj_decompress complains:\n%s", k.name,
              log.c_str());
    auto read = read_pnm(out, why);
    planes.insert(planes.end(), read.begin(), read.end());
  }
  CHECK_MSG(why.empty() && planes.size() == k.components, "%s: %s (%zu planes)", k.name, why.c_str(), planes.size());
  const std::uint32_t dc = 1u << (k.depth - 1);
  for (std::size_t c = 0; c < std::min<std::size_t>(planes.size(), k.components); ++c) {
    const Component &comp = p.components[c];
    const std::uint64_t w = ceil_div(p.x1, comp.subsample_x) - ceil_div(p.x0, comp.subsample_x);
    const std::uint64_t h = ceil_div(p.y1, comp.subsample_y) - ceil_div(p.y0, comp.subsample_y);
    const Plane &pl = planes[c];
    CHECK_MSG(pl.width == w && pl.height == h && pl.maxval == (1u << k.depth) - 1,
              "%s component %zu: %ux%u maxval %u, expected %llux%llu maxval %u", k.name, c, pl.width, pl.height,
              pl.maxval, (unsigned long long)w, (unsigned long long)h, (1u << k.depth) - 1);
    const auto off = std::count_if(pl.samples.begin(), pl.samples.end(), [dc](std::uint32_t v) { return v != dc; });
    CHECK_MSG(off == 0 && !pl.samples.empty(), "%s component %zu: %zu of %zu samples are not the DC level %u", k.name,
              c, std::size_t(off), pl.samples.size(), dc);
  }

  if (!dump) return;
  std::string log;
  const int drc = cft::run_command("opj_dump -i '" + base + ".j2k'", log);
  CHECK_MSG(drc == 0, "%s: opj_dump failed (%d):\n%s", k.name, drc, log.c_str());
  auto hex = [](unsigned v) {  // opj_dump's way: 0, or 0x followed by hex digits
    char text[16];
    std::snprintf(text, sizeof text, v ? "0x%x" : "0", v);
    return std::string(text);
  };
  std::string stepsizes = "stepsizes (m,e)=";
  for (const SubbandStep &s : steps)
    stepsizes += "(" + std::to_string(s.mantissa) + "," + std::to_string(s.exponent) + ") ";
  std::vector<std::string> want = {
      "x0=" + std::to_string(p.x0) + ", y0=" + std::to_string(p.y0),
      "x1=" + std::to_string(p.x1) + ", y1=" + std::to_string(p.y1),
      "numcomps=" + std::to_string(k.components),
      "tdx=" + std::to_string(p.tile_width) + ", tdy=" + std::to_string(p.tile_height),
      "tw=1, th=1",
      "default tile {\n\t\t csty=" + hex((k.sop ? 2 : 0) | (k.eph ? 4 : 0)) + "\n",
      "prg=" + hex(unsigned(k.progression)),
      "numlayers=" + std::to_string(k.layers),
      "mct=" + std::to_string(int(k.mct)),
      "numresolutions=" + std::to_string(k.levels + 1),
      "cblkw=2^" + std::to_string(p.cb_width_exp),
      "cblkh=2^" + std::to_string(p.cb_height_exp),
      "qmfbid=" + std::to_string(int(k.reversible)),
      "qntsty=" + std::string(k.reversible ? "0" : "2"),
      "numgbits=" + std::to_string(p.guard_bits),
      stepsizes + "\n",
      "prec=" + std::to_string(k.depth),
  };
  for (std::uint32_t c = 0; c < k.components; ++c)
    want.push_back("component " + std::to_string(c) + " {\n\t\t dx=" + std::to_string(p.components[c].subsample_x) +
                   ", dy=" + std::to_string(p.components[c].subsample_y) + "\n");
  for (const std::string &s : want)
    CHECK_MSG(contains(log, s), "%s: opj_dump does not report \"%s\":\n%s", k.name, s.c_str(), log.c_str());
}

// SOP or EPH on some: OpenJPEG then refuses a tile-part that ends before
// its last packet, which it tolerates without them.
static const EmptyCase kEmptyCases[] = {
    // name              w   h comps bits levels reversible layers progression, chroma subsampling, mct, sop, eph
    {"g8_1x1_l0", 1, 1, 1, 8, 0, true, 1, Progression::Lrcp},
    {"g8_7x3_l1", 7, 3, 1, 8, 1, true, 1, Progression::Lrcp},
    {"g16_7x3_l0_97", 7, 3, 1, 16, 0, false, 1, Progression::Rlcp},
    {"g8_33x17_l3_2layers_eph", 33, 17, 1, 8, 3, true, 2, Progression::Rpcl, 1, false, false, true},
    {"g16_33x17_l3_97_2layers", 33, 17, 1, 16, 3, false, 2, Progression::Cprl},
    {"rgb8_1x1_l0_97", 1, 1, 3, 8, 0, false, 1, Progression::Lrcp},
    {"rgb8_33x17_l3_rct_2layers_eph", 33, 17, 3, 8, 3, true, 2, Progression::Lrcp, 1, true, false, true},
    {"rgb16_33x17_l1_ict", 33, 17, 3, 16, 1, false, 1, Progression::Cprl, 1, true},
    {"rgb8_7x3_l1_2layers_sop_eph", 7, 3, 3, 8, 1, false, 2, Progression::Rlcp, 1, false, true, true},
    {"yuv420_8_33x17_l3_2layers_sop", 33, 17, 3, 8, 3, true, 2, Progression::Pcrl, 2, false, true},
    {"yuv420_16_7x3_l1_97_eph", 7, 3, 3, 16, 1, false, 1, Progression::Rpcl, 2, false, false, true},
    // Offset image, 5x3 at (3, 0) with 3 levels: resolution 0 has no width
    // (ceil(3/8) = ceil(8/8)), so it has no precinct and no packet.
    {"g8_5x3_at3_0_l3", 5, 3, 1, 8, 3, true, 1, Progression::Lrcp, 1, false, false, false, 3, 0},
    // 5x3 at (3, 1) in 4:2:0, 1 level: the chroma components are 2x1 at
    // (2, 1) (ceil(3/2), ceil(1/2)), their resolution 0 has no height
    // (ceil(1/2) = ceil(2/2)).
    {"yuv420_8_5x3_at3_1_l1", 5, 3, 3, 8, 1, true, 1, Progression::Rlcp, 2, false, false, false, 3, 1},
};

// The number of packets comes from the definition; check it on every case,
// worked out by hand (layers x (resolutions of non-empty size) x components).
// These counts are what pins surplus packets: opj_decompress ignores bytes
// after the last packet it expects.
static void packet_counts() {
  const std::uint64_t by_hand[] = {
      1,          // 1 x 1 x 1
      2,          // 1 x 2 x 1
      1,          // 1 x 1 x 1
      2 * 4,      // 2 layers x 4 resolutions
      2 * 4,      //
      3,          // 1 x 1 x 3 components
      2 * 4 * 3,  //
      2 * 3,      // 1 x 2 x 3
      2 * 2 * 3,  //
      2 * 4 * 3,  // chroma of 17x9: resolution 0 is 3x2
      2 * 3,      // chroma of 4x2: resolution 0 is 2x1
      3,          // resolutions 1..3 only
      2 + 1 + 1,  // luma: both resolutions; chroma: resolution 1 only
  };
  static_assert(std::size(by_hand) == std::size(kEmptyCases));
  for (std::size_t i = 0; i < std::size(kEmptyCases); ++i)
    CHECK_MSG(packets_in_tile(params_of(kEmptyCases[i])) == by_hand[i], "%s: %llu packets, %llu by hand",
              kEmptyCases[i].name, (unsigned long long)packets_in_tile(params_of(kEmptyCases[i])),
              (unsigned long long)by_hand[i]);
}

static int empty_codestreams() {
  if (!cft::have_tool("opj_decompress")) {
    std::printf("SKIP: opj_decompress not found (Debian package libopenjp2-tools): empty codestreams not decoded\n");
    return cft::kSkip;
  }
  const bool dump = cft::have_tool("opj_dump");
  if (!dump) std::printf("opj_dump not found: headers not read back\n");
  std::string tmpl = (std::filesystem::temp_directory_path() / "cf_j2k_markers_XXXXXX").string();
  if (!mkdtemp(tmpl.data())) {
    CHECK_MSG(false, "cannot make a temporary directory");
    return 0;
  }
  for (const EmptyCase &k : kEmptyCases) decode_empty(k, tmpl, dump);
  std::printf("%zu empty codestreams decoded by opj_decompress\n", std::size(kEmptyCases));
  if (!cft::failures())
    std::filesystem::remove_all(tmpl);
  else
    std::fprintf(stderr, "codestreams kept in %s\n", tmpl.c_str());
  return 0;
}

// ---------------------------------------------------------------------------
// 3. The rules.

static void refused(const char *what, const std::function<void(CodestreamParams &)> &change, const char *message) {
  CodestreamParams p = small_config();
  change(p);
  const std::string why = codestream_check(p);
  CHECK_MSG(contains(why, message), "%s: got \"%s\", expected a message with \"%s\"", what, why.c_str(), message);
}

static void accepted(const char *what, const std::function<void(CodestreamParams &)> &change) {
  CodestreamParams p = small_config();
  change(p);
  const std::string why = codestream_check(p);
  CHECK_MSG(why.empty(), "%s: refused with \"%s\"", what, why.c_str());
}

static void rules() {
  const std::uint64_t k2to32 = std::uint64_t(1) << 32;
  accepted("the small configuration", [](CodestreamParams &) {});
  accepted("precincts of 1 x 1 at resolution 0", [](CodestreamParams &p) {
    p.precinct_width_exp = {0, 1};
    p.precinct_height_exp = {0, 15};
  });
  refused(
      "PPx 0 at resolution 1",
      [](CodestreamParams &p) {
        p.precinct_width_exp = {4, 0};
        p.precinct_height_exp = {4, 4};
      },
      "precinct of resolution 1: PPx = 0, PPy = 4 must be at least 1 above resolution 0");
  refused(
      "PPy 16",
      [](CodestreamParams &p) {
        p.precinct_width_exp = {4, 4};
        p.precinct_height_exp = {16, 4};
      },
      "PPx = 4, PPy = 16 must be 0..15");
  refused(
      "precinct sizes for 3 resolutions of 1 level",
      [](CodestreamParams &p) {
        p.precinct_width_exp = p.precinct_height_exp = {4, 4, 4};
      },
      "precinct sizes for 3 and 3 resolutions: 1 levels have 2");
  refused(
      "no component", [](CodestreamParams &p) { p.components.clear(); }, "Csiz");
  refused(
      "16385 components", [](CodestreamParams &p) { p.components.resize(16385); }, "Csiz");
  accepted("16384 components", [](CodestreamParams &p) { p.components.resize(16384); });
  refused(
      "Xsiz 0", [](CodestreamParams &p) { p.x1 = 0; }, "Xsiz (x1) = 0 must be 1..4294967295");
  refused(
      "Xsiz 2^32", [&](CodestreamParams &p) { p.x1 = p.tile_width = k2to32; }, "Xsiz");
  refused(
      "Ysiz 2^32", [&](CodestreamParams &p) { p.y1 = p.tile_height = k2to32; }, "Ysiz");
  accepted("Xsiz, Ysiz 2^32 - 1",
           [&](CodestreamParams &p) { p.x1 = p.tile_width = p.y1 = p.tile_height = k2to32 - 1; });
  refused(
      "XTsiz 0", [](CodestreamParams &p) { p.tile_width = 0; }, "XTsiz");
  refused(
      "YTsiz 2^32", [&](CodestreamParams &p) { p.tile_height = k2to32; }, "YTsiz");
  refused(
      "XOsiz = Xsiz", [](CodestreamParams &p) { p.x0 = 7; }, "XOsiz (x0) = 7 must be less than Xsiz");
  refused(
      "YOsiz > Ysiz", [](CodestreamParams &p) { p.y0 = 4; }, "YOsiz");
  refused(
      "XTOsiz > XOsiz", [](CodestreamParams &p) { p.x0 = 1, p.tile_x0 = 2; }, "XTOsiz (tile_x0) = 2 must not exceed");
  refused(
      "YTOsiz > YOsiz", [](CodestreamParams &p) { p.tile_y0 = 1; }, "YTOsiz");
  refused(
      "first tile left of the image", [](CodestreamParams &p) { p.x0 = 5, p.tile_width = 5; },
      "XTsiz + XTOsiz (5) must exceed XOsiz (5)");
  accepted("first tile reaching the image", [](CodestreamParams &p) { p.x0 = 5, p.tile_width = 6; });
  refused(
      "first tile above the image", [](CodestreamParams &p) { p.y0 = 2, p.tile_height = 1; }, "YTsiz + YTOsiz");
  refused(
      "65536 tiles", [](CodestreamParams &p) { p.x1 = 65536, p.y1 = 1, p.tile_width = p.tile_height = 1; },
      "65536 tiles");
  accepted("65535 tiles", [](CodestreamParams &p) { p.x1 = 65535, p.y1 = 1, p.tile_width = p.tile_height = 1; });
  refused(
      "bit depth 0", [](CodestreamParams &p) { p.components[0].bit_depth = 0; }, "Ssiz bit depth = 0 must be 1..38");
  refused(
      "bit depth 39", [](CodestreamParams &p) { p.components[0].bit_depth = 39; }, "bit depth");
  accepted("bit depths 1 and 38", [](CodestreamParams &p) { p.components = {{1, false, 1, 1}, {38, true, 1, 1}}; });
  refused(
      "XRsiz 0", [](CodestreamParams &p) { p.components[0].subsample_x = 0; }, "XRsiz (subsample_x) = 0");
  refused(
      "YRsiz 256", [](CodestreamParams &p) { p.components[0].subsample_y = 256; }, "YRsiz (subsample_y) = 256");
  accepted("subsampling 255",
           [](CodestreamParams &p) { p.components[0].subsample_x = p.components[0].subsample_y = 255; });
  refused(
      "33 levels", [](CodestreamParams &p) { p.levels = 33; }, "decomposition levels = 33 must be 0..32");
  accepted("32 levels", [](CodestreamParams &p) { p.levels = 32; });
  refused(
      "xcb 1", [](CodestreamParams &p) { p.cb_width_exp = 1; }, "xcb = 1 must be 2..10");
  refused(
      "xcb 11", [](CodestreamParams &p) { p.cb_width_exp = 11, p.cb_height_exp = 2; }, "xcb");
  refused(
      "ycb 1", [](CodestreamParams &p) { p.cb_height_exp = 1; }, "ycb = 1 must be 2..10");
  refused(
      "ycb 11", [](CodestreamParams &p) { p.cb_height_exp = 11, p.cb_width_exp = 2; }, "ycb");
  refused(
      "xcb + ycb 13", [](CodestreamParams &p) { p.cb_width_exp = 10, p.cb_height_exp = 3; },
      "xcb + ycb must be at most 12");
  accepted("1024 x 4 code-blocks", [](CodestreamParams &p) { p.cb_width_exp = 10, p.cb_height_exp = 2; });
  refused(
      "code-block style bit 7", [](CodestreamParams &p) { p.cb_style = 0x80; }, "code-block style");
  refused(
      "HT with bypass", [](CodestreamParams &p) { p.cb_style = 0x41; }, "only the vertically causal");
  accepted("every code-block style bit", [](CodestreamParams &p) { p.cb_style = t1::kStylePart1; });
  accepted("HT code-blocks, vertically causal", [](CodestreamParams &p) { p.cb_style = 0x48; });
  refused(
      "progression 5", [](CodestreamParams &p) { p.progression = Progression(5); }, "progression order 5");
  refused(
      "0 layers", [](CodestreamParams &p) { p.layers = 0; }, "layers = 0 must be 1..65535");
  refused(
      "65536 layers", [](CodestreamParams &p) { p.layers = 65536; }, "layers");
  accepted("65535 layers", [](CodestreamParams &p) { p.layers = 65535; });
  refused(
      "8 guard bits", [](CodestreamParams &p) { p.guard_bits = 8; }, "guard bits = 8 must be 0..7");
  refused(
      "transform of 1 component", [](CodestreamParams &p) { p.mct = true; },
      "multiple component transform needs 3 components");
  refused(
      "transform of unlike depths",
      [](CodestreamParams &p) {
        p.mct = true;
        p.components = {unsigned_component(8), unsigned_component(8), unsigned_component(9)};
      },
      "component 2 differs");
  refused(
      "transform of subsampled chroma",
      [](CodestreamParams &p) {
        p.mct = true;
        p.components = {unsigned_component(8), unsigned_component(8, 2), unsigned_component(8, 2)};
      },
      "component 1 differs");

  // The writers refuse what the check refuses, with its message.
  auto throws = [](const char *what, const std::function<void()> &f, const char *message) {
    std::string got = "no error";
    try {
      f();
    } catch (const cf::Error &e) {
      got = e.what();
    }
    CHECK_MSG(contains(got, message), "%s: got \"%s\", expected \"%s\"", what, got.c_str(), message);
  };
  CodestreamParams bad = small_config();
  bad.levels = 40;
  ByteWriter w;
  throws(
      "SIZ of bad parameters", [&] { write_siz(w, bad); }, "decomposition levels = 40");
  throws(
      "COD of bad parameters", [&] { write_cod(w, bad); }, "decomposition levels = 40");
  const CodestreamParams p = small_config();
  throws(
      "QCD of 3 steps for 1 level",
      [&] {
        write_qcd(w, p, {{8, 0}, {9, 0}, {9, 0}});
      },
      "one step per subband: 4 for 1 levels, not 3");
  throws(
      "QCD exponent 32",
      [&] {
        write_qcd(w, p, {{8, 0}, {9, 0}, {9, 0}, {32, 0}});
      },
      "exponent 32 must be 0..31");
  throws(
      "QCD mantissa without quantisation",
      [&] {
        write_qcd(w, p, {{8, 0}, {9, 5}, {9, 0}, {10, 0}});
      },
      "no mantissa");
  CodestreamParams lossy = p;
  lossy.reversible = false;
  throws(
      "QCD mantissa 2048",
      [&] {
        write_qcd(w, lossy, {{8, 0}, {9, 2048}, {9, 0}, {10, 0}});
      },
      "mantissa 2048 must be 0..2047");
  CHECK(w.size() == 0);  // nothing written by a refused segment
  throws(
      "Isot 65535", [&] { begin_tile_part(w, 65535, 0, 1); }, "Isot (tile) = 65535 must be 0..65534");
  throws(
      "TPsot 255", [&] { begin_tile_part(w, 0, 255, 0); }, "TPsot");
  throws(
      "TNsot 256", [&] { begin_tile_part(w, 0, 0, 256); }, "TNsot");
  throws(
      "TPsot = TNsot", [&] { begin_tile_part(w, 0, 2, 2); }, "must be less than TNsot");
  throws(
      "step 0", [] { expounded_step(0.0, 8); }, "positive");
  throws(
      "step needing exponent 40", [] { expounded_step(1.0 / (1u << 31) / 2, 8); }, "outside 0..31");
  throws(
      "COM of 65532 characters", [&] { write_com(w, std::string(65532, 'x')); }, "65536 bytes");
  ByteWriter longest;
  throws(
      "COM of 65531 characters", [&] { write_com(longest, std::string(65531, 'x')); }, "no error");
  CHECK(longest.size() == 2 + 65535 && longest.bytes()[2] == 0xFF && longest.bytes()[3] == 0xFF);
}

// Bodies appended later land where they were appended, between bytes
// written directly, whatever the threads and piece sizes: against the
// same bytes appended one by one; a buffer kept from a longer codestream
// comes back cut to this one; an insertion after deferred bodies moves them.
static void deferred_bodies() {
  std::vector<Bytes> bodies;
  std::uint32_t x = 3;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(5000), std::size_t(3) << 20, std::size_t(700000),
                        std::size_t(257) << 10, std::size_t(9)}) {
    Bytes b(n);
    for (std::uint8_t &v : b) x = x * 1664525u + 1013904223u, v = std::uint8_t(x >> 24);
    bodies.push_back(std::move(b));
  }
  Bytes want;
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    want.push_back(std::uint8_t(0xA0 + i));
    want.insert(want.end(), bodies[i].begin(), bodies[i].end());
  }
  for (int threads : {1, 4, 0}) {
    ByteWriter w(Bytes(want.size() + 12345, 0xEE), threads);  // a longer codestream's buffer
    for (std::size_t i = 0; i < bodies.size(); ++i) {
      w.u8(std::uint8_t(0xA0 + i));
      w.append_later(bodies[i].data(), bodies[i].size());
    }
    CHECK_MSG(w.size() == want.size(), "%d threads: %zu bytes counted, %zu written", threads, w.size(), want.size());
    const Bytes got = w.take();
    CHECK_MSG(got == want, "%d threads: deferred bodies: %zu bytes, %s", threads, got.size(),
              got.size() == want.size() ? "some differ" : "not the size written");
  }
  ByteWriter w(Bytes{}, 4);
  w.u8(1);
  w.append_later(bodies[3].data(), bodies[3].size());
  const std::uint8_t put[2] = {7, 8};
  w.insert(1, put, 2);
  Bytes moved = {1, 7, 8};
  moved.insert(moved.end(), bodies[3].begin(), bodies[3].end());
  check_bytes(w, moved, "an insertion before a deferred body");
}

int main() {
  known_bytes_small_config();
  known_bytes_wide_config();
  known_bytes_other_segments();
  length_segments();
  known_bytes_precincts();
  tile_part_counts();
  subband_order();
  expounded_steps();
  rules();
  packet_counts();
  deferred_bodies();
  if (cft::failures()) return cft::test_result();
  const int skip = empty_codestreams();
  if (skip && !cft::failures()) return skip;
  return cft::test_result();
}
