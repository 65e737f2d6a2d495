/**
 * SECTION:element-cudaview
 * @title: cudaview
 * @short_description: Shows one plane of a wavelet coefficient stream as GRAY8
 *
 * Maps one component plane of a video/x-coefficients stream whose chain has
 * a wavelet stage (haar, cdf53) to GRAY8 a person can look at, each subband
 * of that stage scaled on its own so every level stays visible:
 * the LL band linearly from its minimum..maximum to 0..255 (128 when flat);
 * a detail band to 128 + 127 x sign(c) x sqrt(|c| / max|c|) over that band
 * (128 when it is all zero), rounded to nearest. The square root lifts the
 * many small coefficients out of the grey.
 *
 * `component` picks the plane in the stream's plane order (0 = Y or R, or
 * the colour stage's Y); one beyond the stream's planes is an element error
 * at caps time. The output has that plane's size (I420 chroma: ceil(w/2) x
 * ceil(h/2)).
 *
 * Input: coefficients in system memory or memory:CUDAMemory (read through
 * GstCudaMemory's host copy); output GRAY8 in system memory. It runs on the
 * CPU (OpenMP) whatever `backend` says: a visualisation aid, not on a
 * performance path.
 *
 * ## Example launch line
 * ```
 * gst-launch-1.0 videotestsrc num-buffers=1 ! video/x-raw,format=GRAY8,width=640,height=480 \
 *     ! cudahaar levels=3 ! cudaview ! pngenc ! filesink location=haar.png
 * gst-launch-1.0 videotestsrc num-buffers=1 ! video/x-raw,format=RGB,width=640,height=480 \
 *     ! cudarct ! cudahaar levels=2 ! cudaview component=1 ! pngenc ! filesink location=cb.png
 * ```
 * The second shows the Cb plane of an RCT + Haar chain.
 */

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "cf_base.h"
#include "cf_private.h"

#ifdef _OPENMP
#include <omp.h>
#endif

GST_DEBUG_CATEGORY_STATIC(gst_cuda_view_debug);
#define GST_CAT_DEFAULT gst_cuda_view_debug

G_BEGIN_DECLS
#define GST_TYPE_CUDA_VIEW (gst_cuda_view_get_type())
G_DECLARE_FINAL_TYPE(GstCudaView, gst_cuda_view, GST, CUDA_VIEW, GstCfBase)
G_END_DECLS

struct _GstCudaView {
  GstCfBase parent;
};

constexpr gint kDefaultComponent = 0;

struct GstCudaViewPrivate {
  gint component = kDefaultComponent;             // property, GST_OBJECT_LOCK
  gint negotiated_component = kDefaultComponent;  // streaming thread
};

G_DEFINE_TYPE_WITH_PRIVATE(GstCudaView, gst_cuda_view, GST_TYPE_CF_BASE)
GST_ELEMENT_REGISTER_DEFINE(cudaview, "cudaview", GST_RANK_NONE, GST_TYPE_CUDA_VIEW)
#define PRIV(self) (static_cast<GstCudaViewPrivate *>(gst_cuda_view_get_instance_private(self)))

enum { PROP_0, PROP_COMPONENT };

// Coefficients in system memory or memory:CUDAMemory (read through
// GstCudaMemory's host copy: this element computes on the CPU); GRAY8 out in
// system memory only, which GStreamer 1.22 cannot allocate as GstCudaMemory.
static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE(
    "sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS("video/x-coefficients" CF_CUDA_CAPS("video/x-coefficients(memory:CUDAMemory)")));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE(
    "src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS("video/x-raw, format=(string)GRAY8, width=(int)[1, 32767], height=(int)[1, 32767]"));

static gint get_component(GstCudaView *self) {
  GST_OBJECT_LOCK(self);
  const gint c = PRIV(self)->component;
  GST_OBJECT_UNLOCK(self);
  return c;
}

static void gst_cuda_view_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  GstCudaView *self = GST_CUDA_VIEW(object);
  switch (id) {
    case PROP_COMPONENT: {
      GST_OBJECT_LOCK(self);
      const bool changed = PRIV(self)->component != g_value_get_int(value);
      PRIV(self)->component = g_value_get_int(value);
      GST_OBJECT_UNLOCK(self);
      // The plane's size is the output size: renegotiate.
      if (changed) gst_base_transform_reconfigure_src(GST_BASE_TRANSFORM(self));
      break;
    }
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void gst_cuda_view_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  switch (id) {
    case PROP_COMPONENT: g_value_set_int(value, get_component(GST_CUDA_VIEW(object))); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

// Coefficients -> GRAY8 of the chosen plane's size (when the caps are fixed
// and complete; otherwise any size); GRAY8 -> any coefficient stream.
static GstCaps *gst_cuda_view_transform_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps,
                                             GstCaps *filter) {
  GstCudaView *self = GST_CUDA_VIEW(trans);
  GstCaps *out = gst_caps_new_empty();
  const gint component = get_component(self);
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    const GstStructure *s = gst_caps_get_structure(caps, i);
    GstStructure *o;
    if (direction == GST_PAD_SINK) {
      o = gst_structure_new("video/x-raw", "format", G_TYPE_STRING, "GRAY8", nullptr);
      cfgst::CoeffFormat f;
      if (cfgst::parse_coeff_structure(s, &f, nullptr) && component < f.planes.n)
        gst_structure_set(o, "width", G_TYPE_INT, f.planes.width[component], "height", G_TYPE_INT,
                          f.planes.height[component], nullptr);
      else
        gst_structure_set(o, "width", GST_TYPE_INT_RANGE, 1, 32767, "height", GST_TYPE_INT_RANGE, 1, 32767, nullptr);
    } else {
      o = gst_structure_new_empty(cfgst::kCoeffMediaType);
    }
    for (const char *field : {"framerate", "pixel-aspect-ratio"})
      if (const GValue *v = gst_structure_get_value(s, field)) gst_structure_set_value(o, field, v);
    // Upstream may offer the coefficients in either memory.
    GstStructure *cuda = direction == GST_PAD_SRC && CF_GST_CUDA ? gst_structure_copy(o) : nullptr;
    out = gst_caps_merge_structure(out, o);
    if (cuda) out = gst_caps_merge_structure_full(out, cuda, gst_caps_features_new(cfgst::kCudaMemoryFeature, nullptr));
  }
  if (filter) {
    GstCaps *t = gst_caps_intersect_full(filter, out, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref(out);
    out = t;
  }
  return out;
}

static std::string gst_cuda_view_check_input(GstCfBase *, const cfgst::PadFormat &in) {
  if (!in.coefficients) return "the input must be a video/x-coefficients stream";
  if (!in.coeff.last_wavelet()) return "caps field 'transform': the chain has no wavelet stage to show";
  return cfgst::check_stage_limits(in.coeff);
}

static std::string gst_cuda_view_configure(GstCfBase *base, const cfgst::PadFormat &in, const cfgst::PadFormat &out) {
  GstCudaView *self = GST_CUDA_VIEW(base);
  std::string why = gst_cuda_view_check_input(base, in);
  if (!why.empty()) return why;
  const gint c = get_component(self);
  const int n = in.coeff.planes.n;
  if (c >= n)
    return "component=" + std::to_string(c) + " is out of range: " + in.describe() + " has " + std::to_string(n) +
           " component plane(s), 0.." + std::to_string(n - 1);
  if (out.coefficients || GST_VIDEO_INFO_FORMAT(&out.info) != GST_VIDEO_FORMAT_GRAY8 ||
      GST_VIDEO_INFO_WIDTH(&out.info) != in.coeff.planes.width[c] ||
      GST_VIDEO_INFO_HEIGHT(&out.info) != in.coeff.planes.height[c])
    return "the output caps (" + out.describe() + ") are not GRAY8 of component " + std::to_string(c) + "'s size";
  PRIV(self)->negotiated_component = c;
  return "";
}

namespace {

template <typename T>
void render(const cf::FrameView &in, int c, const cf::WaveletParams &p, const cf::FrameView &out, int threads) {
  const cf::Component &k = in.components[c];
  const cf::MemoryPlane &ip = in.planes[k.plane];
  const cf::MemoryPlane &op = out.planes[0];
  auto src = [&](int x, int y) {
    return static_cast<const T *>(
        static_cast<const void *>(static_cast<const std::uint8_t *>(ip.data) + std::ptrdiff_t(y) * ip.stride))[x];
  };
  auto dst = [&](int y) { return static_cast<std::uint8_t *>(op.data) + std::ptrdiff_t(y) * op.stride; };
#ifdef _OPENMP
  const int nthreads = threads > 0 ? threads : omp_get_max_threads();
#else
  (void)threads;
#endif
  // threads: 0 = all cores, 1 = serial.
  for (const cf::Subband &b : cf::wavelet_subbands(p, k.width, k.height)) {
    std::int64_t lo = INT64_MAX, hi = INT64_MIN, maxabs = 0;
    for (int y = b.y; y < b.y + b.height; ++y)
      for (int x = b.x; x < b.x + b.width; ++x) {
        const std::int64_t v = src(x, y);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
        maxabs = std::max(maxabs, v < 0 ? -v : v);
      }
    const bool ll = b.kind == cf::BandKind::LL;
#ifdef _OPENMP
#pragma omp parallel for num_threads(nthreads) if (std::int64_t(b.width) * b.height > 65536)
#endif
    for (int y = b.y; y < b.y + b.height; ++y) {
      std::uint8_t *row = dst(y);
      for (int x = b.x; x < b.x + b.width; ++x) {
        const std::int64_t v = src(x, y);
        double g;
        if (ll)
          g = hi > lo ? double(v - lo) * 255.0 / double(hi - lo) : 128.0;
        else
          g = maxabs ? 128.0 + 127.0 * (v < 0 ? -1.0 : 1.0) * std::sqrt(double(v < 0 ? -v : v) / double(maxabs))
                     : 128.0;
        row[x] = std::uint8_t(std::lround(std::clamp(g, 0.0, 255.0)));
      }
    }
  }
}

}  // namespace

static void gst_cuda_view_process(GstCfBase *base, cf::Engine &engine, const CfFrame &in, const CfFrame &out) {
  GstCudaView *self = GST_CUDA_VIEW(base);
  const cf::WaveletParams &p = in.format.coeff.last_wavelet()->wavelet;
  const int threads = engine.backend() == cf::Backend::OpenMP ? engine.threads() : 1;
  if (in.view.type == cf::SampleType::S16)
    render<std::int16_t>(in.view, PRIV(self)->negotiated_component, p, out.view, threads);
  else
    render<std::int32_t>(in.view, PRIV(self)->negotiated_component, p, out.view, threads);
}

static void gst_cuda_view_finalize(GObject *object) {
  cfgst::destroy_private(PRIV(GST_CUDA_VIEW(object)));
  G_OBJECT_CLASS(gst_cuda_view_parent_class)->finalize(object);
}

static void gst_cuda_view_class_init(GstCudaViewClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstCfBaseClass *base_class = GST_CF_BASE_CLASS(klass);
  GST_DEBUG_CATEGORY_INIT(gst_cuda_view_debug, "cudaview", 0, "cudaview element");

  gobject_class->set_property = gst_cuda_view_set_property;
  gobject_class->get_property = gst_cuda_view_get_property;
  gobject_class->finalize = gst_cuda_view_finalize;
  g_object_class_install_property(
      gobject_class, PROP_COMPONENT,
      g_param_spec_int("component", "Component",
                       "Component plane to show, in the stream's plane order (0 = Y or R); beyond the "
                       "stream's planes is an error at caps time. A change while playing renegotiates",
                       0, 3, kDefaultComponent,
                       GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING)));

  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  gst_element_class_set_static_metadata(
      element_class, "Coefficient viewer", "Filter/Converter/Video",
      "Shows one component plane of a video/x-coefficients stream as GRAY8, each wavelet subband "
      "scaled on its own: LL linearly min..max to 0..255, detail bands 128 + 127*sign(c)*sqrt(|c|/max|c|). "
      "Runs on the CPU (OpenMP): backend=cuda and auto are accepted and fall back to OpenMP",
      "cudafilters");

  GST_BASE_TRANSFORM_CLASS(klass)->transform_caps = gst_cuda_view_transform_caps;
  base_class->has_cuda = FALSE;
  base_class->debug = gst_cuda_view_debug;
  base_class->check_input = gst_cuda_view_check_input;
  base_class->configure = gst_cuda_view_configure;
  base_class->process = gst_cuda_view_process;
}

static void gst_cuda_view_init(GstCudaView *self) { cfgst::construct_private(PRIV(self)); }
