// Hough line detection: luma -> edge map -> votes over (theta, rho) -> peaks
// -> the strongest lines. Every stage is integer arithmetic from one shared
// definition (core/shared/hough_rules.hpp), so cpu, openmp and cuda give identical
// edge maps, accumulators and line lists.
//
// Stages, for a frame of W x H pixels (x right, y down, origin at the top left):
//  1. Luma: component 0 (GRAY8, I420, NV12), or (77 R + 150 G + 29 B + 128) >> 8
//     for the RGB family (BT.601 weights in Q8).
//  2. Gradient: 3x3 Sobel on luma with replicated borders, magnitude
//     m = |gx| + |gy| (L1, 0..2040).
//     Sobel: edge where m >= edge_threshold.
//     Canny: non-maximum suppression along the gradient direction quantised
//     to 4 sectors with integer tangent tests (tan 22.5 ~ 13573/32768,
//     tan 67.5 ~ 79109/32768); a pixel survives when m > m(behind) and
//     m >= m(ahead) (outside the frame m = 0). Weak: survivor with
//     m >= canny_low; strong: m >= canny_high. Edges are the weak pixels
//     8-connected to a strong one through weak pixels (a connectivity
//     definition, so the result does not depend on any traversal order).
//  3. Voting: theta_t = t * pi / theta_bins, t in [0, theta_bins); one table
//     of Q15 integers c_t = round(cos(theta_t) * 2^15), s_t likewise, made
//     once on the host (hough_trig_table) and used by every backend. An edge
//     pixel votes once per angle, for rho bin
//         r = floor((x c_t + y s_t + rho_step * 2^14) / (rho_step * 2^15)) + rho_offset
//     (rho / rho_step rounded half up). rho_offset = ceil(diag / rho_step) + 2
//     with diag = sqrt((W-1)^2 + (H-1)^2) covers every rho, rounding of the
//     table included; rho_bins = 2 rho_offset + 1, so bin r and bin
//     rho_bins-1-r are rho and -rho.
//  4. Peaks: a cell with v >= threshold votes (v > 0) that is the maximum of
//     its nms_window x nms_window neighbourhood; among equal values the cell
//     with the smaller index t * rho_bins + r wins. Neighbours past theta's
//     ends wrap around with rho mirrored (theta + pi is the same line at -rho).
//     threshold = 0: automatic, the smallest v >= 1 with
//         v >= mean + k * std   over the non-zero cells, decided exactly:
//         with n cells, S = sum v, Q = sum v^2, K = round(k * 256):
//         256 (n v - S) >= 0 and (256 (n v - S))^2 >= K^2 (n Q - S^2)
//     in 128-bit integers.
//  5. Lines: peaks sorted by votes (descending), then theta bin, then rho bin
//     (ascending); the first max_lines. rho = (r - rho_offset) * rho_step,
//     theta = t * pi / theta_bins; the end points are where the line enters
//     and leaves the frame rectangle [0, W-1] x [0, H-1], rounded to pixels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cudafilters/engine.hpp"
#include "cudafilters/frame.hpp"

namespace cf {

// Input: the frame is an edge map already (luma != 0 is an edge), e.g.
// from another detector; used to compare voting with other libraries.
enum class EdgeDetector { Sobel, Canny, Input };
const char *edge_detector_name(EdgeDetector e);  // "sobel", "canny", "input"

// BT.601 luma of 8-bit R, G, B in Q8 (stage 1).
constexpr int hough_luma(int r, int g, int b) { return (77 * r + 150 * g + 29 * b + 128) >> 8; }

// Where luma comes from: component 0 (GRAY8, Y of YUV), or components 0, 1, 2
// as R, G, B (the RGB family, in component order whatever the byte order).
enum class LumaSource { Component0, Rgb };

struct HoughParams {
  EdgeDetector edge = EdgeDetector::Sobel;
  int edge_threshold = 200;  // sobel: edge where m >= this (m = |gx| + |gy|, 0..2040)
  int canny_low = 50, canny_high = 150;
  int theta_bins = 180;
  int rho_step = 1;    // pixels per rho bin
  int threshold = 0;   // votes a peak needs; 0 = automatic (mean + k * std)
  int k_q8 = 512;      // k in 1/256 (Q8): 512 = 2.0, the source report's choice
  int nms_window = 5;  // odd: the neighbourhood a peak must dominate
  int max_lines = 16;
};

// Limits (hough_check names the one broken).
constexpr int kHoughMinSize = 3;      // the 3x3 Sobel kernel
constexpr int kHoughMaxSize = 16384;  // keeps every sum in its integer type
constexpr int kHoughMaxThetaBins = 1800;
constexpr int kHoughMaxRhoStep = 16;
constexpr int kHoughMaxKQ8 = 2560;  // k <= 10
constexpr int kHoughMaxNmsWindow = 15;
constexpr int kHoughMaxLines = 1024;
constexpr int kHoughMaxGradient = 2040;  // largest m

struct HoughGeometry {
  int width = 0, height = 0;
  int theta_bins = 0, rho_bins = 0, rho_offset = 0, rho_step = 1;
  std::size_t cells() const { return std::size_t(theta_bins) * std::size_t(rho_bins); }
};
HoughGeometry hough_geometry(const HoughParams &p, int width, int height);

// {c_0, s_0, c_1, s_1, ...}: Q15 cos and sin of theta_t (see the top).
std::vector<std::int32_t> hough_trig_table(int theta_bins);

// Empty when p suits a width x height frame, else what is wrong
// ("theta-bins=0 must be 1..1800").
std::string hough_check(const HoughParams &p, int width, int height);

// The automatic threshold (see the top) from the non-zero cells' count, sum,
// sum of squares and maximum; max + 1 when no cell qualifies, 1 when n = 0.
std::uint32_t hough_auto_threshold(std::uint64_t n, std::uint64_t sum, std::uint64_t sum_squares, std::uint32_t max,
                                   int k_q8);

struct HoughPeak {
  std::uint32_t votes;
  int theta_bin, rho_bin;
};
// Strongest first; ties by theta bin, then rho bin.
bool hough_stronger(const HoughPeak &a, const HoughPeak &b);

struct HoughLine {
  int theta_bin = 0, rho_bin = 0;
  std::uint32_t votes = 0;
  double theta = 0, rho = 0;  // radians in [0, pi); pixels
  bool visible = false;       // false: the line misses the frame (end points 0)
  int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};
// Lines of peaks (any order): sorted, cut to max_lines, end points clipped.
std::vector<HoughLine> hough_lines(std::vector<HoughPeak> peaks, const HoughParams &p, const HoughGeometry &g);

// What hough_detect fills besides the lines.
enum HoughWant : unsigned { kHoughWantEdges = 1, kHoughWantAccumulator = 2 };

struct HoughResult {
  HoughGeometry geometry;
  std::uint32_t threshold = 0;  // votes a peak needed (the automatic value when p.threshold = 0)
  std::uint32_t edge_pixels = 0;
  std::vector<HoughLine> lines;
  std::vector<std::uint8_t> edges;         // kHoughWantEdges: W x H, 255 = edge, 0 = not
  std::vector<std::uint32_t> accumulator;  // kHoughWantAccumulator: theta_bins rows of rho_bins
};

// Runs the stages on `src` (8-bit samples, host or device memory). The
// result's vectors are reused between calls.
void hough_detect(Engine &e, const HoughParams &p, const FrameView &src, LumaSource luma, HoughResult &out,
                  unsigned want = 0);

// Drawing the lines on a frame (cudahough's overlay). How the colour
// 0xRRGGBB becomes the frame's 8-bit components:
//   Gray: component 0 = hough_luma(r, g, b);
//   Rgb:  components 0, 1, 2 = R, G, B (any byte order; alpha or padding untouched);
//   Yuv:  BT.601 limited range Y = ((66 r + 129 g + 25 b + 128) >> 8) + 16,
//         U = ((-38 r - 74 g + 112 b + 128) >> 8) + 128, V = ((112 r - 94 g - 18 b + 128) >> 8) + 128;
//         components 1 and 2 may be half size along x and/or y (I420, NV12):
//         a painted pixel (x, y) paints chroma sample (x >> 1, y >> 1) there.
enum class HoughPaint { Gray, Rgb, Yuv };
constexpr int kHoughMaxThickness = 64;
struct HoughDrawParams {
  HoughPaint paint = HoughPaint::Rgb;
  std::uint32_t rgb = 0xff0000;
  int thickness = 2;  // 1..kHoughMaxThickness
};

// dst = src (same geometry; src == dst draws in place) with every visible
// line drawn from (x0, y0) to (x1, y1) by Bresenham's walk, each point
// painting a square brush of thickness x thickness pixels, offsets
// -(thickness - 1) / 2 .. thickness / 2, clipped to the frame. End points
// must lie in the frame (as hough_lines gives them). Frames in host memory
// for every backend; device memory needs backend=cuda (copy and drawing on
// the engine's stream, one wait at the end).
void hough_draw(Engine &e, const std::vector<HoughLine> &lines, const HoughDrawParams &d, const FrameView &src,
                const FrameView &dst);

}  // namespace cf
