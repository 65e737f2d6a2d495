// What slices cost: zeroth-order entropy of the predictors' residuals on the
// real photos, for several slice heights. Prints a Markdown table.
//
//   predictor_entropy [photo.jpg ...]   (default: baboon, fruits, building from CF_TEST_IMAGES)
//
// Entropy of a plane: H = -sum p(v) log2 p(v) over its residual values v
// (bits per sample); bits per pixel of a frame = sum over its planes of
// H x samples / pixels. GRAY8 is the photo's luma as frames.cpp makes it;
// RGB its three planes; I420 adds chroma planes of a quarter of the pixels.
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "cudafilters/predictor.hpp"
#include "frames.hpp"

namespace {

double bits_per_pixel(const cf::FrameView &res) {
  const double pixels = double(res.components[0].width) * res.components[0].height;
  double bits = 0;
  for (int c = 0; c < res.n_components; ++c) {
    std::map<std::int64_t, std::size_t> counts;
    const int w = res.components[c].width, h = res.components[c].height;
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) ++counts[cft::read_sample(res, c, x, y)];
    const double n = double(w) * h;
    double entropy = 0;
    for (const auto &[v, k] : counts) entropy -= k / n * std::log2(k / n);
    bits += entropy * n / pixels;
  }
  return bits;
}

}  // namespace

int main(int argc, char **argv) {
  std::vector<std::string> paths;
  for (int i = 1; i < argc; ++i) paths.push_back(argv[i]);
  if (paths.empty()) {
    const std::string dir = cft::image_dir();
    if (dir.empty()) {
      std::fprintf(stderr, "no photos: give paths or set CF_TEST_IMAGES\n");
      return 1;
    }
    for (const char *n : {"baboon.jpg", "fruits.jpg", "building.jpg"}) paths.push_back(dir + "/" + n);
  }
  const int slices[] = {0, 16, 64, 256};
  struct Layout {
    const char *name;
    cft::Packing packing;
  };
  const Layout layouts[] = {
      {"GRAY8", cft::Packing::Gray}, {"RGB", cft::Packing::Packed3}, {"I420", cft::Packing::Planar3}};
  cf::Engine engine(cf::Backend::Cpu);
  std::printf("| photo | format | predictor | slice-height=0 | 16 | 64 | 256 | cost of 64 |\n");
  std::printf("|---|---|---|---:|---:|---:|---:|---:|\n");
  for (const std::string &path : paths) {
    int w = 0, h = 0;
    std::vector<std::uint8_t> rgb;
    if (!cft::load_rgb8(path, w, h, rgb)) {
      std::fprintf(stderr, "cannot read %s\n", path.c_str());
      continue;
    }
    const std::string name =
        path.substr(path.find_last_of('/') + 1) + " (" + std::to_string(w) + "x" + std::to_string(h) + ")";
    for (const Layout &l : layouts) {
      cft::OwnedFrame raw = cft::make_raw(l.packing, w, h, cf::SampleType::U8, 0, true);
      cft::fill_from_rgb(raw, w, h, rgb);
      cft::OwnedFrame res = cft::make_planar_like(raw.view, cf::SampleType::S16);
      std::printf("| %s | %s | raw samples | %.3f | | | | |\n", name.c_str(), l.name, bits_per_pixel(raw.view));
      for (cf::Predictor p : {cf::Predictor::Med, cf::Predictor::Gap, cf::Predictor::Ged}) {
        double bpp[4];
        for (int i = 0; i < 4; ++i) {
          cf::predictor_forward(engine, {p, cf::kDefaultGedThreshold, slices[i]}, raw.view, res.view);
          bpp[i] = bits_per_pixel(res.view);
        }
        std::printf("| %s | %s | %s | %.3f | %.3f | %.3f | %.3f | %+.2f%% |\n", name.c_str(), l.name,
                    cf::predictor_name(p), bpp[0], bpp[1], bpp[2], bpp[3], 100 * (bpp[2] / bpp[0] - 1));
      }
    }
  }
  return 0;
}
