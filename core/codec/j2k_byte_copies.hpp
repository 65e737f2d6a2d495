// Many byte ranges copied at once, on several threads: the code-block
// bodies of a codestream being written, the codewords laid out for an
// upload. Memory bandwidth, not one core's copy loop, then bounds them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cf::j2k {

struct ByteCopy {
  std::uint8_t *to;
  const std::uint8_t *from;
  std::size_t n;
};

// Does every copy (none may overlap another's destination), split into
// pieces of at most 256 KiB, on up to `threads` threads (0: one per core)
// and no more than one per 2 MiB: below that, another thread costs about
// what it saves.
void copy_bytes(const std::vector<ByteCopy> &copies, int threads);

}  // namespace cf::j2k
