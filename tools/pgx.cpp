#include "pgx.hpp"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace cfj2k {

namespace {

void skip_blanks(const std::vector<std::uint8_t> &d, std::size_t &at) {
  while (at < d.size() && (d[at] == ' ' || d[at] == '\t')) ++at;
}

// The header's next decimal number after blanks.
long header_number(const std::vector<std::uint8_t> &d, std::size_t &at, const std::string &path) {
  skip_blanks(d, at);
  if (at >= d.size() || !std::isdigit(d[at])) throw std::runtime_error(path + ": bad PGX header");
  long v = 0;
  for (; at < d.size() && std::isdigit(d[at]); ++at) v = v < 1000000 ? v * 10 + (d[at] - '0') : v;  // saturates
  return v;
}

// Where `path`'s "_N.pgx" ending starts, and N; npos when it has none.
std::size_t component_suffix(const std::string &path, int &n) {
  const std::size_t dot = path.size() >= 4 ? path.size() - 4 : std::string::npos;
  if (dot == std::string::npos || path.compare(dot, 4, ".pgx") != 0) return std::string::npos;
  std::size_t at = dot;
  while (at > 0 && std::isdigit(static_cast<unsigned char>(path[at - 1]))) --at;
  if (at == dot || at == 0 || path[at - 1] != '_' || dot - at > 2) return std::string::npos;
  n = std::stoi(path.substr(at, dot - at));
  return at - 1;
}

}  // namespace

PgxImage read_pgx(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  const std::vector<std::uint8_t> d((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::size_t at = 2;
  if (d.size() < 2 || d[0] != 'P' || d[1] != 'G') throw std::runtime_error(path + ": not a PGX file");
  skip_blanks(d, at);
  if (d.size() - at < 2 || !((d[at] == 'M' && d[at + 1] == 'L') || (d[at] == 'L' && d[at + 1] == 'M')))
    throw std::runtime_error(path + ": bad PGX header (no ML or LM byte order)");
  const bool big_endian = d[at] == 'M';
  at += 2;
  skip_blanks(d, at);
  const bool is_signed = at < d.size() && d[at] == '-';
  if (at < d.size() && (d[at] == '+' || d[at] == '-')) ++at;
  const long depth = header_number(d, at, path), w = header_number(d, at, path), h = header_number(d, at, path);
  skip_blanks(d, at);
  if (at < d.size() && d[at] == '\r') ++at;
  if (at >= d.size() || d[at] != '\n') throw std::runtime_error(path + ": bad PGX header (no newline after it)");
  ++at;
  if (depth < 1 || depth > 16) throw std::runtime_error(path + ": depth " + std::to_string(depth) + " (1 to 16)");
  if (w < 1 || h < 1 || w > 65535 || h > 65535)
    throw std::runtime_error(path + ": image size " + std::to_string(w) + "x" + std::to_string(h) +
                             " (1 to 65535 each way)");
  const int bytes = depth > 8 ? 2 : 1;
  const std::size_t n = std::size_t(w) * std::size_t(h), need = n * std::size_t(bytes);
  if (d.size() - at < need)
    throw std::runtime_error(path + ": truncated: " + std::to_string(d.size() - at) +
                             " bytes of samples, the header says " + std::to_string(need));
  PgxImage im;
  im.width = int(w);
  im.height = int(h);
  im.depth = int(depth);
  im.is_signed = is_signed;
  im.samples.resize(n);
  // Unsigned samples in 0..2^depth - 1; signed ones in -2^(depth - 1)..2^(depth - 1) - 1, kept offset.
  const long low = is_signed ? -(1L << (depth - 1)) : 0, offset = -low, high = low + (1L << depth) - 1;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t *p = d.data() + at + i * std::size_t(bytes);
    const unsigned raw = bytes == 1 ? p[0] : big_endian ? unsigned(p[0] << 8 | p[1]) : unsigned(p[1] << 8 | p[0]);
    const long v = !is_signed ? long(raw) : bytes == 1 ? long(std::int8_t(raw)) : long(std::int16_t(raw));
    if (v < low || v > high)
      throw std::runtime_error(path + ": sample " + std::to_string(i) + " is " + std::to_string(v) + ", outside " +
                               std::to_string(depth) + (is_signed ? " signed bits" : " bits"));
    im.samples[i] = std::uint16_t(v + offset);
  }
  return im;
}

std::vector<std::uint8_t> pgx_bytes(const PgxImage &image) {
  char header[64];
  const int n = std::snprintf(header, sizeof header, "PG ML %c %d %d %d\n", image.is_signed ? '-' : '+', image.depth,
                              image.width, image.height);
  std::vector<std::uint8_t> out(header, header + n);
  const bool wide = image.depth > 8;
  const unsigned offset = image.is_signed ? 1u << (image.depth - 1) : 0u;
  out.reserve(out.size() + image.samples.size() * (wide ? 2 : 1));
  for (std::uint16_t s : image.samples) {
    const unsigned v = unsigned(s) - offset;  // two's complement in the low bytes
    if (wide) out.push_back(std::uint8_t(v >> 8));
    out.push_back(std::uint8_t(v));
  }
  return out;
}

std::vector<std::string> pgx_component_paths(const std::string &path, int most) {
  int n = -1;
  const std::size_t stem = component_suffix(path, n);
  if (stem == std::string::npos || n != 0) return {path};
  std::vector<std::string> paths = {path};
  for (int c = 1; c < most; ++c) {
    const std::string next = path.substr(0, stem) + "_" + std::to_string(c) + ".pgx";
    if (!std::filesystem::exists(next)) break;
    paths.push_back(next);
  }
  return paths;
}

std::string pgx_component_path(const std::string &path, int c) {
  const std::string stem =
      path.size() >= 4 && path.compare(path.size() - 4, 4, ".pgx") == 0 ? path.substr(0, path.size() - 4) : path;
  return stem + "_" + std::to_string(c) + ".pgx";
}

bool is_later_pgx_component(const std::string &path) {
  int n = -1;
  return component_suffix(path, n) != std::string::npos && n > 0;
}

}  // namespace cfj2k
