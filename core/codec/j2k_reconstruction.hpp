// What the JPEG 2000 decoder's reconstruction stage reads, the same on
// every backend (cpu/j2k_reconstruct.hpp, kernels/j2k_tier1_decode_cuda.hpp):
// its settings beside the layout (Reconstruction), the size of the frame
// it writes, and in cf::j2k::reconstruct the geometry of the kept
// resolutions and the check of a frame against the layout, which every
// backend applies alike. Internal to core/.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/codec/j2k_layout.hpp"
#include "core/shared/ceil_div.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/frame.hpp"

namespace cf::j2k {

struct Reconstruction {
  // Delta_b of each band of Layout::bands (by its index there, so each
  // tile-component has its own), read for the irreversible tile-components'
  // bands only; empty when every tile-component is reversible.
  std::vector<float> steps;
  // The ROI shift s (RGN's SPrgn) of each tile-component, by its index in
  // Layout::tile_components; empty: no ROI anywhere.
  std::vector<std::uint32_t> roi_shifts;
  // Highest resolution levels discarded: 0..NL.
  std::uint32_t reduce = 0;
  // Fraction bits of the irreversible tile-components' coefficients (0 or
  // 1; quant::dequantise), where ROI scaling is undone (quant::roi_descale);
  // the reversible ones' coefficients are integers (none).
  std::uint32_t irreversible_fraction_bits = 0;
  // Each component's output samples shifted left by this many bits
  // (J2kDecodeSettings::shift_up).
  std::uint32_t shift_up[kMaxPlanes] = {};
};

// The size of component c once `reduce` levels are discarded: the width
// and height the output frame's component c must have.
struct Size {
  std::uint32_t width = 0, height = 0;
};
Size reduced_component_size(const CodestreamParams &p, std::uint32_t c, std::uint32_t reduce);

}  // namespace cf::j2k

namespace cf::j2k::reconstruct {

struct Frame {
  const Layout &layout;
  const std::int32_t *coefficients;
  const Reconstruction &r;
  const FrameView &out;
};

// NL of a tile-component: its resolutions are 0..NL.
inline std::uint32_t levels_of(const TileComponentLayout &tc) { return std::uint32_t(tc.resolutions.size()) - 1; }
// The resolution the output is made of.
inline const Rect &kept(const TileComponentLayout &tc, std::uint32_t reduce) {
  return tc.resolutions[levels_of(tc) - reduce];
}

// host_only: the cpu and openmp backends, which write host frames.
inline void check(const Frame &f, bool host_only = true) {
  const CodestreamParams &p = f.layout.params;
  const FrameView &v = f.out;
  const std::uint32_t reduce = f.r.reduce;
  const auto fail = [](const std::string &m) { throw Error("JPEG 2000 reconstruction: " + m); };
  if (host_only && v.memory != Memory::Host) fail("the cpu and openmp backends write host frames");
  if (v.type != SampleType::U8 && v.type != SampleType::U16)
    fail(std::string("samples must be U8 or U16, not ") + sample_type_name(v.type));
  if (std::size_t(v.n_components) != p.components.size())
    fail("the frame has " + std::to_string(v.n_components) + " components, the codestream " +
         std::to_string(p.components.size()) + " (a frame holds at most " + std::to_string(kMaxPlanes) + ")");
  if (const char *why = check_frame(v); why && *why) fail(std::string("output frame: ") + why);
  for (const TileComponentLayout &tc : f.layout.tile_components) {
    if (tc.resolutions.empty()) fail("the layout has no resolutions (make_layout builds them)");
    if (reduce > levels_of(tc))
      fail("reduce " + std::to_string(reduce) + " is more than component " + std::to_string(tc.component) + "'s " +
           std::to_string(levels_of(tc)) + " decomposition levels (T.800 B.5: resolutions 0..NL)");
  }
  for (int c = 0; c < v.n_components; ++c) {
    const cf::Component &k = v.components[c];
    const j2k::Component &q = p.components[std::size_t(c)];
    const Size s = reduced_component_size(p, std::uint32_t(c), reduce);
    if (std::uint64_t(k.width) != s.width || std::uint64_t(k.height) != s.height)
      fail("component " + std::to_string(c) + " is " + std::to_string(k.width) + "x" + std::to_string(k.height) +
           ", the codestream's " + std::to_string(s.width) + "x" + std::to_string(s.height) + " at reduce " +
           std::to_string(reduce) + " (T.800 B-12, B-14)");
    const std::uint32_t holds = v.type == SampleType::U8 ? 8 : 16;
    if (q.bit_depth < 1 || std::uint64_t(q.bit_depth) + f.r.shift_up[c] > holds)
      fail("component " + std::to_string(c) + " has " + std::to_string(q.bit_depth) + " bits" +
           (f.r.shift_up[c] ? " shifted up by " + std::to_string(f.r.shift_up[c]) : std::string()) + ", more than " +
           sample_type_name(v.type) + " holds");
  }
  if (p.mct) {
    if (p.components.size() < 3) fail("the colour transform (mct) needs 3 components (T.800 G.2)");
    for (const TileLayout &t : f.layout.tiles)
      for (std::size_t k = 1; k < 3; ++k) {
        const Rect &a = kept(f.layout.tile_components[t.first_tile_component], reduce);
        const Rect &b = kept(f.layout.tile_components[t.first_tile_component + k], reduce);
        if (a.width() != b.width() || a.height() != b.height())
          fail("the colour transform (mct) needs components 0, 1 and 2 of one size; component " + std::to_string(k) +
               " differs from component 0 (T.800 G.2)");
        if (f.layout.tile_components[t.first_tile_component + k].reversible !=
            f.layout.tile_components[t.first_tile_component].reversible)
          fail(
              "the colour transform (mct) needs components 0, 1 and 2 of one wavelet (the RCT goes with the 5/3, "
              "T.800 G.2; the ICT with the 9/7, G.3); tile " +
              std::to_string(t.index) + ", component " + std::to_string(k) + " differs from component 0");
      }
  }
  const bool any_irreversible = std::any_of(f.layout.tile_components.begin(), f.layout.tile_components.end(),
                                            [](const TileComponentLayout &tc) { return !tc.reversible; });
  if (any_irreversible && f.r.steps.size() != f.layout.bands.size())
    fail("irreversible coefficients need a step per subband: " + std::to_string(f.r.steps.size()) + " given, " +
         std::to_string(f.layout.bands.size()) + " subbands");
  if (!f.r.roi_shifts.empty() && f.r.roi_shifts.size() != f.layout.tile_components.size())
    fail("ROI shifts are per tile-component: " + std::to_string(f.r.roi_shifts.size()) + " given, " +
         std::to_string(f.layout.tile_components.size()) + " tile-components");
  if (!f.coefficients && f.layout.coefficient_count) fail("no coefficients");
}

// Whether tile-component k of tile t comes out as one value: nothing of it
// coded, and not made by the colour transform out of coded ones. Every
// step maps zero coefficients to zero (the lifting steps of both wavelets,
// both colour transforms, rounding), so its samples are those of a zero,
// and it needs no work block, no load and no wavelet level.
inline bool is_constant(const Layout &l, const TileLayout &t, std::size_t k) {
  const auto coded = [&](std::size_t j) { return l.tile_components[t.first_tile_component + j].coded; };
  if (coded(k)) return false;
  return !l.params.mct || k >= 3 || (!coded(0) && !coded(1) && !coded(2));
}

}  // namespace cf::j2k::reconstruct
