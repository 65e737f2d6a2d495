// The CPU backends of Hough line detection and drawing (internal). cf::cpu
// is the serial reference that defines the results; cf::omp schedules the
// same rules (core/shared/hough_rules.hpp) over OpenMP threads and gives the
// same bits. Each backend strings its own stages together
// (cpu/hough_stages.hpp holds their row- and angle-sized pieces); core only
// validates and dispatches.
#pragma once

#include <cstdint>
#include <vector>

#include "cudafilters/frame.hpp"
#include "cudafilters/hough.hpp"

namespace cf::cpu {
// Edge map, votes, threshold and peaks (in any order; core sorts them) of
// src. out.edges and out.accumulator are the work buffers, so they are
// filled whatever the caller wants.
void hough_detect(const HoughParams &p, const HoughGeometry &g, const std::int32_t *trig, const FrameView &src,
                  LumaSource luma, HoughResult &out, std::vector<HoughPeak> &peaks);
// dst = src (unless they are the same frame), then the visible lines drawn
// (core/shared/hough_draw_rules.hpp).
void hough_draw(const std::vector<HoughLine> &lines, const HoughDrawParams &d, const FrameView &src,
                const FrameView &dst);
}  // namespace cf::cpu

namespace cf::omp {
// As cf::cpu; threads = 0: all cores.
void hough_detect(const HoughParams &p, const HoughGeometry &g, const std::int32_t *trig, const FrameView &src,
                  LumaSource luma, HoughResult &out, std::vector<HoughPeak> &peaks, int threads);
void hough_draw(const std::vector<HoughLine> &lines, const HoughDrawParams &d, const FrameView &src,
                const FrameView &dst, int threads);
}  // namespace cf::omp
