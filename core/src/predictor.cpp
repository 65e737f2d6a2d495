// Predictor parameters, validation and backend dispatch.
#include "cudafilters/predictor.hpp"

#include "cpu/predictor_cpu.hpp"
#include "cuda_bridge.hpp"
#include "cudafilters/error.hpp"

namespace cf {

const char *predictor_name(Predictor p) {
  switch (p) {
    case Predictor::Med: return "med";
    case Predictor::Gap: return "gap";
    case Predictor::Ged: return "ged";
  }
  return "?";
}

SampleType residual_type_for(SampleType raw) { return raw == SampleType::U8 ? SampleType::S16 : SampleType::S32; }

std::string predictor_check(const PredictorParams &p, SampleType raw, SampleType residual) {
  if (p.predictor != Predictor::Med && p.predictor != Predictor::Gap && p.predictor != Predictor::Ged)
    return "unknown predictor";
  if (p.slice_height < 0)
    return "slice-height=" + std::to_string(p.slice_height) + " must be 0 (whole frame) or a row count";
  if (p.threshold < 0 || p.threshold > kMaxGedThreshold)
    return "threshold=" + std::to_string(p.threshold) + " must be 0.." + std::to_string(kMaxGedThreshold);
  if (raw == SampleType::S32)
    return "S32 input is not supported: its residuals would need 33 bits (U8, U16 or S16 input only)";
  if (residual != residual_type_for(raw))
    return std::string("residuals of ") + sample_type_name(raw) + " samples must be " +
           sample_type_name(residual_type_for(raw)) + ", not " + sample_type_name(residual);
  return "";
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
