// The size of the frame the reconstruction stage writes, for every backend.
#include "core/codec/j2k_reconstruction.hpp"

namespace cf::j2k {

Size reduced_component_size(const CodestreamParams &p, std::uint32_t c, std::uint32_t reduce) {
  const Component &k = p.components[c];
  // ceil(ceil(x / XRsiz) / 2^reduce) = ceil(x / (XRsiz 2^reduce)); reduce <= 32.
  const std::uint64_t sx = std::uint64_t(k.subsample_x) << reduce, sy = std::uint64_t(k.subsample_y) << reduce;
  return {std::uint32_t(ceil_div(p.x1, sx) - ceil_div(p.x0, sx)),
          std::uint32_t(ceil_div(p.y1, sy) - ceil_div(p.y0, sy))};
}

}  // namespace cf::j2k
