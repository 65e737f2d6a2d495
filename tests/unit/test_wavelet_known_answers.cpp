// Known answers for the reversible Haar and CDF 5/3 lifting, computed by hand
// from the rules at the top of cudafilters/wavelet.hpp (the arithmetic is in
// the comments), never from the code under test. Every case runs through the
// public API on each CPU backend, as a row (N x 1 frame) and as a column
// (1 x N frame), both layouts; the inverse must give the input back.
//
//   Haar: d[n] = x[2n+1] - x[2n];  s[n] = x[2n] + floor(d[n]/2);  odd N: s[last] = x[N-1]
//   5/3:  d[n] = x[2n+1] - floor((x[2n] + x[2n+2])/2),  x[N] = x[N-2]
//         s[n] = x[2n] + floor((d[n-1] + d[n] + 2)/4),  d[-1] = d[0], odd N: d[(N-1)/2] = d[(N-3)/2]
//   Output: s[0..ceil(N/2)) then d[0..floor(N/2)).
// Several cases are chosen so that truncating division would give another
// answer; those are marked "(trunc: ...)".
#include <cstdint>
#include <cstdio>
#include <vector>

#include "wavelet_util.hpp"

using cf::Layout;
using cf::SampleType;
using cf::Wavelet;
using Vec = std::vector<std::int64_t>;
using Mat = std::vector<Vec>;

namespace {

struct Case {
  const char *name;
  Wavelet wavelet;
  int levels;
  Mat in, out;  // rows of samples
};

const Case kCases1D[] = {
    // ------------------------------------------------------------ Haar, 1-D
    {"haar N=1", Wavelet::Haar, 1, {{-7}}, {{-7}}},  // N = 1 passes unchanged
    // d0 = 2-5 = -3; s0 = 5 + floor(-3/2) = 5-2 = 3 (trunc: 4)
    {"haar N=2", Wavelet::Haar, 1, {{5, 2}}, {{3, -3}}},
    // d0 = 4-1 = 3; s0 = 1 + floor(3/2) = 2; s1 = x2 = 9 (unpaired)
    {"haar N=3", Wavelet::Haar, 1, {{1, 4, 9}}, {{2, 9, 3}}},
    // negative input: d0 = -8-(-3) = -5; s0 = -3 + floor(-5/2) = -3-3 = -6 (trunc: -5); s1 = 5
    {"haar N=3 negative", Wavelet::Haar, 1, {{-3, -8, 5}}, {{-6, 5, -5}}},
    // d0 = 3-10 = -7; s0 = 10 + floor(-7/2) = 10-4 = 6 (trunc: 7)
    // d1 = 255-0 = 255; s1 = 0 + floor(255/2) = 127
    {"haar N=4", Wavelet::Haar, 1, {{10, 3, 0, 255}}, {{6, 127, -7, 255}}},
    // d0 = 0-7 = -7; s0 = 7 + floor(-7/2) = 3; d1 = 201-200 = 1; s1 = 200 + 0 = 200; s2 = 13
    {"haar N=5", Wavelet::Haar, 1, {{7, 0, 200, 201, 13}}, {{3, 200, 13, -7, 1}}},
    // d0 = 255-0 = 255, s0 = 0 + 127 = 127; d1 = 0-255 = -255, s1 = 255 + floor(-255/2) = 255-128 = 127
    // d2 = 99-100 = -1, s2 = 100 + floor(-1/2) = 99 (trunc: 100); d3 = 2-1 = 1, s3 = 1 + 0 = 1
    {"haar N=8", Wavelet::Haar, 1, {{0, 255, 255, 0, 100, 99, 1, 2}}, {{127, 127, 99, 1, 255, -255, -1, 1}}},
    // level 2 on the low band [127, 127, 99, 1]: d0 = 0, s0 = 127; d1 = 1-99 = -98, s1 = 99 + floor(-98/2) = 50
    {"haar N=8 levels=2", Wavelet::Haar, 2, {{0, 255, 255, 0, 100, 99, 1, 2}}, {{127, 50, 0, -98, 255, -255, -1, 1}}},

    // ------------------------------------------------------------ CDF 5/3, 1-D
    {"cdf53 N=1", Wavelet::Cdf53, 1, {{9}}, {{9}}},
    // d0 = 3 - floor((5+5)/2) = -2 (x2 = x0); s0 = 5 + floor((-2-2+2)/4) = 5 + floor(-1/2) = 4 (trunc: 5)
    {"cdf53 N=2", Wavelet::Cdf53, 1, {{5, 3}}, {{4, -2}}},
    // d0 = 0 - floor((10+3)/2) = -6; d1 = d0
    // s0 = 10 + floor((-6-6+2)/4) = 10 + floor(-10/4) = 10-3 = 7 (trunc: 8); s1 = 3 - 3 = 0
    {"cdf53 N=3", Wavelet::Cdf53, 1, {{10, 0, 3}}, {{7, 0, -6}}},
    // d0 = 0 - floor((-3-4)/2) = 0 - (-4) = 4 (trunc: 3)
    // s0 = -3 + floor((4+4+2)/4) = -3+2 = -1; s1 = -4 + 2 = -2
    {"cdf53 N=3 negative", Wavelet::Cdf53, 1, {{-3, 0, -4}}, {{-1, -2, 4}}},
    // d0 = 3 - floor((10+0)/2) = -2; d1 = 255 - floor((0+0)/2) = 255 (x4 = x2)
    // s0 = 10 + floor((-2-2+2)/4) = 10-1 = 9 (trunc: 10); s1 = 0 + floor((-2+255+2)/4) = floor(255/4) = 63
    {"cdf53 N=4", Wavelet::Cdf53, 1, {{10, 3, 0, 255}}, {{9, 63, -2, 255}}},
    // negative input: d0 = -8 - floor((-3+5)/2) = -9; d1 = -1 - floor((5+5)/2) = -6
    // s0 = -3 + floor((-9-9+2)/4) = -3-4 = -7; s1 = 5 + floor((-9-6+2)/4) = 5 + floor(-13/4) = 5-4 = 1 (trunc: 2)
    {"cdf53 N=4 negative", Wavelet::Cdf53, 1, {{-3, -8, 5, -1}}, {{-7, 1, -9, -6}}},
    // d0 = 0 - floor((7+200)/2) = -103; d1 = 201 - floor((200+13)/2) = 201-106 = 95
    // s0 = 7 + floor((-103-103+2)/4) = 7 - 51 = -44
    // s1 = 200 + floor((-103+95+2)/4) = 200 + floor(-6/4) = 200-2 = 198 (trunc: 199)
    // s2 = 13 + floor((95+95+2)/4) = 13 + 48 = 61
    {"cdf53 N=5", Wavelet::Cdf53, 1, {{7, 0, 200, 201, 13}}, {{-44, 198, 61, -103, 95}}},
    // d0 = 255 - floor(255/2) = 128; d1 = 0 - floor((255+100)/2) = -177; d2 = 99 - floor(101/2) = 49
    // d3 = 2 - floor((1+1)/2) = 1 (x8 = x6)
    // s0 = 0 + floor((128+128+2)/4) = 64; s1 = 255 + floor((128-177+2)/4) = 255 + floor(-47/4) = 243 (trunc: 244)
    // s2 = 100 + floor((-177+49+2)/4) = 100 + floor(-126/4) = 100-32 = 68 (trunc: 69); s3 = 1 + floor(52/4) = 14
    {"cdf53 N=8", Wavelet::Cdf53, 1, {{0, 255, 255, 0, 100, 99, 1, 2}}, {{64, 243, 68, 14, 128, -177, 49, 1}}},
    // level 2 on [64, 243, 68, 14]: d0 = 243 - floor((64+68)/2) = 177; d1 = 14 - floor((68+68)/2) = -54
    // s0 = 64 + floor((177+177+2)/4) = 64+89 = 153; s1 = 68 + floor((177-54+2)/4) = 68+31 = 99
    {"cdf53 N=8 levels=2",
     Wavelet::Cdf53,
     2,
     {{0, 255, 255, 0, 100, 99, 1, 2}},
     {{153, 99, 177, -54, 128, -177, 49, 1}}},
};

// 2-D cases: the input as rows; each row transformed as above, then each column.
//
// Haar, 4x4:
//   input rows        after row pass (1-D Haar N=4 on each row)
//   10   3   0 255    [6, 127, -7, 255]   (the N=4 case above)
//    4   4   9   1    d0 = 0, s0 = 4; d1 = 1-9 = -8, s1 = 9-4 = 5        -> [4, 5, 0, -8]
//    0   7  20  20    d0 = 7, s0 = 0+3 = 3; d1 = 0, s1 = 20                -> [3, 20, 7, 0]
//    1   1   2   6    d0 = 0, s0 = 1; d1 = 4, s1 = 2+2 = 4                 -> [1, 4, 0, 4]
//   column pass (N=4 down each column):
//   [6,4,3,1]:      d0 = -2, s0 = 6-1 = 5;        d1 = -2, s1 = 3-1 = 2     -> [5, 2, -2, -2]
//   [127,5,20,4]:   d0 = -122, s0 = 127-61 = 66;  d1 = -16, s1 = 20-8 = 12  -> [66, 12, -122, -16]
//   [-7,0,7,0]:     d0 = 7, s0 = -7+3 = -4;       d1 = -7, s1 = 7 + floor(-7/2) = 3 -> [-4, 3, 7, -7]
//   [255,-8,0,4]:   d0 = -263, s0 = 255 + floor(-263/2) = 123; d1 = 4, s1 = 2 -> [123, 2, -263, 4]
// Mallat level 2 on LL [[5,66],[2,12]]:
//   rows: [5,66]: d = 61, s = 5+30 = 35;  [2,12]: d = 10, s = 7
//   cols: [35,7]: d = -28, s = 35-14 = 21;  [61,10]: d = -51, s = 61 + floor(-51/2) = 35
// Standard level 2: row level 2 on the first 2 samples of every row:
//   [6,127] -> [66,121]; [4,5] -> [4,1]; [3,20] -> [11,17]; [1,4] -> [2,3]
//   column level 1 on the 4 columns:
//   [66,4,11,2]:  d0 = -62, s0 = 66-31 = 35; d1 = -9, s1 = 11 + floor(-9/2) = 6 -> [35, 6, -62, -9]
//   [121,1,17,3]: d0 = -120, s0 = 61; d1 = -14, s1 = 10                        -> [61, 10, -120, -14]
//   columns 2 and 3 as in Mallat level 1: [-4, 3, 7, -7], [123, 2, -263, 4]
//   column level 2 on the first 2 samples: [35,6] -> d = -29, s = 35 + floor(-29/2) = 20;
//   [61,10] -> [35,-51]; [-4,3] -> d = 7, s = -1; [123,2] -> d = -121, s = 123 + floor(-121/2) = 62
const Mat kHaar4x4 = {{10, 3, 0, 255}, {4, 4, 9, 1}, {0, 7, 20, 20}, {1, 1, 2, 6}};
const Mat kHaar4x4Mallat1 = {{5, 66, -4, 123}, {2, 12, 3, 2}, {-2, -122, 7, -263}, {-2, -16, -7, 4}};
const Mat kHaar4x4Mallat2 = {{21, 35, -4, 123}, {-28, -51, 3, 2}, {-2, -122, 7, -263}, {-2, -16, -7, 4}};
const Mat kHaar4x4Standard2 = {{20, 35, -1, 62}, {-29, -51, 7, -121}, {-62, -120, 7, -263}, {-9, -14, -7, 4}};

// CDF 5/3, 5 wide x 3 high:
//   input rows            after row pass (1-D 5/3 N=5)
//    7   0 200 201  13    [-44, 198, 61, -103, 95]   (the N=5 case above)
//   10   3   0 255  40    d0 = 3 - floor(10/2) = -2; d1 = 255 - floor(40/2) = 235
//                         s0 = 10 + floor(-2/4) = 9; s1 = 0 + floor(235/4) = 58; s2 = 40 + floor(472/4) = 158
//                         -> [9, 58, 158, -2, 235]
//    0 255 255   0 100    d0 = 255 - floor(255/2) = 128; d1 = 0 - floor(355/2) = -177
//                         s0 = floor(258/4) = 64; s1 = 255 + floor(-47/4) = 243; s2 = 100 + floor(-352/4) = 12
//                         -> [64, 243, 12, 128, -177]
//   column pass, N=3: d0 = x1 - floor((x0+x2)/2); s0 = x0 + u, s1 = x2 + u with u = floor((2*d0+2)/4)
//   [-44,9,64]:    d0 = 9-10 = -1,          u = 0                       -> [-44, 64, -1]
//   [198,58,243]:  d0 = 58-220 = -162,      u = floor(-322/4) = -81     -> [117, 162, -162]
//   [61,158,12]:   d0 = 158-36 = 122,       u = floor(246/4) = 61       -> [122, 73, 122]
//   [-103,-2,128]: d0 = -2-12 = -14,        u = floor(-26/4) = -7       -> [-110, 121, -14]
//   [95,235,-177]: d0 = 235-floor(-82/2) = 276, u = floor(554/4) = 138  -> [233, -39, 276]
// Mallat level 2 on LL (3 wide x 2 high) [[-44,117,122],[64,162,73]]:
//   rows N=3: [-44,117,122]: d0 = 117 - floor(78/2) = 78, u = floor(158/4) = 39 -> [-5, 161, 78]
//             [64,162,73]:   d0 = 162 - floor(137/2) = 94, u = floor(190/4) = 47 -> [111, 120, 94]
//   cols N=2 (d0 = x1 - x0, s0 = x0 + floor((2*d0+2)/4)):
//             [-5,111] -> d0 = 116, s0 = -5+58 = 53; [161,120] -> d0 = -41, s0 = 161 + floor(-80/4) = 141
//             [78,94] -> d0 = 16, s0 = 78 + floor(34/4) = 86
// Standard level 2: row level 2 on the first 3 samples of every row (N=3):
//   [-44,198,61]: d0 = 198 - floor(17/2) = 190, u = floor(382/4) = 95    -> [51, 156, 190]
//   [9,58,158]:   d0 = 58 - floor(167/2) = -25, u = floor(-48/4) = -12   -> [-3, 146, -25]
//   [64,243,12]:  d0 = 243 - floor(76/2) = 205, u = floor(412/4) = 103   -> [167, 115, 205]
//   column level 1 (N=3) on the 5 columns:
//   [51,-3,167]:   d0 = -3 - 109 = -112, u = floor(-222/4) = -56  -> [-5, 111, -112]
//   [156,146,115]: d0 = 146 - 135 = 11,  u = floor(24/4) = 6      -> [162, 121, 11]
//   [190,-25,205]: d0 = -25 - 197 = -222, u = floor(-442/4) = -111 -> [79, 94, -222]
//   columns 3, 4 as in Mallat level 1: [-110, 121, -14], [233, -39, 276]
//   column level 2 (N=2) on the first 2 samples:
//   [-5,111] -> [53,116]; [162,121] -> d = -41, s = 162-20 = 142; [79,94] -> d = 15, s = 79 + floor(32/4) = 87
//   [-110,121] -> d = 231, s = -110 + floor(464/4) = 6; [233,-39] -> d = -272, s = 233 + floor(-542/4) = 97
const Mat kCdf5x3 = {{7, 0, 200, 201, 13}, {10, 3, 0, 255, 40}, {0, 255, 255, 0, 100}};
const Mat kCdf5x3Mallat1 = {{-44, 117, 122, -110, 233}, {64, 162, 73, 121, -39}, {-1, -162, 122, -14, 276}};
const Mat kCdf5x3Mallat2 = {{53, 141, 86, -110, 233}, {116, -41, 16, 121, -39}, {-1, -162, 122, -14, 276}};
const Mat kCdf5x3Standard2 = {{53, 142, 87, 6, 97}, {116, -41, 15, 231, -272}, {-112, 11, -222, -14, 276}};

struct Case2D {
  const char *name;
  Wavelet wavelet;
  Layout layout;
  int levels;
  const Mat *in, *out;
};

const Case2D kCases2D[] = {
    {"haar 4x4 mallat 1", Wavelet::Haar, Layout::Mallat, 1, &kHaar4x4, &kHaar4x4Mallat1},
    {"haar 4x4 standard 1", Wavelet::Haar, Layout::Standard, 1, &kHaar4x4, &kHaar4x4Mallat1},
    {"haar 4x4 mallat 2", Wavelet::Haar, Layout::Mallat, 2, &kHaar4x4, &kHaar4x4Mallat2},
    {"haar 4x4 standard 2", Wavelet::Haar, Layout::Standard, 2, &kHaar4x4, &kHaar4x4Standard2},
    {"cdf53 5x3 mallat 1", Wavelet::Cdf53, Layout::Mallat, 1, &kCdf5x3, &kCdf5x3Mallat1},
    {"cdf53 5x3 standard 1", Wavelet::Cdf53, Layout::Standard, 1, &kCdf5x3, &kCdf5x3Mallat1},
    {"cdf53 5x3 mallat 2", Wavelet::Cdf53, Layout::Mallat, 2, &kCdf5x3, &kCdf5x3Mallat2},
    {"cdf53 5x3 standard 2", Wavelet::Cdf53, Layout::Standard, 2, &kCdf5x3, &kCdf5x3Standard2},
};

int runs = 0;

// Forward of `in` (as a frame, transposed when `transpose`) must give `out`;
// the inverse of `out` must give `in`.
void check_case(const char *name, cf::Backend backend, const cf::WaveletParams &p, const Mat &in, const Mat &out,
                bool transpose) {
  const int rows = int(in.size()), cols = int(in[0].size());
  const int width = transpose ? rows : cols, height = transpose ? cols : rows;
  auto at = [&](const Mat &m, int x, int y) { return transpose ? m[x][y] : m[y][x]; };
  bool negative = false;
  for (const Vec &r : in)
    for (auto v : r) negative |= v < 0;
  // Negative inputs stand for coefficients of an earlier stage: S16 -> S32.
  const SampleType raw_type = negative ? SampleType::S16 : SampleType::U8;
  const SampleType coeff_type = negative ? SampleType::S32 : SampleType::S16;

  cft::OwnedFrame raw = cft::make_raw(cft::Packing::Gray, width, height, raw_type, /*pad=*/3);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) cft::write_sample(raw.view, 0, x, y, at(in, x, y));
  cft::OwnedFrame coeff = cft::make_planar_like(raw.view, coeff_type);
  cft::OwnedFrame back = cft::make_raw(cft::Packing::Gray, width, height, raw_type, 3);
  cft::fill_bytes(back, 0x5A);

  cf::Engine engine(backend, backend == cf::Backend::OpenMP ? 3 : 0);
  ++runs;
  const std::string what = std::string(name) + (transpose ? " (column)" : " (row)") + " " + cf::layout_name(p.layout) +
                           " on " + cf::backend_name(backend);
  try {
    cf::wavelet_forward(engine, p, raw.view, coeff.view);
    cf::wavelet_inverse(engine, p, coeff.view, back.view);
  } catch (const cf::Error &e) {
    CHECK_MSG(false, "%s: threw %s", what.c_str(), e.what());
    return;
  }
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const auto got = cft::read_sample(coeff.view, 0, x, y), want = at(out, x, y);
      CHECK_MSG(got == want, "%s: coefficient (%d,%d) is %lld, expected %lld", what.c_str(), x, y, (long long)got,
                (long long)want);
    }
  std::string first;
  const long long diff = cft::count_differences(raw.view, back.view, &first);
  CHECK_MSG(diff == 0, "%s: inverse differs from the input in %lld samples, first %s", what.c_str(), diff,
            first.c_str());
}

// Stores clamp to the destination type (wavelet.hpp: "values clamped to its
// range"): coefficients that reconstruct outside U8 give 0 or 255, and a
// forward into S16 saturates.
void check_clamping(cf::Backend backend) {
  cf::Engine engine(backend);
  const cf::WaveletParams haar{Wavelet::Haar, 1, Layout::Mallat};
  // Inverse Haar of [s, d] = [300, 0]: x0 = 300 - floor(0/2) = 300, x1 = 0 + 300 = 300 -> 255, 255.
  // Of [-5, 3]: x0 = -5 - floor(3/2) = -6, x1 = 3 + (-6) = -3 -> 0, 0.
  // Of [100, -7]: x0 = 100 - floor(-7/2) = 104, x1 = -7 + 104 = 97 (in range, unchanged).
  const std::int64_t coeffs[][2] = {{300, 0}, {-5, 3}, {100, -7}};
  const std::int64_t want[][2] = {{255, 255}, {0, 0}, {104, 97}};
  for (int i = 0; i < 3; ++i) {
    cft::OwnedFrame c = cft::make_raw(cft::Packing::Gray, 2, 1, SampleType::S16);
    cft::write_sample(c.view, 0, 0, 0, coeffs[i][0]);
    cft::write_sample(c.view, 0, 1, 0, coeffs[i][1]);
    cft::OwnedFrame raw = cft::make_raw(cft::Packing::Gray, 2, 1, SampleType::U8);
    cf::wavelet_inverse(engine, haar, c.view, raw.view);
    for (int x = 0; x < 2; ++x)
      CHECK_MSG(cft::read_sample(raw.view, 0, x, 0) == want[i][x],
                "%s: inverse of [%lld, %lld] into U8: "
                "sample %d is %lld, expected %lld",
                cf::backend_name(backend), (long long)coeffs[i][0], (long long)coeffs[i][1], x,
                (long long)cft::read_sample(raw.view, 0, x, 0), (long long)want[i][x]);
  }
  // Forward Haar of S16 [-32768, 32767] into S16: d = 32767 - (-32768) = 65535 saturates to 32767;
  // s = -32768 + floor(65535/2) = -32768 + 32767 = -1.
  cft::OwnedFrame in = cft::make_raw(cft::Packing::Gray, 2, 1, SampleType::S16);
  cft::write_sample(in.view, 0, 0, 0, -32768);
  cft::write_sample(in.view, 0, 1, 0, 32767);
  cft::OwnedFrame out = cft::make_planar_like(in.view, SampleType::S16);
  cf::wavelet_forward(engine, haar, in.view, out.view);
  CHECK_MSG(cft::read_sample(out.view, 0, 0, 0) == -1 && cft::read_sample(out.view, 0, 1, 0) == 32767,
            "%s: forward into S16 should saturate: got [%lld, %lld], expected [-1, 32767]", cf::backend_name(backend),
            (long long)cft::read_sample(out.view, 0, 0, 0), (long long)cft::read_sample(out.view, 0, 1, 0));
}

}  // namespace

int main() {
  for (cf::Backend backend : cft::cpu_backends()) {
    for (const Case &c : kCases1D)
      for (Layout layout : cft::kLayouts)
        for (bool transpose : {false, true})
          check_case(c.name, backend, {c.wavelet, c.levels, layout}, c.in, c.out, transpose);
    // Rows go first, and the floors make the order matter: the 2-D cases
    // are checked as written (no transposed variant).
    for (const Case2D &c : kCases2D) check_case(c.name, backend, {c.wavelet, c.levels, c.layout}, *c.in, *c.out, false);
    check_clamping(backend);
  }
  std::printf("%d known-answer runs\n", runs);
  return cft::test_result();
}
