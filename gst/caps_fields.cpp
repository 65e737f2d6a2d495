// Strict caps field readers; see caps_fields.h.
#include "caps_fields.h"

namespace cfgst {

bool refuse(std::string *why, const std::string &msg) {
  if (why) *why = msg;
  return false;
}

std::string field_message(const char *field, const std::string &what) {
  return std::string("caps field '") + field + "' " + what;
}

// Strings, lists and arrays are written here and only plain values go to
// gst_value_serialize: caps strings can hold values it refuses with a GLib
// critical (a list holding a NULL string, found by
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

bool read_string(const GstStructure *s, const char *field, bool required, std::string *out, bool *present,
                 std::string *why) {
  const GValue *v = gst_structure_get_value(s, field);
  if (present) *present = v != nullptr;
  if (!v) return required ? refuse(why, field_message(field, "is missing")) : true;
  if (!G_VALUE_HOLDS_STRING(v) || !g_value_get_string(v))
    return refuse(why, field_message(field, "must be a fixed string, got " + describe_value(v)));
  *out = g_value_get_string(v);
  return true;
}

bool read_int(const GstStructure *s, const char *field, int lo, int hi, int *out, std::string *why) {
  const GValue *v = gst_structure_get_value(s, field);
  if (!v) return refuse(why, field_message(field, "is missing"));
  if (!G_VALUE_HOLDS_INT(v)) return refuse(why, field_message(field, "must be a fixed int, got " + describe_value(v)));
  const int x = g_value_get_int(v);
  if (x < lo || x > hi)
    return refuse(why, field_message(field, "is " + std::to_string(x) + ", must be " + std::to_string(lo) + ".." +
                                                std::to_string(hi)));
  *out = x;
  return true;
}

bool check_fraction(const GstStructure *s, const char *field, bool positive, std::string *why) {
  const GValue *v = gst_structure_get_value(s, field);
  if (!v) return true;
  if (!GST_VALUE_HOLDS_FRACTION(v))
    return refuse(why, field_message(field, "must be a fixed fraction, got " + describe_value(v)));
  const int n = gst_value_get_fraction_numerator(v), d = gst_value_get_fraction_denominator(v);
  if (n < 0 || d <= 0 || (positive && n == 0))
    return refuse(why, field_message(field, "is " + describe_value(v) + ", must be " +
                                                (positive ? "positive" : "zero or positive")));
  return true;
}

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

void copy_shared_fields(const GstStructure *from, GstStructure *to) {
  static const char *const kSharedFields[] = {"width",       "height",      "framerate",     "pixel-aspect-ratio",
                                              "colorimetry", "chroma-site", "interlace-mode"};
  for (const char *f : kSharedFields)
    if (const GValue *v = gst_structure_get_value(from, f)) gst_structure_set_value(to, f, v);
}

}  // namespace cfgst
