// From the public settings and frame to T.800's parameters, with the
// rules they must keep. Internal to core/.
#pragma once

#include <string>

#include "core/codec/j2k_layout.hpp"
#include "core/codec/j2k_markers.hpp"
#include "cudafilters/j2k.hpp"
#include "j2k_packet_plan.hpp"

namespace cf::j2k {

// The codestream parameters of `in` coded with `s` (guard bits 2: the
// encoder raises them if a subband needs more). Assumes j2k_encode_check
// passed.
CodestreamParams codestream_params(const J2kInput &in, const J2kSettings &s);

// The most decomposition levels every tile-component of `l` allows: each
// resolution keeps at least one sample in each direction, so levels <=
// floor(log2(shortest side of the smallest tile-component)).
std::uint32_t max_levels(const Layout &l);

// j2k_encode_check of profiled settings, giving the plan of `in` coded
// with `s` in `layout`
// and its packets in `packets` when it passes (one plan for the check and
// the encoder).
std::string plan_check(const J2kInput &in, const J2kSettings &s, Layout &layout, PacketPlan &packets);

}  // namespace cf::j2k
