// CUDA backend of the CDF 9/7 (cudafilters/cdf97.hpp): one launch of
// cdf97_kernels.cuh's tile kernel per level for every component of the frame
// (Mallat), or per row level and per column level (the standard layout), all
// on the engine's stream; one wait at the end. Between levels the low band
// rides in float work planes in the engine's scratch buffer (two per
// component, taking turns, a quarter of the plane in the Mallat layout;
// the standard layout keeps a third for the plane after its row levels); every other band is written once, to its final
// place. The arithmetic is cpu/cdf97_math.hpp's, operation by operation, so
// the bits are the serial reference's.
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "cudafilters/error.hpp"
#include "kernels/cdf97_cuda.hpp"
#include "kernels/cdf97_kernels.cuh"
#include "kernels/cuda_state.cuh"
#include "kernels/launch.cuh"
#include "kernels/samples.cuh"

#include "core/shared/cdf97_rules.hpp"
#include "core/shared/wavelet_rules.hpp"

namespace cf::cuda {

// Named, not anonymous: the CPU emulation compiles every kernels/ file into one unit.
namespace cdf97_launch {

using cdf97_tiles::Band;
using cdf97_tiles::LevelParams;
using cdf97_tiles::Read;
using cdf97_tiles::Sink;
using cdf97_tiles::Source;
using cdf97_tiles::Write;

// One component's planes: its frame planes and float work planes of its size.
struct Planes {
  Source in;
  Sink out;
  PlaneRef work[3];  // [0], [1]: the low band, level by level; [2]: the standard layout's row-level plane
  int w, h;
  int ll_w, ll_h;
};

Source work_source(const PlaneRef &p) { return {p, SampleType::F32, Read::Raw}; }
Sink work_sink(const PlaneRef &p) { return {p, SampleType::F32, Write::Work}; }

// The kernel of one level: In, the forward's input sample type; Coef, the
// inverse's coefficients.
template <bool Forward, bool X, bool Y>
void launch_tiles(detail::CudaState *s, SampleType type, long long tiles, const LevelParams &p) {
  with_sample_type(type, [&](auto t) {
    using T = decltype(t);
    if constexpr (Forward)
      launch_kernel(s, cdf97_tiles::forward_level<T, X, Y>, tiles, cdf97_tiles::kThreads, p,
                    "the cdf97 lifting kernel");
    else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, std::int16_t> || std::is_same_v<T, std::int32_t>)
      launch_kernel(s, cdf97_tiles::inverse_level<T, X, Y>, tiles, cdf97_tiles::kThreads, p,
                    "the cdf97 inverse lifting kernel");
    else
      throw Error("cdf97: coefficients must be F32, S16 or S32");
  });
}

// One level over every component: `band(c, &b)` fills component c's band
// (planes, size); the tiles are numbered over the components, those of one
// size next to each other taking turns.
template <bool Forward, bool X, bool Y, class Fill>
void launch_level(detail::CudaState *s, int n, const cdf97::Post &post, Fill &&band) {
  LevelParams p{};
  p.n = n;
  p.post = post;
  long long tiles = 0;
  for (int c = 0; c < n; ++c) {
    Band &b = p.band[c];
    band(c, &b);
    b.lift_x = X && b.w >= 2;
    b.lift_y = Y && b.h >= 2;
    b.tiles_x = (b.w + cdf97_tiles::kTileW - 1) / cdf97_tiles::kTileW;
    const long long own = (long long)b.tiles_x * ((b.h + cdf97_tiles::kTileH - 1) / cdf97_tiles::kTileH);
    const Band *prev = c > 0 ? &p.band[c - 1] : nullptr;
    b.member = prev && prev->w == b.w && prev->h == b.h ? prev->member + 1 : 0;
    b.members = 1;
    p.band[c - b.member].members = b.member + 1;
    b.first_tile = int(tiles);  // as if alone: a block finds its group from here
    tiles += own;
    if (tiles > 0x7fffffffLL) throw Error("cdf97: frame too large");
  }
  launch_tiles<Forward, X, Y>(s, Forward ? p.band[0].lo_in.type : p.band[0].hi_in.type, tiles, p);
}

void run(detail::CudaState *s, bool forward, const Cdf97Params &p, const FrameView &src, const FrameView &dst) {
  detail::DeviceScope scope(s);
  const FrameView in = detail::stage_source(s, src, detail::Slot::Source);
  const FrameView out = detail::stage_destination(s, dst, detail::Slot::Destination);
  const int n = src.n_components, levels = p.levels;
  const bool mallat = p.layout == Layout::Mallat;
  const int n_work = mallat ? 2 : 3;
  // A Mallat level's low band is at most the first level's, a quarter of
  // the plane: its two work planes are that size. The standard layout's
  // bands keep one axis whole, so its work planes keep the plane's size.
  auto work_size = [&](int c, int *w, int *h) {
    *w = mallat ? lifting::low_count(src.components[c].width) : src.components[c].width;
    *h = mallat ? lifting::low_count(src.components[c].height) : src.components[c].height;
  };
  std::size_t bytes = 0;
  for (int c = 0; c < n; ++c) {
    int ww, wh;
    work_size(c, &ww, &wh);
    bytes += n_work * detail::align_up(sizeof(float) * ww * wh);
  }
  auto *scratch = static_cast<unsigned char *>(s->reserve(detail::Slot::Scratch, std::max<std::size_t>(bytes, 1)));
  Planes planes[kMaxPlanes];
  for (int c = 0; c < n; ++c) {
    Planes &q = planes[c];
    q.w = src.components[c].width;
    q.h = src.components[c].height;
    int ww, wh;
    work_size(c, &ww, &wh);
    const std::size_t plane = detail::align_up(sizeof(float) * ww * wh);
    for (int k = 0; k < n_work; ++k) {
      q.work[k] = {scratch, (long long)sizeof(float) * ww, 1};
      scratch += plane;
    }
    q.in = {plane_ref(in, c), src.type, forward ? Read::Raw : Read::Coefficients};
    q.out = {plane_ref(out, c), dst.type, forward ? Write::Coefficients : Write::Raw};
    q.ll_w = q.w;
    q.ll_h = q.h;
    for (int k = 0; k < levels; ++k) {
      q.ll_w = lifting::low_count(q.ll_w);
      q.ll_h = lifting::low_count(q.ll_h);
    }
  }
  const cdf97::Post post = cdf97::post_of(p);
  // Component c's band at level k: w x h, halving the lifted axes per level.
  auto size_at = [&](int c, int k, bool x, bool y, int *w, int *h) {
    *w = planes[c].w;
    *h = planes[c].h;
    for (int i = 0; i < k; ++i) {
      if (x) *w = lifting::low_count(*w);
      if (y) *h = lifting::low_count(*h);
    }
  };
  auto common = [&](int c, Band *b) {
    b->ll_w = planes[c].ll_w;
    b->ll_h = planes[c].ll_h;
  };
  if (forward) {
    // Level k reads what level k - 1 left (the frame at k = 0) and keeps its
    // low band for level k + 1 in work plane k % 2 (the last level's in the
    // destination, or in the standard layout's row plane).
    auto level = [&](int c, Band *b, int k, bool x, bool y, const Source &first, const Sink &last_low,
                     const Sink &high) {
      common(c, b);
      const Planes &q = planes[c];
      size_at(c, k, x, y, &b->w, &b->h);
      b->lo_in = k == 0 ? first : work_source(q.work[(k - 1) % 2]);
      b->lo_out = k == levels - 1 ? last_low : work_sink(q.work[k % 2]);
      b->hi_out = high;
    };
    if (mallat) {
      for (int k = 0; k < levels; ++k)
        launch_level<true, true, true>(s, n, post, [&](int c, Band *b) {
          level(c, b, k, true, true, planes[c].in, planes[c].out, planes[c].out);
        });
    } else {
      for (int k = 0; k < levels; ++k)
        launch_level<true, true, false>(s, n, post, [&](int c, Band *b) {
          const Sink rows = work_sink(planes[c].work[2]);
          level(c, b, k, true, false, planes[c].in, rows, rows);
        });
      for (int k = 0; k < levels; ++k)
        launch_level<true, false, true>(s, n, post, [&](int c, Band *b) {
          level(c, b, k, false, true, work_source(planes[c].work[2]), planes[c].out, planes[c].out);
        });
    }
  } else {
    // Level k (coarsest first) takes its low band from level k + 1's work
    // plane (k + 1) % 2 (the coarsest from the coefficients) and leaves its
    // band in work plane k % 2 (the finest in `last`).
    auto level = [&](int c, Band *b, int k, bool x, bool y, const Source &coarsest, const Source &high,
                     const Sink &last) {
      common(c, b);
      const Planes &q = planes[c];
      size_at(c, k, x, y, &b->w, &b->h);
      b->lo_in = k == levels - 1 ? coarsest : work_source(q.work[(k + 1) % 2]);
      b->hi_in = high;
      b->lo_out = k == 0 ? last : work_sink(q.work[k % 2]);
    };
    if (mallat) {
      for (int k = levels - 1; k >= 0; --k)
        launch_level<false, true, true>(s, n, post, [&](int c, Band *b) {
          level(c, b, k, true, true, planes[c].in, planes[c].in, planes[c].out);
        });
    } else {
      for (int k = levels - 1; k >= 0; --k)
        launch_level<false, false, true>(s, n, post, [&](int c, Band *b) {
          level(c, b, k, false, true, planes[c].in, planes[c].in, work_sink(planes[c].work[2]));
        });
      for (int k = levels - 1; k >= 0; --k)
        launch_level<false, true, false>(s, n, post, [&](int c, Band *b) {
          const Source rows = work_source(planes[c].work[2]);
          level(c, b, k, true, false, rows, rows, planes[c].out);
        });
    }
  }
  detail::finish_destination(s, dst, out);
}

}  // namespace cdf97_launch

void cdf97_forward(detail::CudaState *s, const Cdf97Params &p, const FrameView &src, const FrameView &dst) {
  cdf97_launch::run(s, true, p, src, dst);
}
void cdf97_inverse(detail::CudaState *s, const Cdf97Params &p, const FrameView &src, const FrameView &dst) {
  cdf97_launch::run(s, false, p, src, dst);
}

}  // namespace cf::cuda
