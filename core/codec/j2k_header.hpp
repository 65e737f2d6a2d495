// What a JPEG 2000 Part 1 codestream's headers say (ITU-T T.800 Annex A),
// as the decoder reads them: the image and tile grid of SIZ, the marker
// segments of the main header and of each tile's tile-part headers as they
// were written (COD, COC, QCD, QCC, RGN, POC, packed packet headers), and
// where each tile-part's packet data lies in the codestream. Internal to
// core/.
//
// A tile's segments are kept as read, not merged with the main header's:
// a codestream of 65535 tiles and 16384 components would otherwise cost a
// full copy per tile. resolve() merges them for one tile at a time, with
// T.800 A.6's precedence: tile-part COC > tile-part COD > main COC > main
// COD (and likewise QCC > QCD, per component).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/codec/j2k_markers.hpp"  // Component, Progression, ProgressionChange, SubbandStep, marker codes
#include "cudafilters/j2k.hpp"         // j2k_limits

namespace cf::j2k {

// Limits of T.800 the reader enforces before it allocates anything.
constexpr std::uint32_t kMaxComponents = 16384;               // Csiz
constexpr std::uint32_t kMaxLevels = j2k_limits::kMaxLevels;  // NL
constexpr std::uint32_t kMaxTiles = 65535;                    // Isot 0..65534
constexpr std::uint32_t kMaxLayers = j2k_limits::kMaxLayers;

// SIZ: the reference grid and the tiles on it.
struct ImageGrid {
  std::uint16_t capabilities = 0;                 // Rsiz
  std::uint32_t x1 = 0, y1 = 0, x0 = 0, y0 = 0;   // Xsiz, Ysiz, XOsiz, YOsiz
  std::uint32_t tile_width = 0, tile_height = 0;  // XTsiz, YTsiz
  std::uint32_t tile_x0 = 0, tile_y0 = 0;         // XTOsiz, YTOsiz
  std::uint32_t tiles_x = 0, tiles_y = 0;         // tiles across and down
  std::vector<Component> components;              // Csiz of them
};

// COD's SPcod or COC's SPcoc: how one component is coded.
struct ComponentCoding {
  std::uint32_t levels = 0;                           // NL, 0..32
  std::uint32_t cb_width_exp = 6, cb_height_exp = 6;  // xcb, ycb (2..10, xcb + ycb <= 12)
  std::uint8_t cb_style = 0;                          // cb_style bits
  bool reversible = true;                             // 5/3 (true) or 9/7
  // Precinct size exponents PPx, PPy per resolution r = 0..NL; 15 and 15
  // (maximal precincts) when Scod/Scoc does not define them.
  std::vector<std::uint8_t> precinct_width_exp, precinct_height_exp;
};

// COD's Scod bits and SGcod: for the whole tile.
struct TileCoding {
  bool sop = false;  // SOP marker segments may precede packets
  bool eph = false;  // EPH markers follow packet headers
  Progression progression = Progression::Lrcp;
  std::uint32_t layers = 1;
  bool mct = false;  // component transform on components 0..2
};

// QCD's or QCC's Sqcx and SPqcx.
enum class QuantStyle : std::uint8_t { None = 0, Derived = 1, Expounded = 2 };
struct ComponentQuant {
  QuantStyle style = QuantStyle::None;
  std::uint32_t guard_bits = 2;
  // None: one exponent per subband (mantissa 0), in subbands_in_order();
  // Derived: one step, the LL band's (the others follow from it, E-5);
  // Expounded: one per subband.
  std::vector<SubbandStep> steps;
};

// The coding marker segments of one header (the main header, or the
// tile-part headers of one tile), as read.
struct HeaderSegments {
  bool has_cod = false;
  TileCoding cod_tile;                                         // COD's tile part (SGcod, Scod)
  ComponentCoding cod_component;                               // COD's component part (SPcod)
  std::vector<std::pair<std::uint32_t, ComponentCoding>> coc;  // (Ccoc, SPcoc)
  bool has_qcd = false;
  ComponentQuant qcd;
  std::vector<std::pair<std::uint32_t, ComponentQuant>> qcc;  // (Cqcc, ...)
  std::vector<std::pair<std::uint32_t, std::uint32_t>> rgn;   // (Crgn, SPrgn): ROI max-shift
  std::vector<ProgressionChange> poc;
};

// A range of bytes of the codestream.
struct ByteSpan {
  std::size_t offset = 0, length = 0;
};

struct TileHeaders {
  HeaderSegments segments;           // from the tile-part headers of this tile
  std::vector<ByteSpan> parts;       // each tile-part's packet data (after SOD), in TPsot order
  std::vector<std::uint8_t> packed;  // the packet headers of PPT, or of PPM for this tile's parts, in order
  bool headers_packed = false;       // packet headers come from `packed`, not from the packet data
};

struct Header {
  ImageGrid grid;
  HeaderSegments main;
  std::vector<std::uint16_t> main_markers;  // the main header's marker segments, in order (SIZ first)
  std::vector<TileHeaders> tiles;           // tiles_x * tiles_y, by tile index; a tile with no tile-part has no parts
};

// "SIZ", "COD", ... for a marker segment's code; "marker segment" for one
// T.800 does not name.
const char *marker_name(std::uint16_t marker);

// Reads the main header and every tile-part header of `data` (SOC to EOC,
// or to the end of the data when EOC is missing: a truncated stream
// decodes as far as it goes). Every length is checked against the bytes
// left and against T.800's limits before it is used. Throws cf::Error
// naming the marker, the field and the rule broken.
Header read_header(const std::uint8_t *data, std::size_t size);

// The coding of one tile, its segments merged with the main header's.
struct ResolvedTile {
  TileCoding coding;
  std::vector<ComponentCoding> components;  // per component
  std::vector<ComponentQuant> quant;        // per component
  std::vector<std::uint32_t> roi_shift;     // per component, 0 = no ROI
  std::vector<ProgressionChange> poc;       // the tile's POC, else the main header's
};
ResolvedTile resolve(const Header &h, std::uint32_t tile);
// The main header's coding alone: what a tile without coding segments of
// its own gets.
ResolvedTile resolve_main(const Header &h);

}  // namespace cf::j2k
