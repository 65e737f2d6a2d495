// A quick estimate of how long a Part 1 code-block's codeword would be
// down to each bit-plane, so that rate control codes a block only a plane
// or so below the one it will keep instead of every plane (written once
// for every backend; HT's counterpart is j2k_ht_plane_estimate_rules.hpp).
//
// A plane's three passes cost about 17/16 bit per sample significant
// before it (its refinement bit), 37/16 per sample becoming significant on
// it (the significance decision and the sign), 10/16 per sample still
// insignificant with a neighbour significant on that plane (a zero
// decision in a busy context), and 50 bits a plane; samples with no
// significant neighbour go by in run-length decisions that cost almost
// nothing. The constants are a least-squares fit to the real coder's
// lengths on photos at 9/7 (the 14 tiled photos of the nvJPEG2000
// benchmark, 1080p RGB and grey, 4K RGB, 64 x 64 blocks): the estimated
// length down to a plane, where it is over 100 bytes, is within 4 % of
// the real one for half the planes and within 13 % for nine in ten, and
// the frame's total within 2 %.
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"
#include "core/shared/j2k_block_coder_rules.hpp"

namespace cf::j2k::t1 {

// The plane on which a sample of magnitude m becomes significant (its top
// set bit), -1 for zero.
CF_HD int significance_plane(std::uint32_t m) { return int(bitplanes_of(m)) - 1; }

CF_HD std::uint32_t magnitude_at(const BlockInput &in, int x, int y) {
  const std::int32_t v = in.samples[y * in.stride + x];
  return v < 0 ? 0u - std::uint32_t(v) : std::uint32_t(v);
}

// The highest significance plane among the sample's eight neighbours in
// the block (-1: all zero).
CF_HD int neighbour_plane(const BlockInput &in, int x, int y) {
  std::uint32_t any = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      const int nx = x + dx, ny = y + dy;
      if ((dx || dy) && nx >= 0 && ny >= 0 && nx < in.width && ny < in.height) any |= magnitude_at(in, nx, ny);
    }
  return significance_plane(any);
}

// A block's samples counted by plane: `becoming[p]` samples become
// significant on plane p; a sample of plane s whose neighbours reach plane
// n > s is insignificant with a significant neighbour on the planes s + 1
// to n, and counts once in near_from[s + 1] and once in near_past[n + 1],
// so that the sum of near_from[q] - near_past[q] for q up to p is the
// number of such samples on plane p. (Counts only: a warp adds to them
// atomically.)
struct PlaneTally {
  std::uint32_t becoming[kMaxBitplanes];
  std::uint32_t near_from[kMaxBitplanes + 1], near_past[kMaxBitplanes + 1];
};

CF_HD void clear_tally(PlaneTally &t, int first, int step) {
  for (int p = first; p < kMaxBitplanes; p += step) t.becoming[p] = 0;
  for (int p = first; p <= kMaxBitplanes; p += step) t.near_from[p] = t.near_past[p] = 0;
}

// Where the sample at (x, y) counts in the tally: `plane` in becoming (-1:
// nowhere), near_from and near_past at `near_from` and `near_past` when
// near_past > near_from.
struct SampleTally {
  int plane, near_from, near_past;
};
CF_HD SampleTally sample_tally(const BlockInput &in, int x, int y) {
  const int s = significance_plane(magnitude_at(in, x, y)), n = neighbour_plane(in, x, y);
  return {s, s + 1, n > s ? n + 1 : s + 1};
}

// The sum over a block's samples significant on `plane` of what that plane
// removes from their squared error (distortion_gain), for the samples
// first, first + step, ... in raster order.
CF_HD std::int64_t plane_gain(const BlockInput &in, int plane, int shift, int first, int step) {
  std::int64_t sum = 0;
  for (int i = first; i < in.width * in.height; i += step) {
    const std::uint32_t m = magnitude_at(in, i % in.width, i / in.width);
    if (m >> plane) sum += distortion_gain(m, plane, shift);
  }
  return sum;
}

// A plane's estimate in sixteenths of a bit (the fit above).
CF_HD std::int64_t plane_sixteenths(std::int64_t refined, std::int64_t becoming, std::int64_t near) {
  return 17 * refined + 37 * becoming + 10 * near + 800;
}

// The estimates of a block of `planes` planes (> 0) from its tally, as
// its candidates when every plane is one: entry i for plane planes - 1 - i,
// pass_lengths[i] the estimated codeword length down to that plane and
// pass_distortion[i] what the plane removes (gain_of(plane, shift)); on
// `writes` only (a warp's lane 0), every caller getting the result.
template <class GainOf>
CF_HD BlockResult estimates_from_tally(const BlockInput &in, const BlockOutput &out, int planes, const PlaneTally &t,
                                       GainOf gain_of, bool writes) {
  BlockResult res{BlockStatus::kOk, planes, 0, in.magnitude_bitplanes - planes, distortion_shift(planes)};
  std::int64_t sixteenths = 0, refined = 0, near = 0;
  for (int p = 0; p < planes; ++p) near += std::int64_t(t.near_from[p]) - t.near_past[p];  // on the top plane
  for (int i = 0; i < planes; ++i) {
    const int p = planes - 1 - i;
    sixteenths += plane_sixteenths(refined, t.becoming[p], near);
    refined += t.becoming[p];
    near -= std::int64_t(t.near_from[p]) - t.near_past[p];
    const std::int64_t gain = gain_of(p, res.distortion_shift);
    res.bytes = int((sixteenths + 127) / 128);
    if (writes) {
      out.pass_lengths[i] = res.bytes;
      out.pass_distortion[i] = gain;
    }
  }
  return res;
}

// The checks and planes of a block before its estimate: kOk with passes 0
// for an all-zero block, or a refusal as encode_block gives it. or_of()
// gives the OR of the block's magnitudes (a warp's or one thread's), read
// only once the block passes its checks.
template <class OrOf>
CF_HD BlockResult estimate_start(const BlockInput &in, const BlockOutput &out, int &planes, OrOf or_of) {
  BlockResult res{check_block(in), 0, 0, in.magnitude_bitplanes, 0};
  planes = 0;
  if (res.status != BlockStatus::kOk) return res;
  planes = bitplanes_of(or_of());
  if (planes > in.magnitude_bitplanes) return res.status = BlockStatus::kTooManyBitplanes, res;
  if (out.pass_capacity < planes) return res.status = BlockStatus::kPassArrayTooSmall, res;
  return res;
}

// Every plane's estimate of one block, serially.
CF_HD BlockResult estimate_block(const BlockInput &in, const BlockOutput &out, PlaneTally &t) {
  int planes;
  const BlockResult start = estimate_start(in, out, planes, [&] { return magnitude_or(in); });
  if (start.status != BlockStatus::kOk || planes == 0) return start;
  clear_tally(t, 0, 1);
  for (int y = 0; y < in.height; ++y)
    for (int x = 0; x < in.width; ++x) {
      const SampleTally s = sample_tally(in, x, y);
      if (s.plane >= 0) ++t.becoming[s.plane];
      if (s.near_past > s.near_from) ++t.near_from[s.near_from], ++t.near_past[s.near_past];
    }
  const auto gain_of = [&](int plane, int shift) { return plane_gain(in, plane, shift, 0, 1); };
  return estimates_from_tally(in, out, planes, t, gain_of, true);
}

}  // namespace cf::j2k::t1
