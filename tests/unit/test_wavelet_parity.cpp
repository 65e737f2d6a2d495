// cpu (serial reference) vs openmp: bit-exact forward and inverse for both
// wavelets and layouts, levels 1..max, every packing of frames.hpp, padded
// strides, random data and real photos (opencv-doc's samples; that part is
// skipped with a message when they are absent). Outputs are poisoned with
// different bytes per backend, so a sample one backend leaves unwritten shows
// as a difference.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "wavelet_util.hpp"

using cf::Backend;
using cf::SampleType;

namespace {

struct Photo {
  std::string name;
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgb;
};
std::vector<Photo> photos;

void load_photos() {
  const std::string dir = cft::image_dir();
  if (dir.empty()) {
    std::printf(
        "SKIP photo part: no test photos (install opencv-doc or set CF_TEST_IMAGES); "
        "random data only\n");
    return;
  }
  for (const char *name : {"baboon.jpg", "fruits.jpg", "building.jpg"}) {
    Photo p;
    p.name = name;
    if (cft::load_rgb8(dir + "/" + name, p.width, p.height, p.rgb))
      photos.push_back(std::move(p));
    else
      std::printf("note: could not read %s/%s\n", dir.c_str(), name);
  }
  std::printf("photos from %s: %zu\n", dir.c_str(), photos.size());
}

// Content: a photo index, or -1 for random data with the given seed.
struct Content {
  int photo;
  std::uint32_t seed;
  std::string name() const { return photo < 0 ? "random" : photos[photo].name; }
};

long long comparisons = 0;

// Forward and inverse on the reference and on each OpenMP engine; all must agree.
void compare(const cft::RawKind &kind, int width, int height, int pad, const Content &content,
             const std::vector<int> &levels_wanted, const std::vector<int> &omp_threads) {
  cft::OwnedFrame src = cft::make_raw(kind.packing, width, height, kind.type, pad, kind.subsampled);
  if (content.photo < 0)
    cft::fill_random(src, content.seed);
  else
    cft::fill_from_rgb(src, photos[content.photo].width, photos[content.photo].height, photos[content.photo].rgb);
  const SampleType ct = cf::coefficient_type_for(kind.type);
  cf::Engine cpu(Backend::Cpu);
  for (cf::Wavelet w : cft::kWavelets)
    for (cf::Layout l : cft::kLayouts) {
      const int max = cft::max_levels(w, l, src.view, ct);
      std::vector<int> levels = levels_wanted;
      if (levels.empty())
        for (int k = 1; k <= max; ++k) levels.push_back(k);
      for (int lv : levels) {
        if (lv == 0) lv = max;  // 0 stands for the deepest allowed
        if (lv > max) continue;
        const cf::WaveletParams p{w, lv, l};
        const std::string what = std::string(kind.name) + " " + std::to_string(width) + "x" + std::to_string(height) +
                                 " pad=" + std::to_string(pad) + " " + content.name() + " " + cft::describe(p);
        cft::OwnedFrame ref = cft::make_planar_like(src.view, ct);
        cft::fill_bytes(ref, 0x00);
        cft::OwnedFrame ref_back = cft::make_raw(kind.packing, width, height, kind.type, pad, kind.subsampled);
        cft::fill_bytes(ref_back, 0x00);
        cf::wavelet_forward(cpu, p, src.view, ref.view);
        cf::wavelet_inverse(cpu, p, ref.view, ref_back.view);
        std::string first;
        long long d = cft::count_differences(src.view, ref_back.view, &first);
        CHECK_MSG(d == 0, "%s: cpu round trip differs in %lld samples, first %s", what.c_str(), d, first.c_str());

        for (int threads : omp_threads) {
          cf::Engine omp(Backend::OpenMP, threads);
          cft::OwnedFrame out = cft::make_planar_like(src.view, ct);
          cft::fill_bytes(out, 0xFF);
          cft::OwnedFrame back = cft::make_raw(kind.packing, width, height, kind.type, pad, kind.subsampled);
          cft::fill_bytes(back, 0xFF);
          cf::wavelet_forward(omp, p, src.view, out.view);
          // The inverse starts from the reference's coefficients, so it is
          // compared on its own.
          cf::wavelet_inverse(omp, p, ref.view, back.view);
          ++comparisons;
          d = cft::count_differences(ref.view, out.view, &first);
          CHECK_MSG(d == 0, "%s: openmp(threads=%d) forward differs from cpu in %lld samples, first %s", what.c_str(),
                    threads, d, first.c_str());
          d = cft::count_differences(ref_back.view, back.view, &first);
          CHECK_MSG(d == 0, "%s: openmp(threads=%d) inverse differs from cpu in %lld samples, first %s", what.c_str(),
                    threads, d, first.c_str());
        }
      }
    }
}

const cft::RawKind *kind_named(const std::vector<cft::RawKind> &kinds, const char *name) {
  for (const auto &k : kinds)
    if (std::string(k.name) == name) return &k;
  return nullptr;
}

}  // namespace

int main() {
  if (cft::cpu_backends().size() < 2) {
    std::printf("SKIP: no OpenMP backend to compare with the reference\n");
    return cft::kSkip;
  }
  load_photos();
  const auto start = std::chrono::steady_clock::now();
  const auto kinds = cft::raw_kinds(/*with_u16=*/true);
  auto contents = [&](std::uint32_t seed) {
    std::vector<Content> c{{-1, seed}};
    for (int i = 0; i < int(photos.size()); ++i) c.push_back({i, 0});
    return c;
  };

  // Small and odd sizes: every packing, padded and not, every level. (The
  // OpenMP backend runs frames this small on one thread; the larger sizes
  // below split rows and column blocks over several.)
  const int small[][2] = {{1, 1}, {1, 7}, {7, 1}, {17, 13}};
  std::uint32_t seed = 1;
  for (const auto &s : small)
    for (const auto &kind : kinds)
      for (int pad : {0, 5}) {
        // Photos from 17x13 up (a 1x7 crop of a photo is just random data).
        const bool photo_size = s[0] * s[1] > 100;
        for (const Content &c : photo_size ? contents(seed++) : std::vector<Content>{{-1, seed++}})
          compare(kind, s[0], s[1], pad, c, {}, {0});
      }
  auto lap = [&](const char *what) {
    std::printf("  %-40s done at %5.1f s\n", what,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  };
  lap("small sizes");

  // 640x480 and 1921x1081: a few packings, levels 1, 2 or 3, and the deepest.
  const auto *gray8 = kind_named(kinds, "GRAY8"), *gray16 = kind_named(kinds, "GRAY16"),
             *rgba = kind_named(kinds, "RGBA"), *i420 = kind_named(kinds, "I420"), *nv12 = kind_named(kinds, "NV12"),
             *rgb = kind_named(kinds, "RGB");
  const auto c640 = contents(100);
  for (std::size_t i = 0; i < c640.size(); ++i) {
    if (i < 2) compare(*gray8, 640, 480, 0, c640[i], {}, {0, 3});  // random, first photo: every level
    compare(*i420, 640, 480, 4, c640[i], {1, 0}, {0});
  }
  compare(*rgba, 640, 480, 12, {-1, 101}, {2, 0}, {0, 3});
  compare(*gray16, 640, 480, 2, {-1, 102}, {1, 0}, {0, 3});
  lap("640x480");
  compare(*gray8, 1921, 1081, 3, photos.empty() ? Content{-1, 103} : Content{0, 0}, {1, 3, 0}, {0, 3});
  lap("1921x1081 GRAY8");
  compare(*nv12, 1921, 1081, 1, {-1, 104}, {1, 0}, {0});
  lap("1921x1081 NV12");
  compare(*rgb, 1921, 1081, 7, photos.empty() ? Content{-1, 105} : Content{int(photos.size()) - 1, 0}, {0}, {0});

  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%lld cpu/openmp comparisons (forward and inverse each) in %.1f s\n", comparisons, s);
  return cft::test_result();
}
