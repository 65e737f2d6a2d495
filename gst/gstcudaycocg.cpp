// cudaycocg: YCoCg-R, the lossless YCoCg in lifting form: Co = R - B, t = B + floor(Co / 2), Cg = G - t, Y = t + floor(Cg / 2).
#include "cf_colour_enc.h"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_ycocg_debug);

G_BEGIN_DECLS
#define GST_TYPE_CUDA_YCOCG (gst_cuda_ycocg_get_type())
G_DECLARE_FINAL_TYPE(GstCudaYCoCg, gst_cuda_ycocg, GST, CUDA_YCOCG, GstCfColourEnc)
G_END_DECLS

struct _GstCudaYCoCg {
  GstCfColourEnc parent;
};

G_DEFINE_TYPE(GstCudaYCoCg, gst_cuda_ycocg, GST_TYPE_CF_COLOUR_ENC)
GST_ELEMENT_REGISTER_DEFINE(cudaycocg, "cudaycocg", GST_RANK_NONE, GST_TYPE_CUDA_YCOCG)

static void gst_cuda_ycocg_class_init(GstCudaYCoCgClass *klass) {
  GST_DEBUG_CATEGORY_INIT(gst_cuda_ycocg_debug, "cudaycocg", 0, "cudaycocg element");
  GST_CF_BASE_CLASS(klass)->debug = gst_cuda_ycocg_debug;
  GST_CF_COLOUR_ENC_CLASS(klass)->colour = cf::ColourTransform::YCoCg;
  gst_element_class_set_static_metadata(
      GST_ELEMENT_CLASS(klass), "CUDA YCoCg-R colour transform", "Filter/Converter/Video",
      "YCoCg-R, the lossless YCoCg in lifting form: Co = R - B, t = B + floor(Co / 2), Cg = G - t, Y = t + floor(Cg / 2), on CUDA, OpenMP or the CPU. RGB-family input; outputs video/x-coefficients "
      "transform=ycocg (S16LE planes: Y and the two differences, then alpha unchanged for RGBA/BGRA), which "
      "another stage may continue (cudahaar, cudacdf53, cudamed, cudagap, cudaged, cudadct, cudacdf97). cudainverse "
      "undoes the colour stage bit for bit: a chain comes back exactly when every stage after it is "
      "reversible (not dct, not cdf97 with threshold or quant-step)",
      "cudafilters");
}

static void gst_cuda_ycocg_init(GstCudaYCoCg *) {}
