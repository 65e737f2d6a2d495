// The order that sorts 64-bit keys: rate allocation's segments by falling
// slope, tier-1 decoding's code-blocks by kind and length.
#pragma once

#include <cstdint>
#include <vector>

namespace cf::j2k {

// A stable radix sort of keys, a byte at a time from the lowest, passing
// over bytes every key shares; the counts of all eight bytes come from one
// pass over the keys. Its arrays are kept from call to call, so a steady
// run of sorts allocates nothing.
class RadixOrder {
 public:
  // The keys to sort: fill after resize(n), then sort().
  std::vector<std::uint64_t> &keys(std::size_t n) {
    keys_.resize(n);
    return keys_;
  }
  // order[i]: the index of the i-th smallest key, equal keys in index order.
  const std::vector<std::uint32_t> &sort();

 private:
  std::vector<std::uint64_t> keys_, keys_next_;
  std::vector<std::uint32_t> order_, order_next_;
};

}  // namespace cf::j2k
