// cudacdf53: reversible CDF 5/3 wavelet, JPEG 2000's lossless filter.
#include "cf_wavelet_enc.h"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_cdf53_debug);

G_BEGIN_DECLS
#define GST_TYPE_CUDA_CDF53 (gst_cuda_cdf53_get_type())
G_DECLARE_FINAL_TYPE(GstCudaCdf53, gst_cuda_cdf53, GST, CUDA_CDF53, GstCfWaveletEnc)
G_END_DECLS

struct _GstCudaCdf53 {
  GstCfWaveletEnc parent;
};

G_DEFINE_TYPE(GstCudaCdf53, gst_cuda_cdf53, GST_TYPE_CF_WAVELET_ENC)
GST_ELEMENT_REGISTER_DEFINE(cudacdf53, "cudacdf53", GST_RANK_NONE, GST_TYPE_CUDA_CDF53)

static void gst_cuda_cdf53_class_init(GstCudaCdf53Class *klass) {
  GST_DEBUG_CATEGORY_INIT(gst_cuda_cdf53_debug, "cudacdf53", 0, "cudacdf53 element");
  GST_CF_BASE_CLASS(klass)->debug = gst_cuda_cdf53_debug;
  GST_CF_WAVELET_ENC_CLASS(klass)->wavelet = cf::Wavelet::Cdf53;
  gst_element_class_set_static_metadata(
      GST_ELEMENT_CLASS(klass), "CUDA CDF 5/3 wavelet", "Filter/Converter/Video",
      "Reversible integer CDF 5/3 wavelet (JPEG 2000 lossless lifting with symmetric extension) of "
      "every component plane, on CUDA, OpenMP or the CPU. Outputs video/x-coefficients (S16LE for "
      "8-bit input, S32LE for GRAY16_LE) that cudainverse rebuilds bit for bit",
      "cudafilters");
}

static void gst_cuda_cdf53_init(GstCudaCdf53 *) {}
