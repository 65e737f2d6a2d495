// GstCfBase: the abstract GstBaseTransform every cudafilters element derives
// from. It owns what is common:
//   - the properties backend, threads, device-id and the read-only
//     active-backend, and the cf::Engine they configure (created at start,
//     rebuilt at the next frame when backend or device-id change);
//   - caps: strict parsing of both pads into PadFormats, clear element errors
//     naming the caps field, format or parameter that is wrong;
//   - buffers: size checks, mapping into cf::FrameViews, cf::Error -> element
//     error;
//   - memory: both pads carry system memory or memory:CUDAMemory (output
//     memory = input memory; PadFormat::cuda). The GstCudaContext is shared
//     with the neighbours (set_context, context queries,
//     gst_cuda_ensure_element_context honouring device-id) and a CUDA engine
//     is created with it current, so GstCudaMemory of that context reaches
//     process() as Memory::Device views. Pools: cf_allocation.h.
//   - a CPU engine (backend cpu/openmp, or auto without a usable device) on
//     memory:CUDAMemory: an element that writes frames refuses it at caps
//     time with an element error ("backend=cpu cannot process
//     memory:CUDAMemory: use backend=cuda, or cudadownload before this
//     element"). Two kinds of element may read it on the CPU, the buffers
//     mapped to host memory through GstCudaMemory's own staging copy: those
//     without CUDA code (has_cuda FALSE: cudaview) and those that only read
//     (inspect: cudaentropy). Without a usable device there is no CUDA
//     context and CUDA caps are an element error for every element.
// A subclass provides transform_caps (and fixate_caps if needed) and the
// hooks below; it never maps a buffer itself. An element that only reads its
// input (cudaentropy) sets `inspect` instead of `process`: the base then runs
// in passthrough mode and hands it each input frame, mapped for reading
// (CPU backends may then read memory:CUDAMemory too).
#pragma once

#include <gst/base/gstbasetransform.h>

#include <string>

#include "cudafilters/engine.hpp"
#include "raw_frame.h"

G_BEGIN_DECLS

#define GST_TYPE_CF_BACKEND (gst_cf_backend_get_type())
GType gst_cf_backend_get_type(void);  // GEnum mirroring cf::Backend

#define GST_TYPE_CF_BASE (gst_cf_base_get_type())
G_DECLARE_DERIVABLE_TYPE(GstCfBase, gst_cf_base, GST, CF_BASE, GstBaseTransform)

G_END_DECLS

// One frame as process() sees it: its pad format and a view of its memory.
struct CfFrame {
  const cfgst::PadFormat &format;
  const cf::FrameView &view;
};

struct _GstCfBaseClass {
  GstBaseTransformClass parent_class;

  // FALSE for elements without a CUDA implementation: backend=auto and
  // backend=cuda then run on OpenMP (or the serial CPU code).
  gboolean has_cuda;
  // The element's debug category (GST_DEBUG=cudacdf53:5 shows the base's
  // logs too); the base's own "cfbase" when unset.
  GstDebugCategory *debug;

  // Extra checks of the sink format, run when caps arrive (before
  // negotiation); "" when fine, else the message of the element error.
  std::string (*check_input)(GstCfBase *self, const cfgst::PadFormat &in);
  // Called with both negotiated formats; stores what process() needs.
  // "" when the pair can be processed, else the message of the element error.
  std::string (*configure)(GstCfBase *self, const cfgst::PadFormat &in, const cfgst::PadFormat &out);
  // Computes one frame. May throw cf::Error: the base turns it into an
  // element error and GST_FLOW_ERROR.
  void (*process)(GstCfBase *self, cf::Engine &engine, const CfFrame &in, const CfFrame &out);
  // Reads one frame that passes through unchanged. May throw cf::Error.
  void (*inspect)(GstCfBase *self, cf::Engine &engine, const CfFrame &in);
};

// The engine's backend as a string ("" before start), as the property reads.
std::string gst_cf_base_active_backend(GstCfBase *self);

// The end of every transform_caps: `caps` (taken) limited to the template of
// the pad opposite `direction`'s, then to `filter` (may be null).
GstCaps *gst_cf_base_limit_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps, GstCaps *filter);
