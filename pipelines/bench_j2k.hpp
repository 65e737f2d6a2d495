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
// The mode as the params column says it ("reversible", "irreversible 1 bpp")
// and as cudaj2kenc's properties ("reversible=false bitrate=1").
std::string bench_j2k_mode_params(const J2kMode &m);
std::string bench_j2k_mode_props(const J2kMode &m);

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

// Shared with the decoder section (bench_j2kdec.cpp), so that its opj
// codestreams are opj_compress's rows' own.
// The file name ending opj_compress reads and opj_decompress writes for the
// format: ".pgm" (GRAY8), ".ppm" (RGB), else ".raw" (the planes, as I420's).
std::string bench_opj_extension(const std::string &format);
// The frame as opj_compress reads it: PGM (GRAY8), PPM (RGB) or the raw
// planes of I420 (described on the command line with -F).
bool bench_write_opj_input(GstBuffer *frame, const std::string &format, int w, int h, const std::string &path);
// opj_compress's command line coding `in` into `out` as cudaj2kenc's
// defaults and the mode do.
std::vector<std::string> bench_opj_compress_args(const std::string &format, int w, int h, const J2kMode &m,
                                                 const std::string &threads, const std::string &in,
                                                 const std::string &out);
// Runs the program to its exit (output discarded): "" and the wall time in
// ms, or why it did not run through.
std::string bench_run_program(const std::vector<std::string> &args, double &ms);
// The program's time as the opj rows give it: one warm-up run, then at
// least 3 and until `seconds` have passed; r.ms is the median run (process
// start to exit), or r.note says why it did not run through.
void bench_time_program(const std::vector<std::string> &args, double seconds, BenchResult &r);

// Writes the section (heading, legend, table) line by line; false when a
// frame cannot be decoded.
bool bench_j2k_section(const J2kBenchOptions &o, const std::function<void(const std::string &)> &line);
