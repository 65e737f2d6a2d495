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

CF_HD PlaneEstimate quad_estimate(const t1::BlockInput &in, int x, int y, int plane, int shift) {
  const Quad q = load_quad(in, x, y, plane);
  const int n = popcount4(q.rho);
  PlaneEstimate e;
  e.eighths = n > 0 ? 68 + n * (8 * q.e_max - 7) : 1;
  // A quad insignificant at `plane` gains nothing there.
  if (n > 0) e.gain = quad_gain(in, x, y, plane, shift);
  return e;
}

CF_HD PlaneEstimate block_estimate(const t1::BlockInput &in, int plane, int shift) {
  PlaneEstimate sum;
  for (int y = 0; y < in.height; y += 2)
    for (int x = 0; x < in.width; x += 2) {
      const PlaneEstimate e = quad_estimate(in, x, y, plane, shift);
      sum.eighths += e.eighths;
      sum.gain += e.gain;
    }
  return sum;
}

// Bytes of an estimate of `eighths` eighths of a bit.
CF_HD int estimate_bytes(std::int64_t eighths) { return int((eighths + 63) / 64); }

// The estimates of a block whose magnitudes OR to `any`, as
// encode_ht_block's candidates at every plane (in.style must ask for
// candidates): the same results and distortions, with estimated lengths
// (each at least the one before) in place of codewords; nothing is written
// to out.bytes. of(plane, shift) gives the block's PlaneEstimate (a warp's
// or one thread's); code_candidates asks for a plane's gain right after its
// length.
template <class Of>
CF_HD t1::BlockResult estimate_candidates(const t1::BlockInput &in, const t1::BlockOutput &out, std::uint32_t any,
                                          Of of, bool writes) {
  const int shift = t1::distortion_shift(t1::bitplanes_of(any));
  std::int64_t gain = 0;
  const auto estimate = [&](int plane, std::uint8_t *, int, int min_length) {
    const PlaneEstimate e = of(plane, shift);
    gain = e.gain;
    const int bytes = estimate_bytes(e.eighths);
    return bytes > min_length ? bytes : min_length;
  };
  const auto last_gain = [&](int, int) { return gain; };
  return code_candidates(in, out, any, {}, estimate, last_gain, writes);
}

CF_HD t1::BlockResult estimate_ht_block(const t1::BlockInput &in, const t1::BlockOutput &out) {
  if (ht_block_refusal(in) != t1::BlockStatus::kOk) return ht_block_start(in, out, 0, {});
  const auto of = [&](int plane, int shift) { return block_estimate(in, plane, shift); };
  return estimate_candidates(in, out, t1::magnitude_or(in), of, true);
}

}  // namespace cf::j2k::ht
