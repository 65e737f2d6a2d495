#include "kernels/cuda_context.cuh"

#include <cuda_runtime.h>

namespace cf::detail {

namespace {

struct DriverApi {
  CUresult (*get_current)(CUcontext *) = nullptr;
  CUresult (*set_current)(CUcontext) = nullptr;
  CUresult (*push)(CUcontext) = nullptr;
  CUresult (*pop)(CUcontext *) = nullptr;
  CUresult (*get_device)(CUdevice *) = nullptr;
  bool ok = false;
};

template <class Fn>
bool load(const char *symbol, Fn &fn) {
  void *p = nullptr;
  cudaDriverEntryPointQueryResult status;
  if (cudaGetDriverEntryPointByVersion(symbol, &p, 12000, cudaEnableDefault, &status) != cudaSuccess ||
      status != cudaDriverEntryPointSuccess) {
    cudaGetLastError();
    return false;
  }
  fn = reinterpret_cast<Fn>(p);
  return true;
}

const DriverApi &driver() {
  static const DriverApi api = [] {
    DriverApi a;
    a.ok = load("cuCtxGetCurrent", a.get_current) && load("cuCtxSetCurrent", a.set_current) &&
           load("cuCtxPushCurrent", a.push) && load("cuCtxPopCurrent", a.pop) && load("cuCtxGetDevice", a.get_device);
    return a;
  }();
  return api;
}

}  // namespace

CUcontext current_context() {
  CUcontext ctx = nullptr;
  if (driver().ok && driver().get_current(&ctx) != CUDA_SUCCESS) ctx = nullptr;
  return ctx;
}

int context_device(CUcontext ctx) {
  if (!ctx || !driver().ok) return -1;
  ContextScope scope(ctx);
  CUdevice dev = -1;
  return driver().get_device(&dev) == CUDA_SUCCESS ? int(dev) : -1;
}

ContextScope::ContextScope(CUcontext ctx) {
  if (ctx && driver().ok && current_context() != ctx) pushed_ = driver().push(ctx) == CUDA_SUCCESS;
}

ContextScope::~ContextScope() {
  if (pushed_) {
    CUcontext popped;
    driver().pop(&popped);
  }
}

ContextKeeper::ContextKeeper() : saved_(current_context()) {}

ContextKeeper::~ContextKeeper() {
  if (driver().ok && current_context() != saved_) driver().set_current(saved_);
}

}  // namespace cf::detail
