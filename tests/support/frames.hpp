// Test frames: owning buffers with the layouts the GStreamer formats use
// (packed RGB family, planar, semi-planar), optional row padding, random or
// image content, and comparison of two frames' samples.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cudafilters/frame.hpp"

namespace cft {

// Memory layouts of the raw formats the elements accept.
enum class Packing {
  Gray,        // 1 component
  Packed3,     // RGB/BGR: 3 interleaved components
  Packed4,     // RGBA family: 4 interleaved components
  Planar3,     // I420 (subsampled) or Y444: 3 planes
  SemiPlanar,  // NV12: Y plane + interleaved UV plane
};

struct OwnedFrame {
  std::vector<std::uint8_t> bytes;
  cf::FrameView view;
};

// A raw frame of the given packing; chroma of Planar3/SemiPlanar is
// ceil(w/2) x ceil(h/2) when subsampled. pad adds bytes to every row stride.
OwnedFrame make_raw(Packing packing, int width, int height, cf::SampleType type, int pad = 0, bool subsampled = true);
// A tight planar frame (coefficient layout) with one plane per component of `like`.
OwnedFrame make_planar_like(const cf::FrameView &like, cf::SampleType type);

// A deep copy: same layout and bytes, its view pointing at its own bytes.
OwnedFrame copy_of(const OwnedFrame &f);

void fill_random(OwnedFrame &f, std::uint32_t seed);  // every sample uniform over the type's range
// Fill the samples with `value` (for poisoning outputs before a run).
void fill_bytes(OwnedFrame &f, std::uint8_t value);

// Loads an 8-bit image (JPEG) from disk as interleaved RGB; false if missing
// or unreadable. Used to put real photos into frames.
bool load_rgb8(const std::string &path, int &width, int &height, std::vector<std::uint8_t> &rgb);
// Samples components of `rgb` (w x h x 3) into frame f (resampling by nearest
// neighbour when sizes differ), converting to the frame's packing.
void fill_from_rgb(OwnedFrame &f, int width, int height, const std::vector<std::uint8_t> &rgb);

// Directory of real test photos (opencv-doc's samples); empty when absent.
std::string image_dir();

// The colour photos of image_dir() (baboon, fruits, building) as RGB; none,
// with a note printed, when the directory is absent.
struct Photo {
  std::string name;
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
};
std::vector<Photo> load_photos();

// Number of samples that differ between the components of a and b (sizes
// must match); the first difference is described in *first.
long long count_differences(const cf::FrameView &a, const cf::FrameView &b, std::string *first = nullptr);

std::int64_t read_sample(const cf::FrameView &f, int c, int x, int y);
void write_sample(const cf::FrameView &f, int c, int x, int y, std::int64_t v);

}  // namespace cft
