// Serial reference of the JPEG 2000 reconstruction stage: it defines the
// samples the OpenMP and CUDA backends reproduce bit for bit (the steps are
// in cpu/j2k_reconstruct_stages.hpp).
#include "cpu/j2k_reconstruct.hpp"
#include "cpu/j2k_reconstruct_stages.hpp"

namespace cf::cpu {

void j2k_reconstruct(const j2k::Layout &layout, const std::int32_t *coefficients, const j2k::Reconstruction &r,
                     const FrameView &out) {
  namespace s = j2k::reconstruct;
  const s::Frame f{layout, coefficients, r, out};
  s::check(f);
  thread_local s::Scratch scratch;
  thread_local s::Work work;
  for (std::uint32_t tile = 0; tile < layout.tiles.size(); ++tile)
    s::run_tile(f, tile, work, [&](std::size_t n, std::size_t lines, auto &&body) {
      scratch.reserve(lines);
      for (std::size_t i = 0; i < n; ++i) body(i, scratch.ints.data(), scratch.floats.data());
    });
}

}  // namespace cf::cpu
