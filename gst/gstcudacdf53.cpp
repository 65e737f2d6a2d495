/**
 * SECTION:element-cudacdf53
 * @title: cudacdf53
 * @short_description: Reversible CDF 5/3 wavelet (JPEG 2000 lossless) on CUDA, OpenMP or the CPU
 *
 * Transforms every component plane with JPEG 2000's reversible 5/3 lifting
 * and outputs a video/x-coefficients stream (`transform=cdf53`,
 * `cdf53-levels`, `cdf53-layout`) that cudainverse rebuilds bit for bit.
 *
 * Input: GRAY8, GRAY16_LE, RGB, BGR, RGBA, BGRA, RGBx, BGRx, I420, NV12,
 * Y444 in system memory (RGB, BGR, RGBA, BGRA, I420, NV12, Y444 also in
 * memory:CUDAMemory), or the S16LE coefficients of a colour stage (cudarct,
 * cudaycocg), which it continues (`transform=ycocg,cdf53`). Output in the
 * input's memory: S16LE for 8-bit input and after a colour stage, S32LE for
 * GRAY16_LE, one tightly packed plane per component.
 *
 * Lifting on a line of N samples, low band (even positions) first:
 * d[n] = x[2n+1] - floor((x[2n] + x[2n+2]) / 2),
 * s[n] = x[2n] + floor((d[n-1] + d[n] + 2) / 4), with whole-sample symmetric
 * extension at both ends (x[N] = x[N-2], d[-1] = d[0]); N = 1 is left
 * unchanged. Floors are arithmetic shifts: every backend gives the same bits.
 *
 * `levels` (1..32): too many for the frame is an element error at caps time
 * naming the limit. A level needs a low band larger than 1x1, and no
 * coefficient may overflow the sample format for any input (the bound of
 * each band's cascaded filter plus the rounding of every lifting step, for
 * the values the stage gets: the raw range, or [-255, 255] after a colour
 * stage); 8-bit input in S16 and 16-bit input in S32 fit down to a 1x1 low
 * band (1920x1080: 11 levels). `layout`: mallat = rows then columns at each
 * level, on the LL band; standard = all row levels on whole rows, then all
 * column levels on whole columns.
 *
 * ## Example launch line
 * ```
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=RGB,width=640,height=480 \
 *     ! cudaycocg ! cudacdf53 levels=5 ! cudaentropy ! cudainverse ! fakesink
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=GRAY16_LE,width=1920,height=1080 \
 *     ! cudacdf53 levels=11 layout=standard ! cudainverse ! fakesink
 * ```
 * The first runs the colour transform and the wavelet, measures the
 * entropy of the coefficients (add -m to print it) and rebuilds the video;
 * the second uses the deepest decomposition of a 16-bit 1080p frame.
 */

#include "cf_wavelet_enc.h"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_cdf53_debug);

G_BEGIN_DECLS
#define GST_TYPE_CUDA_CDF53 (gst_cuda_cdf53_get_type())
G_DECLARE_FINAL_TYPE(GstCudaCdf53, gst_cuda_cdf53, GST, CUDA_CDF53, GstCfWaveletEnc)
G_END_DECLS

struct _GstCudaCdf53 {
  GstCfWaveletEnc parent;
};

G_DEFINE_TYPE(GstCudaCdf53, gst_cuda_cdf53, GST_TYPE_CF_WAVELET_ENC)
GST_ELEMENT_REGISTER_DEFINE(cudacdf53, "cudacdf53", GST_RANK_NONE, GST_TYPE_CUDA_CDF53)

static void gst_cuda_cdf53_class_init(GstCudaCdf53Class *klass) {
  GST_DEBUG_CATEGORY_INIT(gst_cuda_cdf53_debug, "cudacdf53", 0, "cudacdf53 element");
  GST_CF_BASE_CLASS(klass)->debug = gst_cuda_cdf53_debug;
  GST_CF_WAVELET_ENC_CLASS(klass)->wavelet = cf::Wavelet::Cdf53;
  gst_element_class_set_static_metadata(
      GST_ELEMENT_CLASS(klass), "CUDA CDF 5/3 wavelet", "Filter/Converter/Video",
      "Reversible integer CDF 5/3 wavelet (JPEG 2000 lossless lifting with symmetric extension) of "
      "every component plane, on CUDA, OpenMP or the CPU. Outputs video/x-coefficients (S16LE for "
      "8-bit input, S32LE for GRAY16_LE) that cudainverse rebuilds bit for bit",
      "cudafilters");
}

static void gst_cuda_cdf53_init(GstCudaCdf53 *) {}
