// The JP2 file format of JPEG 2000 Part 1 (ITU-T T.800 Annex I): boxes
// around a codestream. The decoder reads the codestream of the first
// Contiguous Codestream box and what the JP2 Header box says of the image.
// Internal to core/.
//
// A box is LBox (32 bits: the box's length, header included; 0: up to the
// end of the file; 1: XLBox, 64 bits, follows the type), TBox (four
// characters) and its contents. A JP2 file is the signature box, the File
// Type box, then other boxes, among them the JP2 Header superbox (Image
// Header box first, then one or more Colour Specification boxes) before
// the Contiguous Codestream box.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/codec/j2k_header.hpp"  // ByteSpan

namespace cf::j2k {

enum class J2kFormat : std::uint8_t { Unknown, Codestream, Jp2 };
// Codestream when `data` starts with SOC then the SIZ marker, Jp2 when it
// starts with the JP2 signature box.
J2kFormat detect_j2k_format(const std::uint8_t *data, std::size_t size);

// Enumerated colourspaces of the Colour Specification box (METH = 1).
enum class Jp2Colourspace : std::uint32_t { Srgb = 16, Greyscale = 17, Sycc = 18 };

struct Jp2Info {
  ByteSpan codestream;  // the first Contiguous Codestream box's contents
  // Image Header box.
  std::uint32_t height = 0, width = 0;
  std::uint32_t components = 0;         // NC, 1..16384
  std::uint8_t bits_per_component = 0;  // BPC: depth - 1, bit 7 signed; 255: the components differ
  bool colourspace_unknown = false;     // UnkC
  bool intellectual_property = false;   // IPR
  // The first Colour Specification box.
  std::uint8_t colour_method = 0;            // METH: 1 enumerated, 2 restricted ICC profile
  std::uint32_t enumerated_colourspace = 0;  // EnumCS when METH = 1 (Jp2Colourspace, or another value)
  bool icc_profile = false;                  // METH = 2: a profile is there; the decoder ignores it
};

// Reads the boxes of a JP2 file; throws cf::Error naming the box and the
// rule when `data` is not a JP2 file or a box is broken or cut.
Jp2Info read_jp2(const std::uint8_t *data, std::size_t size);

}  // namespace cf::j2k
