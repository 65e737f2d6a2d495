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

// One quad's estimate at `plane`, in eighths of a bit.
CF_HD int quad_estimate_eighths(const t1::BlockInput &in, int x, int y, int plane) {
  const Quad q = load_quad(in, x, y, plane);
  const int n = popcount4(q.rho);
  return n > 0 ? 68 + n * (8 * q.e_max - 7) : 1;
}

// Bytes of an estimate of `eighths` eighths of a bit.
CF_HD int estimate_bytes(std::int64_t eighths) { return int((eighths + 63) / 64); }

// The block's estimate at `plane`, in eighths of a bit.
CF_HD std::int64_t block_estimate_eighths(const t1::BlockInput &in, int plane) {
  std::int64_t sum = 0;
  for (int y = 0; y < in.height; y += 2)
    for (int x = 0; x < in.width; x += 2) sum += quad_estimate_eighths(in, x, y, plane);
  return sum;
}

// The estimates of a block as encode_ht_block's candidates at every plane
// (in.style must ask for candidates): the same results and distortions,
// with estimated lengths (each at least the one before) in place of
// codewords; nothing is written to out.bytes.
CF_HD t1::BlockResult estimate_ht_block(const t1::BlockInput &in, const t1::BlockOutput &out) {
  if (ht_block_refusal(in) != t1::BlockStatus::kOk) return ht_block_start(in, out, 0, {});
  const auto estimate = [&](int plane, std::uint8_t *, int, int min_length) {
    const int bytes = estimate_bytes(block_estimate_eighths(in, plane));
    return bytes > min_length ? bytes : min_length;
  };
  const auto gain = [&](int plane, int shift) { return cleanup_distortion(in, plane, shift); };
  return code_candidates(in, out, t1::magnitude_or(in), {}, estimate, gain, true);
}

}  // namespace cf::j2k::ht
