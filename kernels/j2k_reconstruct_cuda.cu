// CUDA backend of the JPEG 2000 decoder's reconstruction
// (kernels/j2k_tier1_decode_cuda.hpp; device code in
// kernels/j2k_reconstruct_kernels.cuh). Per frame: the tables (tile-components,
// their coefficient blocks, bands, steps, each level's regions) laid out in
// one host image and uploaded in one copy into the engine's
// Slot::J2kReconstruct buffer, which also holds the work blocks and two
// scratch areas for the levels' results; then, for each wavelet, the
// tile-components without levels dequantised into their work blocks, one
// launch per level from the deepest (the last writing the work blocks),
// and the store into the frame. The buffer grows when a frame needs more and is otherwise
// reused.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/codec/j2k_reconstruction.hpp"  // check, kept, levels_of
#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/j2k_reconstruct_kernels.cuh"
#include "kernels/j2k_tier1_decode_cuda.hpp"
#include "kernels/launch.cuh"

namespace cf::cuda {

namespace j2k_reconstruct_launch {

using j2k_kernels::level_tiles;
using j2k_reconstruct_kernels::Band;
using j2k_reconstruct_kernels::dequantise;
using j2k_reconstruct_kernels::DequantiseArgs;
using j2k_reconstruct_kernels::InverseLevelArgs;
using j2k_reconstruct_kernels::kThreads;
using j2k_reconstruct_kernels::Region;
using j2k_reconstruct_kernels::Source;
using j2k_reconstruct_kernels::store_samples;
using j2k_reconstruct_kernels::StoreArgs;
using j2k_reconstruct_kernels::TileComponent;
using j2k_reconstruct_kernels::wavelet_level_inverse;
namespace rs = j2k::reconstruct;

long long blocks_for(std::uint64_t items) { return (long long)((items + kThreads - 1) / kThreads); }

// The host side of one frame's tables, and the launch sizes.
struct Tables {
  std::vector<TileComponent> tcs;
  std::vector<Source> sources;
  std::vector<std::uint8_t> reversible;
  std::vector<Band> bands;
  // Per wavelet (0: 5/3, 1: 9/7) and level l = 1..deepest (at l - 1): the
  // region each tile-component rebuilds, empty for those of the other
  // wavelet or with fewer levels.
  std::vector<std::vector<Region>> regions[2];
  std::vector<int> level_blocks[2];  // per level: the most tiles of a tile-component
  bool has[2] = {false, false};
  bool unleveled[2] = {false, false};  // some tile-component of the wavelet is loaded without levels
  std::uint32_t deepest = 0;
  int sample_blocks = 0;
  std::size_t work = 0;  // samples of every work block
};

Tables make_tables(const j2k::Layout &l, const j2k::Reconstruction &r) {
  const j2k::CodestreamParams &p = l.params;
  Tables t;
  for (const j2k::TileComponentLayout &tc : l.tile_components) t.deepest = std::max(t.deepest, rs::levels_of(tc));
  for (int w = 0; w < 2; ++w) {
    t.regions[w].assign(t.deepest, std::vector<Region>(l.tile_components.size(), Region{0, 0, 0, 0}));
    t.level_blocks[w].assign(t.deepest, 0);
  }
  // The constant tile-components (rs::is_constant) load zeros and skip the
  // wavelet levels: their regions stay empty.
  std::vector<bool> constant(l.tile_components.size(), false);
  for (const j2k::TileLayout &tile : l.tiles)
    for (std::size_t k = 0; k < p.components.size(); ++k)
      constant[tile.first_tile_component + k] = rs::is_constant(l, tile, k);
  for (std::size_t i = 0; i < l.tile_components.size(); ++i) {
    const j2k::TileComponentLayout &tc = l.tile_components[i];
    const j2k::Rect &kept = rs::kept(tc, r.reduce);
    const std::uint32_t nl = rs::levels_of(tc), kept_levels = nl - r.reduce;
    const j2k::Component &q = p.components[tc.component];
    // Resolution coordinates to the reduced component's (B-14 on the image origin), as store_row.
    const std::uint64_t sx = std::uint64_t(q.subsample_x) << r.reduce, sy = std::uint64_t(q.subsample_y) << r.reduce;
    const int frame_x = int(kept.x0 - ceil_div(p.x0, sx)), frame_y = int(kept.y0 - ceil_div(p.y0, sy));
    t.tcs.push_back({t.work, int(kept.width()), int(kept.height()), int(tc.component), frame_x, frame_y,
                     int(t.bands.size()), int(j2k::subband_count(kept_levels))});
    t.sources.push_back({tc.offset, tc.coded ? int(tc.coefficient_stride) : 0,
                         r.roi_shifts.empty() ? 0u : r.roi_shifts[i], tc.reversible ? 0u : r.irreversible_fraction_bits,
                         constant[i] ? 0 : int(kept_levels)});
    t.reversible.push_back(tc.reversible ? 1 : 0);
    // Bands in subbands_in_order(): those of resolutions 0..kept_levels come first.
    for (std::uint32_t b = 0; b < j2k::subband_count(kept_levels); ++b) t.bands.push_back({int(tc.first_band + b)});
    const int w = tc.reversible ? 0 : 1;
    t.has[w] = true;
    t.unleveled[w] |= t.sources.back().levels == 0;
    t.work += std::size_t(kept.width()) * kept.height();
    t.sample_blocks = std::max(t.sample_blocks, int(blocks_for(std::uint64_t(kept.width()) * kept.height())));
    // Level lv rebuilds resolution nl - lv + 1.
    const int halo = tc.reversible ? j2k::dwt::Reversible53::kSteps : j2k::dwt::Irreversible97::kSteps;
    for (std::uint32_t lv = r.reduce + 1; lv <= nl && !constant[i]; ++lv) {
      const j2k::Rect &res = tc.resolutions[nl - lv + 1];
      t.regions[w][lv - 1][i] = {res.x0, res.y0, int(res.width()), int(res.height())};
      t.level_blocks[w][lv - 1] =
          std::max(t.level_blocks[w][lv - 1], level_tiles(int(res.width()), int(res.height()), halo));
    }
  }
  return t;
}

// Where each table goes in the Slot::J2kReconstruct buffer, then the work
// blocks and the two areas the levels below the last leave their results in.
struct Placement {
  std::size_t tcs = 0, sources = 0, reversible = 0, bands = 0, steps = 0, regions = 0, image = 0;
  std::size_t work = 0, low[2] = {0, 0}, total = 0;
};

template <class T>
std::size_t bytes_of(const std::vector<T> &v) {
  return detail::align_up(sizeof(T) * v.size());
}

Placement place(const Tables &t, const j2k::Reconstruction &r) {
  Placement p;
  p.sources = p.tcs + bytes_of(t.tcs);
  p.reversible = p.sources + bytes_of(t.sources);
  p.bands = p.reversible + bytes_of(t.reversible);
  p.steps = p.bands + bytes_of(t.bands);
  p.regions = p.steps + bytes_of(r.steps);
  p.image = p.regions + 2 * std::size_t(t.deepest) * bytes_of(std::vector<Region>(t.tcs.size()));
  p.work = detail::align_up(p.image);
  // Level lv leaves its result in low[lv % 2] for lv from reduce + 2 up to
  // the deepest: an area only for a parity some such level has.
  const auto needed = [&](std::uint32_t parity) {
    return t.deepest >= r.reduce + 3 || (t.deepest == r.reduce + 2 && (r.reduce + 2) % 2 == parity);
  };
  p.low[0] = p.work + detail::align_up(4 * t.work);
  p.low[1] = p.low[0] + (needed(0) ? detail::align_up(4 * t.work) : 0);
  p.total = p.low[1] + (needed(1) ? detail::align_up(4 * t.work) : 0);
  return p;
}

template <class T>
void put(std::vector<std::uint8_t> &image, std::size_t at, const std::vector<T> &v) {
  if (!v.empty()) std::memcpy(image.data() + at, v.data(), sizeof(T) * v.size());
}

// Level lv leaves its result in low[lv % 2], the last (reduce + 1) in the
// work blocks; a level below a tile-component's deepest reads low[(lv + 1) % 2].
template <class F>
void levels(detail::CudaState *s, const Tables &t, int w, std::uint32_t reduce, const std::int32_t *coefficients,
            std::uint8_t *base, const Placement &at) {
  using T = typename F::Sample;
  const std::size_t region_table = sizeof(Region) * t.tcs.size();
  for (std::uint32_t lv = t.deepest; lv > reduce; --lv) {
    if (t.level_blocks[w][lv - 1] == 0) continue;  // no tile-component of this wavelet has the level
    const InverseLevelArgs<T> a{
        reinterpret_cast<const TileComponent *>(base + at.tcs),
        reinterpret_cast<const Source *>(base + at.sources),
        reinterpret_cast<const Band *>(base + at.bands),
        reinterpret_cast<const float *>(base + at.steps),
        reinterpret_cast<const Region *>(base + at.regions +
                                         detail::align_up(region_table) * (std::size_t(w) * t.deepest + lv - 1)),
        t.level_blocks[w][lv - 1],
        int(lv),
        int(reduce),
        coefficients,
        reinterpret_cast<const T *>(base + at.low[(lv + 1) % 2]),
        reinterpret_cast<T *>(base + (lv == reduce + 1 ? at.work : at.low[lv % 2]))};
    launch_kernel(s, wavelet_level_inverse<F>, (long long)t.tcs.size() * a.blocks_per_tc, kThreads, a,
                  "the JPEG 2000 inverse wavelet level kernel");
  }
}

void reconstruct(detail::CudaState *s, const j2k::Layout &l, const std::int32_t *coefficients,
                 const j2k::Reconstruction &r, const FrameView &out) {
  rs::check(rs::Frame{l, coefficients, r, out}, false);
  detail::DeviceScope scope(s);
  const Tables t = make_tables(l, r);
  const Placement at = place(t, r);
  auto *base = static_cast<std::uint8_t *>(s->reserve(detail::Slot::J2kReconstruct, at.total));

  std::vector<std::uint8_t> image(at.image);
  put(image, at.tcs, t.tcs);
  put(image, at.sources, t.sources);
  put(image, at.reversible, t.reversible);
  put(image, at.bands, t.bands);
  put(image, at.steps, r.steps);
  const std::size_t region_table = detail::align_up(sizeof(Region) * t.tcs.size());
  for (int w = 0; w < 2; ++w)
    for (std::uint32_t lv = 1; lv <= t.deepest; ++lv)
      put(image, at.regions + region_table * (std::size_t(w) * t.deepest + lv - 1), t.regions[w][lv - 1]);
  if (!image.empty())
    detail::check(cudaMemcpyAsync(base, image.data(), image.size(), cudaMemcpyHostToDevice, s->stream),
                  "uploading the JPEG 2000 reconstruction's tables");

  const FrameView f = detail::stage_destination(s, out, detail::Slot::Destination);
  const auto *tcs = reinterpret_cast<const TileComponent *>(base + at.tcs);
  const auto *reversible = reinterpret_cast<const std::uint8_t *>(base + at.reversible);
  const long long sample_blocks = (long long)t.tcs.size() * t.sample_blocks;
  const DequantiseArgs d{coefficients,
                         tcs,
                         reinterpret_cast<const Source *>(base + at.sources),
                         reversible,
                         reinterpret_cast<const Band *>(base + at.bands),
                         reinterpret_cast<const float *>(base + at.steps),
                         t.sample_blocks,
                         base + at.work};
  StoreArgs a{};
  a.tcs = tcs;
  a.reversible = reversible;
  for (int c = 0; c < f.n_components; ++c) {
    a.planes[c] = plane_ref(f, c);
    a.bit_depth[c] = int(l.params.components[std::size_t(c)].bit_depth);
    a.shift_up[c] = int(r.shift_up[c]);
  }
  a.mct = l.params.mct;
  a.blocks_per_tc = int(ceil_div(t.sample_blocks, j2k_reconstruct_kernels::kStoreItems));
  const long long store_blocks = (long long)t.tcs.size() * a.blocks_per_tc;
  a.work = base + at.work;
  const bool u8 = f.type == SampleType::U8;
  if (t.has[0]) {
    if (t.unleveled[0])
      launch_kernel(s, dequantise<std::int32_t>, sample_blocks, kThreads, d, "the JPEG 2000 coefficient load kernel");
    levels<j2k::dwt::Reversible53>(s, t, 0, r.reduce, coefficients, base, at);
    launch_kernel(s, u8 ? store_samples<std::int32_t, std::uint8_t> : store_samples<std::int32_t, std::uint16_t>,
                  store_blocks, kThreads, a, "the JPEG 2000 sample store kernel");
  }
  if (t.has[1]) {
    if (t.unleveled[1])
      launch_kernel(s, dequantise<float>, sample_blocks, kThreads, d, "the JPEG 2000 dequantisation kernel");
    levels<j2k::dwt::Irreversible97>(s, t, 1, r.reduce, coefficients, base, at);
    launch_kernel(s, u8 ? store_samples<float, std::uint8_t> : store_samples<float, std::uint16_t>, store_blocks,
                  kThreads, a, "the JPEG 2000 sample store kernel");
  }
  detail::finish_destination(s, out, f);
}

}  // namespace j2k_reconstruct_launch

std::int32_t *j2k_frame_coefficients(detail::CudaState *s, std::size_t count) {
  detail::DeviceScope scope(s);
  return static_cast<std::int32_t *>(
      s->reserve(detail::Slot::J2kCoefficients, std::max<std::size_t>(1, sizeof(std::int32_t) * count)));
}

void j2k_reconstruct(detail::CudaState *s, const j2k::Layout &layout, const std::int32_t *coefficients,
                     const j2k::Reconstruction &r, const FrameView &out) {
  j2k_reconstruct_launch::reconstruct(s, layout, coefficients, r, out);
}

}  // namespace cf::cuda
