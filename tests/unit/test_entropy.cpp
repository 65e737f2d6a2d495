// Entropy and histograms on the CPU backends:
//  - known answers from the definition: a constant plane has 0 bits per
//    sample, two values in equal numbers exactly 1, four exactly 2, all 256
//    byte values exactly 8; bits per pixel weighs planes by their samples
//    (I420 chroma a quarter, alpha in full);
//  - histograms against a std::map count written here, and cpu vs openmp
//    bit for bit, on random data and photos, U8/U16/S16, odd sizes, padded
//    rows; entropy against a direct evaluation of -sum p log2 p;
//  - bad input: S32 samples.
#include <cmath>
#include <cstring>
#include <map>

#include "cudafilters/entropy.hpp"
#include "wavelet_util.hpp"

using cf::Backend;
using cf::SampleType;

namespace {

bool near(double a, double b) { return std::fabs(a - b) < 1e-12; }

void known_answers(cf::Engine &e) {
  std::vector<cf::Histogram> h;
  const std::string who = e.describe();
  {  // GRAY8 16x16: constant, then 2, 4 and 256 values in equal numbers
    cft::OwnedFrame f = cft::make_raw(cft::Packing::Gray, 16, 16, SampleType::U8, 3);
    for (int values : {1, 2, 4, 256}) {
      for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x) cft::write_sample(f.view, 0, x, y, (y * 16 + x) % values * (256 / values));
      const cf::Entropy en = cf::frame_entropy(e, f.view, h);
      const double want = std::log2(double(values));
      CHECK_MSG(en.n == 1 && near(en.bits_per_sample[0], want) && near(en.bits_per_pixel, want) && en.samples[0] == 256,
                "%s: %d values: %.15f bits/sample, %.15f bits/pixel (expected %g)", who.c_str(), values,
                en.bits_per_sample[0], en.bits_per_pixel, want);
    }
  }
  {  // S16 with -1 and +1 (and the extremes of S16) in equal numbers: 1 bit
    cft::OwnedFrame f =
        cft::make_planar_like(cft::make_raw(cft::Packing::Gray, 5, 4, SampleType::U8).view, SampleType::S16);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 5; ++x) cft::write_sample(f.view, 0, x, y, (x + y) % 2 ? -1 : 1);
    CHECK_MSG(near(cf::frame_entropy(e, f.view, h).bits_per_sample[0], 1.0), "%s: S16 -1/+1", who.c_str());
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 5; ++x) cft::write_sample(f.view, 0, x, y, (x + y) % 2 ? -32768 : 32767);
    CHECK_MSG(near(cf::frame_entropy(e, f.view, h).bits_per_sample[0], 1.0), "%s: S16 extremes", who.c_str());
    CHECK(h[0].lo == -32768 && h[0].counts.size() == 65536 && h[0].counts[0] == 10 && h[0].counts[65535] == 10);
  }
  {  // I420 4x4: Y two values (1 bit), U two values (1 bit), V constant:
     // bits per pixel = (1 * 16 + 1 * 4 + 0 * 4) / 16 = 1.25
    cft::OwnedFrame f = cft::make_raw(cft::Packing::Planar3, 4, 4, SampleType::U8, 1, true);
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < 4; ++x) cft::write_sample(f.view, 0, x, y, x < 2 ? 10 : 200);
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 2; ++x) {
        cft::write_sample(f.view, 1, x, y, y ? 0 : 255);
        cft::write_sample(f.view, 2, x, y, 128);
      }
    const cf::Entropy en = cf::frame_entropy(e, f.view, h);
    CHECK_MSG(en.n == 3 && near(en.bits_per_sample[0], 1) && near(en.bits_per_sample[1], 1) &&
                  near(en.bits_per_sample[2], 0) && en.samples[1] == 4 && near(en.bits_per_pixel, 1.25),
              "%s: I420: %g %g %g bits/sample, %g bits/pixel", who.c_str(), en.bits_per_sample[0],
              en.bits_per_sample[1], en.bits_per_sample[2], en.bits_per_pixel);
  }
  {  // RGBA 4x2: R 1 bit, G 2 bits, B 0, A 3 bits (8 values): 6 bits per pixel
    cft::OwnedFrame f = cft::make_raw(cft::Packing::Packed4, 4, 2, SampleType::U8, 2);
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 4; ++x) {
        cft::write_sample(f.view, 0, x, y, y);
        cft::write_sample(f.view, 1, x, y, x);
        cft::write_sample(f.view, 2, x, y, 7);
        cft::write_sample(f.view, 3, x, y, y * 4 + x);
      }
    const cf::Entropy en = cf::frame_entropy(e, f.view, h);
    CHECK_MSG(near(en.bits_per_pixel, 6.0), "%s: RGBA: %g bits/pixel", who.c_str(), en.bits_per_pixel);
  }
}

// Histograms of the backend == a std::map count; entropy == direct formula.
void against_map(cf::Engine &e, const cft::OwnedFrame &f, const char *what) {
  std::vector<cf::Histogram> h;
  const cf::Entropy en = cf::frame_entropy(e, f.view, h);
  double bpp = 0;
  for (int c = 0; c < f.view.n_components; ++c) {
    std::map<long long, long long> count;
    const cf::Component &k = f.view.components[c];
    for (int y = 0; y < k.height; ++y)
      for (int x = 0; x < k.width; ++x) ++count[cft::read_sample(f.view, c, x, y)];
    long long mismatches = 0, total = 0;
    for (std::size_t i = 0; i < h[c].counts.size(); ++i) {
      const auto it = count.find(h[c].lo + (long long)i);
      mismatches += h[c].counts[i] != (it == count.end() ? 0 : it->second);
      total += h[c].counts[i];
    }
    CHECK_MSG(mismatches == 0 && total == (long long)k.width * k.height, "%s (%s) component %d: %lld bins differ", what,
              e.describe().c_str(), c, mismatches);
    double bits = 0;
    const double n = double(k.width) * k.height;
    for (const auto &[v, m] : count) bits -= m / n * std::log2(m / n);
    CHECK_MSG(std::fabs(bits - en.bits_per_sample[c]) < 1e-9, "%s component %d: %.12f vs %.12f", what, c,
              en.bits_per_sample[c], bits);
    bpp += bits * n;
  }
  bpp /= double(f.view.components[0].width) * f.view.components[0].height;
  CHECK_MSG(std::fabs(bpp - en.bits_per_pixel) < 1e-9, "%s: %.12f vs %.12f bits/pixel", what, en.bits_per_pixel, bpp);
}

bool same_histograms(const std::vector<cf::Histogram> &a, const std::vector<cf::Histogram> &b) {
  if (a.size() != b.size()) return false;
  for (std::size_t c = 0; c < a.size(); ++c)
    if (a[c].lo != b[c].lo || a[c].counts != b[c].counts) return false;
  return true;
}

}  // namespace

int main() {
  const std::vector<Backend> backends = cft::cpu_backends();
  std::vector<std::uint8_t> rgb;
  int pw = 0, ph = 0;
  if (const std::string dir = cft::image_dir(); !dir.empty()) cft::load_rgb8(dir + "/baboon.jpg", pw, ph, rgb);
  for (Backend b : backends) {
    cf::Engine e(b);
    known_answers(e);
    try {
      cft::OwnedFrame s32 =
          cft::make_planar_like(cft::make_raw(cft::Packing::Gray, 4, 4, SampleType::U8).view, SampleType::S32);
      std::vector<cf::Histogram> h;
      cf::histograms(e, s32.view, h);
      CHECK_MSG(false, "S32 accepted");
    } catch (const cf::Error &err) {
      CHECK_MSG(std::strstr(err.what(), "S32") != nullptr, "S32: '%s'", err.what());
    }
  }
  // Random and photo frames: map counts, and every backend equal.
  struct Kind {
    const char *name;
    cft::Packing packing;
    SampleType type;
    bool subsampled;
  };
  const Kind kinds[] = {{"GRAY8", cft::Packing::Gray, SampleType::U8, false},
                        {"RGBA", cft::Packing::Packed4, SampleType::U8, false},
                        {"I420", cft::Packing::Planar3, SampleType::U8, true},
                        {"NV12/U16", cft::Packing::SemiPlanar, SampleType::U16, true},
                        {"RGB/U16", cft::Packing::Packed3, SampleType::U16, false}};
  std::uint32_t seed = 1;
  long long runs = 0;
  for (const auto &s : {std::pair{1, 1}, {7, 5}, {321, 241}, {640, 480}})
    for (const Kind &k : kinds)
      for (int content = 0; content < (rgb.empty() ? 1 : 2); ++content) {
        cft::OwnedFrame f = cft::make_raw(k.packing, s.first, s.second, k.type, 3, k.subsampled);
        if (content)
          cft::fill_from_rgb(f, pw, ph, rgb);
        else
          cft::fill_random(f, seed++);
        // S16 too: the same values as signed coefficients around 0.
        cft::OwnedFrame coef = cft::make_planar_like(f.view, SampleType::S16);
        for (int c = 0; c < f.view.n_components; ++c)
          for (int y = 0; y < f.view.components[c].height; ++y)
            for (int x = 0; x < f.view.components[c].width; ++x)
              cft::write_sample(coef.view, c, x, y, (cft::read_sample(f.view, c, x, y) & 0xffff) - 128);
        char what[120];
        std::snprintf(what, sizeof what, "%s %dx%d %s", k.name, s.first, s.second, content ? "photo" : "random");
        std::vector<cf::Histogram> ref, ref_coef;
        cf::Engine cpu(Backend::Cpu);
        cf::histograms(cpu, f.view, ref);
        cf::histograms(cpu, coef.view, ref_coef);
        against_map(cpu, f, what);
        against_map(cpu, coef, (std::string(what) + " as S16").c_str());
        for (Backend b : backends)
          for (int threads : {0, 3}) {
            cf::Engine e(b, threads);
            std::vector<cf::Histogram> h;
            cf::histograms(e, f.view, h);
            CHECK_MSG(same_histograms(ref, h), "%s: %s histograms differ from cpu", what, e.describe().c_str());
            cf::histograms(e, coef.view, h);
            CHECK_MSG(same_histograms(ref_coef, h), "%s as S16: %s histograms differ", what, e.describe().c_str());
            ++runs;
          }
      }
  std::printf("%lld histogram comparisons\n", runs);
  return cft::test_result();
}
