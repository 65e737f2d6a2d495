// CPU Hough stages (internal). cf::cpu is the serial reference that defines
// the results; cf::omp schedules the same rules (cpu/hough_rules.hpp) over
// OpenMP threads and gives the same bits. Core (core/src/hough.cpp) strings
// the stages together.
#pragma once

#include <cstdint>
#include <vector>

#include "cudafilters/frame.hpp"
#include "cudafilters/hough.hpp"
#include "cpu/hough_draw.hpp"

namespace cf::hough {
// Of the non-zero cells of an accumulator.
struct Stats {
  std::uint64_t n = 0, sum = 0, squares = 0;
  std::uint32_t max = 0;
};
}  // namespace cf::hough

namespace cf::cpu {
// Edge map of component(s) of src (8-bit): W x H bytes, 255 = edge. Returns the edge pixel count.
std::uint32_t hough_edges(const HoughParams &p, const FrameView &src, LumaSource luma, std::uint8_t *edges);
// Votes of the edge pixels into acc (g.cells() values, overwritten).
void hough_vote(const HoughGeometry &g, const std::int32_t *trig, const std::uint8_t *edges, std::uint32_t *acc);
hough::Stats hough_stats(const std::uint32_t *acc, std::size_t cells);
// Peaks in any order (core sorts them).
void hough_peaks(const HoughGeometry &g, const std::uint32_t *acc, int radius, std::uint32_t threshold,
                 std::vector<HoughPeak> &out);
// dst = src (unless they are the same frame), then the segments painted (cpu/hough_draw.hpp).
void hough_draw(const FrameView &src, const FrameView &dst, const hough::Paint &paint,
                const std::vector<hough::Segment> &segs, int thickness);
}  // namespace cf::cpu

namespace cf::omp {
// threads = 0: all cores.
std::uint32_t hough_edges(const HoughParams &p, const FrameView &src, LumaSource luma, std::uint8_t *edges,
                          int threads);
void hough_vote(const HoughGeometry &g, const std::int32_t *trig, const std::uint8_t *edges, std::uint32_t *acc,
                int threads);
hough::Stats hough_stats(const std::uint32_t *acc, std::size_t cells, int threads);
void hough_peaks(const HoughGeometry &g, const std::uint32_t *acc, int radius, std::uint32_t threshold,
                 std::vector<HoughPeak> &out, int threads);
void hough_draw(const FrameView &src, const FrameView &dst, const hough::Paint &paint,
                const std::vector<hough::Segment> &segs, int thickness, int threads);
}  // namespace cf::omp
