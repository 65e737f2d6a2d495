// GPU memory exhausted at start: with nearly all free device memory taken
// (cudaMalloc through a CUDA engine, in blocks down to 1 MB), elements with
// backend=cuda at 1920x1080 must stop with a clear element error naming the
// allocation, not crash; once the memory is given back the same pipeline
// works again. Needs a GPU: skips (77) without one.
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

#include "../cuda/gpu_present.hpp"
#include "cudafilters/error.hpp"
#include "gst_util.hpp"
#include "memory_use.hpp"

using namespace cfgt;

// The error text of `element` given one 1080p frame, "" when it produced output.
static std::string run_one_frame(const std::string &element) {
  const std::string caps = raw_caps("I420", 1920, 1080);
  GstElement *p =
      launch("appsrc name=src format=time caps=\"" + caps + "\" ! " + element + " ! appsink name=sink sync=false");
  if (!p) return "cannot build the pipeline";
  GstElement *src = gst_bin_get_by_name(GST_BIN(p), "src"), *sink = gst_bin_get_by_name(GST_BIN(p), "sink");
  std::string result;
  if (gst_element_set_state(p, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
    result = "(at start) ";
  } else {
    gst_app_src_push_buffer(GST_APP_SRC(src), random_frame(video_info("I420", 1920, 1080), 3));
    GstSample *s = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 20 * GST_SECOND);
    if (s) gst_sample_unref(s);
    if (!s)
      result = "(first frame) ";
    else
      result = "";
  }
  GstBus *bus = gst_element_get_bus(p);
  const std::string errors = pop_errors(bus);
  gst_object_unref(bus);
  if (!result.empty()) result += errors.empty() ? "NO ERROR MESSAGE" : errors;
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(src);
  gst_object_unref(sink);
  gst_object_unref(p);
  return result;
}

int main(int argc, char **argv) {
  init(&argc, &argv);
  if (!cft::gpu_present()) return cft::kSkip;
  const char *elements[] = {"cudacdf53 backend=cuda levels=3", "cudahalftone backend=cuda", "cudadct backend=cuda",
                            "cudagap backend=cuda"};
  std::vector<void *> blocks;
  {
    cf::Engine hog(cf::Backend::Cuda);
    for (std::size_t chunk = std::size_t(1) << 30; chunk >= (std::size_t(1) << 20); chunk /= 2)
      for (;;) {
        try {
          blocks.push_back(hog.device_alloc(chunk));
        } catch (const cf::Error &) {
          break;
        }
      }
    std::size_t free_bytes = 0, total = 0;
    cf::cuda_memory_info(0, &free_bytes, &total);
    std::printf("took %zu blocks; %.1f MB of %.0f MB left free\n", blocks.size(), free_bytes / 1e6, total / 1e6);
    for (const char *e : elements) {
      const std::string r = run_one_frame(e);
      std::printf("%s with the GPU full: %s", e, r.empty() ? "ran (needed no more device memory)\n" : r.c_str());
      // Either it fitted in what was left, or a clear error naming the allocation.
      CHECK_MSG(r.empty() || (!contains(r, "NO ERROR MESSAGE") && (contains(r, "memory") || contains(r, "allocat"))),
                "%s: unclear: %s", e, r.c_str());
    }
    for (void *b : blocks) hog.device_free(b);
  }
  for (const char *e : elements) {
    const std::string r = run_one_frame(e);
    CHECK_MSG(r.empty(), "%s after the memory came back: %s", e, r.c_str());
  }
  std::printf("every element works again once the memory is free\n");
  return cft::test_result();
}
