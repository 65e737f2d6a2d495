// A quick estimate of how long an HT cleanup pass would be at each plane,
// so that rate control codes only the few planes around the one it will
// choose instead of every plane (written once for every backend).
//
// A quad with n significant samples at plane p, e_max the largest of their
// exponents, costs about 8.5 + n (e_max - 7/8) bits: its CxtVLC codeword
// and U-VLC residual, then MagSgn's U_q bits for each sample, less the top
// bits the codeword gives. An insignificant quad costs about 1/8 bit, its
// share of MEL's runs. The constants are a least-squares fit to the real
// coder's lengths on photos at 9/7 (the 14 tiled photos of the nvJPEG2000
// benchmark, grey and RGB, 1080p and 4K): the estimate of a cleanup pass of
// more than 100 bytes is within 2 % of its length for half of them and
// within 7 % for nine in ten, and the frame's total within 1 %.
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"
#include "core/shared/j2k_ht_block_coder_rules.hpp"

namespace cf::j2k::ht {

// A quad's, or a block's, estimate at a plane, in eighths of a bit, and the
// squared error a cleanup pass at that plane removes from its samples
// (cleanup_gain): one pass over the samples gives both.
struct PlaneEstimate {
  std::int64_t eighths = 0, gain = 0;
};

// Planes estimated in one pass over a block: each quad's magnitudes are
// read once for all of them, the planes then taken from registers.
constexpr int kEstimatedPlanes = 4;

// Estimates at planes top, top - 1, ... (at[j]: plane top - j; planes
// below 0 stay empty).
struct PlaneEstimates {
  PlaneEstimate at[kEstimatedPlanes];
};

// The magnitudes of the quad at (x, y), 0 outside the block.
struct QuadMagnitudes {
  std::uint32_t m[4] = {0, 0, 0, 0};
};
CF_HD QuadMagnitudes quad_magnitudes(const t1::BlockInput &in, int x, int y) {
  QuadMagnitudes q;
  for (int n = 0; n < 4; ++n) {
    const int sx = x + (n >> 1), sy = y + (n & 1);
    if (sx >= in.width || sy >= in.height) continue;
    const std::int32_t s = in.samples[sy * in.stride + sx];
    q.m[n] = s < 0 ? 0u - std::uint32_t(s) : std::uint32_t(s);
  }
  return q;
}

// Adds a quad's estimates at planes top, top - 1, ... to `sum`. With n of
// its samples significant at a plane, its exponent e_max is that of its
// largest magnitude (the exponent bit_length(2 mu - 1) grows with mu).
CF_HD void add_quad_estimates(const QuadMagnitudes &q, int top, int shift, PlaneEstimates &sum) {
  std::uint32_t largest = q.m[0];
  for (int n = 1; n < 4; ++n) largest = q.m[n] > largest ? q.m[n] : largest;
  for (int j = 0; j < kEstimatedPlanes; ++j) {  // a constant count: unrolled, `sum` in registers
    const int plane = top - j;
    if (plane < 0) continue;
    const std::uint32_t mu = largest >> plane;
    if (mu == 0) {  // insignificant: its share of MEL's runs, no gain
      sum.at[j].eighths += 1;
      continue;
    }
    int significant = 0;
    std::int64_t gain = 0;
    for (int n = 0; n < 4; ++n) {
      significant += (q.m[n] >> plane) != 0;
      gain += magnitude_gain(q.m[n], plane, shift);
    }
    sum.at[j].eighths += 68 + significant * (8 * bit_length(2 * mu - 1) - 7);
    sum.at[j].gain += gain;
  }
}

CF_HD PlaneEstimates block_estimates(const t1::BlockInput &in, int top, int shift) {
  PlaneEstimates sum;
  for (int y = 0; y < in.height; y += 2)
    for (int x = 0; x < in.width; x += 2) add_quad_estimates(quad_magnitudes(in, x, y), top, shift, sum);
  return sum;
}

// Bytes of an estimate of `eighths` eighths of a bit.
CF_HD int estimate_bytes(std::int64_t eighths) { return int((eighths + 63) / 64); }

// The estimates of a block whose magnitudes OR to `any`, as
// encode_ht_block's candidates at every plane (in.style must ask for
// candidates): the same results and distortions, with estimated lengths
// (each at least the one before) in place of codewords; nothing is written
// to out.bytes. of(top, shift) gives the block's PlaneEstimates from plane
// `top` down (a warp's or one thread's), asked for as the candidates reach
// planes it has not given; code_candidates asks for a plane's gain right
// after its length.
template <class Of>
CF_HD t1::BlockResult estimate_candidates(const t1::BlockInput &in, const t1::BlockOutput &out, std::uint32_t any,
                                          Of of, bool writes) {
  const int shift = t1::distortion_shift(t1::bitplanes_of(any));
  PlaneEstimates group;
  int group_top = -1;  // none yet: the candidates go down from the top plane
  std::int64_t gain = 0;
  const auto estimate = [&](int plane, std::uint8_t *, int, int min_length) {
    if (group_top < 0 || plane <= group_top - kEstimatedPlanes) group = of(plane, shift), group_top = plane;
    const PlaneEstimate e = group.at[group_top - plane];
    gain = e.gain;
    const int bytes = estimate_bytes(e.eighths);
    return bytes > min_length ? bytes : min_length;
  };
  const auto last_gain = [&](int, int) { return gain; };
  return code_candidates(in, out, any, {}, estimate, last_gain, writes);
}

CF_HD t1::BlockResult estimate_ht_block(const t1::BlockInput &in, const t1::BlockOutput &out) {
  if (ht_block_refusal(in) != t1::BlockStatus::kOk) return ht_block_start(in, out, 0, {});
  const auto of = [&](int top, int shift) { return block_estimates(in, top, shift); };
  return estimate_candidates(in, out, t1::magnitude_or(in), of, true);
}

}  // namespace cf::j2k::ht
