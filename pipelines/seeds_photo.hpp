// The photos the seeds programs take: 8-bit binary PPM files, which
// pipelines/seeds/make_seeds.py writes from the packages' JPEG and PNG files.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pnm.hpp"
#include "seeds_json.hpp"

namespace cfseeds {

struct Photo {
  std::string name;  // the file name without folder and extension
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;  // interleaved R, G, B
};

// Every path's photo; exits 2 naming the first file that is not an 8-bit
// binary PPM.
inline std::vector<Photo> read_photos(const std::vector<std::string> &paths) {
  std::vector<Photo> photos;
  for (const std::string &path : paths) {
    Photo p;
    p.rgb = cft::read_ppm8(path, p.width, p.height);
    if (p.rgb.empty()) {
      std::fprintf(stderr, "%s: not an 8-bit binary PPM (P6, maxval 255)\n", path.c_str());
      std::exit(2);
    }
    const std::string base = path.substr(path.find_last_of('/') + 1);
    p.name = base.substr(0, base.find_last_of('.'));
    photos.push_back(std::move(p));
  }
  return photos;
}

// {"name": ..., "width": ..., "height": ...}
inline std::string photo_json(const Photo &p) {
  return "{\"name\": " + json_string(p.name) + ", \"width\": " + std::to_string(p.width) +
         ", \"height\": " + std::to_string(p.height) + "}";
}

}  // namespace cfseeds
