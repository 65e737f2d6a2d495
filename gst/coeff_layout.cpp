// Coefficient plane layout; see coeff_layout.h.
#include "coeff_layout.h"

namespace cfgst {

cf::PlanarLayout planar_layout(const GstVideoInfo &raw) {
  cf::PlanarLayout l;
  l.n = GST_VIDEO_INFO_N_COMPONENTS(&raw);
  for (int c = 0; c < l.n; ++c) {
    l.width[c] = GST_VIDEO_INFO_COMP_WIDTH(&raw, c);
    l.height[c] = GST_VIDEO_INFO_COMP_HEIGHT(&raw, c);
  }
  return l;
}

cf::PlanarLayout stream_layout(const GstVideoInfo &raw, const std::vector<CoeffStage> &stages) {
  cf::PlanarLayout l = planar_layout(raw);
  if (!stages.empty() && stages.back().kind == StageKind::Dct)
    for (int c = 0; c < l.n; ++c) {
      l.width[c] = cf::padded_to_blocks(l.width[c]);
      l.height[c] = cf::padded_to_blocks(l.height[c]);
    }
  return l;
}

}  // namespace cfgst
