// Buffer pools of the element base, by memory type and backend:
//   CUDA memory:   GstCudaBufferPool for raw video, GstCfCudaCoeffPool for
//                  coefficients, in the element's GstCudaContext;
//   system memory, CUDA engine: pools of pinned buffers (GstCfPinnedAllocator),
//                  so the engine's host<->device copies run at full speed;
//   system memory, CPU engine: downstream's pool, else a plain one.
// Output buffers always come from a pool: nothing is allocated per frame once
// the pool holds enough buffers.
#pragma once

#include <gst/gst.h>

#include <string>

#include "raw_frame.h"

typedef struct _GstCudaContext GstCudaContext;

namespace cfgst {

// decide_allocation: picks and configures the pool for output buffers of
// format `out` and writes it (and the allocator) into `query`. `cuda`: the
// element's context (needed when out.cuda); `pinned`: non-null when the
// engine is CUDA. False with a message when no pool can be configured.
bool decide_output_pool(GstQuery *query, const PadFormat &out, GstCudaContext *cuda, GstAllocator *pinned,
                        std::string *why);

// propose_allocation: offers upstream a pool for input buffers of format
// `in`: pinned buffers when `pinned` is set (system memory), a
// GstCudaBufferPool for raw video in CUDA memory; nothing otherwise.
void propose_input_pool(GstQuery *query, const PadFormat &in, GstCudaContext *cuda, GstAllocator *pinned);

// propose_allocation of an element that passes its buffers through, after
// downstream answered: where downstream asked for plain system memory (no
// pool, no allocator but the default one), offers pinned buffers in its
// place. Upstream takes the first allocator and pool of the answer, and
// pinned memory is system memory to everyone downstream.
void offer_pinned_to_passthrough(GstQuery *query, const PadFormat &in, GstAllocator *pinned);

}  // namespace cfgst
