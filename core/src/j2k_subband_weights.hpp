// What each subband of a JPEG 2000 decomposition weighs (T.800 Annexes E
// and F), host side, internal to core/: the wavelets' synthesis norms, the
// quantisation steps of the irreversible path and the distortion weights
// that rate allocation uses. Every list is per subband in
// subbands_in_order(levels) (QCD's order).
//
// Units: coefficients are in the units of the DC-shifted samples (a sample
// of b bits spans -2^(b-1)..2^(b-1)-1), which both wavelets keep (T.800's
// normalisation: the low-pass analysis filters pass a constant unchanged).
//  - synthesis norm of subband b: the L2 norm of the image the decoder's
//    inverse transform (F.3, without the 5/3's rounding) makes from a
//    single coefficient of value 1 in b, far from the borders; an error e
//    in that coefficient becomes an image error of squared sum
//    e^2 norm_b^2.
//  - step Delta_b (irreversible): in coefficient units; quantisation index
//    q stands for the coefficient q Delta_b (plus the decoder's
//    reconstruction offset).
//  - distortion weight: (Delta_b norm_b)^2 with Delta_b = 1 when
//    reversible; the squared image error, in squared sample units, of a
//    unit squared error of a quantisation index (what the block coder
//    measures).
#pragma once

#include <cstdint>
#include <vector>

#include "core/codec/j2k_markers.hpp"

namespace cf::j2k {

// The 1-D synthesis norm of a unit coefficient of the low-pass (high = false)
// or high-pass band of decomposition level `level` (>= 1), computed by
// running the inverse lifting in double on a signal long enough that the
// borders play no part.
double synthesis_norm_1d(bool reversible, bool high, std::uint32_t level);

// The 2-D synthesis norm of every subband: the product of the 1-D norms of
// its horizontal and vertical bands (the transform is separable).
std::vector<double> synthesis_norms(bool reversible, std::uint32_t levels);

// The irreversible steps of this encoder: Delta_b = 1 / norm_b (a
// quantisation error of one step costs about one unit of image error),
// expounded for QCD with R_b = bit_depth + gain_log2(b).
std::vector<SubbandStep> irreversible_steps(std::uint32_t bit_depth, std::uint32_t levels);

// The step the decoder reads: 2^(R_b - epsilon_b) (1 + mu_b / 2^11) with
// R_b = bit_depth + gain_log2(b) (T.800 E-3, E-4).
double decoded_step(const SubbandStep &s, std::uint32_t bit_depth, Orientation o);

// 1 / decoded_step of each subband, rounded to float: the quantiser's
// multiplier (core/shared/j2k_quant_rules.hpp).
std::vector<float> step_reciprocals(const std::vector<SubbandStep> &steps, std::uint32_t bit_depth,
                                    std::uint32_t levels);

// (Delta_b norm_b)^2 of each subband; Delta_b = 1 when reversible (steps
// then ignored), else decoded_step of steps[b].
std::vector<double> distortion_weights(bool reversible, const std::vector<SubbandStep> &steps, std::uint32_t bit_depth,
                                       std::uint32_t levels);

}  // namespace cf::j2k
