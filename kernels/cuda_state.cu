// The CUDA backend's engine state: device checks, stream, workspace cache and
// host <-> device staging of frames.
#include "kernels/cuda_state.cuh"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "cudafilters/error.hpp"

namespace cf::detail {

namespace {

// An empty kernel: asking for its attributes tells whether this build has
// code the device can run (sm_XX machine code for it, or PTX it can JIT).
__global__ void probe_kernel() {}

std::string device_label(int device) { return "CUDA device " + std::to_string(device); }

// Whether the device can run our kernels, probed once per device (it creates
// the device's primary context, which takes a while).
struct Probe {
  bool done = false;
  bool ok = false;
  std::string why;
};

bool probe_device(int device, std::string *why) {
  static std::mutex mutex;
  static std::vector<Probe> probes;
  std::lock_guard<std::mutex> lock(mutex);
  ContextKeeper keep;  // cudaSetDevice below must not change the caller's context
  if (int(probes.size()) <= device) probes.resize(device + 1);
  Probe &p = probes[device];
  if (!p.done) {
    p.done = true;
    p.ok = false;
    int mode = 0, major = 0, minor = 0;
    cudaError_t e = cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device);
    cudaFuncAttributes attr;
    if (e != cudaSuccess) {
      p.why = device_label(device) + ": cannot query it: " + cudaGetErrorString(e);
    } else if (mode == cudaComputeModeProhibited) {
      p.why = device_label(device) + " is in prohibited compute mode (see nvidia-smi -c)";
    } else if ((e = cudaSetDevice(device)) != cudaSuccess) {
      p.why = device_label(device) + ": cannot use it: " + cudaGetErrorString(e);
    } else if ((e = cudaFuncGetAttributes(&attr, probe_kernel)) != cudaSuccess) {
      p.why = device_label(device) + " (compute capability " + std::to_string(major) + "." + std::to_string(minor) +
              "): " + cudaGetErrorString(e) +
              (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction
                   ? "; rebuild with -Dcuda-arch=" + std::to_string(major * 10 + minor)
                   : std::string());
    } else {
      p.ok = true;
    }
    if (!p.ok) cudaGetLastError();  // clear a non-sticky error for later calls
  }
  if (!p.ok && why) *why = p.why;
  return p.ok;
}

// Memory plane i of a staged copy of f: tight rows padded to kDeviceAlign.
struct StagedLayout {
  std::size_t pitch[kMaxPlanes] = {};
  std::size_t offset[kMaxPlanes] = {};
  std::size_t total = 0;
};

StagedLayout staged_layout(const FrameView &f) {
  StagedLayout l;
  for (int i = 0; i < f.n_planes; ++i) {
    l.pitch[i] = align_up(std::size_t(f.planes[i].row_bytes));
    l.offset[i] = l.total;
    l.total += align_up(l.pitch[i] * std::size_t(f.planes[i].rows));
  }
  return l;
}

FrameView staged_view(const FrameView &f, const StagedLayout &l, void *base) {
  FrameView d = f;
  d.memory = Memory::Device;
  for (int i = 0; i < f.n_planes; ++i) {
    d.planes[i].data = static_cast<std::uint8_t *>(base) + l.offset[i];
    d.planes[i].stride = std::ptrdiff_t(l.pitch[i]);
  }
  return d;
}

// True when the components of f cover every byte of memory plane i's rows
// (row_bytes x rows), so that writing them all leaves nothing else to keep.
// Checks one pixel's bytes (a bit mask) and the row length; components of one
// plane with different pixel strides count as not covering it, which only
// costs an upload. Runs per frame, so it allocates nothing.
bool plane_covered(const FrameView &f, int i) {
  const MemoryPlane &p = f.planes[i];
  const int size = sample_size(f.type);
  int pixel_bytes = 0, width = 0;
  std::uint64_t bytes = 0;
  for (int c = 0; c < f.n_components; ++c) {
    const Component &k = f.components[c];
    if (k.plane != i) continue;
    const int pitch = k.pixel_stride * size;
    if (k.height < p.rows || pitch > 64 || k.offset + size > pitch) return false;
    if (pixel_bytes && (pitch != pixel_bytes || k.width != width)) return false;
    pixel_bytes = pitch;
    width = k.width;
    bytes |= ((std::uint64_t(1) << size) - 1) << k.offset;
  }
  const std::uint64_t all = pixel_bytes == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << pixel_bytes) - 1;
  return pixel_bytes > 0 && bytes == all && std::int64_t(width) * pixel_bytes == p.row_bytes;
}

// Uploads memory plane i of host frame f into device frame d on the stream.
void upload_plane(CudaState *s, const FrameView &f, const FrameView &d, int i, const char *frame) {
  check(cudaMemcpy2DAsync(d.planes[i].data, std::size_t(d.planes[i].stride), f.planes[i].data,
                          std::size_t(f.planes[i].stride), f.planes[i].row_bytes, f.planes[i].rows,
                          cudaMemcpyHostToDevice, s->stream),
        [&] { return "uploading plane " + std::to_string(i) + " of the " + frame + " frame"; });
}

}  // namespace

void throw_cuda(cudaError_t e, const std::string &what) {
  throw Error("CUDA error while " + what + ": " + cudaGetErrorString(e) + " (" + cudaGetErrorName(e) + ")",
              ErrorKind::Device);
}

void CudaState::replace(DeviceBuffer &b, std::size_t capacity, const std::string &what) {
  // Work queued earlier may still use the old buffer.
  check(cudaStreamSynchronize(stream), [&] { return "waiting for the stream before growing " + what; });
  if (b.ptr) check(cudaFree(b.ptr), [&] { return "freeing " + what; });
  b.ptr = nullptr;
  b.capacity = 0;
  check(cudaMalloc(&b.ptr, std::max<std::size_t>(capacity, 1)),
        [&] { return "allocating " + std::to_string(capacity) + " bytes of " + what + " on " + name; });
  b.capacity = capacity;
  ++allocations;
}

namespace {
// A slot's new capacity for `bytes`: at least a quarter more than it had,
// so that slowly growing sizes settle quickly, in whole MiB.
std::size_t grown(std::size_t bytes, std::size_t capacity) {
  return align_up(std::max(bytes, capacity + capacity / 4), std::size_t(1) << 20);
}
}  // namespace

void *CudaState::reserve(Slot slot, std::size_t bytes) {
  DeviceBuffer &b = slots[int(slot)];
  if (bytes <= b.capacity) return b.ptr;
  replace(b, grown(bytes, b.capacity), "device workspace");
  return b.ptr;
}

void *CudaState::reserve_host(HostSlot slot, std::size_t bytes) {
  DeviceBuffer &b = host_slots[int(slot)];
  if (bytes <= b.capacity) return b.ptr;
  const std::size_t capacity = grown(bytes, b.capacity);
  check(cudaStreamSynchronize(stream), "waiting for the stream before growing pinned host memory");
  if (b.ptr) check(cudaFreeHost(b.ptr), "freeing pinned host memory");
  b.ptr = nullptr;
  b.capacity = 0;
  check(cudaHostAlloc(&b.ptr, capacity, cudaHostAllocPortable),
        [&] { return "allocating " + std::to_string(capacity) + " bytes of pinned host memory"; });
  b.capacity = capacity;
  ++allocations;
  return b.ptr;
}

bool cuda_usable(int device_id, std::string *why) {
  int n = 0;
  const cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    if (why) *why = std::string("no usable CUDA driver or device: ") + cudaGetErrorString(e);
    cudaGetLastError();
    return false;
  }
  if (n == 0) {
    if (why) *why = "no CUDA device found";
    return false;
  }
  if (device_id < 0 || device_id >= n) {
    if (why)
      *why = "device-id " + std::to_string(device_id) + " is out of range: this machine has " + std::to_string(n) +
             " CUDA device(s), numbered from 0";
    return false;
  }
  return probe_device(device_id, why);
}

CudaState *cuda_create(int device_id) {
  auto s = std::unique_ptr<CudaState, void (*)(CudaState *)>(new CudaState, cuda_destroy);
  s->device = device_id;
  {
    ContextKeeper keep;
    const CUcontext current = current_context();
    if (current && context_device(current) == device_id) {
      s->context = current;  // e.g. the GstCudaContext an element pushed
    } else {
      // cudaSetDevice initialises the primary context and makes it current.
      check(cudaSetDevice(device_id), [&] { return "making " + device_label(device_id) + " current"; });
      s->context = current_context();
    }
  }
  DeviceScope scope(s.get());
  check(cudaStreamCreateWithFlags(&s->own_stream, cudaStreamNonBlocking), "creating a CUDA stream");
  s->stream = s->own_stream;
  cudaDeviceProp prop;
  check(cudaGetDeviceProperties(&prop, device_id),
        [&] { return "reading the properties of " + device_label(device_id); });
  s->name = prop.name;
  return s.release();
}

void cuda_destroy(CudaState *s) {
  if (!s) return;
  // Best effort, never throws: the engine is going away.
  {
    DeviceScope scope(s);
    if (s->stream) cudaStreamSynchronize(s->stream);
    for (DeviceBuffer &b : s->slots)
      if (b.ptr) cudaFree(b.ptr);
    for (DeviceBuffer &b : s->host_slots)
      if (b.ptr) cudaFreeHost(b.ptr);
    if (s->own_stream) cudaStreamDestroy(s->own_stream);
  }
  cudaGetLastError();
  delete s;
}

void cuda_synchronize(CudaState *s) {
  DeviceScope scope(s);
  check(cudaStreamSynchronize(s->stream), "waiting for the CUDA stream");
}

void cuda_use_legacy_stream(CudaState *s, bool on) {
  DeviceScope scope(s);
  check(cudaStreamSynchronize(s->stream), "waiting for the CUDA stream");
  s->stream = on ? cudaStreamLegacy : s->own_stream;
}

std::string cuda_device_name(const CudaState *s) { return s ? s->name : "none"; }

void *pinned_alloc(std::size_t bytes, int device_id) {
  if (!cuda_usable(device_id, nullptr)) return nullptr;
  ContextKeeper keep;
  if (!current_context() && cudaSetDevice(device_id) != cudaSuccess) return nullptr;
  void *p = nullptr;
  // Portable: usable by every context, GStreamer's and the primary one.
  if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return p;
}

void pinned_free(void *p) {
  if (p) cudaFreeHost(p);
}

bool memory_info(int device_id, std::size_t *free_bytes, std::size_t *total_bytes) {
  ContextKeeper keep;
  if (!(current_context() && context_device(current_context()) == device_id) &&
      cudaSetDevice(device_id) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  if (cudaMemGetInfo(free_bytes, total_bytes) == cudaSuccess) return true;
  cudaGetLastError();
  return false;
}

void *device_alloc(CudaState *s, std::size_t bytes) {
  DeviceScope scope(s);
  void *p = nullptr;
  check(cudaMalloc(&p, bytes), [&] { return "allocating " + std::to_string(bytes) + " bytes on " + s->name; });
  return p;
}

void *workspace(CudaState *s, std::size_t bytes) {
  DeviceScope scope(s);
  return s->reserve(Slot::Caller, bytes);
}

long long workspace_allocations(const CudaState *s) { return s->allocations; }

void device_free(CudaState *s, void *p) {
  DeviceScope scope(s);
  if (p) cudaFree(p);
}

void copy(CudaState *s, void *dst, const void *src, std::size_t bytes, CopyKind kind) {
  DeviceScope scope(s);
  const cudaMemcpyKind k = kind == CopyKind::HostToDevice   ? cudaMemcpyHostToDevice
                           : kind == CopyKind::DeviceToHost ? cudaMemcpyDeviceToHost
                                                            : cudaMemcpyDeviceToDevice;
  check(cudaMemcpyAsync(dst, src, bytes, k, s->stream), "copying between host and device");
  check(cudaStreamSynchronize(s->stream), "copying between host and device");
}

void zero_async(CudaState *s, void *dst, std::size_t pitch, std::size_t width, std::size_t height) {
  DeviceScope scope(s);
  check(cudaMemset2DAsync(dst, pitch, 0, width, height, s->stream), "zeroing the padding of a device frame");
}

void check_device_alignment(const FrameView &f, const char *what) {
  const int size = sample_size(f.type);
  for (int c = 0; c < f.n_components; ++c) {
    const Component &k = f.components[c];
    const MemoryPlane &p = f.planes[k.plane];
    const auto address = reinterpret_cast<std::uintptr_t>(p.data) + std::uintptr_t(k.offset);
    if (address % size || p.stride % size)
      throw Error(std::string(what) + " frame in device memory: component " + std::to_string(c) +
                  " is not aligned to its " + std::to_string(size) + "-byte samples");
  }
}

FrameView stage_source(CudaState *s, const FrameView &f, Slot slot) {
  if (f.memory == Memory::Device) {
    check_device_alignment(f, "source");
    return f;
  }
  s->host_frame_staged = true;
  const StagedLayout l = staged_layout(f);
  const FrameView d = staged_view(f, l, s->reserve(slot, l.total));
  for (int i = 0; i < f.n_planes; ++i) upload_plane(s, f, d, i, "source");
  return d;
}

FrameView stage_destination(CudaState *s, const FrameView &f, Slot slot) {
  if (f.memory == Memory::Device) {
    check_device_alignment(f, "destination");
    return f;
  }
  s->host_frame_staged = true;
  const StagedLayout l = staged_layout(f);
  const FrameView d = staged_view(f, l, s->reserve(slot, l.total));
  for (int i = 0; i < f.n_planes; ++i)
    if (!plane_covered(f, i)) upload_plane(s, f, d, i, "destination");
  return d;
}

void finish_destination(CudaState *s, const FrameView &f, const FrameView &staged) {
  if (f.memory == Memory::Host)
    for (int i = 0; i < f.n_planes; ++i)
      check(cudaMemcpy2DAsync(f.planes[i].data, f.planes[i].stride, staged.planes[i].data, staged.planes[i].stride,
                              f.planes[i].row_bytes, f.planes[i].rows, cudaMemcpyDeviceToHost, s->stream),
            [&] { return "downloading plane " + std::to_string(i) + " of the destination frame"; });
  const bool wait = s->stream != cudaStreamLegacy || s->host_frame_staged;
  s->host_frame_staged = false;
  if (wait) check(cudaStreamSynchronize(s->stream), "running the transform on the CUDA stream");
}

}  // namespace cf::detail
