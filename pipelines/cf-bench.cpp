// cf-bench: frames per second of cudafilters elements, element time only.
//
// For each element x format x resolution x levels x backend it decodes a real
// photo once (GStreamer: jpegdec ! videoconvert ! videoscale), keeps two
// copies of the frame in memory, then pushes them alternately through the
// element in a GstHarness and pulls each output: the source's cost is not in
// the figure. Chain calls are synchronous, so the wall time of push + pull is
// the element's time for that frame (system memory: for CUDA that includes the
// upload of the input and the download of the output).
//
//   cf-bench --image baboon.jpg [--elements cudahaar,cudacdf53]
//            [--backends cpu,openmp,cuda] [--formats GRAY8,RGBA]
//            [--sizes 1280x720,1920x1080,3840x2160] [--levels 1,3]
//            [--seconds 1] [--markdown results.md]
#include <gst/check/gstharness.h>
#include <gst/gst.h>
#include <gst/video/video.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cudafilters/engine.hpp"

namespace {

std::vector<std::string> split(const std::string &s, char sep = ',') {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string item; std::getline(ss, item, sep);)
    if (!item.empty()) out.push_back(item);
  return out;
}

std::string command_output(const char *cmd) {
  std::string out;
  if (FILE *p = popen(cmd, "r")) {
    char buf[256];
    while (fgets(buf, sizeof buf, p)) out += buf;
    pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  return out;
}

std::string machine_description() {
  std::string gpu = command_output(
      "nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1");
  std::string cpu = command_output("grep -m1 'model name' /proc/cpuinfo | cut -d: -f2");
  std::string cores = command_output("nproc");
  std::string date = command_output("date -u +%Y-%m-%dT%H:%MZ");
  std::ostringstream s;
  s << "- GPU: " << (gpu.empty() ? "none" : gpu + " (name, driver)") << "\n"
    << "- CPU:" << cpu << ", " << cores << " cores available\n"
    << "- Date: " << date << "\n";
  return s.str();
}

// One decoded frame of the photo, scaled to the requested format and size.
GstBuffer *load_frame(const std::string &image, const std::string &format, int w, int h) {
  std::string desc = "filesrc location=\"" + image +
                     "\" ! jpegdec ! videoconvert ! videoscale ! video/x-raw,format=" + format +
                     ",width=" + std::to_string(w) + ",height=" + std::to_string(h) +
                     " ! appsink name=sink sync=false";
  GError *err = nullptr;
  GstElement *pipe = gst_parse_launch(desc.c_str(), &err);
  if (!pipe) {
    std::fprintf(stderr, "cannot decode %s: %s\n", image.c_str(), err ? err->message : "?");
    g_clear_error(&err);
    return nullptr;
  }
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipe), "sink");
  gst_element_set_state(pipe, GST_STATE_PLAYING);
  GstSample *sample = nullptr;
  g_signal_emit_by_name(sink, "pull-sample", &sample);
  GstBuffer *buf = sample ? gst_buffer_copy_deep(gst_sample_get_buffer(sample)) : nullptr;
  if (sample) gst_sample_unref(sample);
  gst_element_set_state(pipe, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(pipe);
  return buf;
}

struct Case {
  std::string element, format, backend;
  int width, height, levels;
};

struct Result {
  double fps = 0, ms = 0, gbps = 0;
  int frames = 0;
  std::string note;
};

Result run_case(const Case &c, GstBuffer *frame, double seconds) {
  Result r;
  GstHarness *h = gst_harness_new(c.element.c_str());
  if (!h) {
    r.note = "element not found";
    return r;
  }
  gst_util_set_object_arg(G_OBJECT(h->element), "backend", c.backend.c_str());
  g_object_set(h->element, "levels", c.levels, nullptr);
  const std::string caps = "video/x-raw,format=" + c.format + ",width=" + std::to_string(c.width) +
                           ",height=" + std::to_string(c.height) + ",framerate=30/1";
  gst_harness_set_src_caps_str(h, caps.c_str());
  GstBuffer *inputs[2] = {gst_buffer_copy_deep(frame), gst_buffer_copy_deep(frame)};
  const gsize in_bytes = gst_buffer_get_size(frame);
  gsize out_bytes = 0;
  auto one_frame = [&](int i) {
    if (gst_harness_push(h, gst_buffer_ref(inputs[i & 1])) != GST_FLOW_OK) return false;
    GstBuffer *out = gst_harness_try_pull(h);
    if (!out) return false;
    out_bytes = gst_buffer_get_size(out);
    gst_buffer_unref(out);
    return true;
  };
  bool ok = one_frame(0) && one_frame(1);  // warm-up: engine, workspaces, pools
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  double elapsed = 0;
  while (ok && (elapsed < seconds || r.frames < 3)) {
    ok = one_frame(r.frames);
    if (ok) ++r.frames;
    elapsed = std::chrono::duration<double>(clock::now() - start).count();
  }
  if (!ok) {
    r.note = "error";
    if (GstMessage *m = gst_bus_pop_filtered(GST_ELEMENT_BUS(h->element), GST_MESSAGE_ERROR)) {
      GError *e = nullptr;
      gst_message_parse_error(m, &e, nullptr);
      r.note = e->message;
      g_error_free(e);
      gst_message_unref(m);
    }
  } else {
    r.fps = r.frames / elapsed;
    r.ms = 1000.0 * elapsed / r.frames;
    r.gbps = double(in_bytes + out_bytes) * r.frames / elapsed / 1e9;
  }
  gst_buffer_unref(inputs[0]);
  gst_buffer_unref(inputs[1]);
  gst_harness_teardown(h);
  return r;
}

}  // namespace

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  std::string image, markdown;
  std::vector<std::string> elements = {"cudahaar", "cudacdf53"}, backends = {"cpu", "openmp", "cuda"},
                           formats = {"GRAY8", "RGBA"},
                           sizes = {"1280x720", "1920x1080", "3840x2160"}, levels = {"1", "3"};
  double seconds = 1.0;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--image") image = v;
    else if (k == "--elements") elements = split(v);
    else if (k == "--backends") backends = split(v);
    else if (k == "--formats") formats = split(v);
    else if (k == "--sizes") sizes = split(v);
    else if (k == "--levels") levels = split(v);
    else if (k == "--seconds") seconds = std::stod(v);
    else if (k == "--markdown") markdown = v;
    else {
      std::fprintf(stderr, "unknown option %s\n", k.c_str());
      return 2;
    }
  }
  if (image.empty()) {
    std::fprintf(stderr, "usage: cf-bench --image photo.jpg [options] (see the source)\n");
    return 2;
  }
  std::ostringstream table;
  table << "# cf-bench: element time, system memory\n\n" << machine_description()
        << "- Input: " << image << ", scaled; " << seconds
        << " s per row after 2 warm-up frames; fps = frames / wall time of push + pull\n\n"
        << "| element | format | size | levels | backend | fps | ms/frame | GB/s (in+out) |\n"
        << "|---|---|---|---|---|---:|---:|---:|\n";
  std::printf("%s", table.str().c_str());
  for (const auto &format : formats)
    for (const auto &size : sizes) {
      int w = 0, h = 0;
      if (std::sscanf(size.c_str(), "%dx%d", &w, &h) != 2) continue;
      GstBuffer *frame = load_frame(image, format, w, h);
      if (!frame) return 1;
      for (const auto &element : elements)
        for (const auto &lv : levels)
          for (const auto &backend : backends) {
            const Case c{element, format, backend, w, h, std::stoi(lv)};
            std::string why;
            Result r;
            if (backend == "cuda" && !cf::cuda_device_usable(0, &why)) r.note = "no GPU: " + why;
            else r = run_case(c, frame, seconds);
            char row[512];
            if (r.note.empty())
              std::snprintf(row, sizeof row, "| %s | %s | %s | %d | %s | %.1f | %.3f | %.2f |\n",
                            element.c_str(), format.c_str(), size.c_str(), c.levels, backend.c_str(),
                            r.fps, r.ms, r.gbps);
            else
              std::snprintf(row, sizeof row, "| %s | %s | %s | %d | %s | %s | | |\n", element.c_str(),
                            format.c_str(), size.c_str(), c.levels, backend.c_str(), r.note.c_str());
            std::printf("%s", row);
            std::fflush(stdout);
            table << row;
          }
      gst_buffer_unref(frame);
    }
  if (!markdown.empty()) std::ofstream(markdown) << table.str();
  return 0;
}
