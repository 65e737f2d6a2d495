// The engine of an element and its CUDA context; see cf_engine_host.h.
#include "cf_engine_host.h"

#include "cudafilters/error.hpp"
#include "pinned_allocator.h"

namespace cfgst {

namespace {

// Makes `ctx` current for a scope, if there is one.
class ContextScope {
 public:
  ContextScope(GstElement *self, GstCudaContext *ctx, GstDebugCategory *cat) : pushed_(ctx && push_context(ctx)) {
    if (ctx && !pushed_) GST_CAT_WARNING_OBJECT(cat, self, "cannot make the GstCudaContext current");
  }
  ~ContextScope() {
    if (pushed_) pop_context();
  }
  ContextScope(const ContextScope &) = delete;
  ContextScope &operator=(const ContextScope &) = delete;
  bool pushed() const { return pushed_; }

 private:
  bool pushed_;
};

}  // namespace

void destroy_engine(EngineHost &h) {
  h.engine.reset();
  clear_context(&h.engine_ctx);
  h.legacy_stream = false;
  gst_clear_object(&h.pinned);
}

bool create_engine(GstElement *self, EngineHost &h, bool has_cuda, GstDebugCategory *cat) {
  GST_OBJECT_LOCK(self);
  const cf::Backend requested = h.backend;
  const int threads = int(h.threads), device = h.device_id;
  const bool host_wait = h.host_wait;
  h.engine_stale = false;
  GST_OBJECT_UNLOCK(self);

  GstCudaContext *ctx = nullptr;
  if (has_cuda && cf::resolve_backend(requested, device) == cf::Backend::Cuda && context_device(h.cuda_ctx) == device)
    ctx = h.cuda_ctx;
  ContextScope scope(self, ctx, cat);

  std::unique_ptr<cf::Engine> engine;
  const char *note = "";
  try {
    if (!has_cuda && (requested == cf::Backend::Cuda || requested == cf::Backend::Auto)) {
      // This element has no CUDA code (yet): run on the CPU instead.
      note = " (this element has no CUDA implementation and runs on the CPU)";
      try {
        engine = std::make_unique<cf::Engine>(cf::Backend::OpenMP, threads, device);
      } catch (const cf::Error &) {
        engine = std::make_unique<cf::Engine>(cf::Backend::Cpu, threads, device);
      }
    } else {
      engine = std::make_unique<cf::Engine>(requested, threads, device);
    }
  } catch (const cf::Error &e) {
    GST_ELEMENT_ERROR(self, RESOURCE, SETTINGS, ("%s", e.what()),
                      ("backend=%s threads=%d device-id=%d", cf::backend_name(requested), threads, device));
    return false;
  }

  const std::string chosen = cf::backend_name(engine->backend());
  const std::string description = engine->describe();
  GST_CAT_INFO_OBJECT(cat, self, "backend=%s runs on %s%s", cf::backend_name(requested), description.c_str(), note);
  // auto without a usable GPU: say so on the bus, with the reason, so a
  // pipeline that silently runs many times slower is visible.
  std::string why;
  if (requested == cf::Backend::Auto && has_cuda && engine->backend() != cf::Backend::Cuda &&
      !cf::cuda_device_usable(device, &why))
    GST_ELEMENT_WARNING(self, RESOURCE, SETTINGS,
                        ("backend=auto: no usable CUDA device (device-id=%d: %s), falling back to %s", device,
                         why.c_str(), description.c_str()),
                        (nullptr));
  GST_OBJECT_LOCK(self);
  h.active_backend = chosen;
  GST_OBJECT_UNLOCK(self);
  h.engine = std::move(engine);
  if (h.engine->backend() == cf::Backend::Cuda) {
    if (scope.pushed()) h.engine_ctx = ref_context(ctx);
    // host-wait=false, where GStreamer orders GstCudaMemory on the context's
    // legacy stream: the engine queues there too, and nobody waits on the host.
    h.legacy_stream = !host_wait && h.engine_ctx && cuda_memory_on_legacy_stream();
    h.engine->use_legacy_stream(h.legacy_stream);
    h.pinned = gst_cf_pinned_allocator_new(device);
  }
  GST_CAT_DEBUG_OBJECT(cat, self, "engine context: %s",
                       h.engine_ctx ? "the shared GstCudaContext"
                       : h.pinned   ? "the primary CUDA context"
                                    : "none (CPU)");
  g_object_notify(G_OBJECT(self), "active-backend");

  GstStructure *s =
      gst_structure_new("cudafilters-backend", "element", G_TYPE_STRING, GST_ELEMENT_NAME(self), "backend",
                        G_TYPE_STRING, chosen.c_str(), "description", G_TYPE_STRING, description.c_str(), nullptr);
  gst_element_post_message(self, gst_message_new_element(GST_OBJECT(self), s));
  return true;
}

bool ensure_cuda_context(GstElement *self, EngineHost &h, GstDebugCategory *cat) {
  GST_OBJECT_LOCK(self);
  const int device = h.device_id;
  GST_OBJECT_UNLOCK(self);
  if (h.cuda_ctx && context_device(h.cuda_ctx) != device) {
    GST_CAT_INFO_OBJECT(cat, self, "device-id is now %d: dropping the context of device %d", device,
                        context_device(h.cuda_ctx));
    clear_context(&h.cuda_ctx);
  }
  // The device is checked first: GStreamer's own checks abort or only log.
  std::string why = "this build has no CUDA-memory support";
  if (CF_GST_CUDA && cf::cuda_device_usable(device, &why)) {
    if (ensure_context(self, device, &h.cuda_ctx)) return true;
    why = "GStreamer cannot create a CUDA context on it";
  }
  GST_ELEMENT_ERROR(self, RESOURCE, SETTINGS,
                    ("memory:CUDAMemory needs a CUDA context on device-id=%d: %s", device, why.c_str()), (nullptr));
  return false;
}

bool engine_outside_cuda_context(const EngineHost &h) {
  return h.engine && h.engine->backend() == cf::Backend::Cuda && h.engine_ctx != h.cuda_ctx;
}

bool answer_context_query(GstElement *self, const EngineHost &h, GstQuery *query) {
  return GST_QUERY_TYPE(query) == GST_QUERY_CONTEXT && handle_context_query(self, query, h.cuda_ctx);
}

void set_engine_property(EngineHost &h, EngineProp p, const GValue *value) {
  switch (p) {
    case EngineProp::Backend: {
      const auto b = cf::Backend(g_value_get_enum(value));
      h.engine_stale |= b != h.backend;
      h.backend = b;
      break;
    }
    case EngineProp::Threads: h.threads = g_value_get_uint(value); break;  // applied at every frame
    case EngineProp::DeviceId: {
      const gint d = g_value_get_int(value);
      h.engine_stale |= d != h.device_id;
      h.device_id = d;
      break;
    }
    case EngineProp::HostWait: {
      const gboolean w = g_value_get_boolean(value);
      h.engine_stale |= w != h.host_wait;
      h.host_wait = w;
      break;
    }
    default: break;  // active-backend is read-only
  }
}

void get_engine_property(const EngineHost &h, EngineProp p, GValue *value) {
  switch (p) {
    case EngineProp::Backend: g_value_set_enum(value, int(h.backend)); break;
    case EngineProp::Threads: g_value_set_uint(value, h.threads); break;
    case EngineProp::DeviceId: g_value_set_int(value, h.device_id); break;
    case EngineProp::HostWait: g_value_set_boolean(value, h.host_wait); break;
    case EngineProp::ActiveBackend: g_value_set_string(value, h.active_backend.c_str()); break;
    default: break;
  }
}

void set_engine_context(GstElement *self, EngineHost &h, GstContext *context) {
  GST_OBJECT_LOCK(self);
  const int device = h.device_id;
  GST_OBJECT_UNLOCK(self);
  handle_set_context(self, context, device, &h.cuda_ctx);
}

void stop_engine(GstElement *self, EngineHost &h) {
  destroy_engine(h);
  clear_context(&h.cuda_ctx);
  GST_OBJECT_LOCK(self);
  h.active_backend.clear();
  GST_OBJECT_UNLOCK(self);
}

}  // namespace cfgst
