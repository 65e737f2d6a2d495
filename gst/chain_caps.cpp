#include "chain_caps.h"

#include "cf_base.h"

namespace cfgst {

GstCaps *stage_transform_caps(GstElement *element, GstPadDirection direction, GstCaps *caps, GstCaps *filter,
                              const CoeffStage &stage) {
  GstCaps *out;
  if (direction == GST_PAD_SINK) {
    const std::vector<CoeffStage> stages = {stage};
    out = coeff_caps_from_raw_caps(caps, &stages);
    out = gst_caps_merge(out, append_stage_caps(caps, stage));
  } else {
    out = raw_caps_from_coeff_caps(caps, stage.name.c_str());
    out = gst_caps_merge(out, drop_stage_caps(caps, stage.name.c_str()));
  }
  return gst_cf_base_limit_caps(GST_BASE_TRANSFORM(element), direction, out, filter);
}

std::string stage_check_input(const PadFormat &in, const std::string &stage_name) {
  if (!in.coefficients) return "";
  std::vector<CoeffStage> chain = in.coeff.stages;
  std::string text;
  for (const CoeffStage &st : chain) text += (text.empty() ? "" : ",") + st.name;
  CoeffStage next;
  next.name = stage_name;
  chain.push_back(next);
  const std::string bad = check_chain(chain, GST_VIDEO_INFO_FORMAT(&in.coeff.raw));
  if (bad.empty()) return "";
  return "the input is a coefficient stream (transform=" + text + ") that stage '" + stage_name +
         "' cannot continue: " + bad;
}

std::string stage_configure(const PadFormat &in, const PadFormat &out, const std::string &stage_name, CoeffStage *stage,
                            cf::ValueRange *input) {
  if (std::string bad = stage_check_input(in, stage_name); !bad.empty()) return bad;
  const std::size_t before = in.coefficients ? in.coeff.stages.size() : 0;
  bool same_chain =
      out.coefficients && out.coeff.stages.size() == before + 1 && out.coeff.stages.back().name == stage_name;
  for (std::size_t i = 0; same_chain && i < before; ++i)
    same_chain = out.coeff.stages[i].name == in.coeff.stages[i].name;
  if (!same_chain)
    return "the output caps must be the input's chain with stage '" + stage_name + "' appended, not " + out.describe();
  if (out.cuda != in.cuda) return "the output caps must be in the input's memory (" + in.describe() + ")";
  if (GST_VIDEO_INFO_FORMAT(&out.info) != GST_VIDEO_INFO_FORMAT(&in.info) ||
      GST_VIDEO_INFO_WIDTH(&out.info) != GST_VIDEO_INFO_WIDTH(&in.info) ||
      GST_VIDEO_INFO_HEIGHT(&out.info) != GST_VIDEO_INFO_HEIGHT(&in.info))
    return "the output caps describe " + out.describe() + ", not the input " + in.describe();
  // The output's sample format is the chain's (parse_coeff_caps checked it):
  // the input's, or a last cdf97 stage's F32.
  *stage = out.coeff.stages.back();
  *input = stage_input_range(out.coeff, before);
  return "";
}

}  // namespace cfgst
