// cudaj2kenc's caps and the frame it codes; see j2k_caps.h.
#include "j2k_caps.h"

#include "raw_formats.h"

namespace cfgst {

bool j2k_format_supported(GstVideoFormat f) {
  switch (f) {
    case GST_VIDEO_FORMAT_GRAY8:
    case GST_VIDEO_FORMAT_GRAY16_LE:
    case GST_VIDEO_FORMAT_Y42B: return true;
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

const char *sampling_name(const GstVideoInfo &info) {
  switch (GST_VIDEO_INFO_FORMAT(&info)) {
    case GST_VIDEO_FORMAT_GRAY8:
    case GST_VIDEO_FORMAT_GRAY16_LE: return "GRAYSCALE";
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_BGRA: return "RGBA";  // components R, G, B, A in the codestream
    case GST_VIDEO_FORMAT_I420: return "YCbCr-4:2:0";
    case GST_VIDEO_FORMAT_Y42B: return "YCbCr-4:2:2";
    case GST_VIDEO_FORMAT_Y444: return "YCbCr-4:4:4";
    default: return "RGB";  // RGB, BGR, RGBx, BGRx: R, G, B
  }
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
