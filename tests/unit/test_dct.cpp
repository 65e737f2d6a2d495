// 8x8 DCT on the CPU backends:
//  - quantisation tables: hand-computed IJG entries;
//  - known answers: every coefficient against a double-precision 2-D DCT
//    written here from the definition (direct double sum, not separable),
//    within the rounding tolerance 1; a constant block (only DC = 8 (s - 128))
//    and a single-cosine block (one coefficient);
//  - round trip without quantisation (PSNR >= 40 dB, measured and printed)
//    and with it; cpu vs openmp bit for bit on random data and photos, odd
//    sizes, padded rows; a colour stage's S16 input;
//  - bad input: quality, sample types, plane sizes, with clear messages.
#include <cmath>
#include <cstdio>
#include <string>

#include "check.hpp"
#include "cudafilters/dct.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "dct_frames.hpp"

using cf::Backend;
using cf::SampleType;
using cft::OwnedFrame;
using cft::Packing;

namespace {

const double kPi = std::acos(-1.0);

// The definition, in double: F[v][u] = a(u) a(v) sum_y sum_x (s - shift) cos cos.
double reference_coefficient(const cf::FrameView &raw, int c, int bx, int by, int u, int v, double shift) {
  const int w = raw.components[c].width, h = raw.components[c].height;
  const auto a = [](int k) { return k == 0 ? std::sqrt(1.0 / 8) : std::sqrt(2.0 / 8); };
  double sum = 0;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x) {
      const double s = double(cft::read_sample(raw, c, std::min(bx * 8 + x, w - 1), std::min(by * 8 + y, h - 1)));
      sum += (s - shift) * std::cos((2 * x + 1) * u * kPi / 16) * std::cos((2 * y + 1) * v * kPi / 16);
    }
  return a(u) * a(v) * sum;
}

// Every coefficient of `coeff` against round(reference / Q): at most 1 apart
// (float vs double at a .5 boundary); returns how many differ at all.
long check_against_reference(const cf::FrameView &raw, const cf::FrameView &coeff, int quality, double shift) {
  long off = 0;
  for (int c = 0; c < raw.n_components; ++c) {
    std::uint16_t q[64];
    cf::dct_quant_table(quality, c, q);
    for (int by = 0; by < coeff.components[c].height / 8; ++by)
      for (int bx = 0; bx < coeff.components[c].width / 8; ++bx)
        for (int i = 0; i < 64; ++i) {
          const int u = i % 8, v = i / 8;
          const long want = std::lround(reference_coefficient(raw, c, bx, by, u, v, shift) / q[i]);
          const long got = long(cft::read_sample(coeff, c, bx * 8 + u, by * 8 + v));
          CHECK_MSG(std::labs(got - want) <= 1, "c%d block (%d,%d) coefficient (%d,%d): %ld, reference %ld", c, bx, by,
                    u, v, got, want);
          off += got != want;
        }
  }
  return off;
}

void quant_tables() {
  std::uint16_t t[64];
  cf::dct_quant_table(50, 0, t);
  CHECK(t[0] == 16 && t[1] == 11 && t[63] == 99);  // T.81 K.1 itself
  cf::dct_quant_table(50, 1, t);
  CHECK(t[0] == 17 && t[63] == 99);   // K.2
  cf::dct_quant_table(10, 0, t);      // scale 500: (16 * 500 + 50) / 100 = 80
  CHECK(t[0] == 80 && t[63] == 255);  // 99 * 5 = 495 -> 255
  cf::dct_quant_table(90, 0, t);      // scale 20: (16 * 20 + 50) / 100 = 3, (99 * 20 + 50) / 100 = 20
  CHECK(t[0] == 3 && t[63] == 20);
  cf::dct_quant_table(75, 2, t);  // scale 50: (17 * 50 + 50) / 100 = 9
  CHECK(t[0] == 9);
  cf::dct_quant_table(100, 0, t);
  for (int i = 0; i < 64; ++i) CHECK(t[i] == 1);
  cf::dct_quant_table(0, 1, t);
  for (int i = 0; i < 64; ++i) CHECK(t[i] == 1);
}

void constant_and_cosine_blocks(cf::Engine &e) {
  // A constant block: DC 8 (s - 128), nothing else. A 5x3 frame too:
  // replication makes its one block constant.
  struct Constant {
    int w, h, value;
  };
  for (const Constant k : {Constant{8, 8, 200}, Constant{5, 3, 17}}) {
    OwnedFrame raw = cft::make_raw(Packing::Gray, k.w, k.h, SampleType::U8);
    for (int y = 0; y < k.h; ++y)
      for (int x = 0; x < k.w; ++x) cft::write_sample(raw.view, 0, x, y, k.value);
    OwnedFrame co = cft::dct::make_coefficients(raw.view);
    cf::dct_forward(e, cf::DctParams(0), raw.view, co.view);
    CHECK(cft::read_sample(co.view, 0, 0, 0) == 8 * (k.value - 128));
    for (int i = 1; i < 64; ++i) CHECK(cft::read_sample(co.view, 0, i % 8, i / 8) == 0);
  }

  // x = 1000 C[v][y] C[u][x] (S16, no level shift), rounded to integers:
  // F[v][u] = 1000, every other coefficient only the rounding's (the 64
  // errors of at most 0.5 each, mostly cancelling: a few units at most).
  for (int uv : {0 * 8 + 3, 5 * 8 + 1, 7 * 8 + 7}) {
    const int u = uv % 8, v = uv / 8;
    const auto C = [](int k, int n) {
      return (k == 0 ? std::sqrt(1.0 / 8) : 0.5) * std::cos((2 * n + 1) * k * kPi / 16);
    };
    OwnedFrame s = cft::make_raw(Packing::Gray, 8, 8, SampleType::S16);
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x) cft::write_sample(s.view, 0, x, y, std::lround(1000 * C(v, y) * C(u, x)));
    OwnedFrame sco = cft::dct::make_coefficients(s.view);
    cf::dct_forward(e, cf::DctParams(0, {-1000, 1000}), s.view, sco.view);
    CHECK_MSG(std::labs(long(cft::read_sample(sco.view, 0, u, v)) - 1000) <= 3, "cosine (%d,%d): %lld", u, v,
              (long long)cft::read_sample(sco.view, 0, u, v));
    for (int i = 0; i < 64; ++i)
      if (i != uv)
        CHECK_MSG(std::llabs(cft::read_sample(sco.view, 0, i % 8, i / 8)) <= 2, "cosine (%d,%d) leaks to %d", u, v, i);
  }
}

struct Shape {
  Packing packing;
  int w, h, pad;
  const char *name;
};
const Shape kShapes[] = {{Packing::Gray, 1, 1, 0, "gray 1x1"},     {Packing::Gray, 7, 5, 3, "gray 7x5 padded"},
                         {Packing::Gray, 17, 13, 0, "gray 17x13"}, {Packing::Planar3, 21, 11, 5, "I420 21x11 padded"},
                         {Packing::Packed3, 9, 16, 1, "RGB 9x16"}, {Packing::SemiPlanar, 15, 9, 0, "NV12 15x9"}};

// Forward on both CPU backends (identical), against the reference, and the
// round trip's PSNR.
void random_frames(cf::Engine &cpu, cf::Engine &omp) {
  for (const Shape &sh : kShapes)
    for (int quality : {0, 50, 90}) {
      OwnedFrame raw = cft::make_raw(sh.packing, sh.w, sh.h, SampleType::U8, sh.pad);
      cft::fill_random(raw, 7u * sh.w + sh.h + quality);
      OwnedFrame a = cft::dct::make_coefficients(raw.view), b = cft::dct::make_coefficients(raw.view);
      cf::dct_forward(cpu, cf::DctParams(quality), raw.view, a.view);
      cf::dct_forward(omp, cf::DctParams(quality), raw.view, b.view);
      CHECK_MSG(cft::count_differences(a.view, b.view) == 0, "%s q%d: cpu and openmp coefficients differ", sh.name,
                quality);
      const long off = check_against_reference(raw.view, a.view, quality, 128);
      OwnedFrame back = cft::copy_of(raw), back2 = cft::copy_of(raw);
      cft::fill_bytes(back, 0x5a);
      cft::fill_bytes(back2, 0xa5);
      cf::dct_inverse(cpu, cf::DctParams(quality), a.view, back.view);
      cf::dct_inverse(omp, cf::DctParams(quality), a.view, back2.view);
      CHECK_MSG(cft::count_differences(back.view, back2.view) == 0, "%s q%d: cpu and openmp inverses differ", sh.name,
                quality);
      const double p = cft::dct::psnr(raw.view, back.view);
      if (quality == 0) CHECK_MSG(p >= 40, "%s: round trip %.2f dB", sh.name, p);
      std::printf("%-18s q%-3d %ld of the coefficients 1 off the double reference; round trip %.2f dB\n", sh.name,
                  quality, off, p);
    }
}

void photos(cf::Engine &cpu, cf::Engine &omp) {
  for (const cft::Photo &ph : cft::load_photos()) {
    const int w = std::min(ph.width, 203), h = std::min(ph.height, 157);  // odd, crossing blocks
    for (Packing pk : {Packing::Gray, Packing::Planar3}) {
      OwnedFrame raw = cft::make_raw(pk, w, h, SampleType::U8, 3);
      cft::fill_from_rgb(raw, ph.width, ph.height, ph.rgb);
      OwnedFrame a = cft::dct::make_coefficients(raw.view), b = cft::dct::make_coefficients(raw.view);
      cf::dct_forward(cpu, cf::DctParams(0), raw.view, a.view);
      cf::dct_forward(omp, cf::DctParams(0), raw.view, b.view);
      CHECK(cft::count_differences(a.view, b.view) == 0);
      const long off = check_against_reference(raw.view, a.view, 0, 128);
      OwnedFrame back = cft::copy_of(raw);
      cf::dct_inverse(omp, cf::DctParams(0), a.view, back.view);
      const double p = cft::dct::psnr(raw.view, back.view);
      CHECK_MSG(p >= 40, "%s: round trip %.2f dB", ph.name.c_str(), p);
      std::printf("%s %s %dx%d: %ld coefficients 1 off the reference; round trip %.2f dB, max error %ld\n",
                  ph.name.c_str(), pk == Packing::Gray ? "gray" : "I420", w, h, off, p,
                  cft::dct::max_difference(raw.view, back.view));
    }
  }
}

// A colour stage's output: S16 in [-255, 255], no level shift, clamped back.
void colour_stage_input(cf::Engine &cpu, cf::Engine &omp) {
  OwnedFrame raw = cft::make_raw(Packing::Gray, 19, 11, SampleType::S16);
  cft::fill_random(raw, 3);
  for (int y = 0; y < 11; ++y)
    for (int x = 0; x < 19; ++x) cft::write_sample(raw.view, 0, x, y, cft::read_sample(raw.view, 0, x, y) % 256);
  const cf::DctParams p(0, {-255, 255});
  OwnedFrame a = cft::dct::make_coefficients(raw.view), b = cft::dct::make_coefficients(raw.view);
  cf::dct_forward(cpu, p, raw.view, a.view);
  cf::dct_forward(omp, p, raw.view, b.view);
  CHECK(cft::count_differences(a.view, b.view) == 0);
  check_against_reference(raw.view, a.view, 0, 0);
  OwnedFrame back = cft::copy_of(raw);
  cf::dct_inverse(cpu, p, a.view, back.view);
  CHECK(cft::dct::max_difference(raw.view, back.view) <= 1);
}

template <class F>
void expect_error(F &&f, const char *needle) {
  try {
    f();
    CHECK_MSG(false, "no error (expected one naming '%s')", needle);
  } catch (const cf::Error &e) {
    CHECK_MSG(std::string(e.what()).find(needle) != std::string::npos, "'%s' does not name '%s'", e.what(), needle);
  }
}

void bad_input(cf::Engine &e) {
  OwnedFrame raw = cft::make_raw(Packing::Gray, 9, 9, SampleType::U8);
  OwnedFrame co = cft::dct::make_coefficients(raw.view);
  expect_error([&] { cf::dct_forward(e, cf::DctParams(101), raw.view, co.view); }, "quality=101 must be 0..100");
  expect_error([&] { cf::dct_forward(e, cf::DctParams(-1), raw.view, co.view); }, "quality=-1");
  OwnedFrame tight = cft::make_planar_like(raw.view, SampleType::S16);  // 9x9, not 16x16
  expect_error([&] { cf::dct_forward(e, cf::DctParams(0), raw.view, tight.view); }, "must be 16x16");
  OwnedFrame wide = cft::make_raw(Packing::Gray, 9, 9, SampleType::U16);
  expect_error([&] { cf::dct_forward(e, cf::DctParams(0), wide.view, co.view); }, "U16 input is not supported");
  OwnedFrame s32 = cft::make_planar_like(co.view, SampleType::S32);
  expect_error([&] { cf::dct_forward(e, cf::DctParams(0), raw.view, s32.view); }, "coefficients must be S16");
  OwnedFrame s16 = cft::make_raw(Packing::Gray, 9, 9, SampleType::S16);
  expect_error([&] { cf::dct_forward(e, cf::DctParams(0), s16.view, co.view); }, "too wide");
  CHECK(cf::dct_check(cf::DctParams(100), SampleType::U8, SampleType::S16).empty());
  CHECK(cf::dct_check(cf::DctParams(0, {-4095, 4095}), SampleType::S16, SampleType::S16).empty());
}

}  // namespace

int main() {
  cf::Engine cpu(Backend::Cpu), omp(Backend::OpenMP, 2);
  quant_tables();
  constant_and_cosine_blocks(cpu);
  random_frames(cpu, omp);
  photos(cpu, omp);
  colour_stage_input(cpu, omp);
  bad_input(cpu);
  return cft::test_result();
}
