// Frames with a camera's detail for the JPEG 2000 measurements: opencv-doc's
// photos at their own resolution, placed row after row (each row as tall as
// its tallest photo) and cut at the frame's edges. An upscaled photo is far
// smoother than camera frames and flatters every entropy coder.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "frames.hpp"  // cft::load_rgb8

namespace cft {

// JPEG photos of at least 512 columns among opencv-doc's samples.
inline const char *const kCameraPhotos[] = {"baboon.jpg",  "building.jpg",     "aero1.jpg",        "aloeL.jpg",
                                            "leuvenA.jpg", "starry_night.jpg", "pca_test1.jpg",    "aero3.jpg",
                                            "board.jpg",   "stuff.jpg",        "ela_original.jpg", "squirrel_cls.jpg",
                                            "left.jpg",    "leuvenB.jpg"};

struct CameraPhoto {
  int w = 0, h = 0;
  std::vector<std::uint8_t> rgb;
};

// The photos of `dir` that load; throws when none does.
inline std::vector<CameraPhoto> load_camera_photos(const std::string &dir) {
  std::vector<CameraPhoto> photos;
  for (const char *name : kCameraPhotos) {
    CameraPhoto p;
    if (load_rgb8(dir + "/" + name, p.w, p.h, p.rgb)) photos.push_back(std::move(p));
  }
  if (photos.empty()) throw std::runtime_error("no photos in " + dir);
  return photos;
}

// A w x h packed RGB frame of the photos tiled.
inline std::vector<std::uint8_t> tile_photos_rgb(const std::vector<CameraPhoto> &photos, int w, int h) {
  std::vector<std::uint8_t> rgb(std::size_t(w) * h * 3, 0);
  std::size_t next = 0;
  for (int y0 = 0; y0 < h;) {
    int row_h = 0;
    for (int x0 = 0; x0 < w;) {
      const CameraPhoto &p = photos[next++ % photos.size()];
      for (int y = 0; y < p.h && y0 + y < h; ++y)
        for (int x = 0; x < p.w && x0 + x < w; ++x)
          std::memcpy(&rgb[(std::size_t(y0 + y) * w + x0 + x) * 3], &p.rgb[(std::size_t(y) * p.w + x) * 3], 3);
      x0 += p.w;
      row_h = std::max(row_h, p.h);
    }
    y0 += row_h;
  }
  return rgb;
}

}  // namespace cft
