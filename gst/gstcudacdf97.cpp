/**
 * SECTION:element-cudacdf97
 * @title: cudacdf97
 * @short_description: CDF 9/7 float wavelet (JPEG 2000 irreversible) with thresholding and quantisation
 *
 * Transforms every component plane with JPEG 2000's irreversible 9/7
 * lifting in float, optionally thresholds the detail bands and quantises,
 * and outputs a video/x-coefficients stream (`transform=cdf97`,
 * `cdf97-levels`, `cdf97-layout`, `cdf97-quant-step`, `cdf97-threshold`,
 * `cdf97-threshold-mode`) that cudainverse reconstructs. cpu, openmp and
 * cuda give identical bits (every lifting step is one rounded float multiply
 * and one rounded add, in the same order everywhere).
 *
 * Input: the formats and memories of cudacdf53, or a colour stage's S16LE
 * coefficients (`cudarct ! cudacdf97`). Output in the input's memory: F32LE
 * without `quant-step`; with it integer indices, S16LE for 8-bit input and
 * after a colour stage (saturated to +-32767), S32LE for GRAY16_LE (+-2^30,
 * system memory only).
 *
 * Lifting (T.800 Annex F): alpha = -1.586134342, beta = -0.05298011854,
 * gamma = 0.8829110762, delta = 0.4435068522 on odd, even, odd, even
 * samples, whole-sample symmetric extension (x[-1] = x[1], x[N] = x[N-2]),
 * N = 1 unchanged. Then the low band is scaled by sqrt(2)/K and the high band
 * by K/sqrt(2), K = 1.230174105 (both gains sqrt(2), not T.800's 1/K and K):
 * nearly orthonormal, so one quantisation step suits every band; a constant
 * c gives LL = c x 2^levels. Band geometry, `levels` and `layout` as
 * cudacdf53, levels limited only by the 1x1 low band.
 *
 * After the transform, in this order: `threshold` t > 0 sets detail
 * coefficients with |c| < t to 0 (`threshold-mode=soft` also shrinks the
 * others to c - sign(c) t; the final LL band is kept); `quant-step` q > 0
 * stores k = sign(c) floor(|c| / q), which cudainverse reconstructs as
 * sign(k) (|k| + 0.5) q (0 for k = 0). cudainverse rounds to the raw format
 * (floor(v + 0.5), clamped): without threshold and quant-step, 8-bit video
 * comes back exactly (float error below 1e-3).
 *
 * ## Example launch line
 * ```
 * gst-launch-1.0 videotestsrc num-buffers=1 ! video/x-raw,format=I420,width=640,height=480 \
 *     ! cudacdf97 levels=5 quant-step=8 ! cudainverse ! videoconvert ! pngenc ! filesink location=cdf97-q8.png
 * gst-launch-1.0 videotestsrc num-buffers=30 pattern=snow ! video/x-raw,format=GRAY8,width=640,height=480 \
 *     ! cudacdf97 levels=3 threshold=10 threshold-mode=soft ! cudainverse ! fakesink
 * ```
 * The first writes a frame quantised with step 8; the second is a wavelet
 * denoiser (soft threshold on the detail bands, no quantisation).
 */

#include "cf_base.h"
#include "cf_private.h"
#include "cf_wavelet_enc.h"  // GST_TYPE_CF_LAYOUT
#include "chain_caps.h"
#include "cudafilters/cdf97.hpp"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_cdf97_debug);
#define GST_CAT_DEFAULT gst_cuda_cdf97_debug

G_BEGIN_DECLS
#define GST_TYPE_CUDA_CDF97 (gst_cuda_cdf97_get_type())
G_DECLARE_FINAL_TYPE(GstCudaCdf97, gst_cuda_cdf97, GST, CUDA_CDF97, GstCfBase)
#define GST_TYPE_CF_THRESHOLD_MODE (gst_cf_threshold_mode_get_type())
G_END_DECLS

struct _GstCudaCdf97 {
  GstCfBase parent;
};

struct GstCudaCdf97Private {
  cf::Cdf97Params props;       // guarded by GST_OBJECT_LOCK
  cf::Cdf97Params negotiated;  // streaming thread: the output caps' parameters
};

G_DEFINE_TYPE_WITH_PRIVATE(GstCudaCdf97, gst_cuda_cdf97, GST_TYPE_CF_BASE)
#define PRIV(self) (static_cast<GstCudaCdf97Private *>(gst_cuda_cdf97_get_instance_private(self)))
GST_ELEMENT_REGISTER_DEFINE(cudacdf97, "cudacdf97", GST_RANK_NONE, GST_TYPE_CUDA_CDF97)

static GType gst_cf_threshold_mode_get_type(void) {
  static gsize type_id = 0;
  static const GEnumValue values[] = {
      {int(cf::ThresholdMode::Hard), "Coefficients below the threshold become 0, the others stay", "hard"},
      {int(cf::ThresholdMode::Soft), "Below the threshold 0, the others shrink towards 0 by it", "soft"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type_id)) g_once_init_leave(&type_id, g_enum_register_static("GstCfThresholdMode", values));
  return type_id;
}

enum { PROP_0, PROP_LEVELS, PROP_LAYOUT, PROP_QUANT_STEP, PROP_THRESHOLD, PROP_THRESHOLD_MODE };

// Sink: the chain elements' (raw video, or a colour stage's S16
// coefficients: cudarct ! cudacdf97), in system or CUDA memory. Source:
// F32LE, or with quant-step the indices (S16LE; S32LE for 16-bit input, in
// system memory only, as the other chain elements), in the input's memory.
static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(CF_CHAIN_SINK_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE(
    "src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS(CF_CUDA_CAPS_FIRST(
        "video/x-coefficients(memory:CUDAMemory), "
        "sample-format=(string){ F32LE, S16LE }, format=(string)" CF_CUDA_RAW_FORMATS
        ", width=(int)[1, 32767], height=(int)[1, 32767]") "video/x-coefficients, sample-format=(string){ F32LE, "
                                                           "S16LE, S32LE }, "
                                                           "format=(string)" CF_RAW_FORMATS
                                                           ", width=(int)[1, 32767], height=(int)[1, 32767]"));

static cf::Cdf97Params current_params(GstCudaCdf97 *self) {
  GST_OBJECT_LOCK(self);
  const cf::Cdf97Params p = PRIV(self)->props;
  GST_OBJECT_UNLOCK(self);
  return p;
}

static void gst_cuda_cdf97_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  GstCudaCdf97 *self = GST_CUDA_CDF97(object);
  GST_OBJECT_LOCK(self);
  cf::Cdf97Params &p = PRIV(self)->props;
  switch (id) {
    case PROP_LEVELS: p.levels = g_value_get_int(value); break;
    case PROP_LAYOUT: p.layout = cf::Layout(g_value_get_enum(value)); break;
    case PROP_QUANT_STEP: p.quant_step = float(g_value_get_double(value)); break;
    case PROP_THRESHOLD: p.threshold = float(g_value_get_double(value)); break;
    case PROP_THRESHOLD_MODE: p.threshold_mode = cf::ThresholdMode(g_value_get_enum(value)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
  GST_OBJECT_UNLOCK(self);
  // Every parameter is in the output caps: renegotiate before the next frame.
  gst_base_transform_reconfigure_src(GST_BASE_TRANSFORM(self));
}

static void gst_cuda_cdf97_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  GstCudaCdf97 *self = GST_CUDA_CDF97(object);
  GST_OBJECT_LOCK(self);
  const cf::Cdf97Params &p = PRIV(self)->props;
  switch (id) {
    case PROP_LEVELS: g_value_set_int(value, p.levels); break;
    case PROP_LAYOUT: g_value_set_enum(value, int(p.layout)); break;
    case PROP_QUANT_STEP: g_value_set_double(value, p.quant_step); break;
    case PROP_THRESHOLD: g_value_set_double(value, p.threshold); break;
    case PROP_THRESHOLD_MODE: g_value_set_enum(value, int(p.threshold_mode)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_cuda_cdf97_finalize(GObject *object) {
  cfgst::destroy_private(PRIV(GST_CUDA_CDF97(object)));
  G_OBJECT_CLASS(gst_cuda_cdf97_parent_class)->finalize(object);
}

static GstCaps *gst_cuda_cdf97_transform_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps,
                                              GstCaps *filter) {
  return cfgst::stage_transform_caps(GST_ELEMENT(trans), direction, caps, filter,
                                     cfgst::cdf97_stage(current_params(GST_CUDA_CDF97(trans))));
}

static std::string gst_cuda_cdf97_check_input(GstCfBase *, const cfgst::PadFormat &in) {
  return cfgst::stage_check_input(in, "cdf97");
}

static std::string gst_cuda_cdf97_configure(GstCfBase *base, const cfgst::PadFormat &in, const cfgst::PadFormat &out) {
  cfgst::CoeffStage stage;
  cf::ValueRange input;
  if (std::string bad = cfgst::stage_configure(in, out, "cdf97", &stage, &input); !bad.empty()) return bad;
  // Levels too deep for a plane: refused now, naming the limit.
  if (std::string bad = cfgst::check_stage_limits(out.coeff); !bad.empty()) return "cdf97: " + bad;
  PRIV(GST_CUDA_CDF97(base))->negotiated = stage.cdf97;
  GST_INFO_OBJECT(base, "cdf97 levels=%d layout=%s quant-step=%g threshold=%g (%s) on %s", stage.cdf97.levels,
                  cf::layout_name(stage.cdf97.layout), stage.cdf97.quant_step, stage.cdf97.threshold,
                  cf::threshold_mode_name(stage.cdf97.threshold_mode), in.describe().c_str());
  return "";
}

static void gst_cuda_cdf97_process(GstCfBase *base, cf::Engine &engine, const CfFrame &in, const CfFrame &out) {
  cf::cdf97_forward(engine, PRIV(GST_CUDA_CDF97(base))->negotiated, in.view, out.view);
}

static void gst_cuda_cdf97_class_init(GstCudaCdf97Class *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstCfBaseClass *base_class = GST_CF_BASE_CLASS(klass);
  GST_DEBUG_CATEGORY_INIT(gst_cuda_cdf97_debug, "cudacdf97", 0, "cudacdf97 element");

  gobject_class->set_property = gst_cuda_cdf97_set_property;
  gobject_class->get_property = gst_cuda_cdf97_get_property;
  gobject_class->finalize = gst_cuda_cdf97_finalize;
  const auto rw = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  g_object_class_install_property(
      gobject_class, PROP_LEVELS,
      g_param_spec_int("levels", "Levels",
                       "Decomposition levels; more than the frame allows (the low band would go below 1x1) is "
                       "an error at caps time naming the limit",
                       1, cfgst::kMaxLevels, 1, rw));
  g_object_class_install_property(gobject_class, PROP_LAYOUT,
                                  g_param_spec_enum("layout", "Layout", "Order of the row and column passes",
                                                    GST_TYPE_CF_LAYOUT, int(cf::Layout::Mallat), rw));
  g_object_class_install_property(
      gobject_class, PROP_QUANT_STEP,
      g_param_spec_double("quant-step", "Quantisation step",
                          "Dead-zone quantisation step: 0 = none (F32LE output); otherwise integer indices (S16LE, "
                          "S32LE for 16-bit input) "
                          "sign(c) floor(|c| / step), reconstructed as sign(k) (|k| + 0.5) step",
                          0, 65535, 0, rw));
  g_object_class_install_property(
      gobject_class, PROP_THRESHOLD,
      g_param_spec_double("threshold", "Threshold",
                          "Detail coefficients with |c| below it become 0 (the final LL band is kept); 0 = none", 0,
                          65535, 0, rw));
  g_object_class_install_property(
      gobject_class, PROP_THRESHOLD_MODE,
      g_param_spec_enum("threshold-mode", "Threshold mode",
                        "hard: keep coefficients above the threshold; soft: shrink them by it",
                        GST_TYPE_CF_THRESHOLD_MODE, int(cf::ThresholdMode::Hard), rw));

  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  gst_element_class_set_static_metadata(
      element_class, "CUDA CDF 9/7 wavelet", "Filter/Converter/Video",
      "CDF 9/7 float wavelet (JPEG 2000 irreversible lifting, symmetric extension) of every component plane, "
      "with optional thresholding (denoising) and dead-zone quantisation, on CUDA, OpenMP or the CPU. "
      "Outputs video/x-coefficients (F32LE, or S16LE/S32LE indices with quant-step) that cudainverse reconstructs",
      "cudafilters");

  GST_BASE_TRANSFORM_CLASS(klass)->transform_caps = gst_cuda_cdf97_transform_caps;
  base_class->has_cuda = TRUE;
  base_class->debug = gst_cuda_cdf97_debug;
  base_class->check_input = gst_cuda_cdf97_check_input;
  base_class->configure = gst_cuda_cdf97_configure;
  base_class->process = gst_cuda_cdf97_process;
  gst_type_mark_as_plugin_api(GST_TYPE_CF_THRESHOLD_MODE, GstPluginAPIFlags(0));
}

static void gst_cuda_cdf97_init(GstCudaCdf97 *self) { cfgst::construct_private(PRIV(self)); }
