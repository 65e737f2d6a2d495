// Reading coefficient caps into core parameters: the strict parse of one
// fixed video/x-coefficients structure (coeff_caps.h describes the fields)
// and the checks of its stages against the frame.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <string>
#include <vector>

#include "coeff_stages.h"
#include "cudafilters/frame.hpp"

namespace cfgst {

// A parsed, fixed coefficient stream.
struct CoeffFormat {
  std::vector<CoeffStage> stages;  // in the order they were applied
  cf::SampleType sample_type = cf::SampleType::S16;
  GstVideoInfo raw;                        // the raw video the stream rebuilds to
  cf::PlanarLayout planes;                 // stream_layout(raw, stages) (coeff_layout.h)
  gsize size = 0;                          // bytes of one frame
  const CoeffStage *last_wavelet() const;  // nullptr when there is none
};

// Strict parsing of fixed caps: every missing, unfixed or wrong field gives
// false and a message naming the field ("caps field 'width' is missing").
bool parse_coeff_structure(const GstStructure *s, CoeffFormat *out, std::string *why);
bool parse_coeff_caps(const GstCaps *caps, CoeffFormat *out, std::string *why);
// Parameters that are well-formed but do not suit the frame (wavelet levels
// too deep for a plane or the values they get): "" or a message naming the field.
std::string check_stage_limits(const CoeffFormat &f);
// The values that enter stage i of the chain (i == stages.size(): the
// values of the stream): the raw format's range for stage 0, the range of
// the previous stage's output after it (empty when unknown: after a wavelet).
cf::ValueRange stage_input_range(const CoeffFormat &f, std::size_t i);

}  // namespace cfgst
