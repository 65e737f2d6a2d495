// JPEG 2000 Part 1 marker segments (T.800 Annex A), their rules and the
// subband order QCD follows.
#include "core/codec/j2k_markers.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/shared/ceil_div.hpp"
#include "cudafilters/error.hpp"

namespace cf::j2k {

void ByteWriter::u16(std::uint16_t v) {
  u8(std::uint8_t(v >> 8));
  u8(std::uint8_t(v));
}

void ByteWriter::u32(std::uint32_t v) {
  u16(std::uint16_t(v >> 16));
  u16(std::uint16_t(v));
}

void ByteWriter::append(const std::uint8_t *data, std::size_t n) {
  if (n == 0) return;
  room(n);
  std::memcpy(bytes_.data() + size_, data, n);
  size_ += n;
}

void ByteWriter::append_later(const std::uint8_t *data, std::size_t n) {
  if (n == 0) return;
  room(n);
  later_.push_back({size_, data, n});
  size_ += n;
}

void ByteWriter::insert(std::size_t pos, const std::uint8_t *data, std::size_t n) {
  if (pos > size_) throw Error("JPEG 2000 codestream: insertion at byte " + std::to_string(pos) + " past the end");
  copy_later();
  room(n);
  std::memmove(bytes_.data() + pos + n, bytes_.data() + pos, size_ - pos);
  if (n > 0) std::memcpy(bytes_.data() + pos, data, n);
  size_ += n;
}

std::uint8_t ByteWriter::at(std::size_t pos) const {
  if (pos >= size_) throw Error("JPEG 2000 codestream: byte " + std::to_string(pos) + " is not written yet");
  return bytes_[pos];
}

const std::vector<std::uint8_t> &ByteWriter::bytes() {
  copy_later();
  bytes_.resize(size_);
  return bytes_;
}

std::vector<std::uint8_t> ByteWriter::take() {
  copy_later();
  bytes_.resize(size_);
  size_ = 0;
  return std::move(bytes_);
}

void ByteWriter::grow(std::size_t n) { bytes_.resize(std::max(size_ + n, 2 * bytes_.size())); }

void ByteWriter::copy_later() {
  if (later_.empty()) return;
  copies_.clear();
  for (const Later &c : later_) copies_.push_back({bytes_.data() + c.at, c.data, c.n});
  copy_bytes(copies_, copy_threads_);
  later_.clear();
}

void ByteWriter::patch_u16(std::size_t pos, std::uint16_t v) {
  if (pos + 2 > size_)
    throw Error("JPEG 2000 codestream: field at byte " + std::to_string(pos) + " is not written yet");
  bytes_[pos] = std::uint8_t(v >> 8);
  bytes_[pos + 1] = std::uint8_t(v);
}

void ByteWriter::patch_u32(std::size_t pos, std::uint32_t v) {
  patch_u16(pos, std::uint16_t(v >> 16));
  patch_u16(pos + 2, std::uint16_t(v));
}

std::size_t ByteWriter::begin_segment(std::uint16_t m) {
  marker(m);
  const std::size_t length_pos = size();
  u16(0);
  return length_pos;
}

void ByteWriter::end_segment(std::size_t length_pos) {
  const std::size_t length = size() - length_pos;
  if (length > 0xFFFF)
    throw Error("marker segment of " + std::to_string(length) + " bytes: Lxxx is 16 bits (at most 65535)");
  patch_u16(length_pos, std::uint16_t(length));
}

namespace {
constexpr std::uint64_t kMax32 = 0xFFFFFFFFull;

std::string range_rule(const char *field, std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
  if (v >= lo && v <= hi) return "";
  return std::string(field) + " = " + std::to_string(v) + " must be " + std::to_string(lo) + ".." + std::to_string(hi);
}

std::string grid_check(const CodestreamParams &p) {
  for (auto [name, v] : {std::pair{"Xsiz (x1)", p.x1},
                         {"Ysiz (y1)", p.y1},
                         {"XTsiz (tile_width)", p.tile_width},
                         {"YTsiz (tile_height)", p.tile_height}})
    if (auto why = range_rule(name, v, 1, kMax32); !why.empty()) return why;
  if (p.x0 >= p.x1)
    return "XOsiz (x0) = " + std::to_string(p.x0) + " must be less than Xsiz (x1) = " + std::to_string(p.x1);
  if (p.y0 >= p.y1)
    return "YOsiz (y0) = " + std::to_string(p.y0) + " must be less than Ysiz (y1) = " + std::to_string(p.y1);
  if (p.tile_x0 > p.x0)
    return "XTOsiz (tile_x0) = " + std::to_string(p.tile_x0) + " must not exceed XOsiz (x0) = " + std::to_string(p.x0);
  if (p.tile_y0 > p.y0)
    return "YTOsiz (tile_y0) = " + std::to_string(p.tile_y0) + " must not exceed YOsiz (y0) = " + std::to_string(p.y0);
  if (p.tile_x0 + p.tile_width <= p.x0)
    return "the first tile must reach the image: XTsiz + XTOsiz (" + std::to_string(p.tile_x0 + p.tile_width) +
           ") must exceed XOsiz (" + std::to_string(p.x0) + ")";
  if (p.tile_y0 + p.tile_height <= p.y0)
    return "the first tile must reach the image: YTsiz + YTOsiz (" + std::to_string(p.tile_y0 + p.tile_height) +
           ") must exceed YOsiz (" + std::to_string(p.y0) + ")";
  if (const std::uint64_t n = tile_count(p); n > 65535)
    return "the grid has " + std::to_string(n) + " tiles; Isot numbers at most 65535 (0..65534)";
  return "";
}

std::string components_check(const CodestreamParams &p) {
  if (auto why = range_rule("Csiz (components)", p.components.size(), 1, 16384); !why.empty()) return why;
  for (std::size_t c = 0; c < p.components.size(); ++c) {
    const Component &k = p.components[c];
    const std::string at = "component " + std::to_string(c) + ": ";
    if (auto why = range_rule("Ssiz bit depth", k.bit_depth, 1, 38); !why.empty()) return at + why;
    if (auto why = range_rule("XRsiz (subsample_x)", k.subsample_x, 1, 255); !why.empty()) return at + why;
    if (auto why = range_rule("YRsiz (subsample_y)", k.subsample_y, 1, 255); !why.empty()) return at + why;
  }
  return "";
}

// Scod / SPcod's precinct sizes (T.800 A.6.1, Table A.21).
std::string precincts_check(const CodestreamParams &p) {
  const std::size_t n = p.precinct_width_exp.size();
  if (n == 0 && p.precinct_height_exp.empty()) return "";
  if (n != p.levels + 1 || p.precinct_height_exp.size() != n)
    return "precinct sizes for " + std::to_string(n) + " and " + std::to_string(p.precinct_height_exp.size()) +
           " resolutions: " + std::to_string(p.levels) + " levels have " + std::to_string(p.levels + 1);
  for (std::uint32_t r = 0; r < n; ++r) {
    const std::uint32_t ppx = p.precinct_width_exp[r], ppy = p.precinct_height_exp[r];
    const std::string at = "precinct of resolution " + std::to_string(r) + ": PPx = " + std::to_string(ppx) +
                           ", PPy = " + std::to_string(ppy);
    if (ppx > 15 || ppy > 15) return at + " must be 0..15 (4 bits each)";
    if (r > 0 && (ppx == 0 || ppy == 0))
      return at + " must be at least 1 above resolution 0 (a subband's share is half the precinct)";
  }
  return "";
}

std::string coding_check(const CodestreamParams &p) {
  if (auto why = range_rule("decomposition levels", p.levels, 0, 32); !why.empty()) return why;
  if (auto why = range_rule("code-block width exponent xcb", p.cb_width_exp, 2, 10); !why.empty()) return why;
  if (auto why = range_rule("code-block height exponent ycb", p.cb_height_exp, 2, 10); !why.empty()) return why;
  if (p.cb_width_exp + p.cb_height_exp > 12)
    return "code-block of 2^" + std::to_string(p.cb_width_exp) + " x 2^" + std::to_string(p.cb_height_exp) +
           ": xcb + ycb must be at most 12 (4096 samples)";
  if (p.cb_style & ~(t1::kStylePart1 | ht::kStyleHt))
    return "code-block style " + std::to_string(p.cb_style) + " sets bits above the six of Part 1 and HT's";
  if ((p.cb_style & ht::kStyleHt) && (p.cb_style & t1::kStylePart1 & ~t1::kStyleVerticalCausal))
    return "code-block style " + std::to_string(p.cb_style) +
           ": HT code-blocks take only the vertically causal switch of Part 1's six";
  if (std::uint32_t(p.progression) > std::uint32_t(Progression::Cprl))
    return "progression order " + std::to_string(std::uint32_t(p.progression)) + " must be 0..4 (LRCP..CPRL)";
  if (auto why = range_rule("layers", p.layers, 1, 65535); !why.empty()) return why;
  if (auto why = range_rule("guard bits", p.guard_bits, 0, 7); !why.empty()) return why;
  if (auto why = precincts_check(p); !why.empty()) return why;
  if (p.mct) {
    if (p.components.size() < 3)
      return "the multiple component transform needs 3 components, not " + std::to_string(p.components.size());
    const Component &a = p.components[0];
    for (std::size_t c = 1; c < 3; ++c) {
      const Component &b = p.components[c];
      if (b.bit_depth != a.bit_depth || b.subsample_x != a.subsample_x || b.subsample_y != a.subsample_y)
        return "the multiple component transform needs components 0..2 of one bit depth and subsampling; "
               "component " +
               std::to_string(c) + " differs from component 0";
    }
  }
  return "";
}

void require(const std::string &why) {
  if (!why.empty()) throw Error("JPEG 2000 codestream: " + why);
}
}  // namespace

CodestreamParams one_tile_image(std::uint32_t width, std::uint32_t height, std::vector<Component> components) {
  CodestreamParams p;
  p.x1 = p.tile_width = width;
  p.y1 = p.tile_height = height;
  p.components = std::move(components);
  return p;
}

std::uint32_t precinct_width_exp(const CodestreamParams &p, std::uint32_t r) {
  return r < p.precinct_width_exp.size() ? p.precinct_width_exp[r] : 15;
}
std::uint32_t precinct_height_exp(const CodestreamParams &p, std::uint32_t r) {
  return r < p.precinct_height_exp.size() ? p.precinct_height_exp[r] : 15;
}

bool maximal_precincts(const CodestreamParams &p) {
  for (std::uint32_t r = 0; r <= p.levels; ++r)
    if (precinct_width_exp(p, r) != 15 || precinct_height_exp(p, r) != 15) return false;
  return true;
}

std::uint32_t block_width_exp(const CodestreamParams &p, std::uint32_t r) {
  const std::uint32_t pp = precinct_width_exp(p, r);
  return std::min(p.cb_width_exp, r == 0 ? pp : pp - 1);
}
std::uint32_t block_height_exp(const CodestreamParams &p, std::uint32_t r) {
  const std::uint32_t pp = precinct_height_exp(p, r);
  return std::min(p.cb_height_exp, r == 0 ? pp : pp - 1);
}

std::uint64_t tile_count(const CodestreamParams &p) {
  if (p.tile_width == 0 || p.tile_height == 0 || p.x1 <= p.tile_x0 || p.y1 <= p.tile_y0) return 0;
  return ceil_div(p.x1 - p.tile_x0, p.tile_width) * ceil_div(p.y1 - p.tile_y0, p.tile_height);
}

std::string codestream_check(const CodestreamParams &p) {
  if (auto why = components_check(p); !why.empty()) return why;
  if (auto why = grid_check(p); !why.empty()) return why;
  return coding_check(p);
}

std::vector<Subband> subbands_in_order(std::uint32_t levels) {
  std::vector<Subband> bands{{Orientation::LL, levels, 0}};
  for (std::uint32_t r = 1; r <= levels; ++r)
    for (Orientation o : {Orientation::HL, Orientation::LH, Orientation::HH}) bands.push_back({o, levels - r + 1, r});
  return bands;
}

std::vector<SubbandStep> reversible_steps(std::uint32_t range_bits, std::uint32_t levels) {
  std::vector<SubbandStep> steps;
  for (const Subband &b : subbands_in_order(levels)) steps.push_back({range_bits + gain_log2(b.orientation), 0});
  return steps;
}

SubbandStep expounded_step(double delta, std::uint32_t range_bits) {
  if (!(delta > 0) || !std::isfinite(delta)) throw Error("JPEG 2000 quantisation: the step must be positive");
  // delta = m 2^e with m in [0.5, 1): delta = 2^(e-1) (1 + (2m - 1)).
  int e = 0;
  const double m = std::frexp(delta, &e);
  long long mantissa = std::llround((2 * m - 1) * 2048);
  long long exponent = (long long)range_bits - (e - 1);
  if (mantissa == 2048) {  // rounded up to the next power of two
    mantissa = 0;
    --exponent;
  }
  if (exponent < 0 || exponent > 31)
    throw Error("JPEG 2000 quantisation: step " + std::to_string(delta) + " of a " + std::to_string(range_bits) +
                "-bit range needs exponent " + std::to_string(exponent) + ", outside 0..31");
  return {std::uint32_t(exponent), std::uint32_t(mantissa)};
}

std::string qcd_check(const CodestreamParams &p, const std::vector<SubbandStep> &steps) {
  if (steps.size() != subband_count(p.levels))
    return "QCD needs one step per subband: " + std::to_string(subband_count(p.levels)) + " for " +
           std::to_string(p.levels) + " levels, not " + std::to_string(steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string at = "subband " + std::to_string(i) + ": ";
    if (steps[i].exponent > 31) return at + "exponent " + std::to_string(steps[i].exponent) + " must be 0..31";
    if (p.reversible && steps[i].mantissa != 0)
      return at + "without quantisation (reversible) there is no mantissa, got " + std::to_string(steps[i].mantissa);
    if (steps[i].mantissa > 2047) return at + "mantissa " + std::to_string(steps[i].mantissa) + " must be 0..2047";
  }
  return "";
}

void write_soc(ByteWriter &w) { w.marker(kSoc); }
void write_sod(ByteWriter &w) { w.marker(kSod); }
void write_eoc(ByteWriter &w) { w.marker(kEoc); }

// SIZ: T.800 A.5.1.
void write_siz(ByteWriter &w, const CodestreamParams &p) {
  require(codestream_check(p));
  const std::size_t l = w.begin_segment(kSiz);
  // Rsiz: the profile, with bit 14 for Part 15's capabilities (a CAP follows).
  w.u16(std::uint16_t(p.rsiz | ((p.cb_style & ht::kStyleHt) ? 0x4000 : 0)));
  for (std::uint64_t v : {p.x1, p.y1, p.x0, p.y0, p.tile_width, p.tile_height, p.tile_x0, p.tile_y0})
    w.u32(std::uint32_t(v));
  w.u16(std::uint16_t(p.components.size()));
  for (const Component &c : p.components) {
    w.u8(std::uint8_t((c.is_signed ? 0x80 : 0) | (c.bit_depth - 1)));
    w.u8(std::uint8_t(c.subsample_x));
    w.u8(std::uint8_t(c.subsample_y));
  }
  w.end_segment(l);
}

// COD: T.800 A.6.1 (Scod, SGcod, SPcod).
void write_cod(ByteWriter &w, const CodestreamParams &p) {
  require(codestream_check(p));
  const std::size_t l = w.begin_segment(kCod);
  // Scod bit 0: precinct sizes follow SPcod (clear: maximal, 2^15).
  const bool sized = !maximal_precincts(p);
  w.u8(std::uint8_t((sized ? 0x01 : 0) | (p.sop ? 0x02 : 0) | (p.eph ? 0x04 : 0)));
  w.u8(std::uint8_t(p.progression));
  w.u16(std::uint16_t(p.layers));
  w.u8(p.mct ? 1 : 0);
  w.u8(std::uint8_t(p.levels));
  w.u8(std::uint8_t(p.cb_width_exp - 2));
  w.u8(std::uint8_t(p.cb_height_exp - 2));
  w.u8(p.cb_style);
  w.u8(p.reversible ? 1 : 0);  // 1: 5/3 reversible, 0: 9/7 irreversible
  // Table A.21: a byte per resolution from 0 up, PPx in the low nibble.
  if (sized)
    for (std::uint32_t r = 0; r <= p.levels; ++r)
      w.u8(std::uint8_t(precinct_width_exp(p, r) | precinct_height_exp(p, r) << 4));
  w.end_segment(l);
}

// CAP: T.814 A.3. Pcap bit 15 (from the most significant, 1-based) for
// Part 15, then Ccap15: bits 15-14 zero (HT code-blocks only), bit 5 set
// for irreversible transforms, bits 4-0 the code B' of MAGB, the most
// magnitude bit-planes of any subband (Mb = G + epsilon_b - 1), or the
// profile's larger bound.
void write_cap(ByteWriter &w, const CodestreamParams &p, const std::vector<SubbandStep> &steps) {
  std::uint32_t magb = p.cap_magnitude_bits;
  for (const SubbandStep &s : steps) magb = std::max(magb, p.guard_bits + s.exponent - 1);
  const std::uint32_t code = magb <= 8 ? 0 : magb < 28 ? magb - 8 : 13 + (magb >> 2);
  const std::size_t l = w.begin_segment(kCap);
  w.u32(0x00020000);
  w.u16(std::uint16_t((p.reversible ? 0 : 0x20) | code));
  w.end_segment(l);
}

// QCD: T.800 A.6.4 (Sqcd, SPqcd).
void write_qcd(ByteWriter &w, const CodestreamParams &p, const std::vector<SubbandStep> &steps) {
  require(codestream_check(p));
  require(qcd_check(p, steps));
  const std::size_t l = w.begin_segment(kQcd);
  // Style 0: no quantisation, 8 bits per subband; 2: scalar expounded, 16.
  w.u8(std::uint8_t(p.guard_bits << 5 | (p.reversible ? 0 : 2)));
  for (const SubbandStep &s : steps) {
    if (p.reversible)
      w.u8(std::uint8_t(s.exponent << 3));
    else
      w.u16(std::uint16_t(s.exponent << 11 | s.mantissa));
  }
  w.end_segment(l);
}

// COM: T.800 A.9.2.
void write_com(ByteWriter &w, const std::string &text) {
  const std::size_t l = w.begin_segment(kCom);
  w.u16(1);  // Rcom: Latin text
  w.append(reinterpret_cast<const std::uint8_t *>(text.data()), text.size());
  w.end_segment(l);
}

void write_main_header(ByteWriter &w, const CodestreamParams &p, const std::vector<SubbandStep> &steps,
                       const std::string &comment) {
  write_soc(w);
  write_siz(w, p);
  if (p.cb_style & ht::kStyleHt) write_cap(w, p, steps);
  write_cod(w, p);
  write_qcd(w, p, steps);
  if (!p.poc.empty()) write_poc(w, p);
  if (!comment.empty()) write_com(w, comment);
}

// POC: T.800 A.6.6; CSpoc and CEpoc take 16 bits from 257 components on.
void write_poc(ByteWriter &w, const CodestreamParams &p) {
  const bool wide = p.components.size() >= 257;
  const std::size_t l = w.begin_segment(kPoc);
  for (const ProgressionChange &c : p.poc) {
    w.u8(std::uint8_t(c.resolution_start));
    wide ? w.u16(std::uint16_t(c.component_start)) : w.u8(std::uint8_t(c.component_start));
    w.u16(std::uint16_t(c.layer_end));
    w.u8(std::uint8_t(c.resolution_end));
    wide ? w.u16(std::uint16_t(c.component_end)) : w.u8(std::uint8_t(c.component_end));
    w.u8(std::uint8_t(c.order));
  }
  w.end_segment(l);
}

// SOT: T.800 A.4.2.
std::size_t begin_tile_part(ByteWriter &w, std::uint32_t tile, std::uint32_t part, std::uint32_t parts) {
  require(range_rule("Isot (tile)", tile, 0, 65534));
  require(range_rule("TPsot (tile-part)", part, 0, 254));
  require(range_rule("TNsot (tile-parts)", parts, 0, 255));
  if (parts != 0 && part >= parts)
    require("TPsot (tile-part) = " + std::to_string(part) + " must be less than TNsot = " + std::to_string(parts));
  const std::size_t sot_pos = w.size();
  const std::size_t l = w.begin_segment(kSot);
  w.u16(std::uint16_t(tile));
  w.u32(0);  // Psot, set by end_tile_part
  w.u8(std::uint8_t(part));
  w.u8(std::uint8_t(parts));
  w.end_segment(l);
  return sot_pos;
}

std::uint32_t end_tile_part(ByteWriter &w, std::size_t sot_pos) {
  const std::size_t psot_pos = sot_pos + 6;  // SOT marker, Lsot, Isot
  if (w.size() < sot_pos + 12 || w.at(sot_pos) != 0xFF || w.at(sot_pos + 1) != (kSot & 0xFF))
    throw Error("JPEG 2000 codestream: no SOT marker segment where the tile-part should start");
  const std::uint64_t length = w.size() - sot_pos;
  if (length > kMax32)
    throw Error("JPEG 2000 codestream: tile-part of " + std::to_string(length) + " bytes; Psot is 32 bits");
  w.patch_u32(psot_pos, std::uint32_t(length));
  return std::uint32_t(length);
}

std::vector<std::size_t> write_tlm(ByteWriter &w, const std::vector<std::uint32_t> &tiles) {
  const std::size_t tile_parts = tiles.size();
  constexpr std::size_t kEntry = 6;                          // Ttlm 16 bits, Ptlm 32 bits
  constexpr std::size_t kPerSegment = (65535 - 4) / kEntry;  // Ltlm, Ztlm, Stlm and the entries in 16 bits
  if (tile_parts > 256 * kPerSegment)
    throw Error("JPEG 2000 codestream: " + std::to_string(tile_parts) + " tile-parts need more than 256 TLM segments");
  std::vector<std::size_t> ptlm;
  ptlm.reserve(tile_parts);
  for (std::size_t first = 0, z = 0; first < tile_parts; first += kPerSegment, ++z) {
    const std::size_t l = w.begin_segment(kTlm);
    w.u8(std::uint8_t(z));  // Ztlm
    w.u8(0x60);             // Stlm: ST = 2 (Ttlm 16 bits), SP = 1 (Ptlm 32 bits)
    for (std::size_t i = first; i < std::min(tile_parts, first + kPerSegment); ++i) {
      w.u16(std::uint16_t(tiles[i]));  // Ttlm
      ptlm.push_back(w.size());
      w.u32(0);
    }
    w.end_segment(l);
  }
  return ptlm;
}

void write_plt(ByteWriter &w, std::size_t at, const std::vector<std::uint32_t> &lengths) {
  ByteWriter plt;
  std::size_t l = 0, z = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    std::uint8_t groups[5];
    int n = 0;
    for (std::uint32_t v = lengths[i];; v >>= 7) {
      groups[n++] = std::uint8_t(v & 0x7F);
      if (v < 0x80) break;
    }
    if (i == 0 || plt.size() - l + std::size_t(n) > 0xFFFF) {  // a new segment: Lplt is 16 bits
      if (i > 0) plt.end_segment(l);
      if (z > 255) throw Error("JPEG 2000 codestream: a tile-part's packet lengths need more than 256 PLT segments");
      l = plt.begin_segment(kPlt);
      plt.u8(std::uint8_t(z++));  // Zplt
    }
    while (n > 0) {
      --n;
      plt.u8(std::uint8_t(groups[n] | (n > 0 ? 0x80 : 0)));
    }
  }
  if (!lengths.empty()) plt.end_segment(l);
  w.insert(at, plt.bytes().data(), plt.size());
}

}  // namespace cf::j2k
