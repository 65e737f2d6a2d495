// PGX images for cf-j2k: one component per file, the format of the JPEG 2000
// conformance suite and of opj_decompress's per-component output. A text
// header "PG ML + depth width height" (ML: samples most significant byte
// first; LM: least significant first; + unsigned, - signed) and a newline,
// then the samples, one byte each up to depth 8, two up to 16 (signed ones
// in two's complement). cf-j2k reads and writes depths up to 16, writing
// "PG ML" like opj_decompress.
// A frame of several components is the files stem_0.pgx, stem_1.pgx, ...
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cfj2k {

struct PgxImage {
  int width = 0, height = 0;
  int depth = 0;  // 1..16
  bool is_signed = false;
  // Row after row; a signed sample v as v + 2^(depth - 1) (the decoder's
  // and the encoder's convention for signed components).
  std::vector<std::uint16_t> samples;
};

// Reads `path`; throws std::runtime_error naming the file and the problem
// (not a PGX header, depth above 16, fewer samples than the header says, a
// sample outside its depth).
PgxImage read_pgx(const std::string &path);

// The PGX bytes of `image` ("PG ML +" or "PG ML -", big-endian samples).
std::vector<std::uint8_t> pgx_bytes(const PgxImage &image);

// The component files of the frame at `path`: stem_0.pgx, stem_1.pgx, ...
// while they exist (at most `most`) when `path` is stem_0.pgx; else `path`
// alone.
std::vector<std::string> pgx_component_paths(const std::string &path, int most);

// The name of component `c` of a frame written as `path` (stem.pgx):
// stem_c.pgx.
std::string pgx_component_path(const std::string &path, int c);

// True for stem_N.pgx with N above 0: a later component of a frame, not a
// frame of its own in a folder.
bool is_later_pgx_component(const std::string &path);

}  // namespace cfj2k
