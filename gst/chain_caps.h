// Forward elements that append one stage to a transform chain: they take raw
// video, or a coefficient stream whose chain their stage may continue
// (cudaycocg ! cudacdf53: "ycocg" -> "ycocg,cdf53"), and output the chain
// with their stage appended, in the input's memory and sample format.
// cf_wavelet_enc, cf_predictor_enc and cf_colour_enc use these three
// functions in their transform_caps, check_input and configure; a new stage
// kind only needs its row in coeff_stages.cpp's stage table.
#pragma once

#include <gst/gst.h>

#include <string>

#include "coeff_caps.h"
#include "raw_frame.h"

// Pad templates of such an element (wavelets, predictors): system memory
// and memory:CUDAMemory, the output in the input's memory. Sink: raw video,
// or the S16 coefficients of a colour stage (RGB family). Source: the chain
// with the stage appended, S16 (S32 for 16-bit raw video).
#define CF_CHAIN_SINK_CAPS                                                                     \
  CF_CUDA_CAPS_FIRST("video/x-raw(memory:CUDAMemory), format=(string)" CF_CUDA_RAW_FORMATS     \
                     ", width=(int)[1, 32767], height=(int)[1, 32767]")                        \
  CF_CUDA_CAPS_FIRST(                                                                          \
      "video/x-coefficients(memory:CUDAMemory), sample-format=(string)S16LE, "                 \
      "format=(string)" CF_CUDA_RGB_FORMATS ", width=(int)[1, 32767], height=(int)[1, 32767]") \
  "video/x-raw, format=(string)" CF_RAW_FORMATS                                                \
  ", width=(int)[1, 32767], height=(int)[1, 32767]; "                                          \
  "video/x-coefficients, sample-format=(string)S16LE, format=(string)" CF_RGB_FORMATS          \
  ", width=(int)[1, 32767], height=(int)[1, 32767]"
#define CF_CHAIN_SRC_CAPS                                                                        \
  CF_CUDA_CAPS_FIRST(                                                                            \
      "video/x-coefficients(memory:CUDAMemory), sample-format=(string)S16LE, "                   \
      "format=(string)" CF_CUDA_RAW_FORMATS ", width=(int)[1, 32767], height=(int)[1, 32767]")   \
  "video/x-coefficients, sample-format=(string){ S16LE, S32LE }, format=(string)" CF_RAW_FORMATS \
  ", width=(int)[1, 32767], height=(int)[1, 32767]"

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
std::string stage_configure(const PadFormat &in, const PadFormat &out, const std::string &stage_name, CoeffStage *stage,
                            cf::ValueRange *input);

}  // namespace cfgst
