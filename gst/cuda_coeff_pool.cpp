// Coefficient buffers in CUDA memory; see cuda_coeff_pool.h.
#include "cuda_coeff_pool.h"

#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/video/video.h>

GST_DEBUG_CATEGORY_STATIC(gst_cf_cuda_coeff_pool_debug);
#define GST_CAT_DEFAULT gst_cf_cuda_coeff_pool_debug

G_BEGIN_DECLS
#define GST_TYPE_CF_CUDA_COEFF_POOL (gst_cf_cuda_coeff_pool_get_type())
G_DECLARE_FINAL_TYPE(GstCfCudaCoeffPool, gst_cf_cuda_coeff_pool, GST, CF_CUDA_COEFF_POOL, GstBufferPool)
G_END_DECLS

constexpr guint kRowPixels = 1024, kRowBytes = kRowPixels * 4;  // RGBA

struct _GstCfCudaCoeffPool {
  GstBufferPool parent;
  GstCudaContext *context;
  GstAllocator *allocator;  // GStreamer's CUDA allocator
  GstVideoInfo shape;       // RGBA kRowPixels x rows
};

G_DEFINE_TYPE(GstCfCudaCoeffPool, gst_cf_cuda_coeff_pool, GST_TYPE_BUFFER_POOL)

static gboolean coeff_pool_set_config(GstBufferPool *pool, GstStructure *config) {
  GstCfCudaCoeffPool *self = GST_CF_CUDA_COEFF_POOL(pool);
  GstCaps *caps = nullptr;
  guint size = 0, min = 0, max = 0;
  if (!gst_buffer_pool_config_get_params(config, &caps, &size, &min, &max) || size == 0) {
    GST_WARNING_OBJECT(pool, "invalid config: no frame size");
    return FALSE;
  }
  const guint rows = (size + kRowBytes - 1) / kRowBytes;
  gst_video_info_set_format(&self->shape, GST_VIDEO_FORMAT_RGBA, kRowPixels, rows);
  gst_buffer_pool_config_set_params(config, caps, rows * kRowBytes, min, max);
  return GST_BUFFER_POOL_CLASS(gst_cf_cuda_coeff_pool_parent_class)->set_config(pool, config);
}

static GstFlowReturn coeff_pool_alloc(GstBufferPool *pool, GstBuffer **buffer, GstBufferPoolAcquireParams *) {
  GstCfCudaCoeffPool *self = GST_CF_CUDA_COEFF_POOL(pool);
  GstMemory *mem = gst_cuda_allocator_alloc(GST_CUDA_ALLOCATOR(self->allocator), self->context, &self->shape);
  if (!mem) {
    GST_ERROR_OBJECT(pool, "cannot allocate %u rows of %u bytes of CUDA memory", self->shape.height, kRowBytes);
    return GST_FLOW_ERROR;
  }
  // A wider pitch would leave gaps between the rows of the planes.
  const gint pitch = GST_CUDA_MEMORY_CAST(mem)->info.stride[0];
  if (pitch != gint(kRowBytes)) {
    GST_ERROR_OBJECT(pool, "CUDA pitch %d for rows of %u bytes: coefficients would not be contiguous", pitch,
                     kRowBytes);
    gst_memory_unref(mem);
    return GST_FLOW_ERROR;
  }
  *buffer = gst_buffer_new();
  gst_buffer_append_memory(*buffer, mem);
  return GST_FLOW_OK;
}

static void coeff_pool_dispose(GObject *object) {
  GstCfCudaCoeffPool *self = GST_CF_CUDA_COEFF_POOL(object);
  gst_clear_object(&self->context);
  gst_clear_object(&self->allocator);
  G_OBJECT_CLASS(gst_cf_cuda_coeff_pool_parent_class)->dispose(object);
}

static void gst_cf_cuda_coeff_pool_class_init(GstCfCudaCoeffPoolClass *klass) {
  G_OBJECT_CLASS(klass)->dispose = coeff_pool_dispose;
  GstBufferPoolClass *pool_class = GST_BUFFER_POOL_CLASS(klass);
  pool_class->set_config = coeff_pool_set_config;
  pool_class->alloc_buffer = coeff_pool_alloc;
  GST_DEBUG_CATEGORY_INIT(gst_cf_cuda_coeff_pool_debug, "cfcudacoeffpool", 0, "coefficient buffers in CUDA memory");
}

static void gst_cf_cuda_coeff_pool_init(GstCfCudaCoeffPool *) {}

GstBufferPool *gst_cf_cuda_coeff_pool_new(GstCudaContext *context) {
  gst_cuda_memory_init_once();
  auto *self = static_cast<GstCfCudaCoeffPool *>(g_object_new(GST_TYPE_CF_CUDA_COEFF_POOL, nullptr));
  gst_object_ref_sink(self);
  self->context = static_cast<GstCudaContext *>(gst_object_ref(context));
  self->allocator = gst_allocator_find(GST_CUDA_MEMORY_TYPE_NAME);
  return GST_BUFFER_POOL_CAST(self);
}
