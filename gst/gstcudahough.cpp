/**
 * SECTION:element-cudahough
 * @title: cudahough
 * @short_description: Hough line detection on CUDA, OpenMP or the CPU with identical results
 *
 * Finds straight lines in every frame, posts them in an element message and
 * outputs, as `output` says, the frame with the lines drawn (overlay: the
 * input's format and memory; `draw`, `color`, `thickness`), the edge map
 * (edges: GRAY8, 255 = edge) or the Hough space (accumulator: GRAY8,
 * theta-bins wide and rho-bins high, votes x 255 / max rounded). cpu, openmp
 * and cuda give identical edge maps, accumulators and line lists.
 *
 * Input: GRAY8, RGB, BGR, RGBA, BGRA, RGBx, BGRx, I420, NV12, Y444, 3x3 to
 * 16384x16384, in system memory; RGB, BGR, RGBA, BGRA, I420, NV12, Y444 also in
 * memory:CUDAMemory (backend cuda), where edges and accumulator come out as
 * GRAY8 in system memory (GStreamer 1.22's GstCudaMemory cannot hold GRAY8).
 *
 * Stages: luma (Y, or (77R + 150G + 29B + 128) >> 8); 3x3 Sobel with
 * replicated borders, m = |gx| + |gy|; edges: `edge=sobel`: m >=
 * `edge-threshold`; `edge=canny`: non-maximum suppression in 4 directions,
 * then the survivors with m >= `canny-low` 8-connected (through such
 * pixels) to one with m >= `canny-high`; `edge=input`: non-zero luma.
 * Votes for `theta-bins` angles theta_t = t pi / theta-bins and rho bins of
 * `rho-step` pixels (rho rounded half up; rho-bin 0 is rho =
 * -(ceil(diagonal / rho-step) + 2) rho-step, diagonal = |(W-1, H-1)|).
 * Peaks: at least `threshold` votes (0: the smallest v with v >= mean +
 * `k` x standard deviation of the non-zero cells), the maximum of their
 * `nms-window` square (ties: the smaller cell wins; theta wraps with rho
 * mirrored); the `max-lines` strongest, ties by theta bin then rho bin.
 * Changing output, theta-bins or rho-step renegotiates.
 *
 * The message, one per frame:
 *
 * ```
 * cudahough-lines, timestamp=(guint64)PTS, width=(int), height=(int), theta-bins=(int),
 *     rho-bins=(int), rho-step=(int), threshold=(uint)votes used, edge-pixels=(uint),
 *     count=(int)N, lines=(GValueArray)< line, ...; ... >
 * line, rho=(double)pixels, theta=(double)radians in [0, pi), votes=(uint),
 *     rho-bin=(int), theta-bin=(int), visible=(boolean),
 *     x1=(int), y1=(int), x2=(int), y2=(int)
 * ```
 *
 * `lines` is a GValueArray (G_TYPE_VALUE_ARRAY) of `line` structures,
 * strongest first, as the level element carries its values: C reads it with
 * g_value_get_boxed(), Python as a list of Gst.Structure
 * (`for line in msg.get_structure().get_value("lines"): line.get_value("rho")`).
 * A line is x cos(theta) + y sin(theta) = rho, origin top left; (x1, y1) and
 * (x2, y2) are where it enters and leaves the frame, rounded to pixels
 * (visible false and all 0 when it misses the frame).
 *
 * ## Example launch line
 * ```
 * gst-launch-1.0 -m videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=RGB,width=320,height=240 \
 *     ! cudahough edge=canny max-lines=8 ! fakesink
 * gst-launch-1.0 videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,format=I420,width=320,height=240 \
 *     ! cudahough output=accumulator ! pngenc ! filesink location=hough.png
 * ```
 * The first prints the line messages; the second writes the Hough space.
 */
// Detection and drawing run on the engine's backend; scaling the edge map or
// accumulator to GRAY8 and building the message are host work on the small
// results (hough_render.h).

#include "cf_base.h"
#include "cf_private.h"
#include "cudafilters/hough.hpp"
#include "hough_render.h"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_hough_debug);
#define GST_CAT_DEFAULT gst_cuda_hough_debug

enum class HoughOutput { Overlay, Edges, Accumulator };

static GType hough_output_get_type() {
  static gsize id = 0;
  static const GEnumValue values[] = {
      {int(HoughOutput::Overlay), "The input with the lines drawn on it", "overlay"},
      {int(HoughOutput::Edges), "The edge map (GRAY8, 255 = edge)", "edges"},
      {int(HoughOutput::Accumulator), "The Hough space: GRAY8, theta-bins wide, rho-bins high, votes scaled",
       "accumulator"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&id)) g_once_init_leave(&id, g_enum_register_static("GstCudaHoughOutput", values));
  return id;
}

static GType hough_edge_get_type() {
  static gsize id = 0;
  static const GEnumValue values[] = {
      {int(cf::EdgeDetector::Sobel), "Sobel magnitude |gx|+|gy| >= edge-threshold", "sobel"},
      {int(cf::EdgeDetector::Canny), "Canny: non-maximum suppression, hysteresis canny-low/canny-high", "canny"},
      {int(cf::EdgeDetector::Input), "The input is an edge map already: non-zero luma is an edge", "input"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&id)) g_once_init_leave(&id, g_enum_register_static("GstCudaHoughEdge", values));
  return id;
}

G_BEGIN_DECLS
#define GST_TYPE_CUDA_HOUGH (gst_cuda_hough_get_type())
G_DECLARE_FINAL_TYPE(GstCudaHough, gst_cuda_hough, GST, CUDA_HOUGH, GstCfBase)
G_END_DECLS

struct HoughSettings {
  cf::HoughParams params;
  HoughOutput output = HoughOutput::Overlay;
  bool draw = true;
  guint32 color = 0xff0000;
  int thickness = 2;
};

struct _GstCudaHough {
  GstCfBase parent;
};

struct GstCudaHoughPrivate {
  HoughSettings settings;  // properties, GST_OBJECT_LOCK
  // Streaming thread.
  HoughSettings negotiated;  // theta-bins, rho-step and output of the caps
  cf::LumaSource luma = cf::LumaSource::Component0;
  cf::HoughPaint paint = cf::HoughPaint::Gray;
  cf::HoughResult result;
};

G_DEFINE_TYPE_WITH_PRIVATE(GstCudaHough, gst_cuda_hough, GST_TYPE_CF_BASE)
#define PRIV(self) (static_cast<GstCudaHoughPrivate *>(gst_cuda_hough_get_instance_private(self)))
GST_ELEMENT_REGISTER_DEFINE(cudahough, "cudahough", GST_RANK_NONE, GST_TYPE_CUDA_HOUGH)

enum {
  PROP_0,
  PROP_EDGE,
  PROP_EDGE_THRESHOLD,
  PROP_CANNY_LOW,
  PROP_CANNY_HIGH,
  PROP_THETA_BINS,
  PROP_RHO_STEP,
  PROP_THRESHOLD,
  PROP_K,
  PROP_NMS_WINDOW,
  PROP_MAX_LINES,
  PROP_OUTPUT,
  PROP_DRAW,
  PROP_COLOR,
  PROP_THICKNESS
};

// CUDA memory first, so that `cudaupload ! cudahough` stays on the GPU. The
// src pad's CUDA structure is for overlay; the taller system-memory range
// is for the accumulator (rho-bins high).
#define HOUGH_CUDA_CAPS                                                                    \
  CF_CUDA_CAPS_FIRST("video/x-raw(memory:CUDAMemory), format=(string)" CF_CUDA_RAW_FORMATS \
                     ", width=(int)[1, 32767], height=(int)[1, 32767]")
static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
                            GST_STATIC_CAPS(HOUGH_CUDA_CAPS "video/x-raw, format=(string)" CF_HOUGH_FORMATS
                                                            ", width=(int)[1, 32767], height=(int)[1, 32767]"));
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS,
                            GST_STATIC_CAPS(HOUGH_CUDA_CAPS "video/x-raw, format=(string)" CF_HOUGH_FORMATS
                                                            ", width=(int)[1, 32767], height=(int)[1, 65535]"));

static HoughSettings settings(GstCudaHough *self) {
  GST_OBJECT_LOCK(self);
  const HoughSettings s = PRIV(self)->settings;
  GST_OBJECT_UNLOCK(self);
  return s;
}

static void gst_cuda_hough_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  GstCudaHough *self = GST_CUDA_HOUGH(object);
  bool caps_change = false;
  GST_OBJECT_LOCK(self);
  HoughSettings &s = PRIV(self)->settings;
  cf::HoughParams &p = s.params;
  switch (id) {
    case PROP_EDGE: p.edge = cf::EdgeDetector(g_value_get_enum(value)); break;
    case PROP_EDGE_THRESHOLD: p.edge_threshold = g_value_get_int(value); break;
    case PROP_CANNY_LOW: p.canny_low = g_value_get_int(value); break;
    case PROP_CANNY_HIGH: p.canny_high = g_value_get_int(value); break;
    case PROP_THETA_BINS:
      caps_change = p.theta_bins != g_value_get_int(value);
      p.theta_bins = g_value_get_int(value);
      break;
    case PROP_RHO_STEP:
      caps_change = p.rho_step != g_value_get_int(value);
      p.rho_step = g_value_get_int(value);
      break;
    case PROP_THRESHOLD: p.threshold = g_value_get_int(value); break;
    case PROP_K: p.k_q8 = int(g_value_get_double(value) * 256 + 0.5); break;
    case PROP_NMS_WINDOW: p.nms_window = g_value_get_int(value); break;
    case PROP_MAX_LINES: p.max_lines = g_value_get_int(value); break;
    case PROP_OUTPUT:
      caps_change = s.output != HoughOutput(g_value_get_enum(value));
      s.output = HoughOutput(g_value_get_enum(value));
      break;
    case PROP_DRAW: s.draw = g_value_get_boolean(value); break;
    case PROP_COLOR: s.color = g_value_get_uint(value); break;
    case PROP_THICKNESS: s.thickness = g_value_get_int(value); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
  GST_OBJECT_UNLOCK(self);
  // The output caps depend on these: renegotiate before the next frame.
  if (caps_change) gst_base_transform_reconfigure_src(GST_BASE_TRANSFORM(self));
}

static void gst_cuda_hough_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  const HoughSettings s = settings(GST_CUDA_HOUGH(object));
  const cf::HoughParams &p = s.params;
  switch (id) {
    case PROP_EDGE: g_value_set_enum(value, int(p.edge)); break;
    case PROP_EDGE_THRESHOLD: g_value_set_int(value, p.edge_threshold); break;
    case PROP_CANNY_LOW: g_value_set_int(value, p.canny_low); break;
    case PROP_CANNY_HIGH: g_value_set_int(value, p.canny_high); break;
    case PROP_THETA_BINS: g_value_set_int(value, p.theta_bins); break;
    case PROP_RHO_STEP: g_value_set_int(value, p.rho_step); break;
    case PROP_THRESHOLD: g_value_set_int(value, p.threshold); break;
    case PROP_K: g_value_set_double(value, p.k_q8 / 256.0); break;
    case PROP_NMS_WINDOW: g_value_set_int(value, p.nms_window); break;
    case PROP_MAX_LINES: g_value_set_int(value, p.max_lines); break;
    case PROP_OUTPUT: g_value_set_enum(value, int(s.output)); break;
    case PROP_DRAW: g_value_set_boolean(value, s.draw); break;
    case PROP_COLOR: g_value_set_uint(value, s.color); break;
    case PROP_THICKNESS: g_value_set_int(value, s.thickness); break;
    default: G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
}

static void gst_cuda_hough_finalize(GObject *object) {
  cfgst::destroy_private(PRIV(GST_CUDA_HOUGH(object)));
  G_OBJECT_CLASS(gst_cuda_hough_parent_class)->finalize(object);
}

// Fields of a raw structure that a GRAY8 output does not keep.
static void make_gray(GstStructure *s) {
  gst_structure_set(s, "format", G_TYPE_STRING, "GRAY8", nullptr);
  gst_structure_remove_fields(s, "colorimetry", "chroma-site", nullptr);
}

// overlay: the same caps both ways (memory included). edges: GRAY8 of the
// input's size, and back any input format of that size. accumulator: GRAY8
// of theta-bins x rho-bins (when the input size is known), and back any
// input. GRAY8 output is system memory; its input may be in either memory.
static GstCaps *gst_cuda_hough_transform_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps,
                                              GstCaps *filter) {
  const HoughSettings s = settings(GST_CUDA_HOUGH(trans));
  GstCaps *out = gst_caps_new_empty();
  GstCaps *formats = gst_caps_from_string("video/x-raw, format=(string)" CF_HOUGH_FORMATS);
  const GValue *any_format = gst_structure_get_value(gst_caps_get_structure(formats, 0), "format");
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) {
    bool cuda = false;
    if (!cfgst::caps_memory(caps, i, &cuda)) continue;
    GstStructure *o = gst_structure_copy(gst_caps_get_structure(caps, i));
    if (s.output == HoughOutput::Overlay) {
      out = gst_caps_merge_structure_full(out, o, gst_caps_features_copy(gst_caps_get_features(caps, i)));
      continue;
    }
    if (cuda && direction == GST_PAD_SRC) {  // GRAY8 output in CUDA memory: nothing gives it
      gst_structure_free(o);
      continue;
    }
    if (s.output == HoughOutput::Edges) {
      if (direction == GST_PAD_SINK)
        make_gray(o);
      else
        gst_structure_set_value(o, "format", any_format);
    } else if (s.output == HoughOutput::Accumulator) {
      gst_structure_remove_fields(o, "colorimetry", "chroma-site", nullptr);
      int w = 0, h = 0;
      if (direction == GST_PAD_SINK && gst_structure_get_int(o, "width", &w) &&
          gst_structure_get_int(o, "height", &h) && cf::hough_check(s.params, w, h).empty()) {
        const cf::HoughGeometry g = cf::hough_geometry(s.params, w, h);
        make_gray(o);
        gst_structure_set(o, "width", G_TYPE_INT, g.theta_bins, "height", G_TYPE_INT, g.rho_bins, nullptr);
      } else {
        if (direction == GST_PAD_SINK)
          make_gray(o);
        else
          gst_structure_set_value(o, "format", any_format);
        gst_structure_set(o, "width", GST_TYPE_INT_RANGE, 1, 32767, "height", GST_TYPE_INT_RANGE, 1,
                          direction == GST_PAD_SINK ? 65535 : 32767, nullptr);
      }
    }
    if (CF_GST_CUDA && direction == GST_PAD_SRC)
      out = gst_caps_merge_structure_full(out, gst_structure_copy(o),
                                          gst_caps_features_new(cfgst::kCudaMemoryFeature, nullptr));
    out = gst_caps_merge_structure(out, o);  // system memory
  }
  gst_caps_unref(formats);
  return gst_cf_base_limit_caps(trans, direction, out, filter);
}

static std::string gst_cuda_hough_check_input(GstCfBase *base, const cfgst::PadFormat &in) {
  if (in.coefficients) return "the input must be raw video";
  const GstVideoFormat f = GST_VIDEO_INFO_FORMAT(&in.info);
  if (!cfgst::hough_format_supported(f))
    return std::string("format ") + gst_video_format_to_string(f) +
           " is not supported by cudahough (supported: " + CF_HOUGH_FORMATS + ")";
  const std::string why = cf::hough_check(settings(GST_CUDA_HOUGH(base)).params, GST_VIDEO_INFO_WIDTH(&in.info),
                                          GST_VIDEO_INFO_HEIGHT(&in.info));
  return why.empty() ? why : "cudahough: " + why;
}

static std::string gst_cuda_hough_configure(GstCfBase *base, const cfgst::PadFormat &in, const cfgst::PadFormat &out) {
  GstCudaHough *self = GST_CUDA_HOUGH(base);
  std::string why = gst_cuda_hough_check_input(base, in);
  if (!why.empty()) return why;
  const HoughSettings s = settings(self);
  const int w = GST_VIDEO_INFO_WIDTH(&in.info), h = GST_VIDEO_INFO_HEIGHT(&in.info);
  int ow = w, oh = h;
  GstVideoFormat of = GST_VIDEO_INFO_FORMAT(&in.info);
  if (s.output != HoughOutput::Overlay) of = GST_VIDEO_FORMAT_GRAY8;
  if (s.output == HoughOutput::Accumulator) {
    const cf::HoughGeometry g = cf::hough_geometry(s.params, w, h);
    ow = g.theta_bins;
    oh = g.rho_bins;
  }
  // GRAY8 cannot be GstCudaMemory in GStreamer 1.22: edges and accumulator
  // go to system memory.
  const bool out_cuda = in.cuda && s.output == HoughOutput::Overlay;
  if (out.coefficients || out.cuda != out_cuda || GST_VIDEO_INFO_FORMAT(&out.info) != of ||
      GST_VIDEO_INFO_WIDTH(&out.info) != ow || GST_VIDEO_INFO_HEIGHT(&out.info) != oh)
    return "the output caps (" + out.describe() + ") are not " + gst_video_format_to_string(of) + " " +
           std::to_string(ow) + "x" + std::to_string(oh) + (out_cuda ? " in memory:CUDAMemory" : " in system memory") +
           " as output=" +
           g_enum_get_value(G_ENUM_CLASS(g_type_class_peek(hough_output_get_type())), int(s.output))->value_nick +
           " needs";
  GstCudaHoughPrivate *priv = PRIV(self);
  priv->negotiated = s;
  priv->luma = cfgst::hough_luma_source(GST_VIDEO_INFO_FORMAT(&in.info));
  priv->paint = cfgst::hough_paint(GST_VIDEO_INFO_FORMAT(&in.info));
  return "";
}

static void gst_cuda_hough_process(GstCfBase *base, cf::Engine &engine, const CfFrame &in, const CfFrame &out) {
  GstCudaHough *self = GST_CUDA_HOUGH(base);
  GstCudaHoughPrivate *priv = PRIV(self);
  HoughSettings s = settings(self);
  // Caps-bound parameters stay as negotiated until the renegotiation.
  s.output = priv->negotiated.output;
  s.params.theta_bins = priv->negotiated.params.theta_bins;
  s.params.rho_step = priv->negotiated.params.rho_step;
  const unsigned want = s.output == HoughOutput::Edges         ? unsigned(cf::kHoughWantEdges)
                        : s.output == HoughOutput::Accumulator ? unsigned(cf::kHoughWantAccumulator)
                                                               : 0u;
  cf::hough_detect(engine, s.params, in.view, priv->luma, priv->result, want);
  switch (s.output) {
    case HoughOutput::Overlay: {
      static const std::vector<cf::HoughLine> none;
      cf::hough_draw(engine, s.draw ? priv->result.lines : none, {priv->paint, s.color, s.thickness}, in.view,
                     out.view);
      break;
    }
    case HoughOutput::Edges: cfgst::render_edges(priv->result.edges, out.view); break;
    case HoughOutput::Accumulator:
      cfgst::render_accumulator(priv->result.accumulator, priv->result.geometry, out.view);
      break;
  }
}

// The base's transform, then the frame's line message with its timestamp.
static GstFlowReturn gst_cuda_hough_transform(GstBaseTransform *trans, GstBuffer *inbuf, GstBuffer *outbuf) {
  GstCudaHough *self = GST_CUDA_HOUGH(trans);
  const GstFlowReturn ret = GST_BASE_TRANSFORM_CLASS(gst_cuda_hough_parent_class)->transform(trans, inbuf, outbuf);
  if (ret == GST_FLOW_OK) {
    GstStructure *s = cfgst::hough_lines_structure(PRIV(self)->result, GST_BUFFER_PTS(inbuf));
    gst_element_post_message(GST_ELEMENT(self), gst_message_new_element(GST_OBJECT(self), s));
  }
  return ret;
}

static void gst_cuda_hough_class_init(GstCudaHoughClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstCfBaseClass *base_class = GST_CF_BASE_CLASS(klass);
  GST_DEBUG_CATEGORY_INIT(gst_cuda_hough_debug, "cudahough", 0, "cudahough element");

  gobject_class->set_property = gst_cuda_hough_set_property;
  gobject_class->get_property = gst_cuda_hough_get_property;
  gobject_class->finalize = gst_cuda_hough_finalize;

  const cf::HoughParams d;
  const auto rw = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  auto int_prop = [&](guint id, const char *name, const char *blurb, int lo, int hi, int def) {
    g_object_class_install_property(gobject_class, id, g_param_spec_int(name, name, blurb, lo, hi, def, rw));
  };
  g_object_class_install_property(gobject_class, PROP_EDGE,
                                  g_param_spec_enum("edge", "Edge detector", "How the edge map is made from luma",
                                                    hough_edge_get_type(), int(d.edge), rw));
  int_prop(PROP_EDGE_THRESHOLD, "edge-threshold",
           "Sobel: a pixel is an edge where |gx|+|gy| >= this (0..2040 on 8-bit luma)", 0, cf::kHoughMaxGradient + 1,
           d.edge_threshold);
  int_prop(PROP_CANNY_LOW, "canny-low", "Canny: weak edges have |gx|+|gy| >= this (at most canny-high)", 0,
           cf::kHoughMaxGradient + 1, d.canny_low);
  int_prop(PROP_CANNY_HIGH, "canny-high", "Canny: strong edges have |gx|+|gy| >= this", 0, cf::kHoughMaxGradient + 1,
           d.canny_high);
  int_prop(PROP_THETA_BINS, "theta-bins", "Angles in [0, pi); a change renegotiates (the accumulator output's width)",
           1, cf::kHoughMaxThetaBins, d.theta_bins);
  int_prop(PROP_RHO_STEP, "rho-step", "Pixels per rho bin; a change renegotiates (the accumulator output's height)", 1,
           cf::kHoughMaxRhoStep, d.rho_step);
  int_prop(PROP_THRESHOLD, "threshold",
           "Votes a line needs; 0 = automatic: mean + k x standard deviation of the non-zero cells", 0, G_MAXINT,
           d.threshold);
  g_object_class_install_property(
      gobject_class, PROP_K,
      g_param_spec_double("k", "k", "Automatic threshold: mean + k x standard deviation (k in steps of 1/256)", 0, 10,
                          d.k_q8 / 256.0, rw));
  int_prop(PROP_NMS_WINDOW, "nms-window",
           "Odd size of the (theta, rho) neighbourhood a peak must dominate; even is an error", 1,
           cf::kHoughMaxNmsWindow, d.nms_window);
  int_prop(PROP_MAX_LINES, "max-lines", "At most this many lines per frame, strongest first", 1, cf::kHoughMaxLines,
           d.max_lines);
  g_object_class_install_property(
      gobject_class, PROP_OUTPUT,
      g_param_spec_enum("output", "Output", "What the src pad carries; a change renegotiates", hough_output_get_type(),
                        int(HoughOutput::Overlay), rw));
  g_object_class_install_property(
      gobject_class, PROP_DRAW,
      g_param_spec_boolean("draw", "Draw", "output=overlay: draw the lines (else the input passes unchanged)", TRUE,
                           rw));
  g_object_class_install_property(
      gobject_class, PROP_COLOR,
      g_param_spec_uint("color", "Color", "Line colour as 0xRRGGBB (GRAY8: its luma; YUV: BT.601 limited range)", 0,
                        0xffffff, 0xff0000, rw));
  int_prop(PROP_THICKNESS, "thickness", "Line width in pixels", 1, 64, 2);

  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  gst_element_class_set_static_metadata(
      element_class, "CUDA Hough line detector", "Filter/Analyzer/Video",
      "Finds straight lines (Sobel or Canny edges, integer Hough voting, peaks over an automatic or fixed "
      "threshold) on CUDA, OpenMP or the CPU with identical results; posts a cudahough-lines element message "
      "per frame and outputs the frame with the lines drawn, the edge map or the Hough space",
      "cudafilters");

  GST_BASE_TRANSFORM_CLASS(klass)->transform_caps = gst_cuda_hough_transform_caps;
  GST_BASE_TRANSFORM_CLASS(klass)->transform = gst_cuda_hough_transform;
  base_class->debug = gst_cuda_hough_debug;
  base_class->check_input = gst_cuda_hough_check_input;
  base_class->configure = gst_cuda_hough_configure;
  base_class->process = gst_cuda_hough_process;
  gst_type_mark_as_plugin_api(hough_output_get_type(), GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(hough_edge_get_type(), GstPluginAPIFlags(0));
}

static void gst_cuda_hough_init(GstCudaHough *self) { cfgst::construct_private(PRIV(self)); }
