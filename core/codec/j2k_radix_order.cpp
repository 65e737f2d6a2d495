#include "core/codec/j2k_radix_order.hpp"

#include <algorithm>
#include <array>

namespace cf::j2k {

const std::vector<std::uint32_t> &RadixOrder::sort() {
  const std::size_t n = keys_.size();
  keys_next_.resize(n);
  order_.resize(n);
  order_next_.resize(n);
  std::array<std::array<std::size_t, 256>, 8> counts{};
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t k = keys_[i];
    order_[i] = std::uint32_t(i);
    for (int d = 0; d < 8; ++d) ++counts[d][(k >> (8 * d)) & 0xFF];
  }
  for (int d = 0; d < 8; ++d) {
    std::array<std::size_t, 256> &count = counts[d];
    if (std::find(count.begin(), count.end(), n) != count.end()) continue;  // one value of this byte
    std::size_t at = 0;
    for (std::size_t &c : count) {
      const std::size_t here = c;
      c = at;
      at += here;
    }
    const int shift = 8 * d;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t to = count[(keys_[i] >> shift) & 0xFF]++;
      keys_next_[to] = keys_[i];
      order_next_[to] = order_[i];
    }
    keys_.swap(keys_next_);
    order_.swap(order_next_);
  }
  return order_;
}

}  // namespace cf::j2k
