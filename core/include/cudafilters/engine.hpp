// The Engine owns what a backend keeps between frames: the resolved backend,
// the OpenMP thread count, and for CUDA the device, a non-default stream and
// the cached device workspaces. Create one per element (or per thread of an
// application); it is not thread-safe.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace cf {

enum class Backend { Auto, Cuda, OpenMP, Cpu };
const char *backend_name(Backend b);

// True when CUDA device `device_id` can run kernels; otherwise false with the
// reason in *why (no CUDA in this build, no driver, no such device, ...).
bool cuda_device_usable(int device_id, std::string *why = nullptr);

// Free and total memory of CUDA device `device_id` (cudaMemGetInfo), for
// applications and tools that watch GPU memory (cf-soak, the fault tests);
// false when the build has no CUDA or the device is not usable.
bool cuda_memory_info(int device_id, std::size_t *free_bytes, std::size_t *total_bytes);

// Auto -> Cuda when cuda_device_usable(device_id), else OpenMP (Cpu when the
// build has no OpenMP). Explicit choices are returned unchanged.
Backend resolve_backend(Backend requested, int device_id);

namespace detail {
struct CudaState;
}

// Page-locked host memory for buffers that cross PCIe every frame (the
// plugin's system-memory pools): copies from it run at full speed and
// asynchronously. nullptr when the build has no CUDA or no device is usable.
void *pinned_alloc(std::size_t bytes, int device_id = 0);
void pinned_free(void *p);

class Engine {
 public:
  // Resolves `requested`; throws cf::Error when Cuda is requested but the
  // device is unusable, or OpenMP is requested in a build without it.
  Engine(Backend requested, int threads = 0, int device_id = 0);
  ~Engine();
  Engine(const Engine &) = delete;
  Engine &operator=(const Engine &) = delete;

  Backend backend() const { return backend_; }
  int threads() const { return threads_; }  // 0 = all cores
  int device_id() const { return device_id_; }
  void set_threads(int n) { threads_ = n; }
  std::string describe() const;  // e.g. "cuda (device 0: NVIDIA H100)"

  // CUDA state (stream, workspaces); nullptr unless backend() == Cuda.
  detail::CudaState *cuda() const { return cuda_.get(); }
  // Waits for all queued device work of this engine.
  void synchronize();
  // CUDA engines (others ignore it): on = the engine's work goes on its CUDA
  // context's legacy default stream instead of a stream of its own, and a
  // call whose frames are all in device memory returns once its work is
  // queued, without waiting for it. Whatever is queued later on that stream
  // or on any blocking stream of the context (GStreamer 1.22 copies
  // GstCudaMemory there) runs after it, and device frames written on them
  // before the call are complete when it starts; synchronize() waits for it.
  // Calls with a frame in host memory still return complete. Off (the
  // default) = every call returns complete.
  void use_legacy_stream(bool on);

  // Device memory in this engine's CUDA context, for applications and
  // benchmarks that keep frames on the GPU (Memory::Device views). CUDA
  // engines only: other backends throw cf::Error.
  void *device_alloc(std::size_t bytes);
  void device_free(void *p);
  void upload(void *device_dst, const void *host_src, std::size_t bytes);
  void download(void *host_dst, const void *device_src, std::size_t bytes);
  void device_copy(void *device_dst, const void *device_src, std::size_t bytes);
  // A device buffer of at least `bytes` that the engine keeps for its caller
  // between calls (it grows when asked for more, its contents are then
  // lost, and it goes with the engine): intermediate frames of work made of
  // several calls on device frames, such as cudainverse undoing a chain in
  // CUDA memory. No allocation once sizes are stable. CUDA engines only.
  void *device_workspace(std::size_t bytes);
  // cudaMalloc calls made so far for the engine's own buffers (staging,
  // scratch, device_workspace); 0 without CUDA. Flat once frame sizes repeat:
  // what tests check, unlike device-wide free memory, which other processes
  // change.
  long long workspace_allocations() const;

 private:
  Backend backend_;
  int threads_;
  int device_id_;
  std::unique_ptr<detail::CudaState, void (*)(detail::CudaState *)> cuda_;
};

}  // namespace cf
