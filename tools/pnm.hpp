// Binary PGM (P5) and PPM (P6) images for cf-j2k: 8-bit samples (maxval up
// to 255) or 16-bit big-endian ones (up to 65535), the samples kept as the
// file holds them, interleaved.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cfj2k {

struct PnmImage {
  int width = 0, height = 0;
  int channels = 0;  // 1 (PGM) or 3 (PPM)
  int depth = 0;     // bits per sample: the bit length of maxval
  std::uint32_t maxval = 0;
  std::vector<std::uint8_t> bytes;  // as in the file: 1 or 2 bytes a sample
  int sample_bytes() const { return maxval > 255 ? 2 : 1; }
};

// Reads `path`; throws std::runtime_error naming the file and the problem
// (not a binary PNM, a bad header, fewer samples than the header says).
PnmImage read_pnm(const std::string &path);

// The PNM bytes of `image` (P5 or P6 by its channels).
std::vector<std::uint8_t> pnm_bytes(const PnmImage &image);

}  // namespace cfj2k
