// video/x-coefficients caps <-> core types. See coeff_caps.h for the format.
#include "coeff_caps.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace cfgst {

// ---------------------------------------------------------------------------
// Raw formats and sample types

const std::vector<GstVideoFormat> &supported_raw_formats() {
  static const std::vector<GstVideoFormat> formats = {
      GST_VIDEO_FORMAT_GRAY8, GST_VIDEO_FORMAT_GRAY16_LE, GST_VIDEO_FORMAT_RGB,
      GST_VIDEO_FORMAT_BGR,   GST_VIDEO_FORMAT_RGBA,      GST_VIDEO_FORMAT_BGRA,
      GST_VIDEO_FORMAT_RGBx,  GST_VIDEO_FORMAT_BGRx,      GST_VIDEO_FORMAT_I420,
      GST_VIDEO_FORMAT_NV12,  GST_VIDEO_FORMAT_Y444};
  return formats;
}

bool raw_format_supported(GstVideoFormat f) {
  for (GstVideoFormat s : supported_raw_formats())
    if (s == f) return true;
  return false;
}

bool rgb_format(GstVideoFormat f) {
  switch (f) {
    case GST_VIDEO_FORMAT_RGB: case GST_VIDEO_FORMAT_BGR: case GST_VIDEO_FORMAT_RGBA: case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_RGBx: case GST_VIDEO_FORMAT_BGRx:
      return true;
    default:
      return false;
  }
}

bool cuda_raw_format_supported(GstVideoFormat f) {
  switch (f) {
    case GST_VIDEO_FORMAT_RGB: case GST_VIDEO_FORMAT_BGR: case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_BGRA: case GST_VIDEO_FORMAT_I420: case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_Y444:
      return true;
    default:
      return false;
  }
}

bool caps_memory(const GstCaps *caps, guint i, bool *cuda) {
  GstCapsFeatures *f = gst_caps_get_features(caps, i);
  *cuda = false;
  if (!f || gst_caps_features_is_any(f) || gst_caps_features_is_equal(f, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    return true;
#if CF_GST_CUDA
  if (gst_caps_features_get_size(f) == 1 && gst_caps_features_contains(f, kCudaMemoryFeature)) {
    *cuda = true;
    return true;
  }
#endif
  return false;
}

std::string supported_formats_text() {
  std::string s;
  for (GstVideoFormat f : supported_raw_formats()) {
    if (!s.empty()) s += ", ";
    s += gst_video_format_to_string(f);
  }
  return s;
}

cf::SampleType raw_sample_type(GstVideoFormat f) {
  const GstVideoFormatInfo *finfo = gst_video_format_get_info(f);
  return GST_VIDEO_FORMAT_INFO_DEPTH(finfo, 0) > 8 ? cf::SampleType::U16 : cf::SampleType::U8;
}

cf::SampleType coeff_sample_type(GstVideoFormat f) {
  return cf::coefficient_type_for(raw_sample_type(f));
}

const char *sample_format_name(cf::SampleType t) {
  return t == cf::SampleType::S32 ? "S32LE" : t == cf::SampleType::F32 ? "F32LE" : "S16LE";
}

cf::PlanarLayout planar_layout(const GstVideoInfo &raw) {
  cf::PlanarLayout l;
  l.n = GST_VIDEO_INFO_N_COMPONENTS(&raw);
  for (int c = 0; c < l.n; ++c) {
    l.width[c] = GST_VIDEO_INFO_COMP_WIDTH(&raw, c);
    l.height[c] = GST_VIDEO_INFO_COMP_HEIGHT(&raw, c);
  }
  return l;
}

// ---------------------------------------------------------------------------
// The stage table: how each stage name is spelled, where it may stand in a
// chain, and which parameter fields it carries. A new stage kind adds a row,
// a case in the functions below and one in output_range().

namespace {

// Where a stage may stand in a chain.
enum class Place { Any, First, Last };

struct StageDef {
  const char *name;
  StageKind kind;
  Place place;
  cf::Wavelet wavelet;          // kind == Wavelet
  cf::ColourTransform colour;   // kind == Colour
  cf::Predictor predictor;      // kind == Predictor
};

const StageDef kStages[] = {
    {"haar", StageKind::Wavelet, Place::Last, cf::Wavelet::Haar, {}, {}},
    {"cdf53", StageKind::Wavelet, Place::Last, cf::Wavelet::Cdf53, {}, {}},
    {"rct", StageKind::Colour, Place::First, {}, cf::ColourTransform::Rct, {}},
    {"ycocg", StageKind::Colour, Place::First, {}, cf::ColourTransform::YCoCg, {}},
    {"med", StageKind::Predictor, Place::Last, {}, {}, cf::Predictor::Med},
    {"gap", StageKind::Predictor, Place::Last, {}, {}, cf::Predictor::Gap},
    {"ged", StageKind::Predictor, Place::Last, {}, {}, cf::Predictor::Ged},
    {"dct", StageKind::Dct, Place::Last, {}, {}, {}},
    {"cdf97", StageKind::Cdf97, Place::Last, {}, {}, {}},
};

const StageDef *find_stage(const std::string &name) {
  for (const StageDef &d : kStages)
    if (name == d.name) return &d;
  return nullptr;
}

std::string known_stages() {
  std::string s;
  for (const StageDef &d : kStages) s += std::string(s.empty() ? "" : ", ") + d.name;
  return s;
}

std::string field_name(const std::string &stage, const char *param) { return stage + "-" + param; }

void write_stage_params(GstStructure *s, const CoeffStage &st) {
  switch (st.kind) {
    case StageKind::Wavelet:
      gst_structure_set(s, field_name(st.name, "levels").c_str(), G_TYPE_INT, st.wavelet.levels,
                        field_name(st.name, "layout").c_str(), G_TYPE_STRING,
                        cf::layout_name(st.wavelet.layout), nullptr);
      break;
    case StageKind::Predictor:
      gst_structure_set(s, field_name(st.name, "slice-height").c_str(), G_TYPE_INT, st.predictor.slice_height,
                        nullptr);
      if (st.predictor.predictor == cf::Predictor::Ged)
        gst_structure_set(s, field_name(st.name, "threshold").c_str(), G_TYPE_INT, st.predictor.threshold, nullptr);
      break;
    case StageKind::Dct:
      gst_structure_set(s, field_name(st.name, "quality").c_str(), G_TYPE_INT, st.dct.quality, nullptr);
      break;
    case StageKind::Colour:  // no parameters
      break;
    case StageKind::Cdf97:
      gst_structure_set(s, "cdf97-levels", G_TYPE_INT, st.cdf97.levels, "cdf97-layout", G_TYPE_STRING,
                        cf::layout_name(st.cdf97.layout), "cdf97-quant-step", G_TYPE_DOUBLE,
                        double(st.cdf97.quant_step), "cdf97-threshold", G_TYPE_DOUBLE, double(st.cdf97.threshold),
                        "cdf97-threshold-mode", G_TYPE_STRING, cf::threshold_mode_name(st.cdf97.threshold_mode),
                        nullptr);
      break;
  }
}

// The values a stage's output holds for inputs in `in` of raw type `raw`;
// empty when they do not stay in a useful range (a wavelet's).
cf::ValueRange output_range(const CoeffStage &st, cf::ValueRange in, cf::SampleType raw) {
  switch (st.kind) {
    case StageKind::Colour: return cf::colour_output_range(st.colour, raw);
    case StageKind::Wavelet:
    case StageKind::Predictor:
    case StageKind::Dct:
    case StageKind::Cdf97: break;  // last stages: nothing reads their output
  }
  (void)in;
  return {};
}

std::string chain_text(const std::vector<std::string> &names) {
  std::string chain;
  for (const std::string &n : names) chain += (chain.empty() ? "" : ",") + n;
  return chain;
}

// ---------------------------------------------------------------------------
// Strict field readers: each names the field in its message.

bool fail(std::string *why, const std::string &msg) {
  if (why) *why = msg;
  return false;
}

// "(type)value" for messages. Strings, lists and arrays are written here and
// only plain values go to gst_value_serialize: caps strings can hold values
// it refuses with a GLib critical (a list holding a NULL string, found by
// tests/fuzz/fuzz_coeff_caps), and other types are named only.
std::string describe_value(const GValue *v) {
  const GType t = G_VALUE_TYPE(v);
  if (t == G_TYPE_STRING) {
    const char *text = g_value_get_string(v);
    return std::string("(string)") + (text ? text : "NULL");
  }
  if (GST_VALUE_HOLDS_LIST(v) || GST_VALUE_HOLDS_ARRAY(v)) {
    const bool list = GST_VALUE_HOLDS_LIST(v);
    const guint n = list ? gst_value_list_get_size(v) : gst_value_array_get_size(v);
    std::string s = list ? "{ " : "< ";
    for (guint i = 0; i < n; ++i)
      s += (i ? ", " : "") + describe_value(list ? gst_value_list_get_value(v, i) : gst_value_array_get_value(v, i));
    return s + (list ? " }" : " >");
  }
  const bool plain = t == G_TYPE_INT || t == G_TYPE_UINT || t == G_TYPE_INT64 || t == G_TYPE_UINT64 ||
                     t == G_TYPE_DOUBLE || t == G_TYPE_FLOAT || t == G_TYPE_BOOLEAN || t == GST_TYPE_FRACTION ||
                     t == GST_TYPE_INT_RANGE || t == GST_TYPE_INT64_RANGE || t == GST_TYPE_DOUBLE_RANGE ||
                     t == GST_TYPE_FRACTION_RANGE;
  gchar *text = plain ? gst_value_serialize(v) : nullptr;
  const char *type = t == G_TYPE_INT ? "int" : g_type_name(t);
  std::string s = std::string("(") + type + ")" + (text ? text : "");
  g_free(text);
  return s;
}

std::string field_msg(const char *field, const std::string &what) {
  return std::string("caps field '") + field + "' " + what;
}

// Returns false with a message when the field is missing (and required),
// unfixed or not a string.
bool read_string(const GstStructure *s, const char *field, bool required, std::string *out,
                 bool *present, std::string *why) {
  const GValue *v = gst_structure_get_value(s, field);
  if (present) *present = v != nullptr;
  if (!v) return required ? fail(why, field_msg(field, "is missing")) : true;
  if (!G_VALUE_HOLDS_STRING(v) || !g_value_get_string(v))
    return fail(why, field_msg(field, "must be a fixed string, got " + describe_value(v)));
  *out = g_value_get_string(v);
  return true;
}

bool read_int(const GstStructure *s, const char *field, int lo, int hi, int *out, std::string *why) {
  const GValue *v = gst_structure_get_value(s, field);
  if (!v) return fail(why, field_msg(field, "is missing"));
  if (!G_VALUE_HOLDS_INT(v))
    return fail(why, field_msg(field, "must be a fixed int, got " + describe_value(v)));
  const int x = g_value_get_int(v);
  if (x < lo || x > hi)
    return fail(why, field_msg(field, "is " + std::to_string(x) + ", must be " + std::to_string(lo) +
                                          ".." + std::to_string(hi)));
  *out = x;
  return true;
}

bool read_double(const GstStructure *s, const char *field, double *out, std::string *why) {
  const GValue *v = gst_structure_get_value(s, field);
  if (!v) return fail(why, field_msg(field, "is missing"));
  if (!G_VALUE_HOLDS_DOUBLE(v)) return fail(why, field_msg(field, "must be a fixed double, got " + describe_value(v)));
  *out = g_value_get_double(v);
  if (!std::isfinite(*out) || *out < 0 || *out > 65535)
    return fail(why, field_msg(field, "is " + std::to_string(*out) + ", must be 0..65535"));
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
    return fail(why, field_msg(field.c_str(), "is '" + layout + "', must be mallat or standard"));
  return true;
}

bool check_fraction(const GstStructure *s, const char *field, bool positive, std::string *why) {
  const GValue *v = gst_structure_get_value(s, field);
  if (!v) return true;
  if (!GST_VALUE_HOLDS_FRACTION(v))
    return fail(why, field_msg(field, "must be a fixed fraction, got " + describe_value(v)));
  const int n = gst_value_get_fraction_numerator(v), d = gst_value_get_fraction_denominator(v);
  if (n < 0 || d <= 0 || (positive && n == 0))
    return fail(why, field_msg(field, "is " + describe_value(v) + ", must be " +
                                          (positive ? "positive" : "zero or positive")));
  return true;
}

std::vector<std::string> split_chain(const std::string &chain) {
  std::vector<std::string> parts;
  std::string cur;
  for (char ch : chain) {
    if (ch == ',') {
      parts.push_back(cur);
      cur.clear();
    } else if (ch != ' ') {
      cur += ch;
    }
  }
  parts.push_back(cur);
  return parts;
}

bool parse_stage(const GstStructure *s, const StageDef &def, CoeffStage *st, std::string *why) {
  st->name = def.name;
  st->kind = def.kind;
  switch (def.kind) {
    case StageKind::Wavelet: {
      st->wavelet.wavelet = def.wavelet;
      const std::string lf = field_name(def.name, "levels"), yf = field_name(def.name, "layout");
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
        return fail(why, field_msg("cdf97-threshold-mode", "is '" + mode + "', must be hard or soft"));
      st->cdf97.quant_step = float(step);
      st->cdf97.threshold = float(threshold);
      st->cdf97.threshold_mode = mode == "soft" ? cf::ThresholdMode::Soft : cf::ThresholdMode::Hard;
      return true;
    }
    case StageKind::Colour:
      st->colour = def.colour;
      return true;
    case StageKind::Predictor: {
      st->predictor.predictor = def.predictor;
      const std::string hf = field_name(def.name, "slice-height");
      if (!read_int(s, hf.c_str(), 0, G_MAXINT16, &st->predictor.slice_height, why)) return false;
      if (def.predictor == cf::Predictor::Ged) {
        const std::string tf = field_name(def.name, "threshold");
        if (!read_int(s, tf.c_str(), 0, cf::kMaxGedThreshold, &st->predictor.threshold, why)) return false;
      }
      return true;
    }
    case StageKind::Dct:
      return read_int(s, field_name(def.name, "quality").c_str(), 0, cf::kMaxDctQuality, &st->dct.quality, why);
  }
  return fail(why, "internal: stage kind without a parser");
}

// The chain rules on stage names (see check_chain).
std::string check_names(const std::vector<std::string> &names, GstVideoFormat format) {
  const std::string chain = "\"" + chain_text(names) + "\"";
  std::vector<const StageDef *> defs;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const StageDef *def = find_stage(names[i]);
    if (!def)
      return field_msg("transform", "names unknown stage '" + names[i] + "' in " + chain + " (known: " +
                                        known_stages() + ")");
    for (const StageDef *prev : defs)
      if (prev == def) return field_msg("transform", "names stage '" + names[i] + "' twice in " + chain);
    if (def->place == Place::First && i > 0)
      return field_msg("transform", chain + ": the colour stage '" + names[i] +
                                        "' must be the first stage (it transforms raw RGB)");
    if (def->place == Place::Last && i + 1 < names.size())
      return field_msg("transform", chain + ": the " +
                                        (def->kind == StageKind::Wavelet || def->kind == StageKind::Cdf97 ? "wavelet"
                                         : def->kind == StageKind::Dct                                      ? "transform"
                                                                                                           : "predictor") +
                                        " stage '" + names[i] + "' must be the last stage");
    if (def->kind == StageKind::Colour && format != GST_VIDEO_FORMAT_UNKNOWN && !rgb_format(format))
      return field_msg("format", std::string("is ") + gst_video_format_to_string(format) + ", but the colour stage '" +
                                     names[i] + "' needs an RGB format (" CF_RGB_FORMATS ")");
    defs.push_back(def);
  }
  return "";
}

// Fields the raw video and its coefficient stream share, besides format.
const char *const kSharedFields[] = {"width",       "height",         "framerate",
                                     "pixel-aspect-ratio", "colorimetry", "chroma-site",
                                     "interlace-mode"};

void copy_shared_fields(const GstStructure *from, GstStructure *to) {
  for (const char *f : kSharedFields)
    if (const GValue *v = gst_structure_get_value(from, f)) gst_structure_set_value(to, f, v);
}

// The strings a field allows: one, a list of them, or none when absent.
std::vector<std::string> string_values(const GstStructure *s, const char *field) {
  std::vector<std::string> out;
  const GValue *v = gst_structure_get_value(s, field);
  if (v && G_VALUE_HOLDS_STRING(v) && g_value_get_string(v)) {
    out.push_back(g_value_get_string(v));
  } else if (v && GST_VALUE_HOLDS_LIST(v)) {
    for (guint k = 0; k < gst_value_list_get_size(v); ++k) {
      const GValue *e = gst_value_list_get_value(v, k);
      if (G_VALUE_HOLDS_STRING(e) && g_value_get_string(e)) out.push_back(g_value_get_string(e));
    }
  }
  return out;
}

// Appends `s` to `out` in CUDA memory or system memory.
GstCaps *merge(GstCaps *out, GstStructure *s, bool cuda) {
  return gst_caps_merge_structure_full(out, s, cuda ? gst_caps_features_new(kCudaMemoryFeature, nullptr) : nullptr);
}

}  // namespace

namespace {
CoeffStage stage_of(const char *name, StageKind kind) {
  CoeffStage st;
  st.name = name;
  st.kind = kind;
  return st;
}
}  // namespace

CoeffStage wavelet_stage(const cf::WaveletParams &p) {
  CoeffStage st = stage_of(cf::wavelet_name(p.wavelet), StageKind::Wavelet);
  st.wavelet = p;
  return st;
}

CoeffStage predictor_stage(const cf::PredictorParams &p) {
  CoeffStage st = stage_of(cf::predictor_name(p.predictor), StageKind::Predictor);
  st.predictor = p;
  return st;
}

CoeffStage dct_stage(const cf::DctParams &p) {
  CoeffStage st = stage_of("dct", StageKind::Dct);
  st.dct = p;
  return st;
}

CoeffStage cdf97_stage(const cf::Cdf97Params &p) {
  CoeffStage st = stage_of("cdf97", StageKind::Cdf97);
  st.cdf97 = p;
  return st;
}

cf::SampleType stream_sample_type(GstVideoFormat format, const std::vector<CoeffStage> &stages) {
  if (!stages.empty() && stages.back().kind == StageKind::Cdf97)
    return cf::cdf97_coefficient_type(stages.back().cdf97, raw_sample_type(format));
  return coeff_sample_type(format);
}

CoeffStage colour_stage(cf::ColourTransform t) {
  CoeffStage st = stage_of(cf::colour_name(t), StageKind::Colour);
  st.colour = t;
  return st;
}

std::string check_chain(const std::vector<CoeffStage> &stages, GstVideoFormat format) {
  std::vector<std::string> names;
  for (const CoeffStage &st : stages) names.push_back(st.name);
  return check_names(names, format);
}

const CoeffStage *CoeffFormat::last_wavelet() const {
  for (auto it = stages.rbegin(); it != stages.rend(); ++it)
    if (it->kind == StageKind::Wavelet) return &*it;
  return nullptr;
}

// ---------------------------------------------------------------------------
// Parsing

bool parse_coeff_structure(const GstStructure *s, CoeffFormat *out, std::string *why) {
  if (!gst_structure_has_name(s, kCoeffMediaType))
    return fail(why, std::string("caps are ") + gst_structure_get_name(s) + ", expected " +
                         kCoeffMediaType);
  CoeffFormat f;

  // transform and per-stage parameters
  std::string chain;
  if (!read_string(s, "transform", true, &chain, nullptr, why)) return false;
  // The chain's shape first (known names, no repeats, colour first, wavelet
  // last), then each stage's parameter fields.
  const std::vector<std::string> names = split_chain(chain);
  if (std::string bad = check_names(names, GST_VIDEO_FORMAT_UNKNOWN); !bad.empty()) return fail(why, bad);
  for (const std::string &name : names) {
    CoeffStage st;
    if (!parse_stage(s, *find_stage(name), &st, why)) return false;
    f.stages.push_back(st);
  }

  // the raw video
  std::string format_name;
  if (!read_string(s, "format", true, &format_name, nullptr, why)) return false;
  const GstVideoFormat format = gst_video_format_from_string(format_name.c_str());
  if (format == GST_VIDEO_FORMAT_UNKNOWN || !raw_format_supported(format))
    return fail(why, field_msg("format", "is '" + format_name + "', not one of " + supported_formats_text()));
  if (std::string bad = check_names(names, format); !bad.empty()) return fail(why, bad);
  int width = 0, height = 0;
  if (!read_int(s, "width", 1, G_MAXINT16, &width, why)) return false;
  if (!read_int(s, "height", 1, G_MAXINT16, &height, why)) return false;

  std::string sample_format;
  if (!read_string(s, "sample-format", true, &sample_format, nullptr, why)) return false;
  if (sample_format != "S16LE" && sample_format != "S32LE" && sample_format != "F32LE")
    return fail(why, field_msg("sample-format", "is '" + sample_format + "', must be S16LE, S32LE or F32LE"));
  f.sample_type = stream_sample_type(format, f.stages);
  if (sample_format != sample_format_name(f.sample_type))
    return fail(why, field_msg("sample-format", "is " + sample_format + ", but format " + format_name +
                                                    (f.stages.back().kind == StageKind::Cdf97 ? " and this cdf97-quant-step" : "") +
                                                    " needs " + sample_format_name(f.sample_type)));

  if (!check_fraction(s, "framerate", false, why)) return false;
  if (!check_fraction(s, "pixel-aspect-ratio", true, why)) return false;
  std::string text;
  bool present = false;
  if (!read_string(s, "colorimetry", false, &text, &present, why)) return false;
  GstVideoColorimetry colorimetry;
  if (present && !gst_video_colorimetry_from_string(&colorimetry, text.c_str()))
    return fail(why, field_msg("colorimetry", "is '" + text + "', not a colorimetry"));
  if (!read_string(s, "chroma-site", false, &text, &present, why)) return false;
  if (!read_string(s, "interlace-mode", false, &text, &present, why)) return false;
  if (present && text != "progressive" && text != "interleaved" && text != "mixed")
    return fail(why, field_msg("interlace-mode", "is '" + text +
                                                     "', must be progressive, interleaved or mixed"));

  // Let GStreamer fill GstVideoInfo (strides, defaults) from the raw caps.
  GstStructure *raw = gst_structure_new("video/x-raw", "format", G_TYPE_STRING, format_name.c_str(), nullptr);
  copy_shared_fields(s, raw);
  GstCaps *raw_caps = gst_caps_new_full(raw, nullptr);
  const gboolean ok = gst_video_info_from_caps(&f.raw, raw_caps);
  gst_caps_unref(raw_caps);
  if (!ok)
    return fail(why, "caps fields format, width, height, framerate, pixel-aspect-ratio, colorimetry, "
                     "chroma-site and interlace-mode do not describe a raw video");

  f.planes = planar_layout(f.raw);
  if (f.stages.back().kind == StageKind::Dct)
    for (int c = 0; c < f.planes.n; ++c) {
      f.planes.width[c] = cf::padded_to_blocks(f.planes.width[c]);
      f.planes.height[c] = cf::padded_to_blocks(f.planes.height[c]);
    }
  f.size = cf::planar_size(f.planes, f.sample_type);
  // A predictor after a colour stage gets that stage's values: the range
  // that lets its S16 residuals stay in S16 (cf::residual_type_for), for
  // the forward element and cudainverse alike.
  for (std::size_t i = 1; i < f.stages.size(); ++i)
    if (f.stages[i].kind == StageKind::Predictor) f.stages[i].predictor.input = stage_input_range(f, i);
    else if (f.stages[i].kind == StageKind::Dct) f.stages[i].dct.input = stage_input_range(f, i);
  *out = f;
  return true;
}

cf::ValueRange stage_input_range(const CoeffFormat &f, std::size_t i) {
  const cf::SampleType raw = raw_sample_type(GST_VIDEO_INFO_FORMAT(&f.raw));
  cf::ValueRange r = cf::type_range(raw);
  for (std::size_t k = 0; k < i && k < f.stages.size(); ++k) r = output_range(f.stages[k], r, raw);
  return r;
}

std::string check_stage_limits(const CoeffFormat &f) {
  for (std::size_t i = 0; i < f.stages.size(); ++i) {
    const CoeffStage &st = f.stages[i];
    if (st.kind == StageKind::Predictor) {
      const cf::SampleType in = i == 0 ? raw_sample_type(GST_VIDEO_INFO_FORMAT(&f.raw)) : f.sample_type;
      const std::string bad = cf::predictor_check(st.predictor, in, f.sample_type);
      if (!bad.empty()) return field_msg("transform", "stage '" + st.name + "' does not suit the frame: " + bad);
      continue;
    }
    if (st.kind == StageKind::Dct) {
      const cf::SampleType in = i == 0 ? raw_sample_type(GST_VIDEO_INFO_FORMAT(&f.raw)) : f.sample_type;
      const std::string bad = cf::dct_check(st.dct, in, f.sample_type);
      if (!bad.empty()) return field_msg("transform", "stage 'dct' does not suit the frame: " + bad);
      continue;
    }
    if (st.kind == StageKind::Cdf97) {
      cf::FrameView shape;
      shape.n_components = f.planes.n;
      for (int c = 0; c < f.planes.n; ++c) shape.components[c] = cf::Component{0, 0, 1, f.planes.width[c], f.planes.height[c]};
      const std::string bad = cf::cdf97_check(st.cdf97, shape);
      if (!bad.empty()) return field_msg("cdf97-levels", "does not suit the frame: " + bad);
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
    if (!bad.empty()) return field_msg(field_name(st.name, "levels").c_str(), "does not suit the frame: " + bad);
  }
  return "";
}

bool parse_coeff_caps(const GstCaps *caps, CoeffFormat *out, std::string *why) {
  if (!caps || gst_caps_get_size(caps) != 1)
    return fail(why, std::string("coefficient caps must hold exactly one structure"));
  if (!gst_caps_is_fixed(caps)) return fail(why, "coefficient caps are not fixed");
  return parse_coeff_structure(gst_caps_get_structure(caps, 0), out, why);
}

// ---------------------------------------------------------------------------
// Building

GstCaps *build_coeff_caps(const GstVideoInfo &raw, const std::vector<CoeffStage> &stages) {
  GstCaps *raw_caps = gst_video_info_to_caps(const_cast<GstVideoInfo *>(&raw));
  GstCaps *caps = coeff_caps_from_raw_caps(raw_caps, &stages);
  gst_caps_unref(raw_caps);
  return caps;
}

GstCaps *coeff_caps_from_raw_caps(const GstCaps *raw, const std::vector<CoeffStage> *stages) {
  GstCaps *out = gst_caps_new_empty();
  std::string chain;
  if (stages)
    for (const CoeffStage &st : *stages) chain += (chain.empty() ? "" : ",") + st.name;

  for (guint i = 0; i < gst_caps_get_size(raw); ++i) {
    const GstStructure *s = gst_caps_get_structure(raw, i);
    bool cuda = false;
    if (!gst_structure_has_name(s, "video/x-raw") || !caps_memory(raw, i, &cuda)) continue;

    // The formats this structure allows: one, a list, or (absent) any.
    std::vector<GstVideoFormat> formats;
    const GValue *fv = gst_structure_get_value(s, "format");
    if (!fv) {
      formats = supported_raw_formats();
    } else if (G_VALUE_HOLDS_STRING(fv)) {
      formats.push_back(gst_video_format_from_string(g_value_get_string(fv)));
    } else if (GST_VALUE_HOLDS_LIST(fv)) {
      for (guint k = 0; k < gst_value_list_get_size(fv); ++k) {
        const GValue *e = gst_value_list_get_value(fv, k);
        if (G_VALUE_HOLDS_STRING(e)) formats.push_back(gst_video_format_from_string(g_value_get_string(e)));
      }
    }

    for (GstVideoFormat f : formats) {
      if (!raw_format_supported(f) || (cuda && !cuda_raw_format_supported(f))) continue;
      GstStructure *c = gst_structure_new_empty(kCoeffMediaType);
      if (stages) {
        gst_structure_set(c, "transform", G_TYPE_STRING, chain.c_str(), nullptr);
        for (const CoeffStage &st : *stages) write_stage_params(c, st);
      }
      if (stages) {
        gst_structure_set(c, "sample-format", G_TYPE_STRING, sample_format_name(stream_sample_type(f, *stages)),
                          nullptr);
      } else {
        // Any chain: the format's integer coefficients (also a quantised
        // cdf97 stream's), or an unquantised cdf97 stream's F32LE.
        GValue list = G_VALUE_INIT, item = G_VALUE_INIT;
        gst_value_list_init(&list, 3);
        g_value_init(&item, G_TYPE_STRING);
        const cf::SampleType native = coeff_sample_type(f);
        for (cf::SampleType t : {native, cf::SampleType::F32}) {
          g_value_set_string(&item, sample_format_name(t));
          gst_value_list_append_value(&list, &item);
        }
        gst_structure_set_value(c, "sample-format", &list);
        g_value_unset(&item);
        g_value_unset(&list);
      }
      gst_structure_set(c, "format", G_TYPE_STRING, gst_video_format_to_string(f), nullptr);
      copy_shared_fields(s, c);
      out = merge(out, c, cuda);
    }
  }
  return out;
}

GstCaps *raw_caps_from_coeff_caps(const GstCaps *coeff, const char *last_stage) {
  GstCaps *out = gst_caps_new_empty();
  for (guint i = 0; i < gst_caps_get_size(coeff); ++i) {
    const GstStructure *s = gst_caps_get_structure(coeff, i);
    bool cuda = false;
    if (!gst_structure_has_name(s, kCoeffMediaType) || !caps_memory(coeff, i, &cuda)) continue;
    if (last_stage) {
      if (const GValue *t = gst_structure_get_value(s, "transform")) {
        if (!G_VALUE_HOLDS_STRING(t) || !g_value_get_string(t)) continue;
        const std::vector<std::string> chain = split_chain(g_value_get_string(t));
        if (chain.size() != 1 || chain.back() != last_stage) continue;
      }
    }
    // The formats the structure allows (absent: any), narrowed by the
    // sample formats it allows (S32LE: 16-bit formats, S16LE: 8-bit ones).
    const std::vector<std::string> formats = string_values(s, "format");
    // F32LE (an unquantised cdf97 stream) suits every raw format.
    std::vector<std::string> sample_formats = string_values(s, "sample-format");
    if (std::find(sample_formats.begin(), sample_formats.end(), "F32LE") != sample_formats.end()) sample_formats.clear();
    GValue list = G_VALUE_INIT, item = G_VALUE_INIT;
    gst_value_list_init(&list, 0);
    g_value_init(&item, G_TYPE_STRING);
    std::vector<std::string> candidates = formats;  // keeps the caps' order of preference
    if (candidates.empty())
      for (GstVideoFormat f : supported_raw_formats()) candidates.push_back(gst_video_format_to_string(f));
    for (const std::string &candidate : candidates) {
      const GstVideoFormat f = gst_video_format_from_string(candidate.c_str());
      const char *name = candidate.c_str();
      if (!raw_format_supported(f) || (cuda && !cuda_raw_format_supported(f))) continue;
      if (!sample_formats.empty() && std::find(sample_formats.begin(), sample_formats.end(),
                                               sample_format_name(coeff_sample_type(f))) == sample_formats.end())
        continue;
      g_value_set_string(&item, name);
      gst_value_list_append_value(&list, &item);
    }
    g_value_unset(&item);
    if (gst_value_list_get_size(&list) == 0) {
      g_value_unset(&list);
      continue;
    }
    GstStructure *r = gst_structure_new_empty("video/x-raw");
    if (gst_value_list_get_size(&list) == 1)
      gst_structure_set_value(r, "format", gst_value_list_get_value(&list, 0));
    else
      gst_structure_set_value(r, "format", &list);
    g_value_unset(&list);
    copy_shared_fields(s, r);
    out = merge(out, r, cuda);
  }
  return out;
}

// Sets c's sample-format to that of `stages` (stream_sample_type) when every
// format c allows gives the same one, and drops the field when they differ
// (the pad templates narrow it then). A chain that gains or loses a last
// cdf97 stage changes its sample format (cudarct: S16LE, cudarct !
// cudacdf97: F32LE).
static void set_stream_sample_format(GstStructure *c, const std::vector<CoeffStage> &stages) {
  std::vector<std::string> formats = string_values(c, "format");
  if (formats.empty())
    for (GstVideoFormat f : supported_raw_formats()) formats.push_back(gst_video_format_to_string(f));
  const char *common = nullptr;
  for (const std::string &name : formats) {
    const char *t = sample_format_name(stream_sample_type(gst_video_format_from_string(name.c_str()), stages));
    if (common && std::strcmp(common, t) != 0) {
      gst_structure_remove_field(c, "sample-format");
      return;
    }
    common = t;
  }
  if (common) gst_structure_set(c, "sample-format", G_TYPE_STRING, common, nullptr);
}

GstCaps *append_stage_caps(const GstCaps *coeff, const CoeffStage &stage) {
  GstCaps *out = gst_caps_new_empty();
  for (guint i = 0; i < gst_caps_get_size(coeff); ++i) {
    const GstStructure *s = gst_caps_get_structure(coeff, i);
    bool cuda = false;
    if (!gst_structure_has_name(s, kCoeffMediaType) || !caps_memory(coeff, i, &cuda)) continue;
    const char *chain = gst_structure_get_string(s, "transform");  // only fixed chains can be continued
    if (!chain) continue;
    std::vector<std::string> names = split_chain(chain);
    names.push_back(stage.name);
    if (!check_names(names, GST_VIDEO_FORMAT_UNKNOWN).empty()) continue;
    GstStructure *c = gst_structure_copy(s);
    gst_structure_set(c, "transform", G_TYPE_STRING, chain_text(names).c_str(), nullptr);
    write_stage_params(c, stage);
    if (stage.kind == StageKind::Cdf97) set_stream_sample_format(c, {stage});
    out = merge(out, c, cuda);
  }
  return out;
}

GstCaps *drop_stage_caps(const GstCaps *coeff, const char *stage) {
  GstCaps *out = gst_caps_new_empty();
  const std::string prefix = std::string(stage) + "-";
  for (guint i = 0; i < gst_caps_get_size(coeff); ++i) {
    const GstStructure *s = gst_caps_get_structure(coeff, i);
    bool cuda = false;
    if (!gst_structure_has_name(s, kCoeffMediaType) || !caps_memory(coeff, i, &cuda)) continue;
    GstStructure *c = gst_structure_copy(s);
    if (const GValue *t = gst_structure_get_value(s, "transform")) {
      if (!G_VALUE_HOLDS_STRING(t) || !g_value_get_string(t)) {
        gst_structure_free(c);
        continue;
      }
      std::vector<std::string> names = split_chain(g_value_get_string(t));
      if (names.size() < 2 || names.back() != stage) {
        gst_structure_free(c);
        continue;
      }
      names.pop_back();
      gst_structure_set(c, "transform", G_TYPE_STRING, chain_text(names).c_str(), nullptr);
    }
    if (std::strcmp(stage, "cdf97") == 0) set_stream_sample_format(c, {});
    gst_structure_filter_and_map_in_place(
        c, [](GQuark field, GValue *, gpointer p) -> gboolean {
          return !g_str_has_prefix(g_quark_to_string(field), static_cast<const std::string *>(p)->c_str());
        },
        const_cast<std::string *>(&prefix));
    out = merge(out, c, cuda);
  }
  return out;
}

}  // namespace cfgst
