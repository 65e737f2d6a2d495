// Predictor parameters, validation and backend dispatch.
#include "cudafilters/predictor.hpp"

#include <algorithm>

#include "core/shared/predictor_rules.hpp"
#include "cpu/predictor_cpu.hpp"
#include "cudafilters/error.hpp"
#include "kernels/predictor_cuda.hpp"

namespace cf {

const char *predictor_name(Predictor p) {
  switch (p) {
    case Predictor::Med: return "med";
    case Predictor::Gap: return "gap";
    case Predictor::Ged: return "ged";
  }
  return "?";
}

ValueRange prediction_range(ValueRange input, SampleType raw) {
  const ValueRange in = range_or_type(input, raw), type = type_range(raw);
  const std::int64_t mid = predict::range_of(raw).mid, overshoot = (in.hi - in.lo + 1) / 2;  // ceil(d/2)
  return {std::max(type.lo, std::min(mid, in.lo - overshoot)), std::min(type.hi, std::max(mid, in.hi + overshoot))};
}

ValueRange residual_range(ValueRange input, SampleType raw) {
  const ValueRange in = range_or_type(input, raw), p = prediction_range(input, raw);
  return {in.lo - p.hi, in.hi - p.lo};
}

SampleType residual_type_for(SampleType raw, ValueRange input) {
  if (raw == SampleType::U8) return SampleType::S16;
  if (raw == SampleType::S16) {
    const ValueRange r = residual_range(input, raw), s16 = type_range(SampleType::S16);
    if (r.lo >= s16.lo && r.hi <= s16.hi) return SampleType::S16;
  }
  return SampleType::S32;
}

namespace {
std::string range_text(ValueRange r) { return "[" + std::to_string(r.lo) + ", " + std::to_string(r.hi) + "]"; }
}  // namespace

std::string predictor_check(const PredictorParams &p, SampleType raw, SampleType residual) {
  if (p.predictor != Predictor::Med && p.predictor != Predictor::Gap && p.predictor != Predictor::Ged)
    return "unknown predictor";
  if (p.slice_height < 0)
    return "slice-height=" + std::to_string(p.slice_height) + " must be 0 (whole frame) or a row count";
  if (p.threshold < 0 || p.threshold > kMaxGedThreshold)
    return "threshold=" + std::to_string(p.threshold) + " must be 0.." + std::to_string(kMaxGedThreshold);
  if (raw == SampleType::S32)
    return "S32 input is not supported: its residuals would need 33 bits (U8, U16 or S16 input only)";
  const ValueRange type = type_range(raw);
  if (!p.input.empty() && (p.input.lo < type.lo || p.input.hi > type.hi))
    return "input range " + range_text(p.input) + " is not within the range of " + sample_type_name(raw) + " " +
           range_text(type);
  const SampleType narrow = residual_type_for(raw, p.input), wide = residual_type_for(raw);
  if (residual == narrow || residual == wide) return "";
  std::string values = std::string(sample_type_name(raw)) + " samples";
  if (!p.input.empty()) values += " in " + range_text(p.input);
  return "residuals of " + values + " lie in " + range_text(residual_range(p.input, raw)) + " and must be " +
         sample_type_name(narrow) + (narrow != wide ? std::string(" or ") + sample_type_name(wide) : "") + ", not " +
         sample_type_name(residual);
}

namespace {
void validate(const PredictorParams &p, const FrameView &raw, const FrameView &res) {
  if (const char *why = check_frame(raw); *why) throw Error(std::string("raw frame: ") + why);
  if (const char *why = check_frame(res); *why) throw Error(std::string("residual frame: ") + why);
  if (raw.n_components != res.n_components) throw Error("raw and residual component counts differ");
  for (int c = 0; c < raw.n_components; ++c)
    if (raw.components[c].width != res.components[c].width || raw.components[c].height != res.components[c].height)
      throw Error("raw and residual component " + std::to_string(c) + " sizes differ");
  if (const std::string why = predictor_check(p, raw.type, res.type); !why.empty())
    throw Error(std::string(predictor_name(p.predictor)) + ": " + why);
}
}  // namespace

void predictor_forward(Engine &e, const PredictorParams &p, const FrameView &raw, const FrameView &res) {
  validate(p, raw, res);
  switch (e.backend()) {
    case Backend::Cuda: return cuda::predictor_forward(e.cuda(), p, raw, res);
    case Backend::OpenMP: return omp::predictor_forward(p, raw, res, e.threads());
    default: return cpu::predictor_forward(p, raw, res);
  }
}

void predictor_inverse(Engine &e, const PredictorParams &p, const FrameView &res, const FrameView &raw) {
  validate(p, raw, res);
  switch (e.backend()) {
    case Backend::Cuda: return cuda::predictor_inverse(e.cuda(), p, res, raw);
    case Backend::OpenMP: return omp::predictor_inverse(p, res, raw, e.threads());
    default: return cpu::predictor_inverse(p, res, raw);
  }
}

}  // namespace cf
