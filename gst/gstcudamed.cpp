// cudamed: LOCO-I / JPEG-LS median edge detector (W, N, NW)
#include "cf_predictor_enc.h"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_med_debug);

G_BEGIN_DECLS
#define GST_TYPE_CUDA_MED (gst_cuda_med_get_type())
G_DECLARE_FINAL_TYPE(GstCudaMed, gst_cuda_med, GST, CUDA_MED, GstCfPredictorEnc)
G_END_DECLS

struct _GstCudaMed {
  GstCfPredictorEnc parent;
};

G_DEFINE_TYPE(GstCudaMed, gst_cuda_med, GST_TYPE_CF_PREDICTOR_ENC)
GST_ELEMENT_REGISTER_DEFINE(cudamed, "cudamed", GST_RANK_NONE, GST_TYPE_CUDA_MED)

static void gst_cuda_med_class_init(GstCudaMedClass *klass) {
  GST_DEBUG_CATEGORY_INIT(gst_cuda_med_debug, "cudamed", 0, "cudamed element");
  GST_CF_BASE_CLASS(klass)->debug = gst_cuda_med_debug;
  GST_CF_PREDICTOR_ENC_CLASS(klass)->predictor = cf::Predictor::Med;
  gst_element_class_set_static_metadata(
      GST_ELEMENT_CLASS(klass), "CUDA MED predictor", "Filter/Converter/Video",
      "LOCO-I / JPEG-LS median edge detector (W, N, NW): residual = pixel - prediction of every component plane, on CUDA, OpenMP or the CPU. "
      "Outputs video/x-coefficients (S16LE for 8-bit input, S32LE for GRAY16_LE) that cudainverse "
      "rebuilds bit for bit from the residuals alone",
      "cudafilters");
}

static void gst_cuda_med_init(GstCudaMed *) {}
