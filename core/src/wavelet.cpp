// Wavelet parameters, limits, subband geometry and backend dispatch.
#include "cudafilters/wavelet.hpp"

#include <algorithm>
#include <cstdint>

#include "cpu/wavelet_cpu.hpp"
#include "cuda_bridge.hpp"
#include "cudafilters/error.hpp"

namespace cf {

const char *wavelet_name(Wavelet w) { return w == Wavelet::Haar ? "haar" : "cdf53"; }
const char *layout_name(Layout l) { return l == Layout::Mallat ? "mallat" : "standard"; }

SampleType coefficient_type_for(SampleType raw) {
  return raw == SampleType::U8 ? SampleType::S16 : SampleType::S32;
}

namespace {

// Closed interval of values a band can hold for any input in the start range.
struct Range {
  std::int64_t lo, hi;
};

Range type_range(SampleType t) {
  switch (t) {
    case SampleType::U8: return {0, 255};
    case SampleType::U16: return {0, 65535};
    case SampleType::S16: return {-32768, 32767};
    case SampleType::S32: return {INT32_MIN, INT32_MAX};
  }
  return {0, 0};
}

bool fits(Range r, SampleType t) {
  const Range limit = type_range(t);
  return r.lo >= limit.lo && r.hi <= limit.hi;
}

// Bounds of one 1-D lifting pass. High bands: d = x - (a prediction inside
// [lo, hi]). Low bands: Haar's s = floor((a + b) / 2) stays in [lo, hi]; the
// 5/3 low band equals the filter (-1, 2, 6, 2, -1) / 8 whose positive taps
// sum to 5/4 and negative taps to -1/4, plus at most 2 of rounding.
Range high_pass(Range r) { return {r.lo - r.hi, r.hi - r.lo}; }
Range low_pass(Wavelet w, Range r) {
  if (w == Wavelet::Haar) return r;
  const std::int64_t width = r.hi - r.lo;
  return {r.lo - (width + 3) / 4 - 2, r.hi + (width + 3) / 4 + 2};
}

// True when `levels` levels cannot overflow `coeff` for inputs in `in`.
bool levels_fit(Wavelet w, Layout l, int levels, Range in, SampleType coeff) {
  if (l == Layout::Mallat) {
    Range ll = in;
    for (int k = 0; k < levels; ++k) {
      const Range lo = low_pass(w, ll), hi = high_pass(ll);
      const Range bands[] = {low_pass(w, lo), high_pass(lo), low_pass(w, hi), high_pass(hi)};
      for (Range b : bands)
        if (!fits(b, coeff)) return false;
      ll = bands[0];
    }
    return true;
  }
  // Standard: every row band (H1..Hn, Ln) then goes through n column levels.
  std::vector<Range> row_bands;
  Range r = in;
  for (int k = 0; k < levels; ++k) {
    row_bands.push_back(high_pass(r));
    r = low_pass(w, r);
  }
  row_bands.push_back(r);
  for (Range b : row_bands) {
    for (int k = 0; k < levels; ++k) {
      if (!fits(high_pass(b), coeff)) return false;
      b = low_pass(w, b);
    }
    if (!fits(b, coeff)) return false;
  }
  return true;
}

int geometric_max_levels(int width, int height) {
  int levels = 0;
  for (int n = std::max(width, height); n > 1; n = (n + 1) / 2) ++levels;
  return std::max(levels, 1);
}

}  // namespace

int wavelet_max_levels(Wavelet w, Layout l, int width, int height, SampleType input,
                       SampleType coeff) {
  const int geometric = geometric_max_levels(width, height);
  int levels = 1;
  while (levels < geometric && levels_fit(w, l, levels + 1, type_range(input), coeff)) ++levels;
  return levels;
}

std::string wavelet_check(const WaveletParams &p, const FrameView &raw, SampleType coeff) {
  if (coeff != SampleType::S16 && coeff != SampleType::S32)
    return std::string("coefficient sample type ") + sample_type_name(coeff) + " is not S16 or S32";
  if (p.levels < 1) return "levels=" + std::to_string(p.levels) + " must be at least 1";
  for (int c = 0; c < raw.n_components; ++c) {
    const Component &k = raw.components[c];
    const int max = wavelet_max_levels(p.wavelet, p.layout, k.width, k.height, raw.type, coeff);
    if (p.levels > max)
      return "levels=" + std::to_string(p.levels) + " is too deep for component " +
             std::to_string(c) + " (" + std::to_string(k.width) + "x" + std::to_string(k.height) +
             ", " + sample_type_name(raw.type) + " into " + sample_type_name(coeff) +
             "): at most " + std::to_string(max);
  }
  return "";
}

std::vector<Subband> wavelet_subbands(const WaveletParams &p, int width, int height) {
  std::vector<Subband> bands;
  auto add = [&](Subband b) {
    if (b.width > 0 && b.height > 0) bands.push_back(b);
  };
  if (p.layout == Layout::Mallat) {
    int w = width, h = height;
    for (int k = 1; k <= p.levels; ++k) {
      const int wl = (w + 1) / 2, hl = (h + 1) / 2;
      add({wl, 0, w / 2, hl, k, BandKind::HL});
      add({0, hl, wl, h / 2, k, BandKind::LH});
      add({wl, hl, w / 2, h / 2, k, BandKind::HH});
      w = wl;
      h = hl;
    }
    add({0, 0, w, h, p.levels, BandKind::LL});
    return bands;
  }
  // Standard: a band is one row band times one column band.
  struct Span {
    int start, length, level;
    bool high;
  };
  auto spans = [&](int n) {
    std::vector<Span> s;
    for (int k = 1; k <= p.levels; ++k) {
      s.push_back({(n + 1) / 2, n / 2, k, true});
      n = (n + 1) / 2;
    }
    s.push_back({0, n, p.levels, false});
    return s;
  };
  for (const Span &r : spans(height))
    for (const Span &c : spans(width)) {
      const BandKind kind = c.high ? (r.high ? BandKind::HH : BandKind::HL)
                                   : (r.high ? BandKind::LH : BandKind::LL);
      add({c.start, r.start, c.length, r.length, std::max(r.level, c.level), kind});
    }
  return bands;
}

namespace {
void validate(const WaveletParams &p, const FrameView &src, const FrameView &dst) {
  if (const char *why = check_frame(src); *why) throw Error(std::string("source frame: ") + why);
  if (const char *why = check_frame(dst); *why) throw Error(std::string("destination frame: ") + why);
  if (src.n_components != dst.n_components) throw Error("source and destination component counts differ");
  for (int c = 0; c < src.n_components; ++c)
    if (src.components[c].width != dst.components[c].width ||
        src.components[c].height != dst.components[c].height)
      throw Error("source and destination component sizes differ");
  if (p.levels < 1) throw Error("levels must be at least 1");
}
}  // namespace

void wavelet_forward(Engine &e, const WaveletParams &p, const FrameView &src, const FrameView &dst) {
  validate(p, src, dst);
  if (const std::string why = wavelet_check(p, src, dst.type); !why.empty()) throw Error(why);
  switch (e.backend()) {
    case Backend::Cuda: return cuda::wavelet_forward(e.cuda(), p, src, dst);
    case Backend::OpenMP: return omp::wavelet_forward(p, src, dst, e.threads());
    default: return cpu::wavelet_forward(p, src, dst);
  }
}

void wavelet_inverse(Engine &e, const WaveletParams &p, const FrameView &src, const FrameView &dst) {
  validate(p, src, dst);
  switch (e.backend()) {
    case Backend::Cuda: return cuda::wavelet_inverse(e.cuda(), p, src, dst);
    case Backend::OpenMP: return omp::wavelet_inverse(p, src, dst, e.threads());
    default: return cpu::wavelet_inverse(p, src, dst);
  }
}

}  // namespace cf
