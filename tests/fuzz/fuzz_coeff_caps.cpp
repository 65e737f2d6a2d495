// Fuzz target: coefficient caps strings -> caps parsing and plane geometry.
// Input: one selector byte, then a caps string. Every structure goes through
// gst/coeff_caps (parse, check_chain, check_stage_limits, stage_input_range,
// planar_layout, and the caps transforms the elements use on unfixed caps).
// Caps that parse must survive a round trip through build_coeff_caps with
// the same geometry. Caps that parse and describe a small frame are then set
// on an element that takes coefficients (cudainverse, cudaview, cudaentropy,
// or a chain element behind a colour stage) and a
// frame of the size they give is pushed: a clean error or an output of the
// right size.
#include "coeff_caps.h"
#include "fuzz_util.hpp"

namespace {

constexpr gsize kMaxFrameBytes = 1 << 20;  // larger frames are parsed, not pushed

void exercise_caps_transforms(const GstCaps *caps) {
  GstCaps *raw = cfgst::raw_caps_from_coeff_caps(caps);
  GstCaps *raw_last = cfgst::raw_caps_from_coeff_caps(caps, "cdf53");
  GstCaps *back = cfgst::coeff_caps_from_raw_caps(raw, nullptr);
  const std::vector<cfgst::CoeffStage> cdf53 = {cfgst::wavelet_stage(cf::WaveletParams{})};
  GstCaps *forward = cfgst::coeff_caps_from_raw_caps(raw, &cdf53);
  GstCaps *appended = cfgst::append_stage_caps(caps, cdf53[0]);
  GstCaps *dropped = cfgst::drop_stage_caps(caps, "cdf53");
  for (GstCaps *c : {raw, raw_last, back, forward, appended, dropped}) gst_caps_unref(c);
}

// parse -> build -> parse keeps the chain, the sample type and the planes.
void check_round_trip(const cfgst::CoeffFormat &f, const std::string &context) {
  GstCaps *built = cfgst::build_coeff_caps(f.raw, f.stages);
  cfgst::CoeffFormat again;
  std::string why;
  if (!cfgst::parse_coeff_caps(built, &again, &why))
    cffuzz::fail(context + ": build_coeff_caps gave caps that do not parse: " + why + " (" + cfgt::caps_string(built) +
                 ")");
  if (again.size != f.size || again.stages.size() != f.stages.size() || again.sample_type != f.sample_type ||
      again.planes.n != f.planes.n)
    cffuzz::fail(context + ": parse(build(parse(caps))) differs: " + cfgt::caps_string(built));
  gst_caps_unref(built);
}

void push_frame(std::uint8_t selector, const std::string &text, gsize size) {
  const auto &elements = cffuzz::coeff_input_elements();
  const char *name = elements[selector % elements.size()];
  GstElement *e = gst_element_factory_make(name, nullptr);
  g_object_set(e, "backend", selector & 0x80 ? 2 /* openmp */ : 3 /* cpu */, "threads", 2, nullptr);
  cffuzz::Checked hx(e);
  if (!hx.set_caps(text)) {
    if (hx.errors().empty()) cffuzz::fail(std::string(name) + " refused parsed caps silently: " + text);
    return;
  }
  if (GstBuffer *out = hx.push(cffuzz::random_buffer(size, selector), std::string(name) + " " + text))
    gst_buffer_unref(out);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  cffuzz::init();
  cffuzz::Input in(data, size);
  const std::uint8_t selector = in.u8();
  const std::string text = in.rest();
  if (text.find('\0') != std::string::npos) return 0;
  GstCaps *caps = cffuzz::caps_from_string(text);
  if (!caps) return 0;
  exercise_caps_transforms(caps);
  bool cuda = false;  // memory features the elements do not take are refused by caps negotiation
  bool push = gst_caps_get_size(caps) == 1 && gst_caps_is_fixed(caps) && cfgst::caps_memory(caps, 0, &cuda);
  for (guint i = 0; i < gst_caps_get_size(caps) && i < 8; ++i) {
    const GstStructure *s = gst_caps_get_structure(caps, i);
    cfgst::CoeffFormat f;
    std::string why;
    if (!cfgst::parse_coeff_structure(s, &f, &why)) {
      if (why.empty()) cffuzz::fail("parse_coeff_structure refused without a reason: " + text);
      push = false;
      continue;
    }
    (void)cfgst::check_chain(f.stages, GST_VIDEO_INFO_FORMAT(&f.raw));
    const std::string limits = cfgst::check_stage_limits(f);
    for (std::size_t k = 0; k <= f.stages.size(); ++k) (void)cfgst::stage_input_range(f, k);
    const cf::PlanarLayout planes = cfgst::planar_layout(f.raw);
    if (planes.n < 1) cffuzz::fail("planar_layout gave no planes: " + text);
    check_round_trip(f, text);
    push = push && limits.empty() && f.size > 0 && f.size <= kMaxFrameBytes;
    if (push) {
      cfgst::PadFormat pf;
      if (!cfgst::pad_format_from_caps(caps, &pf, &why) || pf.size != f.size)
        cffuzz::fail("pad_format_from_caps disagrees with parse_coeff_caps: " + text);
    }
  }
  if (push) push_frame(selector, text, cffuzz::frame_size(caps));
  gst_caps_unref(caps);
  return 0;
}
