#include "pnm.hpp"

#include <cstdio>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace cfj2k {

namespace {

// The header's next decimal number, past whitespace and # comments.
std::uint64_t header_number(const std::vector<std::uint8_t> &d, std::size_t &at, const std::string &path) {
  for (;;) {
    while (at < d.size() && (d[at] == ' ' || d[at] == '\t' || d[at] == '\n' || d[at] == '\r')) ++at;
    if (at < d.size() && d[at] == '#') {
      while (at < d.size() && d[at] != '\n') ++at;
      continue;
    }
    break;
  }
  if (at >= d.size() || d[at] < '0' || d[at] > '9') throw std::runtime_error(path + ": bad PNM header");
  std::uint64_t v = 0;
  while (at < d.size() && d[at] >= '0' && d[at] <= '9' && v < (std::uint64_t(1) << 40)) v = v * 10 + (d[at++] - '0');
  return v;
}

}  // namespace

PnmImage read_pnm(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  const std::vector<std::uint8_t> d((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (d.size() < 2 || d[0] != 'P' || (d[1] != '5' && d[1] != '6'))
    throw std::runtime_error(path + ": not a binary PGM (P5) or PPM (P6)");
  std::size_t at = 2;
  PnmImage im;
  im.channels = d[1] == '6' ? 3 : 1;
  const std::uint64_t w = header_number(d, at, path), h = header_number(d, at, path),
                      maxval = header_number(d, at, path);
  if (w == 0 || h == 0 || w > 65535 || h > 65535)
    throw std::runtime_error(path + ": image size " + std::to_string(w) + "x" + std::to_string(h) +
                             " (1 to 65535 each way)");
  if (maxval == 0 || maxval > 65535)
    throw std::runtime_error(path + ": maxval " + std::to_string(maxval) + " (1 to 65535)");
  ++at;  // the one whitespace character before the samples
  im.width = int(w);
  im.height = int(h);
  im.maxval = std::uint32_t(maxval);
  while ((1u << im.depth) <= im.maxval) ++im.depth;
  const std::size_t need = std::size_t(w) * h * std::size_t(im.channels) * std::size_t(im.sample_bytes());
  if (at > d.size() || d.size() - at < need)
    throw std::runtime_error(path + ": truncated: " + std::to_string(at > d.size() ? 0 : d.size() - at) +
                             " bytes of samples, the header says " + std::to_string(need));
  im.bytes.assign(d.begin() + std::ptrdiff_t(at), d.begin() + std::ptrdiff_t(at + need));
  return im;
}

std::vector<std::uint8_t> pnm_bytes(const PnmImage &image) {
  char header[64];
  const int n = std::snprintf(header, sizeof header, "P%c\n%d %d\n%u\n", image.channels == 3 ? '6' : '5', image.width,
                              image.height, unsigned(image.maxval));
  std::vector<std::uint8_t> out(header, header + n);
  out.insert(out.end(), image.bytes.begin(), image.bytes.end());
  return out;
}

}  // namespace cfj2k
