// Caps an element refuses give one element error, however often GStreamer
// retries them (GstBaseTransform renegotiates at every buffer and event,
// and a failed sticky caps event is sent again before each one). Each
// pipeline below is refused by one of our elements, at caps time
// (set_caps: levels too deep for the frame, a component beyond the
// stream's planes, 16-bit input to the DCT) or when the caps arrive
// (sink_event: an even nms-window); all error messages on the bus are
// counted until the pipeline has been quiet for a while.
#include "gst_util.hpp"

using namespace cfgt;

namespace {

struct Case {
  const char *pipeline;
  const char *element;  // the name of the element that refuses
  const char *message;  // a part of its error message
};

// Error messages of `c.element` on the bus of `c.pipeline`, played until no
// message arrived for `quiet_ms` (the source stops on its own error).
int count_errors(const Case &c, int quiet_ms, std::string *texts) {
  GstElement *p = launch(c.pipeline);
  if (!p) return -1;
  GstBus *bus = gst_element_get_bus(p);
  gst_element_set_state(p, GST_STATE_PLAYING);
  int errors = 0;
  const gint64 deadline = g_get_monotonic_time() + 30 * G_USEC_PER_SEC;
  bool seen_any = false;
  while (g_get_monotonic_time() < deadline) {
    GstMessage *m = gst_bus_timed_pop_filtered(bus, (seen_any ? quiet_ms : 20000) * GST_MSECOND,
                                               GstMessageType(GST_MESSAGE_ERROR | GST_MESSAGE_EOS));
    if (!m) break;
    seen_any = true;
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR && !std::strcmp(GST_OBJECT_NAME(GST_MESSAGE_SRC(m)), c.element)) {
      GError *e = nullptr;
      gst_message_parse_error(m, &e, nullptr);
      *texts += std::string(e->message) + "\n";
      g_clear_error(&e);
      ++errors;
    }
    gst_message_unref(m);
  }
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(bus);
  gst_object_unref(p);
  return errors;
}

void test_error_once(const Case &c) {
  std::string texts;
  const int n = count_errors(c, 1000, &texts);
  CHECK_MSG(n == 1, "%s: %d error messages from %s (want 1):\n%s", c.pipeline, n, c.element, texts.c_str());
  CHECK_MSG(contains(texts, c.message), "%s: the error does not say '%s':\n%s", c.pipeline, c.message, texts.c_str());
  std::printf("%s: %d error from %s\n", c.pipeline, n, c.element);
}

}  // namespace

int main(int argc, char **argv) {
  init(&argc, &argv);
  const Case cases[] = {
      {"videotestsrc num-buffers=1 ! video/x-raw,width=8,height=8,format=GRAY8 ! cudacdf53 name=e levels=10 "
       "! fakesink",
       "e", "cdf53-levels"},
      {"videotestsrc num-buffers=3 ! video/x-raw,width=64,height=48,format=GRAY8 ! cudacdf53 ! "
       "cudaview name=e component=2 ! fakesink",
       "e", "component=2 is out of range"},
      {"videotestsrc num-buffers=1 ! video/x-raw,width=64,height=48,format=GRAY16_LE ! cudadct name=e ! fakesink", "e",
       "U16 input is not supported"},
      {"videotestsrc num-buffers=1 ! video/x-raw,width=64,height=48,format=GRAY8 ! cudahough name=e nms-window=4 "
       "! fakesink",
       "e", "nms-window=4"},
  };
  for (const Case &c : cases) test_error_once(c);
  return cft::test_result();
}
