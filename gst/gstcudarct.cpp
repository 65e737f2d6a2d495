/**
 * SECTION:element-cudarct
 * @title: cudarct
 * @short_description: JPEG 2000 reversible colour transform (RCT) on CUDA, OpenMP or the CPU
 *
 * Transforms RGB into the JPEG 2000 reversible colour transform (T.800
 * Annex G.2): Y = floor((R + 2G + B) / 4), Cb = B - G, Cr = R - G, and
 * outputs a video/x-coefficients stream (`transform=rct`) of S16LE planes Y,
 * Cb, Cr (8-bit differences need 9 bits), then alpha unchanged for
 * RGBA/BGRA, whatever the byte order of the format. cudainverse undoes it
 * bit for bit; the RGBx/BGRx padding byte is not carried (cudainverse
 * writes 0xff).
 *
 * Input: RGB, BGR, RGBA, BGRA, RGBx, BGRx in system memory (RGB, BGR, RGBA,
 * BGRA also in memory:CUDAMemory); other formats are refused with an error
 * naming the format. A colour stage starts a chain: cudahaar, cudacdf53,
 * cudacdf97, cudadct, cudamed, cudagap and cudaged may follow it
 * (`transform=rct,cdf53`), and learn from the chain that the planes hold
 * [-255, 255] (the wavelets' level limit, S16 residuals for the
 * predictors). The chain comes back exactly when every stage after the
 * colour stage is reversible.
 *
 * ## Example launch line
 * ```
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=RGBA,width=640,height=480 \
 *     ! cudarct ! cudahaar levels=2 ! cudainverse ! video/x-raw,format=RGBA ! fakesink
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=RGB,width=640,height=480 \
 *     ! cudarct ! cudamed ! cudainverse ! fakesink
 * ```
 */

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
      "JPEG 2000 reversible colour transform (RCT): Y = floor((R + 2G + B) / 4), Cb = B - G, Cr = R - G, on CUDA, "
      "OpenMP or the CPU. RGB-family input; outputs video/x-coefficients "
      "transform=rct (S16LE planes: Y and the two differences, then alpha unchanged for RGBA/BGRA), which "
      "another stage may continue (cudahaar, cudacdf53, cudamed, cudagap, cudaged, cudadct, cudacdf97). cudainverse "
      "undoes the colour stage bit for bit: a chain comes back exactly when every stage after it is "
      "reversible (not dct, not cdf97 with threshold or quant-step)",
      "cudafilters");
}

static void gst_cuda_rct_init(GstCudaRct *) {}
