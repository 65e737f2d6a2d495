// Writing coefficient caps from core parameters: the fixed caps of a stream,
// and the translations transform_caps needs (caps that may hold lists and
// ranges), raw <-> coefficients and a chain with one stage more or less.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <vector>

#include "coeff_stages.h"

namespace cfgst {

// Fixed caps for `stages` applied to the raw video `raw`.
GstCaps *build_coeff_caps(const GstVideoInfo &raw, const std::vector<CoeffStage> &stages);

// For transform_caps (unsupported formats and memory are dropped; the
// caller intersects with its templates). Each output structure keeps the
// memory of its input structure (CUDA in, CUDA out):
// raw -> coefficients with `stages` appended (nullptr: any chain, no
// transform field), one structure per format so sample-format stays exact.
GstCaps *coeff_caps_from_raw_caps(const GstCaps *raw, const std::vector<CoeffStage> *stages);
// coefficients -> the raw video they rebuild. With `last_stage`, only
// structures whose chain is that one stage (or leaves transform open).
GstCaps *raw_caps_from_coeff_caps(const GstCaps *coeff, const char *last_stage = nullptr);

// For forward elements that also take coefficients (chain_caps.h):
// coefficients -> the same with `stage` appended, for structures whose fixed
// chain `stage` may continue; and back: structures whose chain ends with
// `stage` after at least one other -> that chain without it (transform left
// open stays open, minus the stage's fields).
GstCaps *append_stage_caps(const GstCaps *coeff, const CoeffStage &stage);
GstCaps *drop_stage_caps(const GstCaps *coeff, const char *stage);

}  // namespace cfgst
