// JP2 boxes (T.800 Annex I): signature, File Type, JP2 Header (Image
// Header, Colour Specification) and Contiguous Codestream.
#include "j2k_jp2.hpp"

#include <string>

#include "cudafilters/error.hpp"

namespace cf::j2k {
namespace {

constexpr std::uint32_t box_type(const char (&t)[5]) {
  return std::uint32_t(std::uint8_t(t[0])) << 24 | std::uint32_t(std::uint8_t(t[1])) << 16 |
         std::uint32_t(std::uint8_t(t[2])) << 8 | std::uint8_t(t[3]);
}
constexpr std::uint32_t kSignatureBox = box_type("jP  ");
constexpr std::uint32_t kSignature = 0x0D0A870A;  // the signature box's contents
constexpr std::uint32_t kFileTypeBox = box_type("ftyp");
constexpr std::uint32_t kJp2Brand = box_type("jp2 ");
constexpr std::uint32_t kJphBrand = box_type("jph ");  // HTJ2K's JPH files (T.814 Annex D), JP2's boxes
constexpr std::uint32_t kHeaderBox = box_type("jp2h");
constexpr std::uint32_t kImageHeaderBox = box_type("ihdr");
constexpr std::uint32_t kColourBox = box_type("colr");
constexpr std::uint32_t kCodestreamBox = box_type("jp2c");
constexpr std::size_t kImageHeaderLength = 14;  // ihdr's contents

[[noreturn]] void fail(const std::string &what) { throw Error("JP2 file: " + what, ErrorKind::CorruptData); }

std::uint32_t be32(const std::uint8_t *p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}
std::uint32_t be16(const std::uint8_t *p) { return std::uint32_t(p[0]) << 8 | p[1]; }

std::string type_name(std::uint32_t t) {
  std::string s = "'";
  for (int shift = 24; shift >= 0; shift -= 8) {
    const char c = char(t >> shift);
    s += c >= 0x20 && c < 0x7F ? c : '?';
  }
  return s + "'";
}

struct Box {
  std::uint32_t type = 0;
  std::size_t contents = 0, length = 0;  // contents: offset; length: of the contents
  std::size_t end() const { return contents + length; }
};

// The box at `pos` within [.., end): its length checked against the bytes.
Box box_at(const std::uint8_t *d, std::size_t pos, std::size_t end) {
  if (end - pos < 8) fail("a box header at offset " + std::to_string(pos) + " is cut by the end of the data");
  Box b;
  b.type = be32(d + pos + 4);
  const std::uint64_t lbox = be32(d + pos);
  std::uint64_t total;
  std::size_t header = 8;
  if (lbox == 1) {
    if (end - pos < 16) fail("box " + type_name(b.type) + ": its XLBox is cut by the end of the data");
    total = std::uint64_t(be32(d + pos + 8)) << 32 | be32(d + pos + 12);
    header = 16;
    if (total < 16) fail("box " + type_name(b.type) + ": XLBox = " + std::to_string(total) + " must be at least 16");
  } else if (lbox == 0) {
    total = end - pos;  // up to the end of the file (or of the superbox)
  } else {
    if (lbox < 8) fail("box " + type_name(b.type) + ": LBox = " + std::to_string(lbox) + " must be 0, 1 or >= 8");
    total = lbox;
  }
  if (total > end - pos)
    fail("box " + type_name(b.type) + " of " + std::to_string(total) + " bytes runs past the end of the data (" +
         std::to_string(end - pos) + " bytes left)");
  b.contents = pos + header;
  b.length = std::size_t(total) - header;
  return b;
}

void read_image_header(const std::uint8_t *d, const Box &b, Jp2Info &info) {
  if (b.length != kImageHeaderLength)
    fail("ihdr has " + std::to_string(b.length) + " bytes of contents; it must have 14");
  const std::uint8_t *p = d + b.contents;
  info.height = be32(p);
  info.width = be32(p + 4);
  info.components = be16(p + 8);
  info.bits_per_component = p[10];
  const std::uint32_t compression = p[11], unknown = p[12], ipr = p[13];
  if (info.height == 0 || info.width == 0) fail("ihdr HEIGHT and WIDTH must not be 0");
  if (info.components < 1 || info.components > kMaxComponents)
    fail("ihdr NC = " + std::to_string(info.components) + " must be 1..16384");
  if (info.bits_per_component != 255 && (info.bits_per_component & 0x7F) > 37)
    fail("ihdr BPC = " + std::to_string(info.bits_per_component) +
         ": the depth must be 1..38 (BPC & 0x7F = 0..37), or BPC = 255");
  if (compression != 7) fail("ihdr C = " + std::to_string(compression) + " must be 7 (JPEG 2000)");
  if (unknown > 1) fail("ihdr UnkC = " + std::to_string(unknown) + " must be 0 or 1");
  if (ipr > 1) fail("ihdr IPR = " + std::to_string(ipr) + " must be 0 or 1");
  info.colourspace_unknown = unknown == 1;
  info.intellectual_property = ipr == 1;
}

void read_colour(const std::uint8_t *d, const Box &b, Jp2Info &info) {
  if (b.length < 3) fail("colr has " + std::to_string(b.length) + " bytes of contents; METH, PREC, APPROX need 3");
  const std::uint8_t *p = d + b.contents;
  const std::uint32_t method = p[0];
  if (method == 1) {
    if (b.length != 7)
      fail("colr with METH = 1 has " + std::to_string(b.length) + " bytes of contents; it must have 7");
    info.enumerated_colourspace = be32(p + 3);
  } else if (method == 2) {
    info.icc_profile = true;
  } else {
    fail("colr METH = " + std::to_string(method) + " must be 1 (enumerated) or 2 (restricted ICC profile)");
  }
  info.colour_method = std::uint8_t(method);
}

void read_jp2_header(const std::uint8_t *d, const Box &jp2h, Jp2Info &info) {
  bool first = true, colour = false;
  for (std::size_t pos = jp2h.contents; pos < jp2h.end();) {
    const Box b = box_at(d, pos, jp2h.end());
    if (first && b.type != kImageHeaderBox) fail("jp2h must start with ihdr; found " + type_name(b.type));
    if (b.type == kImageHeaderBox) {
      if (!first) fail("a second ihdr in jp2h");
      read_image_header(d, b, info);
    } else if (b.type == kColourBox && !colour) {
      read_colour(d, b, info);  // the first one applies (T.800 I.5.3.3)
      colour = true;
    }
    first = false;
    pos = b.end();
  }
  if (first) fail("jp2h is empty; it must hold ihdr and colr");
  if (!colour) fail("jp2h has no colr box");
}

}  // namespace

J2kFormat detect_j2k_format(const std::uint8_t *data, std::size_t size) {
  if (size >= 12 && be32(data) == 12 && be32(data + 4) == kSignatureBox && be32(data + 8) == kSignature)
    return J2kFormat::Jp2;
  if (size >= 4 && be16(data) == kSoc && be16(data + 2) == kSiz) return J2kFormat::Codestream;
  return J2kFormat::Unknown;
}

Jp2Info read_jp2(const std::uint8_t *data, std::size_t size) {
  if (!data) size = 0;
  if (size < 12 || be32(data) != 12 || be32(data + 4) != kSignatureBox || be32(data + 8) != kSignature)
    fail("no JP2 signature box (12 bytes: 0000000C 6A502020 0D0A870A) at the start");
  const Box ftyp = box_at(data, 12, size);
  if (ftyp.type != kFileTypeBox)
    fail("the File Type box (ftyp) must follow the signature; found " + type_name(ftyp.type));
  if (ftyp.length < 8 || (ftyp.length - 8) % 4 != 0)
    fail("ftyp has " + std::to_string(ftyp.length) + " bytes of contents; it must be BR, MinV and 4-byte CL entries");
  bool compatible = false;
  for (std::size_t p = ftyp.contents + 8; p < ftyp.end(); p += 4)
    compatible |= be32(data + p) == kJp2Brand || be32(data + p) == kJphBrand;
  if (!compatible) fail("ftyp's compatibility list has neither 'jp2 ' nor 'jph ': not a JP2 or JPH file");

  Jp2Info info;
  bool header = false;
  for (std::size_t pos = ftyp.end(); pos < size;) {
    const Box b = box_at(data, pos, size);
    if (b.type == kHeaderBox) {
      if (header) fail("a second jp2h box");
      read_jp2_header(data, b, info);
      header = true;
    } else if (b.type == kCodestreamBox) {
      if (!header) fail("jp2c before jp2h: T.800 I.5 puts the JP2 Header box first");
      info.codestream = {b.contents, b.length};
      return info;
    }
    pos = b.end();
  }
  fail(header ? "no Contiguous Codestream box (jp2c)" : "no JP2 Header box (jp2h) and no codestream box (jp2c)");
}

}  // namespace cf::j2k
