// CPU backends of the JPEG 2000 decoder's reconstruction stage (internal):
// from the int32 coefficient array that core/codec/j2k_layout.hpp describes
// (each tile-component's block deinterleaved, LL at the top-left), the
// frame's samples. Per tile and tile-component, with the tile-component's
// own wavelet (TileComponentLayout::reversible): the ROI scaling undone
// (T.800 H.2) and, when irreversible, each coefficient times its
// subband's step (E.1.1.1); the inverse wavelet (5/3 or 9/7, F.3) level by
// level from the lowest resolution up to resolution NL - reduce; the
// inverse colour transform on components 0..2 when the layout's parameters
// say mct (the RCT where the tile's components 0..2 are 5/3, G.2, the ICT
// where they are 9/7, G.3; mixed is refused); the DC level shift undone, the
// irreversible samples rounded to the nearest integer, and every sample
// clamped to its component's range (G.1.2) and written to the frame. A
// tile-component the decoder stored nothing of (TileComponentLayout::coded
// false) has zero coefficients; unless the colour transform joins it to a
// coded one, it is written as the samples of a zero without loading or
// wavelet levels (every step maps zeros to zeros).
// cf::cpu is the serial reference; cf::omp shares the tiles, components,
// rows and columns over threads and gives the same bits. The rules are
// core/shared/j2k_idwt_rules.hpp and core/shared/j2k_dequant_rules.hpp;
// the steps are in cpu/j2k_reconstruct_stages.hpp, the settings, the
// frame's size and its check in core/codec/j2k_reconstruction.hpp.
//
// The output frame has one U8 or U16 component per codestream component
// (at most 4), in host memory, of the reduced size (B-14 with the levels
// discarded: component c spans ceil(x / (XRsiz 2^reduce)) for x in
// [x0, x1), and likewise down). A signed component comes out offset by
// 2^(depth - 1) (j2k_dequant_rules.hpp's output_sample).
#pragma once

#include <cstdint>
#include <vector>

#include "core/codec/j2k_layout.hpp"
#include "core/codec/j2k_reconstruction.hpp"  // Reconstruction
#include "cudafilters/frame.hpp"

namespace cf::cpu {
// Throws cf::Error when the frame does not match the layout (components,
// sizes, sample type, host memory; cuda::j2k_reconstruct also takes device
// frames) or the steps, ROI shifts, shifts or reduce do not fit it.
void j2k_reconstruct(const j2k::Layout &layout, const std::int32_t *coefficients, const j2k::Reconstruction &r,
                     const FrameView &out);
}  // namespace cf::cpu

namespace cf::omp {
// threads = 0: all cores.
void j2k_reconstruct(const j2k::Layout &layout, const std::int32_t *coefficients, const j2k::Reconstruction &r,
                     const FrameView &out, int threads);
}  // namespace cf::omp
