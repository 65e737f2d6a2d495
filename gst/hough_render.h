// What cudahough shows: the input with the lines drawn on it, the edge map,
// or the Hough space scaled to GRAY8; and the per-frame line message. Host
// memory only (the element works in system memory).
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

// dst = src (same format and size): every plane's rows.
void copy_frame(const cf::FrameView &src, const cf::FrameView &dst);

// Lines from end point to end point, `thickness` pixels wide (a square brush
// centred on each point of a Bresenham line), in colour 0xRRGGBB: R, G, B
// for the RGB family (alpha untouched), BT.601 luma for GRAY8, BT.601
// limited-range Y, U, V for YUV (chroma at the subsampled positions).
void draw_lines(const cf::FrameView &frame, GstVideoFormat format, const std::vector<cf::HoughLine> &lines,
                guint32 rgb, int thickness);

// The W x H edge map (0/255) into a GRAY8 frame.
void render_edges(const std::vector<std::uint8_t> &edges, const cf::FrameView &dst);
// The accumulator as GRAY8: x = theta bin, y = rho bin, votes * 255 / max
// rounded to nearest (all 0 when max is 0).
void render_accumulator(const std::vector<std::uint32_t> &acc, const cf::HoughGeometry &g, const cf::FrameView &dst);

// The `cudahough-lines` message structure (README: element messages).
GstStructure *hough_lines_structure(const cf::HoughResult &r, GstClockTime pts);

}  // namespace cfgst
