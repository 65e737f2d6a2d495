// cudaj2kenc's caps: the raw formats it codes, how a frame of each becomes
// a cf::J2kInput, and the JPEG 2000 caps it gives (image/x-jpc: the bare
// codestream; image/x-j2c: the codestream inside a 'jp2c' box, as MJ2 and
// openjpegdec read it).
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <cstddef>
#include <cstdint>

#include "cudafilters/j2k.hpp"

namespace cfgst {

#define CF_J2K_RAW_FORMATS                                                                                    \
  "{ GRAY8, GRAY16_LE, RGB, BGR, RGBA, BGRA, RGBx, BGRx, I420, Y42B, Y444, I420_10LE, I422_10LE, Y444_10LE, " \
  "GBR_10LE, I420_12LE, I422_12LE, Y444_12LE, GBR_12LE }"
// In memory:CUDAMemory: the formats GStreamer 1.22's GstCudaMemory allocates
// (not GRAY8/GRAY16_LE: its allocator aborts on them).
#define CF_J2K_CUDA_RAW_FORMATS "{ RGB, BGR, RGBA, BGRA, RGBx, BGRx, I420, Y444 }"
#define CF_J2K_SAMPLINGS "{ RGB, RGBA, YCbCr-4:4:4, YCbCr-4:2:2, YCbCr-4:2:0, GRAYSCALE }"

bool j2k_format_supported(GstVideoFormat f);
bool j2k_cuda_format_supported(GstVideoFormat f);

// The frame to code from a raw view of `info` (cfgst::raw_frame_view or
// raw_frame_shape): GStreamer's components are R, G, B (then A) or Y, U, V
// whatever the byte order, so the view's components are the codestream's;
// subsampling from the format (I420 2x2, Y42B 2x1); rgb for the RGB family
// (RGBx/BGRx: 3 components, the padding byte is not coded).
cf::J2kInput j2k_input(const cf::FrameView &raw, const GstVideoInfo &info);

// The caps fields openjpegdec and the muxers read, for frames of `info`:
// colorspace (sRGB, sYUV, GRAY), sampling and num-components, on media type
// image/x-j2c when `j2c`, else image/x-jpc. Width, height, framerate and
// pixel-aspect-ratio come from GstVideoEncoder's output state.
GstCaps *j2k_codestream_caps(const GstVideoInfo &info, bool j2c);

// The 'jp2c' box header before an image/x-j2c codestream (ISO/IEC 15444-1
// Annex I: LBox, the box's length in bytes including the header, then
// TBox 'jp2c'), both 32-bit big-endian.
constexpr std::size_t kJp2cHeaderBytes = 8;
void write_jp2c_header(std::uint8_t *dst, std::size_t codestream_bytes);

}  // namespace cfgst
