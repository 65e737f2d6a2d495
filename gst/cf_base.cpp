#include "cf_base.h"

#include "cf_allocation.h"
#include "cf_engine_host.h"
#include "cf_private.h"
#include "cuda_memory.h"

GST_DEBUG_CATEGORY_STATIC(gst_cf_base_debug);
#define GST_CAT_DEFAULT gst_cf_base_debug
// Logs of the base go to the element's own category.
#define CF_CAT(self) (GST_CF_BASE_GET_CLASS(self)->debug ? GST_CF_BASE_GET_CLASS(self)->debug : gst_cf_base_debug)

// ---------------------------------------------------------------------------
// The backend enum (values equal to cf::Backend's)

GType gst_cf_backend_get_type(void) {
  static gsize type_id = 0;
  static const GEnumValue values[] = {
      {int(cf::Backend::Auto), "CUDA when a device is usable, else OpenMP", "auto"},
      {int(cf::Backend::Cuda), "CUDA (an element error at start when no device is usable)", "cuda"},
      {int(cf::Backend::OpenMP), "OpenMP on the CPU cores", "openmp"},
      {int(cf::Backend::Cpu), "Serial CPU reference", "cpu"},
      {0, nullptr, nullptr}};
  if (g_once_init_enter(&type_id)) g_once_init_leave(&type_id, g_enum_register_static("GstCfBackend", values));
  return type_id;
}

// ---------------------------------------------------------------------------
// Instance state (cf_private.h)

struct GstCfBasePrivate {
  cfgst::EngineHost host;  // the engine properties, the engine and its CUDA context

  // State-change and streaming threads (never at the same time).
  cfgst::PadFormat in, out;
  bool configured = false;
  std::string caps_error;  // the last caps error posted (caps_error_is_new)
};

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE(GstCfBase, gst_cf_base, GST_TYPE_BASE_TRANSFORM)

#define PRIV(self) (static_cast<GstCfBasePrivate *>(gst_cf_base_get_instance_private(self)))

enum { PROP_0, PROP_BACKEND, PROP_THREADS, PROP_DEVICE_ID, PROP_HOST_WAIT, PROP_ACTIVE_BACKEND, N_PROPS };
static GParamSpec *properties[N_PROPS];

static constexpr cf::Backend kDefaultBackend = cf::Backend::Auto;
static constexpr guint kDefaultThreads = 0, kMaxThreads = 1024;
static constexpr gint kDefaultDeviceId = 0;

GstCaps *gst_cf_base_limit_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps, GstCaps *filter) {
  GstCaps *templ = gst_pad_get_pad_template_caps(direction == GST_PAD_SINK ? GST_BASE_TRANSFORM_SRC_PAD(trans)
                                                                           : GST_BASE_TRANSFORM_SINK_PAD(trans));
  GstCaps *out = gst_caps_intersect_full(caps, templ, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref(templ);
  gst_caps_unref(caps);
  if (filter) {
    GstCaps *f = gst_caps_intersect_full(filter, out, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref(out);
    out = f;
  }
  return out;
}

std::string gst_cf_base_active_backend(GstCfBase *self) {
  GST_OBJECT_LOCK(self);
  std::string s = PRIV(self)->host.active_backend;
  GST_OBJECT_UNLOCK(self);
  return s;
}

// ---------------------------------------------------------------------------
// The engine

static bool create_engine(GstCfBase *self) {
  return cfgst::create_engine(GST_ELEMENT(self), PRIV(self)->host, GST_CF_BASE_GET_CLASS(self)->has_cuda, CF_CAT(self));
}

static bool ensure_cuda_context(GstCfBase *self) {
  return cfgst::ensure_cuda_context(GST_ELEMENT(self), PRIV(self)->host, CF_CAT(self));
}

// After CUDA caps: the engine must run in the shared context.
static bool prepare_cuda_memory(GstCfBase *self) {
  GstCfBasePrivate *priv = PRIV(self);
  if (!ensure_cuda_context(self)) return false;
  if (cfgst::engine_outside_cuda_context(priv->host)) {
    GST_CAT_INFO_OBJECT(CF_CAT(self), self, "recreating the engine in the shared GstCudaContext");
    cfgst::destroy_engine(priv->host);
    return create_engine(self);
  }
  // CPU engines writing GstCudaMemory through its host copies gave wrong
  // chroma planes on an H100 (odd-sized I420), so that path is refused until it
  // is fixed and tested; cudaview (has_cuda false) only reads and stays allowed.
  GstCfBaseClass *klass = GST_CF_BASE_GET_CLASS(self);
  if (priv->host.engine && priv->host.engine->backend() != cf::Backend::Cuda && klass->has_cuda && !klass->inspect) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION,
                      ("backend=%s cannot process memory:CUDAMemory: use backend=cuda, or cudadownload before "
                       "this element",
                       cf::backend_name(priv->host.engine->backend())),
                      (nullptr));
    return false;
  }
  return true;
}

static void gst_cf_base_set_context(GstElement *element, GstContext *context) {
  cfgst::set_engine_context(element, PRIV(GST_CF_BASE(element))->host, context);
  GST_ELEMENT_CLASS(gst_cf_base_parent_class)->set_context(element, context);
}

static gboolean gst_cf_base_query(GstBaseTransform *trans, GstPadDirection direction, GstQuery *query) {
  if (cfgst::answer_context_query(GST_ELEMENT(trans), PRIV(GST_CF_BASE(trans))->host, query)) return TRUE;
  return GST_BASE_TRANSFORM_CLASS(gst_cf_base_parent_class)->query(trans, direction, query);
}

// ---------------------------------------------------------------------------
// GObject

// The property ids follow cfgst::EngineProp's order.
static cfgst::EngineProp engine_prop(guint id) { return cfgst::EngineProp(id - PROP_BACKEND); }

static void gst_cf_base_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  GstCfBase *self = GST_CF_BASE(object);
  if (id < PROP_BACKEND || id > PROP_HOST_WAIT) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    return;
  }
  GST_OBJECT_LOCK(self);
  cfgst::set_engine_property(PRIV(self)->host, engine_prop(id), value);
  GST_OBJECT_UNLOCK(self);
}

static void gst_cf_base_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  GstCfBase *self = GST_CF_BASE(object);
  if (id < PROP_BACKEND || id > PROP_ACTIVE_BACKEND) {
    G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
    return;
  }
  GST_OBJECT_LOCK(self);
  cfgst::get_engine_property(PRIV(self)->host, engine_prop(id), value);
  GST_OBJECT_UNLOCK(self);
}

static void gst_cf_base_finalize(GObject *object) {
  GstCfBasePrivate *priv = PRIV(GST_CF_BASE(object));
  cfgst::stop_engine(GST_ELEMENT(object), priv->host);
  cfgst::destroy_private(priv);
  G_OBJECT_CLASS(gst_cf_base_parent_class)->finalize(object);
}

// ---------------------------------------------------------------------------
// GstBaseTransform

static gboolean gst_cf_base_start(GstBaseTransform *trans) {
  // Elements that only read their input pass every buffer through. (Set
  // here: during the base's instance init the class is still the base's.)
  if (GST_CF_BASE_GET_CLASS(trans)->inspect) gst_base_transform_set_passthrough(trans, TRUE);
  return create_engine(GST_CF_BASE(trans)) ? TRUE : FALSE;
}

static gboolean gst_cf_base_stop(GstBaseTransform *trans) {
  GstCfBase *self = GST_CF_BASE(trans);
  GstCfBasePrivate *priv = PRIV(self);
  cfgst::stop_engine(GST_ELEMENT(self), priv->host);
  priv->configured = false;
  priv->caps_error.clear();
  return TRUE;
}

// Refused caps come back: GstBaseTransform retries them at every buffer
// and event, and a failed sticky caps event is sent again before each one.
// The same message is posted once (logged after that) until caps are
// accepted or the element stops.
static bool caps_error_is_new(GstCfBase *self, const std::string &why) {
  GstCfBasePrivate *priv = PRIV(self);
  if (priv->caps_error == why) {
    GST_CAT_DEBUG_OBJECT(CF_CAT(self), self, "caps refused again: %s", why.c_str());
    return false;
  }
  priv->caps_error = why;
  return true;
}

// Fixed sink caps of the template's media type are accepted here even when
// a field is wrong, so that the caps event reaches sink_event, whose strict
// check posts an element error naming the field or format (the default
// would refuse them silently: "not-negotiated"). Caps queries still answer
// exactly what the element can take.
static gboolean gst_cf_base_accept_caps(GstBaseTransform *trans, GstPadDirection dir, GstCaps *caps) {
  if (dir == GST_PAD_SINK && gst_caps_is_fixed(caps)) {
    bool cuda = false;
    const bool memory = cfgst::caps_memory(caps, 0, &cuda);  // system, or CUDA where built
    const char *name = gst_structure_get_name(gst_caps_get_structure(caps, 0));
    GstCaps *templ = gst_pad_get_pad_template_caps(GST_BASE_TRANSFORM_SINK_PAD(trans));
    bool same_type = false;
    for (guint i = 0; i < gst_caps_get_size(templ); ++i)
      same_type |= gst_structure_has_name(gst_caps_get_structure(templ, i), name) != FALSE;
    gst_caps_unref(templ);
    if (memory && same_type) return TRUE;
  }
  return GST_BASE_TRANSFORM_CLASS(gst_cf_base_parent_class)->accept_caps(trans, dir, caps);
}

static gboolean gst_cf_base_sink_event(GstBaseTransform *trans, GstEvent *event) {
  GstCfBase *self = GST_CF_BASE(trans);
  if (GST_EVENT_TYPE(event) == GST_EVENT_CAPS) {
    GstCaps *caps = nullptr;
    gst_event_parse_caps(event, &caps);
    cfgst::PadFormat in;
    std::string why;
    GstCfBaseClass *klass = GST_CF_BASE_GET_CLASS(self);
    if (pad_format_from_caps(caps, &in, &why) && klass->check_input) why = klass->check_input(self, in);
    if (!why.empty()) {
      if (caps_error_is_new(self, why))
        GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("%s", why.c_str()), ("sink caps: %" GST_PTR_FORMAT, caps));
      gst_event_unref(event);
      return FALSE;
    }
  }
  return GST_BASE_TRANSFORM_CLASS(gst_cf_base_parent_class)->sink_event(trans, event);
}

static gboolean gst_cf_base_set_caps(GstBaseTransform *trans, GstCaps *incaps, GstCaps *outcaps) {
  GstCfBase *self = GST_CF_BASE(trans);
  GstCfBasePrivate *priv = PRIV(self);
  GstCfBaseClass *klass = GST_CF_BASE_GET_CLASS(self);
  cfgst::PadFormat in, out;
  std::string why;
  if (!pad_format_from_caps(incaps, &in, &why))
    why = "sink caps: " + why;
  else if (!pad_format_from_caps(outcaps, &out, &why))
    why = "src caps: " + why;
  else
    why = klass->configure(self, in, out);
  if (!why.empty()) {
    if (caps_error_is_new(self, why))
      GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("%s", why.c_str()),
                        ("sink caps: %" GST_PTR_FORMAT "; src caps: %" GST_PTR_FORMAT, incaps, outcaps));
    priv->configured = false;
    return FALSE;
  }
  priv->caps_error.clear();
  GST_CAT_DEBUG_OBJECT(CF_CAT(self), self, "configured %s -> %s", in.describe().c_str(), out.describe().c_str());
  priv->in = in;
  priv->out = out;
  priv->configured = (!in.cuda && !out.cuda) || prepare_cuda_memory(self);
  return priv->configured;
}

static gboolean gst_cf_base_get_unit_size(GstBaseTransform *, GstCaps *caps, gsize *size) {
  cfgst::PadFormat f;
  if (!pad_format_from_caps(caps, &f, nullptr)) return FALSE;
  *size = f.size;
  return TRUE;
}

// A frame in gives a frame out whatever the input buffer's size: a short
// input is reported by transform() with both sizes named.
static gboolean gst_cf_base_transform_size(GstBaseTransform *trans, GstPadDirection direction, GstCaps *, gsize,
                                           GstCaps *othercaps, gsize *othersize) {
  GstCfBasePrivate *priv = PRIV(GST_CF_BASE(trans));
  if (direction == GST_PAD_SINK && priv->configured) {
    *othersize = priv->out.size;
    return TRUE;
  }
  return gst_cf_base_get_unit_size(trans, othercaps, othersize);
}

// Raw input may carry GstVideoMeta (any strides). A CUDA engine offers
// pinned buffers for system memory; CUDA raw input gets a GstCudaBufferPool.
static gboolean gst_cf_base_propose_allocation(GstBaseTransform *trans, GstQuery *decide_query, GstQuery *query) {
  GstCfBasePrivate *priv = PRIV(GST_CF_BASE(trans));
  const gboolean forwarded =
      GST_BASE_TRANSFORM_CLASS(gst_cf_base_parent_class)->propose_allocation(trans, decide_query, query);
  if (gst_base_transform_is_passthrough(trans)) {
    // Downstream answered. An inspecting element uploads system-memory
    // input to the GPU: pinned buffers make that upload run at the
    // pinned-copy rate instead of the pageable one.
    if (priv->configured) cfgst::offer_pinned_to_passthrough(query, priv->in, priv->host.pinned);
    return forwarded || gst_query_get_n_allocation_params(query) > 0;
  }
  // Otherwise what we propose depends on our input caps only, never on
  // downstream's allocation (decide_query, null when that has not run).
  if (priv->configured) {
    if (!priv->in.coefficients) gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
    cfgst::propose_input_pool(query, priv->in, priv->host.cuda_ctx, priv->host.pinned);
  }
  return TRUE;
}

// Output buffers come from a pool matching their memory and the engine (see
// cf_allocation.h).
static gboolean gst_cf_base_decide_allocation(GstBaseTransform *trans, GstQuery *query) {
  GstCfBase *self = GST_CF_BASE(trans);
  GstCfBasePrivate *priv = PRIV(self);
  if (!priv->configured) return GST_BASE_TRANSFORM_CLASS(gst_cf_base_parent_class)->decide_allocation(trans, query);
  std::string why;
  if (!cfgst::decide_output_pool(query, priv->out, priv->host.cuda_ctx, priv->host.pinned, &why)) {
    GST_ELEMENT_ERROR(self, RESOURCE, FAILED, ("%s", why.c_str()), (nullptr));
    return FALSE;
  }
  return TRUE;
}

// The engine must work in the context of the input's GstCudaMemory. When an
// upstream element switched to another context of our device, adopt it (as
// nvcodec's elements do); pools follow at the renegotiation this asks for.
// False (element error posted) when the input lives on another device.
static bool follow_input_context(GstCfBase *self, GstBuffer *inbuf) {
  GstCfBasePrivate *priv = PRIV(self);
  GstCudaContext *mctx = cfgst::buffer_context(inbuf);
  if (!mctx || mctx == priv->host.engine_ctx) return true;
  const int device = priv->host.engine->device_id();
  if (cfgst::context_device(mctx) != device) {
    GST_ELEMENT_ERROR(self, STREAM, FAILED,
                      ("the input memory:CUDAMemory is on CUDA device %d, but device-id=%d: set device-id=%d",
                       cfgst::context_device(mctx), device, cfgst::context_device(mctx)),
                      (nullptr));
    return false;
  }
  GST_CAT_INFO_OBJECT(CF_CAT(self), self, "the input's GstCudaContext changed: following it");
  cfgst::destroy_engine(priv->host);
  cfgst::clear_context(&priv->host.cuda_ctx);
  priv->host.cuda_ctx = cfgst::ref_context(mctx);
  gst_base_transform_reconfigure_src(GST_BASE_TRANSFORM(self));
  return create_engine(self);
}

// What every frame needs before it is computed: caps, an engine matching the
// properties, the input's CUDA context followed, and whether each buffer is
// mapped as device memory. False (element error posted) when it cannot run.
static bool prepare_frame(GstCfBase *self, GstBuffer *inbuf, GstBuffer *outbuf, bool *in_device, bool *out_device) {
  GstCfBasePrivate *priv = PRIV(self);
  GstBaseTransform *trans = GST_BASE_TRANSFORM(self);
  if (!priv->configured) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("no caps were negotiated before the first buffer"), (nullptr));
    return false;
  }

  // Property changes take effect here, at the next frame.
  GST_OBJECT_LOCK(self);
  const bool stale = priv->host.engine_stale;
  const int threads = int(priv->host.threads);
  GST_OBJECT_UNLOCK(self);
  if (!priv->host.engine || stale) {
    const bool was_cuda = priv->host.engine && priv->host.engine->backend() == cf::Backend::Cuda;
    if (priv->host.engine)
      GST_CAT_INFO_OBJECT(CF_CAT(self), self, "backend or device-id changed: rebuilding the engine");
    cfgst::destroy_engine(priv->host);
    if ((priv->in.cuda || priv->out.cuda) && !ensure_cuda_context(self)) return false;
    if (!create_engine(self)) return false;
    // Pools depend on the engine (pinned buffers for CUDA): renegotiate.
    if (was_cuda != (priv->host.engine->backend() == cf::Backend::Cuda)) gst_base_transform_reconfigure_src(trans);
  }
  priv->host.engine->set_threads(threads);

  // Device pointers only for GstCudaMemory of the engine's context; anything
  // else is mapped to host memory (GstCudaMemory copies through its staging).
  if (priv->in.cuda && priv->host.engine_ctx && !follow_input_context(self, inbuf)) return false;
  GstCudaContext *device = priv->host.engine_ctx;
  *in_device = cfgst::buffer_in_context(inbuf, device);
  *out_device = outbuf && cfgst::buffer_in_context(outbuf, device);
  // GStreamer 1.22 copies GstCudaMemory on the legacy default stream. An
  // engine queuing there is ordered after those copies; one on its own
  // non-blocking stream is not, and waits here, once.
  if ((*in_device || *out_device) && !priv->host.legacy_stream) cfgst::wait_default_stream(device);
  return true;
}

// Runs `compute` (a subclass hook); cf::Error and anything else from core/
// becomes an element error.
template <class Compute>
static GstFlowReturn run_hook(GstCfBase *self, Compute &&compute) {
  GstCfBasePrivate *priv = PRIV(self);
  try {
    compute();
  } catch (const std::exception &e) {
    GST_ELEMENT_ERROR(self, LIBRARY, FAILED, ("%s", e.what()),
                      ("backend %s, %s -> %s", cf::backend_name(priv->host.engine->backend()),
                       priv->in.describe().c_str(), priv->out.describe().c_str()));
    return GST_FLOW_ERROR;
  }
  return GST_FLOW_OK;
}

static GstFlowReturn gst_cf_base_transform(GstBaseTransform *trans, GstBuffer *inbuf, GstBuffer *outbuf) {
  GstCfBase *self = GST_CF_BASE(trans);
  GstCfBasePrivate *priv = PRIV(self);
  GstCfBaseClass *klass = GST_CF_BASE_GET_CLASS(self);
  bool in_device = false, out_device = false;
  if (!prepare_frame(self, inbuf, outbuf, &in_device, &out_device))
    return priv->configured ? GST_FLOW_ERROR : GST_FLOW_NOT_NEGOTIATED;
  std::string why;
  cfgst::MappedFrame in, out;
  if (!in.map(inbuf, priv->in, GST_MAP_READ, in_device, "input", &why) ||
      !out.map(outbuf, priv->out, GST_MAP_WRITE, out_device, "output", &why)) {
    GST_ELEMENT_ERROR(self, STREAM, FORMAT, ("%s", why.c_str()), (nullptr));
    return GST_FLOW_ERROR;
  }
  // Raw video out: the bytes that hold no sample are zeroed here, once for
  // every element and backend (the core writes samples only, and cudaview
  // and cudahough write some frames themselves). Before process(): in device
  // memory it is queued ahead of process()'s work on the engine's stream, so
  // no extra wait.
  return run_hook(self, [&] {
    if (!priv->out.coefficients) out.zero_padding(*priv->host.engine);
    klass->process(self, *priv->host.engine, CfFrame{priv->in, in.view()}, CfFrame{priv->out, out.view()});
  });
}

// Passthrough elements (inspect): the buffer is read, not written.
static GstFlowReturn gst_cf_base_transform_ip(GstBaseTransform *trans, GstBuffer *buf) {
  GstCfBase *self = GST_CF_BASE(trans);
  GstCfBasePrivate *priv = PRIV(self);
  GstCfBaseClass *klass = GST_CF_BASE_GET_CLASS(self);
  bool in_device = false, unused = false;
  if (!prepare_frame(self, buf, nullptr, &in_device, &unused))
    return priv->configured ? GST_FLOW_ERROR : GST_FLOW_NOT_NEGOTIATED;
  std::string why;
  cfgst::MappedFrame in;
  if (!in.map(buf, priv->in, GST_MAP_READ, in_device, "input", &why)) {
    GST_ELEMENT_ERROR(self, STREAM, FORMAT, ("%s", why.c_str()), (nullptr));
    return GST_FLOW_ERROR;
  }
  return run_hook(self, [&] { klass->inspect(self, *priv->host.engine, CfFrame{priv->in, in.view()}); });
}

static void gst_cf_base_class_init(GstCfBaseClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS(klass);
  GST_DEBUG_CATEGORY_INIT(gst_cf_base_debug, "cfbase", 0, "cudafilters element base");

  gobject_class->set_property = gst_cf_base_set_property;
  gobject_class->get_property = gst_cf_base_get_property;
  gobject_class->finalize = gst_cf_base_finalize;
  GST_ELEMENT_CLASS(klass)->set_context = gst_cf_base_set_context;

  const auto rw = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  properties[PROP_BACKEND] =
      g_param_spec_enum("backend", "Backend",
                        "Where frames are computed: auto = CUDA when a device is usable, else OpenMP; cuda without a "
                        "usable device is an element error at start. A change while playing applies at the next frame",
                        GST_TYPE_CF_BACKEND, int(kDefaultBackend), rw);
  properties[PROP_THREADS] =
      g_param_spec_uint("threads", "Threads", "OpenMP threads (0 = all cores); a change applies at the next frame", 0,
                        kMaxThreads, kDefaultThreads, rw);
  properties[PROP_DEVICE_ID] =
      g_param_spec_int("device-id", "Device ID",
                       "CUDA device used by backend auto or cuda; a change while playing applies at the next frame", 0,
                       G_MAXINT16, kDefaultDeviceId, rw);
  properties[PROP_HOST_WAIT] = g_param_spec_boolean(
      "host-wait", "Host wait",
      "In CUDA memory: wait on the host for each frame's GPU work before pushing it (true), or queue the "
      "work on the CUDA context's legacy default stream, which GStreamer 1.22 orders GstCudaMemory on, and "
      "push at once (false; GStreamer >= 1.24 always waits). A change applies at the next frame",
      TRUE, rw);
  properties[PROP_ACTIVE_BACKEND] = g_param_spec_string(
      "active-backend", "Active backend",
      "The backend in use (what auto resolved to): cuda, openmp or cpu; empty until the element starts", "",
      GParamFlags(G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties(gobject_class, N_PROPS, properties);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->start = gst_cf_base_start;
  trans_class->stop = gst_cf_base_stop;
  trans_class->accept_caps = gst_cf_base_accept_caps;
  trans_class->sink_event = gst_cf_base_sink_event;
  trans_class->set_caps = gst_cf_base_set_caps;
  trans_class->get_unit_size = gst_cf_base_get_unit_size;
  trans_class->transform_size = gst_cf_base_transform_size;
  trans_class->propose_allocation = gst_cf_base_propose_allocation;
  trans_class->decide_allocation = gst_cf_base_decide_allocation;
  trans_class->query = gst_cf_base_query;
  trans_class->transform = gst_cf_base_transform;
  trans_class->transform_ip = gst_cf_base_transform_ip;

  klass->has_cuda = TRUE;
  gst_type_mark_as_plugin_api(GST_TYPE_CF_BACKEND, GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(GST_TYPE_CF_BASE, GstPluginAPIFlags(0));
}

static void gst_cf_base_init(GstCfBase *self) { cfgst::construct_private(PRIV(self)); }
