#include "j2k_subband_weights.hpp"

#include <cmath>
#include <string>

#include "core/shared/cdf97_lifting.hpp"
#include "cudafilters/error.hpp"

namespace cf::j2k {

namespace {

using cdf97_lifting::kAlpha;
using cdf97_lifting::kBeta;
using cdf97_lifting::kDelta;
using cdf97_lifting::kGamma;
using cdf97_lifting::kK;

// x[i] += c (x[i-1] + x[i+1]) for i = first, first + 2, ... < n, with the
// whole-sample symmetric extension (n >= 2).
void lift(std::vector<double> &x, std::size_t n, std::size_t first, double c) {
  for (std::size_t i = first; i < n; i += 2) {
    const double left = i > 0 ? x[i - 1] : x[1];
    const double right = i + 1 < n ? x[i + 1] : x[n - 2];
    x[i] += c * (left + right);
  }
}

// 1D_SR (F.3.8) on x[0, n) interleaved, low-pass at the even indices; the
// 5/3 without its floors and rounding offsets (the linear filter it rounds).
void inverse_1d(bool reversible, std::vector<double> &x, std::size_t n) {
  if (reversible) {
    lift(x, n, 0, -0.25);
    lift(x, n, 1, 0.5);
    return;
  }
  for (std::size_t i = 0; i < n; ++i) x[i] *= (i & 1) ? 1 / kK : kK;
  lift(x, n, 0, -kDelta);
  lift(x, n, 1, -kGamma);
  lift(x, n, 0, -kBeta);
  lift(x, n, 1, -kAlpha);
}

// Levels computed outright; the signal of level j has 2^j * kBandSamples
// samples. Past it each level multiplies a norm by the ratio of the last two
// (the ratios converge to sqrt(2) long before).
constexpr std::uint32_t kExactLevels = 15;
constexpr std::size_t kBandSamples = 32;  // per band at the unit's level: its support stays inside

double exact_norm_1d(bool reversible, bool high, std::uint32_t level) {
  const std::size_t n = kBandSamples << level;
  std::vector<double> x(n, 0.0);
  std::size_t len = n >> (level - 1);  // the interleaved signal of the unit's level
  x[2 * (len / 4) + (high ? 1 : 0)] = 1.0;
  for (std::uint32_t l = level;; --l) {
    inverse_1d(reversible, x, len);
    if (l == 1) break;
    // The result is the low band of the next level down: its even samples.
    for (std::size_t i = len; i-- > 0;) {
      x[2 * i] = x[i];
      x[2 * i + 1] = 0.0;
    }
    len *= 2;
  }
  double sum = 0;
  for (double v : x) sum += v * v;
  return std::sqrt(sum);
}

}  // namespace

double synthesis_norm_1d(bool reversible, bool high, std::uint32_t level) {
  if (level == 0) throw Error("JPEG 2000 synthesis norm: decomposition levels start at 1");
  if (level <= kExactLevels) return exact_norm_1d(reversible, high, level);
  const double last = exact_norm_1d(reversible, high, kExactLevels);
  const double ratio = last / exact_norm_1d(reversible, high, kExactLevels - 1);
  return last * std::pow(ratio, double(level - kExactLevels));
}

std::vector<double> synthesis_norms(bool reversible, std::uint32_t levels) {
  std::vector<double> low(levels + 1, 1.0), high(levels + 1, 1.0);
  for (std::uint32_t l = 1; l <= levels; ++l) {
    low[l] = synthesis_norm_1d(reversible, false, l);
    high[l] = synthesis_norm_1d(reversible, true, l);
  }
  std::vector<double> norms;
  for (const Subband &b : subbands_in_order(levels)) {
    const std::uint32_t l = b.level;
    switch (b.orientation) {
      case Orientation::LL: norms.push_back(low[l] * low[l]); break;
      case Orientation::HL:
      case Orientation::LH: norms.push_back(low[l] * high[l]); break;
      case Orientation::HH: norms.push_back(high[l] * high[l]); break;
    }
  }
  return norms;
}

std::vector<SubbandStep> irreversible_steps(std::uint32_t bit_depth, std::uint32_t levels) {
  const std::vector<double> norms = synthesis_norms(false, levels);
  const std::vector<Subband> bands = subbands_in_order(levels);
  std::vector<SubbandStep> steps;
  for (std::size_t i = 0; i < bands.size(); ++i)
    steps.push_back(expounded_step(1.0 / norms[i], bit_depth + gain_log2(bands[i].orientation)));
  return steps;
}

double decoded_step(const SubbandStep &s, std::uint32_t bit_depth, Orientation o) {
  const int range_bits = int(bit_depth + gain_log2(o));
  return std::ldexp(1.0 + s.mantissa / 2048.0, range_bits - int(s.exponent));
}

namespace {
void check_count(const std::vector<SubbandStep> &steps, std::uint32_t levels, const char *what) {
  if (steps.size() != subband_count(levels))
    throw Error(std::string("JPEG 2000 ") + what + ": one step per subband is needed, " +
                std::to_string(subband_count(levels)) + " for " + std::to_string(levels) + " levels, not " +
                std::to_string(steps.size()));
}
}  // namespace

std::vector<float> step_reciprocals(const std::vector<SubbandStep> &steps, std::uint32_t bit_depth,
                                    std::uint32_t levels) {
  check_count(steps, levels, "step reciprocals");
  const std::vector<Subband> bands = subbands_in_order(levels);
  std::vector<float> r;
  for (std::size_t i = 0; i < bands.size(); ++i)
    r.push_back(float(1.0 / decoded_step(steps[i], bit_depth, bands[i].orientation)));
  return r;
}

std::vector<double> distortion_weights(bool reversible, const std::vector<SubbandStep> &steps, std::uint32_t bit_depth,
                                       std::uint32_t levels) {
  if (!reversible) check_count(steps, levels, "distortion weights");
  const std::vector<double> norms = synthesis_norms(reversible, levels);
  const std::vector<Subband> bands = subbands_in_order(levels);
  std::vector<double> w;
  for (std::size_t i = 0; i < bands.size(); ++i) {
    const double delta = reversible ? 1.0 : decoded_step(steps[i], bit_depth, bands[i].orientation);
    w.push_back(delta * norms[i] * delta * norms[i]);
  }
  return w;
}

}  // namespace cf::j2k
