// JPEG 2000's file formats around a codestream, for applications that read
// or write files: JP2 (ITU-T T.800 Annex I) and JPH (T.814 Annex D: the
// same boxes, the 'jph ' brand, for HTJ2K codestreams). A bare codestream
// (.j2k, .j2c) is read as it is.
#pragma once

#include <cstddef>
#include <cstdint>
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

// A JP2 file (jph false) or a JPH file around `codestream` into `out`:
// signature, File Type (brand 'jp2 ' or 'jph '), JP2 Header (Image Header
// from the codestream's SIZ, Bits Per Component when the components'
// depths differ, one enumerated Colour Specification: Unknown writes
// sRGB for 3 or more components and greyscale otherwise, with UnkC set),
// then the codestream in a Contiguous Codestream box. Throws cf::Error when
// the codestream has no SIZ to describe.
void j2k_write_file(const std::uint8_t *codestream, std::size_t size, J2kColourspace colourspace, bool jph,
                    std::vector<std::uint8_t> &out);

}  // namespace cf
