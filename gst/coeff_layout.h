// The buffer layout of a coefficient stream: one tightly packed plane per
// component (stride = plane width x sample size), planes one after another,
// in GStreamer's component order of the raw format: R, G, B(, A) for the
// RGB family whatever the memory order (RGB and BGR give the same planes),
// Y, U, V for I420/NV12/Y444, Y for gray. Chroma planes of I420 and NV12 are
// ceil(w/2) x ceil(h/2). RGBx/BGRx: the padding byte carries no information
// and is not stored (three planes); cudainverse writes 0xff into it. After a
// colour stage the planes are Y, Cb, Cr (rct) or Y, Co, Cg (ycocg), then
// alpha unchanged (RGBA/BGRA). A last dct stage pads every plane to whole
// 8x8 blocks.
#pragma once

#include <gst/video/video.h>

#include <vector>

#include "coeff_stages.h"
#include "cudafilters/frame.hpp"

namespace cfgst {

// One coefficient plane per component of `raw`, each of the component's size.
cf::PlanarLayout planar_layout(const GstVideoInfo &raw);

// The planes of a stream of `stages` on `raw`: planar_layout(raw), padded to
// whole 8x8 blocks after a last dct stage.
cf::PlanarLayout stream_layout(const GstVideoInfo &raw, const std::vector<CoeffStage> &stages);

}  // namespace cfgst
