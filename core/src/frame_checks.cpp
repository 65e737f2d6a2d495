#include "frame_checks.hpp"

#include <string>

#include "cudafilters/error.hpp"

namespace cf::detail {

void require_alike(const FrameView &src, const FrameView &dst) {
  if (const char *why = check_frame(src); *why) throw Error(std::string("source frame: ") + why);
  if (const char *why = check_frame(dst); *why) throw Error(std::string("destination frame: ") + why);
  if (src.n_components != dst.n_components) throw Error("source and destination component counts differ");
  for (int c = 0; c < src.n_components; ++c)
    if (src.components[c].width != dst.components[c].width || src.components[c].height != dst.components[c].height)
      throw Error("source and destination component sizes differ");
}

}  // namespace cf::detail
