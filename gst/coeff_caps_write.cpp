// Core parameters -> video/x-coefficients caps; see coeff_caps_write.h.
#include "coeff_caps_write.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "caps_fields.h"
#include "raw_formats.h"

namespace cfgst {

namespace {

// The parameter fields of one stage, "<stage>-<param>".
void write_stage_params(GstStructure *s, const CoeffStage &st) {
  switch (st.kind) {
    case StageKind::Wavelet:
      gst_structure_set(s, stage_field(st.name, "levels").c_str(), G_TYPE_INT, st.wavelet.levels,
                        stage_field(st.name, "layout").c_str(), G_TYPE_STRING, cf::layout_name(st.wavelet.layout),
                        nullptr);
      break;
    case StageKind::Predictor:
      gst_structure_set(s, stage_field(st.name, "slice-height").c_str(), G_TYPE_INT, st.predictor.slice_height,
                        nullptr);
      if (st.predictor.predictor == cf::Predictor::Ged)
        gst_structure_set(s, stage_field(st.name, "threshold").c_str(), G_TYPE_INT, st.predictor.threshold, nullptr);
      break;
    case StageKind::Dct:
      gst_structure_set(s, stage_field(st.name, "quality").c_str(), G_TYPE_INT, st.dct.quality, nullptr);
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

// Appends `s` to `out` in CUDA memory or system memory.
GstCaps *merge(GstCaps *out, GstStructure *s, bool cuda) {
  return gst_caps_merge_structure_full(out, s, cuda ? gst_caps_features_new(kCudaMemoryFeature, nullptr) : nullptr);
}

// Sets c's sample-format to that of `stages` (stream_sample_type) when every
// format c allows gives the same one, and drops the field when they differ
// (the pad templates narrow it then). A chain that gains or loses a last
// cdf97 stage changes its sample format (cudarct: S16LE, cudarct !
// cudacdf97: F32LE).
void set_stream_sample_format(GstStructure *c, const std::vector<CoeffStage> &stages) {
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

}  // namespace

GstCaps *build_coeff_caps(const GstVideoInfo &raw, const std::vector<CoeffStage> &stages) {
  GstCaps *raw_caps = gst_video_info_to_caps(const_cast<GstVideoInfo *>(&raw));
  GstCaps *caps = coeff_caps_from_raw_caps(raw_caps, &stages);
  gst_caps_unref(raw_caps);
  return caps;
}

GstCaps *coeff_caps_from_raw_caps(const GstCaps *raw, const std::vector<CoeffStage> *stages) {
  GstCaps *out = gst_caps_new_empty();
  const std::string chain = stages ? chain_text(*stages) : "";

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
    if (std::find(sample_formats.begin(), sample_formats.end(), "F32LE") != sample_formats.end())
      sample_formats.clear();
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
    if (!check_chain_names(names, GST_VIDEO_FORMAT_UNKNOWN).empty()) continue;
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
        c,
        [](GQuark field, GValue *, gpointer p) -> gboolean {
          return !g_str_has_prefix(g_quark_to_string(field), static_cast<const std::string *>(p)->c_str());
        },
        const_cast<std::string *>(&prefix));
    out = merge(out, c, cuda);
  }
  return out;
}

}  // namespace cfgst
