// Pipelines on real photos (opencv-doc's baboon.jpg and fruits.jpg):
//   filesrc ! jpegdec ! videoconvert ! <format> ! tee
//     -> appsink A
//     -> cudacdf53 levels=3 ! cudainverse ! appsink B      A == B, bytes
//        (also cudacdf97 without quantisation, cudahaar, cudamed, cudagap slice-height=64, cudaged)
// and cudacdf53 levels=3 ! cudaview ! pngenc ! filesink writes a PNG.
// Skips (77) when the photos or the needed system plugins are missing.
#include <gst/app/gstappsink.h>

#include <filesystem>
#include <fstream>

#include "frames.hpp"
#include "gst_util.hpp"

using namespace cfgt;

static GstSample *pull(GstElement *pipeline, const char *name) {
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), name);
  GstSample *s = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 0);
  gst_object_unref(sink);
  return s;
}

static void roundtrip(const std::string &image, const char *format, const char *element) {
  const std::string desc = "filesrc location=\"" + image +
                           "\" ! jpegdec ! videoconvert ! video/x-raw,format=" + format +
                           " ! tee name=t  t. ! queue ! appsink name=a sync=false wait-on-eos=false  t. ! queue ! " +
                           element + " ! cudainverse ! appsink name=b sync=false wait-on-eos=false";
  GstElement *pipeline = launch(desc);
  if (!pipeline) return;
  const std::string err = run(pipeline);
  CHECK_MSG(err.empty(), "%s %s: %s", image.c_str(), format, err.c_str());
  GstSample *a = pull(pipeline, "a"), *b = pull(pipeline, "b");
  CHECK_MSG(a && b, "%s %s: missing samples", image.c_str(), format);
  if (a && b) {
    GstVideoInfo ia, ib;
    CHECK(gst_video_info_from_caps(&ia, gst_sample_get_caps(a)));
    CHECK(gst_video_info_from_caps(&ib, gst_sample_get_caps(b)));
    CHECK(GST_VIDEO_INFO_FORMAT(&ia) == GST_VIDEO_INFO_FORMAT(&ib) &&
          GST_VIDEO_INFO_WIDTH(&ia) == GST_VIDEO_INFO_WIDTH(&ib) &&
          GST_VIDEO_INFO_HEIGHT(&ia) == GST_VIDEO_INFO_HEIGHT(&ib));
    const std::string diff = compare_frames(ia, gst_sample_get_buffer(a), gst_sample_get_buffer(b));
    CHECK_MSG(diff.empty(), "%s %s through %s: %s", image.c_str(), format, element, diff.c_str());
    std::printf("%s %s %dx%d through %s: %s\n", std::filesystem::path(image).filename().c_str(), format,
                GST_VIDEO_INFO_WIDTH(&ia), GST_VIDEO_INFO_HEIGHT(&ia), element,
                diff.empty() ? "identical" : "DIFFERENT");
  }
  if (a) gst_sample_unref(a);
  if (b) gst_sample_unref(b);
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
}

static void view_png(const std::string &image, const std::string &dir, const char *format, int component) {
  const std::string png = dir + "/view-" + format + "-" + std::to_string(component) + ".png";
  const std::string desc = "filesrc location=\"" + image +
                           "\" ! jpegdec ! videoconvert ! video/x-raw,format=" + format +
                           " ! cudacdf53 levels=3 ! cudaview component=" + std::to_string(component) +
                           " ! pngenc ! filesink location=\"" + png + "\"";
  GstElement *pipeline = launch(desc);
  if (!pipeline) return;
  const std::string err = run(pipeline);
  CHECK_MSG(err.empty(), "%s: %s", desc.c_str(), err.c_str());
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
  std::ifstream f(png, std::ios::binary);
  char sig[8] = {};
  f.read(sig, 8);
  CHECK_MSG(f && !std::memcmp(sig, "\x89PNG\r\n\x1a\n", 8), "%s is not a PNG", png.c_str());
  CHECK_MSG(std::filesystem::file_size(png) > 1000, "%s is only %ju bytes", png.c_str(),
            std::uintmax_t(std::filesystem::file_size(png)));
}

int main(int argc, char **argv) {
  init(&argc, &argv);
  const std::string dir = cft::image_dir();
  if (dir.empty()) {
    std::printf("SKIP: no test photos (install opencv-doc or set CF_TEST_IMAGES)\n");
    return cft::kSkip;
  }
  for (const char *needed : {"filesrc", "jpegdec", "videoconvert", "tee", "queue", "appsink", "pngenc", "filesink"}) {
    GstElementFactory *f = gst_element_factory_find(needed);
    if (!f) {
      std::printf("SKIP: GStreamer element %s is not installed\n", needed);
      return cft::kSkip;
    }
    gst_object_unref(f);
  }
  for (const char *image : {"baboon.jpg", "fruits.jpg"})
    for (const char *format : {"I420", "RGBA", "GRAY8", "RGBx"})
      for (const char *element : {"cudacdf53 levels=3", "cudacdf97 levels=3", "cudahaar levels=3", "cudamed",
                                  "cudagap slice-height=64", "cudaged threshold=30 slice-height=16"})
        roundtrip(dir + "/" + image, format, element);

  char tmpl[] = "/tmp/cf-pipeline-XXXXXX";
  const char *tmp = g_mkdtemp(tmpl);
  CHECK(tmp != nullptr);
  if (tmp) {
    view_png(dir + "/baboon.jpg", tmp, "I420", 0);
    view_png(dir + "/fruits.jpg", tmp, "RGBA", 1);
    std::filesystem::remove_all(tmp);
  }
  return cft::test_result();
}
