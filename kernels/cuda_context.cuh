// Which CUDA context the engine's work runs in.
//
// An engine adopts the context current on the thread that creates it when
// that context belongs to the engine's device (GStreamer's GstCudaContext,
// pushed by the element), otherwise it uses the device's primary context (the
// CUDA runtime's default). Every entry point then makes that context current
// for its duration and restores the caller's afterwards, so the kernels run
// correctly whichever context the caller had current, and GStreamer's
// push/pop pairs stay balanced. The driver functions come through
// cudaGetDriverEntryPointByVersion, so nothing links libcuda directly and the
// library still loads on machines without a driver.
#pragma once

#include <cuda.h>

namespace cf::detail {

CUcontext current_context();        // nullptr when none is current
int context_device(CUcontext ctx);  // -1 when it cannot be told

// Makes `ctx` current for the scope (push/pop), unless it already is.
class ContextScope {
 public:
  explicit ContextScope(CUcontext ctx);
  ~ContextScope();
  ContextScope(const ContextScope &) = delete;
  ContextScope &operator=(const ContextScope &) = delete;

 private:
  bool pushed_ = false;
};

// Restores the caller's current context at the end of the scope, whatever the
// runtime calls inside it (cudaSetDevice) made current.
class ContextKeeper {
 public:
  ContextKeeper();
  ~ContextKeeper();
  ContextKeeper(const ContextKeeper &) = delete;
  ContextKeeper &operator=(const ContextKeeper &) = delete;

 private:
  CUcontext saved_;
};

}  // namespace cf::detail
