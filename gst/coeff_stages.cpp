// The stage table and the chain rules; see coeff_stages.h.
#include "coeff_stages.h"

#include "caps_fields.h"
#include "raw_formats.h"

namespace cfgst {

namespace {

// Where a stage may stand in a chain.
enum class Place { Any, First, Last };

// How each stage name is spelled, its kind and variant, and its place. A
// new stage kind adds a row here and a case in stage_output_range().
struct StageDef {
  const char *name;
  StageKind kind;
  Place place;
  cf::Wavelet wavelet;         // kind == Wavelet
  cf::ColourTransform colour;  // kind == Colour
  cf::Predictor predictor;     // kind == Predictor
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

// The values a stage's output holds for inputs in `in` of raw type `raw`;
// empty when they do not stay in a useful range (a wavelet's).
cf::ValueRange stage_output_range(const CoeffStage &st, cf::ValueRange in, cf::SampleType raw) {
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

CoeffStage colour_stage(cf::ColourTransform t) {
  CoeffStage st = stage_of(cf::colour_name(t), StageKind::Colour);
  st.colour = t;
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

bool stage_named(const std::string &name, CoeffStage *out) {
  const StageDef *def = find_stage(name);
  if (!def) return false;
  CoeffStage st = stage_of(def->name, def->kind);
  if (def->kind == StageKind::Wavelet) st.wavelet.wavelet = def->wavelet;
  if (def->kind == StageKind::Colour) st.colour = def->colour;
  if (def->kind == StageKind::Predictor) st.predictor.predictor = def->predictor;
  *out = st;
  return true;
}

cf::SampleType stream_sample_type(GstVideoFormat format, const std::vector<CoeffStage> &stages) {
  if (!stages.empty() && stages.back().kind == StageKind::Cdf97)
    return cf::cdf97_coefficient_type(stages.back().cdf97, raw_sample_type(format));
  return coeff_sample_type(format);
}

std::string check_chain_names(const std::vector<std::string> &names, GstVideoFormat format) {
  const std::string chain = "\"" + chain_text(names) + "\"";
  std::vector<const StageDef *> defs;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const StageDef *def = find_stage(names[i]);
    if (!def)
      return field_message("transform",
                           "names unknown stage '" + names[i] + "' in " + chain + " (known: " + known_stages() + ")");
    for (const StageDef *prev : defs)
      if (prev == def) return field_message("transform", "names stage '" + names[i] + "' twice in " + chain);
    if (def->place == Place::First && i > 0)
      return field_message(
          "transform", chain + ": the colour stage '" + names[i] + "' must be the first stage (it transforms raw RGB)");
    if (def->place == Place::Last && i + 1 < names.size())
      return field_message("transform",
                           chain + ": the " +
                               (def->kind == StageKind::Wavelet || def->kind == StageKind::Cdf97 ? "wavelet"
                                : def->kind == StageKind::Dct                                    ? "transform"
                                                                                                 : "predictor") +
                               " stage '" + names[i] + "' must be the last stage");
    if (def->kind == StageKind::Colour && format != GST_VIDEO_FORMAT_UNKNOWN && !rgb_format(format))
      return field_message("format", std::string("is ") + gst_video_format_to_string(format) +
                                         ", but the colour stage '" + names[i] +
                                         "' needs an RGB format (" CF_RGB_FORMATS ")");
    defs.push_back(def);
  }
  return "";
}

std::string check_chain(const std::vector<CoeffStage> &stages, GstVideoFormat format) {
  std::vector<std::string> names;
  for (const CoeffStage &st : stages) names.push_back(st.name);
  return check_chain_names(names, format);
}

std::string chain_text(const std::vector<std::string> &names) {
  std::string chain;
  for (const std::string &n : names) chain += (chain.empty() ? "" : ",") + n;
  return chain;
}

std::string chain_text(const std::vector<CoeffStage> &stages) {
  std::string chain;
  for (const CoeffStage &st : stages) chain += (chain.empty() ? "" : ",") + st.name;
  return chain;
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

std::string stage_field(const std::string &stage, const char *param) { return stage + "-" + param; }

cf::ValueRange chain_input_range(const std::vector<CoeffStage> &stages, std::size_t i, cf::SampleType raw) {
  cf::ValueRange r = cf::type_range(raw);
  for (std::size_t k = 0; k < i && k < stages.size(); ++k) r = stage_output_range(stages[k], r, raw);
  return r;
}

}  // namespace cfgst
