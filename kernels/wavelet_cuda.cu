// CUDA backend of the reversible wavelets: stages host frames, plans the
// levels and launches one tile kernel per level (per level and direction for
// the standard layout), all on the engine's stream with no host wait between
// levels. See wavelet_kernels.cuh for what a block does.
//
// Launches per frame: Mallat L (levels), standard 2L. Buffers: a level reads
// the previous level's low band from one scratch buffer and writes its own to
// the other (A holds low bands of odd index, B of even index), writes every
// other band straight into the destination, and the last level writes its low
// band there too. The standard layout also keeps the plane after its row
// levels (R). Scratch samples are the coefficient type in the forward
// direction (wavelet_check guarantees every intermediate value fits it) and
// int32 in the inverse, which, like the serial reference, must not saturate
// intermediate values of arbitrary coefficient input.
//
// With CF_CUDA_EMULATION defined, this file and the kernels compile as plain
// C++ for the CPU emulation in tests/cuda/emulation, which checks them bit
// for bit on machines without a GPU; nothing else changes.
#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/launch.cuh"
#include "kernels/wavelet_cuda.hpp"
#include "kernels/wavelet_kernels.cuh"

namespace cf::cuda {

namespace {

using detail::CudaState;
using detail::Slot;

// The sample types a kernel parameter may take, to build only the kernels a
// pass can use: any raw or coefficient type, a coefficient type (S16, S32), or
// the inverse's int32 work type.
enum class Types { Any, Coef, Work };

// Calls f(T{}) with the C++ type of sample type t, t being one of `set`.
template <Types set, class F>
void with_type(SampleType t, F &&f) {
  if constexpr (set == Types::Work) {
    f(std::int32_t{});
  } else if constexpr (set == Types::Coef) {
    if (t == SampleType::S16)
      f(std::int16_t{});
    else
      f(std::int32_t{});
  } else {
    switch (t) {
      case SampleType::U8: return f(std::uint8_t{});
      case SampleType::U16: return f(std::uint16_t{});
      case SampleType::S16: return f(std::int16_t{});
      case SampleType::S32: return f(std::int32_t{});
      case SampleType::F32: throw Error("the reversible wavelets take no F32 samples");
    }
  }
}

// How a kernel covers a band: tiles of width x height samples, tiles_per_block
// of them to a block of `threads`.
struct Geometry {
  int width, height, tiles_per_block, threads;
};
// The inverse: a block per Tile.
constexpr Geometry kInverseGeometry{Tile::kWidth, Tile::kHeight, 1, Tile::kThreads};

// The forward: a warp per Strip, the strips as tall as leaves about
// Strip::kTargetWarps of them over the n bands.
template <class Band>
Geometry forward_geometry(const Band (&bands)[kMaxPlanes], int n) {
  int rows = Strip::kMaxRows;
  for (; rows > Strip::kMinRows; rows /= 2) {
    long long strips = 0;
    for (int c = 0; c < n; ++c)
      strips += (long long)((bands[c].w + Strip::kWidth - 1) / Strip::kWidth) * ((bands[c].h + rows - 1) / rows);
    if (strips >= Strip::kTargetWarps) break;
  }
  return {Strip::kWidth, rows, Strip::kWarps, Strip::kThreads};
}

// Launches `kernel` over every tile of the n bands, the components of equal
// band size taking turns tile by tile.
template <class Band, class Kernel>
void launch(CudaState *s, Kernel kernel, const Band (&bands)[kMaxPlanes], int n, const Geometry &geo,
            const char *what) {
  LevelParams<Band> params{};
  params.tile_h = geo.height;
  long long tiles = 0;
  bool grouped[kMaxPlanes] = {};
  for (int c = 0; c < n; ++c) {
    params.band[c] = bands[c];
    params.band[c].tiles_x = (bands[c].w + geo.width - 1) / geo.width;
  }
  for (int c = 0; c < n; ++c) {
    if (grouped[c]) continue;
    TileGroup &g = params.group[params.n_groups++];
    g.first_tile = int(tiles);
    g.members = 0;
    for (int m = c; m < n; ++m)
      if (!grouped[m] && bands[m].w == bands[c].w && bands[m].h == bands[c].h) {
        grouped[m] = true;
        g.comp[g.members++] = m;
      }
    tiles += (long long)params.band[c].tiles_x * ((bands[c].h + geo.height - 1) / geo.height) * g.members;
    if (tiles > 0x7fffffffLL - geo.tiles_per_block) throw Error(std::string(what) + ": frame too large");
  }
  params.tiles = int(tiles);
  const int blocks = int((tiles + geo.tiles_per_block - 1) / geo.tiles_per_block);
  launch_kernel(s, kernel, blocks, geo.threads, params, what);
}

constexpr int half_up(int n) { return (n + 1) / 2; }

// A tight plane of `width` samples of `size` bytes per row.
PlaneRef tight(unsigned char *base, int width, int size) { return {base, (long long)width * size, 1}; }

// Per component scratch: low bands of odd index in a, of even index in b,
// and for the standard layout the plane after its row levels in r.
struct Scratch {
  unsigned char *a[kMaxPlanes], *b[kMaxPlanes], *r[kMaxPlanes];
  int size;  // bytes per sample
  unsigned char *low(int index, int c) const { return index % 2 ? a[c] : b[c]; }
};

Scratch reserve_scratch(CudaState *s, const WaveletParams &p, const FrameView &f, int sample_bytes) {
  std::size_t offset[kMaxPlanes][3], total = 0;
  for (int c = 0; c < f.n_components; ++c) {
    const std::size_t w = f.components[c].width, h = f.components[c].height;
    const std::size_t w2 = half_up(int(w)), h2 = half_up(int(h)), w3 = half_up(int(w2)), h3 = half_up(int(h2));
    std::size_t n[3];
    if (p.layout == Layout::Mallat) {
      n[0] = w2 * h2;
      n[1] = w3 * h3;
      n[2] = 0;
    } else {  // low bands after row levels (w_k x h), then after column levels (w x h_k)
      n[0] = std::max(w2 * h, w * h2);
      n[1] = std::max(w3 * h, w * h3);
      n[2] = w * h;
    }
    if (p.levels < 2) n[0] = n[1] = 0;  // one level reads the frame and writes the destination
    if (p.levels < 3) n[1] = 0;
    for (int i = 0; i < 3; ++i) {
      offset[c][i] = total;
      total += detail::align_up(n[i] * sample_bytes);
    }
  }
  auto *base = static_cast<unsigned char *>(s->reserve(Slot::Scratch, total));
  Scratch sc{};
  sc.size = sample_bytes;
  for (int c = 0; c < f.n_components; ++c) {
    sc.a[c] = base + offset[c][0];
    sc.b[c] = base + offset[c][1];
    sc.r[c] = base + offset[c][2];
  }
  return sc;
}

ForwardBand forward_band(PlaneRef in, PlaneRef lo, PlaneRef hi, int w, int h) {
  return {in, lo, hi, w, h, half_up(w), half_up(h), 0};
}
InverseBand inverse_band(PlaneRef lo, PlaneRef hi, PlaneRef out, int w, int h) {
  return {lo, hi, out, w, h, half_up(w), half_up(h), 0};
}

// One forward level of kind (LX, LY) for all n components: input samples of
// type in (one of InSet), coefficients of type out, clamped to out's range
// if `saturate`.
template <Wavelet W, bool LX, bool LY, Types InSet>
void forward_launch(CudaState *s, SampleType in, SampleType out, bool saturate, const ForwardBand (&bands)[kMaxPlanes],
                    int n) {
  with_type<InSet>(in, [&](auto tin) {
    with_type<Types::Coef>(out, [&](auto tout) {
      using TIn = decltype(tin);
      using TOut = decltype(tout);
      const Geometry geo = forward_geometry(bands, n);
      const char *what = "the forward wavelet kernel";
      if (saturate && !std::is_same_v<TOut, std::int32_t>)
        launch(s, forward_level<W, LX, LY, TIn, TOut, true>, bands, n, geo, what);
      else
        launch(s, forward_level<W, LX, LY, TIn, TOut, false>, bands, n, geo, what);
    });
  });
}

// One inverse level: low-low coefficients of type lo, the others of type hi,
// output of type out.
template <Wavelet W, bool LX, bool LY, Types LoSet, Types HiSet, Types OutSet>
void inverse_launch(CudaState *s, SampleType lo, SampleType hi, SampleType out, const InverseBand (&bands)[kMaxPlanes],
                    int n) {
  with_type<LoSet>(lo, [&](auto tlo) {
    with_type<HiSet>(hi, [&](auto thi) {
      with_type<OutSet>(out, [&](auto tout) {
        launch(s, inverse_level<W, LX, LY, decltype(tlo), decltype(thi), decltype(tout)>, bands, n, kInverseGeometry,
               "the inverse wavelet kernel");
      });
    });
  });
}

template <Wavelet W>
void forward_levels(CudaState *s, const WaveletParams &p, const FrameView &src, const FrameView &dst) {
  const int n = src.n_components, L = p.levels;
  const SampleType coef = dst.type;
  const Scratch sc = reserve_scratch(s, p, src, sample_size(coef));
  // wavelet_check bounds every coefficient of 8-bit input within S16 (and
  // S32 wraps, as the reference does), so only 16-bit input into S16, which
  // it allows at one level without such a bound, needs the stores clamped.
  const bool saturate = coef == SampleType::S16 && src.type != SampleType::U8;
  int w[kMaxPlanes], h[kMaxPlanes];
  for (int c = 0; c < n; ++c) {
    w[c] = src.components[c].width;
    h[c] = src.components[c].height;
  }
  ForwardBand bands[kMaxPlanes];
  if (p.layout == Layout::Mallat) {
    // Level k: LL_{k-1} (w x h) -> LL_k in scratch (or dst at the last level), details in dst.
    for (int k = 1; k <= L; ++k) {
      for (int c = 0; c < n; ++c) {
        const PlaneRef in = k == 1 ? plane_ref(src, c) : tight(sc.low(k - 1, c), w[c], sc.size);
        const PlaneRef lo = k == L ? plane_ref(dst, c) : tight(sc.low(k, c), half_up(w[c]), sc.size);
        bands[c] = forward_band(in, lo, plane_ref(dst, c), w[c], h[c]);
      }
      forward_launch<W, true, true, Types::Any>(s, k == 1 ? src.type : coef, coef, saturate, bands, n);
      for (int c = 0; c < n; ++c) w[c] = half_up(w[c]), h[c] = half_up(h[c]);
    }
    return;
  }
  // Standard. Row level k: the first w columns of every row; high columns into R.
  for (int k = 1; k <= L; ++k) {
    for (int c = 0; c < n; ++c) {
      const int width = src.components[c].width;
      const PlaneRef in = k == 1 ? plane_ref(src, c) : tight(sc.low(k - 1, c), w[c], sc.size);
      const PlaneRef lo = k == L ? tight(sc.r[c], width, sc.size) : tight(sc.low(k, c), half_up(w[c]), sc.size);
      bands[c] = forward_band(in, lo, tight(sc.r[c], width, sc.size), w[c], h[c]);
    }
    forward_launch<W, true, false, Types::Any>(s, k == 1 ? src.type : coef, coef, saturate, bands, n);
    for (int c = 0; c < n; ++c) w[c] = half_up(w[c]);
  }
  // Column level k: the first h rows of every column of R; high rows into dst.
  for (int c = 0; c < n; ++c) w[c] = src.components[c].width;
  for (int k = 1; k <= L; ++k) {
    for (int c = 0; c < n; ++c) {
      const PlaneRef in = k == 1 ? tight(sc.r[c], w[c], sc.size) : tight(sc.low(k - 1, c), w[c], sc.size);
      const PlaneRef lo = k == L ? plane_ref(dst, c) : tight(sc.low(k, c), w[c], sc.size);
      bands[c] = forward_band(in, lo, plane_ref(dst, c), w[c], h[c]);
    }
    forward_launch<W, false, true, Types::Coef>(s, coef, coef, saturate, bands, n);
    for (int c = 0; c < n; ++c) h[c] = half_up(h[c]);
  }
}

template <Wavelet W>
void inverse_levels(CudaState *s, const WaveletParams &p, const FrameView &src, const FrameView &dst) {
  const int n = src.n_components, L = p.levels;
  const SampleType coef = src.type, work = SampleType::S32;
  const Scratch sc = reserve_scratch(s, p, src, sample_size(work));
  // Band sizes at each level: level k (1-based) transforms wk[k] x hk[k].
  constexpr int kMaxLevels = 32;
  if (L >= kMaxLevels) throw Error("levels=" + std::to_string(L) + " is too deep");
  int wk[kMaxPlanes][kMaxLevels + 1], hk[kMaxPlanes][kMaxLevels + 1];
  for (int c = 0; c < n; ++c) {
    wk[c][1] = src.components[c].width;
    hk[c][1] = src.components[c].height;
    for (int k = 2; k <= L + 1; ++k) {
      wk[c][k] = half_up(wk[c][k - 1]);
      hk[c][k] = half_up(hk[c][k - 1]);
    }
  }
  InverseBand bands[kMaxPlanes];
  if (p.layout == Layout::Mallat) {
    // Level k: LL_k (src at the coarsest level, else scratch) and details -> LL_{k-1}.
    for (int k = L; k >= 1; --k) {
      for (int c = 0; c < n; ++c) {
        const PlaneRef lo = k == L ? plane_ref(src, c) : tight(sc.low(k, c), wk[c][k + 1], sc.size);
        const PlaneRef out = k == 1 ? plane_ref(dst, c) : tight(sc.low(k - 1, c), wk[c][k], sc.size);
        bands[c] = inverse_band(lo, plane_ref(src, c), out, wk[c][k], hk[c][k]);
      }
      inverse_launch<W, true, true, Types::Coef, Types::Coef, Types::Any>(s, k == L ? coef : work, coef,
                                                                          k == 1 ? dst.type : work, bands, n);
    }
    return;
  }
  // Standard: undo the column levels into R, then the row levels into dst.
  for (int k = L; k >= 1; --k) {
    for (int c = 0; c < n; ++c) {
      const int width = src.components[c].width;
      const PlaneRef lo = k == L ? plane_ref(src, c) : tight(sc.low(k, c), width, sc.size);
      const PlaneRef out = k == 1 ? tight(sc.r[c], width, sc.size) : tight(sc.low(k - 1, c), width, sc.size);
      bands[c] = inverse_band(lo, plane_ref(src, c), out, width, hk[c][k]);
    }
    inverse_launch<W, false, true, Types::Coef, Types::Coef, Types::Work>(s, k == L ? coef : work, coef, work, bands,
                                                                          n);
  }
  for (int k = L; k >= 1; --k) {
    for (int c = 0; c < n; ++c) {
      const int width = src.components[c].width, height = src.components[c].height;
      const PlaneRef r = tight(sc.r[c], width, sc.size);
      const PlaneRef lo = k == L ? r : tight(sc.low(k, c), wk[c][k + 1], sc.size);
      const PlaneRef out = k == 1 ? plane_ref(dst, c) : tight(sc.low(k - 1, c), wk[c][k], sc.size);
      bands[c] = inverse_band(lo, r, out, wk[c][k], height);
    }
    inverse_launch<W, true, false, Types::Work, Types::Work, Types::Any>(s, work, work, k == 1 ? dst.type : work, bands,
                                                                         n);
  }
}

void check_counts(const FrameView &src, const FrameView &dst) {
  if (src.n_components > kMaxPlanes || src.n_components != dst.n_components)
    throw Error("source and destination component counts differ");
}

}  // namespace

void wavelet_forward(detail::CudaState *s, const WaveletParams &p, const FrameView &src, const FrameView &dst) {
  check_counts(src, dst);
  if (dst.type != SampleType::S16 && dst.type != SampleType::S32)
    throw Error(std::string("wavelet coefficients must be S16 or S32, not ") + sample_type_name(dst.type));
  detail::DeviceScope scope(s);
  const FrameView in = detail::stage_source(s, src, Slot::Source);
  const FrameView out = detail::stage_destination(s, dst, Slot::Destination);
  if (p.wavelet == Wavelet::Haar)
    forward_levels<Wavelet::Haar>(s, p, in, out);
  else
    forward_levels<Wavelet::Cdf53>(s, p, in, out);
  detail::finish_destination(s, dst, out);
}

void wavelet_inverse(detail::CudaState *s, const WaveletParams &p, const FrameView &src, const FrameView &dst) {
  check_counts(src, dst);
  if (src.type != SampleType::S16 && src.type != SampleType::S32)
    throw Error(std::string("wavelet coefficients must be S16 or S32, not ") + sample_type_name(src.type));
  detail::DeviceScope scope(s);
  const FrameView in = detail::stage_source(s, src, Slot::Source);
  const FrameView out = detail::stage_destination(s, dst, Slot::Destination);
  if (p.wavelet == Wavelet::Haar)
    inverse_levels<Wavelet::Haar>(s, p, in, out);
  else
    inverse_levels<Wavelet::Cdf53>(s, p, in, out);
  detail::finish_destination(s, dst, out);
}

}  // namespace cf::cuda
