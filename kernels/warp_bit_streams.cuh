// Bit-stuffed byte streams that the 32 lanes of a warp write together (the
// HT code-block kernel's MagSgn and VLC streams). Each step every lane adds
// its bits, unstuffed and least significant first, at the offset a prefix
// sum over the lanes gives it, into words in shared memory; then the warp
// cuts whole bytes off the front, a byte a lane. A stuffing rule makes some
// bytes 7 bits long, which moves every byte after them: each round keeps
// the bytes up to the first short one and starts again after it, so a
// round still yields 32 bytes when no byte is short. What stays (fewer bits
// than a byte) moves to the front for the next step.
#pragma once

#include <cstdint>

#include "kernels/warp_lanes.cuh"

namespace cf::cuda::j2k_kernels::warp {

// A stream's words (`Words` of them, one spare at the end so that a byte
// is always read from two) and the state every lane holds alike.
template <int Words>
struct StreamBits {
  std::uint32_t word[Words];
};
struct StreamState {
  int bits;       // unstuffed bits waiting in the words
  int bytes;      // bytes cut so far
  unsigned last;  // the latest byte (the stuffing rules look at it)
};

// Bits [at, at + count) of the words, count <= 32 (past the bits added:
// zeros, as cleared).
template <int Words>
__device__ __forceinline__ std::uint32_t bits_at(const StreamBits<Words> &s, int at, int count) {
  const unsigned long long two = (unsigned long long)s.word[(at >> 5) + 1] << 32 | s.word[at >> 5];
  return std::uint32_t(two >> (at & 31)) & (count == 32 ? 0xFFFFFFFFu : (1u << count) - 1u);
}
template <int Words>
__device__ __forceinline__ unsigned byte_at(const StreamBits<Words> &s, int at) {
  return bits_at(s, at, 8);
}

// Adds `count` (<= 32) bits at bit `at` of the words; lanes write apart.
template <int Words>
__device__ __forceinline__ void add_bits(StreamBits<Words> &s, int at, std::uint32_t bits, int count) {
  if (count == 0) return;
  const unsigned long long placed = (unsigned long long)bits << (at & 31);
  atomicOr(&s.word[at >> 5], unsigned(placed));
  if ((at & 31) + count > 32) atomicOr(&s.word[(at >> 5) + 1], unsigned(placed >> 32));
}

// Clears the first `dirty` words (the rest are clear), then holds the first
// `bits` bits of `front`.
template <int Words>
__device__ __forceinline__ void restart(StreamBits<Words> &s, unsigned front, int bits, int dirty = Words) {
  __syncwarp();
  for (int i = lane_id(); i < dirty; i += kLanes) s.word[i] = 0;
  __syncwarp();
  if (lane_id() == 0) s.word[0] = front & ((1u << bits) - 1u);
  __syncwarp();
}

// Cuts the whole bytes off the waiting bits, byte n of the stream going to
// first[step * n] when n < capacity. `IsShort(last, byte)`: whether the byte
// after `last` carries 7 bits (the shared rules' stuffing). The bits left
// over move to the front.
template <int Words, class IsShort>
__device__ void cut_bytes(StreamBits<Words> &s, StreamState &st, std::uint8_t *first, int step, int capacity,
                          IsShort is_short) {
  const int lane = lane_id();
  __syncwarp();  // the lanes' bits are in
  int at = 0;
  for (;;) {
    const int p = at + 8 * lane;
    const unsigned b = p < st.bits ? byte_at(s, p) : 0u;
    const unsigned before = unsigned(__shfl_up_sync(kAllLanes, int(b), 1));
    const bool short_byte = is_short(lane == 0 ? st.last : before, b);
    const bool whole = st.bits - p >= (short_byte ? 7 : 8);
    const unsigned stops = __ballot_sync(kAllLanes, short_byte || !whole);
    const int stop = stops ? __ffs(int(stops)) - 1 : kLanes;
    const bool stop_kept = stop < kLanes && ((__ballot_sync(kAllLanes, short_byte && whole) >> stop) & 1u);
    const int kept = stop + (stop_kept ? 1 : 0);
    const unsigned byte = lane == stop ? (b & 0x7Fu) : b;
    const int n = st.bytes + lane;
    if (lane < kept && n < capacity) first[(long long)step * n] = std::uint8_t(byte);
    if (kept > 0) st.last = unsigned(__shfl_sync(kAllLanes, int(byte), kept - 1));
    st.bytes += kept;
    at += 8 * stop + (stop_kept ? 7 : 0);
    if (stop < kLanes && !stop_kept) break;
  }
  const unsigned rest = byte_at(s, at);
  const int dirty = (st.bits + 31) >> 5;
  st.bits -= at;
  restart(s, rest, st.bits, dirty);
}

}  // namespace cf::cuda::j2k_kernels::warp
