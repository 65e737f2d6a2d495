// CUDA backend of the 8x8 DCT. One thread transforms one whole 8x8 block in
// registers, so no sample goes through shared memory, a shuffle or a
// barrier: it loads the block's rows two ahead of their use, runs the row
// pass on each row and folds the row's eight results into the column pass
// at once (each output's column sum grows by one product per row, rows in
// order), then quantises (forward) or shifts, rounds and clamps (inverse)
// and stores the eight rows of the result. Every output is the reference's
// dot8 (core/shared/dct_rules.hpp): the same products, summed in the same
// order, each product and sum rounded on its own.
//
// A block row moves as whole aligned words where the row lies inside the
// component and the plane's alignment allows it (8 bytes of GRAY8, 16 of
// S16 coefficients, 16 or 32 bytes of a packed frame's pixels, from which
// the thread keeps its component's bytes); otherwise sample by sample, with
// the edge replication of the forward and the inside-only writes of the
// inverse. The cosine table stays in the kernel's parameters (constant
// memory): the row pass reads its entries as constant operands.
//
// One launch covers every component of the frame. Its threads form a flat
// list of blocks, part after part; a part is one component, or the
// components that share a plane's pixels (RGBA, NV12's chroma), whose
// threads alternate components so that a pixel block's bytes are read once,
// by neighbouring threads of one warp.
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cudafilters/dct.hpp"
#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/dct_cuda.hpp"
#include "kernels/launch.cuh"
#include "kernels/pair_simd.cuh"
#include "kernels/samples.cuh"
#include "kernels/unroll.cuh"
#include "kernels/vector_access.cuh"

#include "core/shared/dct_rules.hpp"

namespace cf::cuda {

// Named, not anonymous: the CPU emulation compiles every kernels/ file into one unit.
namespace dct_launch {

constexpr int kDctThreads = 128;

// What the threads of one component need.
struct ComponentRef {
  PlaneRef in, out;
  int width, height;  // the raw component (forward: replicate past it; inverse: write inside it)
  int pixel_bytes;    // raw bytes from one pixel to the next
  bool raw_words;     // a raw block row inside the component moves as aligned words
  bool coeff_words;   // a coefficient block row moves as one aligned 16-byte word
};

// Consecutive threads first_thread.. take the blocks of components
// first_component..first_component + components - 1, alternating
// components from one thread to the next.
struct Part {
  int first_thread, first_component, components, blocks_x;
};

struct KernelParams {
  dct::Setup setup;
  ComponentRef component[kMaxPlanes];
  Part part[kMaxPlanes];
  int parts, threads;
};

// Eight samples of one block row, packed: U8 in two words (byte i is sample
// i), S16 in four (halfword i is sample i).
template <class T>
struct PackedRow {
  static constexpr int kWords = 2 * int(sizeof(T));
  unsigned w[kWords];
};

// Eight values already in T's range, packed.
template <class T>
CF_HD PackedRow<T> pack_row(const int v[8]) {
  PackedRow<T> r;
  if constexpr (sizeof(T) == 1) {
    CF_UNROLL for (int k = 0; k < 2; ++k) {
      const unsigned low = pairs::byte_perm(unsigned(v[4 * k]), unsigned(v[4 * k + 1]), 0x0040u);
      const unsigned high = pairs::byte_perm(unsigned(v[4 * k + 2]), unsigned(v[4 * k + 3]), 0x0040u);
      r.w[k] = pairs::byte_perm(low, high, 0x5410u);
    }
  } else {
    CF_UNROLL for (int k = 0; k < 4; ++k) {
      r.w[k] = pairs::byte_perm(unsigned(v[2 * k]), unsigned(v[2 * k + 1]), 0x5410u);
    }
  }
  return r;
}

CF_HD float float_from_bits(unsigned bits) {
#ifdef __CUDA_ARCH__
  return __uint_as_float(bits);
#else
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
#endif
}

// Sample i of a packed row minus an integer offset, the same float as
// float(v) - offset, without an integer-to-float conversion: the sample's
// bits (an S16's with its sign bit flipped, i.e. v + 32768) fill the low
// mantissa bits of 2^23, and subtracting bias = sample_bias<T>() + offset
// from that float is exact, every value being an integer below 2^24.
template <class T>
CF_HD float sample_minus(const PackedRow<T> &r, int i, float bias) {
  constexpr unsigned kTwoTo23 = 0x4b000000u;  // the bits of 2^23: bytes 4..7 of byte_perm's pair
  if constexpr (sizeof(T) == 1)
    return float_from_bits(pairs::byte_perm(r.w[i / 4], kTwoTo23, 0x7540u + unsigned(i % 4))) - bias;
  else
    return float_from_bits(pairs::byte_perm(r.w[i / 2] ^ 0x80008000u, kTwoTo23, i % 2 ? 0x7632u : 0x7610u)) - bias;
}

// 2^23, and the 32768 an S16 sample's flipped sign bit adds.
template <class T>
constexpr float sample_bias() {
  return sizeof(T) == 1 ? 8388608.0f : 8388608.0f + 32768.0f;
}

// The eight pixels of a block row as whole words from `chunk` (the first
// pixel's first byte), keeping the sample at byte `phase` of each pixel:
// pixel_bytes is 1 or 2 (one sample a pixel) or, for packed pixels, 2 or 4.
template <class T>
__device__ __forceinline__ PackedRow<T> load_row_words(const unsigned char *chunk, int pixel_bytes, unsigned phase) {
  PackedRow<T> r;
  if (pixel_bytes == int(sizeof(T))) {
    const Words<PackedRow<T>::kWords> w = load_words<PackedRow<T>::kWords>(chunk);
    CF_UNROLL for (int i = 0; i < PackedRow<T>::kWords; ++i) r.w[i] = w.w[i];
  } else if (sizeof(T) == 1 && pixel_bytes == 2) {  // bytes phase and phase + 2 of each word
    const Words<4> w = load_words<4>(chunk);
    const unsigned pick = phase * 0x1111u + 0x6420u;
    r.w[0] = pairs::byte_perm(w.w[0], w.w[1], pick);
    r.w[1] = pairs::byte_perm(w.w[2], w.w[3], pick);
  } else {  // one sample a 4-byte pixel: byte (U8) or halfword (S16) `phase` of each word
    const Words<4> a = load_words<4>(chunk), b = load_words<4>(chunk + 16);
    const unsigned w[8] = {a.w[0], a.w[1], a.w[2], a.w[3], b.w[0], b.w[1], b.w[2], b.w[3]};
    if constexpr (sizeof(T) == 1) {
      const unsigned pick = phase * 0x11u + 0x40u;  // byte phase of two words, in the low half
      r.w[0] = pairs::byte_perm(pairs::byte_perm(w[0], w[1], pick), pairs::byte_perm(w[2], w[3], pick), 0x5410u);
      r.w[1] = pairs::byte_perm(pairs::byte_perm(w[4], w[5], pick), pairs::byte_perm(w[6], w[7], pick), 0x5410u);
    } else {
      const unsigned pick = phase * 0x1111u + 0x5410u;  // halfword phase / 2 of two words
      CF_UNROLL for (int i = 0; i < 4; ++i) r.w[i] = pairs::byte_perm(w[2 * i], w[2 * i + 1], pick);
    }
  }
  return r;
}

// Where a block row of `ref` starts as whole words: the first pixel's first
// byte (the component's sample is `phase` bytes into it).
CF_HD unsigned char *row_chunk(const PlaneRef &ref, int x0, int y, int pixel_bytes, unsigned phase) {
  return ref.base + y * ref.stride + (long long)x0 * pixel_bytes - phase;
}

// The rows of one block of a plane: as whole words (`words`), or sample by
// sample with the samples past the right edge (x0 + i >= width) and the rows
// past the bottom edge (y >= height) replicated from the last ones.
template <class T>
struct BlockRows {
  PlaneRef ref;
  int x0, y0, width, height, pixel_bytes;
  bool words;

  __device__ __forceinline__ PackedRow<T> row(int r) const {
    const int y = y0 + r < height ? y0 + r : height - 1;
    const unsigned phase = unsigned(reinterpret_cast<std::uintptr_t>(ref.base) % 4u);
    if (words) return load_row_words<T>(row_chunk(ref, x0, y, pixel_bytes, phase), pixel_bytes, phase);
    int v[8];
    CF_UNROLL for (int i = 0; i < 8; ++i) v[i] = load<T>(ref, x0 + i < width ? x0 + i : width - 1, y);
    return pack_row<T>(v);
  }
};

// One row of the column pass: acc[i][j] += column(i, r) * t[j], where t is
// row r's row-pass result; after rows 0..7 acc[i][j] is the dot8 of row i
// of the pass's matrix with column j of the row results, summed in row
// order (forward: dot8(cosine + 8 v, 1, T + u, 8); inverse: dot8(cosine +
// y, 8, tmp + n, 8)). Row 0's products start the sums, as in dot8.
template <bool Inverse, bool First>
__device__ __forceinline__ void fold_row(const dct::Setup &s, int r, const float t[8], float acc[8][8]) {
  CF_UNROLL for (int i = 0; i < 8; ++i) {
    const float c = Inverse ? s.cosine[8 * r + i] : s.cosine[8 * i + r];
    CF_UNROLL for (int j = 0; j < 8; ++j) {
      const float m = dct::mul(c, t[j]);
      acc[i][j] = First ? m : dct::add(acc[i][j], m);
    }
  }
}

// Row r of a block through both passes: forward, T[r][u] = dot8(cosine +
// 8 u, 1, x[r], 1) of the level-shifted samples; inverse, tmp[r][n] =
// dot8(cosine + n, 8, g[r], 1) of the dequantised coefficients.
template <class In, bool Inverse, bool UnitQuant, bool First>
__device__ __forceinline__ void transform_row(const dct::Setup &s, const PackedRow<In> &row, int r, float bias,
                                              const float *quant, float acc[8][8]) {
  float x[8], t[8];
  CF_UNROLL for (int i = 0; i < 8; ++i) {
    x[i] = sample_minus(row, i, bias);
    // dct::dequantise: float(c) Q; with Q = 1, c itself.
    if (Inverse && !UnitQuant) x[i] = dct::mul(x[i], quant[8 * r + i]);
  }
  CF_UNROLL for (int j = 0; j < 8; ++j) {
    t[j] = Inverse ? dct::dot8(s.cosine + j, 8, x, 1) : dct::dot8(s.cosine + 8 * j, 1, x, 1);
  }
  fold_row<Inverse, First>(s, r, t, acc);
}

// Both passes over the block's eight rows, each row loaded two rows ahead
// of its use so that its load overlaps the arithmetic of the rows before.
template <class In, bool Inverse, bool UnitQuant>
__device__ __forceinline__ void transform_block(const dct::Setup &s, const BlockRows<In> &rows, float bias,
                                                const float *quant, float acc[8][8]) {
  PackedRow<In> row = rows.row(0), next = rows.row(1), after = rows.row(2);
  transform_row<In, Inverse, UnitQuant, true>(s, row, 0, bias, quant, acc);
  CF_NO_UNROLL for (int r = 1; r < 8; ++r) {
    row = next;
    next = after;
    after = rows.row(r + 2 < 8 ? r + 2 : 7);
    transform_row<In, Inverse, UnitQuant, false>(s, row, r, bias, quant, acc);
  }
}

template <class Raw, bool UnitQuant>
__device__ __forceinline__ void forward_block(const KernelParams &p, const ComponentRef &k, const float *quant, int bx,
                                              int by) {
  const int x0 = 8 * bx;
  const BlockRows<Raw> rows{k.in, x0, 8 * by, k.width, k.height, k.pixel_bytes, k.raw_words && x0 + 8 <= k.width};
  float acc[8][8];
  transform_block<Raw, false, UnitQuant>(p.setup, rows, sample_bias<Raw>() + p.setup.shift, quant, acc);
  CF_UNROLL for (int v = 0; v < 8; ++v) {
    int q[8];
    // Q = 1 (quality 0 or 100): f / 1 is f, and the compiler drops the division.
    CF_UNROLL for (int u = 0; u < 8; ++u) q[u] = dct::quantise(acc[v][u], UnitQuant ? 1.0f : quant[8 * v + u]);
    if (k.coeff_words) {
      const PackedRow<std::int16_t> packed = pack_row<std::int16_t>(q);
      store_words<4>(row_chunk(k.out, x0, 8 * by + v, 2, 0),
                     Words<4>{{packed.w[0], packed.w[1], packed.w[2], packed.w[3]}});
    } else {
      CF_UNROLL for (int u = 0; u < 8; ++u) store<std::int16_t>(k.out, x0 + u, 8 * by + v, q[u]);
    }
  }
}

template <class Raw, bool UnitQuant>
__device__ __forceinline__ void inverse_block(const KernelParams &p, const ComponentRef &k, const float *quant, int bx,
                                              int by) {
  const int x0 = 8 * bx;
  // Coefficient planes hold whole blocks: nothing to replicate.
  const BlockRows<std::int16_t> rows{k.in, x0, 8 * by, x0 + 8, 8 * by + 8, 2, k.coeff_words};
  float acc[8][8];
  transform_block<std::int16_t, true, UnitQuant>(p.setup, rows, sample_bias<std::int16_t>(), quant, acc);
  const bool words = k.raw_words && x0 + 8 <= k.width;
  CF_UNROLL for (int y = 0; y < 8; ++y) {
    const int py = 8 * by + y;
    if (py >= k.height) break;
    int v[8];
    CF_UNROLL for (int n = 0; n < 8; ++n) {
      v[n] = dct::round_clamp(dct::add(acc[y][n], p.setup.shift), p.setup.lo, p.setup.hi);
    }
    if (words) {
      const PackedRow<Raw> packed = pack_row<Raw>(v);
      unsigned char *at = row_chunk(k.out, x0, py, int(sizeof(Raw)), 0);
      if constexpr (sizeof(Raw) == 1)
        store_words<2>(at, Words<2>{{packed.w[0], packed.w[1]}});
      else
        store_words<4>(at, Words<4>{{packed.w[0], packed.w[1], packed.w[2], packed.w[3]}});
    } else {
      CF_UNROLL for (int n = 0; n < 8; ++n) {
        if (x0 + n < k.width) store<Raw>(k.out, x0 + n, py, v[n]);
      }
    }
  }
}

// Raw: the raw sample type (U8 or S16); coefficients are S16. UnitQuant:
// every quantiser of the frame is 1.
template <class Raw, bool Inverse, bool UnitQuant>
__global__ void __launch_bounds__(kDctThreads) dct_kernel(const __grid_constant__ KernelParams p) {
  // The quantisers of every component; rows padded to 65 so that threads of
  // different components read different banks.
  __shared__ float quant[kMaxPlanes][65];
  if (!UnitQuant) {
    for (int i = int(threadIdx.x); i < kMaxPlanes * 64; i += kDctThreads)
      quant[i / 64][i % 64] = p.setup.quant[i / 64][i % 64];
    __syncthreads();
  }
  const int t = int(blockIdx.x) * kDctThreads + int(threadIdx.x);
  if (t >= p.threads) return;
  int j = 0;
  while (j + 1 < p.parts && t >= p.part[j + 1].first_thread) ++j;
  const Part &part = p.part[j];
  const int local = t - part.first_thread, block = local / part.components;
  const int c = part.first_component + (local - block * part.components);
  const int by = block / part.blocks_x, bx = block - by * part.blocks_x;
  if (Inverse)
    inverse_block<Raw, UnitQuant>(p, p.component[c], quant[c], bx, by);
  else
    forward_block<Raw, UnitQuant>(p, p.component[c], quant[c], bx, by);
}

// Whether a block row of component c of f (inside the component) can move
// as whole aligned words: 8 bytes for one U8 sample a pixel, 16 bytes for
// one S16 sample a pixel or two-byte pixels, 32 bytes for four-byte pixels
// (loads only: a store would overwrite the other components' bytes). The
// words must lie inside the plane's row.
bool rows_as_words(const FrameView &f, int c, bool store) {
  const Component &k = f.components[c];
  const MemoryPlane &plane = f.planes[k.plane];
  const int size = sample_size(f.type), pixel_bytes = k.pixel_stride * size;
  if (pixel_bytes != 1 && pixel_bytes != 2 && pixel_bytes != 4) return false;
  if (store && pixel_bytes != size) return false;
  const std::uintptr_t at = reinterpret_cast<std::uintptr_t>(plane.data) + std::uintptr_t(k.offset);
  const int phase = int(at % 4u), align = pixel_bytes == 1 ? 8 : 16;
  return phase + size <= pixel_bytes && phase <= k.offset && (at - phase) % align == 0 && plane.stride % align == 0 &&
         k.offset - phase + (long long)k.width * pixel_bytes <= plane.row_bytes;
}

// Components c - 1 and c share their pixels: the same plane, size and pixel
// step, and c's samples in the same pixels as c - 1's.
bool same_pixels(const FrameView &f, int c) {
  const Component &a = f.components[c - 1], &b = f.components[c];
  const int pixel_bytes = a.pixel_stride * sample_size(f.type);
  const int apart = b.offset > a.offset ? b.offset - a.offset : a.offset - b.offset;
  return a.plane == b.plane && a.width == b.width && a.height == b.height && a.pixel_stride == b.pixel_stride &&
         apart < pixel_bytes;
}

}  // namespace dct_launch

void dct_transform(detail::CudaState *s, bool inverse, const dct::Setup &setup, const FrameView &src,
                   const FrameView &dst) {
  using dct_launch::KernelParams;
  detail::DeviceScope scope(s);
  const FrameView in = detail::stage_source(s, src, detail::Slot::Source);
  const FrameView out = detail::stage_destination(s, dst, detail::Slot::Destination);
  const FrameView &raw = inverse ? out : in, &coeff = inverse ? in : out;
  KernelParams p{};
  p.setup = setup;
  bool unit_quant = true;
  for (int c = 0; c < src.n_components; ++c) {
    dct_launch::ComponentRef &k = p.component[c];
    k.in = plane_ref(in, c);
    k.out = plane_ref(out, c);
    k.width = raw.components[c].width;
    k.height = raw.components[c].height;
    k.pixel_bytes = raw.components[c].pixel_stride * sample_size(raw.type);
    k.raw_words = dct_launch::rows_as_words(raw, c, inverse);
    k.coeff_words = dct_launch::rows_as_words(coeff, c, !inverse);
    for (int i = 0; i < 64; ++i) unit_quant = unit_quant && setup.quant[c][i] == 1.0f;
    const int blocks_x = padded_to_blocks(k.width) / 8, blocks = blocks_x * (padded_to_blocks(k.height) / 8);
    if (c > 0 && dct_launch::same_pixels(raw, c)) {
      ++p.part[p.parts - 1].components;
    } else {
      p.part[p.parts++] = {p.threads, c, 1, blocks_x};
    }
    p.threads += blocks;
  }
  const long long grid = (p.threads + dct_launch::kDctThreads - 1) / dct_launch::kDctThreads;
  const char *what = inverse ? "the inverse DCT kernel" : "the forward DCT kernel";
  auto launch = [&](auto raw_sample, auto unit) {
    using Raw = decltype(raw_sample);
    constexpr bool kUnit = decltype(unit)::value;
    launch_kernel(s, inverse ? dct_launch::dct_kernel<Raw, true, kUnit> : dct_launch::dct_kernel<Raw, false, kUnit>,
                  grid, dct_launch::kDctThreads, p, what);
  };
  if (raw.type == SampleType::U8)
    unit_quant ? launch(std::uint8_t{}, std::true_type{}) : launch(std::uint8_t{}, std::false_type{});
  else
    unit_quant ? launch(std::int16_t{}, std::true_type{}) : launch(std::int16_t{}, std::false_type{});
  detail::finish_destination(s, dst, out);
}

}  // namespace cf::cuda
