// The stages of a transform chain (the transform field of coefficient caps):
// what each stage is, where it may stand in a chain, and what a chain implies
// (its sample type, the values each stage gets).
//
// A new stage kind adds its parameters to CoeffStage, a row to the stage
// table in coeff_stages.cpp (with its place in a chain and the range of its
// output), its fields in coeff_caps_read.cpp and coeff_caps_write.cpp and an
// undo row in gstcudainverse.cpp.
#pragma once

#include <gst/video/video.h>

#include <string>
#include <vector>

#include "cudafilters/cdf97.hpp"
#include "cudafilters/colour.hpp"
#include "cudafilters/dct.hpp"
#include "cudafilters/frame.hpp"
#include "cudafilters/predictor.hpp"
#include "cudafilters/wavelet.hpp"

namespace cfgst {

constexpr int kMaxLevels = 32;  // the largest <stage>-levels a stream may name

enum class StageKind { Wavelet, Colour, Predictor, Dct, Cdf97 };
struct CoeffStage {
  std::string name;  // as spelled in transform=: "haar", "cdf53", "rct", "ycocg", "med", "gap", "ged"
  StageKind kind = StageKind::Wavelet;
  cf::WaveletParams wavelet;                              // kind == Wavelet
  cf::ColourTransform colour = cf::ColourTransform::Rct;  // kind == Colour
  cf::PredictorParams predictor;                          // kind == Predictor
  cf::DctParams dct;                                      // kind == Dct
  cf::Cdf97Params cdf97;                                  // kind == Cdf97
};
CoeffStage wavelet_stage(const cf::WaveletParams &p);
CoeffStage colour_stage(cf::ColourTransform t);
CoeffStage predictor_stage(const cf::PredictorParams &p);
CoeffStage dct_stage(const cf::DctParams &p);
CoeffStage cdf97_stage(const cf::Cdf97Params &p);
// The stage `name` with the kind and variant of its table row and default
// parameters; false when no stage is spelled so.
bool stage_named(const std::string &name, CoeffStage *out);

// The sample type of a stream of `stages` on raw `format`: the last
// stage's (cdf97: F32 unquantised), else S16/S32 by the raw depth.
cf::SampleType stream_sample_type(GstVideoFormat format, const std::vector<CoeffStage> &stages);

// "" when `stages`, in this order, form a valid chain on raw `format`
// (known stages, none twice, colour first and on RGB, wavelet last);
// otherwise a message naming the transform (or format) field.
// GST_VIDEO_FORMAT_UNKNOWN checks the names and order only.
std::string check_chain(const std::vector<CoeffStage> &stages, GstVideoFormat format);
std::string check_chain_names(const std::vector<std::string> &names, GstVideoFormat format);

// The transform field's text and back: "ycocg,cdf53" <-> {"ycocg", "cdf53"}
// (spaces dropped).
std::string chain_text(const std::vector<std::string> &names);
std::string chain_text(const std::vector<CoeffStage> &stages);
std::vector<std::string> split_chain(const std::string &chain);

// The caps field of one stage parameter: "<stage>-<param>" ("cdf53-levels").
std::string stage_field(const std::string &stage, const char *param);

// The values stage `i` of `stages` gets on raw samples of type `raw`
// (i == stages.size(): the values of the stream): the raw type's range for
// stage 0, the range of the previous stage's output after it (empty when
// unknown: after a wavelet).
cf::ValueRange chain_input_range(const std::vector<CoeffStage> &stages, std::size_t i, cf::SampleType raw);

}  // namespace cfgst
