// Fuzz target: random property combinations per element. Writable
// properties get values from the fuzz bytes (inside their GParamSpec range:
// GObject itself refuses values outside it), a small frame is pushed, more
// properties change while playing and a second frame follows. Oracle per
// frame: a clean error or an output of the size its caps give.
// backend=cuda is set only while playing (at start it would fail the
// harness's own state change, an assertion in GstHarness, not ours), and
// threads stays at most 4 (the fuzzer shares the machine).
#include <cmath>

#include "fuzz_util.hpp"

namespace {

// A value for `spec` from the fuzz bytes: min, max, default or anything in range.
void fuzz_value(GParamSpec *spec, cffuzz::Input &in, GValue *v) {
  g_value_init(v, spec->value_type);
  const std::uint8_t pick = in.u8() % 4;  // 0 min, 1 max, 2 default, 3 random
  if (G_IS_PARAM_SPEC_ENUM(spec)) {
    GEnumClass *k = G_PARAM_SPEC_ENUM(spec)->enum_class;
    g_value_set_enum(v, k->values[in.below(k->n_values)].value);
  } else if (G_IS_PARAM_SPEC_BOOLEAN(spec)) {
    g_value_set_boolean(v, in.u8() & 1);
  } else if (G_IS_PARAM_SPEC_INT(spec)) {
    auto *s = G_PARAM_SPEC_INT(spec);
    const gint64 span = gint64(s->maximum) - s->minimum + 1;
    const gint r = pick == 0   ? s->minimum
                   : pick == 1 ? s->maximum
                   : pick == 2 ? s->default_value
                               : gint(s->minimum + gint64(in.u32()) % span);
    g_value_set_int(v, r);
  } else if (G_IS_PARAM_SPEC_UINT(spec)) {
    auto *s = G_PARAM_SPEC_UINT(spec);
    const guint64 span = guint64(s->maximum) - s->minimum + 1;
    g_value_set_uint(v, pick == 0   ? s->minimum
                        : pick == 1 ? s->maximum
                        : pick == 2 ? s->default_value
                                    : guint(s->minimum + in.u32() % span));
  } else if (G_IS_PARAM_SPEC_INT64(spec)) {
    auto *s = G_PARAM_SPEC_INT64(spec);
    g_value_set_int64(v, pick == 0 ? s->minimum : pick == 1 ? s->maximum : s->default_value);
  } else if (G_IS_PARAM_SPEC_UINT64(spec)) {
    auto *s = G_PARAM_SPEC_UINT64(spec);
    g_value_set_uint64(v, pick == 0 ? s->minimum : pick == 1 ? s->maximum : pick == 2 ? s->default_value : in.u32());
  } else if (G_IS_PARAM_SPEC_DOUBLE(spec)) {
    auto *s = G_PARAM_SPEC_DOUBLE(spec);
    double r = s->minimum + (s->maximum - s->minimum) * (in.u16() / 65535.0);
    if (pick == 0) r = s->minimum;
    if (pick == 1) r = s->maximum;
    if (pick == 2) r = s->default_value;
    if (in.u8() < 64) r = std::min(s->maximum, std::max(s->minimum, double(in.u8())));  // small whole numbers
    g_value_set_double(v, r);
  } else {
    g_value_unset(v);
  }
}

// Sets up to n fuzzed properties of `e` that our elements declare.
void set_properties(GstElement *e, cffuzz::Input &in, bool playing, std::string *log) {
  guint n = 0;
  GParamSpec **specs = g_object_class_list_properties(G_OBJECT_GET_CLASS(e), &n);
  std::vector<GParamSpec *> ours;
  for (guint i = 0; i < n; ++i) {
    GParamSpec *s = specs[i];
    const bool writable = (s->flags & G_PARAM_WRITABLE) && !(s->flags & G_PARAM_CONSTRUCT_ONLY);
    const GType owner = s->owner_type;
    if (writable && owner != GST_TYPE_OBJECT && owner != GST_TYPE_BASE_TRANSFORM) ours.push_back(s);
  }
  g_free(specs);
  const int count = int(in.below(6));
  for (int k = 0; k < count && !ours.empty(); ++k) {
    GParamSpec *s = ours[in.below(std::uint32_t(ours.size()))];
    GValue v = G_VALUE_INIT;
    fuzz_value(s, in, &v);
    if (!G_IS_VALUE(&v)) continue;
    const std::string name = g_param_spec_get_name(s);
    if (name == "threads") g_value_set_uint(&v, g_value_get_uint(&v) % 5);
    if (name == "backend" && !playing && g_value_get_enum(&v) == 1 /* cuda */) g_value_set_enum(&v, 3 /* cpu */);
    gchar *text = g_strdup_value_contents(&v);
    *log += " " + name + "=" + text;
    g_free(text);
    g_object_set_property(G_OBJECT(e), name.c_str(), &v);
    g_value_unset(&v);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  cffuzz::init();
  cffuzz::Input in(data, size);
  // The raw-input elements on raw video; cudainverse and cudaview behind a
  // forward element (the target is named "t" in the bin).
  const auto &raw_elements = cffuzz::raw_input_elements();
  const cffuzz::FrameChoice c = cffuzz::choose_frame(in, 2, 24);
  const std::uint32_t which = c.element;
  const cfgt::FormatSpec &fmt = *c.format;
  const int w = c.width, h = c.height;
  std::string description = which < raw_elements.size()    ? std::string(raw_elements[which]) + " name=t backend=cpu"
                            : which == raw_elements.size() ? "cudacdf53 backend=cpu ! cudainverse name=t backend=cpu"
                                                           : "cudahaar backend=cpu ! cudaview name=t backend=cpu";
  GstElement *bin = cfgt::make_bin(description.c_str());
  GstElement *target = gst_bin_get_by_name(GST_BIN(bin), "t");
  std::string log = description + ", " + fmt.name + " " + std::to_string(w) + "x" + std::to_string(h) + ":";
  set_properties(target, in, false, &log);
  {
    cffuzz::Checked hx(bin);
    const std::string caps = cfgt::raw_caps(fmt.name, w, h);
    if (!hx.set_caps(caps)) {
      if (hx.errors().empty()) cffuzz::fail(log + ": caps refused silently");
    } else {
      const GstVideoInfo info = cfgt::video_info(fmt.name, w, h);
      for (int frame = 0; frame < 2; ++frame) {
        GstBuffer *out = hx.push(cfgt::random_frame(info, in.u8()), log);
        if (!out) break;
        gst_buffer_unref(out);
        log += " | then";
        set_properties(target, in, true, &log);
      }
    }
  }
  gst_object_unref(target);
  return 0;
}
