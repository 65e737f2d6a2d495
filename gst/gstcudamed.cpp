/**
 * SECTION:element-cudamed
 * @title: cudamed
 * @short_description: Lossless MED predictor (LOCO-I, JPEG-LS) on CUDA, OpenMP or the CPU
 *
 * Replaces every sample by its residual against the median edge detector of
 * LOCO-I / JPEG-LS, and outputs a video/x-coefficients stream
 * (`transform=med`, `med-slice-height`) that cudainverse rebuilds bit for
 * bit. With W, N, NW the left, upper and upper-left neighbours:
 * NW >= max(W, N): min(W, N); NW <= min(W, N): max(W, N); else W + N - NW.
 *
 * Input: GRAY8, GRAY16_LE, RGB, BGR, RGBA, BGRA, RGBx, BGRx, I420, NV12,
 * Y444 in system memory (RGB, BGR, RGBA, BGRA, I420, NV12, Y444 also in
 * memory:CUDAMemory), or a colour stage's S16LE coefficients (`cudarct !
 * cudamed`: the chain says the planes hold [-255, 255], so the residuals stay
 * S16). Output in the input's memory: residual = pixel - prediction, S16LE
 * for 8-bit input and after a colour stage, S32LE for GRAY16_LE. Every
 * prediction is clamped to the sample range; cudainverse recomputes each
 * prediction from the pixels it has rebuilt, from the residuals alone.
 *
 * Border rule, in each slice of `slice-height` rows (0 = the whole frame),
 * coded on its own: the slice's first pixel is predicted by the middle of
 * the range (128 for 8-bit, 32768 for 16-bit, 0 for signed input), the rest
 * of its first row by W, the rest of its first column by N; elsewhere
 * neighbour coordinates are clamped into the slice (columns to [0, w-1],
 * rows to the slice's first row). The inverse rebuilds slices in
 * parallel; slices of 64 rows cost 0.01-0.32% of entropy on photos.
 *
 * ## Example launch line
 * ```
 * gst-launch-1.0 -m videotestsrc num-buffers=3 ! video/x-raw,format=GRAY8,width=640,height=480 \
 *     ! cudamed ! cudaentropy ! cudainverse ! fakesink
 * ```
 */

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
      "LOCO-I / JPEG-LS median edge detector (W, N, NW): residual = pixel - prediction of every component plane, on "
      "CUDA, OpenMP or the CPU. "
      "Outputs video/x-coefficients (S16LE for 8-bit input, S32LE for GRAY16_LE) that cudainverse "
      "rebuilds bit for bit from the residuals alone",
      "cudafilters");
}

static void gst_cuda_med_init(GstCudaMed *) {}
