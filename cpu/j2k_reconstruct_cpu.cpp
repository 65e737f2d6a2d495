// Serial reference of the JPEG 2000 reconstruction stage: it defines the
// samples the OpenMP and CUDA backends reproduce bit for bit (the steps are
// in cpu/j2k_reconstruct_stages.hpp).
#include "cpu/j2k_reconstruct.hpp"
#include "cpu/j2k_reconstruct_stages.hpp"

namespace cf::j2k {

Size reduced_component_size(const CodestreamParams &p, std::uint32_t c, std::uint32_t reduce) {
  const Component &k = p.components[c];
  // ceil(ceil(x / XRsiz) / 2^reduce) = ceil(x / (XRsiz 2^reduce)); reduce <= 32.
  const std::uint64_t sx = std::uint64_t(k.subsample_x) << reduce, sy = std::uint64_t(k.subsample_y) << reduce;
  const auto ceil_div = reconstruct::ceil_div;
  return {std::uint32_t(ceil_div(p.x1, sx) - ceil_div(p.x0, sx)),
          std::uint32_t(ceil_div(p.y1, sy) - ceil_div(p.y0, sy))};
}

}  // namespace cf::j2k

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
