#include "cudafilters/engine.hpp"

#include "cf_config.h"
#include "cudafilters/error.hpp"
#include "kernels/cuda_device.hpp"

namespace cf {

const char *backend_name(Backend b) {
  switch (b) {
    case Backend::Auto: return "auto";
    case Backend::Cuda: return "cuda";
    case Backend::OpenMP: return "openmp";
    case Backend::Cpu: return "cpu";
  }
  return "?";
}

bool cuda_device_usable(int device_id, std::string *why) { return detail::cuda_usable(device_id, why); }

bool cuda_memory_info(int device_id, std::size_t *free_bytes, std::size_t *total_bytes) {
  return detail::cuda_usable(device_id, nullptr) && detail::memory_info(device_id, free_bytes, total_bytes);
}

Backend resolve_backend(Backend requested, int device_id) {
  if (requested != Backend::Auto) return requested;
  if (cuda_device_usable(device_id)) return Backend::Cuda;
  return CF_HAVE_OPENMP ? Backend::OpenMP : Backend::Cpu;
}

Engine::Engine(Backend requested, int threads, int device_id)
    : backend_(resolve_backend(requested, device_id)),
      threads_(threads),
      device_id_(device_id),
      cuda_(nullptr, detail::cuda_destroy) {
  if (threads < 0) throw Error("threads must be >= 0 (0 = all cores)");
  if (backend_ == Backend::OpenMP && !CF_HAVE_OPENMP)
    throw Error("backend=openmp: this build of cudafilters has no OpenMP");
  if (backend_ == Backend::Cuda) {
    std::string why;
    if (!cuda_device_usable(device_id, &why))
      throw Error("backend=cuda: CUDA device " + std::to_string(device_id) + " is not usable: " + why);
    cuda_.reset(detail::cuda_create(device_id));
  }
}

Engine::~Engine() = default;

std::string Engine::describe() const {
  std::string s = backend_name(backend_);
  if (backend_ == Backend::Cuda)
    s += " (device " + std::to_string(device_id_) + ": " + detail::cuda_device_name(cuda_.get()) + ")";
  if (backend_ == Backend::OpenMP) s += threads_ ? " (" + std::to_string(threads_) + " threads)" : " (all cores)";
  return s;
}

void Engine::use_legacy_stream(bool on) {
  if (cuda_) detail::cuda_use_legacy_stream(cuda_.get(), on);
}

void Engine::synchronize() {
  if (cuda_) detail::cuda_synchronize(cuda_.get());
}

namespace {
detail::CudaState *need_cuda(detail::CudaState *s) {
  if (!s) throw Error("device memory needs an engine with backend=cuda");
  return s;
}
}  // namespace

void *Engine::device_alloc(std::size_t bytes) { return detail::device_alloc(need_cuda(cuda_.get()), bytes); }
void Engine::device_free(void *p) {
  if (cuda_) detail::device_free(cuda_.get(), p);
}
void *Engine::device_workspace(std::size_t bytes) { return detail::workspace(need_cuda(cuda_.get()), bytes); }
long long Engine::workspace_allocations() const { return cuda_ ? detail::workspace_allocations(cuda_.get()) : 0; }
void Engine::upload(void *dst, const void *src, std::size_t bytes) {
  detail::copy(need_cuda(cuda_.get()), dst, src, bytes, detail::CopyKind::HostToDevice);
}
void Engine::download(void *dst, const void *src, std::size_t bytes) {
  detail::copy(need_cuda(cuda_.get()), dst, src, bytes, detail::CopyKind::DeviceToHost);
}
void Engine::device_copy(void *dst, const void *src, std::size_t bytes) {
  detail::copy(need_cuda(cuda_.get()), dst, src, bytes, detail::CopyKind::DeviceToDevice);
}

void *pinned_alloc(std::size_t bytes, int device_id) { return detail::pinned_alloc(bytes, device_id); }
void pinned_free(void *p) { detail::pinned_free(p); }

}  // namespace cf
