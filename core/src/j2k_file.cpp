// cf::j2k_read_file and cf::j2k_write_file (cudafilters/j2k_file.hpp): the
// reading is the decoder's own (j2k_jp2.cpp); the writing lays the boxes
// out from the codestream's SIZ.
#include "cudafilters/j2k_file.hpp"

#include <cstdio>
#include <string>

#include "cudafilters/error.hpp"
#include "j2k_header.hpp"
#include "j2k_jp2.hpp"

namespace cf {
namespace {

void put32(std::vector<std::uint8_t> &o, std::uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) o.push_back(std::uint8_t(v >> shift));
}
void put16(std::vector<std::uint8_t> &o, std::uint32_t v) {
  o.push_back(std::uint8_t(v >> 8));
  o.push_back(std::uint8_t(v));
}
void put_type(std::vector<std::uint8_t> &o, const char (&t)[5]) { o.insert(o.end(), t, t + 4); }
std::uint32_t be32(const std::uint8_t *p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}
std::uint32_t be16(const std::uint8_t *p) { return std::uint32_t(p[0]) << 8 | p[1]; }

// What the Image Header box takes from SIZ (T.800 A.5.1).
struct Siz {
  std::uint32_t width = 0, height = 0, components = 0;
  std::vector<std::uint8_t> ssiz;  // per component: depth - 1, bit 7 signed
};

Siz read_siz(const std::uint8_t *c, std::size_t size) {
  if (size < 4 || be16(c) != 0xFF4F || be16(c + 2) != 0xFF51)
    throw Error("JPEG 2000 file: the codestream does not start with SOC and SIZ");
  if (size < 6) throw Error("JPEG 2000 file: the codestream's SIZ is cut");
  const std::size_t lsiz = be16(c + 4);
  if (lsiz < 41 || 4 + lsiz > size) throw Error("JPEG 2000 file: the codestream's SIZ is cut or too short");
  const std::uint8_t *s = c + 6;  // Rsiz
  Siz z;
  const std::uint32_t x1 = be32(s + 2), y1 = be32(s + 6), x0 = be32(s + 10), y0 = be32(s + 14);
  z.components = be16(s + 34);
  if (x1 <= x0 || y1 <= y0 || z.components == 0 || lsiz != 38 + 3 * std::size_t(z.components))
    throw Error("JPEG 2000 file: the codestream's SIZ is inconsistent (image area or component count)");
  z.width = x1 - x0;
  z.height = y1 - y0;
  for (std::uint32_t i = 0; i < z.components; ++i) z.ssiz.push_back(s[36 + 3 * i]);
  return z;
}

// A box of `type` around what `fill` appends.
template <class Fill>
void box(std::vector<std::uint8_t> &o, const char (&type)[5], Fill fill) {
  const std::size_t at = o.size();
  put32(o, 0);
  put_type(o, type);
  fill();
  const std::size_t length = o.size() - at;
  for (int i = 0; i < 4; ++i) o[at + i] = std::uint8_t(length >> (24 - 8 * i));
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
  const j2k::ComponentCoding &k = h.main.cod_component;
  const j2k::TileCoding &t = h.main.cod_tile;
  c.levels = int(k.levels);
  c.codeblock_width = 1 << k.cb_width_exp;
  c.codeblock_height = 1 << k.cb_height_exp;
  c.codeblock_style = k.cb_style;
  c.ht = (k.cb_style & j2k::cb_style::kHt) != 0;
  c.reversible = k.reversible;
  c.colour_transform = t.mct;
  c.progression = int(t.progression);
  c.layers = int(t.layers);
  c.sop = t.sop;
  c.eph = t.eph;
  for (std::size_t r = 0; r < k.precinct_width_exp.size(); ++r) {
    c.precinct_width.push_back(1 << k.precinct_width_exp[r]);
    c.precinct_height.push_back(1 << k.precinct_height_exp[r]);
  }
  c.quantisation = int(h.main.qcd.style);
  c.guard_bits = int(h.main.qcd.guard_bits);
  // The main header's markers: SOC, then segments (each Lxxx long) up to
  // the first SOT; read_header has checked their lengths.
  static const std::pair<std::uint32_t, const char *> kNames[] = {
      {0xFF51, "SIZ"}, {0xFF50, "CAP"}, {0xFF52, "COD"}, {0xFF53, "COC"}, {0xFF5C, "QCD"},
      {0xFF5D, "QCC"}, {0xFF5E, "RGN"}, {0xFF5F, "POC"}, {0xFF60, "PPM"}, {0xFF55, "TLM"},
      {0xFF57, "PLM"}, {0xFF63, "CRG"}, {0xFF64, "COM"}, {0xFF59, "CPF"}};
  for (std::size_t at = 2; at + 4 <= size;) {
    const std::uint32_t marker = be16(codestream + at);
    if (marker == 0xFF90 || marker == 0xFFD9) break;  // SOT, EOC
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%04X", unsigned(marker));
    std::string name = hex;
    for (const auto &[code, text] : kNames)
      if (code == marker) name = text;
    c.markers.push_back(name);
    at += 2 + be16(codestream + at + 2);
  }
  return c;
}

void j2k_write_file(const std::uint8_t *codestream, std::size_t size, J2kColourspace colourspace, bool jph,
                    std::vector<std::uint8_t> &out) {
  const Siz siz = read_siz(codestream, size);
  if (siz.components > 16384) throw Error("JPEG 2000 file: more than 16384 components");
  bool same_depths = true;
  for (std::uint8_t s : siz.ssiz) same_depths &= s == siz.ssiz[0];
  const bool unknown = colourspace == J2kColourspace::Unknown;
  if (unknown) colourspace = siz.components >= 3 ? J2kColourspace::Srgb : J2kColourspace::Greyscale;
  const std::uint32_t enumerated = colourspace == J2kColourspace::Srgb        ? 16
                                   : colourspace == J2kColourspace::Greyscale ? 17
                                                                              : 18;
  out.clear();
  out.reserve(size + 128);
  box(out, "jP  ", [&] { put32(out, 0x0D0A870A); });
  box(out, "ftyp", [&] {
    put_type(out, jph ? "jph " : "jp2 ");  // BR
    put32(out, 0);                         // MinV
    put_type(out, jph ? "jph " : "jp2 ");  // CL
  });
  box(out, "jp2h", [&] {
    box(out, "ihdr", [&] {
      put32(out, siz.height);
      put32(out, siz.width);
      put16(out, siz.components);
      out.push_back(same_depths ? siz.ssiz[0] : 255);  // BPC (255: a bpcc box follows)
      out.push_back(7);                                // C: JPEG 2000
      out.push_back(unknown ? 1 : 0);                  // UnkC
      out.push_back(0);                                // IPR
    });
    if (!same_depths) box(out, "bpcc", [&] { out.insert(out.end(), siz.ssiz.begin(), siz.ssiz.end()); });
    box(out, "colr", [&] {
      out.push_back(1);  // METH: enumerated
      out.push_back(0);  // PREC
      out.push_back(0);  // APPROX
      put32(out, enumerated);
    });
  });
  box(out, "jp2c", [&] { out.insert(out.end(), codestream, codestream + size); });
}

}  // namespace cf
