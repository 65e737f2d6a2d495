// cudarct: JPEG 2000 reversible colour transform (RCT): Y = floor((R + 2G + B) / 4), Cb = B - G, Cr = R - G.
#include "cf_colour_enc.h"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_rct_debug);

G_BEGIN_DECLS
#define GST_TYPE_CUDA_RCT (gst_cuda_rct_get_type())
G_DECLARE_FINAL_TYPE(GstCudaRct, gst_cuda_rct, GST, CUDA_RCT, GstCfColourEnc)
G_END_DECLS

struct _GstCudaRct {
  GstCfColourEnc parent;
};

G_DEFINE_TYPE(GstCudaRct, gst_cuda_rct, GST_TYPE_CF_COLOUR_ENC)
GST_ELEMENT_REGISTER_DEFINE(cudarct, "cudarct", GST_RANK_NONE, GST_TYPE_CUDA_RCT)

static void gst_cuda_rct_class_init(GstCudaRctClass *klass) {
  GST_DEBUG_CATEGORY_INIT(gst_cuda_rct_debug, "cudarct", 0, "cudarct element");
  GST_CF_BASE_CLASS(klass)->debug = gst_cuda_rct_debug;
  GST_CF_COLOUR_ENC_CLASS(klass)->colour = cf::ColourTransform::Rct;
  gst_element_class_set_static_metadata(
      GST_ELEMENT_CLASS(klass), "CUDA reversible colour transform (RCT)", "Filter/Converter/Video",
      "JPEG 2000 reversible colour transform (RCT): Y = floor((R + 2G + B) / 4), Cb = B - G, Cr = R - G, on CUDA, OpenMP or the CPU. RGB-family input; outputs video/x-coefficients "
      "transform=rct (S16LE planes: Y and the two differences, then alpha unchanged for RGBA/BGRA), which "
      "another stage may continue (cudahaar, cudacdf53, cudamed, cudagap, cudaged, cudadct, cudacdf97). cudainverse "
      "undoes the colour stage bit for bit: a chain comes back exactly when every stage after it is "
      "reversible (not dct, not cdf97 with threshold or quant-step)",
      "cudafilters");
}

static void gst_cuda_rct_init(GstCudaRct *) {}
