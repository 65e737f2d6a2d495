// What cudahough shows besides the overlay (cf::hough_draw draws the lines):
// the edge map or the Hough space scaled to GRAY8 (host memory: GRAY8 output
// is system memory), and the per-frame line message.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <vector>

#include "cudafilters/frame.hpp"
#include "cudafilters/hough.hpp"

namespace cfgst {

// The raw formats cudahough takes (GStreamer's caps list and a test).
#define CF_HOUGH_FORMATS "{ GRAY8, RGB, BGR, RGBA, BGRA, RGBx, BGRx, I420, NV12, Y444 }"
bool hough_format_supported(GstVideoFormat f);
// Luma from component 0 (GRAY8, YUV) or from R, G, B.
cf::LumaSource hough_luma_source(GstVideoFormat f);

// How cf::hough_draw paints the colour property in format f.
cf::HoughPaint hough_paint(GstVideoFormat f);

// The W x H edge map (0/255) into a GRAY8 frame.
void render_edges(const std::vector<std::uint8_t> &edges, const cf::FrameView &dst);
// The accumulator as GRAY8: x = theta bin, y = rho bin, votes * 255 / max
// rounded to nearest (all 0 when max is 0).
void render_accumulator(const std::vector<std::uint32_t> &acc, const cf::HoughGeometry &g, const cf::FrameView &dst);

// The `cudahough-lines` message structure (gstcudahough.cpp documents its
// fields). `lines` is a GValueArray (G_TYPE_VALUE_ARRAY) of "line"
// structures, as the level element carries its per-channel values:
// PyGObject reads it as a list of Gst.Structure, which it cannot do for a
// GstValueArray.
GstStructure *hough_lines_structure(const cf::HoughResult &r, GstClockTime pts);

}  // namespace cfgst
