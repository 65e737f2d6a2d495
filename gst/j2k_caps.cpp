// cudaj2kenc's caps and the frame it codes; see j2k_caps.h.
#include "j2k_caps.h"

#include "raw_formats.h"

namespace cfgst {

bool j2k_format_supported(GstVideoFormat f) {
  switch (f) {
    case GST_VIDEO_FORMAT_GRAY8:
    case GST_VIDEO_FORMAT_GRAY16_LE:
    case GST_VIDEO_FORMAT_Y42B:
    // 10 and 12 bits in 16-bit little-endian samples, planar (GBR: R, G, B
    // to the codestream, through the colour transform).
    case GST_VIDEO_FORMAT_I420_10LE:
    case GST_VIDEO_FORMAT_I422_10LE:
    case GST_VIDEO_FORMAT_Y444_10LE:
    case GST_VIDEO_FORMAT_GBR_10LE:
    case GST_VIDEO_FORMAT_I420_12LE:
    case GST_VIDEO_FORMAT_I422_12LE:
    case GST_VIDEO_FORMAT_Y444_12LE:
    case GST_VIDEO_FORMAT_GBR_12LE: return true;
    default: return j2k_cuda_format_supported(f);
  }
}

bool j2k_cuda_format_supported(GstVideoFormat f) {
  return rgb_format(f) || f == GST_VIDEO_FORMAT_I420 || f == GST_VIDEO_FORMAT_Y444;
}

cf::J2kInput j2k_input(const cf::FrameView &raw, const GstVideoInfo &info) {
  cf::J2kInput in;
  in.frame = raw;
  in.bit_depth = GST_VIDEO_INFO_COMP_DEPTH(&info, 0);
  in.rgb = GST_VIDEO_INFO_IS_RGB(&info);
  for (int c = 0; c < raw.n_components && c < cf::kMaxPlanes; ++c) {
    in.subsampling_x[c] = 1 << GST_VIDEO_FORMAT_INFO_W_SUB(info.finfo, c);
    in.subsampling_y[c] = 1 << GST_VIDEO_FORMAT_INFO_H_SUB(info.finfo, c);
  }
  return in;
}

namespace {

// From the format's kind and the chroma's subsampling: every format of
// CF_J2K_RAW_FORMATS, whatever its depth.
const char *sampling_name(const GstVideoInfo &info) {
  if (GST_VIDEO_INFO_IS_GRAY(&info)) return "GRAYSCALE";
  if (GST_VIDEO_INFO_IS_RGB(&info))
    return GST_VIDEO_INFO_HAS_ALPHA(&info) ? "RGBA" : "RGB";  // R, G, B (then A) in the codestream
  const int w_sub = GST_VIDEO_FORMAT_INFO_W_SUB(info.finfo, 1), h_sub = GST_VIDEO_FORMAT_INFO_H_SUB(info.finfo, 1);
  return w_sub && h_sub ? "YCbCr-4:2:0" : w_sub ? "YCbCr-4:2:2" : "YCbCr-4:4:4";
}

}  // namespace

GstCaps *j2k_codestream_caps(const GstVideoInfo &info, bool j2c) {
  const char *colorspace = GST_VIDEO_INFO_IS_RGB(&info) ? "sRGB" : GST_VIDEO_INFO_IS_YUV(&info) ? "sYUV" : "GRAY";
  return gst_caps_new_simple(j2c ? "image/x-j2c" : "image/x-jpc", "colorspace", G_TYPE_STRING, colorspace, "sampling",
                             G_TYPE_STRING, sampling_name(info), "num-components", G_TYPE_INT,
                             int(GST_VIDEO_INFO_N_COMPONENTS(&info)), nullptr);
}

void write_jp2c_header(std::uint8_t *dst, std::size_t codestream_bytes) {
  const std::uint32_t length = std::uint32_t(codestream_bytes + kJp2cHeaderBytes);
  const std::uint8_t header[kJp2cHeaderBytes] = {std::uint8_t(length >> 24),
                                                 std::uint8_t(length >> 16),
                                                 std::uint8_t(length >> 8),
                                                 std::uint8_t(length),
                                                 'j',
                                                 'p',
                                                 '2',
                                                 'c'};
  for (std::size_t i = 0; i < kJp2cHeaderBytes; ++i) dst[i] = header[i];
}

}  // namespace cfgst
