/**
 * SECTION:element-cudaentropy
 * @title: cudaentropy
 * @short_description: Measures the zeroth-order entropy of raw video or coefficients
 *
 * Passes raw video or a video/x-coefficients stream through unchanged (no
 * copy) and posts, for every `interval`-th frame (counted from the first
 * frame after caps; the frames between are not measured), an element
 * message:
 *
 * ```
 * cudaentropy, frame=(guint64)0, format=(string)RGB, planes=(int)3,
 *     transform=(string)"rct,cdf53",         (coefficient streams only)
 *     bits-per-sample=(double)< 4.1, 5.2, 5.0 >, samples=(gint64)< 307200, 307200, 307200 >,
 *     bits-per-pixel=(double)14.3
 * ```
 *
 * For plane c with N_c samples (`samples`), H_c = -sum p log2 p over its
 * histogram of sample values (`bits-per-sample`, one per plane, in the
 * stream's plane order); `bits-per-pixel` = sum_c H_c N_c / (W H), W x H
 * the size of plane 0, so I420 chroma weighs a quarter, alpha counts and
 * RGBx padding does not. The histograms are integers, identical on every
 * backend (cuda: per-block shared-memory sub-histograms; openmp: one per
 * thread, summed); the entropy is computed from them on the host.
 *
 * Input: every raw format of the other elements (GRAY8, GRAY16_LE, RGB,
 * BGR, RGBA, BGRA, RGBx, BGRx, I420, NV12, Y444) and S16LE coefficients, in
 * system memory or memory:CUDAMemory (read there by cpu and openmp too).
 * S32LE and F32LE coefficients are refused at caps time: a 2^32-bin
 * histogram is not practical.
 *
 * ## Example launch line
 * ```
 * gst-launch-1.0 -m videotestsrc num-buffers=3 ! video/x-raw,format=RGB,width=640,height=480 \
 *     ! cudarct ! cudacdf53 levels=5 ! cudaentropy ! fakesink
 * gst-launch-1.0 -m videotestsrc num-buffers=30 ! video/x-raw,format=I420,width=640,height=480 \
 *     ! cudaentropy interval=10 ! fakesink
 * ```
 * -m prints the messages: three frames of RCT + 5/3 coefficients, then
 * every tenth frame of raw I420.
 */

#include <vector>

#include "cf_base.h"
#include "cf_private.h"
#include "cudafilters/entropy.hpp"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_entropy_debug);
#define GST_CAT_DEFAULT gst_cuda_entropy_debug

G_BEGIN_DECLS
#define GST_TYPE_CUDA_ENTROPY (gst_cuda_entropy_get_type())
G_DECLARE_FINAL_TYPE(GstCudaEntropy, gst_cuda_entropy, GST, CUDA_ENTROPY, GstCfBase)
G_END_DECLS

struct _GstCudaEntropy {
  GstCfBase parent;
};

constexpr guint kDefaultInterval = 1;

struct GstCudaEntropyPrivate {
  guint interval = kDefaultInterval;      // property, GST_OBJECT_LOCK
  guint64 frame = 0;                      // streaming thread: frames seen since caps
  std::vector<cf::Histogram> histograms;  // streaming thread: reused between frames
};

G_DEFINE_TYPE_WITH_PRIVATE(GstCudaEntropy, gst_cuda_entropy, GST_TYPE_CF_BASE)
GST_ELEMENT_REGISTER_DEFINE(cudaentropy, "cudaentropy", GST_RANK_NONE, GST_TYPE_CUDA_ENTROPY)
#define PRIV(self) (static_cast<GstCudaEntropyPrivate *>(gst_cuda_entropy_get_instance_private(self)))

enum { PROP_0, PROP_INTERVAL };

// Whatever the other elements take or give, in both memories; S32
// coefficients (of 16-bit video) are refused with a message at caps time.
#define ENTROPY_CAPS                                                                         \
  CF_CUDA_CAPS_FIRST("video/x-raw(memory:CUDAMemory), format=(string)" CF_CUDA_RAW_FORMATS   \
                     ", width=(int)[1, 32767], height=(int)[1, 32767]")                      \
  CF_CUDA_CAPS_FIRST("video/x-coefficients(memory:CUDAMemory), sample-format=(string)S16LE") \
  "video/x-raw, format=(string)" CF_RAW_FORMATS                                              \
  ", width=(int)[1, 32767], height=(int)[1, 32767]; "                                        \
  "video/x-coefficients"
static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(ENTROPY_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(ENTROPY_CAPS));

static GstCaps *gst_cuda_entropy_transform_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps,
                                                GstCaps *filter) {
  return gst_cf_base_limit_caps(trans, direction, gst_caps_ref(caps), filter);
}

static std::string gst_cuda_entropy_check_input(GstCfBase *, const cfgst::PadFormat &in) {
  if (in.type == cf::SampleType::S32 || in.type == cf::SampleType::F32)
    return "cudaentropy: " + in.describe() + " holds " + cf::sample_type_name(in.type) +
           " samples, whose histogram (2^32 bins) is not supported; 8-bit and 16-bit raw video and S16LE "
           "coefficients are";
  return "";
}

static std::string gst_cuda_entropy_configure(GstCfBase *base, const cfgst::PadFormat &in, const cfgst::PadFormat &) {
  PRIV(GST_CUDA_ENTROPY(base))->frame = 0;
  return gst_cuda_entropy_check_input(base, in);
}

static void set_array(GstStructure *s, const char *field, GType type, int n, const double *d, const gint64 *i) {
  GValue array = G_VALUE_INIT, item = G_VALUE_INIT;
  gst_value_array_init(&array, n);
  g_value_init(&item, type);
  for (int c = 0; c < n; ++c) {
    if (d)
      g_value_set_double(&item, d[c]);
    else
      g_value_set_int64(&item, i[c]);
    gst_value_array_append_value(&array, &item);
  }
  gst_structure_take_value(s, field, &array);
  g_value_unset(&item);
}

static void gst_cuda_entropy_inspect(GstCfBase *base, cf::Engine &engine, const CfFrame &in) {
  GstCudaEntropy *self = GST_CUDA_ENTROPY(base);
  GST_OBJECT_LOCK(self);
  const guint interval = PRIV(self)->interval;
  GST_OBJECT_UNLOCK(self);
  const guint64 frame = PRIV(self)->frame++;
  if (frame % interval) return;
  const cf::Entropy e = cf::frame_entropy(engine, in.view, PRIV(self)->histograms);

  GstStructure *s = gst_structure_new("cudaentropy", "frame", G_TYPE_UINT64, frame, "format", G_TYPE_STRING,
                                      gst_video_format_to_string(GST_VIDEO_INFO_FORMAT(&in.format.info)), "planes",
                                      G_TYPE_INT, e.n, nullptr);
  if (in.format.coefficients) {
    std::string chain;
    for (const cfgst::CoeffStage &st : in.format.coeff.stages) chain += (chain.empty() ? "" : ",") + st.name;
    gst_structure_set(s, "transform", G_TYPE_STRING, chain.c_str(), nullptr);
  }
  set_array(s, "bits-per-sample", G_TYPE_DOUBLE, e.n, e.bits_per_sample, nullptr);
  set_array(s, "samples", G_TYPE_INT64, e.n, nullptr, e.samples);
  gst_structure_set(s, "bits-per-pixel", G_TYPE_DOUBLE, e.bits_per_pixel, nullptr);
  gst_element_post_message(GST_ELEMENT(self), gst_message_new_element(GST_OBJECT(self), s));
}

static void gst_cuda_entropy_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  GstCudaEntropy *self = GST_CUDA_ENTROPY(object);
  if (id != PROP_INTERVAL) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    return;
  }
  GST_OBJECT_LOCK(self);
  PRIV(self)->interval = g_value_get_uint(value);
  GST_OBJECT_UNLOCK(self);
}

static void gst_cuda_entropy_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  GstCudaEntropy *self = GST_CUDA_ENTROPY(object);
  if (id != PROP_INTERVAL) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    return;
  }
  GST_OBJECT_LOCK(self);
  g_value_set_uint(value, PRIV(self)->interval);
  GST_OBJECT_UNLOCK(self);
}

static void gst_cuda_entropy_finalize(GObject *object) {
  cfgst::destroy_private(PRIV(GST_CUDA_ENTROPY(object)));
  G_OBJECT_CLASS(gst_cuda_entropy_parent_class)->finalize(object);
}

static void gst_cuda_entropy_class_init(GstCudaEntropyClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstCfBaseClass *base_class = GST_CF_BASE_CLASS(klass);
  GST_DEBUG_CATEGORY_INIT(gst_cuda_entropy_debug, "cudaentropy", 0, "cudaentropy element");

  gobject_class->set_property = gst_cuda_entropy_set_property;
  gobject_class->get_property = gst_cuda_entropy_get_property;
  gobject_class->finalize = gst_cuda_entropy_finalize;
  g_object_class_install_property(
      gobject_class, PROP_INTERVAL,
      g_param_spec_uint("interval", "Interval",
                        "Measure and post a message for every interval-th frame (1 = every frame), counted from "
                        "the first frame after caps; the others pass unmeasured",
                        1, G_MAXUINT, kDefaultInterval,
                        GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING)));

  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  gst_element_class_set_static_metadata(
      element_class, "CUDA zeroth-order entropy", "Filter/Analyzer/Video",
      "Passes raw video or video/x-coefficients through unchanged and posts an element message "
      "'cudaentropy' with the zeroth-order entropy of each plane (bits-per-sample, an array) and of the "
      "frame (bits-per-pixel = sum of plane entropy x plane samples / pixels); histograms on CUDA, "
      "OpenMP or the CPU",
      "cudafilters");

  GST_BASE_TRANSFORM_CLASS(klass)->transform_caps = gst_cuda_entropy_transform_caps;
  base_class->debug = gst_cuda_entropy_debug;
  base_class->check_input = gst_cuda_entropy_check_input;
  base_class->configure = gst_cuda_entropy_configure;
  base_class->inspect = gst_cuda_entropy_inspect;
}

static void gst_cuda_entropy_init(GstCudaEntropy *self) { cfgst::construct_private(PRIV(self)); }
