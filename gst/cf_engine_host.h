// The engine an element computes on, and what it depends on: the engine
// properties' values, the GstCudaContext shared with the neighbours, the
// context the engine was made in, whether it queues on that context's
// legacy stream, and the pinned allocator of a CUDA engine's system-memory
// pools. Written once for GstCfBase (the filters) and cudaj2kenc (a
// GstVideoEncoder, which cannot derive from it).
#pragma once

#include <gst/gst.h>

#include <memory>
#include <string>

#include "cf_engine_props.h"
#include "cuda_memory.h"
#include "cudafilters/engine.hpp"

namespace cfgst {

struct EngineHost {
  // Properties: guarded by the owner's GST_OBJECT_LOCK.
  cf::Backend backend = cf::Backend::Auto;
  guint threads = 0;
  gint device_id = 0;
  gboolean host_wait = TRUE;   // false: in CUDA memory, queue on the legacy stream and push at once
  bool engine_stale = false;   // backend, device-id or host-wait changed since the engine was made
  std::string active_backend;  // "" until started

  // State-change and streaming threads (never at the same time). cuda_ctx is
  // set by set_context (any thread, only while empty, as nvcodec's elements
  // do), or found/created when CUDA memory is negotiated; engine_ctx is the
  // context the engine was made in (nullptr: the primary context).
  std::unique_ptr<cf::Engine> engine;
  GstCudaContext *cuda_ctx = nullptr;
  GstCudaContext *engine_ctx = nullptr;
  bool legacy_stream = false;  // the engine queues on engine_ctx's legacy stream (no host waits)
  GstAllocator *pinned = nullptr;
};

// The engine goes before the context it runs in. Whatever refers to the
// engine (an encoder) must be gone first.
void destroy_engine(EngineHost &h);

// Creates the engine from the properties; posts an element error and
// returns false when the backend cannot be used. A CUDA engine is created
// with the shared GstCudaContext current, so it adopts it: the device
// pointers of the neighbours' GstCudaMemory are valid in it. Without one it
// runs in the device's primary context. has_cuda false: the element has no
// CUDA code, and cuda or auto run on the CPU. Posts a "cudafilters-backend"
// element message and notifies active-backend. Logs go to `cat`.
bool create_engine(GstElement *self, EngineHost &h, bool has_cuda, GstDebugCategory *cat);

// CUDA memory needs the shared GstCudaContext of device-id (for pools and a
// CUDA engine's device pointers): found through the neighbours, the bin or
// the application, else created. Posts an element error when there is none.
bool ensure_cuda_context(GstElement *self, EngineHost &h, GstDebugCategory *cat);

// A CUDA engine made outside the shared GstCudaContext (before CUDA memory
// was negotiated): its device pointers are not valid for the neighbours'
// GstCudaMemory, so the owner makes it again in the context.
bool engine_outside_cuda_context(const EngineHost &h);

// GST_QUERY_CONTEXT answered with the shared GstCudaContext; false for any
// other query, or when there is no context yet.
bool answer_context_query(GstElement *self, const EngineHost &h, GstQuery *query);

// The engine properties, with the owner's GST_OBJECT_LOCK held.
void set_engine_property(EngineHost &h, EngineProp p, const GValue *value);
void get_engine_property(const EngineHost &h, EngineProp p, GValue *value);

// GstElement::set_context: keeps a GstCudaContext of device-id (chain up after).
void set_engine_context(GstElement *self, EngineHost &h, GstContext *context);

// At stop: no engine, no context (a restart asks the pipeline again), no
// active backend.
void stop_engine(GstElement *self, EngineHost &h);

}  // namespace cfgst
