// The CPU emulation of the CUDA runtime and execution model: see emulator.hpp.
#include "emulator.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

uint3 threadIdx, blockIdx;

// ------------------------------------------------------------------ fibers

// Saves the callee-saved registers and the stack pointer of the running
// fiber in *save_sp and resumes the one whose stack pointer is new_sp (System
// V x86-64). A new fiber starts in emu_trampoline, which calls r13(r12).
extern "C" void cf_emu_switch(void **save_sp, void *new_sp);
extern "C" void cf_emu_trampoline();
asm(R"(
.text
.globl cf_emu_switch
.type cf_emu_switch,@function
cf_emu_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
.globl cf_emu_trampoline
.type cf_emu_trampoline,@function
cf_emu_trampoline:
  movq %r12, %rdi
  callq *%r13
  ud2
)");

namespace {

[[noreturn]] void fail(const char *what) {
  std::fprintf(stderr, "CUDA emulation: %s\n", what);
  std::abort();
}

struct Barrier {
  int n = 0, count = 0;
  unsigned generation = 0;
};

struct Fiber {
  void *sp = nullptr;
  bool done = false;
  std::vector<char> stack;
};

constexpr std::size_t kStackBytes = 1 << 16;
constexpr int kWarp = 32;

struct Scheduler {
  std::vector<Fiber> fibers;
  void *scheduler_sp = nullptr;
  int current = 0;
  long long idle = 0;  // yields since a barrier last opened or a thread ended
  Barrier block;
  std::vector<Barrier> warps;
  std::vector<int> slots;  // shuffle exchange, one per thread
  void (*body)(void *) = nullptr;
  void *arg = nullptr;
  bool reverse = false;
  long long launches = 0, blocks = 0;
};
Scheduler g;

void yield() {
  if (++g.idle > 100000000LL) fail("deadlock: a barrier that some threads never reach");
  cf_emu_switch(&g.fibers[g.current].sp, g.scheduler_sp);
}

void wait(Barrier &b) {
  const unsigned generation = b.generation;
  if (++b.count == b.n) {
    b.count = 0;
    ++b.generation;
    g.idle = 0;
    return;
  }
  while (b.generation == generation) yield();
}

void fiber_main(void *) {
  g.body(g.arg);
  g.fibers[g.current].done = true;
  g.idle = 0;
  cf_emu_switch(&g.fibers[g.current].sp, g.scheduler_sp);
  fail("a finished thread was resumed");
}

void run_block(int threads) {
  g.fibers.resize(threads);
  for (Fiber &f : g.fibers) {
    if (f.stack.empty()) f.stack.resize(kStackBytes);
    f.done = false;
    // Initial stack, popped by cf_emu_switch: r15 r14 r13 r12 rbx rbp, return
    // address; 16-byte aligned when the trampoline calls the body.
    const auto top = reinterpret_cast<std::uintptr_t>(f.stack.data() + f.stack.size()) & ~std::uintptr_t(15);
    void **sp = reinterpret_cast<void **>(top - 72);
    std::memset(sp, 0, 72);
    sp[2] = reinterpret_cast<void *>(&fiber_main);
    sp[6] = reinterpret_cast<void *>(&cf_emu_trampoline);
    f.sp = sp;
  }
  g.block = Barrier{threads};
  g.warps.assign((threads + kWarp - 1) / kWarp, Barrier{threads < kWarp ? threads : kWarp});
  g.slots.assign(threads, 0);
  for (int alive = threads; alive > 0;) {
    alive = 0;
    for (int i = 0; i < threads; ++i) {
      const int t = g.reverse ? threads - 1 - i : i;
      if (g.fibers[t].done) continue;
      g.current = t;
      threadIdx = {unsigned(t), 0, 0};
      cf_emu_switch(&g.scheduler_sp, g.fibers[t].sp);
      if (!g.fibers[t].done) ++alive;
    }
  }
}

int exchange(unsigned mask, int value, int source_lane) {
  if (mask != 0xffffffffu) fail("only full-warp shuffles are emulated");
  const int t = g.current, lane = t % kWarp;
  Barrier &b = g.warps[t / kWarp];
  g.slots[t] = value;
  wait(b);
  const int r = source_lane >= 0 && source_lane < kWarp ? g.slots[t - lane + source_lane] : value;
  wait(b);
  return r;
}

}  // namespace

void __syncthreads() { wait(g.block); }
int __shfl_down_sync(unsigned mask, int value, int delta) {
  return exchange(mask, value, int(threadIdx.x) % kWarp + delta);
}
int __shfl_up_sync(unsigned mask, int value, int delta) {
  return exchange(mask, value, int(threadIdx.x) % kWarp - delta);
}

int __shfl_sync(unsigned mask, int value, int source_lane) { return exchange(mask, value, source_lane); }
void __syncwarp(unsigned mask) {
  if (mask != 0xffffffffu) fail("only full-warp __syncwarp is emulated");
  wait(g.warps[g.current / kWarp]);
}
void __nanosleep(unsigned) { yield(); }

namespace cf_emulation {
void run(int blocks, int threads, void (*body)(void *), void *arg) {
  // A block of fewer than 32 threads is one partial warp (as on a GPU);
  // warp shuffles in it are not emulated.
  if (blocks < 1 || threads < 1 || threads > 1024 || (threads > kWarp && threads % kWarp))
    fail("invalid launch configuration");
  ++g.launches;
  g.blocks += blocks;
  g.body = body;
  g.arg = arg;
  for (int i = 0; i < blocks; ++i) {
    blockIdx = {unsigned(g.reverse ? blocks - 1 - i : i), 0, 0};
    run_block(threads);
  }
}
void set_reverse_order(bool reverse) { g.reverse = reverse; }
void warp_gather(unsigned mask, int value, int out[kWarp]) {
  if (mask != 0xffffffffu) fail("only full-warp operations are emulated");
  const int t = g.current, first = t - t % kWarp;
  Barrier &b = g.warps[t / kWarp];
  g.slots[t] = value;
  wait(b);
  for (int i = 0; i < kWarp; ++i) out[i] = g.slots[first + i];
  wait(b);
}
void yield_thread() { yield(); }
long long launches() { return g.launches; }
long long blocks() { return g.blocks; }
}  // namespace cf_emulation

// ------------------------------------------------------------------ memory

namespace {
std::map<const char *, std::size_t> &allocations() {
  static std::map<const char *, std::size_t> a;
  return a;
}
std::size_t g_in_use = 0;
const char *g_last_base = nullptr;  // cache of the last allocation hit
std::size_t g_last_size = 0;

bool on_device(const void *p, std::size_t bytes) {
  const char *c = static_cast<const char *>(p);
  if (g_last_base && c >= g_last_base && c + bytes <= g_last_base + g_last_size) return true;
  auto it = allocations().upper_bound(c);
  if (it == allocations().begin()) return false;
  --it;
  if (c + bytes > it->first + it->second) return false;
  g_last_base = it->first;
  g_last_size = it->second;
  return true;
}
}  // namespace

void cf_emulate_check_access(const void *p, std::size_t bytes) {
  if (on_device(p, bytes)) return;
  const char *c = static_cast<const char *>(p);
  auto it = allocations().upper_bound(c);
  if (it != allocations().begin()) {
    --it;
    std::fprintf(stderr, "CUDA emulation: %zu bytes at %p, %td bytes past the start of the %zu-byte allocation at %p\n",
                 bytes, p, c - it->first, it->second, static_cast<const void *>(it->first));
  }
  std::fprintf(stderr, "CUDA emulation: block %u, thread %u\n", blockIdx.x, threadIdx.x);
  fail("a kernel touched memory outside every device allocation");
}

void cf_emulate_check(bool ok, const char *what, const char *file, int line) {
  if (ok) return;
  std::fprintf(stderr, "CUDA emulation: %s:%d: %s does not hold (block %u, thread %u)\n", file, line, what, blockIdx.x,
               threadIdx.x);
  fail("a kernel invariant does not hold");
}

const char *cudaGetErrorString(cudaError_t e) { return e == cudaSuccess ? "no error" : "emulated error"; }
const char *cudaGetErrorName(cudaError_t e) { return e == cudaSuccess ? "cudaSuccess" : "cudaErrorEmulated"; }
cudaError_t cudaGetLastError() { return cudaSuccess; }
cudaError_t cudaGetDeviceCount(int *n) {
  *n = 1;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidDevice; }
cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int) {
  *value = attr == cudaDevAttrComputeCapabilityMajor ? 9 : 0;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int) {
  std::strcpy(prop->name, "CPU emulation");
  return cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned) {
  static char token;
  *stream = reinterpret_cast<cudaStream_t>(&token);
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }
cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }

cudaError_t cudaMalloc(void **ptr, std::size_t bytes) {
  const std::size_t size = bytes ? bytes : 1;
  char *p = static_cast<char *>(std::aligned_alloc(256, (size + 255) / 256 * 256));
  if (!p) return cudaErrorMemoryAllocation;
  std::memset(p, 0xCD, size);  // fresh device memory holds garbage
  allocations()[p] = size;
  g_in_use += size;
  *ptr = p;
  return cudaSuccess;
}
cudaError_t cudaMallocPitch(void **ptr, std::size_t *pitch, std::size_t width, std::size_t height) {
  *pitch = (width + 511) / 512 * 512;
  return cudaMalloc(ptr, *pitch * height);
}
cudaError_t cudaFree(void *ptr) {
  if (!ptr) return cudaSuccess;
  auto it = allocations().find(static_cast<const char *>(ptr));
  if (it == allocations().end()) fail("cudaFree of a pointer cudaMalloc did not return");
  g_in_use -= it->second;
  allocations().erase(it);
  g_last_base = nullptr;
  std::free(ptr);
  return cudaSuccess;
}
cudaError_t cudaMemGetInfo(std::size_t *free, std::size_t *total) {
  *total = std::size_t(1) << 36;
  *free = *total - g_in_use;
  return cudaSuccess;
}
cudaError_t cudaMemcpy2D(void *dst, std::size_t dpitch, const void *src, std::size_t spitch, std::size_t width,
                         std::size_t height, cudaMemcpyKind kind) {
  if (height == 0 || width == 0) return cudaSuccess;
  const std::size_t span_d = dpitch * (height - 1) + width, span_s = spitch * (height - 1) + width;
  if (width > dpitch || width > spitch) return cudaErrorInvalidValue;
  if (kind == cudaMemcpyHostToDevice && (!on_device(dst, span_d) || on_device(src, 1)))
    fail("cudaMemcpy2D host to device: the pointers are not host and device memory");
  if (kind == cudaMemcpyDeviceToHost && (!on_device(src, span_s) || on_device(dst, 1)))
    fail("cudaMemcpy2D device to host: the pointers are not device and host memory");
  for (std::size_t y = 0; y < height; ++y)
    std::memcpy(static_cast<char *>(dst) + y * dpitch, static_cast<const char *>(src) + y * spitch, width);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void *p, int value, std::size_t bytes, cudaStream_t) {
  if (bytes && !on_device(p, bytes)) fail("cudaMemsetAsync outside every device allocation");
  std::memset(p, value, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemset2DAsync(void *p, std::size_t pitch, int value, std::size_t width, std::size_t height,
                              cudaStream_t) {
  if (height == 0 || width == 0) return cudaSuccess;
  if (width > pitch) return cudaErrorInvalidValue;
  if (!on_device(p, pitch * (height - 1) + width)) fail("cudaMemset2DAsync outside every device allocation");
  for (std::size_t y = 0; y < height; ++y) std::memset(static_cast<char *>(p) + y * pitch, value, width);
  return cudaSuccess;
}
cudaError_t cudaMemcpy2DAsync(void *dst, std::size_t dpitch, const void *src, std::size_t spitch, std::size_t width,
                              std::size_t height, cudaMemcpyKind kind, cudaStream_t) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
