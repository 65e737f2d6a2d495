// Binary PNM files as third-party decoders write them (opj_decompress's
// .pgm and .ppm): header-only, for the tests that read decoded images.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace cft {

struct PnmPlane {
  std::uint32_t width = 0, height = 0, maxval = 0;
  std::vector<std::uint32_t> samples;
};

// A binary PGM (P5, one plane) or PPM (P6, three interleaved planes), 8 or
// 16 bits (maxval up to 65535, big-endian samples); header comments are
// skipped. Empty with `why` set when the file is not one.
inline std::vector<PnmPlane> read_pnm(const std::string &path, std::string &why) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return why = "cannot open " + path, std::vector<PnmPlane>{};
  std::string magic;
  f >> magic;
  auto number = [&f]() {
    f >> std::ws;
    while (f.peek() == '#') {
      std::string comment;
      std::getline(f, comment);
      f >> std::ws;
    }
    std::uint64_t v = 0;
    f >> v;
    return v;
  };
  const std::uint64_t w = number(), h = number(), maxval = number();
  f.get();  // the single whitespace before the samples
  const std::size_t planes = magic == "P6" ? 3 : magic == "P5" ? 1 : 0;
  if (!f || planes == 0 || maxval == 0 || maxval > 65535)
    return why = path + ": not a binary PNM", std::vector<PnmPlane>{};
  std::vector<PnmPlane> out(planes, PnmPlane{std::uint32_t(w), std::uint32_t(h), std::uint32_t(maxval), {}});
  const int bytes = maxval > 255 ? 2 : 1;
  for (std::uint64_t i = 0; i < w * h; ++i)
    for (PnmPlane &pl : out) {
      std::uint32_t v = 0;
      for (int b = 0; b < bytes; ++b) v = v << 8 | std::uint32_t(f.get());
      pl.samples.push_back(v);
    }
  if (!f) return why = path + ": fewer samples than " + std::to_string(w) + " x " + std::to_string(h), out;
  return out;
}

// An 8-bit PGM's samples and size, or empty (any other file).
inline std::vector<std::uint8_t> read_pgm8(const std::string &path, std::uint32_t &w, std::uint32_t &h) {
  std::string why;
  const std::vector<PnmPlane> planes = read_pnm(path, why);
  w = h = 0;
  if (!why.empty() || planes.size() != 1 || planes[0].maxval != 255) return {};
  w = planes[0].width;
  h = planes[0].height;
  return std::vector<std::uint8_t>(planes[0].samples.begin(), planes[0].samples.end());
}

// An 8-bit PPM's samples as interleaved RGB and its size, or empty (any other file).
inline std::vector<std::uint8_t> read_ppm8(const std::string &path, int &w, int &h) {
  std::string why;
  const std::vector<PnmPlane> planes = read_pnm(path, why);
  w = h = 0;
  if (!why.empty() || planes.size() != 3 || planes[0].maxval != 255) return {};
  w = int(planes[0].width);
  h = int(planes[0].height);
  std::vector<std::uint8_t> rgb(std::size_t(w) * h * 3);
  for (std::size_t i = 0; i < std::size_t(w) * h; ++i)
    for (int c = 0; c < 3; ++c) rgb[i * 3 + c] = std::uint8_t(planes[c].samples[i]);
  return rgb;
}

}  // namespace cft
