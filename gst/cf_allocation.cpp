// Buffer pools by memory type and backend; see cf_allocation.h.
#include "cf_allocation.h"

#include <gst/video/gstvideopool.h>
#include <gst/video/video.h>

#if CF_GST_CUDA
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudamemory.h>

#include "cuda_coeff_pool.h"
#endif

namespace cfgst {

namespace {

GstBufferPool *new_pool(const PadFormat &f, GstCudaContext *cuda) {
#if CF_GST_CUDA
  // The pool finds GstCudaMemory's allocator by name: registered by the
  // nvcodec plugin's elements, or here when none is in the pipeline.
  if (f.cuda) gst_cuda_memory_init_once();
  if (f.cuda) return f.coefficients ? gst_cf_cuda_coeff_pool_new(cuda) : gst_cuda_buffer_pool_new(cuda);
#else
  (void)cuda;
#endif
  return f.coefficients ? gst_buffer_pool_new() : gst_video_buffer_pool_new();
}

// Whether downstream's pool can give our output buffers.
bool usable(GstBufferPool *pool, const PadFormat &f, GstCudaContext *cuda, GstAllocator *pinned) {
  if (!pool) return false;
#if CF_GST_CUDA
  if (f.cuda) return !f.coefficients && GST_IS_CUDA_BUFFER_POOL(pool) && GST_CUDA_BUFFER_POOL(pool)->context == cuda;
#else
  (void)cuda;
#endif
  // A CUDA engine wants its own pinned buffers rather than downstream's.
  return !f.cuda && !pinned;
}

// Sets the config; a pool that adjusted it (a CUDA pool rounds the size up
// to its pitch) is accepted when the adjustment still fits.
bool configure(GstBufferPool *pool, GstCaps *caps, guint size, guint min, guint max, GstAllocator *allocator,
               const GstAllocationParams *params, bool video_meta) {
  GstStructure *config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_set_params(config, caps, size, min, max);
  gst_buffer_pool_config_set_allocator(config, allocator, params);
  if (video_meta) gst_buffer_pool_config_add_option(config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (gst_buffer_pool_set_config(pool, config)) return true;
  config = gst_buffer_pool_get_config(pool);
  return gst_buffer_pool_config_validate_params(config, caps, size, min, max) &&
         gst_buffer_pool_set_config(pool, config);
}

guint configured_size(GstBufferPool *pool) {
  GstStructure *config = gst_buffer_pool_get_config(pool);
  guint size = 0;
  gst_buffer_pool_config_get_params(config, nullptr, &size, nullptr, nullptr);
  gst_structure_free(config);
  return size;
}

}  // namespace

bool decide_output_pool(GstQuery *query, const PadFormat &out, GstCudaContext *cuda, GstAllocator *pinned,
                        std::string *why) {
  GstCaps *caps = nullptr;
  gst_query_parse_allocation(query, &caps, nullptr);
  if (!caps) {
    *why = "allocation query without caps";
    return false;
  }
  if (out.cuda && !cuda) {
    *why = "output in CUDA memory without a CUDA context";
    return false;
  }

  GstBufferPool *pool = nullptr;
  guint size = 0, min = 0, max = 0;
  const bool downstream_pool = gst_query_get_n_allocation_pools(query) > 0;
  if (downstream_pool) gst_query_parse_nth_allocation_pool(query, 0, &pool, &size, &min, &max);
  if (!usable(pool, out, cuda, pinned)) {
    gst_clear_object(&pool);
    pool = new_pool(out, cuda);
  }
  size = MAX(size, guint(out.size));

  GstAllocator *allocator = nullptr;
  GstAllocationParams params;
  gst_allocation_params_init(&params);
  const bool downstream_allocator = gst_query_get_n_allocation_params(query) > 0;
  if (out.cuda)
    ;  // CUDA pools allocate GstCudaMemory themselves
  else if (pinned)
    allocator = GST_ALLOCATOR(gst_object_ref(pinned));
  else if (downstream_allocator)
    gst_query_parse_nth_allocation_param(query, 0, &allocator, &params);

  const bool video_meta = !out.coefficients && gst_buffer_pool_has_option(pool, GST_BUFFER_POOL_OPTION_VIDEO_META) &&
                          gst_query_find_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
  const bool ok = configure(pool, caps, size, min, max, allocator, &params, video_meta);
  if (ok) {
    size = configured_size(pool);
    if (downstream_pool)
      gst_query_set_nth_allocation_pool(query, 0, pool, size, min, max);
    else
      gst_query_add_allocation_pool(query, pool, size, min, max);
    if (downstream_allocator)
      gst_query_set_nth_allocation_param(query, 0, allocator, &params);
    else
      gst_query_add_allocation_param(query, allocator, &params);
  } else {
    *why = std::string("cannot configure a ") + G_OBJECT_TYPE_NAME(pool) + " for " + out.describe();
  }
  if (allocator) gst_object_unref(allocator);
  gst_object_unref(pool);
  return ok;
}

void propose_input_pool(GstQuery *query, const PadFormat &in, GstCudaContext *cuda, GstAllocator *pinned) {
  GstCaps *caps = nullptr;
  gboolean need_pool = FALSE;
  gst_query_parse_allocation(query, &caps, &need_pool);
  if (!caps) return;
  GstBufferPool *pool = nullptr;
  GstAllocationParams params;
  gst_allocation_params_init(&params);
  if (in.cuda) {
    // Raw video only: a coefficient stream comes from our own wavelet
    // elements, which keep their own pool.
    if (!cuda || in.coefficients || !need_pool) return;
    pool = new_pool(in, cuda);
  } else {
    if (!pinned) return;
    gst_query_add_allocation_param(query, pinned, &params);
    if (!need_pool) return;
    pool = new_pool(in, nullptr);
  }
  if (configure(pool, caps, guint(in.size), 0, 0, in.cuda ? nullptr : pinned, &params, false))
    gst_query_add_allocation_pool(query, pool, configured_size(pool), 0, 0);
  gst_object_unref(pool);
}

void offer_pinned_to_passthrough(GstQuery *query, const PadFormat &in, GstAllocator *pinned) {
  if (!pinned || in.cuda || gst_query_get_n_allocation_pools(query) > 0) return;
  for (guint i = 0; i < gst_query_get_n_allocation_params(query); ++i) {
    GstAllocator *allocator = nullptr;
    gst_query_parse_nth_allocation_param(query, i, &allocator, nullptr);
    const bool plain = !allocator || !g_strcmp0(allocator->mem_type, GST_ALLOCATOR_SYSMEM);
    if (allocator) gst_object_unref(allocator);
    if (!plain) return;  // downstream wants memory of its own kind
  }
  while (gst_query_get_n_allocation_params(query) > 0) gst_query_remove_nth_allocation_param(query, 0);
  propose_input_pool(query, in, nullptr, pinned);
}

}  // namespace cfgst
