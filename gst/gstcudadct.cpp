/**
 * SECTION:element-cudadct
 * @title: cudadct
 * @short_description: 8x8 block DCT with optional JPEG quantisation on CUDA, OpenMP or the CPU
 *
 * Transforms every component plane in 8x8 blocks with the orthonormal
 * DCT-II (JPEG's, with its level shift of 128 for 8-bit input), optionally
 * quantises, and outputs S16LE video/x-coefficients (`transform=dct`,
 * `dct-quality`) that cudainverse reconstructs (dequantises, inverts,
 * rounds and clamps).
 *
 * Input: GRAY8, RGB, BGR, RGBA, BGRA, RGBx, BGRx, I420, NV12, Y444 in
 * system memory (RGB, BGR, RGBA, BGRA, I420, NV12, Y444 also in
 * memory:CUDAMemory), or a colour stage's S16LE coefficients
 * (`cudaycocg ! cudadct`). GRAY16_LE is refused at caps time: its
 * coefficients do not fit S16. Blocks crossing the right or bottom edge are
 * padded by replication, so every coefficient plane is padded to whole 8x8
 * blocks (ceil(w/8) x 8 by ceil(h/8) x 8).
 *
 * `quality` 0..100: 0 = no quantisation (coefficients rounded half away
 * from zero); otherwise T.81 Annex K's luminance table for the first plane
 * and the chrominance table for the others, scaled as IJG does: scale =
 * q < 50 ? 5000 / q : 200 - 2q, entry = clamp((base x scale + 50) / 100, 1,
 * 255), stored coefficient = round(c / entry).
 *
 * Float arithmetic, separable, from one cosine table and a summation order
 * shared by every backend: cpu and openmp give identical bits, cuda agrees
 * with them within 1 on every coefficient and every reconstructed sample.
 *
 * ## Example launch line
 * ```
 * gst-launch-1.0 videotestsrc num-buffers=1 ! video/x-raw,format=I420,width=640,height=480 \
 *     ! cudadct quality=75 ! cudainverse ! videoconvert ! pngenc ! filesink location=dct-q75.png
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=RGB,width=641,height=479 \
 *     ! cudaycocg ! cudadct ! cudainverse ! fakesink
 * ```
 * The first writes a frame at JPEG quality 75; the second runs the DCT
 * after a colour transform on a frame with partial blocks.
 */

#include "cf_base.h"
#include "cf_private.h"
#include "chain_caps.h"
#include "cudafilters/dct.hpp"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_dct_debug);
#define GST_CAT_DEFAULT gst_cuda_dct_debug

G_BEGIN_DECLS
#define GST_TYPE_CUDA_DCT (gst_cuda_dct_get_type())
G_DECLARE_FINAL_TYPE(GstCudaDct, gst_cuda_dct, GST, CUDA_DCT, GstCfBase)
G_END_DECLS

struct _GstCudaDct {
  GstCfBase parent;
};

struct GstCudaDctPrivate {
  int quality = 0;           // property, guarded by GST_OBJECT_LOCK
  cf::DctParams negotiated;  // streaming thread: the parameters of the output caps
};

G_DEFINE_TYPE_WITH_PRIVATE(GstCudaDct, gst_cuda_dct, GST_TYPE_CF_BASE)
#define PRIV(self) (static_cast<GstCudaDctPrivate *>(gst_cuda_dct_get_instance_private(self)))
GST_ELEMENT_REGISTER_DEFINE(cudadct, "cudadct", GST_RANK_NONE, GST_TYPE_CUDA_DCT)

enum { PROP_0, PROP_QUALITY };

// The chain elements' templates (chain_caps.h); 16-bit input is refused at
// caps time with a message (its coefficients do not fit S16).
static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(CF_CHAIN_SINK_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(CF_CHAIN_SRC_CAPS));

static void gst_cuda_dct_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  GstCudaDct *self = GST_CUDA_DCT(object);
  if (id != PROP_QUALITY) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    return;
  }
  GST_OBJECT_LOCK(self);
  const bool changed = PRIV(self)->quality != g_value_get_int(value);
  PRIV(self)->quality = g_value_get_int(value);
  GST_OBJECT_UNLOCK(self);
  // quality is part of the output caps: renegotiate before the next frame.
  if (changed) gst_base_transform_reconfigure_src(GST_BASE_TRANSFORM(self));
}

static void gst_cuda_dct_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  GstCudaDct *self = GST_CUDA_DCT(object);
  if (id != PROP_QUALITY) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    return;
  }
  GST_OBJECT_LOCK(self);
  g_value_set_int(value, PRIV(self)->quality);
  GST_OBJECT_UNLOCK(self);
}

static GstCaps *gst_cuda_dct_transform_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps,
                                            GstCaps *filter) {
  GstCudaDct *self = GST_CUDA_DCT(trans);
  GST_OBJECT_LOCK(self);
  const cf::DctParams p(PRIV(self)->quality);
  GST_OBJECT_UNLOCK(self);
  return cfgst::stage_transform_caps(GST_ELEMENT(trans), direction, caps, filter, cfgst::dct_stage(p));
}

static std::string gst_cuda_dct_check_input(GstCfBase *, const cfgst::PadFormat &in) {
  return cfgst::stage_check_input(in, "dct");
}

static std::string gst_cuda_dct_configure(GstCfBase *base, const cfgst::PadFormat &in, const cfgst::PadFormat &out) {
  GstCudaDct *self = GST_CUDA_DCT(base);
  cfgst::CoeffStage stage;
  cf::ValueRange input;
  if (std::string bad = cfgst::stage_configure(in, out, "dct", &stage, &input); !bad.empty()) return bad;
  // 16-bit input or a too-wide earlier stage: refused now, not per frame.
  if (std::string bad = cfgst::check_stage_limits(out.coeff); !bad.empty()) return "dct: " + bad;
  PRIV(self)->negotiated = cf::DctParams(stage.dct.quality, in.coefficients ? input : cf::ValueRange{});
  GST_INFO_OBJECT(self, "dct quality=%d on %s", stage.dct.quality, in.describe().c_str());
  return "";
}

static void gst_cuda_dct_process(GstCfBase *base, cf::Engine &engine, const CfFrame &in, const CfFrame &out) {
  cf::dct_forward(engine, PRIV(GST_CUDA_DCT(base))->negotiated, in.view, out.view);
}

static void gst_cuda_dct_finalize(GObject *object) {
  cfgst::destroy_private(PRIV(GST_CUDA_DCT(object)));
  G_OBJECT_CLASS(gst_cuda_dct_parent_class)->finalize(object);
}

static void gst_cuda_dct_class_init(GstCudaDctClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstCfBaseClass *base_class = GST_CF_BASE_CLASS(klass);
  GST_DEBUG_CATEGORY_INIT(gst_cuda_dct_debug, "cudadct", 0, "cudadct element");

  gobject_class->set_property = gst_cuda_dct_set_property;
  gobject_class->get_property = gst_cuda_dct_get_property;
  gobject_class->finalize = gst_cuda_dct_finalize;
  g_object_class_install_property(
      gobject_class, PROP_QUALITY,
      g_param_spec_int("quality", "Quality",
                       "0 = no quantisation (coefficients only rounded); 1..100 = the JPEG luminance table "
                       "(first plane) and chrominance table (other planes) with IJG scaling (50 = the base "
                       "tables, 100 = all ones). A change while playing renegotiates and applies at the next "
                       "frame",
                       0, cf::kMaxDctQuality, 0,
                       GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING)));

  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  gst_element_class_set_static_metadata(
      element_class, "CUDA 8x8 DCT", "Filter/Converter/Video",
      "8x8 block DCT-II (orthonormal, JPEG's level shift) of every component plane, partial blocks padded by "
      "replication, optionally quantised with the IJG-scaled JPEG tables, on CUDA, OpenMP or the CPU. Outputs "
      "S16LE video/x-coefficients (planes padded to whole blocks) that cudainverse reconstructs",
      "cudafilters");

  GST_BASE_TRANSFORM_CLASS(klass)->transform_caps = gst_cuda_dct_transform_caps;
  base_class->debug = gst_cuda_dct_debug;
  base_class->check_input = gst_cuda_dct_check_input;
  base_class->configure = gst_cuda_dct_configure;
  base_class->process = gst_cuda_dct_process;
}

static void gst_cuda_dct_init(GstCudaDct *self) { cfgst::construct_private(PRIV(self)); }
