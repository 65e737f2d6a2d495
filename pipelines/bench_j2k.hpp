// cf-bench's JPEG 2000 section: cudaj2kenc per backend and memory beside
// GStreamer's openjpegenc and the opj_compress program, on the same frames
// (see cf-bench.cpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "bench_cases.hpp"

// cudaj2kenc, openjpegenc, opj_compress: the rows of this section.
bool bench_is_j2k(const std::string &element);

// A coding mode of --j2k-modes: "reversible" (5/3 and RCT, lossless) or
// "<b>bpp" (9/7 and ICT at b bits per pixel, e.g. "1bpp").
struct J2kMode {
  bool reversible = true;
  double bitrate = 0;
};
// False, with `why` naming the mode and what is accepted, when `text` is no mode.
bool bench_j2k_mode(const std::string &text, J2kMode &mode, std::string &why);

struct J2kBenchOptions {
  std::string image;
  std::vector<std::string> elements, formats, sizes, backends, memories;
  std::vector<J2kMode> modes;
  double seconds = 1;
  std::string props;  // further cudaj2kenc properties
  bool gpu = false;
  std::string no_gpu_why;
  Ceilings ceilings;
};

// Writes the section (heading, legend, table) line by line; false when a
// frame cannot be decoded.
bool bench_j2k_section(const J2kBenchOptions &o, const std::function<void(const std::string &)> &line);
