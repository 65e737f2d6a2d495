// GstCfPinnedAllocator: page-locked host memory (cf::pinned_alloc) for the
// system-memory buffers a CUDA engine copies every frame, so those copies
// run at full PCIe speed. Where no pinned memory can be had (no CUDA, no
// device, pinned memory exhausted) it hands out ordinary system memory.
// Memories keep the allocator alive, so buffers may outlive the element.
#pragma once

#include <gst/gst.h>

G_BEGIN_DECLS

#define GST_TYPE_CF_PINNED_ALLOCATOR (gst_cf_pinned_allocator_get_type())
G_DECLARE_FINAL_TYPE(GstCfPinnedAllocator, gst_cf_pinned_allocator, GST, CF_PINNED_ALLOCATOR, GstAllocator)

// mem_type of its memories (a test can tell them by it).
#define GST_CF_PINNED_MEMORY_TYPE "CfPinnedMemory"

// A new allocator (full reference) for CUDA device `device_id`.
GstAllocator *gst_cf_pinned_allocator_new(int device_id);

G_END_DECLS
