// cudaj2kdec's input: where the codestream is in one buffer of
// image/x-jpc, image/x-j2c or image/jp2, and what the surrounding boxes
// say of its colours.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace cfgst {

// The colour space a stream declares beside the codestream (JP2's colr
// box, or the caps' colorspace and sampling fields): the codestream alone
// does not say whether 3 components are R, G, B or Y, Cb, Cr.
enum class J2kColourHint { None, Rgb, Yuv, Gray };

struct J2kCodestream {
  const std::uint8_t *data = nullptr;  // SOC ... EOC
  std::size_t size = 0;
  J2kColourHint colour = J2kColourHint::None;  // from a JP2 file's colr box
};

// The codestream in `data`, found by what the bytes start with (whatever
// the caps say, as demuxers and parsers differ):
//  - SOC then SIZ: the bare codestream (image/x-jpc, mxfdemux's output);
//  - the JP2 signature box: a JP2 file (image/jp2, T.800 Annex I), whose
//    first Contiguous Codestream box is read with its colr box;
//  - other boxes (image/x-j2c: an MJ2 sample, qtdemux's output): the
//    contents of the first 'jp2c' box. GStreamer 1.22's openjpegenc writes
//    that box's type byte-swapped ('c2pj'), and mj2mux stores it so: both
//    are read.
// False with `why` naming what is wrong (a cut box, no codestream).
bool find_codestream(const std::uint8_t *data, std::size_t size, J2kCodestream *out, std::string *why);

}  // namespace cfgst
