#include "core/codec/j2k_byte_copies.hpp"

#include <algorithm>
#include <cstring>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace cf::j2k {

void copy_bytes(const std::vector<ByteCopy> &copies, int threads) {
  constexpr std::size_t kPiece = std::size_t(256) << 10, kBytesPerThread = std::size_t(2) << 20;
  std::size_t total = 0;
  for (const ByteCopy &c : copies) total += c.n;
  int useful = int(std::min<std::size_t>(total / kBytesPerThread + 1, 256));
#ifdef _OPENMP
  useful = std::min(useful, threads > 0 ? threads : omp_get_num_procs());
#else
  (void)threads;
  useful = 1;
#endif
  if (useful <= 1) {
    for (const ByteCopy &c : copies)
      if (c.n) std::memcpy(c.to, c.from, c.n);
    return;
  }
  // Each copy's first piece in the numbering of every copy's pieces.
  std::vector<std::size_t> first(copies.size() + 1, 0);
  for (std::size_t i = 0; i < copies.size(); ++i) first[i + 1] = first[i] + (copies[i].n + kPiece - 1) / kPiece;
  const std::ptrdiff_t pieces = std::ptrdiff_t(first.back());
#ifdef _OPENMP
#pragma omp parallel for schedule(static) num_threads(useful)
#endif
  for (std::ptrdiff_t p = 0; p < pieces; ++p) {
    const std::size_t i = std::size_t(std::upper_bound(first.begin(), first.end(), std::size_t(p)) - first.begin()) - 1;
    const ByteCopy &c = copies[i];
    const std::size_t at = (std::size_t(p) - first[i]) * kPiece, n = std::min(kPiece, c.n - at);
    std::memcpy(c.to + at, c.from + at, n);
  }
}

}  // namespace cf::j2k
