// The raw formats, memory and sample types of coefficient caps; see raw_formats.h.
#include "raw_formats.h"

#include "cudafilters/wavelet.hpp"  // coefficient_type_for

namespace cfgst {

const std::vector<GstVideoFormat> &supported_raw_formats() {
  static const std::vector<GstVideoFormat> formats = {
      GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGB,  GST_VIDEO_FORMAT_BGR,
      GST_VIDEO_FORMAT_RGBA,  GST_VIDEO_FORMAT_BGRA,      GST_VIDEO_FORMAT_RGBx, GST_VIDEO_FORMAT_BGRx,
      GST_VIDEO_FORMAT_I420,  GST_VIDEO_FORMAT_NV12,      GST_VIDEO_FORMAT_Y444};
  return formats;
}

bool raw_format_supported(GstVideoFormat f) {
  for (GstVideoFormat s : supported_raw_formats())
    if (s == f) return true;
  return false;
}

bool rgb_format(GstVideoFormat f) {
  switch (f) {
    case GST_VIDEO_FORMAT_RGB:
    case GST_VIDEO_FORMAT_BGR:
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_RGBx:
    case GST_VIDEO_FORMAT_BGRx: return true;
    default: return false;
  }
}

bool cuda_raw_format_supported(GstVideoFormat f) {
  switch (f) {
    case GST_VIDEO_FORMAT_RGB:
    case GST_VIDEO_FORMAT_BGR:
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_Y444: return true;
    default: return false;
  }
}

bool caps_memory(const GstCaps *caps, guint i, bool *cuda) {
  GstCapsFeatures *f = gst_caps_get_features(caps, i);
  *cuda = false;
  if (!f || gst_caps_features_is_any(f) || gst_caps_features_is_equal(f, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    return true;
#if CF_GST_CUDA
  if (gst_caps_features_get_size(f) == 1 && gst_caps_features_contains(f, kCudaMemoryFeature)) {
    *cuda = true;
    return true;
  }
#endif
  return false;
}

std::string supported_formats_text() {
  std::string s;
  for (GstVideoFormat f : supported_raw_formats()) {
    if (!s.empty()) s += ", ";
    s += gst_video_format_to_string(f);
  }
  return s;
}

cf::SampleType raw_sample_type(GstVideoFormat f) {
  const GstVideoFormatInfo *finfo = gst_video_format_get_info(f);
  return GST_VIDEO_FORMAT_INFO_DEPTH(finfo, 0) > 8 ? cf::SampleType::U16 : cf::SampleType::U8;
}

cf::SampleType coeff_sample_type(GstVideoFormat f) { return cf::coefficient_type_for(raw_sample_type(f)); }

const char *sample_format_name(cf::SampleType t) {
  return t == cf::SampleType::S32 ? "S32LE" : t == cf::SampleType::F32 ? "F32LE" : "S16LE";
}

}  // namespace cfgst
