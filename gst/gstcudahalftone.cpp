/**
 * SECTION:element-cudahalftone
 * @title: cudahalftone
 * @short_description: Error-diffusion halftoning with identical bits on CUDA, OpenMP and the CPU
 *
 * Halftones every colour plane of raw 8-bit video by error diffusion, each
 * plane on its own (NV12: U and V each as a plane); alpha is copied, the
 * padding byte of RGBx/BGRx is written as 0xff. Input = output format:
 * GRAY8, RGB, BGR, RGBA, BGRA, RGBx, BGRx, I420, NV12, Y444 in system memory
 * (RGB, BGR, RGBA, BGRA, I420, NV12, Y444 also in memory:CUDAMemory, output
 * in the input's memory).
 *
 * Exact rule, in integers only: a pixel's incoming error is the sum A of
 * w x e' over the neighbours that reach it, divided once: u = v +
 * floor((A + D/2) / D) (D the kernel's divisor), clamped to [-255, 510];
 * q = the output level chosen by `threshold`; e = u - q. Levels are
 * q_k = round(255 k / (levels - 1)); with 2 levels a value >= threshold gives
 * 255, with more the same fraction threshold/255 of the step between two
 * levels decides. With `stochastic` p > 0 the diffused error is e' = e +
 * round(e x P x s / 2^32), P = round(p x 65536), s a 16-bit odd value from a
 * splitmix64 hash of (`seed`, frame number, plane, x, y); the frame number
 * counts the frames since the element started (0 for the first). Errors
 * that would leave the frame are dropped. `serpentine` scans odd rows right
 * to left with the kernel mirrored; each plane is then one sequential chain
 * (no wavefront parallelism: slow on cuda).
 *
 * Kernels (`method`, weights as published): floyd-steinberg (/16),
 * stevenson-arce (/200), burkes (/32), sierra (/32), stucki (/42),
 * jarvis-judice-ninke (/48).
 *
 * ## Example launch line
 * ```
 * gst-launch-1.0 videotestsrc num-buffers=1 ! video/x-raw,format=GRAY8,width=640,height=480 \
 *     ! cudahalftone method=jarvis-judice-ninke ! pngenc ! filesink location=halftone.png
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=RGBA,width=640,height=480 \
 *     ! cudahalftone levels=4 stochastic=0.3 seed=7 ! fakesink
 * ```
 */

#include "cf_base.h"
#include "cf_private.h"
#include "cudafilters/halftone.hpp"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_halftone_debug);
#define GST_CAT_DEFAULT gst_cuda_halftone_debug

// The formats of cudahalftone: those of the other elements, 8-bit only.
#define CF_HALFTONE_FORMATS "{ GRAY8, RGB, BGR, RGBA, BGRA, RGBx, BGRx, I420, NV12, Y444 }"

GType gst_cf_halftone_method_get_type(void) {
  static gsize type_id = 0;
  using M = cf::HalftoneMethod;
  static const GEnumValue values[] = {
      {int(M::FloydSteinberg), "Floyd & Steinberg (4 neighbours, /16)", "floyd-steinberg"},
      {int(M::StevensonArce), "Stevenson & Arce (12 neighbours over 3 rows, /200)", "stevenson-arce"},
      {int(M::Burkes), "Burkes (7 neighbours, /32)", "burkes"},
      {int(M::Sierra), "Sierra (10 neighbours, /32)", "sierra"},
      {int(M::Stucki), "Stucki (12 neighbours, /42)", "stucki"},
      {int(M::JarvisJudiceNinke), "Jarvis, Judice & Ninke (12 neighbours, /48)", "jarvis-judice-ninke"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type_id)) g_once_init_leave(&type_id, g_enum_register_static("GstCfHalftoneMethod", values));
  return type_id;
}

G_BEGIN_DECLS
#define GST_TYPE_CUDA_HALFTONE (gst_cuda_halftone_get_type())
G_DECLARE_FINAL_TYPE(GstCudaHalftone, gst_cuda_halftone, GST, CUDA_HALFTONE, GstCfBase)
G_END_DECLS

struct GstCudaHalftonePrivate {
  cf::HalftoneParams params;  // the properties: GST_OBJECT_LOCK
  guint64 frame = 0;          // streaming thread: frames since start
  bool padded = false;        // RGBx/BGRx output: write the padding byte
};

struct _GstCudaHalftone {
  GstCfBase parent;
};

G_DEFINE_TYPE_WITH_PRIVATE(GstCudaHalftone, gst_cuda_halftone, GST_TYPE_CF_BASE)
#define PRIV(self) (static_cast<GstCudaHalftonePrivate *>(gst_cuda_halftone_get_instance_private(self)))
GST_ELEMENT_REGISTER_DEFINE(cudahalftone, "cudahalftone", GST_RANK_NONE, GST_TYPE_CUDA_HALFTONE)

enum { PROP_0, PROP_METHOD, PROP_SERPENTINE, PROP_LEVELS, PROP_THRESHOLD, PROP_STOCHASTIC, PROP_SEED };

#define HALFTONE_CAPS(features) \
  "video/x-raw" features ", format=(string)" CF_HALFTONE_FORMATS ", width=(int)[1, 32767], height=(int)[1, 32767]"
#if CF_GST_CUDA
#define HALFTONE_ALL_CAPS                                               \
  "video/x-raw(memory:CUDAMemory), format=(string)" CF_CUDA_RAW_FORMATS \
  ", width=(int)[1, 32767], height=(int)[1, 32767]; " HALFTONE_CAPS("")
#else
#define HALFTONE_ALL_CAPS HALFTONE_CAPS("")
#endif
static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(HALFTONE_ALL_CAPS));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS(HALFTONE_ALL_CAPS));

static void gst_cuda_halftone_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  GstCudaHalftone *self = GST_CUDA_HALFTONE(object);
  cf::HalftoneParams &p = PRIV(self)->params;
  GST_OBJECT_LOCK(self);
  switch (id) {
    case PROP_METHOD: p.method = cf::HalftoneMethod(g_value_get_enum(value)); break;
    case PROP_SERPENTINE: p.serpentine = g_value_get_boolean(value); break;
    case PROP_LEVELS: p.levels = g_value_get_int(value); break;
    case PROP_THRESHOLD: p.threshold = g_value_get_int(value); break;
    case PROP_STOCHASTIC: p.stochastic = g_value_get_double(value); break;
    case PROP_SEED: p.seed = g_value_get_uint64(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_cuda_halftone_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  GstCudaHalftone *self = GST_CUDA_HALFTONE(object);
  const cf::HalftoneParams &p = PRIV(self)->params;
  GST_OBJECT_LOCK(self);
  switch (id) {
    case PROP_METHOD: g_value_set_enum(value, int(p.method)); break;
    case PROP_SERPENTINE: g_value_set_boolean(value, p.serpentine); break;
    case PROP_LEVELS: g_value_set_int(value, p.levels); break;
    case PROP_THRESHOLD: g_value_set_int(value, p.threshold); break;
    case PROP_STOCHASTIC: g_value_set_double(value, p.stochastic); break;
    case PROP_SEED: g_value_set_uint64(value, p.seed); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_cuda_halftone_finalize(GObject *object) {
  cfgst::destroy_private(PRIV(GST_CUDA_HALFTONE(object)));
  G_OBJECT_CLASS(gst_cuda_halftone_parent_class)->finalize(object);
}

// Same caps on both pads (format, size, memory).
static GstCaps *gst_cuda_halftone_transform_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps,
                                                 GstCaps *filter) {
  return gst_cf_base_limit_caps(trans, direction, gst_caps_ref(caps), filter);
}

static std::string gst_cuda_halftone_check_input(GstCfBase *, const cfgst::PadFormat &in) {
  if (in.coefficients) return "cudahalftone takes raw video, not " + in.describe();
  if (in.type != cf::SampleType::U8)
    return std::string("cudahalftone takes 8-bit video: format ") +
           gst_video_format_to_string(GST_VIDEO_INFO_FORMAT(&in.info)) +
           " is not supported (supported: " + CF_HALFTONE_FORMATS + ")";
  return "";
}

static std::string gst_cuda_halftone_configure(GstCfBase *base, const cfgst::PadFormat &in,
                                               const cfgst::PadFormat &out) {
  GstCudaHalftone *self = GST_CUDA_HALFTONE(base);
  if (const std::string why = gst_cuda_halftone_check_input(base, in); !why.empty()) return why;
  if (out.coefficients || out.cuda != in.cuda || GST_VIDEO_INFO_FORMAT(&out.info) != GST_VIDEO_INFO_FORMAT(&in.info) ||
      GST_VIDEO_INFO_WIDTH(&out.info) != GST_VIDEO_INFO_WIDTH(&in.info) ||
      GST_VIDEO_INFO_HEIGHT(&out.info) != GST_VIDEO_INFO_HEIGHT(&in.info))
    return "the output caps must be the input's (" + in.describe() + "), not " + out.describe();
  const GstVideoFormat f = GST_VIDEO_INFO_FORMAT(&in.info);
  PRIV(self)->padded = f == GST_VIDEO_FORMAT_RGBx || f == GST_VIDEO_FORMAT_BGRx;
  GST_INFO_OBJECT(self, "halftoning %s", in.describe().c_str());
  return "";
}

static void gst_cuda_halftone_process(GstCfBase *base, cf::Engine &engine, const CfFrame &in, const CfFrame &out) {
  GstCudaHalftone *self = GST_CUDA_HALFTONE(base);
  GST_OBJECT_LOCK(self);
  cf::HalftoneParams p = PRIV(self)->params;  // property changes apply from the next frame
  GST_OBJECT_UNLOCK(self);
  p.copy_mask = GST_VIDEO_INFO_HAS_ALPHA(&in.format.info) ? 1u << GST_VIDEO_COMP_A : 0u;
  cf::halftone(engine, p, PRIV(self)->frame++, in.view, out.view);
  if (PRIV(self)->padded && out.view.memory == cf::Memory::Host)
    cfgst::fill_raw_padding(out.view, out.format.info, 0xff);
}

static gboolean gst_cuda_halftone_start(GstBaseTransform *trans) {
  PRIV(GST_CUDA_HALFTONE(trans))->frame = 0;
  return GST_BASE_TRANSFORM_CLASS(gst_cuda_halftone_parent_class)->start(trans);
}

static void gst_cuda_halftone_class_init(GstCudaHalftoneClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  GstCfBaseClass *base_class = GST_CF_BASE_CLASS(klass);
  GST_DEBUG_CATEGORY_INIT(gst_cuda_halftone_debug, "cudahalftone", 0, "cudahalftone element");
  base_class->debug = gst_cuda_halftone_debug;

  gobject_class->set_property = gst_cuda_halftone_set_property;
  gobject_class->get_property = gst_cuda_halftone_get_property;
  gobject_class->finalize = gst_cuda_halftone_finalize;

  const auto rw = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  const cf::HalftoneParams d;
  g_object_class_install_property(gobject_class, PROP_METHOD,
                                  g_param_spec_enum("method", "Method", "Error-diffusion kernel (weights as published)",
                                                    gst_cf_halftone_method_get_type(), int(d.method), rw));
  g_object_class_install_property(
      gobject_class, PROP_SERPENTINE,
      g_param_spec_boolean("serpentine", "Serpentine",
                           "Scan odd rows right to left (kernel mirrored). Each plane is then one sequential "
                           "chain: no wavefront parallelism (slow on cuda)",
                           d.serpentine, rw));
  g_object_class_install_property(
      gobject_class, PROP_LEVELS,
      g_param_spec_int("levels", "Levels",
                       "Output values per component, evenly spaced over 0..255 (2 = black and white)", 2, 256, d.levels,
                       rw));
  g_object_class_install_property(
      gobject_class, PROP_THRESHOLD,
      g_param_spec_int("threshold", "Threshold",
                       "Decision point: with 2 levels a corrected value >= threshold gives 255; with more, the "
                       "same fraction threshold/255 of the step between two levels",
                       0, 255, d.threshold, rw));
  g_object_class_install_property(
      gobject_class, PROP_STOCHASTIC,
      g_param_spec_double("stochastic", "Stochastic",
                          "Amplitude p: the diffused error becomes e*(1+r), r uniform in (-p, p) from a counter-based "
                          "generator keyed by (seed, frame number, plane, x, y); 0 = deterministic",
                          0.0, 1.0, d.stochastic, rw));
  g_object_class_install_property(
      gobject_class, PROP_SEED,
      g_param_spec_uint64("seed", "Seed", "Seed of the stochastic generator (frame number = frames since start)", 0,
                          G_MAXUINT64, d.seed, rw));

  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  gst_element_class_set_static_metadata(
      element_class, "CUDA error-diffusion halftone", "Filter/Effect/Video",
      "Error-diffusion halftoning (Floyd-Steinberg, Stevenson-Arce, Burkes, Sierra, Stucki, Jarvis-Judice-Ninke) "
      "of every colour plane, integer arithmetic with identical bits on CUDA, OpenMP and the CPU",
      "cudafilters");

  trans_class->transform_caps = gst_cuda_halftone_transform_caps;
  trans_class->start = gst_cuda_halftone_start;
  base_class->check_input = gst_cuda_halftone_check_input;
  base_class->configure = gst_cuda_halftone_configure;
  base_class->process = gst_cuda_halftone_process;
  gst_type_mark_as_plugin_api(gst_cf_halftone_method_get_type(), GstPluginAPIFlags(0));
}

static void gst_cuda_halftone_init(GstCudaHalftone *self) { cfgst::construct_private(PRIV(self)); }
