// CUDA histograms for cf::histograms: every component of a frame in one
// launch, the counts downloaded once, one wait.
//
// The frame's components are gathered into parts: one component, or the
// components that share a plane's pixels (RGBA, NV12's chroma), which one
// pass over the plane's bytes counts together. Each thread block takes an
// equal share of one part's rows, cut into units: 16 aligned bytes where the
// rows allow it (one vector load; the unit's samples belong to components by
// their place in the pixel), a few pixels read sample by sample otherwise
// and at the end of a row. Every thread has two units in flight at a time.
//
// A block counts into sub-histograms in shared memory, then adds each
// non-empty bin to the global counts with one atomic. 8-bit samples get
// 256 bins per component, replicated (32 copies for one component) so that
// the threads of a warp update different copies in different banks: a
// smooth image, whose neighbouring samples share a value, costs no
// serialised atomics. 16-bit samples get a window of the values where most
// fall (around 0 for S16 coefficients, the dark end of U16) in one copy;
// each thread adds a run of equal values with one atomic, and values outside
// the window go to the global counts directly. Atomics add integers, so the
// result does not depend on their order.
//
// The counts need no memset of their own: the engine keeps two sets
// (HistogramSets, kernels/cuda_state.cuh), and while a call counts into one
// its blocks clear the other for the next call.
#include <algorithm>
#include <cstdint>

#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/entropy_cuda.hpp"
#include "kernels/launch.cuh"
#include "kernels/samples.cuh"
#include "kernels/unroll.cuh"
#include "kernels/vector_access.cuh"

namespace cf::cuda {

// Named, not anonymous: the CPU emulation compiles every kernels/ file into one unit.
namespace histogram_launch {

constexpr int kHistogramThreads = 256;
constexpr int kSharedWords = 8192;         // 32 KiB of sub-histograms per block
constexpr int kUnitBytes = 16;             // a unit of aligned rows: one 16-byte load
constexpr int kUnitPixels = 4;             // a unit of other rows
constexpr int kMinUnitsPerThread = 4;      // below that, fewer blocks
constexpr long long kMaxBlocks = 132 * 4;  // about four per SM of an H100 or H200: enough loads in flight
constexpr int kMaxSections = 4;            // components of one part (and places in its pixels)

// Components counted in one pass over their pixels. A component's samples
// are at start + y * stride + (x * step + place) * sample size.
struct Part {
  const unsigned char *start;  // the first pixel's first byte
  long long stride;
  int width, height, step;       // pixels, and samples from one pixel to the next
  int sections;                  // components, each with its own sub-histograms
  int component[kMaxSections];   // of each section
  int place[kMaxSections];       // of each section's sample in the pixel
  int section_at[kMaxSections];  // of each place in the pixel (step <= 4), or -1
  bool units_of_words;           // rows in aligned 16-byte units (16 % (step * size) == 0)
  int units_per_row;
  int first_block, blocks;
  int window, window_lo;  // shared bins per section and the value of the first
  int copy_shift;         // log2 of the copies of each shared bin
};

struct HistogramParams {
  Part part[kMaxPlanes];
  int parts, blocks;
  long long lo;      // value of bin 0 of `counts`
  int bins;          // per component
  unsigned *counts;  // n_components x bins, zero on entry
  unsigned *clear;   // the other set, zeroed here for the next call
  long long clear_words;
};

__device__ __forceinline__ void global_add(unsigned *p, unsigned v) {
#ifdef CF_CUDA_EMULATION
  cf_emulate_check_access(p, sizeof *p);
#endif
  atomicAdd(p, v);
}

__device__ __forceinline__ void global_zero(unsigned *p) {
#ifdef CF_CUDA_EMULATION
  cf_emulate_check_access(p, sizeof *p);
#endif
  *p = 0;
}

// Up to 16 bytes of samples and how many of them there are. A unit starts
// at a pixel's first byte (16 is a multiple of the pixel's bytes), so its
// sample i is at place i % step of a pixel.
struct Unit {
  Words<4> w;
  int samples;
};

template <class T>
constexpr int kUnitSamples = kUnitBytes / int(sizeof(T));

template <class T>
CF_HD int unit_sample(const Unit &u, int i) {
  if constexpr (sizeof(T) == 1)
    return int((u.w.w[i / 4] >> (8 * (i % 4))) & 0xffu);
  else
    return int(T(u.w.w[i / 2] >> (16 * (i % 2))));
}

// This thread's view of a block's sub-histograms: value v of section s is
// counted in word (s window + v - window_lo) 2^shift + copy.
template <class T>
struct Counter {
  unsigned *shared;
  const Part &part;
  const HistogramParams &p;
  int shift, copy;

  __device__ __forceinline__ void add(int section, int v, unsigned n) const {
    if constexpr (sizeof(T) == 1) {
      // 256 bins from 0 hold every value; the bracket does not depend on v,
      // so a unit's samples share it.
      atomicAdd(&shared[(v << shift) + ((section << (8 + shift)) + copy)], n);
    } else {
      const int w = v - part.window_lo;
      if (unsigned(w) < unsigned(part.window))
        atomicAdd(&shared[((section * part.window + w) << shift) + copy], n);
      else
        global_add(&p.counts[(long long)part.component[section] * p.bins + (v - p.lo)], n);
    }
  }

  template <int Step>
  __device__ __forceinline__ void add_unit(const Unit &u) const {
    if (u.samples == kUnitSamples<T>) {
      if constexpr (sizeof(T) == 2 && Step == 1) {  // one section: runs of equal values, one atomic each
        int run_value = unit_sample<T>(u, 0);
        unsigned run = 1;
        CF_UNROLL for (int i = 1; i < kUnitSamples<T>; ++i) {
          const int v = unit_sample<T>(u, i);
          if (v == run_value) {
            ++run;
          } else {
            add(0, run_value, run);
            run_value = v;
            run = 1;
          }
        }
        add(0, run_value, run);
      } else {
        CF_UNROLL for (int i = 0; i < kUnitSamples<T>; ++i) {
          const int s = part.section_at[i % Step];
          if (s >= 0) add(s, unit_sample<T>(u, i), 1);
        }
      }
    } else {
      CF_UNROLL for (int i = 0; i < kUnitSamples<T>; ++i) {  // unrolled: the words stay in registers
        const int s = part.section_at[i % Step];
        if (i < u.samples && s >= 0) add(s, unit_sample<T>(u, i), 1);
      }
    }
  }
};

// Row and column of a unit, stepped forward without a division per unit.
struct UnitCursor {
  unsigned row, col;
  __device__ __forceinline__ UnitCursor after(unsigned rows, unsigned cols, unsigned per_row) const {
    UnitCursor c{row + rows, col + cols};
    if (c.col >= per_row) {
      c.col -= per_row;
      ++c.row;
    }
    return c;
  }
};

// A unit of a part whose rows are aligned units: a 16-byte load, or at the
// end of a row the samples that are left, one by one.
template <class T>
__device__ __forceinline__ Unit unit_of_words(const Part &part, UnitCursor at_unit) {
  const unsigned char *at = part.start + at_unit.row * part.stride + at_unit.col * kUnitBytes;
  const int row_bytes = part.width * part.step * int(sizeof(T)), left = row_bytes - int(at_unit.col) * kUnitBytes;
  Unit u;
  if (left >= kUnitBytes) {
    u.w = load_words<4>(at);
    u.samples = kUnitSamples<T>;
  } else {
    u.samples = left / int(sizeof(T));
    const PlaneRef ref{const_cast<unsigned char *>(at), 0, 1};
    constexpr int kBits = 8 * int(sizeof(T)), kPerWord = 32 / kBits;
    CF_UNROLL for (int i = 0; i < 4; ++i) u.w.w[i] = 0;
    CF_UNROLL for (int i = 0; i < kUnitSamples<T>; ++i) {  // unrolled: the words stay in registers
      if (i < u.samples)
        u.w.w[i / kPerWord] |= (unsigned(load<T>(ref, i, 0)) & ((1u << kBits) - 1u)) << (kBits * (i % kPerWord));
    }
  }
  return u;
}

// Each thread counts units first + threadIdx.x, + 2 kHistogramThreads, ...
// and the units kHistogramThreads after them: two loads in flight.
template <class T, int Step>
__device__ void count_units_of_words(Counter<T> counter, const Part &part, unsigned first, unsigned last) {
  // The copies: 8-bit samples share 32 copies of the bins among the Step places of a pixel.
  counter.shift = sizeof(T) == 1 ? (Step == 1 ? 5 : Step == 2 ? 4 : 3) : 0;
  CF_EMU_CHECK(counter.shift == part.copy_shift);
  counter.copy = int(threadIdx.x) & ((1 << counter.shift) - 1);
  const unsigned per_row = unsigned(part.units_per_row), k0 = first + threadIdx.x;
  const unsigned rows = kHistogramThreads / per_row, cols = kHistogramThreads % per_row;
  UnitCursor a{k0 / per_row, k0 % per_row};
  for (unsigned k = k0; k < last; k += 2 * kHistogramThreads) {
    const UnitCursor b = a.after(rows, cols, per_row);
    const bool second = k + kHistogramThreads < last;
    const Unit ua = unit_of_words<T>(part, a);
    Unit ub{};
    if (second) ub = unit_of_words<T>(part, b);
    counter.template add_unit<Step>(ua);
    if (second) counter.template add_unit<Step>(ub);
    a = b.after(rows, cols, per_row);
  }
}

// Rows that are not aligned units: kUnitPixels pixels a unit, every
// section's sample read on its own.
template <class T>
__device__ void count_units_of_pixels(const Counter<T> &counter, const Part &part, unsigned first, unsigned last) {
  const PlaneRef ref{const_cast<unsigned char *>(part.start), part.stride, part.step};
  for (unsigned k = first + threadIdx.x; k < last; k += kHistogramThreads) {
    const int row = int(k / unsigned(part.units_per_row)), x0 = int(k % unsigned(part.units_per_row)) * kUnitPixels;
    for (int x = x0; x < x0 + kUnitPixels && x < part.width; ++x)
      for (int s = 0; s < part.sections; ++s)
        counter.add(
            s,
            int(*sample_at_offset<T>(ref, row * part.stride + ((long long)x * part.step + part.place[s]) * sizeof(T))),
            1);
  }
}

template <class T>
__global__ void __launch_bounds__(kHistogramThreads) histogram_kernel(const __grid_constant__ HistogramParams p) {
  __shared__ unsigned shared[kSharedWords];
  const int block = int(blockIdx.x), tid = int(threadIdx.x);
  // This block's share of the next call's counts.
  const long long clear_from = p.clear_words * block / p.blocks, clear_to = p.clear_words * (block + 1) / p.blocks;
  for (long long i = clear_from + tid; i < clear_to; i += kHistogramThreads) global_zero(p.clear + i);

  int j = 0;
  while (j + 1 < p.parts && block >= p.part[j + 1].first_block) ++j;
  const Part &part = p.part[j];
  const int copies = 1 << part.copy_shift, bins = part.sections * part.window;
  for (int i = tid; i < (bins << part.copy_shift); i += kHistogramThreads) shared[i] = 0;
  __syncthreads();

  const unsigned units = unsigned(part.height) * unsigned(part.units_per_row), k = unsigned(block - part.first_block);
  const unsigned first = unsigned((unsigned long long)units * k / unsigned(part.blocks));
  const unsigned last = unsigned((unsigned long long)units * (k + 1) / unsigned(part.blocks));
  const Counter<T> counter{shared, part, p, part.copy_shift, tid & (copies - 1)};
  if (!part.units_of_words)
    count_units_of_pixels<T>(counter, part, first, last);
  else if (part.step == 1)
    count_units_of_words<T, 1>(counter, part, first, last);
  else if (part.step == 2)
    count_units_of_words<T, 2>(counter, part, first, last);
  else
    count_units_of_words<T, 4>(counter, part, first, last);
  __syncthreads();

  // Each bin's copies summed, starting at a different copy in each thread so
  // that a warp's reads fall in different banks.
  for (int i = tid; i < bins; i += kHistogramThreads) {
    unsigned sum = 0;
    for (int c = 0; c < copies; ++c) sum += shared[(i << part.copy_shift) + ((c + tid) & (copies - 1))];
    if (sum) {
      const int s = i / part.window, w = i - s * part.window;
      global_add(&p.counts[(long long)part.component[s] * p.bins + (part.window_lo + w - p.lo)], sum);
    }
  }
}

// The parts of f (see the header comment), their units, shared bins and
// blocks; returns the blocks of the launch.
int plan_parts(const FrameView &f, const HistogramShape &shape, HistogramParams &p) {
  const int size = sample_size(f.type);
  long long units[kMaxPlanes] = {}, total = 0;
  int start_offset[kMaxPlanes] = {};
  for (int c = 0; c < f.n_components; ++c) {
    const Component &k = f.components[c];
    const MemoryPlane &plane = f.planes[k.plane];
    const int pixel_bytes = k.pixel_stride * size;
    // Joins the part before when its pixels hold this component too.
    if (p.parts > 0) {
      Part &q = p.part[p.parts - 1];
      const Component &prev = f.components[q.component[0]];
      const int into = k.offset - start_offset[p.parts - 1];
      if (k.plane == prev.plane && k.width == prev.width && k.height == prev.height &&
          k.pixel_stride == prev.pixel_stride && q.step <= kMaxSections && into >= 0 && into < pixel_bytes &&
          into % size == 0 && q.section_at[into / size] < 0) {
        q.component[q.sections] = c;
        q.place[q.sections] = into / size;
        q.section_at[into / size] = q.sections;
        ++q.sections;
        continue;
      }
    }
    Part &q = p.part[p.parts];
    // The pixel's first byte, when the component lies inside its first pixel.
    const int offset =
        k.pixel_stride <= kMaxSections && k.offset % size == 0 ? k.offset - k.offset % pixel_bytes : k.offset;
    start_offset[p.parts] = offset;
    q.start = static_cast<const unsigned char *>(plane.data) + offset;
    q.stride = plane.stride;
    q.width = k.width;
    q.height = k.height;
    q.step = k.pixel_stride;
    q.sections = 1;
    q.component[0] = c;
    q.place[0] = (k.offset - offset) / size;
    for (int &s : q.section_at) s = -1;
    if (q.place[0] < kMaxSections) q.section_at[q.place[0]] = 0;
    q.units_of_words = (q.step == 1 || q.step == 2 || q.step == 4) && kUnitBytes % pixel_bytes == 0 &&
                       reinterpret_cast<std::uintptr_t>(q.start) % kUnitBytes == 0 && plane.stride % kUnitBytes == 0 &&
                       offset + (long long)k.width * pixel_bytes <= plane.row_bytes;
    ++p.parts;
  }
  for (int j = 0; j < p.parts; ++j) {
    Part &q = p.part[j];
    const int pixel_bytes = q.step * size;
    q.units_per_row = q.units_of_words ? (q.width * pixel_bytes + kUnitBytes - 1) / kUnitBytes
                                       : (q.width + kUnitPixels - 1) / kUnitPixels;
    units[j] = (long long)q.units_per_row * q.height;
    total += units[j];
    // The shared words are split among the places of a pixel (units of
    // words: the count_units_of_words instance has the step built in) or
    // the sections, rounded up to a power of two.
    const int slots = q.units_of_words ? q.step : q.sections <= 1 ? 1 : q.sections <= 2 ? 2 : 4;
    if (size == 1) {
      q.window = 256;
      q.window_lo = 0;
      q.copy_shift = slots == 1 ? 5 : slots == 2 ? 4 : 3;
    } else {
      q.window = kSharedWords / slots;
      q.window_lo = shape.lo < 0 ? -q.window / 2 : 0;
      q.copy_shift = 0;
    }
  }
  const long long wanted =
      (total + kHistogramThreads * kMinUnitsPerThread - 1) / (kHistogramThreads * kMinUnitsPerThread);
  const long long grid = std::clamp<long long>(wanted, p.parts, kMaxBlocks);
  int blocks = 0;
  for (int j = 0; j < p.parts; ++j) {
    Part &q = p.part[j];
    q.first_block = blocks;
    q.blocks =
        int(std::clamp<long long>((grid * units[j] + total / 2) / std::max(total, 1LL), 1, std::max(units[j], 1LL)));
    blocks += q.blocks;
  }
  return blocks;
}

}  // namespace histogram_launch

void histograms(detail::CudaState *s, const FrameView &f, const HistogramShape &shape, std::uint32_t *counts) {
  using histogram_launch::HistogramParams;
  if (f.type == SampleType::S32 || f.type == SampleType::F32)
    throw Error("entropy of S32 or F32 samples is not supported");
  detail::DeviceScope scope(s);
  const FrameView in = detail::stage_source(s, f, detail::Slot::Source);
  const std::size_t words = std::size_t(f.n_components) * shape.bins;

  // The two sets: a new slot holds garbage in both.
  detail::HistogramSets &sets = s->histogram_sets;
  const detail::DeviceBuffer &slot = s->slots[int(detail::Slot::Histograms)];
  const void *before = slot.ptr;
  auto *base = static_cast<unsigned *>(s->reserve(detail::Slot::Histograms, 2 * words * sizeof(unsigned)));
  if (base != before) {
    sets.set_words = slot.capacity / (2 * sizeof(unsigned));
    sets.next = 0;
    sets.dirty[0] = sets.dirty[1] = sets.set_words;
  }
  const int use = sets.next, other = 1 - use;
  unsigned *device = base + use * sets.set_words;
  if (sets.dirty[use] > 0)
    detail::check(cudaMemsetAsync(device, 0, sets.dirty[use] * sizeof(unsigned), s->stream), "clearing the histograms");
  sets.dirty[use] = words;  // until this call has downloaded them and moved on

  HistogramParams p{};
  p.lo = shape.lo;
  p.bins = int(shape.bins);
  p.counts = device;
  p.clear = base + other * sets.set_words;
  p.clear_words = (long long)sets.dirty[other];
  p.blocks = histogram_launch::plan_parts(in, shape, p);
  with_sample_type(f.type, [&](auto sample) {
    using T = decltype(sample);
    if constexpr (sizeof(T) <= 2)
      launch_kernel(s, histogram_launch::histogram_kernel<T>, p.blocks, histogram_launch::kHistogramThreads, p,
                    "the histogram kernel");
  });
  detail::check(cudaMemcpyAsync(counts, device, words * sizeof(unsigned), cudaMemcpyDeviceToHost, s->stream),
                "downloading the histograms");
  detail::check(cudaStreamSynchronize(s->stream), "computing the histograms on the CUDA stream");
  sets.dirty[other] = 0;
  sets.next = other;
}

}  // namespace cf::cuda
