// cudagap: CALIC's gradient-adjusted predictor (W, WW, N, NN, NW, NE, NNE; thresholds 80/32/8)
#include "cf_predictor_enc.h"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_gap_debug);

G_BEGIN_DECLS
#define GST_TYPE_CUDA_GAP (gst_cuda_gap_get_type())
G_DECLARE_FINAL_TYPE(GstCudaGap, gst_cuda_gap, GST, CUDA_GAP, GstCfPredictorEnc)
G_END_DECLS

struct _GstCudaGap {
  GstCfPredictorEnc parent;
};

G_DEFINE_TYPE(GstCudaGap, gst_cuda_gap, GST_TYPE_CF_PREDICTOR_ENC)
GST_ELEMENT_REGISTER_DEFINE(cudagap, "cudagap", GST_RANK_NONE, GST_TYPE_CUDA_GAP)

static void gst_cuda_gap_class_init(GstCudaGapClass *klass) {
  GST_DEBUG_CATEGORY_INIT(gst_cuda_gap_debug, "cudagap", 0, "cudagap element");
  GST_CF_BASE_CLASS(klass)->debug = gst_cuda_gap_debug;
  GST_CF_PREDICTOR_ENC_CLASS(klass)->predictor = cf::Predictor::Gap;
  gst_element_class_set_static_metadata(
      GST_ELEMENT_CLASS(klass), "CUDA GAP predictor", "Filter/Converter/Video",
      "CALIC's gradient-adjusted predictor (W, WW, N, NN, NW, NE, NNE; thresholds 80/32/8): residual = pixel - prediction of every component plane, on CUDA, OpenMP or the CPU. "
      "Outputs video/x-coefficients (S16LE for 8-bit input, S32LE for GRAY16_LE) that cudainverse "
      "rebuilds bit for bit from the residuals alone",
      "cudafilters");
}

static void gst_cuda_gap_init(GstCudaGap *) {}
