// cudaged: gradient edge detection predictor (W, WW, N, NN, NW) with a threshold
#include "cf_predictor_enc.h"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_ged_debug);

G_BEGIN_DECLS
#define GST_TYPE_CUDA_GED (gst_cuda_ged_get_type())
G_DECLARE_FINAL_TYPE(GstCudaGed, gst_cuda_ged, GST, CUDA_GED, GstCfPredictorEnc)
G_END_DECLS

struct _GstCudaGed {
  GstCfPredictorEnc parent;
};

G_DEFINE_TYPE(GstCudaGed, gst_cuda_ged, GST_TYPE_CF_PREDICTOR_ENC)
GST_ELEMENT_REGISTER_DEFINE(cudaged, "cudaged", GST_RANK_NONE, GST_TYPE_CUDA_GED)

static void gst_cuda_ged_class_init(GstCudaGedClass *klass) {
  GST_DEBUG_CATEGORY_INIT(gst_cuda_ged_debug, "cudaged", 0, "cudaged element");
  GST_CF_BASE_CLASS(klass)->debug = gst_cuda_ged_debug;
  GST_CF_PREDICTOR_ENC_CLASS(klass)->predictor = cf::Predictor::Ged;
  gst_cf_predictor_enc_install_threshold(G_OBJECT_CLASS(klass));
  gst_element_class_set_static_metadata(
      GST_ELEMENT_CLASS(klass), "CUDA GED predictor", "Filter/Converter/Video",
      "gradient edge detection predictor (W, WW, N, NN, NW) with a threshold: residual = pixel - prediction of every component plane, on CUDA, OpenMP or the CPU. "
      "Outputs video/x-coefficients (S16LE for 8-bit input, S32LE for GRAY16_LE) that cudainverse "
      "rebuilds bit for bit from the residuals alone",
      "cudafilters");
}

static void gst_cuda_ged_init(GstCudaGed *) {}
