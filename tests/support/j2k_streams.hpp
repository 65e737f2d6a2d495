// JPEG 2000 codestreams written byte by byte from the marker syntax of
// ITU-T T.800 Annex A (SOC, SIZ A.5.1, COD A.6.1, QCD A.6.4, SOT A.4.2,
// SOD, EOC), not by the encoder under test: headers that claim frames of
// any size, with tile-parts whose packets carry little or nothing, for the
// decoder's limits and for what an absent code-block costs.
#pragma once

#include <cstdint>
#include <vector>

namespace cft {

struct HandStream {
  std::uint32_t width = 1, height = 1;            // Xsiz, Ysiz (XOsiz = YOsiz = 0)
  std::uint32_t tile_width = 1, tile_height = 1;  // XTsiz, YTsiz (XTOsiz = YTOsiz = 0)
  std::uint32_t components = 1;                   // Csiz: unsigned 8-bit (Ssiz 7), XRsiz = YRsiz = 1 ...
  std::uint8_t chroma_subsampling = 1;            // ... except components 1 and 2 of 3: XRsiz = YRsiz = this
  bool mct = false;                               // SGcod's colour transform (components 0..2)
  std::uint8_t levels = 5;                        // NL
  std::uint8_t block_exp = 6;                     // xcb = ycb (code-blocks of 2^block_exp a side)
  std::uint8_t precinct_exp = 0;                  // 0: maximal precincts; else PPx = PPy at every resolution
  std::uint16_t layers = 1;
  // One tile-part (TPsot 0, TNsot 1) for each of the first `tile_parts`
  // tiles, `body` after its SOD: 0x00 bytes are empty packets (B.10.3's
  // first bit 0), one per packet.
  std::uint32_t tile_parts = 1;
  std::vector<std::uint8_t> body;
};

inline std::vector<std::uint8_t> hand_codestream(const HandStream &s) {
  std::vector<std::uint8_t> b;
  const auto u8 = [&](std::uint32_t v) { b.push_back(std::uint8_t(v)); };
  const auto u16 = [&](std::uint32_t v) { u8(v >> 8), u8(v); };
  const auto u32 = [&](std::uint32_t v) { u16(v >> 16), u16(v & 0xFFFF); };
  u16(0xFF4F);                                      // SOC
  u16(0xFF51), u16(38 + 3 * s.components), u16(0);  // SIZ, Lsiz, Rsiz
  for (std::uint32_t v : {s.width, s.height, 0u, 0u, s.tile_width, s.tile_height, 0u, 0u}) u32(v);
  u16(s.components);
  for (std::uint32_t c = 0; c < s.components; ++c) {
    const std::uint8_t sub = (c == 1 || c == 2) && s.components >= 3 ? s.chroma_subsampling : 1;
    u8(7), u8(sub), u8(sub);  // Ssiz: unsigned, 8 bits; XRsiz, YRsiz
  }
  const bool precincts = s.precinct_exp != 0;
  u16(0xFF52), u16(12 + (precincts ? s.levels + 1 : 0));                 // COD, Lcod
  u8(precincts ? 1 : 0);                                                 // Scod: precinct sizes follow, no SOP, no EPH
  u8(0), u16(s.layers), u8(s.mct ? 1 : 0);                               // SGcod: LRCP, layers, colour transform
  u8(s.levels), u8(s.block_exp - 2), u8(s.block_exp - 2), u8(0), u8(1);  // SPcod: NL, xcb, ycb, style, the 5/3
  if (precincts)
    for (std::uint32_t r = 0; r <= s.levels; ++r) u8(s.precinct_exp << 4 | s.precinct_exp);  // PPy, PPx
  const std::uint32_t subbands = 3u * s.levels + 1;
  u16(0xFF5C), u16(3 + subbands), u8(2 << 5);               // QCD, Lqcd, Sqcd: no quantisation, 2 guard bits
  for (std::uint32_t i = 0; i < subbands; ++i) u8(9 << 3);  // SPqcd: exponent 9 per subband
  for (std::uint32_t t = 0; t < s.tile_parts; ++t) {
    u16(0xFF90), u16(10), u16(t), u32(std::uint32_t(14 + s.body.size())), u8(0), u8(1);  // SOT
    u16(0xFF93);                                                                         // SOD
    b.insert(b.end(), s.body.begin(), s.body.end());
  }
  u16(0xFFD9);  // EOC
  return b;
}

// A codestream of about a hundred bytes claiming 1109 x 2098808 samples
// (2,327,578,072: 2.3 GB of 8-bit samples) in tiles of 10^6 x 10^6, its
// first tile-part holding a few empty packets.
inline HandStream huge_claim() {
  HandStream s;
  s.width = 1109, s.height = 2098808;
  s.tile_width = s.tile_height = 1000000;
  s.body.assign(6, 0);
  return s;
}

}  // namespace cft
