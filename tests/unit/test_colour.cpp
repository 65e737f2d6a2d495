// Colour transforms (RCT, YCoCg-R) on the CPU backends:
//  - known answers: hand-computed corners, then every one of the 2^24 8-bit
//    RGB triples against the definitions written here with floating-point
//    floor (not the shifts of the code under test), and its exact inverse;
//  - cpu vs openmp, bit for bit, on random data and photos, odd sizes,
//    padded rows, packed/planar layouts, 8 and 16 bits, with alpha;
//  - chains in core: colour then wavelet (WaveletParams::input = the colour
//    range, S16 throughout) and back, exact up to the deepest level allowed,
//    also on the worst-case extremes;
//  - bad input: frames that are not RGB, coefficient types too narrow.
#include <cmath>
#include <cstring>
#include <functional>

#include "cudafilters/colour.hpp"
#include "wavelet_util.hpp"

using cf::Backend;
using cf::ColourTransform;
using cf::SampleType;

namespace {

constexpr ColourTransform kTransforms[] = {ColourTransform::Rct, ColourTransform::YCoCg};

// The definitions of cudafilters/colour.hpp, with floor() of real quotients.
long fl(double v) { return long(std::floor(v)); }
void expected(ColourTransform t, long r, long g, long b, long out[3]) {
  if (t == ColourTransform::Rct) {
    out[0] = fl((r + 2 * g + b) / 4.0);
    out[1] = b - g;
    out[2] = r - g;
  } else {
    const long co = r - b, tt = b + fl(co / 2.0), cg = g - tt;
    out[0] = tt + fl(cg / 2.0);
    out[1] = co;
    out[2] = cg;
  }
}

void hand_computed(cf::Engine &e) {
  struct Case {
    ColourTransform t;
    int rgb[3], out[3];
  };
  const Case cases[] = {
      {ColourTransform::Rct, {0, 0, 0}, {0, 0, 0}},
      {ColourTransform::Rct, {255, 255, 255}, {255, 0, 0}},
      {ColourTransform::Rct, {255, 0, 0}, {63, 0, 255}},
      {ColourTransform::Rct, {0, 255, 0}, {127, -255, -255}},
      {ColourTransform::Rct, {0, 0, 255}, {63, 255, 0}},
      {ColourTransform::Rct, {1, 2, 3}, {2, 1, -1}},
      {ColourTransform::YCoCg, {0, 0, 0}, {0, 0, 0}},
      {ColourTransform::YCoCg, {255, 255, 255}, {255, 0, 0}},
      {ColourTransform::YCoCg, {255, 0, 0}, {63, 255, -127}},
      {ColourTransform::YCoCg, {0, 255, 0}, {127, 0, 255}},
      {ColourTransform::YCoCg, {0, 0, 255}, {63, -255, -127}},
      {ColourTransform::YCoCg, {1, 2, 3}, {2, -2, 0}},
  };
  for (const Case &c : cases) {
    cft::OwnedFrame src = cft::make_raw(cft::Packing::Packed3, 1, 1, SampleType::U8);
    for (int k = 0; k < 3; ++k) cft::write_sample(src.view, k, 0, 0, c.rgb[k]);
    cft::OwnedFrame out = cft::make_planar_like(src.view, SampleType::S16);
    cf::colour_forward(e, c.t, src.view, out.view);
    for (int k = 0; k < 3; ++k)
      CHECK_MSG(cft::read_sample(out.view, k, 0, 0) == c.out[k], "%s (%d,%d,%d) plane %d: %lld, expected %d",
                cf::colour_name(c.t), c.rgb[0], c.rgb[1], c.rgb[2], k, (long long)cft::read_sample(out.view, k, 0, 0),
                c.out[k]);
  }
}

// Every 8-bit triple: frame r holds (r, g = x, b = y) at (x, y).
void every_triple(cf::Engine &e) {
  cft::OwnedFrame src = cft::make_raw(cft::Packing::Packed3, 256, 256, SampleType::U8, 3);
  cft::OwnedFrame out = cft::make_planar_like(src.view, SampleType::S16);
  cft::OwnedFrame back = cft::make_raw(cft::Packing::Packed3, 256, 256, SampleType::U8, 3);
  long long wrong = 0, lost = 0;
  for (ColourTransform t : kTransforms)
    for (int r = 0; r < 256; ++r) {
      for (int y = 0; y < 256; ++y)
        for (int x = 0; x < 256; ++x) {
          cft::write_sample(src.view, 0, x, y, r);
          cft::write_sample(src.view, 1, x, y, x);
          cft::write_sample(src.view, 2, x, y, y);
        }
      cf::colour_forward(e, t, src.view, out.view);
      cf::colour_inverse(e, t, out.view, back.view);
      for (int y = 0; y < 256; ++y)
        for (int x = 0; x < 256; ++x) {
          long want[3];
          expected(t, r, x, y, want);
          for (int k = 0; k < 3; ++k)
            if (cft::read_sample(out.view, k, x, y) != want[k] && wrong++ == 0)
              std::fprintf(stderr, "%s (%d,%d,%d) plane %d: %lld, expected %ld\n", cf::colour_name(t), r, x, y, k,
                           (long long)cft::read_sample(out.view, k, x, y), want[k]);
        }
      lost += cft::count_differences(src.view, back.view);
    }
  CHECK_MSG(wrong == 0, "%s: %lld coefficients differ from the definitions", e.describe().c_str(), wrong);
  CHECK_MSG(lost == 0, "%s: %lld samples not restored by the inverse", e.describe().c_str(), lost);
  std::printf("%s: all 2^24 RGB triples match the definitions and come back exactly\n", e.describe().c_str());
}

struct Layout {
  const char *name;
  cft::Packing packing;
  SampleType type;
};
const Layout kLayouts[] = {{"RGB", cft::Packing::Packed3, SampleType::U8},
                           {"RGBA", cft::Packing::Packed4, SampleType::U8},
                           {"planar RGB", cft::Packing::Planar3, SampleType::U8},
                           {"RGBA/U16", cft::Packing::Packed4, SampleType::U16}};

std::vector<std::uint8_t> photo_rgb;
int photo_w = 0, photo_h = 0;

// Forward and inverse on cpu and openmp: identical, and exact round trips.
void parity(const Layout &l, int w, int h, int pad, std::uint32_t seed, bool photo) {
  cft::OwnedFrame src = cft::make_raw(l.packing, w, h, l.type, pad, false);
  if (photo)
    cft::fill_from_rgb(src, photo_w, photo_h, photo_rgb);
  else
    cft::fill_random(src, seed);
  const SampleType ct = cf::coefficient_type_for(l.type);
  cf::Engine cpu(Backend::Cpu);
  for (ColourTransform t : kTransforms) {
    char what[160];
    std::snprintf(what, sizeof what, "%s %s %dx%d pad=%d %s", cf::colour_name(t), l.name, w, h, pad,
                  photo ? "photo" : "random");
    cft::OwnedFrame ref = cft::make_planar_like(src.view, ct),
                    ref_back = cft::make_raw(l.packing, w, h, l.type, pad, false);
    cft::fill_bytes(ref, 0x11);
    cft::fill_bytes(ref_back, 0x11);
    cf::colour_forward(cpu, t, src.view, ref.view);
    cf::colour_inverse(cpu, t, ref.view, ref_back.view);
    std::string first;
    long long d = cft::count_differences(src.view, ref_back.view, &first);
    CHECK_MSG(d == 0, "%s: cpu round trip: %lld samples differ, first %s", what, d, first.c_str());
    for (int threads : {0, 3}) {
      cf::Engine omp(Backend::OpenMP, threads);
      cft::OwnedFrame out = cft::make_planar_like(src.view, ct),
                      back = cft::make_raw(l.packing, w, h, l.type, pad, false);
      cft::fill_bytes(out, 0xEE);
      cft::fill_bytes(back, 0xEE);
      cf::colour_forward(omp, t, src.view, out.view);
      cf::colour_inverse(omp, t, ref.view, back.view);
      d = cft::count_differences(ref.view, out.view, &first);
      CHECK_MSG(d == 0, "%s: openmp(%d) forward: %lld differ, first %s", what, threads, d, first.c_str());
      d = cft::count_differences(ref_back.view, back.view, &first);
      CHECK_MSG(d == 0, "%s: openmp(%d) inverse: %lld differ, first %s", what, threads, d, first.c_str());
    }
  }
}

// colour -> wavelet (S16, input range of the colour stage) -> and back.
void chains(cf::Engine &e, int w, int h, bool photo, bool extremes) {
  cft::OwnedFrame src = cft::make_raw(cft::Packing::Packed4, w, h, SampleType::U8, 2, false);
  if (photo) {
    cft::fill_from_rgb(src, photo_w, photo_h, photo_rgb);
  } else if (extremes) {
    // Checkerboards of saturated opposite colours: the differences swing
    // between -255 and 255 from pixel to pixel, the high bands' worst case.
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const bool odd = (x + y) % 2, band = (x / 3 + y / 5) % 2;
        const int r = odd ? 255 : 0, g = band ^ odd ? 0 : 255, b = odd ? 0 : 255;
        cft::write_sample(src.view, 0, x, y, r);
        cft::write_sample(src.view, 1, x, y, g);
        cft::write_sample(src.view, 2, x, y, b);
        cft::write_sample(src.view, 3, x, y, odd ? 255 : 0);
      }
  } else {
    cft::fill_random(src, std::uint32_t(w * 7 + h));
  }
  for (ColourTransform t : kTransforms)
    for (cf::Wavelet wv : cft::kWavelets)
      for (cf::Layout lay : cft::kLayouts) {
        const cf::ValueRange range = cf::colour_output_range(t, SampleType::U8);
        const int max = cf::wavelet_max_levels(wv, lay, w, h, range, SampleType::S16);
        for (int levels = 1; levels <= max; ++levels) {
          if (w * h > 10000 && levels > 3 && levels < max) continue;
          const cf::WaveletParams p(wv, levels, lay, range);
          char what[200];
          std::snprintf(what, sizeof what, "%s,%s levels=%d %s on %dx%d %s (%s)", cf::colour_name(t),
                        cf::wavelet_name(wv), levels, cf::layout_name(lay), w, h,
                        photo      ? "photo"
                        : extremes ? "extremes"
                                   : "random",
                        e.describe().c_str());
          cft::OwnedFrame colour = cft::make_planar_like(src.view, SampleType::S16);
          cft::OwnedFrame coeff = cft::make_planar_like(src.view, SampleType::S16);
          cft::OwnedFrame mid = cft::make_planar_like(src.view, SampleType::S16);
          cft::OwnedFrame back = cft::make_raw(cft::Packing::Packed4, w, h, SampleType::U8, 2, false);
          try {
            cf::colour_forward(e, t, src.view, colour.view);
            cf::wavelet_forward(e, p, colour.view, coeff.view);
            cf::wavelet_inverse(e, p, coeff.view, mid.view);
            cf::colour_inverse(e, t, mid.view, back.view);
            std::string first;
            long long d = cft::count_differences(colour.view, mid.view, &first);
            CHECK_MSG(d == 0, "%s: the wavelet round trip of the colour planes: %lld differ, first %s", what, d,
                      first.c_str());
            d = cft::count_differences(src.view, back.view, &first);
            CHECK_MSG(d == 0, "%s: %lld samples differ, first %s", what, d, first.c_str());
          } catch (const cf::Error &err) {
            CHECK_MSG(false, "%s: %s", what, err.what());
          }
        }
      }
}

// The level limits with and without the colour range: the range allows the
// levels that 8-bit input allows, S16's own range almost none.
void limits() {
  const cf::ValueRange range = cf::colour_output_range(ColourTransform::YCoCg, SampleType::U8);
  CHECK(range.lo == -255 && range.hi == 255);
  CHECK(cf::colour_output_range(ColourTransform::Rct, SampleType::U16).hi == 65535);
  for (cf::Wavelet wv : cft::kWavelets)
    for (cf::Layout lay : cft::kLayouts) {
      const int u8 = cf::wavelet_max_levels(wv, lay, 1920, 1080, SampleType::U8, SampleType::S16);
      const int ranged = cf::wavelet_max_levels(wv, lay, 1920, 1080, range, SampleType::S16);
      const int s16 = cf::wavelet_max_levels(wv, lay, 1920, 1080, SampleType::S16, SampleType::S16);
      std::printf("%s %s 1920x1080 into S16: at most %d levels for U8, %d for values in [-255, 255], %d for any S16\n",
                  cf::wavelet_name(wv), cf::layout_name(lay), u8, ranged, s16);
      CHECK_MSG(ranged >= 3 && ranged <= u8 && s16 <= 1, "%s %s: limits %d %d %d", cf::wavelet_name(wv),
                cf::layout_name(lay), u8, ranged, s16);
    }
}

void expect_error(const char *what, const std::function<void()> &f, const char *word) {
  try {
    f();
    CHECK_MSG(false, "%s: no error", what);
  } catch (const cf::Error &e) {
    CHECK_MSG(std::strstr(e.what(), word) != nullptr, "%s: '%s' does not say '%s'", what, e.what(), word);
  }
}

void bad_input(cf::Engine &e) {
  cft::OwnedFrame gray = cft::make_raw(cft::Packing::Gray, 8, 8, SampleType::U8);
  cft::OwnedFrame gray_out = cft::make_planar_like(gray.view, SampleType::S16);
  expect_error(
      "GRAY8", [&] { cf::colour_forward(e, ColourTransform::Rct, gray.view, gray_out.view); }, "components");
  cft::OwnedFrame i420 = cft::make_raw(cft::Packing::Planar3, 8, 8, SampleType::U8, 0, true);
  cft::OwnedFrame i420_out = cft::make_planar_like(i420.view, SampleType::S16);
  expect_error(
      "I420", [&] { cf::colour_forward(e, ColourTransform::YCoCg, i420.view, i420_out.view); }, "subsampled");
  cft::OwnedFrame rgb16 = cft::make_raw(cft::Packing::Packed3, 8, 8, SampleType::U16);
  cft::OwnedFrame narrow = cft::make_planar_like(rgb16.view, SampleType::S16);
  expect_error(
      "U16 into S16", [&] { cf::colour_forward(e, ColourTransform::Rct, rgb16.view, narrow.view); }, "S32");
  cft::OwnedFrame coef = cft::make_planar_like(rgb16.view, SampleType::S16);
  expect_error(
      "S16 input", [&] { cf::colour_forward(e, ColourTransform::Rct, coef.view, narrow.view); }, "U8 or U16");
  cft::OwnedFrame rgb = cft::make_raw(cft::Packing::Packed3, 8, 8, SampleType::U8);
  expect_error(
      "U8 coefficients", [&] { cf::colour_inverse(e, ColourTransform::Rct, rgb.view, rgb.view); }, "S16 or S32");
}

}  // namespace

int main() {
  const std::vector<Backend> backends = cft::cpu_backends();
  if (const std::string dir = cft::image_dir(); !dir.empty())
    cft::load_rgb8(dir + "/fruits.jpg", photo_w, photo_h, photo_rgb);
  if (photo_rgb.empty()) std::printf("note: no test photos (CF_TEST_IMAGES): photo parts use random data\n");
  const bool photo = !photo_rgb.empty();
  for (Backend b : backends) {
    cf::Engine e(b);
    hand_computed(e);
    if (b == Backend::Cpu) every_triple(e);  // the reference; openmp is compared with it below
    bad_input(e);
    for (const auto &s : {std::pair{1, 1}, {7, 5}, {65, 33}}) {
      chains(e, s.first, s.second, false, false);
      chains(e, s.first, s.second, false, true);
    }
    chains(e, 321, 241, photo, !photo);
  }
  limits();
  if (backends.size() < 2) {
    std::printf("note: no OpenMP backend: parity part skipped\n");
    return cft::test_result();
  }
  std::uint32_t seed = 1;
  for (const Layout &l : kLayouts)
    for (const auto &s : {std::pair{1, 1}, {7, 5}, {2, 9}, {321, 241}, {640, 480}})
      for (int pad : {0, 5}) {
        parity(l, s.first, s.second, pad, seed++, false);
        if (photo && s.first > 100) parity(l, s.first, s.second, pad, 0, true);
      }
  std::printf("cpu and openmp agree on every colour transform\n");
  return cft::test_result();
}
