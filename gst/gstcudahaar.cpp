// cudahaar: reversible integer Haar wavelet (S-transform in lifting form).
#include "cf_wavelet_enc.h"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_haar_debug);

G_BEGIN_DECLS
#define GST_TYPE_CUDA_HAAR (gst_cuda_haar_get_type())
G_DECLARE_FINAL_TYPE(GstCudaHaar, gst_cuda_haar, GST, CUDA_HAAR, GstCfWaveletEnc)
G_END_DECLS

struct _GstCudaHaar {
  GstCfWaveletEnc parent;
};

G_DEFINE_TYPE(GstCudaHaar, gst_cuda_haar, GST_TYPE_CF_WAVELET_ENC)
GST_ELEMENT_REGISTER_DEFINE(cudahaar, "cudahaar", GST_RANK_NONE, GST_TYPE_CUDA_HAAR)

static void gst_cuda_haar_class_init(GstCudaHaarClass *klass) {
  GST_DEBUG_CATEGORY_INIT(gst_cuda_haar_debug, "cudahaar", 0, "cudahaar element");
  GST_CF_BASE_CLASS(klass)->debug = gst_cuda_haar_debug;
  GST_CF_WAVELET_ENC_CLASS(klass)->wavelet = cf::Wavelet::Haar;
  gst_element_class_set_static_metadata(
      GST_ELEMENT_CLASS(klass), "CUDA integer Haar wavelet", "Filter/Converter/Video",
      "Reversible integer Haar wavelet (lifting: d = odd - even, s = even + floor(d/2)) of every "
      "component plane, on CUDA, OpenMP or the CPU. Outputs video/x-coefficients (S16LE for 8-bit "
      "input, S32LE for GRAY16_LE) that cudainverse rebuilds bit for bit",
      "cudafilters");
}

static void gst_cuda_haar_init(GstCudaHaar *) {}
