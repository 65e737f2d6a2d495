/**
 * SECTION:element-cudahaar
 * @title: cudahaar
 * @short_description: Reversible integer Haar wavelet on CUDA, OpenMP or the CPU
 *
 * Transforms every component plane with the integer Haar wavelet (the
 * S-transform in lifting form) and outputs a video/x-coefficients stream
 * (`transform=haar`, `haar-levels`, `haar-layout`) that cudainverse rebuilds
 * bit for bit.
 *
 * Input: GRAY8, GRAY16_LE, RGB, BGR, RGBA, BGRA, RGBx, BGRx, I420, NV12,
 * Y444 in system memory (RGB, BGR, RGBA, BGRA, I420, NV12, Y444 also in
 * memory:CUDAMemory), or the S16LE coefficients of a colour stage (cudarct,
 * cudaycocg), which it continues (`transform=rct,haar`). Output in the
 * input's memory: S16LE for 8-bit input and after a colour stage, S32LE for
 * GRAY16_LE, one tightly packed plane per component.
 *
 * Lifting on a line of N samples: d = x[2n+1] - x[2n], s = x[2n] +
 * floor(d / 2); the ceil(N/2) low samples (even positions) come first, the
 * floor(N/2) high ones after them; with N odd the last sample stays unpaired
 * in the low band. Floors are arithmetic shifts: every backend gives the
 * same bits.
 *
 * `levels` (1..32): too many for the frame is an element error at caps time
 * naming the limit. A level needs a low band larger than 1x1 (a 1x1 frame
 * allows exactly one, which leaves it unchanged), and no coefficient may
 * overflow the sample format for any input; 8-bit input in S16 and 16-bit
 * input in S32 fit down to a 1x1 low band (1920x1080: 11 levels). `layout`:
 * mallat = rows then columns at each level, on the LL band (JPEG 2000's
 * dyadic pyramid); standard = all row levels on whole rows, then all column
 * levels on whole columns.
 *
 * ## Example launch line
 * ```
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=I420,width=640,height=480 \
 *     ! cudahaar levels=3 ! cudainverse ! video/x-raw,format=I420 ! fakesink
 * gst-launch-1.0 videotestsrc num-buffers=1 ! video/x-raw,format=GRAY8,width=640,height=480 \
 *     ! cudahaar levels=3 ! cudaview ! pngenc ! filesink location=haar.png
 * ```
 * The first transforms 30 frames and rebuilds them; the second writes the
 * subbands of one frame as a picture.
 */

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
