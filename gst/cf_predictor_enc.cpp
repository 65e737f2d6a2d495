#include "cf_predictor_enc.h"

#include "cf_private.h"
#include "chain_caps.h"

GST_DEBUG_CATEGORY_STATIC(gst_cf_predictor_enc_debug);
#define GST_CAT_DEFAULT gst_cf_predictor_enc_debug
#define CF_CAT(self) \
  (GST_CF_BASE_GET_CLASS(self)->debug ? GST_CF_BASE_GET_CLASS(self)->debug : gst_cf_predictor_enc_debug)

struct GstCfPredictorEncPrivate {
  // Properties: guarded by GST_OBJECT_LOCK.
  int slice_height = 0;
  int threshold = cf::kDefaultGedThreshold;
  // Streaming thread: the parameters of the negotiated output caps.
  cf::PredictorParams negotiated;
};

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE(GstCfPredictorEnc, gst_cf_predictor_enc, GST_TYPE_CF_BASE)

#define PRIV(self) (static_cast<GstCfPredictorEncPrivate *>(gst_cf_predictor_enc_get_instance_private(self)))

enum { PROP_0, PROP_SLICE_HEIGHT, PROP_THRESHOLD };

// Raw video, or the coefficients of a colour stage (chain_caps.h).
static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(CF_CHAIN_SINK_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(CF_CHAIN_SRC_CAPS));

static cf::PredictorParams current_params(GstCfPredictorEnc *self) {
  cf::PredictorParams p;
  p.predictor = GST_CF_PREDICTOR_ENC_GET_CLASS(self)->predictor;
  GST_OBJECT_LOCK(self);
  p.slice_height = PRIV(self)->slice_height;
  p.threshold = PRIV(self)->threshold;
  GST_OBJECT_UNLOCK(self);
  return p;
}

static void gst_cf_predictor_enc_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  GstCfPredictorEnc *self = GST_CF_PREDICTOR_ENC(object);
  GstCfPredictorEncPrivate *priv = PRIV(self);
  int *field = id == PROP_SLICE_HEIGHT ? &priv->slice_height : id == PROP_THRESHOLD ? &priv->threshold : nullptr;
  if (!field) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    return;
  }
  GST_OBJECT_LOCK(self);
  const bool changed = *field != g_value_get_int(value);
  *field = g_value_get_int(value);
  GST_OBJECT_UNLOCK(self);
  // The parameters are part of the output caps: renegotiate before the next frame.
  if (changed) gst_base_transform_reconfigure_src(GST_BASE_TRANSFORM(self));
}

static void gst_cf_predictor_enc_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  GstCfPredictorEnc *self = GST_CF_PREDICTOR_ENC(object);
  GST_OBJECT_LOCK(self);
  switch (id) {
    case PROP_SLICE_HEIGHT: g_value_set_int(value, PRIV(self)->slice_height); break;
    case PROP_THRESHOLD: g_value_set_int(value, PRIV(self)->threshold); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_cf_predictor_enc_finalize(GObject *object) {
  cfgst::destroy_private(PRIV(GST_CF_PREDICTOR_ENC(object)));
  G_OBJECT_CLASS(gst_cf_predictor_enc_parent_class)->finalize(object);
}

// raw (or a colour stage's coefficients) -> the chain with this predictor
// and the current properties appended, and back, in the memory it came in.
static GstCaps *gst_cf_predictor_enc_transform_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps,
                                                    GstCaps *filter) {
  GstCfPredictorEnc *self = GST_CF_PREDICTOR_ENC(trans);
  GstCaps *out = cfgst::stage_transform_caps(GST_ELEMENT(trans), direction, caps, filter,
                                             cfgst::predictor_stage(current_params(self)));
  GST_CAT_LOG_OBJECT(CF_CAT(self), self, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
                     direction == GST_PAD_SINK ? "sink" : "src", caps, out);
  return out;
}

static const char *stage_name(GstCfBase *base) {
  return cf::predictor_name(GST_CF_PREDICTOR_ENC_GET_CLASS(base)->predictor);
}

static std::string gst_cf_predictor_enc_check_input(GstCfBase *base, const cfgst::PadFormat &in) {
  return cfgst::stage_check_input(in, stage_name(base));
}

static std::string gst_cf_predictor_enc_configure(GstCfBase *base, const cfgst::PadFormat &in,
                                                  const cfgst::PadFormat &out) {
  GstCfPredictorEnc *self = GST_CF_PREDICTOR_ENC(base);
  const char *name = stage_name(base);
  cfgst::CoeffStage stage;
  cf::ValueRange input;
  if (std::string bad = cfgst::stage_configure(in, out, name, &stage, &input); !bad.empty()) return bad;
  // Parameters or residual type that do not suit the input (S16 residuals
  // of a colour stage need its narrow range): refused now, not per frame.
  if (std::string bad = cfgst::check_stage_limits(out.coeff); !bad.empty()) return std::string(name) + ": " + bad;
  cf::PredictorParams p = stage.predictor;
  p.input = in.coefficients ? input : cf::ValueRange{};
  PRIV(self)->negotiated = p;
  GST_CAT_INFO_OBJECT(CF_CAT(self), self, "%s slice-height=%d threshold=%d on %s", name, p.slice_height, p.threshold,
                      in.describe().c_str());
  return "";
}

static void gst_cf_predictor_enc_process(GstCfBase *base, cf::Engine &engine, const CfFrame &in, const CfFrame &out) {
  cf::predictor_forward(engine, PRIV(GST_CF_PREDICTOR_ENC(base))->negotiated, in.view, out.view);
}

void gst_cf_predictor_enc_install_threshold(GObjectClass *klass) {
  // GObject does not inherit these: the subclass's property goes through ours.
  klass->set_property = gst_cf_predictor_enc_set_property;
  klass->get_property = gst_cf_predictor_enc_get_property;
  g_object_class_install_property(
      klass, PROP_THRESHOLD,
      g_param_spec_int("threshold", "Threshold",
                       "GED's edge threshold: where the vertical and horizontal gradients differ by more than "
                       "this, the pixel is predicted by W or N alone, else by (3W + 3N - 2NW) / 4. A change "
                       "while playing renegotiates and applies at the next frame",
                       0, cf::kMaxGedThreshold, cf::kDefaultGedThreshold,
                       GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING)));
}

static void gst_cf_predictor_enc_class_init(GstCfPredictorEncClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstCfBaseClass *base_class = GST_CF_BASE_CLASS(klass);
  GST_DEBUG_CATEGORY_INIT(gst_cf_predictor_enc_debug, "cfpredictorenc", 0, "cudafilters predictor base");

  gobject_class->set_property = gst_cf_predictor_enc_set_property;
  gobject_class->get_property = gst_cf_predictor_enc_get_property;
  gobject_class->finalize = gst_cf_predictor_enc_finalize;

  g_object_class_install_property(
      gobject_class, PROP_SLICE_HEIGHT,
      g_param_spec_int("slice-height", "Slice height",
                       "Rows per slice, each predicted on its own (its first row and column use the border "
                       "rule), so the inverse can rebuild slices in parallel; 0 = the whole frame is one "
                       "slice. Smaller slices cost entropy (docs/predictors.md). A change while playing "
                       "renegotiates and applies at the next frame",
                       0, G_MAXINT16, 0,
                       GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING)));

  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);

  GST_BASE_TRANSFORM_CLASS(klass)->transform_caps = gst_cf_predictor_enc_transform_caps;
  base_class->check_input = gst_cf_predictor_enc_check_input;
  base_class->configure = gst_cf_predictor_enc_configure;
  base_class->process = gst_cf_predictor_enc_process;
  gst_type_mark_as_plugin_api(GST_TYPE_CF_PREDICTOR_ENC, GstPluginAPIFlags(0));
}

static void gst_cf_predictor_enc_init(GstCfPredictorEnc *self) { cfgst::construct_private(PRIV(self)); }
