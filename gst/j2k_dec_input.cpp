// Where the codestream is in a buffer; see j2k_dec_input.h.
#include "j2k_dec_input.h"

#include <exception>

#include "cudafilters/j2k_file.hpp"

namespace cfgst {

namespace {

std::uint32_t be32(const std::uint8_t *p) {
  return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

constexpr std::uint32_t fourcc(const char (&t)[5]) {
  return std::uint32_t(std::uint8_t(t[0])) << 24 | std::uint32_t(std::uint8_t(t[1])) << 16 |
         std::uint32_t(std::uint8_t(t[2])) << 8 | std::uint8_t(t[3]);
}
constexpr std::uint32_t kJp2c = fourcc("jp2c"), kJp2cSwapped = fourcc("c2pj");

std::string type_name(std::uint32_t t) {
  std::string s = "'";
  for (int shift = 24; shift >= 0; shift -= 8) {
    const char c = char(t >> shift);
    s += c >= 0x20 && c < 0x7F ? c : '?';
  }
  return s + "'";
}

// A box type is four printable characters (T.800 I.4); anything else at the
// start is no box at all.
bool printable(std::uint32_t t) {
  for (int shift = 24; shift >= 0; shift -= 8)
    if (std::uint8_t(t >> shift) < 0x20 || std::uint8_t(t >> shift) >= 0x7F) return false;
  return true;
}

std::string first_bytes(const std::uint8_t *data, std::size_t size) {
  static const char hex[] = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < size && i < 8; ++i)
    s += std::string(i ? " " : "") + hex[data[i] >> 4] + hex[data[i] & 15];
  return s;
}

const char *const kNoCodestream =
    "no codestream: the buffer starts with neither SOC and SIZ (image/x-jpc) nor the JP2 signature (image/jp2), "
    "and holds no 'jp2c' box (image/x-j2c)";

bool fail(std::string *why, const std::string &m) {
  if (why) *why = m;
  return false;
}

J2kColourHint hint_of(cf::J2kColourspace c) {
  switch (c) {
    case cf::J2kColourspace::Srgb: return J2kColourHint::Rgb;
    case cf::J2kColourspace::Sycc: return J2kColourHint::Yuv;
    case cf::J2kColourspace::Greyscale: return J2kColourHint::Gray;
    default: return J2kColourHint::None;
  }
}

// The first 'jp2c' box of a sequence of boxes (T.800 I.4: LBox, TBox,
// XLBox when LBox = 1, LBox = 0 up to the end).
bool find_jp2c_box(const std::uint8_t *data, std::size_t size, J2kCodestream *out, std::string *why) {
  std::size_t pos = 0;
  while (pos < size) {
    if (size - pos < 8)
      return fail(why,
                  "image/x-j2c: a box header at offset " + std::to_string(pos) + " is cut by the end of the buffer");
    const std::uint32_t type = be32(data + pos + 4);
    if (!printable(type))
      return fail(why, std::string(kNoCodestream) + " (" +
                           (pos ? "bytes at offset " + std::to_string(pos) : "first bytes") + ": " +
                           first_bytes(data + pos, size - pos) + ")");
    std::uint64_t length = be32(data + pos);
    std::size_t header = 8;
    if (length == 1) {
      if (size - pos < 16) return fail(why, "image/x-j2c: box " + type_name(type) + ": its XLBox is cut");
      length = std::uint64_t(be32(data + pos + 8)) << 32 | be32(data + pos + 12);
      header = 16;
    } else if (length == 0) {
      length = size - pos;
    }
    if (length < header || length > size - pos)
      return fail(why, "image/x-j2c: box " + type_name(type) + " at offset " + std::to_string(pos) + " of " +
                           std::to_string(length) + " bytes runs past the end of the buffer (" +
                           std::to_string(size - pos) +
                           " bytes left; T.800 I.4: LBox counts the header and the "
                           "contents)");
    if (type == kJp2c || type == kJp2cSwapped) {
      out->data = data + pos + header;
      out->size = std::size_t(length) - header;
      return true;
    }
    pos += std::size_t(length);
  }
  return fail(why, kNoCodestream);
}

}  // namespace

bool find_codestream(const std::uint8_t *data, std::size_t size, J2kCodestream *out, std::string *why) {
  *out = {};
  if (!data || size == 0) return fail(why, "an empty buffer");
  if (cf::j2k_file_kind(data, size) == cf::J2kFileKind::Unknown) return find_jp2c_box(data, size, out, why);
  try {
    const cf::J2kFileView v = cf::j2k_read_file(data, size);
    out->data = v.codestream;
    out->size = v.size;
    out->colour = hint_of(v.colourspace);
    return true;
  } catch (const std::exception &e) {
    return fail(why, e.what());
  }
}

}  // namespace cfgst
