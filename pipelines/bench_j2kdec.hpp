// cf-bench's JPEG 2000 decoder section: cudaj2kdec per backend and memory
// beside GStreamer's openjpegdec and the opj_decompress program, each
// decoding the same two codestreams of a frame, ours (cudaj2kenc's) and
// opj_compress's (see cf-bench.cpp).
#pragma once

#include <functional>
#include <string>

#include "bench_j2k.hpp"

// cudaj2kdec, openjpegdec, opj_decompress: the rows of this section.
bool bench_is_j2k_decoder(const std::string &element);

// Writes the section (heading, legend, table) line by line; false when a
// frame cannot be decoded from the image.
bool bench_j2kdec_section(const J2kBenchOptions &o, const std::function<void(const std::string &)> &line);
