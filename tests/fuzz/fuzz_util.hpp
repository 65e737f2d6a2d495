// Shared by the libFuzzer targets: GStreamer with the plugin registered
// statically (no registry, no plugin files), a reader of the fuzz bytes, and
// the oracle every element target applies to one pushed buffer: either a
// clean GStreamer error (a message on the bus) or an output buffer of exactly
// the size its caps give. Anything else aborts, which libFuzzer reports.
#pragma once

#include <gst/gst.h>
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#include <sanitizer/lsan_interface.h>
#define CF_FUZZ_LSAN 1
#endif
#endif

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gst_util.hpp"  // tests/gst: Harness, formats(), raw_caps(), random_frame()
#include "raw_frame.h"   // gst/: pad_format_from_caps, the size of a frame of fixed caps

// GST_PLUGIN_DEFINE with GST_PLUGIN_BUILD_STATIC defines it with C linkage.
extern "C" void gst_plugin_cudafilters_register(void);

namespace cffuzz {

inline bool &in_caps_parser() {
  static bool b = false;
  return b;
}

// Once per process. GST_REGISTRY_DISABLE: nothing is scanned or written, so
// parallel fuzzers and a user's registry never meet.
inline void init() {
  static const bool done = [] {
    g_setenv("GST_REGISTRY_DISABLE", "yes", TRUE);
    gst_init(nullptr, nullptr);
    gst_plugin_cudafilters_register();
    // A GLib critical is API misuse (ours or GStreamer's): a finding, except
    // inside GStreamer's caps parser, which also complains about malformed
    // strings that way.
    g_log_set_default_handler(
        [](const gchar *domain, GLogLevelFlags level, const gchar *message, gpointer) {
          if (level & (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_ERROR)) {
            if (in_caps_parser()) return;
            std::fprintf(stderr, "FUZZ FINDING: %s-CRITICAL: %s\n", domain ? domain : "", message);
            std::abort();
          }
          g_log_default_handler(domain, level, message, nullptr);
        },
        nullptr);
    return true;
  }();
  (void)done;
}

[[noreturn]] inline void fail(const std::string &what) {
  std::fprintf(stderr, "FUZZ FINDING: %s\n", what.c_str());
  std::abort();
}

// The fuzz bytes as a stream of small decisions; zeros once they run out.
class Input {
 public:
  Input(const std::uint8_t *data, std::size_t size) : p_(data), n_(size) {}
  std::uint8_t u8() { return n_ ? (--n_, *p_++) : 0; }
  std::uint32_t u16() { return u8() | std::uint32_t(u8()) << 8; }
  std::uint32_t u32() { return u16() | u16() << 16; }
  // 0 .. n-1
  std::uint32_t below(std::uint32_t n) { return n ? (n <= 256 ? u8() % n : u32() % n) : 0; }
  // A small signed delta, mostly 0 or +-1..8, sometimes large.
  int delta() {
    const std::uint8_t k = u8();
    if (k < 128) return 0;
    if (k < 240) return int(u8() % 17) - 8;
    return int(std::int16_t(u16()));
  }
  std::size_t left() const { return n_; }
  std::string rest() {
    std::string s(reinterpret_cast<const char *>(p_), n_);
    p_ += n_;
    n_ = 0;
    return s;
  }

 private:
  const std::uint8_t *p_;
  std::size_t n_;
};

// Elements that take raw video, and those that take coefficients only.
inline const std::vector<const char *> &raw_input_elements() {
  static const std::vector<const char *> e = {"cudahaar", "cudacdf53",   "cudacdf97",    "cudadct",
                                              "cudarct",  "cudaycocg",   "cudamed",      "cudagap",
                                              "cudaged",  "cudaentropy", "cudahalftone", "cudahough"};
  return e;
}
inline const std::vector<const char *> &coeff_input_elements() {
  // cudaentropy, the inverses, and the chain elements that take a colour stage's output.
  static const std::vector<const char *> e = {"cudainverse", "cudaview", "cudaentropy", "cudahaar", "cudacdf53",
                                              "cudacdf97",   "cudadct",  "cudamed",     "cudagap",  "cudaged"};
  return e;
}

// The first decisions of the element targets: an element (an index into
// raw_input_elements(), or one of `extra` more past its end), a raw format
// and a size up to max_side x max_side.
struct FrameChoice {
  std::uint32_t element;
  const cfgt::FormatSpec *format;
  int width, height;
};
inline FrameChoice choose_frame(Input &in, std::uint32_t extra, int max_side) {
  FrameChoice c;
  c.element = in.below(std::uint32_t(raw_input_elements().size()) + extra);
  c.format = &cfgt::formats()[in.below(std::uint32_t(cfgt::formats().size()))];
  c.width = 1 + int(in.below(std::uint32_t(max_side)));
  c.height = 1 + int(in.below(std::uint32_t(max_side)));
  return c;
}

// Bytes of one frame of fixed caps, by the plugin's own parser (a size
// check, not a known answer); 0 when the caps cannot be parsed.
inline gsize frame_size(GstCaps *caps) {
  cfgst::PadFormat f;
  if (!caps || !cfgst::pad_format_from_caps(caps, &f, nullptr)) return 0;
  return f.size;
}

// Random bytes (a fixed function of `seed`).
inline GstBuffer *random_buffer(gsize size, std::uint32_t seed) {
  GstBuffer *b = gst_buffer_new_allocate(nullptr, size, nullptr);
  GstMapInfo m;
  gst_buffer_map(b, &m, GST_MAP_WRITE);
  std::uint32_t x = seed * 2654435761u + 1;
  for (gsize i = 0; i < m.size; ++i) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    m.data[i] = std::uint8_t(x);
  }
  gst_buffer_unmap(b, &m);
  return b;
}

// gst_caps_from_string, with GStreamer 1.22's own leak on malformed input
// kept out of leak reports: strings are first parsed with LeakSanitizer
// looking away, and only ones that parse are parsed again, tracked (so caps
// leaked by our code are still reported).
// Its complaints (criticals) about malformed strings are not findings.
inline GstCaps *caps_from_string(const std::string &text) {
  in_caps_parser() = true;
#ifdef CF_FUZZ_LSAN
  __lsan_disable();
  GstCaps *probe = gst_caps_from_string(text.c_str());
  __lsan_enable();
  if (!probe) {
    in_caps_parser() = false;
    return nullptr;
  }
  gst_caps_unref(probe);
#endif
  GstCaps *caps = gst_caps_from_string(text.c_str());
  in_caps_parser() = false;
  return caps;
}

// A harness around one element (or bin) that remembers every error posted
// so far, so a failed push can be matched with the message that explains it.
class Checked {
 public:
  explicit Checked(GstElement *e) : hx_(e) {}
  explicit Checked(const char *description) : hx_(description) {}
  cfgt::Harness &harness() { return hx_; }
  bool set_caps(const std::string &caps) {
    const bool ok = hx_.set_caps(caps.c_str());
    errors_ += hx_.errors();
    return ok;
  }
  // Pushes `buf` (taken) and applies the oracle. Returns the output (owned
  // by the caller) or nullptr after a clean error.
  GstBuffer *push(GstBuffer *buf, const std::string &context) {
    const GstBuffer *pushed = buf;  // only compared: a passthrough element gives it back
    const GstFlowReturn ret = hx_.push(buf);
    errors_ += hx_.errors();
    GstBuffer *out = hx_.pull();
    if (ret != GST_FLOW_OK) {
      if (out) gst_buffer_unref(out);
      if (errors_.empty())
        fail(context + ": push returned " + gst_flow_get_name(ret) + " without an error message on the bus");
      return nullptr;
    }
    if (!out) fail(context + ": push returned OK but no output buffer came");
    if (out == pushed) return out;  // passthrough (cudaentropy): the input, whatever its size
    GstCaps *caps = hx_.out_caps();
    cfgst::PadFormat f;
    const bool parsed = caps && cfgst::pad_format_from_caps(caps, &f, nullptr);
    const std::string caps_text = cfgt::caps_string(caps);
    if (caps) gst_caps_unref(caps);
    if (!parsed) fail(context + ": output caps cannot be parsed: " + caps_text);
    // Raw output with GstVideoMeta (a passthrough of such input): the size
    // its meta reaches; otherwise exactly one frame of the caps.
    const GstVideoMeta *meta = f.coefficients ? nullptr : gst_buffer_get_video_meta(out);
    const gsize want = meta ? cfgst::raw_required_size(f.info, meta) : f.size;
    const gsize have = gst_buffer_get_size(out);
    if (meta ? have < want : have != want)
      fail(context + ": output holds " + std::to_string(have) + " bytes, its caps (" + caps_text + ") need " +
           std::to_string(want));
    return out;
  }
  const std::string &errors() const { return errors_; }

 private:
  cfgt::Harness hx_;
  std::string errors_;
};

// The coefficient caps `forward` (e.g. "cudacdf53 backend=cpu") gives for
// raw `caps`; empty when it refuses them.
inline std::string coefficient_caps(const char *forward, const std::string &caps) {
  cfgt::Harness hx(forward);
  if (!hx.set_caps(caps.c_str())) return "";
  GstCaps *out = hx.out_caps();
  std::string s = out ? cfgt::caps_string(out) : "";
  if (out) gst_caps_unref(out);
  return s;
}

}  // namespace cffuzz
