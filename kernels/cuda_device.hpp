// The CUDA device, stream and memory entries core/ needs from kernels/
// (kernels/cuda_state.cu), declared without CUDA headers. Each technique's
// entries are in kernels/<technique>_cuda.hpp. Builds without CUDA link
// core/src/cuda_stub.cpp instead, which reports "no CUDA".
#pragma once

#include <cstddef>
#include <string>

namespace cf::detail {
struct CudaState;
bool cuda_usable(int device_id, std::string *why);
CudaState *cuda_create(int device_id);  // throws cf::Error
void cuda_destroy(CudaState *s);        // accepts nullptr
void cuda_synchronize(CudaState *s);
void cuda_use_legacy_stream(CudaState *s, bool on);  // Engine::use_legacy_stream
std::string cuda_device_name(const CudaState *s);
void *pinned_alloc(std::size_t bytes, int device_id);  // nullptr on failure
void pinned_free(void *p);
bool memory_info(int device_id, std::size_t *free_bytes, std::size_t *total_bytes);  // false on failure
void *device_alloc(CudaState *s, std::size_t bytes);                                 // throws cf::Error
void device_free(CudaState *s, void *p);
void *workspace(CudaState *s, std::size_t bytes);     // Engine::device_workspace; throws cf::Error
long long workspace_allocations(const CudaState *s);  // Engine::workspace_allocations
enum class CopyKind { HostToDevice, DeviceToHost, DeviceToDevice };
void copy(CudaState *s, void *dst, const void *src, std::size_t bytes, CopyKind kind);  // synchronous
// Zeroes `height` rows of `width` bytes, `pitch` apart, in device memory:
// queued on the state's stream, not waited for (cf::zero_padding).
void zero_async(CudaState *s, void *dst, std::size_t pitch, std::size_t width, std::size_t height);
}  // namespace cf::detail
