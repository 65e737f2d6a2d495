#include "cf_colour_enc.h"

#include "chain_caps.h"

G_DEFINE_ABSTRACT_TYPE(GstCfColourEnc, gst_cf_colour_enc, GST_TYPE_CF_BASE)

// System memory and memory:CUDAMemory; the output keeps the input's memory.
static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE(
    "sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS(CF_CUDA_CAPS_FIRST(
        "video/x-raw(memory:CUDAMemory), format=(string)" CF_CUDA_RGB_FORMATS
        ", width=(int)[1, 32767], height=(int)[1, 32767]") "video/x-raw, format=(string)" CF_RGB_FORMATS
                                                           ", width=(int)[1, 32767], height=(int)[1, 32767]"));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE(
    "src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS(CF_CUDA_CAPS_FIRST(
        "video/x-coefficients(memory:CUDAMemory), sample-format=(string)S16LE, "
        "format=(string)" CF_CUDA_RGB_FORMATS
        ", width=(int)[1, 32767], height=(int)[1, 32767]") "video/x-coefficients, sample-format=(string)S16LE, "
                                                           "format=(string)" CF_RGB_FORMATS
                                                           ", width=(int)[1, 32767], height=(int)[1, 32767]"));

static cf::ColourTransform colour_of(gpointer self) { return GST_CF_COLOUR_ENC_GET_CLASS(self)->colour; }

static GstCaps *gst_cf_colour_enc_transform_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps,
                                                 GstCaps *filter) {
  GstCaps *out =
      cfgst::stage_transform_caps(GST_ELEMENT(trans), direction, caps, filter, cfgst::colour_stage(colour_of(trans)));
  GST_LOG_OBJECT(trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, direction == GST_PAD_SINK ? "sink" : "src", caps,
                 out);
  return out;
}

// Raw RGB only: a colour stage starts a chain (stage_check_input says why
// for coefficient input).
static std::string gst_cf_colour_enc_check_input(GstCfBase *base, const cfgst::PadFormat &in) {
  const char *name = cf::colour_name(colour_of(base));
  if (std::string bad = cfgst::stage_check_input(in, name); !bad.empty()) return bad;
  const GstVideoFormat f = GST_VIDEO_INFO_FORMAT(&in.info);
  if (!cfgst::rgb_format(f))
    return std::string("format ") + gst_video_format_to_string(f) + " is not RGB: the colour transform '" + name +
           "' needs one of " CF_RGB_FORMATS;
  return "";
}

static std::string gst_cf_colour_enc_configure(GstCfBase *base, const cfgst::PadFormat &in,
                                               const cfgst::PadFormat &out) {
  if (std::string bad = gst_cf_colour_enc_check_input(base, in); !bad.empty()) return bad;
  cfgst::CoeffStage stage;
  cf::ValueRange input;
  return cfgst::stage_configure(in, out, cf::colour_name(colour_of(base)), &stage, &input);
}

static void gst_cf_colour_enc_process(GstCfBase *base, cf::Engine &engine, const CfFrame &in, const CfFrame &out) {
  cf::colour_forward(engine, colour_of(base), in.view, out.view);
}

static void gst_cf_colour_enc_class_init(GstCfColourEncClass *klass) {
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstCfBaseClass *base_class = GST_CF_BASE_CLASS(klass);
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  GST_BASE_TRANSFORM_CLASS(klass)->transform_caps = gst_cf_colour_enc_transform_caps;
  base_class->check_input = gst_cf_colour_enc_check_input;
  base_class->configure = gst_cf_colour_enc_configure;
  base_class->process = gst_cf_colour_enc_process;
  gst_type_mark_as_plugin_api(GST_TYPE_CF_COLOUR_ENC, GstPluginAPIFlags(0));
}

static void gst_cf_colour_enc_init(GstCfColourEnc *) {}
