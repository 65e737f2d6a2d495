// Serial reference of the JPEG 2000 transform stage: it defines the
// coefficients the OpenMP and CUDA backends reproduce bit for bit (the
// steps are in cpu/j2k_transform_stages.hpp).
#include <vector>

#include "cpu/j2k_transform.hpp"
#include "cpu/j2k_transform_stages.hpp"

namespace cf::cpu {

void j2k_transform(const J2kInput &in, const j2k::Layout &layout, const std::vector<float> &step_reciprocals,
                   std::int32_t *coefficients) {
  namespace t = j2k::transform;
  const t::Frame f{in, layout, step_reciprocals, coefficients};
  t::check(f);
  thread_local t::Scratch scratch;
  thread_local std::vector<float> work;
  for (std::uint32_t tile = 0; tile < layout.tiles.size(); ++tile) {
    work.resize(t::tile_work_size(layout, tile));
    t::run_tile(f, tile, work.data(), [&](std::size_t n, std::size_t lines, auto &&body) {
      scratch.reserve(lines);
      for (std::size_t i = 0; i < n; ++i) body(i, scratch.ints.data(), scratch.floats.data());
    });
  }
}

}  // namespace cf::cpu
