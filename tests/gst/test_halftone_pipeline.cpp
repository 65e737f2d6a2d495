// cudahalftone in gst_parse_launch pipelines on real photos: jpegdec !
// videoconvert ! cudahalftone ! appsink. backend=cpu and backend=openmp give
// the same bytes; binary output holds only 0 and 255; the halftone keeps the
// photo's mean grey within 1% (error diffusion conserves intensity).
#include <gst/app/gstappsink.h>

#include "frames.hpp"
#include "gst_util.hpp"

using namespace cfgt;

namespace {

// The one frame the pipeline gives, as bytes (empty on error).
std::vector<guint8> run_photo(const std::string &path, const char *format, const std::string &element) {
  const std::string desc = "filesrc location=" + path + " ! jpegdec ! videoconvert ! video/x-raw,format=" + format +
                           " ! " + element + " ! appsink name=out sync=false wait-on-eos=false";
  GstElement *p = launch(desc);
  std::vector<guint8> bytes;
  if (!p) return bytes;
  const std::string err = run(p);
  CHECK_MSG(err.empty(), "%s: %s", desc.c_str(), err.c_str());
  GstElement *sink = gst_bin_get_by_name(GST_BIN(p), "out");
  if (GstSample *s = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 0)) {
    GstMapInfo map;
    GstBuffer *b = gst_sample_get_buffer(s);
    gst_buffer_map(b, &map, GST_MAP_READ);
    bytes.assign(map.data, map.data + map.size);
    gst_buffer_unmap(b, &map);
    gst_sample_unref(s);
  }
  gst_object_unref(sink);
  gst_element_set_state(p, GST_STATE_NULL);
  gst_object_unref(p);
  return bytes;
}

double mean(const std::vector<guint8> &v) {
  double s = 0;
  for (guint8 x : v) s += x;
  return v.empty() ? 0 : s / double(v.size());
}

}  // namespace

int main(int argc, char **argv) {
  init(&argc, &argv);
  const std::string dir = cft::image_dir();
  if (dir.empty()) {
    std::printf("SKIP: no test photos (set CF_TEST_IMAGES)\n");
    return cft::kSkip;
  }
  for (const char *name : {"fruits.jpg", "baboon.jpg"}) {
    const std::string path = dir + "/" + name;
    const std::vector<guint8> original = run_photo(path, "GRAY8", "identity");
    for (const char *method : {"floyd-steinberg", "jarvis-judice-ninke"}) {
      const std::string e = std::string("cudahalftone method=") + method;
      const std::vector<guint8> cpu = run_photo(path, "GRAY8", e + " backend=cpu");
      const std::vector<guint8> omp = run_photo(path, "GRAY8", e + " backend=openmp");
      CHECK_MSG(!cpu.empty() && cpu == omp, "%s %s: cpu and openmp differ", name, method);
      bool binary = true;
      for (guint8 x : cpu) binary &= x == 0 || x == 255;
      CHECK_MSG(binary, "%s %s: output is not black and white", name, method);
      CHECK_MSG(std::abs(mean(cpu) - mean(original)) < 2.55, "%s %s: mean %.2f, original %.2f", name, method, mean(cpu),
                mean(original));
    }
    const std::vector<guint8> rgba = run_photo(path, "RGBA", "cudahalftone backend=openmp serpentine=true");
    CHECK_MSG(!rgba.empty(), "%s: no RGBA output", name);
    for (std::size_t i = 3; i < rgba.size(); i += 4)
      if (rgba[i] != 255) {
        CHECK_MSG(false, "%s: alpha changed at byte %zu", name, i);
        break;
      }
  }
  return cft::test_result();
}
