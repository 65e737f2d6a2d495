/**
 * SECTION:element-cudaycocg
 * @title: cudaycocg
 * @short_description: YCoCg-R reversible colour transform on CUDA, OpenMP or the CPU
 *
 * Transforms RGB into YCoCg-R, the lossless YCoCg in lifting form:
 * Co = R - B, t = B + floor(Co / 2), Cg = G - t, Y = t + floor(Cg / 2), and
 * outputs a video/x-coefficients stream (`transform=ycocg`) of S16LE planes
 * Y, Co, Cg, then alpha unchanged for RGBA/BGRA, whatever the byte order of
 * the format. cudainverse undoes it bit for bit; the RGBx/BGRx padding byte
 * is not carried (cudainverse writes 0xff).
 *
 * Input: RGB, BGR, RGBA, BGRA, RGBx, BGRx in system memory (RGB, BGR, RGBA,
 * BGRA also in memory:CUDAMemory); other formats are refused with an error
 * naming the format. A colour stage starts a chain: cudahaar, cudacdf53,
 * cudacdf97, cudadct, cudamed, cudagap and cudaged may follow it
 * (`transform=ycocg,cdf53`), and learn from the chain that the planes hold
 * [-255, 255]. The chain comes back exactly when every stage after the
 * colour stage is reversible.
 *
 * ## Example launch line
 * ```
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=BGRx,width=640,height=480 \
 *     ! cudaycocg ! cudacdf53 levels=3 ! cudainverse ! fakesink
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=RGB,width=640,height=480 \
 *     ! cudaycocg ! cudagap slice-height=16 ! cudainverse ! fakesink
 * ```
 */

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
      "YCoCg-R, the lossless YCoCg in lifting form: Co = R - B, t = B + floor(Co / 2), Cg = G - t, Y = t + floor(Cg / "
      "2), on CUDA, OpenMP or the CPU. RGB-family input; outputs video/x-coefficients "
      "transform=ycocg (S16LE planes: Y and the two differences, then alpha unchanged for RGBA/BGRA), which "
      "another stage may continue (cudahaar, cudacdf53, cudamed, cudagap, cudaged, cudadct, cudacdf97). cudainverse "
      "undoes the colour stage bit for bit: a chain comes back exactly when every stage after it is "
      "reversible (not dct, not cdf97 with threshold or quant-step)",
      "cudafilters");
}

static void gst_cuda_ycocg_init(GstCudaYCoCg *) {}
