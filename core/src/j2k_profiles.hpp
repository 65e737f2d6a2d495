// Codestream profiles (J2kSettings::profile): the settings each one codes
// with, the frames it admits, and what it writes into SIZ and POC.
// Internal to core/.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/codec/j2k_markers.hpp"
#include "cudafilters/j2k.hpp"

namespace cf::j2k {

// The settings the encoder codes `in` with: `s`, or with a profile the
// profile's in place of the caller's (cudafilters/j2k.hpp says which).
J2kSettings profiled(const J2kSettings &s, const J2kInput &in);

// What a profile asks of the frame or of the settings that `in` or `s`
// breaks ("" when none); `s` as profiled gives it.
std::string profile_rules(const J2kInput &in, const J2kSettings &s);

// SIZ's Rsiz of the profile (0 without one; Part 15's bit for HT blocks is
// the marker writer's).
std::uint16_t profile_rsiz(const J2kSettings &s);

// The bound of CAP's MAGB the profile asks for (0: none): imf-ht's
// reversible codestreams declare Table H.2's B.
std::uint32_t profile_cap_magnitude_bits(const J2kInput &in, const J2kSettings &s);

// The profile's progression order changes (empty: COD's order alone) for
// a frame of `components` components.
std::vector<ProgressionChange> profile_poc(const J2kSettings &s, int components);

}  // namespace cf::j2k
