// Reading a JPEG 2000 Part 1 codestream's headers (T.800 Annex A) into
// the model of j2k_header.hpp.
//
// Rules the reader keeps, beyond each field's range:
//  - SOC, then SIZ; COD and QCD must be in the main header.
//  - Markers 0xFF30..0xFF3F are markers alone (T.800 Table A.1: no
//    parameters) and are skipped as two bytes; any other unknown marker is
//    skipped by its length. TLM, PLM, PLT, CRG, COM, CAP and CPF are checked
//    for length only (the decoder finds packets by itself).
//  - One COD and one QCD per header, one COC, QCC and RGN per component
//    per header. COD, COC, QCD, QCC and RGN are refused in a tile-part
//    other than a tile's first (T.800 A.4.2, Table A.2): accepting them
//    would change a tile's coding between its tile-parts.
//  - Tile-parts of a tile come in TPsot order 0, 1, 2, ...; TNsot, when
//    not 0, is the same in each and greater than TPsot.
//  - A marker segment that runs past its tile-part (Psot) is refused; one
//    that runs past the end of the data ends the reading there, dropping
//    that unfinished tile-part: a truncated stream decodes as far as it
//    goes. The main header must be whole.
//  - PPM (main header) and PPT (tile-parts) are not both used.
#include <algorithm>
#include <cstdio>

#include "core/codec/j2k_header.hpp"
#include "core/shared/ceil_div.hpp"
#include "cudafilters/error.hpp"

namespace cf::j2k {
namespace {

// Markers the reader knows besides those of j2k_markers.hpp (T.800 A.2).
constexpr std::uint16_t kCoc = 0xFF53;
constexpr std::uint16_t kPlm = 0xFF57;
constexpr std::uint16_t kCpf = 0xFF59;  // corresponding profile (Part 1 amendment)
constexpr std::uint16_t kQcc = 0xFF5D;
constexpr std::uint16_t kRgn = 0xFF5E;
constexpr std::uint16_t kPpm = 0xFF60;
constexpr std::uint16_t kPpt = 0xFF61;
constexpr std::uint16_t kCrg = 0xFF63;

constexpr std::size_t kSotLength = 10;  // Lsot
constexpr const char *kMainHeader = "the main header";

[[noreturn]] void fail(const std::string &what) {
  throw Error("JPEG 2000 codestream: " + what, ErrorKind::CorruptData);
}

std::string hex16(std::uint32_t v) {
  char s[8];
  std::snprintf(s, sizeof s, "0x%04X", v & 0xFFFFu);
  return s;
}

std::string n(std::uint64_t v) { return std::to_string(v); }

// The parameters of one marker segment: [pos, end) of the data. Reading
// past `end` is refused with the segment's name and the field.
class Segment {
 public:
  Segment(const std::uint8_t *data, std::size_t pos, std::size_t end, const char *name)
      : data_(data), pos_(pos), end_(end), name_(name) {}

  std::size_t left() const { return end_ - pos_; }
  std::size_t pos() const { return pos_; }
  const char *name() const { return name_; }

  std::uint32_t u8(const char *field) {
    need(1, field);
    return data_[pos_++];
  }
  std::uint32_t u16(const char *field) {
    need(2, field);
    const std::uint32_t v = std::uint32_t(data_[pos_]) << 8 | data_[pos_ + 1];
    pos_ += 2;
    return v;
  }
  std::uint32_t u32(const char *field) {
    need(4, field);
    const std::uint32_t v = std::uint32_t(data_[pos_]) << 24 | std::uint32_t(data_[pos_ + 1]) << 16 |
                            std::uint32_t(data_[pos_ + 2]) << 8 | data_[pos_ + 3];
    pos_ += 4;
    return v;
  }
  // A component index: 8 bits when Csiz < 257, else 16 (T.800 A.6).
  std::uint32_t component(const char *field, std::uint32_t csiz) {
    const std::uint32_t c = csiz < 257 ? u8(field) : u16(field);
    if (c >= csiz) fail(std::string(name_) + " " + field + " = " + n(c) + " must be below Csiz = " + n(csiz));
    return c;
  }
  const std::uint8_t *bytes(std::size_t count, const char *field) {
    need(count, field);
    const std::uint8_t *p = data_ + pos_;
    pos_ += count;
    return p;
  }
  // Every parameter read: a segment longer than its fields is refused.
  void done() const {
    if (pos_ != end_)
      fail(std::string(name_) + " is " + n(left()) + " byte(s) longer than its fields (Lxxx does not match them)");
  }

 private:
  void need(std::size_t count, const char *field) const {
    if (left() < count) fail(std::string(name_) + " " + field + ": the segment ends before it (Lxxx too short)");
  }
  const std::uint8_t *data_;
  std::size_t pos_, end_;
  const char *name_;
};

void read_siz(Segment &s, ImageGrid &g) {
  g.capabilities = std::uint16_t(s.u16("Rsiz"));
  g.x1 = s.u32("Xsiz");
  g.y1 = s.u32("Ysiz");
  g.x0 = s.u32("XOsiz");
  g.y0 = s.u32("YOsiz");
  g.tile_width = s.u32("XTsiz");
  g.tile_height = s.u32("YTsiz");
  g.tile_x0 = s.u32("XTOsiz");
  g.tile_y0 = s.u32("YTOsiz");
  const std::uint32_t csiz = s.u16("Csiz");
  if (csiz < 1 || csiz > kMaxComponents) fail("SIZ Csiz = " + n(csiz) + " must be 1.." + n(kMaxComponents));
  // Lsiz = 38 + 3 Csiz, checked before the components are stored so that
  // they cost no more than the bytes that are there.
  if (s.left() != 3ull * csiz) fail("SIZ Lsiz = " + n(s.left() + 38) + " must be 38 + 3 Csiz = " + n(38 + 3ull * csiz));
  if (g.x1 <= g.x0) fail("SIZ Xsiz = " + n(g.x1) + " must be greater than XOsiz = " + n(g.x0) + " (empty image)");
  if (g.y1 <= g.y0) fail("SIZ Ysiz = " + n(g.y1) + " must be greater than YOsiz = " + n(g.y0) + " (empty image)");
  if (g.tile_width == 0) fail("SIZ XTsiz = 0 must be at least 1");
  if (g.tile_height == 0) fail("SIZ YTsiz = 0 must be at least 1");
  // T.800 B.3: the first tile covers the image's first sample.
  if (g.tile_x0 > g.x0 || std::uint64_t(g.tile_x0) + g.tile_width <= g.x0)
    fail("SIZ XTOsiz = " + n(g.tile_x0) + " must satisfy XTOsiz <= XOsiz = " + n(g.x0) +
         " < XTOsiz + XTsiz = " + n(std::uint64_t(g.tile_x0) + g.tile_width));
  if (g.tile_y0 > g.y0 || std::uint64_t(g.tile_y0) + g.tile_height <= g.y0)
    fail("SIZ YTOsiz = " + n(g.tile_y0) + " must satisfy YTOsiz <= YOsiz = " + n(g.y0) +
         " < YTOsiz + YTsiz = " + n(std::uint64_t(g.tile_y0) + g.tile_height));
  g.tiles_x = ceil_div(g.x1 - g.tile_x0, g.tile_width);
  g.tiles_y = ceil_div(g.y1 - g.tile_y0, g.tile_height);
  const std::uint64_t tiles = std::uint64_t(g.tiles_x) * g.tiles_y;
  if (tiles > kMaxTiles)
    fail("SIZ tile grid of " + n(g.tiles_x) + " x " + n(g.tiles_y) + " = " + n(tiles) +
         " tiles: at most 65535 (Isot is 0..65534)");
  g.components.resize(csiz);
  for (std::uint32_t c = 0; c < csiz; ++c) {
    Component &k = g.components[c];
    const std::uint32_t ssiz = s.u8("Ssiz");
    k.bit_depth = (ssiz & 0x7F) + 1;
    k.is_signed = (ssiz & 0x80) != 0;
    if (k.bit_depth > 38) fail("SIZ Ssiz of component " + n(c) + ": bit depth " + n(k.bit_depth) + " must be 1..38");
    k.subsample_x = s.u8("XRsiz");
    k.subsample_y = s.u8("YRsiz");
    if (k.subsample_x == 0) fail("SIZ XRsiz of component " + n(c) + " = 0 must be 1..255");
    if (k.subsample_y == 0) fail("SIZ YRsiz of component " + n(c) + " = 0 must be 1..255");
  }
  s.done();
}

// SPcod or SPcoc (T.800 Tables A.15 to A.20); `precincts`: Scod/Scoc bit 0.
ComponentCoding read_component_coding(Segment &s, bool precincts) {
  const std::string m = s.name();
  ComponentCoding cc;
  cc.levels = s.u8("NL (decomposition levels)");
  if (cc.levels > kMaxLevels) fail(m + " NL = " + n(cc.levels) + " decomposition levels: at most 32");
  const std::uint32_t xcb = s.u8("xcb") + 2, ycb = s.u8("ycb") + 2;
  if (xcb > 10) fail(m + " code-block width exponent xcb = " + n(xcb) + " must be 2..10");
  if (ycb > 10) fail(m + " code-block height exponent ycb = " + n(ycb) + " must be 2..10");
  if (xcb + ycb > 12) fail(m + " code-block exponents xcb + ycb = " + n(xcb + ycb) + " must be at most 12");
  cc.cb_width_exp = xcb;
  cc.cb_height_exp = ycb;
  const std::uint32_t style = s.u8("code-block style");
  if ((style & ht::kStyleHt) && (style & 0x80))
    fail(m + " code-block style = " + hex16(style) +
         ": bits 6 and 7 mix HT and Part 1 code-blocks (T.814), which this decoder does not decode");
  if ((style & ht::kStyleHt) && (style & t1::kStylePart1 & ~t1::kStyleVerticalCausal))
    fail(m + " code-block style = " + hex16(style) +
         ": HT code-blocks (bit 6) with Part 1 switches other than vertically causal contexts");
  if (style & ~std::uint32_t(t1::kStylePart1 | ht::kStyleHt))
    fail(m + " code-block style = " + hex16(style) + " sets bits other than 0..6 (Part 1 and HTJ2K define those only)");
  cc.cb_style = std::uint8_t(style);
  const std::uint32_t transform = s.u8("transformation");
  if (transform > 1) fail(m + " transformation = " + n(transform) + " must be 0 (9/7) or 1 (5/3)");
  cc.reversible = transform == 1;
  cc.precinct_width_exp.assign(cc.levels + 1, 15);
  cc.precinct_height_exp.assign(cc.levels + 1, 15);
  if (precincts)
    for (std::uint32_t r = 0; r <= cc.levels; ++r) {
      const std::uint32_t v = s.u8("precinct size");
      const std::uint32_t ppx = v & 0xF, ppy = v >> 4;
      if (r > 0 && (ppx == 0 || ppy == 0))
        fail(m + " precinct size of resolution " + n(r) + ": PPx = " + n(ppx) + ", PPy = " + n(ppy) +
             "; 0 is allowed only at resolution 0");
      cc.precinct_width_exp[r] = std::uint8_t(ppx);
      cc.precinct_height_exp[r] = std::uint8_t(ppy);
    }
  return cc;
}

void read_cod(Segment &s, const ImageGrid &g, HeaderSegments &h) {
  const std::uint32_t scod = s.u8("Scod");
  if (scod & ~7u) fail("COD Scod = " + hex16(scod) + " sets bits other than 0..2 (precincts, SOP, EPH)");
  TileCoding &t = h.cod_tile;
  t.sop = (scod & 2) != 0;
  t.eph = (scod & 4) != 0;
  const std::uint32_t order = s.u8("progression order");
  if (order > 4) fail("COD progression order = " + n(order) + " must be 0..4 (LRCP, RLCP, RPCL, PCRL, CPRL)");
  t.progression = Progression(order);
  t.layers = s.u16("number of layers");
  if (t.layers < 1) fail("COD number of layers = 0 must be 1..65535");
  const std::uint32_t mct = s.u8("multiple component transformation");
  if (mct > 1) fail("COD multiple component transformation = " + n(mct) + " must be 0 or 1");
  if (mct == 1 && g.components.size() < 3)
    fail("COD multiple component transformation needs 3 components or more; Csiz = " + n(g.components.size()));
  t.mct = mct == 1;
  h.cod_component = read_component_coding(s, scod & 1);
  s.done();
  h.has_cod = true;
}

void read_coc(Segment &s, const ImageGrid &g, HeaderSegments &h) {
  const std::uint32_t c = s.component("Ccoc", std::uint32_t(g.components.size()));
  const std::uint32_t scoc = s.u8("Scoc");
  if (scoc & ~1u) fail("COC Scoc = " + hex16(scoc) + " sets bits other than 0 (precincts)");
  ComponentCoding cc = read_component_coding(s, scoc & 1);
  s.done();
  h.coc.emplace_back(c, std::move(cc));
}

// SPqcd or SPqcc after Sqcd/Sqcc (T.800 Tables A.28 to A.30): the number
// of subbands follows from the segment's length.
ComponentQuant read_quant(Segment &s) {
  const std::string m = s.name();
  const std::uint32_t sq = s.u8("Sqcx");
  ComponentQuant q;
  q.guard_bits = sq >> 5;
  const std::uint32_t style = sq & 0x1F;
  if (style > 2) fail(m + " quantisation style = " + n(style) + " must be 0 (none), 1 (derived) or 2 (expounded)");
  q.style = QuantStyle(style);
  const std::size_t bytes = s.left();
  constexpr std::size_t kMaxSubbands = 3 * kMaxLevels + 1;
  if (q.style == QuantStyle::Derived) {
    if (bytes != 2) fail(m + " with derived quantisation has " + n(bytes) + " bytes of SPqcx; it must be 2");
  } else {
    const std::size_t per = q.style == QuantStyle::None ? 1 : 2;
    const char *what = q.style == QuantStyle::None ? "no quantisation (1 byte per subband)"
                                                   : "expounded quantisation (2 bytes per subband)";
    if (bytes % per != 0 || bytes == 0 || bytes / per > kMaxSubbands || (bytes / per - 1) % 3 != 0)
      fail(m + " with " + what + " has " + n(bytes) + " bytes of SPqcx; it must give 3 NL + 1 subbands, NL <= 32");
  }
  const std::size_t count = q.style == QuantStyle::None ? bytes : bytes / 2;
  q.steps.resize(count);
  for (SubbandStep &step : q.steps) {
    if (q.style == QuantStyle::None) {
      step.exponent = s.u8("exponent") >> 3;
    } else {
      const std::uint32_t v = s.u16("exponent and mantissa");
      step.exponent = v >> 11;
      step.mantissa = v & 0x7FF;
    }
  }
  s.done();
  return q;
}

void read_rgn(Segment &s, const ImageGrid &g, HeaderSegments &h) {
  const std::uint32_t c = s.component("Crgn", std::uint32_t(g.components.size()));
  const std::uint32_t style = s.u8("Srgn");
  if (style != 0) fail("RGN Srgn = " + n(style) + " must be 0 (implicit ROI, maximum shift)");
  const std::uint32_t shift = s.u8("SPrgn");
  s.done();
  h.rgn.emplace_back(c, shift);
}

void read_poc(Segment &s, const ImageGrid &g, HeaderSegments &h) {
  const std::uint32_t csiz = std::uint32_t(g.components.size());
  const std::size_t entry = csiz < 257 ? 7 : 9;
  if (s.left() == 0 || s.left() % entry != 0)
    fail("POC has " + n(s.left()) + " bytes of progression changes; it must be a non-zero multiple of " + n(entry));
  while (s.left() > 0) {
    ProgressionChange p;
    p.resolution_start = s.u8("RSpoc");
    p.component_start = s.component("CSpoc", csiz);
    p.layer_end = s.u16("LYEpoc");
    p.resolution_end = s.u8("REpoc");
    // CEpoc: 0 stands for 256 (8 bits) or 16384 (16 bits); above Csiz it
    // means every component from CSpoc on.
    std::uint32_t ce = csiz < 257 ? s.u8("CEpoc") : s.u16("CEpoc");
    if (ce == 0) ce = csiz < 257 ? 256 : kMaxComponents;
    const std::uint32_t order = s.u8("Ppoc");
    if (p.resolution_start > kMaxLevels) fail("POC RSpoc = " + n(p.resolution_start) + " must be 0..32");
    if (p.resolution_end <= p.resolution_start || p.resolution_end > kMaxLevels + 1)
      fail("POC REpoc = " + n(p.resolution_end) + " must be RSpoc + 1 = " + n(p.resolution_start + 1) + "..33");
    if (ce <= p.component_start || ce > kMaxComponents)
      fail("POC CEpoc = " + n(ce) + " must be CSpoc + 1 = " + n(p.component_start + 1) + "..16384");
    if (p.layer_end == 0) fail("POC LYEpoc = 0 must be 1..65535");
    if (order > 4) fail("POC Ppoc = " + n(order) + " must be 0..4 (LRCP, RLCP, RPCL, PCRL, CPRL)");
    p.component_end = std::min(ce, csiz);
    p.order = Progression(order);
    h.poc.push_back(p);
  }
}

// One COC, QCC and RGN per component in a header.
template <class T>
void check_once_per_component(const std::vector<std::pair<std::uint32_t, T>> &list, const char *marker,
                              const char *where) {
  std::vector<std::uint32_t> seen;
  seen.reserve(list.size());
  for (const auto &e : list) seen.push_back(e.first);
  std::sort(seen.begin(), seen.end());
  const auto twice = std::adjacent_find(seen.begin(), seen.end());
  if (twice != seen.end())
    fail(std::string("two ") + marker + " marker segments for component " + n(*twice) + " in " + where +
         ": T.800 allows one per component");
}

void check_segments(const HeaderSegments &h, const char *where) {
  check_once_per_component(h.coc, "COC", where);
  check_once_per_component(h.qcc, "QCC", where);
  check_once_per_component(h.rgn, "RGN", where);
}

class Reader {
 public:
  Reader(const std::uint8_t *data, std::size_t size) : d_(data), size_(size) {}

  Header read() {
    if (size_ < 2 || marker_at(0) != kSoc) fail("no SOC marker (0xFF4F) at the start of the codestream");
    pos_ = 2;
    read_main_header();
    read_tile_parts();
    return std::move(h_);
  }

 private:
  std::uint16_t marker_at(std::size_t p) const { return std::uint16_t(d_[p] << 8 | d_[p + 1]); }

  void read_main_header() {
    bool first = true;
    for (;;) {
      if (size_ - pos_ < 2) fail("the data ends in the main header, before the first SOT");
      const std::uint16_t m = marker_at(pos_);
      if (first && m != kSiz) fail("SIZ must follow SOC; found " + hex16(m) + " at offset 2");
      if (m == kSot) break;
      if ((m >> 8) != 0xFF) fail("main header: " + hex16(m) + " at offset " + n(pos_) + " is not a marker");
      if (m == kEoc) fail("EOC in the main header, before any tile-part");
      if (m == kSoc || m == kSod) fail(std::string(m == kSoc ? "SOC" : "SOD") + " in the main header");
      pos_ += 2;
      if (m >= 0xFF30 && m <= 0xFF3F) continue;  // a marker alone
      Segment s = segment(m, size_, kMainHeader);
      if (!first && m == kSiz) fail("a second SIZ in the main header");
      h_.main_markers.push_back(m);
      switch (m) {
        case kSiz: read_siz(s, h_.grid); break;
        case kCod:
          if (h_.main.has_cod) fail("a second COD in the main header: T.800 allows one");
          read_cod(s, h_.grid, h_.main);
          break;
        case kCoc: read_coc(s, h_.grid, h_.main); break;
        case kQcd:
          if (h_.main.has_qcd) fail("a second QCD in the main header: T.800 allows one");
          h_.main.qcd = read_quant(s);
          h_.main.has_qcd = true;
          break;
        case kQcc: {
          const std::uint32_t c = s.component("Cqcc", std::uint32_t(h_.grid.components.size()));
          h_.main.qcc.emplace_back(c, read_quant(s));
          break;
        }
        case kRgn: read_rgn(s, h_.grid, h_.main); break;
        case kPoc: read_poc(s, h_.grid, h_.main); break;
        case kPpm: read_ppm(s); break;
        case kPpt: fail("PPT in the main header: it belongs in tile-part headers");
        case kPlt: fail("PLT in the main header: it belongs in tile-part headers");
        default: break;  // TLM, PLM, CRG, COM, CAP, CPF and unknown segments: skipped
      }
      pos_ = s.pos() + s.left();
      first = false;
    }
    if (!h_.main.has_cod) fail("no COD in the main header: T.800 requires one");
    if (!h_.main.has_qcd) fail("no QCD in the main header: T.800 requires one");
    check_segments(h_.main, kMainHeader);
    const std::size_t tiles = std::size_t(h_.grid.tiles_x) * h_.grid.tiles_y;
    h_.tiles.resize(tiles);
    tile_parts_said_.assign(tiles, 0);
    ppt_segments_.assign(tiles, 0);
    split_ppm();
  }

  // The segment of marker `m` whose Lxxx is at pos_; it must end by `end`.
  // Leaves pos_ at Lxxx (the caller moves past the segment).
  Segment segment(std::uint16_t m, std::size_t end, const char *where) {
    const char *name = marker_name(m);
    const std::string label = std::string(name) + (name[0] == 'm' ? " " + hex16(m) : "");
    if (size_ - pos_ < 2) truncated(label + ": the data ends before its length", where);
    const std::size_t length = marker_at(pos_);
    if (length < 2) fail(label + " in " + where + ": Lxxx = " + n(length) + " must be at least 2");
    if (length > size_ - pos_)
      truncated(label + " in " + where + ": Lxxx = " + n(length) + " runs past the end of the data (" +
                    n(size_ - pos_) + " bytes left)",
                where);
    if (pos_ + length > end)
      fail(label + " in " + where + ": Lxxx = " + n(length) + " runs past the end of its tile-part (Psot)");
    return Segment(d_, pos_ + 2, pos_ + length, name);
  }

  // The data ends inside a marker segment: an error in the main header;
  // the end of the reading in a tile-part header.
  [[noreturn]] void truncated(const std::string &what, const char *where) {
    if (where == kMainHeader) fail(what);
    throw Truncated{};
  }
  struct Truncated {};

  void read_ppm(Segment &s) {
    const std::uint32_t z = s.u8("Zppm");
    if (z != ppm_segments_)
      fail("PPM Zppm = " + n(z) + " out of order: " + n(ppm_segments_) + " is expected (0, 1, 2, ...)");
    ++ppm_segments_;
    const std::size_t count = s.left();
    const std::uint8_t *p = s.bytes(count, "Nppm and Ippm");
    ppm_.insert(ppm_.end(), p, p + count);
  }

  // PPM's bytes are Nppm (32 bits) then Nppm bytes of packet headers, one
  // such chunk per tile-part in codestream order; a chunk may run across
  // PPM segments, so the segments are joined first.
  void split_ppm() {
    if (ppm_segments_ == 0) return;
    std::size_t p = 0;
    while (p < ppm_.size()) {
      if (ppm_.size() - p < 4) fail("PPM: an Nppm is cut by the end of the last PPM segment");
      const std::uint64_t len = std::uint64_t(ppm_[p]) << 24 | std::uint64_t(ppm_[p + 1]) << 16 |
                                std::uint64_t(ppm_[p + 2]) << 8 | ppm_[p + 3];
      p += 4;
      if (len > ppm_.size() - p)
        fail("PPM Nppm = " + n(len) + " runs past the PPM segments (" + n(ppm_.size() - p) + " bytes left)");
      ppm_chunks_.push_back({p, std::size_t(len)});
      p += len;
    }
  }

  void read_tile_parts() {
    for (;;) {
      if (size_ - pos_ < 2) return;  // no EOC: the stream ends here
      const std::uint16_t m = marker_at(pos_);
      if (m == kEoc) return;
      if (m != kSot) fail("expected SOT or EOC at offset " + n(pos_) + ", found " + hex16(m));
      try {
        if (!read_tile_part()) return;
      } catch (const Truncated &) {
        return;  // the data ends inside this tile-part's header: dropped
      }
    }
  }

  // One tile-part from its SOT at pos_; false when it was the last one
  // (Psot = 0, or its data runs to the end).
  bool read_tile_part() {
    const std::size_t sot = pos_;
    pos_ += 2;
    Segment s = segment(kSot, size_, "a tile-part header");
    if (s.left() + 2 != kSotLength) fail("SOT Lsot = " + n(s.left() + 2) + " must be 10");
    const std::uint32_t tile = s.u16("Isot");
    const std::uint32_t psot = s.u32("Psot");
    const std::uint32_t part = s.u8("TPsot");
    const std::uint32_t parts = s.u8("TNsot");
    if (tile >= h_.tiles.size())
      fail("SOT Isot = " + n(tile) + " must be below the number of tiles, " + n(h_.tiles.size()));
    if (psot != 0 && psot < 14)
      fail("SOT Psot = " + n(psot) + " must be 0 or at least 14 (SOT and SOD of the tile-part itself)");
    TileHeaders &t = h_.tiles[tile];
    if (part != t.parts.size())
      fail("SOT TPsot = " + n(part) + " of tile " + n(tile) + " out of order: tile-part " + n(t.parts.size()) +
           " is expected next");
    if (parts != 0 && part >= parts) fail("SOT TPsot = " + n(part) + " must be below TNsot = " + n(parts));
    std::uint32_t &said = tile_parts_said_[tile];
    if (parts != 0 && said != 0 && parts != said)
      fail("SOT TNsot = " + n(parts) + " of tile " + n(tile) + " differs from the TNsot = " + n(said) +
           " of its earlier tile-part");
    if (parts != 0) said = parts;
    pos_ = s.pos();
    // The tile-part ends at SOT + Psot, or with the data when Psot = 0 or
    // runs past it (a truncated last tile-part).
    const bool to_end = psot == 0 || psot > size_ - sot;
    const std::size_t end = to_end ? size_ : sot + psot;

    HeaderSegments seg;
    std::vector<std::uint8_t> packed;
    const std::string where_s = "tile-part " + n(part) + " of tile " + n(tile);
    const char *where = where_s.c_str();
    for (;;) {
      if (end - pos_ < 2) {
        if (to_end) throw Truncated{};
        fail("no SOD in " + where_s + " before its end (Psot)");
      }
      const std::uint16_t m = marker_at(pos_);
      if (m == kSod) break;
      if ((m >> 8) != 0xFF) fail(where_s + " header: " + hex16(m) + " at offset " + n(pos_) + " is not a marker");
      pos_ += 2;
      if (m >= 0xFF30 && m <= 0xFF3F) continue;
      if (m == kSot || m == kEoc || m == kSoc || m == kSiz)
        fail(hex16(m) + " (" + marker_name(m) + ") in the header of " + where_s + ", before its SOD");
      Segment ps = segment(m, end, where);
      if (part > 0 && (m == kCod || m == kCoc || m == kQcd || m == kQcc || m == kRgn))
        fail(std::string(marker_name(m)) + " in " + where_s +
             ": T.800 allows it only in a tile's first tile-part (TPsot = 0)");
      switch (m) {
        case kCod:
          if (seg.has_cod) fail("a second COD in " + where_s + ": T.800 allows one");
          read_cod(ps, h_.grid, seg);
          break;
        case kCoc: read_coc(ps, h_.grid, seg); break;
        case kQcd:
          if (seg.has_qcd) fail("a second QCD in " + where_s + ": T.800 allows one");
          seg.qcd = read_quant(ps);
          seg.has_qcd = true;
          break;
        case kQcc: {
          const std::uint32_t c = ps.component("Cqcc", std::uint32_t(h_.grid.components.size()));
          seg.qcc.emplace_back(c, read_quant(ps));
          break;
        }
        case kRgn: read_rgn(ps, h_.grid, seg); break;
        case kPoc: read_poc(ps, h_.grid, seg); break;
        case kPpt: {
          if (ppm_segments_ != 0)
            fail("PPT in " + where_s + ": the main header has PPM; T.800 allows one or the other");
          const std::uint32_t z = ps.u8("Zppt");
          if (z != ppt_segments_[tile])
            fail("PPT Zppt = " + n(z) + " in " + where_s + " out of order: " + n(ppt_segments_[tile]) +
                 " is expected (0, 1, 2, ... over the tile)");
          ++ppt_segments_[tile];
          const std::size_t count = ps.left();
          const std::uint8_t *p = ps.bytes(count, "Ippt");
          packed.insert(packed.end(), p, p + count);
          break;
        }
        case kPpm: fail("PPM in " + where_s + ": it belongs in the main header");
        case kTlm: fail("TLM in " + where_s + ": it belongs in the main header");
        case kPlm: fail("PLM in " + where_s + ": it belongs in the main header");
        case kCrg: fail("CRG in " + where_s + ": it belongs in the main header");
        default: break;  // PLT, COM and unknown segments: skipped
      }
      pos_ = ps.pos() + ps.left();
    }
    pos_ += 2;  // SOD
    check_segments(seg, where);

    // The tile-part is whole up to its data: keep it.
    if (part == 0) {
      t.segments = std::move(seg);
    } else {
      t.segments.poc.insert(t.segments.poc.end(), seg.poc.begin(), seg.poc.end());
    }
    if (ppm_segments_ != 0) {
      if (tile_part_index_ >= ppm_chunks_.size())
        fail("PPM gives packet headers for " + n(ppm_chunks_.size()) + " tile-parts; " + where_s + " (tile-part " +
             n(tile_part_index_) + " of the codestream) has none");
      const ByteSpan c = ppm_chunks_[tile_part_index_];
      t.packed.insert(t.packed.end(), ppm_.begin() + c.offset, ppm_.begin() + c.offset + c.length);
      t.headers_packed = true;
    } else if (ppt_segments_[tile] != 0) {
      t.packed.insert(t.packed.end(), packed.begin(), packed.end());
      t.headers_packed = true;
    }
    ++tile_part_index_;

    std::size_t data_end = end;
    if (psot == 0 && end - pos_ >= 2 && marker_at(end - 2) == kEoc) data_end = end - 2;
    t.parts.push_back({pos_, data_end - pos_});
    pos_ = end;
    return !to_end;
  }

  const std::uint8_t *d_;
  std::size_t size_;
  std::size_t pos_ = 0;
  Header h_;
  std::uint32_t ppm_segments_ = 0;
  std::vector<std::uint8_t> ppm_;
  std::vector<ByteSpan> ppm_chunks_;  // in ppm_
  std::size_t tile_part_index_ = 0;   // tile-parts read, in codestream order
  // Per tile, made when the tile grid is known (at most 65535 each).
  std::vector<std::uint32_t> tile_parts_said_, ppt_segments_;
};

// Per component, the entry of `list` that names it, or null.
template <class T>
std::vector<const T *> by_component(const std::vector<std::pair<std::uint32_t, T>> &list, std::size_t csiz) {
  std::vector<const T *> at(csiz, nullptr);
  for (const auto &e : list) at[e.first] = &e.second;
  return at;
}

// T.800 A.6's precedence, for a tile's segments `tile` (null: none).
ResolvedTile merge(const Header &h, const HeaderSegments *tile, const std::string &which) {
  static const HeaderSegments none;
  const HeaderSegments &t = tile ? *tile : none;
  const HeaderSegments &m = h.main;
  const std::size_t csiz = h.grid.components.size();
  ResolvedTile r;
  r.coding = t.has_cod ? t.cod_tile : m.cod_tile;
  const auto main_coc = by_component(m.coc, csiz), tile_coc = by_component(t.coc, csiz);
  const auto main_qcc = by_component(m.qcc, csiz), tile_qcc = by_component(t.qcc, csiz);
  const auto main_rgn = by_component(m.rgn, csiz), tile_rgn = by_component(t.rgn, csiz);
  r.components.reserve(csiz);
  r.quant.reserve(csiz);
  r.roi_shift.reserve(csiz);
  for (std::size_t c = 0; c < csiz; ++c) {
    r.components.push_back(tile_coc[c]   ? *tile_coc[c]
                           : t.has_cod   ? t.cod_component
                           : main_coc[c] ? *main_coc[c]
                                         : m.cod_component);
    ComponentQuant q = tile_qcc[c] ? *tile_qcc[c] : t.has_qcd ? t.qcd : main_qcc[c] ? *main_qcc[c] : m.qcd;
    // One step per subband of this component's levels (QCD may be written
    // for more levels than a COC gives a component: the first ones apply).
    if (q.style != QuantStyle::Derived) {
      const std::size_t want = subband_count(r.components[c].levels);
      if (q.steps.size() < want)
        fail(which + ", component " + n(c) + ": the quantisation gives " + n(q.steps.size()) +
             " subband steps; NL = " + n(r.components[c].levels) + " needs 3 NL + 1 = " + n(want));
      q.steps.resize(want);
    }
    r.quant.push_back(std::move(q));
    r.roi_shift.push_back(tile_rgn[c] ? *tile_rgn[c] : main_rgn[c] ? *main_rgn[c] : 0);
  }
  r.poc = !t.poc.empty() ? t.poc : m.poc;
  if (r.coding.mct) {
    // The component transform joins components 0..2 sample by sample, with
    // the 5/3 (RCT) or the 9/7 (ICT) on all three.
    const Component &c0 = h.grid.components[0];
    for (std::size_t c = 1; c < 3; ++c) {
      const Component &k = h.grid.components[c];
      if (k.subsample_x != c0.subsample_x || k.subsample_y != c0.subsample_y)
        fail(which + ": the component transform needs components 0..2 alike in subsampling; component " + n(c) +
             " differs");
      if (r.components[c].reversible != r.components[0].reversible)
        fail(which + ": the component transform needs components 0..2 with the same wavelet (5/3 or 9/7); component " +
             n(c) + " differs");
    }
  }
  return r;
}

}  // namespace

const char *marker_name(std::uint16_t m) {
  switch (m) {
    case kSiz: return "SIZ";
    case kCod: return "COD";
    case kCoc: return "COC";
    case kQcd: return "QCD";
    case kQcc: return "QCC";
    case kRgn: return "RGN";
    case kPoc: return "POC";
    case kPpm: return "PPM";
    case kPpt: return "PPT";
    case kTlm: return "TLM";
    case kPlm: return "PLM";
    case kPlt: return "PLT";
    case kCrg: return "CRG";
    case kCom: return "COM";
    case kCap: return "CAP";
    case kCpf: return "CPF";
    case kSot: return "SOT";
    default: return "marker segment";
  }
}

Header read_header(const std::uint8_t *data, std::size_t size) {
  if (!data && size) fail("no data");
  return Reader(data, size).read();
}

ResolvedTile resolve(const Header &h, std::uint32_t tile) {
  if (tile >= h.tiles.size()) fail("tile " + n(tile) + " does not exist; there are " + n(h.tiles.size()));
  return merge(h, &h.tiles[tile].segments, "tile " + n(tile));
}

ResolvedTile resolve_main(const Header &h) { return merge(h, nullptr, "the main header"); }

}  // namespace cf::j2k
