// cf::j2k_read_file, cf::j2k_write_file and cf::j2k_coding_info
// (cudafilters/j2k_file.hpp), on the decoder's own readers: the JP2 boxes
// (j2k_jp2.cpp) and the codestream's headers (j2k_header_reader.cpp).
#include "cudafilters/j2k_file.hpp"

#include <cstdio>
#include <string>
#include <utility>

#include "core/codec/j2k_header.hpp"
#include "core/codec/j2k_markers.hpp"  // ByteWriter
#include "cudafilters/error.hpp"
#include "j2k_jp2.hpp"

namespace cf {
namespace {

// Four characters of a box type, as ByteWriter bytes.
void put_type(j2k::ByteWriter &w, const char (&t)[5]) { w.append(reinterpret_cast<const std::uint8_t *>(t), 4); }

// A box of `type` around what `fill` writes (LBox: its length, header
// included).
template <class Fill>
void box(j2k::ByteWriter &w, const char (&type)[5], Fill fill) {
  const std::size_t at = w.size();
  w.u32(0);
  put_type(w, type);
  fill();
  w.patch_u32(at, std::uint32_t(w.size() - at));
}

}  // namespace

J2kFileKind j2k_file_kind(const std::uint8_t *data, std::size_t size) {
  switch (j2k::detect_j2k_format(data, size)) {
    case j2k::J2kFormat::Codestream: return J2kFileKind::Codestream;
    case j2k::J2kFormat::Jp2: return J2kFileKind::Boxed;
    default: return J2kFileKind::Unknown;
  }
}

J2kFileView j2k_read_file(const std::uint8_t *data, std::size_t size) {
  J2kFileView v;
  switch (j2k::detect_j2k_format(data, size)) {
    case j2k::J2kFormat::Codestream:
      v.codestream = data;
      v.size = size;
      return v;
    case j2k::J2kFormat::Jp2: {
      const j2k::Jp2Info jp2 = j2k::read_jp2(data, size);
      v.codestream = data + jp2.codestream.offset;
      v.size = jp2.codestream.length;
      v.boxed = true;
      if (jp2.colour_method == 1) switch (j2k::Jp2Colourspace(jp2.enumerated_colourspace)) {
          case j2k::Jp2Colourspace::Srgb: v.colourspace = J2kColourspace::Srgb; break;
          case j2k::Jp2Colourspace::Greyscale: v.colourspace = J2kColourspace::Greyscale; break;
          case j2k::Jp2Colourspace::Sycc: v.colourspace = J2kColourspace::Sycc; break;
        }
      return v;
    }
    default:
      throw Error("JPEG 2000 file: neither a codestream (SOC then SIZ) nor a JP2/JPH file (the JP2 signature box)",
                  ErrorKind::CorruptData);
  }
}

J2kCodingInfo j2k_coding_info(const std::uint8_t *codestream, std::size_t size) {
  const j2k::Header h = j2k::read_header(codestream, size);
  J2kCodingInfo c;
  const j2k::ImageGrid &g = h.grid;
  c.capabilities = g.capabilities;
  c.tile_width = g.tile_width;
  c.tile_height = g.tile_height;
  c.tile_x0 = g.tile_x0;
  c.tile_y0 = g.tile_y0;
  c.tiles_across = g.tiles_x;
  c.tiles_down = g.tiles_y;
  const j2k::TileCoding &t = h.main.cod_tile;
  c.colour_transform = t.mct;
  c.progression = int(t.progression);
  c.layers = int(t.layers);
  c.sop = t.sop;
  c.eph = t.eph;
  c.quantisation = int(h.main.qcd.style);
  c.guard_bits = int(h.main.qcd.guard_bits);
  const auto coding_of = [](int tile, int component, const j2k::ComponentCoding &k) {
    J2kComponentCoding e;
    e.tile = tile;
    e.component = component;
    e.levels = int(k.levels);
    e.codeblock_width = 1 << k.cb_width_exp;
    e.codeblock_height = 1 << k.cb_height_exp;
    e.codeblock_style = k.cb_style;
    e.reversible = k.reversible;
    for (std::size_t r = 0; r < k.precinct_width_exp.size(); ++r) {
      e.precinct_width.push_back(1 << k.precinct_width_exp[r]);
      e.precinct_height.push_back(1 << k.precinct_height_exp[r]);
    }
    return e;
  };
  const auto same = [](const j2k::ComponentCoding &a, const j2k::ComponentCoding &b) {
    return a.levels == b.levels && a.cb_width_exp == b.cb_width_exp && a.cb_height_exp == b.cb_height_exp &&
           a.cb_style == b.cb_style && a.reversible == b.reversible && a.precinct_width_exp == b.precinct_width_exp &&
           a.precinct_height_exp == b.precinct_height_exp;
  };
  // COD's coding; each component's in the main header (COD, then COC),
  // for every tile without coding segments of its own; a tile's where they
  // change it.
  const j2k::ComponentCoding &cod = h.main.cod_component;
  c.coding = coding_of(-1, -1, cod);
  const j2k::ResolvedTile main = j2k::resolve_main(h);
  for (std::size_t comp = 0; comp < main.components.size(); ++comp)
    if (!same(main.components[comp], cod))
      c.component_codings.push_back(coding_of(-1, int(comp), main.components[comp]));
  for (std::uint32_t tile = 0; tile < h.tiles.size(); ++tile) {
    const j2k::HeaderSegments &own = h.tiles[tile].segments;
    if (!own.has_cod && own.coc.empty()) continue;
    const j2k::ResolvedTile tc = j2k::resolve(h, tile);
    for (std::size_t comp = 0; comp < tc.components.size(); ++comp)
      if (!same(tc.components[comp], main.components[comp]))
        c.component_codings.push_back(coding_of(int(tile), int(comp), tc.components[comp]));
  }
  for (std::uint16_t m : h.main_markers) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%04X", unsigned(m));
    const char *name = j2k::marker_name(m);
    c.markers.push_back(name[0] == 'm' ? hex : name);  // T.800 names it, or its code
  }
  return c;
}

void j2k_write_file(const std::uint8_t *codestream, std::size_t size, J2kColourspace colourspace, bool jph,
                    std::vector<std::uint8_t> &out) {
  // The Image Header box's fields are SIZ's (T.800 I.5.3.1), as the decoder reads it.
  const j2k::ImageGrid g = j2k::read_header(codestream, size).grid;
  std::vector<std::uint8_t> ssiz;  // per component: depth - 1, bit 7 signed
  for (const j2k::Component &k : g.components)
    ssiz.push_back(std::uint8_t((k.bit_depth - 1) | (k.is_signed ? 0x80 : 0)));
  bool same_depths = true;
  for (std::uint8_t v : ssiz) same_depths &= v == ssiz[0];
  const bool unknown = colourspace == J2kColourspace::Unknown;
  if (unknown) colourspace = ssiz.size() >= 3 ? J2kColourspace::Srgb : J2kColourspace::Greyscale;
  const std::uint32_t enumerated = colourspace == J2kColourspace::Srgb        ? 16
                                   : colourspace == J2kColourspace::Greyscale ? 17
                                                                              : 18;
  j2k::ByteWriter w(std::move(out));  // the caller's buffer, written over
  box(w, "jP  ", [&] { w.u32(0x0D0A870A); });
  box(w, "ftyp", [&] {
    put_type(w, jph ? "jph " : "jp2 ");  // BR
    w.u32(0);                            // MinV
    put_type(w, jph ? "jph " : "jp2 ");  // CL
  });
  box(w, "jp2h", [&] {
    box(w, "ihdr", [&] {
      w.u32(g.y1 - g.y0);
      w.u32(g.x1 - g.x0);
      w.u16(std::uint16_t(ssiz.size()));
      w.u8(same_depths ? ssiz[0] : 255);  // BPC (255: a bpcc box follows)
      w.u8(7);                            // C: JPEG 2000
      w.u8(unknown ? 1 : 0);              // UnkC
      w.u8(0);                            // IPR
    });
    if (!same_depths) box(w, "bpcc", [&] { w.append(ssiz.data(), ssiz.size()); });
    box(w, "colr", [&] {
      w.u8(1);  // METH: enumerated
      w.u8(0);  // PREC
      w.u8(0);  // APPROX
      w.u32(enumerated);
    });
  });
  box(w, "jp2c", [&] { w.append(codestream, size); });
  out = w.take();
}

}  // namespace cf
