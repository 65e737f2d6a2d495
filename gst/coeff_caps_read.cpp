// video/x-coefficients caps -> core parameters; see coeff_caps_read.h.
#include "coeff_caps_read.h"

#include <cmath>

#include "caps_fields.h"
#include "coeff_layout.h"
#include "raw_formats.h"

namespace cfgst {

namespace {

// The cdf97 stage's double fields: 0..65535.
bool read_double(const GstStructure *s, const char *field, double *out, std::string *why) {
  const GValue *v = gst_structure_get_value(s, field);
  if (!v) return refuse(why, field_message(field, "is missing"));
  if (!G_VALUE_HOLDS_DOUBLE(v))
    return refuse(why, field_message(field, "must be a fixed double, got " + describe_value(v)));
  *out = g_value_get_double(v);
  if (!std::isfinite(*out) || *out < 0 || *out > 65535)
    return refuse(why, field_message(field, "is " + std::to_string(*out) + ", must be 0..65535"));
  return true;
}

bool read_layout(const GstStructure *s, const std::string &field, cf::Layout *out, std::string *why) {
  std::string layout;
  if (!read_string(s, field.c_str(), true, &layout, nullptr, why)) return false;
  if (layout == "mallat")
    *out = cf::Layout::Mallat;
  else if (layout == "standard")
    *out = cf::Layout::Standard;
  else
    return refuse(why, field_message(field.c_str(), "is '" + layout + "', must be mallat or standard"));
  return true;
}

// The parameter fields of stage `st` (name, kind and variant already set).
bool read_stage_params(const GstStructure *s, CoeffStage *st, std::string *why) {
  const std::string &name = st->name;
  switch (st->kind) {
    case StageKind::Wavelet: {
      const std::string lf = stage_field(name, "levels"), yf = stage_field(name, "layout");
      if (!read_int(s, lf.c_str(), 1, kMaxLevels, &st->wavelet.levels, why)) return false;
      return read_layout(s, yf, &st->wavelet.layout, why);
    }
    case StageKind::Cdf97: {
      double step = 0, threshold = 0;
      std::string mode;
      if (!read_int(s, "cdf97-levels", 1, kMaxLevels, &st->cdf97.levels, why) ||
          !read_layout(s, "cdf97-layout", &st->cdf97.layout, why) || !read_double(s, "cdf97-quant-step", &step, why) ||
          !read_double(s, "cdf97-threshold", &threshold, why) ||
          !read_string(s, "cdf97-threshold-mode", true, &mode, nullptr, why))
        return false;
      if (mode != "hard" && mode != "soft")
        return refuse(why, field_message("cdf97-threshold-mode", "is '" + mode + "', must be hard or soft"));
      st->cdf97.quant_step = float(step);
      st->cdf97.threshold = float(threshold);
      st->cdf97.threshold_mode = mode == "soft" ? cf::ThresholdMode::Soft : cf::ThresholdMode::Hard;
      return true;
    }
    case StageKind::Colour:  // no parameters
      return true;
    case StageKind::Predictor: {
      const std::string hf = stage_field(name, "slice-height");
      if (!read_int(s, hf.c_str(), 0, G_MAXINT16, &st->predictor.slice_height, why)) return false;
      if (st->predictor.predictor == cf::Predictor::Ged) {
        const std::string tf = stage_field(name, "threshold");
        if (!read_int(s, tf.c_str(), 0, cf::kMaxGedThreshold, &st->predictor.threshold, why)) return false;
      }
      return true;
    }
    case StageKind::Dct:
      return read_int(s, stage_field(name, "quality").c_str(), 0, cf::kMaxDctQuality, &st->dct.quality, why);
  }
  return refuse(why, "internal: stage kind without a parser");
}

}  // namespace

const CoeffStage *CoeffFormat::last_wavelet() const {
  for (auto it = stages.rbegin(); it != stages.rend(); ++it)
    if (it->kind == StageKind::Wavelet) return &*it;
  return nullptr;
}

bool parse_coeff_structure(const GstStructure *s, CoeffFormat *out, std::string *why) {
  if (!gst_structure_has_name(s, kCoeffMediaType))
    return refuse(why, std::string("caps are ") + gst_structure_get_name(s) + ", expected " + kCoeffMediaType);
  CoeffFormat f;

  // transform and per-stage parameters
  std::string chain;
  if (!read_string(s, "transform", true, &chain, nullptr, why)) return false;
  // The chain's shape first (known names, no repeats, colour first, wavelet
  // last), then each stage's parameter fields.
  const std::vector<std::string> names = split_chain(chain);
  if (std::string bad = check_chain_names(names, GST_VIDEO_FORMAT_UNKNOWN); !bad.empty()) return refuse(why, bad);
  for (const std::string &name : names) {
    CoeffStage st;
    stage_named(name, &st);  // known: checked above
    if (!read_stage_params(s, &st, why)) return false;
    f.stages.push_back(st);
  }

  // the raw video
  std::string format_name;
  if (!read_string(s, "format", true, &format_name, nullptr, why)) return false;
  const GstVideoFormat format = gst_video_format_from_string(format_name.c_str());
  if (format == GST_VIDEO_FORMAT_UNKNOWN || !raw_format_supported(format))
    return refuse(why, field_message("format", "is '" + format_name + "', not one of " + supported_formats_text()));
  if (std::string bad = check_chain_names(names, format); !bad.empty()) return refuse(why, bad);
  int width = 0, height = 0;
  if (!read_int(s, "width", 1, G_MAXINT16, &width, why)) return false;
  if (!read_int(s, "height", 1, G_MAXINT16, &height, why)) return false;

  std::string sample_format;
  if (!read_string(s, "sample-format", true, &sample_format, nullptr, why)) return false;
  if (sample_format != "S16LE" && sample_format != "S32LE" && sample_format != "F32LE")
    return refuse(why, field_message("sample-format", "is '" + sample_format + "', must be S16LE, S32LE or F32LE"));
  f.sample_type = stream_sample_type(format, f.stages);
  if (sample_format != sample_format_name(f.sample_type))
    return refuse(why,
                  field_message("sample-format",
                                "is " + sample_format + ", but format " + format_name +
                                    (f.stages.back().kind == StageKind::Cdf97 ? " and this cdf97-quant-step" : "") +
                                    " needs " + sample_format_name(f.sample_type)));

  if (!check_fraction(s, "framerate", false, why)) return false;
  if (!check_fraction(s, "pixel-aspect-ratio", true, why)) return false;
  std::string text;
  bool present = false;
  if (!read_string(s, "colorimetry", false, &text, &present, why)) return false;
  GstVideoColorimetry colorimetry;
  if (present && !gst_video_colorimetry_from_string(&colorimetry, text.c_str()))
    return refuse(why, field_message("colorimetry", "is '" + text + "', not a colorimetry"));
  if (!read_string(s, "chroma-site", false, &text, &present, why)) return false;
  if (!read_string(s, "interlace-mode", false, &text, &present, why)) return false;
  if (present && text != "progressive" && text != "interleaved" && text != "mixed")
    return refuse(why, field_message("interlace-mode", "is '" + text + "', must be progressive, interleaved or mixed"));

  // Let GStreamer fill GstVideoInfo (strides, defaults) from the raw caps.
  GstStructure *raw = gst_structure_new("video/x-raw", "format", G_TYPE_STRING, format_name.c_str(), nullptr);
  copy_shared_fields(s, raw);
  GstCaps *raw_caps = gst_caps_new_full(raw, nullptr);
  const gboolean ok = gst_video_info_from_caps(&f.raw, raw_caps);
  gst_caps_unref(raw_caps);
  if (!ok)
    return refuse(why,
                  "caps fields format, width, height, framerate, pixel-aspect-ratio, colorimetry, "
                  "chroma-site and interlace-mode do not describe a raw video");

  f.planes = stream_layout(f.raw, f.stages);
  f.size = cf::planar_size(f.planes, f.sample_type);
  // A predictor after a colour stage gets that stage's values: the range
  // that lets its S16 residuals stay in S16 (cf::residual_type_for), for
  // the forward element and cudainverse alike.
  for (std::size_t i = 1; i < f.stages.size(); ++i)
    if (f.stages[i].kind == StageKind::Predictor)
      f.stages[i].predictor.input = stage_input_range(f, i);
    else if (f.stages[i].kind == StageKind::Dct)
      f.stages[i].dct.input = stage_input_range(f, i);
  *out = f;
  return true;
}

cf::ValueRange stage_input_range(const CoeffFormat &f, std::size_t i) {
  return chain_input_range(f.stages, i, raw_sample_type(GST_VIDEO_INFO_FORMAT(&f.raw)));
}

std::string check_stage_limits(const CoeffFormat &f) {
  for (std::size_t i = 0; i < f.stages.size(); ++i) {
    const CoeffStage &st = f.stages[i];
    if (st.kind == StageKind::Predictor) {
      const cf::SampleType in = i == 0 ? raw_sample_type(GST_VIDEO_INFO_FORMAT(&f.raw)) : f.sample_type;
      const std::string bad = cf::predictor_check(st.predictor, in, f.sample_type);
      if (!bad.empty()) return field_message("transform", "stage '" + st.name + "' does not suit the frame: " + bad);
      continue;
    }
    if (st.kind == StageKind::Dct) {
      const cf::SampleType in = i == 0 ? raw_sample_type(GST_VIDEO_INFO_FORMAT(&f.raw)) : f.sample_type;
      const std::string bad = cf::dct_check(st.dct, in, f.sample_type);
      if (!bad.empty()) return field_message("transform", "stage 'dct' does not suit the frame: " + bad);
      continue;
    }
    if (st.kind == StageKind::Cdf97) {
      cf::FrameView shape;
      shape.n_components = f.planes.n;
      for (int c = 0; c < f.planes.n; ++c)
        shape.components[c] = cf::Component{0, 0, 1, f.planes.width[c], f.planes.height[c]};
      const std::string bad = cf::cdf97_check(st.cdf97, shape);
      if (!bad.empty()) return field_message("cdf97-levels", "does not suit the frame: " + bad);
      continue;
    }
    if (st.kind != StageKind::Wavelet) continue;
    cf::FrameView shape;
    // Stage 0 reads the raw samples; later stages the stream's planes.
    shape.type = i == 0 ? raw_sample_type(GST_VIDEO_INFO_FORMAT(&f.raw)) : f.sample_type;
    shape.n_components = f.planes.n;
    for (int c = 0; c < f.planes.n; ++c)
      shape.components[c] = cf::Component{0, 0, 1, f.planes.width[c], f.planes.height[c]};
    cf::WaveletParams p = st.wavelet;
    p.input = stage_input_range(f, i);
    const std::string bad = cf::wavelet_check(p, shape, f.sample_type);
    if (!bad.empty()) return field_message(stage_field(st.name, "levels").c_str(), "does not suit the frame: " + bad);
  }
  return "";
}

bool parse_coeff_caps(const GstCaps *caps, CoeffFormat *out, std::string *why) {
  if (!caps || gst_caps_get_size(caps) != 1)
    return refuse(why, std::string("coefficient caps must hold exactly one structure"));
  if (!gst_caps_is_fixed(caps)) return refuse(why, "coefficient caps are not fixed");
  return parse_coeff_structure(gst_caps_get_structure(caps, 0), out, why);
}

}  // namespace cfgst
