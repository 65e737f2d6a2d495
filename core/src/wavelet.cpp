// Wavelet parameters, limits, subband geometry and backend dispatch.
#include "cudafilters/wavelet.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>

#include "cpu/wavelet_cpu.hpp"
#include "cudafilters/error.hpp"
#include "frame_checks.hpp"
#include "kernels/wavelet_cuda.hpp"

namespace cf {

const char *wavelet_name(Wavelet w) { return w == Wavelet::Haar ? "haar" : "cdf53"; }
const char *layout_name(Layout l) { return l == Layout::Mallat ? "mallat" : "standard"; }

SampleType coefficient_type_for(SampleType raw) { return raw == SampleType::U8 ? SampleType::S16 : SampleType::S32; }

namespace {

using Range = ValueRange;

// Overflow bound. The integer transform is a linear filter plus rounding:
// a band's coefficient is sum(t_i x_i) over the band's cascaded analysis
// filter (row cascade times column cascade) plus a rounding error. For inputs
// in [lo, hi], the linear part lies in [P lo - N hi, P hi - N lo] with P and
// N the sums of the positive and (absolute) negative taps. The rounding error
// is bounded per 1-D pass: each pass adds at most 1 and multiplies earlier
// errors by its filter's absolute sum (low: 3/2 for 5/3, 1 for Haar; high: 2).
// The bound depends only on wavelet, layout and sample types, so it is
// computed once per combination (see overflow_max_levels).
struct Cascade {
  std::vector<double> taps{1.0};  // filter from the input to this band, 1-D
  double error = 0;               // bound on the rounding error, 1-D
};

// What band_fits needs of a cascade.
struct CascadeSums {
  double positive = 0, negative = 0, error = 0;
  explicit CascadeSums(const Cascade &c) : error(c.error) {
    for (double t : c.taps) (t > 0 ? positive : negative) += t > 0 ? t : -t;
  }
};

// Appends one analysis step at `level` (0 = finest): the step's filter acts
// on samples 2^level apart.
Cascade step(const Cascade &c, Wavelet w, bool high, int level) {
  static const std::vector<double> kHaarLow{0.5, 0.5}, kHaarHigh{-1, 1}, kCdf53Low{-0.125, 0.25, 0.75, 0.25, -0.125},
      kCdf53High{-0.5, 1, -0.5};
  const std::vector<double> &f = w == Wavelet::Haar ? (high ? kHaarHigh : kHaarLow) : (high ? kCdf53High : kCdf53Low);
  const std::size_t spacing = std::size_t(1) << level;
  Cascade out;
  out.taps.assign(c.taps.size() + (f.size() - 1) * spacing, 0.0);
  for (std::size_t i = 0; i < c.taps.size(); ++i)
    for (std::size_t j = 0; j < f.size(); ++j) out.taps[i + j * spacing] += c.taps[i] * f[j];
  double gain = 0;
  for (double t : f) gain += t < 0 ? -t : t;
  out.error = c.error * gain + 1;
  return out;
}

// Does a band with these row and column cascades fit `coeff` for inputs in `in`?
bool band_fits(const CascadeSums &row, const CascadeSums &col, Range in, SampleType coeff) {
  const double p = row.positive * col.positive + row.negative * col.negative;
  const double n = row.positive * col.negative + row.negative * col.positive;
  const double error = row.error * (col.positive + col.negative) + col.error * (row.positive + row.negative) + 1;
  const Range limit = type_range(coeff);
  return p * double(in.lo) - n * double(in.hi) - error >= double(limit.lo) &&
         p * double(in.hi) - n * double(in.lo) + error <= double(limit.hi);
}

// Levels beyond which the bound is not computed (cascades grow as 2^levels):
// frames up to 2^16 samples wide, far beyond video sizes.
constexpr int kBoundLevels = 16;

// The most levels (up to kBoundLevels, at least 0) whose bands all fit.
int compute_overflow_max(Wavelet w, Layout l, Range in, SampleType coeff) {
  // H[k], L[k]: 1-D cascades of the high and low band of level k (1-based).
  std::vector<CascadeSums> H, L;
  Cascade low;
  for (int k = 0; k < kBoundLevels; ++k) {
    H.emplace_back(step(low, w, true, k));
    low = step(low, w, false, k);
    L.emplace_back(low);
  }
  auto fits = [&](const CascadeSums &r, const CascadeSums &c) { return band_fits(r, c, in, coeff); };
  int best = 0;
  for (int n = 1; n <= kBoundLevels; ++n) {
    const int k = n - 1;  // index of level n
    if (l == Layout::Mallat) {
      // Level n adds (H,H), (H,L), (L,H) of level n; n levels end with LL_n.
      if (!fits(H[k], H[k]) || !fits(H[k], L[k]) || !fits(L[k], H[k])) break;
      if (fits(L[k], L[k])) best = n;
    } else {
      // Standard: every row band H1..Hn, Ln with every column band.
      bool ok = fits(L[k], L[k]);
      for (int i = 0; ok && i <= k; ++i)
        ok = fits(H[i], H[k]) && fits(H[k], H[i]) && fits(H[i], L[k]) && fits(L[k], H[i]);
      if (ok) best = n;
    }
  }
  return best;
}

// compute_overflow_max, once per combination (a few milliseconds each).
int overflow_max_levels(Wavelet w, Layout l, Range in, SampleType coeff) {
  static std::mutex mutex;
  static std::map<std::tuple<int, int, std::int64_t, std::int64_t, int>, int> table;
  std::lock_guard<std::mutex> lock(mutex);
  const auto key = std::make_tuple(int(w), int(l), in.lo, in.hi, int(coeff));
  auto it = table.find(key);
  if (it == table.end()) it = table.emplace(key, compute_overflow_max(w, l, in, coeff)).first;
  return it->second;
}

int geometric_max_levels(int width, int height) {
  int levels = 0;
  for (int n = std::max(width, height); n > 1; n = (n + 1) / 2) ++levels;
  return std::max(levels, 1);
}

}  // namespace

int wavelet_max_levels(Wavelet w, Layout l, int width, int height, ValueRange input, SampleType coeff) {
  // At least 1: a single level on a 1x1 frame changes nothing.
  return std::max(1, std::min(geometric_max_levels(width, height), overflow_max_levels(w, l, input, coeff)));
}

int wavelet_max_levels(Wavelet w, Layout l, int width, int height, SampleType input, SampleType coeff) {
  return wavelet_max_levels(w, l, width, height, type_range(input), coeff);
}

std::string wavelet_check(const WaveletParams &p, const FrameView &raw, SampleType coeff) {
  if (coeff != SampleType::S16 && coeff != SampleType::S32)
    return std::string("coefficient sample type ") + sample_type_name(coeff) + " is not S16 or S32";
  if (p.levels < 1) return "levels=" + std::to_string(p.levels) + " must be at least 1";
  const ValueRange in = range_or_type(p.input, raw.type);
  for (int c = 0; c < raw.n_components; ++c) {
    const Component &k = raw.components[c];
    const int max = wavelet_max_levels(p.wavelet, p.layout, k.width, k.height, in, coeff);
    if (p.levels > max)
      return "levels=" + std::to_string(p.levels) + " is too deep for component " + std::to_string(c) + " (" +
             std::to_string(k.width) + "x" + std::to_string(k.height) + ", " + sample_type_name(raw.type) +
             (p.input.empty() ? std::string()
                              : " values in [" + std::to_string(in.lo) + ", " + std::to_string(in.hi) + "]") +
             " into " + sample_type_name(coeff) + "): at most " + std::to_string(max);
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
      const BandKind kind = c.high ? (r.high ? BandKind::HH : BandKind::HL) : (r.high ? BandKind::LH : BandKind::LL);
      add({c.start, r.start, c.length, r.length, std::max(r.level, c.level), kind});
    }
  return bands;
}

namespace {
void validate(const WaveletParams &p, const FrameView &src, const FrameView &dst) {
  detail::require_alike(src, dst);
  if (p.levels < 1) throw Error("levels must be at least 1");
  if (src.type == SampleType::F32 || dst.type == SampleType::F32)
    throw Error("the reversible wavelets take no F32 samples (cudafilters/cdf97.hpp does)");
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
