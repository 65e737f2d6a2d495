#include "cf_wavelet_enc.h"

#include "cf_private.h"
#include "chain_caps.h"

GST_DEBUG_CATEGORY_STATIC(gst_cf_wavelet_enc_debug);
#define GST_CAT_DEFAULT gst_cf_wavelet_enc_debug
#define CF_CAT(self) \
  (GST_CF_BASE_GET_CLASS(self)->debug ? GST_CF_BASE_GET_CLASS(self)->debug : gst_cf_wavelet_enc_debug)

GType gst_cf_layout_get_type(void) {
  static gsize type_id = 0;
  static const GEnumValue values[] = {
      {int(cf::Layout::Mallat), "Rows then columns at each level, on the LL band (JPEG 2000 dyadic pyramid)", "mallat"},
      {int(cf::Layout::Standard), "All row levels on whole rows, then all column levels", "standard"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type_id)) g_once_init_leave(&type_id, g_enum_register_static("GstCfLayout", values));
  return type_id;
}

struct GstCfWaveletEncPrivate {
  // Properties: guarded by GST_OBJECT_LOCK.
  int levels = kCfDefaultLevels;
  cf::Layout layout = cf::Layout::Mallat;
  // Streaming thread: the parameters of the negotiated output caps, which
  // every frame uses (a property change renegotiates first).
  cf::WaveletParams negotiated;
};

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE(GstCfWaveletEnc, gst_cf_wavelet_enc, GST_TYPE_CF_BASE)

#define PRIV(self) (static_cast<GstCfWaveletEncPrivate *>(gst_cf_wavelet_enc_get_instance_private(self)))

enum { PROP_0, PROP_LEVELS, PROP_LAYOUT };

// Raw video, or the coefficients of a colour stage (chain_caps.h).
static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(CF_CHAIN_SINK_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(CF_CHAIN_SRC_CAPS));

static cf::WaveletParams current_params(GstCfWaveletEnc *self) {
  cf::WaveletParams p;
  p.wavelet = GST_CF_WAVELET_ENC_GET_CLASS(self)->wavelet;
  GST_OBJECT_LOCK(self);
  p.levels = PRIV(self)->levels;
  p.layout = PRIV(self)->layout;
  GST_OBJECT_UNLOCK(self);
  return p;
}

static void gst_cf_wavelet_enc_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  GstCfWaveletEnc *self = GST_CF_WAVELET_ENC(object);
  GstCfWaveletEncPrivate *priv = PRIV(self);
  bool changed = false;
  GST_OBJECT_LOCK(self);
  switch (id) {
    case PROP_LEVELS:
      changed = priv->levels != g_value_get_int(value);
      priv->levels = g_value_get_int(value);
      break;
    case PROP_LAYOUT:
      changed = priv->layout != cf::Layout(g_value_get_enum(value));
      priv->layout = cf::Layout(g_value_get_enum(value));
      break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
  GST_OBJECT_UNLOCK(self);
  // The parameters are part of the output caps: renegotiate before the next
  // frame, which then uses them.
  if (changed) gst_base_transform_reconfigure_src(GST_BASE_TRANSFORM(self));
}

static void gst_cf_wavelet_enc_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  GstCfWaveletEnc *self = GST_CF_WAVELET_ENC(object);
  GST_OBJECT_LOCK(self);
  switch (id) {
    case PROP_LEVELS: g_value_set_int(value, PRIV(self)->levels); break;
    case PROP_LAYOUT: g_value_set_enum(value, int(PRIV(self)->layout)); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_cf_wavelet_enc_finalize(GObject *object) {
  cfgst::destroy_private(PRIV(GST_CF_WAVELET_ENC(object)));
  G_OBJECT_CLASS(gst_cf_wavelet_enc_parent_class)->finalize(object);
}

// raw (or a colour stage's coefficients) -> the chain with this wavelet
// and the current levels/layout appended, and back, in the memory it came in.
static GstCaps *gst_cf_wavelet_enc_transform_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps,
                                                  GstCaps *filter) {
  GstCfWaveletEnc *self = GST_CF_WAVELET_ENC(trans);
  GstCaps *out = cfgst::stage_transform_caps(GST_ELEMENT(trans), direction, caps, filter,
                                             cfgst::wavelet_stage(current_params(self)));
  GST_CAT_LOG_OBJECT(CF_CAT(self), self, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT,
                     direction == GST_PAD_SINK ? "sink" : "src", caps, out);
  return out;
}

static const char *stage_name(GstCfBase *base) { return cf::wavelet_name(GST_CF_WAVELET_ENC_GET_CLASS(base)->wavelet); }

static std::string gst_cf_wavelet_enc_check_input(GstCfBase *base, const cfgst::PadFormat &in) {
  return cfgst::stage_check_input(in, stage_name(base));
}

static std::string gst_cf_wavelet_enc_configure(GstCfBase *base, const cfgst::PadFormat &in,
                                                const cfgst::PadFormat &out) {
  GstCfWaveletEnc *self = GST_CF_WAVELET_ENC(base);
  const char *name = stage_name(base);
  cfgst::CoeffStage stage;
  cf::ValueRange input;
  if (std::string bad = cfgst::stage_configure(in, out, name, &stage, &input); !bad.empty()) return bad;
  // Levels too deep for the frame or for the values it gets (the raw
  // format's, or a colour stage's): refused now, with the limit in the
  // message, rather than at the first frame.
  if (std::string bad = cfgst::check_stage_limits(out.coeff); !bad.empty()) return std::string(name) + ": " + bad;
  cf::WaveletParams p = stage.wavelet;
  p.input = in.coefficients ? input : cf::ValueRange{};
  PRIV(self)->negotiated = p;
  GST_CAT_INFO_OBJECT(CF_CAT(self), self, "%s levels=%d layout=%s on %s", name, p.levels, cf::layout_name(p.layout),
                      in.describe().c_str());
  return "";
}

static void gst_cf_wavelet_enc_process(GstCfBase *base, cf::Engine &engine, const CfFrame &in, const CfFrame &out) {
  cf::wavelet_forward(engine, PRIV(GST_CF_WAVELET_ENC(base))->negotiated, in.view, out.view);
}

static void gst_cf_wavelet_enc_class_init(GstCfWaveletEncClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  GstCfBaseClass *base_class = GST_CF_BASE_CLASS(klass);
  GST_DEBUG_CATEGORY_INIT(gst_cf_wavelet_enc_debug, "cfwaveletenc", 0, "cudafilters forward wavelet base");

  gobject_class->set_property = gst_cf_wavelet_enc_set_property;
  gobject_class->get_property = gst_cf_wavelet_enc_get_property;
  gobject_class->finalize = gst_cf_wavelet_enc_finalize;

  const auto rw = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  g_object_class_install_property(
      gobject_class, PROP_LEVELS,
      g_param_spec_int("levels", "Levels",
                       "Decomposition levels. Too many for the frame size (the low band would go below "
                       "1x1) or for the coefficient type is an error at caps time naming the limit. A "
                       "change while playing renegotiates the output caps and applies at the next frame",
                       1, cfgst::kMaxLevels, kCfDefaultLevels, rw));
  g_object_class_install_property(
      gobject_class, PROP_LAYOUT,
      g_param_spec_enum("layout", "Layout",
                        "Order of the row and column passes; a change while playing renegotiates and "
                        "applies at the next frame",
                        GST_TYPE_CF_LAYOUT, int(cf::Layout::Mallat), rw));

  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);

  trans_class->transform_caps = gst_cf_wavelet_enc_transform_caps;
  base_class->check_input = gst_cf_wavelet_enc_check_input;
  base_class->configure = gst_cf_wavelet_enc_configure;
  base_class->process = gst_cf_wavelet_enc_process;

  gst_type_mark_as_plugin_api(GST_TYPE_CF_LAYOUT, GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(GST_TYPE_CF_WAVELET_ENC, GstPluginAPIFlags(0));
}

static void gst_cf_wavelet_enc_init(GstCfWaveletEnc *self) { cfgst::construct_private(PRIV(self)); }
