// 8x8 DCT: quantisation tables, validation and backend dispatch.
#include "cudafilters/dct.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "cpu/dct_cpu.hpp"
#include "cudafilters/error.hpp"
#include "kernels/dct_cuda.hpp"

namespace cf {

namespace {
// ITU-T T.81 Annex K, tables K.1 (luminance) and K.2 (chrominance), row-major.
constexpr std::uint8_t kLuminance[64] = {16, 11, 10, 16, 24,  40,  51,  61,  12, 12, 14, 19, 26,  58,  60,  55,
                                         14, 13, 16, 24, 40,  57,  69,  56,  14, 17, 22, 29, 51,  87,  80,  62,
                                         18, 22, 37, 56, 68,  109, 103, 77,  24, 35, 55, 64, 81,  104, 113, 92,
                                         49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99};
constexpr std::uint8_t kChrominance[64] = {17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99,
                                           24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
                                           99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
                                           99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99};

// The largest |sample - shift| whose coefficients stay in S16: |F| <= 8 max|x|.
constexpr std::int64_t kMaxDctInput = 4095;

std::int64_t level_shift(SampleType raw) { return raw == SampleType::U8 ? 128 : 0; }

std::string range_text(ValueRange r) { return "[" + std::to_string(r.lo) + ", " + std::to_string(r.hi) + "]"; }
}  // namespace

void dct_quant_table(int quality, int plane, std::uint16_t table[64]) {
  const std::uint8_t *base = plane == 0 ? kLuminance : kChrominance;
  const int scale = quality <= 0 ? 0 : quality < 50 ? 5000 / quality : 200 - 2 * quality;
  for (int i = 0; i < 64; ++i)
    table[i] = quality <= 0 ? 1 : std::uint16_t(std::clamp((base[i] * scale + 50) / 100, 1, 255));
}

std::string dct_check(const DctParams &p, SampleType raw, SampleType coeff) {
  if (p.quality < 0 || p.quality > kMaxDctQuality)
    return "quality=" + std::to_string(p.quality) + " must be 0.." + std::to_string(kMaxDctQuality);
  if (raw != SampleType::U8 && raw != SampleType::S16)
    return std::string(sample_type_name(raw)) +
           " input is not supported: its DCT coefficients do not fit S16 (8-bit input, or S16 of a colour stage)";
  const ValueRange in = range_or_type(p.input, raw), type = type_range(raw);
  if (in.lo < type.lo || in.hi > type.hi)
    return "input range " + range_text(in) + " is not within the range of " + sample_type_name(raw);
  const std::int64_t shift = level_shift(raw);
  if (std::max(shift - in.lo, in.hi - shift) > kMaxDctInput)
    return "input values " + range_text(in) +
           " are too wide: coefficients of S16 need |sample| <= " + std::to_string(kMaxDctInput);
  if (coeff != SampleType::S16) return std::string("coefficients must be S16, not ") + sample_type_name(coeff);
  return "";
}

namespace {
void validate(const DctParams &p, const FrameView &raw, const FrameView &coeff) {
  if (const char *why = check_frame(raw); *why) throw Error(std::string("raw frame: ") + why);
  if (const char *why = check_frame(coeff); *why) throw Error(std::string("coefficient frame: ") + why);
  if (raw.n_components != coeff.n_components) throw Error("dct: raw and coefficient component counts differ");
  for (int c = 0; c < raw.n_components; ++c) {
    const Component &r = raw.components[c], &k = coeff.components[c];
    if (k.width != padded_to_blocks(r.width) || k.height != padded_to_blocks(r.height))
      throw Error("dct: coefficient plane " + std::to_string(c) + " is " + std::to_string(k.width) + "x" +
                  std::to_string(k.height) + ", must be " + std::to_string(padded_to_blocks(r.width)) + "x" +
                  std::to_string(padded_to_blocks(r.height)) + " (the component padded to whole 8x8 blocks)");
  }
  if (const std::string why = dct_check(p, raw.type, coeff.type); !why.empty()) throw Error("dct: " + why);
}

// The cosine table (computed once, in double, rounded to float) and this
// call's quantisation tables and output range.
dct::Setup make_setup(const DctParams &p, SampleType raw) {
  static const auto cosine = [] {
    std::array<float, 64> c{};
    const double pi = std::acos(-1.0);
    for (int k = 0; k < 8; ++k)
      for (int n = 0; n < 8; ++n)
        c[8 * k + n] = float((k == 0 ? std::sqrt(1.0 / 8) : std::sqrt(2.0 / 8)) * std::cos((2 * n + 1) * k * pi / 16));
    return c;
  }();
  dct::Setup s{};
  std::copy(cosine.begin(), cosine.end(), s.cosine);
  for (int c = 0; c < kMaxPlanes; ++c) {
    std::uint16_t q[64];
    dct_quant_table(p.quality, c, q);
    for (int i = 0; i < 64; ++i) s.quant[c][i] = float(q[i]);
  }
  s.shift = float(level_shift(raw));
  const ValueRange out = range_or_type(p.input, raw);
  s.lo = int(out.lo);
  s.hi = int(out.hi);
  return s;
}
}  // namespace

void dct_forward(Engine &e, const DctParams &p, const FrameView &raw, const FrameView &coeff) {
  validate(p, raw, coeff);
  const dct::Setup s = make_setup(p, raw.type);
  switch (e.backend()) {
    case Backend::Cuda: return cuda::dct_transform(e.cuda(), false, s, raw, coeff);
    case Backend::OpenMP: return omp::dct_transform(false, s, raw, coeff, e.threads());
    default: return cpu::dct_transform(false, s, raw, coeff);
  }
}

void dct_inverse(Engine &e, const DctParams &p, const FrameView &coeff, const FrameView &raw) {
  validate(p, raw, coeff);
  const dct::Setup s = make_setup(p, raw.type);
  switch (e.backend()) {
    case Backend::Cuda: return cuda::dct_transform(e.cuda(), true, s, coeff, raw);
    case Backend::OpenMP: return omp::dct_transform(true, s, coeff, raw, e.threads());
    default: return cpu::dct_transform(true, s, coeff, raw);
  }
}

}  // namespace cf
