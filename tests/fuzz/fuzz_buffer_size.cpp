// Fuzz target: buffers shorter or longer than their caps, in one or several
// GstMemory blocks, into every element. Raw caps for the raw-input elements;
// for cudainverse and cudaview the coefficient caps a forward element gives.
// Oracle: a buffer shorter than its caps is a clean error naming the sizes; a
// buffer at least as long (extra bytes ignored) gives an output of the right
// size.
#include "fuzz_util.hpp"

namespace {

// Forward elements whose streams feed the coefficient-input elements.
const char *const kForward[] = {"cudahaar backend=cpu levels=2", "cudacdf53 backend=cpu",
                                "cudacdf97 backend=cpu",         "cudacdf97 backend=cpu quant-step=4",
                                "cudadct backend=cpu",           "cudarct backend=cpu",
                                "cudagap backend=cpu",           "cudaycocg backend=cpu ! cudacdf53 backend=cpu"};

// `size` bytes split into up to four memories at fuzzed points.
GstBuffer *split_buffer(gsize size, cffuzz::Input &in) {
  GstBuffer *whole = cffuzz::random_buffer(size, in.u8());
  const int pieces = 1 + int(in.below(4));
  if (pieces == 1 || size < 2) return whole;
  GstBuffer *out = gst_buffer_new();
  gsize at = 0;
  for (int k = 0; k < pieces && at < size; ++k) {
    const gsize len = k == pieces - 1 ? size - at : 1 + in.below(std::uint32_t(size - at));
    GstBuffer *part = gst_buffer_copy_region(whole, GST_BUFFER_COPY_MEMORY, at, len);
    gst_buffer_append_memory(out, gst_buffer_get_memory(part, 0));
    gst_buffer_unref(part);
    at += len;
  }
  gst_buffer_unref(whole);
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  cffuzz::init();
  cffuzz::Input in(data, size);
  const auto &raw_elements = cffuzz::raw_input_elements();
  const cffuzz::FrameChoice c = cffuzz::choose_frame(in, 2, 40);  // + cudainverse, cudaview
  const std::uint32_t which = c.element;
  const cfgt::FormatSpec &fmt = *c.format;
  const int w = c.width, h = c.height;
  std::string caps = cfgt::raw_caps(fmt.name, w, h);
  std::string element_name;
  if (which < raw_elements.size()) {
    element_name = raw_elements[which];
  } else {
    element_name = which == raw_elements.size() ? "cudainverse" : "cudaview";
    caps = cffuzz::coefficient_caps(kForward[in.below(sizeof kForward / sizeof *kForward)], caps);
    if (caps.empty()) return 0;  // the forward element refused the format
  }
  GstElement *e = gst_element_factory_make(element_name.c_str(), nullptr);
  g_object_set(e, "backend", 3 /* cpu */, nullptr);
  cffuzz::Checked hx(e);
  if (!hx.set_caps(caps)) {
    if (hx.errors().empty()) cffuzz::fail(element_name + " refused " + caps + " silently");
    return 0;
  }
  GstCaps *parsed = gst_caps_from_string(caps.c_str());
  const gsize need = cffuzz::frame_size(parsed);
  gst_caps_unref(parsed);
  for (int frame = 0; frame < 3 && in.left(); ++frame) {
    long long want = (long long)need + in.delta();
    if (in.u8() < 32) want = in.below(std::uint32_t(need + 1));  // anything from empty to full
    const gsize bytes = gsize(std::max(0LL, want));
    const std::string context = element_name + " " + caps + ", buffer of " + std::to_string(bytes) + " bytes (" +
                                std::to_string(need) + " needed)";
    const std::string before = hx.errors();
    GstBuffer *out = hx.push(split_buffer(bytes, in), context);
    if (bytes < need) {
      if (out) cffuzz::fail(context + ": a short buffer was accepted");
      if (!cfgt::contains(hx.errors().substr(before.size()), "bytes"))
        cffuzz::fail(context + ": the error does not name the sizes: " + hx.errors());
      return 0;  // the element is in error now
    }
    if (!out) cffuzz::fail(context + ": a long enough buffer was refused: " + hx.errors());
    gst_buffer_unref(out);
  }
  return 0;
}
