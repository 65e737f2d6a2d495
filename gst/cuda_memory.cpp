// GstCudaMemory glue; see cuda_memory.h.
#include "cuda_memory.h"

#if CF_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#endif

namespace cfgst {

#if CF_GST_CUDA

void handle_set_context(GstElement *e, GstContext *context, int device_id, GstCudaContext **ctx) {
  gst_cuda_handle_set_context(e, context, device_id, ctx);
}

bool handle_context_query(GstElement *e, GstQuery *query, GstCudaContext *ctx) {
  return ctx && gst_cuda_handle_context_query(e, query, ctx);
}

bool ensure_context(GstElement *e, int device_id, GstCudaContext **ctx) {
  // 1.22 asserts (aborts) when it must create a context but libcuda was
  // never loaded: load it first, as nvcodec's plugin_init does.
  if (!*ctx && !gst_cuda_load_library()) return false;
  return gst_cuda_ensure_element_context(e, device_id, ctx) && *ctx;
}

void clear_context(GstCudaContext **ctx) { gst_clear_object(ctx); }

GstCudaContext *ref_context(GstCudaContext *ctx) {
  return ctx ? static_cast<GstCudaContext *>(gst_object_ref(ctx)) : nullptr;
}

int context_device(GstCudaContext *ctx) {
  if (!ctx) return -1;
  guint device = 0;
  g_object_get(ctx, "cuda-device-id", &device, nullptr);
  return int(device);
}

bool push_context(GstCudaContext *ctx) { return ctx && gst_cuda_context_push(ctx); }
void pop_context() { gst_cuda_context_pop(nullptr); }

void wait_default_stream(GstCudaContext *ctx) {
  if (!push_context(ctx)) return;
  CuStreamSynchronize(nullptr);
  pop_context();
}

bool cuda_memory_on_legacy_stream() {
  guint major = 0, minor = 0, micro = 0, nano = 0;
  gst_version(&major, &minor, &micro, &nano);
  return major == 1 && minor < 24;
}

GstCudaContext *buffer_context(GstBuffer *buf) {
  GstMemory *mem = gst_buffer_n_memory(buf) ? gst_buffer_peek_memory(buf, 0) : nullptr;
  return mem && gst_is_cuda_memory(mem) ? GST_CUDA_MEMORY_CAST(mem)->context : nullptr;
}

bool buffer_in_context(GstBuffer *buf, GstCudaContext *ctx) {
  if (!ctx || gst_buffer_n_memory(buf) != 1) return false;
  GstMemory *mem = gst_buffer_peek_memory(buf, 0);
  return gst_is_cuda_memory(mem) && GST_CUDA_MEMORY_CAST(mem)->context == ctx;
}

bool cuda_memory_layout(GstBuffer *buf, GstVideoInfo *info) {
  if (gst_buffer_n_memory(buf) != 1 || gst_buffer_get_video_meta(buf)) return false;
  GstMemory *mem = gst_buffer_peek_memory(buf, 0);
  if (!gst_is_cuda_memory(mem)) return false;
  const GstVideoInfo &m = GST_CUDA_MEMORY_CAST(mem)->info;
  if (GST_VIDEO_INFO_FORMAT(&m) != GST_VIDEO_INFO_FORMAT(info) || m.width != info->width || m.height != info->height)
    return false;
  for (int p = 0; p < GST_VIDEO_MAX_PLANES; ++p) {
    info->stride[p] = m.stride[p];
    info->offset[p] = m.offset[p];
  }
  info->size = m.size;
  return true;
}

GstBuffer *cuda_memory_host_copy(GstBuffer *buf, const GstVideoInfo &pitched) {
  bool inside_row = false;
  for (guint p = 0; p < GST_VIDEO_INFO_N_PLANES(&pitched); ++p)
    inside_row |= pitched.stride[p] > 0 && pitched.offset[p] % gsize(pitched.stride[p]) != 0;
  if (!inside_row || gst_buffer_n_memory(buf) != 1) return nullptr;
  GstMemory *mem = gst_buffer_peek_memory(buf, 0);
  if (!gst_is_cuda_memory(mem)) return nullptr;
  GstMapInfo device;
  if (!gst_memory_map(mem, &device, GstMapFlags(GST_MAP_READ | GST_MAP_CUDA))) return nullptr;
  GstBuffer *copy = gst_buffer_new_allocate(nullptr, device.size, nullptr);
  GstMapInfo host;
  bool ok = copy && gst_buffer_map(copy, &host, GST_MAP_WRITE);
  if (ok) {
    ok = push_context(GST_CUDA_MEMORY_CAST(mem)->context);
    if (ok) {
      // Whole pitched rows: every byte of the allocation.
      CUDA_MEMCPY2D rows{};
      rows.srcMemoryType = CU_MEMORYTYPE_DEVICE;
      rows.srcDevice = CUdeviceptr(device.data);
      rows.srcPitch = rows.dstPitch = rows.WidthInBytes = gsize(pitched.stride[0]);
      rows.dstMemoryType = CU_MEMORYTYPE_HOST;
      rows.dstHost = host.data;
      rows.Height = device.size / rows.WidthInBytes;
      ok = gst_cuda_result(CuMemcpy2D(&rows));
      pop_context();
    }
    gst_buffer_unmap(copy, &host);
  }
  gst_memory_unmap(mem, &device);
  if (!ok && copy) gst_clear_buffer(&copy);
  return copy;
}

#else  // no CUDA-memory support in this build

void handle_set_context(GstElement *, GstContext *, int, GstCudaContext **) {}
bool handle_context_query(GstElement *, GstQuery *, GstCudaContext *) { return false; }
bool ensure_context(GstElement *, int, GstCudaContext **) { return false; }
void clear_context(GstCudaContext **ctx) { *ctx = nullptr; }
GstCudaContext *ref_context(GstCudaContext *ctx) { return ctx; }
int context_device(GstCudaContext *) { return -1; }
bool push_context(GstCudaContext *) { return false; }
void pop_context() {}
void wait_default_stream(GstCudaContext *) {}
bool cuda_memory_on_legacy_stream() { return false; }
GstCudaContext *buffer_context(GstBuffer *) { return nullptr; }
bool buffer_in_context(GstBuffer *, GstCudaContext *) { return false; }
bool cuda_memory_layout(GstBuffer *, GstVideoInfo *) { return false; }
GstBuffer *cuda_memory_host_copy(GstBuffer *, const GstVideoInfo &) { return nullptr; }

#endif

}  // namespace cfgst
