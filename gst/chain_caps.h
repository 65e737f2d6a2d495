// Forward elements that append one stage to a transform chain: they take raw
// video, or a coefficient stream whose chain their stage may continue
// (cudaycocg ! cudacdf53: "ycocg" -> "ycocg,cdf53"), and output the chain
// with their stage appended, in the input's memory and sample format.
// cf_wavelet_enc and cf_colour_enc use these three functions in their
// transform_caps, check_input and configure; a new stage kind (predictors)
// only needs its row in coeff_caps.cpp's stage table.
#pragma once

#include <gst/gst.h>

#include <string>

#include "coeff_caps.h"
#include "raw_frame.h"

namespace cfgst {

// transform_caps: sink -> src appends `stage` (raw -> a one-stage chain);
// src -> sink gives the raw video, or the chain without `stage`. Each result
// is intersected with the other pad's template and with `filter`.
GstCaps *stage_transform_caps(GstElement *element, GstPadDirection direction, GstCaps *caps, GstCaps *filter,
                              const CoeffStage &stage);

// check_input: "" when `in` is raw video or a chain `stage_name` may
// continue; otherwise the message, naming the chain.
std::string stage_check_input(const PadFormat &in, const std::string &stage_name);

// configure: "" when `out` is `in` with stage `stage_name` appended, same
// memory, format and size. Then *stage is that stage as negotiated and
// *input the values it gets (stage_input_range of the output's chain).
std::string stage_configure(const PadFormat &in, const PadFormat &out, const std::string &stage_name,
                            CoeffStage *stage, cf::ValueRange *input);

}  // namespace cfgst
