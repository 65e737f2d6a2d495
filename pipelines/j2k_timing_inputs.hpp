// What the JPEG 2000 timing tools (j2k_timing, j2k_decode_timing) share:
// their command line, [photo.jpg] [--sizes 1280x720,...] [--serial]
// [--block-coder ht], the
// photo's pixels, and the frames they time (the photo resampled to GRAY8,
// RGB and I420) as the encoder takes them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "cudafilters/j2k.hpp"
#include "frames.hpp"
#include "shell.hpp"

namespace cfbench {

struct TimingOptions {
  std::string photo = cft::image_dir() + "/fruits.jpg";
  std::vector<std::pair<int, int>> sizes = {{1280, 720}, {1920, 1080}, {3840, 2160}};
  bool serial = false;  // the cpu backend too (slow at 4K)
  cf::J2kBlockCoder block_coder = cf::J2kBlockCoder::Part1;
  int photo_width = 0, photo_height = 0;
  std::vector<std::uint8_t> rgb;  // the photo
};

// The options and the photo; false (with a message) when it cannot be read.
inline bool read_timing_options(int argc, char **argv, TimingOptions &o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--serial") {
      o.serial = true;
    } else if (a == "--block-coder" && i + 1 < argc) {
      const std::string c = argv[++i];
      if (c != "part1" && c != "ht") {
        std::fprintf(stderr, "--block-coder %s: part1 or ht\n", c.c_str());
        return false;
      }
      o.block_coder = c == "ht" ? cf::J2kBlockCoder::Ht : cf::J2kBlockCoder::Part1;
    } else if (a == "--sizes" && i + 1 < argc) {
      o.sizes.clear();
      for (std::string s = argv[++i]; !s.empty();) {
        int w = 0, h = 0;
        std::sscanf(s.c_str(), "%dx%d", &w, &h);
        o.sizes.push_back({w, h});
        const auto comma = s.find(',');
        s = comma == std::string::npos ? "" : s.substr(comma + 1);
      }
    } else {
      o.photo = a;
    }
  }
  if (cft::load_rgb8(o.photo, o.photo_width, o.photo_height, o.rgb)) return true;
  std::fprintf(stderr, "cannot read %s\n", o.photo.c_str());
  return false;
}

struct TimingInput {
  const char *name;
  cft::Packing packing;
  bool subsampled;
};
inline const TimingInput kTimingInputs[] = {
    {"GRAY8", cft::Packing::Gray, false}, {"RGB", cft::Packing::Packed3, false}, {"I420", cft::Packing::Planar3, true}};

// A GRAY8 or RGB frame (the photo's) as a PGM or PPM file.
inline void write_pnm(const cft::OwnedFrame &f, const TimingInput &k, int w, int h, const std::string &path) {
  const int n = k.packing == cft::Packing::Gray ? 1 : 3;
  std::FILE *out = std::fopen(path.c_str(), "wb");
  if (!out) return;
  std::fprintf(out, "%s\n%d %d\n255\n", n == 1 ? "P5" : "P6", w, h);
  for (int y = 0; y < h; ++y)
    std::fwrite(static_cast<const std::uint8_t *>(f.view.planes[0].data) + std::size_t(y) * f.view.planes[0].stride, 1,
                std::size_t(w) * n, out);
  std::fclose(out);
}

// The photo resampled to w x h in the input's format.
inline cft::OwnedFrame timing_frame(const TimingOptions &o, const TimingInput &k, int w, int h) {
  cft::OwnedFrame f = cft::make_raw(k.packing, w, h, cf::SampleType::U8, 0, k.subsampled);
  cft::fill_from_rgb(f, o.photo_width, o.photo_height, o.rgb);
  return f;
}

// The frame as the encoder takes it: RGB through the colour transform, I420
// with its chroma subsampled by 2.
inline cf::J2kInput timing_j2k_input(const cft::OwnedFrame &f, const TimingInput &k) {
  cf::J2kInput in;
  in.frame = f.view;
  in.rgb = k.packing == cft::Packing::Packed3;
  if (k.subsampled)
    for (int c = 1; c < 3; ++c) in.subsampling_x[c] = in.subsampling_y[c] = 2;
  return in;
}

}  // namespace cfbench
