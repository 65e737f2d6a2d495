// CPU backends of the JPEG 2000 encoder's transform stage (internal): the
// samples of every tile-component of a frame, DC-shifted, colour
// transformed (RCT or ICT on components 0..2 when the layout's parameters
// say mct), decomposed by the wavelet (5/3 or 9/7, T.800 Annex F) and, when
// irreversible, quantised with step_reciprocals[band.step_index], into the
// int32 coefficient array that core/codec/j2k_layout.hpp describes
// (layout.coefficient_count entries). cf::cpu is the serial reference;
// cf::omp shares the tiles, components, rows and columns over threads and
// gives the same bits. The rules are core/shared/j2k_dwt_rules.hpp and
// core/shared/j2k_quant_rules.hpp; the steps are in cpu/j2k_transform_stages.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "core/codec/j2k_layout.hpp"
#include "cudafilters/j2k.hpp"

namespace cf::cpu {
// Throws cf::Error when the frame does not match the layout (components,
// sizes, sample type, host memory) or a step reciprocal is missing.
void j2k_transform(const J2kInput &in, const j2k::Layout &layout, const std::vector<float> &step_reciprocals,
                   std::int32_t *coefficients);
}  // namespace cf::cpu

namespace cf::omp {
// threads = 0: all cores.
void j2k_transform(const J2kInput &in, const j2k::Layout &layout, const std::vector<float> &step_reciprocals,
                   std::int32_t *coefficients, int threads);
}  // namespace cf::omp
