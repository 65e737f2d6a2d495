// Serial reference of the colour transforms: row after row.
#include <vector>

#include "cpu/colour_cpu.hpp"

namespace cf::cpu {

void colour_transform(colour::Direction d, ColourTransform t, const FrameView &src, const FrameView &dst) {
  thread_local std::vector<std::int32_t> work;  // kept between frames
  work.resize(std::size_t(src.n_components) * src.components[0].width);
  for (int y = 0; y < src.components[0].height; ++y) colour::transform_row(d, t, src, dst, y, work.data());
}

}  // namespace cf::cpu
