// CDF 9/7 parameters, checks and backend dispatch.
#include "cudafilters/cdf97.hpp"

#include <algorithm>
#include <cmath>

#include "cpu/cdf97_cpu.hpp"
#include "cudafilters/error.hpp"
#include "frame_checks.hpp"
#include "kernels/cdf97_cuda.hpp"

namespace cf {

const char *threshold_mode_name(ThresholdMode m) { return m == ThresholdMode::Hard ? "hard" : "soft"; }

SampleType cdf97_coefficient_type(const Cdf97Params &p, SampleType raw) {
  return p.quant_step > 0 ? coefficient_type_for(raw) : SampleType::F32;
}

int cdf97_max_levels(int width, int height) {
  int levels = 0;
  for (int n = std::max(width, height); n > 1; n = (n + 1) / 2) ++levels;
  return std::max(levels, 1);
}

namespace {

std::string check_params(const Cdf97Params &p) {
  if (p.levels < 1) return "levels=" + std::to_string(p.levels) + " must be at least 1";
  if (!std::isfinite(p.quant_step) || p.quant_step < 0)
    return "quant-step=" + std::to_string(p.quant_step) + " must be 0 (off) or a positive finite number";
  if (!std::isfinite(p.threshold) || p.threshold < 0)
    return "threshold=" + std::to_string(p.threshold) + " must be 0 (off) or a positive finite number";
  return "";
}

bool raw_type(SampleType t) { return t != SampleType::F32; }

// The coefficients' type: F32 without quantisation; with it S16 or S32
// indices, whatever the input (a colour stage's S16 planes of 8-bit video
// give an S16 stream), each saturated to its type.
std::string check_coefficient_type(const Cdf97Params &p, SampleType t) {
  const bool ok = p.quant_step > 0 ? t == SampleType::S16 || t == SampleType::S32 : t == SampleType::F32;
  if (ok) return "";
  return std::string("cdf97 coefficients must be ") +
         (p.quant_step > 0 ? "S16 or S32 with quant-step" : "F32 without quant-step") + ", not " + sample_type_name(t);
}

void validate(const FrameView &src, const FrameView &dst) { detail::require_alike(src, dst); }

}  // namespace

std::string cdf97_check(const Cdf97Params &p, const FrameView &raw) {
  if (std::string bad = check_params(p); !bad.empty()) return bad;
  for (int c = 0; c < raw.n_components; ++c) {
    const Component &k = raw.components[c];
    const int max = cdf97_max_levels(k.width, k.height);
    if (p.levels > max)
      return "levels=" + std::to_string(p.levels) + " is too deep for component " + std::to_string(c) + " (" +
             std::to_string(k.width) + "x" + std::to_string(k.height) + "): at most " + std::to_string(max);
  }
  return "";
}

void cdf97_forward(Engine &e, const Cdf97Params &p, const FrameView &src, const FrameView &dst) {
  validate(src, dst);
  if (std::string bad = cdf97_check(p, src); !bad.empty()) throw Error(bad);
  if (!raw_type(src.type)) throw Error("cdf97 input must be integer samples, not F32");
  if (std::string bad = check_coefficient_type(p, dst.type); !bad.empty()) throw Error(bad);
  switch (e.backend()) {
    case Backend::Cuda: return cuda::cdf97_forward(e.cuda(), p, src, dst);
    case Backend::OpenMP: return omp::cdf97_forward(p, src, dst, e.threads());
    default: return cpu::cdf97_forward(p, src, dst);
  }
}

void cdf97_inverse(Engine &e, const Cdf97Params &p, const FrameView &src, const FrameView &dst) {
  validate(src, dst);
  if (std::string bad = cdf97_check(p, dst); !bad.empty()) throw Error(bad);
  if (std::string bad = check_coefficient_type(p, src.type); !bad.empty()) throw Error(bad);
  switch (e.backend()) {
    case Backend::Cuda: return cuda::cdf97_inverse(e.cuda(), p, src, dst);
    case Backend::OpenMP: return omp::cdf97_inverse(p, src, dst, e.threads());
    default: return cpu::cdf97_inverse(p, src, dst);
  }
}

}  // namespace cf
