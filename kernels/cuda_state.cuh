// The CUDA backend's per-engine state and its host-side helpers (internal to
// kernels/): error checking, the device workspace cache, and staging of
// host frames through device buffers.
//
// Every entry point of kernels/ starts with `DeviceScope scope(state)`, which
// makes the engine's context current on the calling thread for the call (see
// cuda_context.cuh: GStreamer's context or the device's primary one). All copies and kernels of an engine run in order
// on its one non-blocking stream; nothing waits on the host between them, only at the end of a call that must return
// with its result in place.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>

#include "cudafilters/frame.hpp"
#include "kernels/cuda_context.cuh"
#include "kernels/cuda_device.hpp"

namespace cf::detail {

// Throws cf::Error "CUDA error while <what>: <CUDA's message> (<error name>)".
[[noreturn]] void throw_cuda(cudaError_t e, const std::string &what);
inline void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) throw_cuda(e, what);
}
// Same, with the message built only on failure: check(e, [&] { return "..." + ...; }).
template <class Describe>
void check(cudaError_t e, Describe &&describe) {
  if (e != cudaSuccess) throw_cuda(e, describe());
}
// The device buffers an engine keeps between frames. Each slot grows when a
// call needs more than it holds and is otherwise reused, so once frame sizes
// are stable no call allocates or frees device memory.
// Caller: Engine::device_workspace; J2kTier1: the JPEG 2000 decoder's tier-1
// (kernels/j2k_tier1_decode_cuda.cu); J2kCoefficients and J2kReconstruct: its
// frame's coefficient array and the reconstruction's tables and work blocks
// (kernels/j2k_reconstruct_cuda.cu); Histograms: the entropy probe's counts
// (kernels/entropy_cuda.cu, HistogramSets).
enum class Slot { Source, Destination, Scratch, Caller, J2kTier1, J2kCoefficients, J2kReconstruct, Histograms, Count };

struct DeviceBuffer {
  void *ptr = nullptr;
  std::size_t capacity = 0;
};

// Pinned host memory an engine keeps for the copies of one kind of call,
// grown like the device slots: copies between pinned and device memory run
// on the copy engines at full speed, where pageable ones go through the
// driver's own staging (milliseconds a frame at 4K, and in the
// driver's lock with several engines). J2kEncoder: what the JPEG 2000
// encoder's tier-1 brings back (kernels/j2k_encode_cuda.cu); J2kDecoder: what its
// decoder's tier-1 uploads (kernels/j2k_tier1_decode_cuda.cu).
enum class HostSlot { J2kEncoder, J2kDecoder, Count };

// Slot::Histograms holds two sets of `set_words` counts. A call counts into
// set `next`, which must be zero there, and its kernel clears the other set
// for the call after, so that no call needs a memset of its own. dirty[i]:
// how many words at the start of set i may not be zero (all of them when
// the slot is new; a call that fails leaves its set dirty, and the next
// call clears it first).
struct HistogramSets {
  std::size_t set_words = 0;
  int next = 0;
  std::size_t dirty[2] = {};
};

struct CudaState {
  int device = 0;
  CUcontext context = nullptr;        // adopted from the creating thread, or the primary one
  cudaStream_t stream = nullptr;      // own_stream, or cudaStreamLegacy (Engine::use_legacy_stream)
  cudaStream_t own_stream = nullptr;  // non-blocking, created with the state
  // On the legacy stream a call whose frames are all on the device returns
  // without waiting; staging a host frame sets this, and the call then waits.
  bool host_frame_staged = false;
  std::string name;  // "NVIDIA H100 80GB HBM3"
  DeviceBuffer slots[int(Slot::Count)];
  DeviceBuffer host_slots[int(HostSlot::Count)];  // pinned host memory
  long long allocations = 0;  // cudaMalloc calls made for the workspace and other buffers of the engine so far
  HistogramSets histogram_sets;

  // At least `bytes` of device memory for `slot` (contents not kept when it grows).
  void *reserve(Slot slot, std::size_t bytes);
  // At least `bytes` of pinned host memory for `slot` (contents not kept
  // when it grows; the stream is waited for first).
  void *reserve_host(HostSlot slot, std::size_t bytes);
  // b freed and allocated again with `capacity` bytes (at least 1), once
  // the stream's queued work is done; `what` names it in errors.
  void replace(DeviceBuffer &b, std::size_t capacity, const std::string &what);
};

// Makes the engine's context current on this thread for the lifetime of the scope.
class DeviceScope {
 public:
  explicit DeviceScope(const CudaState *s) : context_(s->context) {}

 private:
  ContextScope context_;
};

// Alignment of everything the staging and scratch code places in a buffer.
constexpr std::size_t kDeviceAlign = 256;
constexpr std::size_t align_up(std::size_t n, std::size_t a = kDeviceAlign) { return (n + a - 1) / a * a; }

// A frame the kernels can read: `f` itself when it is in device memory
// (after checking its alignment), otherwise a copy of its memory planes in the
// engine's `slot` buffer, uploaded on the stream (cudaMemcpy2DAsync per plane;
// pinned host memory makes that asynchronous). Same components, device pointers.
FrameView stage_source(CudaState *s, const FrameView &f, Slot slot);

// A frame the kernels can write for destination `f`: `f` itself in device
// memory, otherwise device planes in `slot` with f's geometry. Bytes of a host
// plane that no component covers (padding, an unused channel) are uploaded
// first so that finish_destination writes them back unchanged.
FrameView stage_destination(CudaState *s, const FrameView &f, Slot slot);

// Downloads `staged` into host frame `f` (nothing to do for a device frame)
// and waits for the stream: when it returns, f holds the result. On the
// legacy stream with only device frames in the call it does not wait: later
// work on that stream, or on any blocking stream, is ordered after it.
void finish_destination(CudaState *s, const FrameView &f, const FrameView &staged);

// Throws cf::Error naming `what` when a device frame's samples are not aligned
// to their size (the kernels load whole samples).
void check_device_alignment(const FrameView &f, const char *what);

}  // namespace cf::detail
