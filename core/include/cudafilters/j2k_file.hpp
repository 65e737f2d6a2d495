// JPEG 2000's file formats around a codestream, for applications that read
// or write files: JP2 (ITU-T T.800 Annex I) and JPH (T.814 Annex D: the
// same boxes, the 'jph ' brand, for HTJ2K codestreams). A bare codestream
// (.j2k, .j2c) is read as it is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cf {

// The Colour Specification box's enumerated colourspaces (METH 1).
enum class J2kColourspace { Unknown, Srgb, Greyscale, Sycc };

struct J2kFileView {
  const std::uint8_t *codestream = nullptr;  // SOC to EOC, inside the data read
  std::size_t size = 0;
  bool boxed = false;                                    // a JP2 or JPH file (false: a bare codestream)
  J2kColourspace colourspace = J2kColourspace::Unknown;  // of the first colr box; Unknown without one
};

// What `data` starts with: a bare codestream (SOC then SIZ), the JP2
// signature box (a JP2 or JPH file), or neither.
enum class J2kFileKind { Unknown, Codestream, Boxed };
J2kFileKind j2k_file_kind(const std::uint8_t *data, std::size_t size);

// `data` as a bare codestream (SOC then SIZ) or a JP2/JPH file: its first
// codestream and its colourspace. Throws cf::Error naming the box and the
// rule when neither, or when a box is broken or cut.
J2kFileView j2k_read_file(const std::uint8_t *data, std::size_t size);

// How a component is coded (COD's or COC's SPcod) and where: tile -1 for
// the main header's (every tile without coding segments of its own), tile
// t for a tile's tile-part headers; component -1 for COD's, which every
// component not set apart takes.
struct J2kComponentCoding {
  int tile = -1, component = -1;
  int levels = 0;                                             // NL
  int codeblock_width = 0, codeblock_height = 0;              // in samples
  unsigned codeblock_style = 0;                               // SPcod's style byte (bit 6: HT code-blocks)
  bool reversible = true;                                     // the 5/3 (true) or the 9/7
  std::vector<int> precinct_width, precinct_height;           // per resolution 0..NL, in samples (32768: maximal)
  bool ht() const { return (codeblock_style & 0x40u) != 0; }  // HTJ2K code-blocks
};

// How a codestream's headers say it is coded: SIZ, COD and QCD of the main
// header, and the components that COC or tile-part headers code otherwise
// (not QCC, nor a tile's own QCD, QCC or POC).
struct J2kCodingInfo {
  std::uint16_t capabilities = 0;                 // Rsiz
  std::uint32_t tile_width = 0, tile_height = 0;  // XTsiz, YTsiz
  std::uint32_t tile_x0 = 0, tile_y0 = 0;         // XTOsiz, YTOsiz
  std::uint32_t tiles_across = 0, tiles_down = 0;
  J2kComponentCoding coding;      // COD's
  bool colour_transform = false;  // RCT or ICT on components 0..2
  int progression = 0;            // 0 LRCP, 1 RLCP, 2 RPCL, 3 PCRL, 4 CPRL
  int layers = 0;
  bool sop = false, eph = false;  // SOP segments, EPH markers
  int quantisation = 0;           // QCD's style: 0 none, 1 derived, 2 expounded
  int guard_bits = 0;
  std::vector<std::string> markers;                   // the main header's, in order ("SIZ", "COD", ...)
  std::vector<J2kComponentCoding> component_codings;  // those unlike COD's: main-header COCs, then tiles' own
};

// The headers of `codestream` (SOC to EOC) in words (J2kCodingInfo);
// throws cf::Error naming the marker and the rule when they cannot be read.
J2kCodingInfo j2k_coding_info(const std::uint8_t *codestream, std::size_t size);

// A JP2 file (jph false) or a JPH file around `codestream` into `out`:
// signature, File Type (brand 'jp2 ' or 'jph '), JP2 Header (Image Header
// from the codestream's SIZ, Bits Per Component when the components'
// depths differ, one enumerated Colour Specification: Unknown writes
// sRGB for 3 or more components and greyscale otherwise, with UnkC set),
// then the codestream in a Contiguous Codestream box. Throws cf::Error
// (CorruptData) when the codestream's headers cannot be read.
void j2k_write_file(const std::uint8_t *codestream, std::size_t size, J2kColourspace colourspace, bool jph,
                    std::vector<std::uint8_t> &out);

}  // namespace cf
