// Page-locked host memory as GstMemory; see pinned_allocator.h.
#include "pinned_allocator.h"

#include <cstring>

#include "cudafilters/engine.hpp"

GST_DEBUG_CATEGORY_STATIC(gst_cf_pinned_debug);
#define GST_CAT_DEFAULT gst_cf_pinned_debug

struct _GstCfPinnedAllocator {
  GstAllocator parent;
  int device_id;
};

G_DEFINE_TYPE(GstCfPinnedAllocator, gst_cf_pinned_allocator, GST_TYPE_ALLOCATOR)

namespace {

// One pinned block, or a share of one (parent set, base null).
struct PinnedMemory {
  GstMemory mem;
  guint8 *data;  // start of the usable bytes (mem.maxsize of them)
  void *base;    // what pinned_alloc returned; freed with the owner
};

PinnedMemory *wrap(GstAllocator *allocator, GstMemory *parent, guint8 *data, void *base, gsize maxsize, gsize align,
                   gsize offset, gsize size, GstMemoryFlags flags) {
  auto *m = g_new0(PinnedMemory, 1);
  gst_memory_init(GST_MEMORY_CAST(m), flags, allocator, parent, maxsize, align, offset, size);
  m->data = data;
  m->base = base;
  return m;
}

GstMemory *pinned_alloc(GstAllocator *allocator, gsize size, GstAllocationParams *params) {
  auto *self = reinterpret_cast<GstCfPinnedAllocator *>(allocator);
  // As GStreamer's system allocator: prefix + size + padding, aligned to
  // params->align (pinned blocks start page-aligned, so extra bytes are
  // only needed for alignments above a page).
  const gsize align = params->align | gst_memory_alignment;
  const gsize maxsize = params->prefix + size + params->padding;
  void *base = cf::pinned_alloc(maxsize + align, self->device_id);
  if (!base) {  // said at warning level: copies from and to this memory are slower
    GST_WARNING_OBJECT(self, "no pinned memory for %" G_GSIZE_FORMAT " bytes: system memory", size);
    return gst_allocator_alloc(nullptr, size, params);
  }
  GST_DEBUG_OBJECT(self, "allocated %" G_GSIZE_FORMAT " bytes of pinned memory", maxsize + align);
  guint8 *data = static_cast<guint8 *>(base);
  if (const gsize misalign = reinterpret_cast<guintptr>(data) & align) data += align + 1 - misalign;
  if (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED) std::memset(data, 0, params->prefix);
  if (params->flags & GST_MEMORY_FLAG_ZERO_PADDED) std::memset(data + params->prefix + size, 0, params->padding);
  return GST_MEMORY_CAST(wrap(allocator, nullptr, data, base, maxsize, align, params->prefix, size, params->flags));
}

void pinned_free(GstAllocator *, GstMemory *mem) {
  auto *m = reinterpret_cast<PinnedMemory *>(mem);
  if (!mem->parent) cf::pinned_free(m->base);
  g_free(m);
}

gpointer pinned_map(GstMemory *mem, gsize, GstMapFlags) { return reinterpret_cast<PinnedMemory *>(mem)->data; }
void pinned_unmap(GstMemory *) {}

GstMemory *pinned_share(GstMemory *mem, gssize offset, gssize size) {
  auto *m = reinterpret_cast<PinnedMemory *>(mem);
  GstMemory *parent = mem->parent ? mem->parent : mem;
  if (size == -1) size = gssize(mem->size) - offset;
  const auto flags = GstMemoryFlags(GST_MINI_OBJECT_FLAGS(parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY);
  return GST_MEMORY_CAST(wrap(mem->allocator, parent, m->data, nullptr, mem->maxsize, mem->align, mem->offset + offset,
                              gsize(size), flags));
}

gboolean pinned_is_span(GstMemory *a, GstMemory *b, gsize *offset) {
  auto *ma = reinterpret_cast<PinnedMemory *>(a), *mb = reinterpret_cast<PinnedMemory *>(b);
  if (offset) *offset = a->offset - (a->parent ? a->parent->offset : 0);
  return ma->data + a->offset + a->size == mb->data + b->offset;
}

}  // namespace

static void gst_cf_pinned_allocator_class_init(GstCfPinnedAllocatorClass *klass) {
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS(klass);
  allocator_class->alloc = pinned_alloc;
  allocator_class->free = pinned_free;
  GST_DEBUG_CATEGORY_INIT(gst_cf_pinned_debug, "cfpinned", 0, "cudafilters pinned host memory");
}

static void gst_cf_pinned_allocator_init(GstCfPinnedAllocator *self) {
  GstAllocator *a = GST_ALLOCATOR_CAST(self);
  a->mem_type = GST_CF_PINNED_MEMORY_TYPE;
  a->mem_map = pinned_map;
  a->mem_unmap = pinned_unmap;
  a->mem_share = pinned_share;
  a->mem_is_span = pinned_is_span;
  // Not GST_ALLOCATOR_FLAG_CUSTOM_ALLOC: gst_allocator_alloc() works, so any
  // upstream element can allocate from it. gst_memory_copy() falls back to a
  // system-memory copy.
}

GstAllocator *gst_cf_pinned_allocator_new(int device_id) {
  auto *self = static_cast<GstCfPinnedAllocator *>(g_object_new(GST_TYPE_CF_PINNED_ALLOCATOR, nullptr));
  gst_object_ref_sink(self);
  self->device_id = device_id;
  return GST_ALLOCATOR_CAST(self);
}
