// GstCudaMemory glue (gstreamer-cuda-1.0 of GStreamer 1.22): the
// GstCudaContext an element shares with its neighbours through GstContext,
// and which buffers a CUDA engine may read or write as device pointers. In
// builds without CUDA-memory support (CF_GST_CUDA=0) these are stubs: no
// buffer is GstCudaMemory and no context is ever found.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

typedef struct _GstCudaContext GstCudaContext;

namespace cfgst {

// GST_MAP_CUDA: maps a GstCudaMemory to its device pointer instead of its
// host staging copy.
constexpr GstMapFlags kMapCuda = GstMapFlags(GST_MAP_FLAG_LAST << 1);

// --- Context sharing (what gst-plugins-bad's nvcodec elements do) ---------
// GstElement::set_context: keeps a "gst.cuda.context" of `device_id` when
// *ctx is still empty.
void handle_set_context(GstElement *e, GstContext *context, int device_id, GstCudaContext **ctx);
// GST_QUERY_CONTEXT: answers with *ctx; false when there is none.
bool handle_context_query(GstElement *e, GstQuery *query, GstCudaContext *ctx);
// Fills *ctx from the neighbours, the bin or the application, or creates one
// on `device_id` and announces it. False when none can be had (no libcuda).
bool ensure_context(GstElement *e, int device_id, GstCudaContext **ctx);
void clear_context(GstCudaContext **ctx);  // unrefs and nulls
GstCudaContext *ref_context(GstCudaContext *ctx);
int context_device(GstCudaContext *ctx);  // -1 for nullptr

// Makes ctx current on this thread (gst_cuda_context_push/pop).
bool push_context(GstCudaContext *ctx);
void pop_context();
// Waits for the work queued on ctx's legacy default stream: GStreamer 1.22
// copies GstCudaMemory there (cudaupload, gst_buffer_copy), and device-to-
// device copies may still run when the buffer arrives, while the engine
// computes on its own non-blocking stream that does not wait for it.
void wait_default_stream(GstCudaContext *ctx);

// True where GStreamer orders all work on GstCudaMemory on its context's
// legacy default stream (1.22: copies, downloads and nvcodec's blocking
// streams). An engine queuing there needs no host wait before or after a
// frame. 1.24 gives memory a stream of its own, with consumers that wait only
// for that stream: there the elements keep waiting on the host.
bool cuda_memory_on_legacy_stream();

// --- Buffers ---------------------------------------------------------------
// The context of the buffer's first memory when it is GstCudaMemory.
GstCudaContext *buffer_context(GstBuffer *buf);
// True when buf is one GstCudaMemory of ctx: its device pointers are valid
// for an engine running in ctx, and mapping it never merges memories (which
// would go through host memory).
bool buffer_in_context(GstBuffer *buf, GstCudaContext *ctx);
// A buffer of one GstCudaMemory and no GstVideoMeta: copies the pitched
// plane layout that memory describes into *info. False otherwise.
bool cuda_memory_layout(GstBuffer *buf, GstVideoInfo *info);
// GStreamer 1.22 reads GstCudaMemory on the host through a staging copy of
// only the caps' row length of each pitched row, which misses the part of
// a plane starting inside a row: the V plane of I420 (and YV12) of odd
// height. For a buffer of one GstCudaMemory with such a layout (its
// offsets and strides in `pitched`), copies the whole allocation from the
// device into a new host buffer; nullptr for any other buffer or layout
// (GStreamer's own host map is right) or on failure.
GstBuffer *cuda_memory_host_copy(GstBuffer *buf, const GstVideoInfo &pitched);

}  // namespace cfgst
