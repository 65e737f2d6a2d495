// cudaj2kdec's output: the raw format a codestream decodes to, from its
// headers (cf::J2kImageInfo) and the colour space the stream declares.
//
//   components  subsampling of 1, 2     colour              depth <= 8  9..10      11..12     13..16
//   1           -                       any                 GRAY8       GRAY16_LE  GRAY16_LE  GRAY16_LE
//   3           1x1                     RGB (see below)     RGB         GBR_10LE   GBR_12LE   refused
//   3           1x1                     YCbCr               Y444        Y444_10LE  Y444_12LE  Y444_16LE
//   3           2x1 (Y42B)              YCbCr               Y42B        I422_10LE  I422_12LE  refused
//   3           2x2 (I420)              YCbCr               I420        I420_10LE  I420_12LE  refused
//   4           1x1                     R, G, B, A          RGBA        RGBA64_LE  RGBA64_LE  RGBA64_LE
//
// (subsampling relative to component 0; the depth is the deepest
// component's.) GStreamer 1.22 has no 3-component RGB format of more than
// 12 bits (RGB16 is 5:6:5 in 16 bits), nor 4:2:0 or 4:2:2 of more than 12.
// Three components of one size are RGB when a JP2 colr box says sRGB, else
// when the codestream's colour transform is on (RCT/ICT, which only RGB
// input takes), else when the caps say colorspace=sRGB (or an RGB
// sampling); otherwise Y, Cb, Cr. Anything else (2 or more than 4
// components, other subsamplings, RGB subsampled) is refused by name.
//
// Samples less deep than the format's are shifted up to its depth (a
// 12-bit grey component becomes GRAY16_LE with its low 4 bits zero); the
// decoder gives signed components offset by 2^(depth - 1).
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <string>

#include "cudafilters/j2k_decoder.hpp"
#include "j2k_dec_input.h"

namespace cfgst {

// Every format cudaj2kdec gives, for its src template.
#define CF_J2K_DEC_FORMATS                                                                                           \
  "{ GRAY8, GRAY16_LE, RGB, GBR_10LE, GBR_12LE, Y444, Y444_10LE, Y444_12LE, Y444_16LE, Y42B, I422_10LE, I422_12LE, " \
  "I420, I420_10LE, I420_12LE, RGBA, RGBA64_LE }"

// The formats it gives in memory:CUDAMemory: those GStreamer 1.22's
// GstCudaMemory allocates and cudaupload offers (not GRAY8 or GRAY16_LE,
// raw_formats.h) among the 8-bit ones; deeper formats come in system
// memory. So does I420 of odd height: 1.22 reads GstCudaMemory on the host
// (cudadownload, a map) without the start of its V plane (cuda_memory.h).
#define CF_J2K_DEC_CUDA_FORMATS "{ RGB, RGBA, I420, Y444 }"
bool j2k_dec_cuda_format(GstVideoFormat f, int height);

// The colour space caps declare: `colorspace` (sRGB, sYUV, GRAY), else
// `sampling` (RGB, BGR, RGBA, BGRA: RGB; YCbCr-*: YUV; GRAYSCALE).
J2kColourHint colour_hint_from_caps(const GstStructure *s);

struct J2kOutput {
  GstVideoFormat format = GST_VIDEO_FORMAT_UNKNOWN;
  int width = 0, height = 0;       // component 0's
  int shift[cf::kMaxPlanes] = {};  // left shift of each component's samples
};

// The output for `info`; false with `why` naming the components, depths
// and subsampling when no format fits.
bool j2k_output_format(const cf::J2kImageInfo &info, J2kColourHint colour, J2kOutput *out, std::string *why);

// Whether `info` (of out.format, out.width x out.height) has the
// codestream's component sizes; false with `why` naming the first that
// differs (an image offset can make a subsampled component one sample
// larger than GStreamer's).
bool j2k_sizes_match(const cf::J2kImageInfo &j2k, const GstVideoInfo &info, std::string *why);

}  // namespace cfgst
