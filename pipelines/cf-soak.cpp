// cf-soak: many frames through one element or a short chain, watching host
// and GPU memory (docs/reliability.md, "Soak"). Two prepared frames (a photo from
// CF_TEST_IMAGES scaled to the size, else random samples) are pushed
// alternately, by reference, through the chain in a GstHarness and every
// output is pulled and dropped, so the source costs nothing. Host RSS
// (/proc/self/status) and, for rows on the GPU, GPU memory in use
// (cudaMemGetInfo: total - free, every process on the device: run GPU rows
// one at a time) are read after the first frames and at the end; "flat"
// means neither grew by more than the tolerance. Bus messages are drained
// after every frame, as an application does.
//
//   cf-soak --chain "cudacdf53 levels=3 ! cudainverse" [--backend cpu|openmp|cuda|auto]
//           [--frames N (default $CF_SOAK_FRAMES, else 10000)] [--warmup 100]
//           [--format I420] [--size 1920x1080] [--memory system|cuda]
//           [--max-seconds S] [--header]
//   cf-soak --header   prints only the table's header
// backend is set on every element of the chain that has the property;
// memory=cuda puts cudaupload (nvcodec) in front; the output stays in CUDA memory.
// Prints one markdown table row (--header: the header first). Exit 0 when
// flat, 1 on an error or growth, 77 when the row cannot run here
// (backend=cuda without a usable device, no nvcodec for memory=cuda).
#include <gst/check/gstharness.h>
#include <gst/gst.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cudafilters/engine.hpp"
#include "frame_source.hpp"
#include "memory_use.hpp"

namespace {

constexpr double kRssToleranceMb = 8, kGpuToleranceMb = 4;

struct Options {
  std::string chain, backend = "auto", format = "I420", memory = "system";
  int width = 1920, height = 1080;
  long frames = 10000, warmup = 100;
  double max_seconds = 0;  // 0: no limit
  bool header = false;
};

void print_header() {
  std::printf(
      "| chain | backend | memory | format | size | frames | fps | RSS after warm-up (MB) | RSS end (MB) | "
      "RSS growth (MB) | GPU after warm-up (MB) | GPU end (MB) | GPU growth (MB) | verdict |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
}

// The row of a run that produced no figures.
int print_note(const Options &o, const std::string &note, int code) {
  std::printf("| `%s` | %s | %s | %s | %dx%d | 0 | | | | | | | | %s |\n", o.chain.c_str(), o.backend.c_str(),
              o.memory.c_str(), o.format.c_str(), o.width, o.height, note.c_str());
  return code;
}

std::string mb(long long bytes) {
  if (bytes < 0) return "n/a";
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", bytes / 1e6);
  return b;
}

bool parse(int argc, char **argv, Options *o) {
  if (const char *env = std::getenv("CF_SOAK_FRAMES")) o->frames = std::atol(env);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
    if (a == "--chain")
      o->chain = next();
    else if (a == "--backend")
      o->backend = next();
    else if (a == "--frames")
      o->frames = std::atol(next().c_str());
    else if (a == "--warmup")
      o->warmup = std::atol(next().c_str());
    else if (a == "--format")
      o->format = next();
    else if (a == "--memory")
      o->memory = next();
    else if (a == "--max-seconds")
      o->max_seconds = std::atof(next().c_str());
    else if (a == "--header")
      o->header = true;
    else if (a == "--size") {
      if (std::sscanf(next().c_str(), "%dx%d", &o->width, &o->height) != 2) return false;
    } else {
      return false;
    }
  }
  return (!o->chain.empty() || o->header) && o->frames > 0 && o->warmup >= 0 && o->width > 0 && o->height > 0;
}

// Sets backend on every element of the harness's bin that has it.
void set_backend(GstElement *bin, const std::string &backend) {
  GstIterator *it = gst_bin_iterate_recurse(GST_BIN(bin));
  GValue item = G_VALUE_INIT;
  while (gst_iterator_next(it, &item) == GST_ITERATOR_OK) {
    GstElement *e = GST_ELEMENT(g_value_get_object(&item));
    if (g_object_class_find_property(G_OBJECT_GET_CLASS(e), "backend"))
      gst_util_set_object_arg(G_OBJECT(e), "backend", backend.c_str());
    g_value_reset(&item);
  }
  g_value_unset(&item);
  gst_iterator_free(it);
}

// Pops every message on `bus`, as an application's bus watch would (the
// element messages of cudaentropy and cudahough pile up otherwise), and
// keeps the first error's text in *error.
void drain(GstBus *bus, std::string *error) {
  while (GstMessage *m = gst_bus_pop(bus)) {
    if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR && error->empty()) {
      GError *err = nullptr;
      gst_message_parse_error(m, &err, nullptr);
      *error = err ? err->message : "?";
      g_clear_error(&err);
    }
    gst_message_unref(m);
  }
}

}  // namespace

int main(int argc, char **argv) {
  gst_init(&argc, &argv);
  Options o;
  if (!parse(argc, argv, &o)) {
    std::fprintf(stderr,
                 "usage: cf-soak --chain \"cudacdf53 levels=3 ! cudainverse\" [--backend cpu|openmp|cuda|auto] "
                 "[--frames N] [--warmup N] [--format I420] [--size 1920x1080] [--memory system|cuda] "
                 "[--max-seconds S] [--header]\n");
    return 2;
  }
  if (o.header) print_header();
  if (o.chain.empty()) return 0;  // --header alone: the table's first two lines
  std::string why;
  if ((o.backend == "cuda" || o.memory == "cuda") && !cf::cuda_device_usable(0, &why))
    return print_note(o, "skipped: " + why, 77);
  if (o.memory == "cuda" && !gst_registry_check_feature_version(gst_registry_get(), "cudaupload", 1, 22, 0))
    return print_note(o, "skipped: no cudaupload (nvcodec)", 77);

  // Output stays in CUDA memory (the harness drops whatever it pulls).
  const std::string description =
      o.memory == "cuda" ? "cudaupload ! video/x-raw(memory:CUDAMemory) ! " + o.chain : o.chain;
  GError *err = nullptr;
  GstElement *bin = gst_parse_bin_from_description(description.c_str(), TRUE, &err);
  if (!bin) return print_note(o, std::string("cannot build the chain: ") + (err ? err->message : "?"), 1);
  gst_object_ref_sink(bin);
  set_backend(bin, o.backend);
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(bin, bus);
  GstHarness *h = gst_harness_new_with_element(bin, "sink", "src");

  // Two source frames, pushed alternately and never written.
  GstBuffer *frames[2] = {nullptr, nullptr};
  const char *dir = std::getenv("CF_TEST_IMAGES");
  const char *names[2] = {"baboon.jpg", "fruits.jpg"};
  for (int k = 0; k < 2; ++k) {
    if (dir) frames[k] = decode_frame(std::string(dir) + "/" + names[k], o.format, o.width, o.height);
    if (!frames[k]) frames[k] = random_video_frame(o.format, o.width, o.height, 1 + k);
  }
  if (!frames[0] || !frames[1]) return print_note(o, "unknown format " + o.format, 1);
  gst_harness_set_src_caps_str(h, ("video/x-raw,format=" + o.format + ",width=" + std::to_string(o.width) +
                                   ",height=" + std::to_string(o.height) + ",framerate=30/1")
                                      .c_str());

  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto warm_time = start;
  // GPU memory only where the row uses the GPU: reading it creates a CUDA
  // context (about 0.5 GB of device and 0.1 GB of host memory), which would
  // count as growth in a cpu row and as device-wide noise for a cuda row
  // running at the same time. Read once first, so the context exists
  // before the warm-up figures.
  const bool uses_gpu = o.backend == "cuda" || o.memory == "cuda";
  if (uses_gpu) cft::gpu_used_bytes();
  long long rss_warm = -1, gpu_warm = -1;
  long done = 0;
  std::string error;
  for (; done < o.frames; ++done) {
    if (done == o.warmup) {
      rss_warm = cft::rss_bytes(), gpu_warm = uses_gpu ? cft::gpu_used_bytes() : -1;
      warm_time = clock::now();
    }
    const GstFlowReturn ret = gst_harness_push(h, gst_buffer_ref(frames[done & 1]));
    drain(bus, &error);
    if (ret != GST_FLOW_OK) {
      if (error.empty()) error = gst_flow_get_name(ret);
      break;
    }
    while (GstBuffer *out = gst_harness_try_pull(h)) gst_buffer_unref(out);
    if (o.max_seconds > 0 && std::chrono::duration<double>(clock::now() - start).count() > o.max_seconds) {
      ++done;
      break;
    }
  }
  const double seconds = std::chrono::duration<double>(clock::now() - warm_time).count();
  const long long rss_end = cft::rss_bytes(), gpu_end = uses_gpu ? cft::gpu_used_bytes() : -1;
  const long timed = done - (done > o.warmup ? o.warmup : done);
  const double fps = seconds > 0 && timed > 0 ? timed / seconds : 0;
  const double rss_growth = rss_warm >= 0 ? (rss_end - rss_warm) / 1e6 : 0;
  const double gpu_growth = gpu_warm >= 0 && gpu_end >= 0 ? (gpu_end - gpu_warm) / 1e6 : 0;

  std::string verdict;
  if (!error.empty())
    verdict = "error: " + error;
  else if (done <= o.warmup)
    verdict = "too few frames to judge";
  else if (rss_growth > kRssToleranceMb || gpu_growth > kGpuToleranceMb)
    verdict = "GROWS";
  else
    verdict = "flat";
  if (done < o.frames && error.empty()) verdict += " (stopped by --max-seconds)";
  char gpu_growth_text[32] = "n/a";
  if (gpu_warm >= 0 && gpu_end >= 0) std::snprintf(gpu_growth_text, sizeof gpu_growth_text, "%+.1f", gpu_growth);
  char row[1024];
  std::snprintf(row, sizeof row, "| `%s` | %s | %s | %s | %dx%d | %ld | %.1f | %s | %s | %+.1f | %s | %s | %s | %s |",
                o.chain.c_str(), o.backend.c_str(), o.memory.c_str(), o.format.c_str(), o.width, o.height, done, fps,
                mb(rss_warm).c_str(), mb(rss_end).c_str(), rss_growth, mb(gpu_warm).c_str(), mb(gpu_end).c_str(),
                gpu_growth_text, verdict.c_str());
  std::printf("%s\n", row);

  gst_buffer_unref(frames[0]);
  gst_buffer_unref(frames[1]);
  gst_harness_teardown(h);
  gst_element_set_bus(bin, nullptr);
  gst_object_unref(bus);
  gst_object_unref(bin);
  return verdict.rfind("flat", 0) == 0 ? 0 : 1;
}
