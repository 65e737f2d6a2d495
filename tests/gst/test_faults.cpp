// Fault behaviour (docs/reliability.md, "Faults"), on any machine:
//   - backend=auto without a usable GPU falls back to the CPU and says so (a
//     warning on the bus naming the fallback); with a GPU it picks cuda and
//     stays quiet;
//   - backend=cuda on a device that is not usable (device-id=99 everywhere;
//     device 0 too where there is no GPU) is an element error naming it;
//   - a pipeline taken NULL -> PLAYING -> NULL 100 times, a frame each time,
//     leaks no file descriptors, no host memory and no GPU memory (the
//     sanitizer build checks every allocation instead of RSS);
//   - two pipelines with the same element type running at once in two
//     threads both give the serial CPU reference's bytes;
//   - properties changed while playing apply from the next frame, and frames
//     computed while another thread keeps changing them each equal the
//     reference of one property combination (no torn frame).
// The backend under test is auto (cuda on a GPU machine, OpenMP here).
#include <gst/app/gstappsink.h>
#include <gst/app/gstappsrc.h>

#include <atomic>
#include <cstdlib>
#include <thread>

#include "gst_util.hpp"
#include "memory_use.hpp"

using namespace cfgt;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CF_ASAN 1
#endif
#endif
#ifdef __SANITIZE_ADDRESS__
#define CF_ASAN 1
#endif

static bool have_gpu() { return cf::cuda_device_usable(0); }

// The output of `description` (one element or a chain) for one frame.
static GstBuffer *reference_output(const std::string &description, const std::string &caps, GstBuffer *in) {
  Harness hx(description.c_str());
  CHECK_MSG(hx.set_caps(caps.c_str()), "%s refused %s: %s", description.c_str(), caps.c_str(), hx.errors().c_str());
  CHECK(hx.push(gst_buffer_ref(in)) == GST_FLOW_OK);
  GstBuffer *out = hx.pull();
  CHECK_MSG(out, "%s: no reference output", description.c_str());
  return out;
}

// appsrc ! <middle> ! appsink, frames pushed and pulled one at a time.
struct AppPipeline {
  GstElement *pipeline = nullptr, *src = nullptr, *sink = nullptr;
  AppPipeline(const std::string &middle, const std::string &caps) {
    pipeline =
        launch("appsrc name=src format=time caps=\"" + caps + "\" ! " + middle + " ! appsink name=sink sync=false");
    src = gst_bin_get_by_name(GST_BIN(pipeline), "src");
    sink = gst_bin_get_by_name(GST_BIN(pipeline), "sink");
  }
  ~AppPipeline() {
    gst_element_set_state(pipeline, GST_STATE_NULL);
    gst_object_unref(src);
    gst_object_unref(sink);
    gst_object_unref(pipeline);
  }
  // The output for `in` (a new reference), or nullptr with the error text in *why.
  GstBuffer *process(GstBuffer *in, std::string *why) {
    gst_app_src_push_buffer(GST_APP_SRC(src), gst_buffer_ref(in));
    GstSample *s = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 20 * GST_SECOND);
    if (!s) {
      GstBus *bus = gst_element_get_bus(pipeline);
      *why = "no output; " + pop_errors(bus);
      gst_object_unref(bus);
      return nullptr;
    }
    GstBuffer *out = gst_buffer_ref(gst_sample_get_buffer(s));
    gst_sample_unref(s);
    return out;
  }
};

static void test_auto_fallback() {
  const std::string caps = raw_caps("I420", 33, 17);
  GstBuffer *in = random_frame(video_info("I420", 33, 17), 5);
  GstElement *e = gst_element_factory_make("cudacdf53", nullptr);  // backend=auto: the default
  Harness hx(e);
  CHECK(hx.set_caps(caps.c_str()));
  const std::string active = get_string_prop(e, "active-backend");
  const std::string warnings = pop_warnings(hx.bus);
  if (have_gpu()) {
    CHECK_MSG(active == "cuda", "auto with a GPU chose '%s'", active.c_str());
    CHECK_MSG(!contains(warnings, "backend=auto"), "auto with a GPU warned: %s", warnings.c_str());
  } else {
    CHECK_MSG(active == "openmp" || active == "cpu", "auto without a GPU chose '%s'", active.c_str());
    CHECK_MSG(contains(warnings, "backend=auto") && contains(warnings, "no usable CUDA device") &&
                  contains(warnings, ("falling back to " + active).c_str()),
              "the fallback warning is missing or unclear: '%s'", warnings.c_str());
  }
  // And it computes what the serial reference computes.
  CHECK(hx.push(gst_buffer_ref(in)) == GST_FLOW_OK);
  GstBuffer *out = hx.pull(), *ref = reference_output("cudacdf53 backend=cpu", caps, in);
  CHECK_MSG(out && ref && same_bytes(out, ref), "auto (%s) differs from the cpu backend", active.c_str());
  for (GstBuffer *b : {out, ref, in})
    if (b) gst_buffer_unref(b);
  std::printf("auto without being told: %s%s\n", active.c_str(), warnings.empty() ? "" : ", warned");
}

// The pipeline must refuse to start, with an error naming the backend, the
// device and why.
static void expect_cuda_refused(int device) {
  const std::string caps = raw_caps("GRAY8", 16, 16);
  const std::string d = std::to_string(device);
  AppPipeline p("cudacdf53 backend=cuda device-id=" + d, caps);
  const GstStateChangeReturn r = gst_element_set_state(p.pipeline, GST_STATE_PLAYING);
  GstBus *bus = gst_element_get_bus(p.pipeline);
  const std::string err = pop_errors(bus);
  gst_object_unref(bus);
  CHECK_MSG(r == GST_STATE_CHANGE_FAILURE, "backend=cuda device-id=%d started", device);
  CHECK_MSG(contains(err, "backend=cuda") && contains(err, ("CUDA device " + d).c_str()) && contains(err, "not usable"),
            "device-id=%d: unclear error '%s'", device, err.c_str());
  std::printf("backend=cuda device-id=%d: %s", device, err.c_str());
}

static void test_cuda_unusable() {
  expect_cuda_refused(99);
  if (!have_gpu()) expect_cuda_refused(0);
}

// CFT_QUICK=1 (compute-sanitizer runs): 20 cycles.
static void test_restart_100_times() {
  const int cycles = std::getenv("CFT_QUICK") ? 20 : 100, warm = cycles / 10;
  const std::string caps = raw_caps("I420", 64, 48);
  GstBuffer *in = random_frame(video_info("I420", 64, 48), 9, Padding::Zero);
  AppPipeline p("cudacdf53 levels=2 ! cudainverse", caps);
  long long rss10 = 0, gpu10 = 0;
  int fds10 = 0;
  bool all_ok = true;
  for (int cycle = 1; cycle <= cycles && all_ok; ++cycle) {
    if (gst_element_set_state(p.pipeline, GST_STATE_PLAYING) == GST_STATE_CHANGE_FAILURE) {
      CHECK_MSG(false, "cycle %d: cannot start", cycle);
      break;
    }
    std::string why;
    GstBuffer *out = p.process(in, &why);
    all_ok = out && compare_buffers(video_info("I420", 64, 48), in, out).empty();
    CHECK_MSG(all_ok, "cycle %d: the round trip failed %s", cycle, why.c_str());
    if (out) gst_buffer_unref(out);
    gst_element_set_state(p.pipeline, GST_STATE_NULL);
    if (cycle == warm) rss10 = cft::rss_bytes(), fds10 = cft::open_fds(), gpu10 = cft::gpu_used_bytes();
  }
  const long long rss = cft::rss_bytes(), gpu = cft::gpu_used_bytes();
  const int fds = cft::open_fds();
  std::printf("%d restarts: after %d and at the end: open fds %d -> %d, RSS %.1f -> %.1f MB, GPU memory in use %s\n",
              cycles, warm, fds10, fds, rss10 / 1e6, rss / 1e6,
              gpu10 < 0 ? "n/a (no GPU)"
                        : (std::to_string(gpu10 / 1000000) + " -> " + std::to_string(gpu / 1000000) + " MB").c_str());
  CHECK_MSG(fds == fds10, "file descriptors leak: %d after %d restarts, %d after %d", fds10, warm, fds, cycles);
#ifndef CF_ASAN  // ASan keeps freed memory in quarantine; it reports leaks itself
  CHECK_MSG(rss - rss10 < 8 * 1000 * 1000, "host memory grows: %.1f MB over %d restarts", (rss - rss10) / 1e6,
            cycles - warm);
#endif
  // GPU memory in use is device-wide: checked only when this program has the
  // GPU to itself (gpu-tests.sh runs it alone; compute-sanitizer runs, with
  // CFT_QUICK, share the GPU and only print it).
  if (gpu10 >= 0 && !std::getenv("CFT_QUICK"))
    CHECK_MSG(gpu - gpu10 < 16 * 1000 * 1000, "GPU memory grows: %.1f MB over %d restarts", (gpu - gpu10) / 1e6,
              cycles - warm);
  gst_buffer_unref(in);
}

// Two pipelines with `element` (different properties and frames) at once.
static void test_two_pipelines_at_once(const char *element, const char *props_a, const char *props_b) {
  const int w = 96, h = 64, frames = 12;
  const std::string caps = raw_caps("I420", w, h);
  struct Run {
    std::string props;
    std::vector<GstBuffer *> in, ref;
    int matches = 0;
    std::string failure;
  } runs[2];
  runs[0].props = props_a;
  runs[1].props = props_b;
  for (int r = 0; r < 2; ++r)
    for (int i = 0; i < frames; ++i) {
      runs[r].in.push_back(random_frame(video_info("I420", w, h), 100 * r + i));
      runs[r].ref.push_back(
          reference_output(std::string(element) + " backend=cpu " + runs[r].props, caps, runs[r].in.back()));
    }
  auto work = [&](Run &run) {
    AppPipeline p(std::string(element) + " " + run.props, caps);
    gst_element_set_state(p.pipeline, GST_STATE_PLAYING);
    for (int i = 0; i < frames; ++i) {
      std::string why;
      GstBuffer *out = p.process(run.in[i], &why);
      if (out && run.ref[i] && same_bytes(out, run.ref[i]))
        ++run.matches;
      else if (run.failure.empty())
        run.failure = "frame " + std::to_string(i) + ": " + (out ? "differs from the cpu backend" : why);
      if (out) gst_buffer_unref(out);
    }
  };
  std::thread t0(work, std::ref(runs[0])), t1(work, std::ref(runs[1]));
  t0.join();
  t1.join();
  for (Run &run : runs) {
    CHECK_MSG(run.matches == frames, "%s %s, two pipelines at once: %d/%d frames right; %s", element, run.props.c_str(),
              run.matches, frames, run.failure.c_str());
    for (GstBuffer *b : run.in) gst_buffer_unref(b);
    for (GstBuffer *b : run.ref)
      if (b) gst_buffer_unref(b);
  }
  std::printf("%s twice at once (%s | %s): %d + %d frames equal to the cpu backend\n", element, props_a, props_b,
              runs[0].matches, runs[1].matches);
}

// Sequential changes: each frame equals the reference for the properties
// set before it.
static void test_changes_apply_next_frame(const char *element, const std::vector<std::string> &settings) {
  const std::string caps = raw_caps("I420", 40, 30);
  GstElement *e = gst_element_factory_make(element, nullptr);
  Harness hx(e);
  CHECK(hx.set_caps(caps.c_str()));
  int frame = 0;
  for (const std::string &setting : settings) {
    gst_util_set_object_arg(G_OBJECT(e), setting.substr(0, setting.find('=')).c_str(),
                            setting.substr(setting.find('=') + 1).c_str());
    GstBuffer *in = random_frame(video_info("I420", 40, 30), 40 + frame++);
    CHECK(hx.push(gst_buffer_ref(in)) == GST_FLOW_OK);
    GstBuffer *out = hx.pull();
    // The reference gets every setting so far.
    std::string props;
    for (const std::string &s : settings) {
      props += " " + s;
      if (&s == &setting) break;
    }
    GstBuffer *ref = reference_output(std::string(element) + " backend=cpu" + props, caps, in);
    CHECK_MSG(out && ref && same_bytes(out, ref), "%s: after %s the frame is not the reference's", element,
              setting.c_str());
    for (GstBuffer *b : {out, ref, in})
      if (b) gst_buffer_unref(b);
  }
  std::printf("%s: %zu property changes while playing, each applied at the next frame\n", element, settings.size());
}

// A thread flips two properties while frames go through: every frame must
// equal one of the four combinations' references.
static void test_no_torn_frames() {
  const int w = 160, h = 120, frames = 30;
  const std::string caps = raw_caps("GRAY8", w, h);
  GstBuffer *in = random_frame(video_info("GRAY8", w, h), 77);
  const char *methods[2] = {"floyd-steinberg", "stucki"};
  const int levels[2] = {2, 4};
  GstBuffer *refs[4];
  for (int k = 0; k < 4; ++k)
    refs[k] = reference_output(
        std::string("cudahalftone backend=cpu method=") + methods[k & 1] + " levels=" + std::to_string(levels[k >> 1]),
        caps, in);
  GstElement *e = gst_element_factory_make("cudahalftone", nullptr);
  Harness hx(e);
  CHECK(hx.set_caps(caps.c_str()));
  std::atomic<bool> stop{false};
  std::thread flipper([&] {
    for (unsigned i = 0; !stop; ++i) {
      gst_util_set_object_arg(G_OBJECT(e), "method", methods[i & 1]);
      g_object_set(e, "levels", levels[(i >> 1) & 1], nullptr);
      std::this_thread::yield();
    }
  });
  int matched[4] = {}, torn = 0;
  for (int f = 0; f < frames; ++f) {
    CHECK(hx.push(gst_buffer_ref(in)) == GST_FLOW_OK);
    GstBuffer *out = hx.pull();
    int which = -1;
    for (int k = 0; k < 4 && out; ++k)
      if (refs[k] && same_bytes(out, refs[k])) which = k;
    if (which < 0)
      ++torn;
    else
      ++matched[which];
    if (out) gst_buffer_unref(out);
  }
  stop = true;
  flipper.join();
  CHECK_MSG(torn == 0, "cudahalftone: %d of %d frames match no property combination (torn)", torn, frames);
  std::printf(
      "cudahalftone with properties flipping in another thread: %d frames, combinations seen %d/%d/%d/%d, "
      "torn %d\n",
      frames, matched[0], matched[1], matched[2], matched[3], torn);
  for (GstBuffer *b : refs)
    if (b) gst_buffer_unref(b);
  gst_buffer_unref(in);
}

int main(int argc, char **argv) {
  init(&argc, &argv);
  test_auto_fallback();
  test_cuda_unusable();
  test_restart_100_times();
  test_two_pipelines_at_once("cudahalftone", "method=floyd-steinberg", "method=jarvis-judice-ninke levels=3");
  test_two_pipelines_at_once("cudacdf53", "levels=3", "levels=1 layout=standard");
  test_changes_apply_next_frame("cudacdf53", {"levels=1", "levels=3", "layout=standard", "levels=2"});
  test_changes_apply_next_frame("cudahalftone",
                                {"method=stucki", "levels=3", "serpentine=false", "threshold=100", "method=burkes"});
  test_no_torn_frames();
  return cft::test_result();
}
