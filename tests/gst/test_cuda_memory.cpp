// Memory between elements:
//  (a) without a GPU: the pad templates advertise memory:CUDAMemory,
//      transform_caps keeps the input's memory, CUDA caps without a usable
//      device give a clear error, a CPU engine proposes no pinned pool, and
//      output buffers come from a pool (reused, not allocated per frame);
//  (b) with a GPU and nvcodec's cudaupload/cudadownload: round trips in CUDA
//      memory equal the input, coefficients in CUDA memory equal the
//      system-memory ones, the buffers between our elements are GstCudaMemory
//      of the one context both elements share, backend=cpu and cudaview read
//      CUDA memory, and device-id beyond the devices is a clear error;
//  (c) with a GPU: a CUDA engine proposes pinned buffers upstream and writes
//      its system-memory output into pinned buffers that are reused.
// Parts that need a GPU or nvcodec print SKIP and are left out.
#include <gst/app/gstappsink.h>
#include <gst/base/gstbasetransform.h>

#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#if CF_GST_CUDA
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#endif

#include "cudafilters/engine.hpp"
#include "gst_util.hpp"

using namespace cfgt;

static const char *const kCudaFeature = "memory:CUDAMemory";

// Frame sizes of the pipeline checks: one odd, one even. CFT_QUICK=tiny (the
// compute-sanitizer racecheck run) shrinks them to the smallest that still
// cross the kernels' tile edges.
static bool tiny_frames() {
  const char *q = std::getenv("CFT_QUICK");
  return q && std::string(q) == "tiny";
}
static const int kOddW = tiny_frames() ? 65 : 321, kOddH = tiny_frames() ? 49 : 241;
static const int kEvenW = tiny_frames() ? 64 : 320, kEvenH = tiny_frames() ? 48 : 240;
static const char *const kPinnedType = "CfPinnedMemory";

static bool has_cuda_feature(const GstCaps *caps, guint i) {
  GstCapsFeatures *f = gst_caps_get_features(caps, i);
  return f && gst_caps_features_contains(f, kCudaFeature);
}

// Every structure of `caps` in CUDA memory (cuda) or system memory (!cuda).
static bool all_in(const GstCaps *caps, bool cuda) {
  for (guint i = 0; i < gst_caps_get_size(caps); ++i)
    if (has_cuda_feature(caps, i) != cuda) return false;
  return true;
}

static bool template_has_cuda(GstElement *e, const char *pad) {
  GstPadTemplate *t = gst_element_class_get_pad_template(GST_ELEMENT_GET_CLASS(e), pad);
  GstCaps *caps = gst_pad_template_get_caps(t);
  bool found = false;
  for (guint i = 0; i < gst_caps_get_size(caps); ++i) found |= has_cuda_feature(caps, i);
  gst_caps_unref(caps);
  return found;
}

static GstCaps *transform(GstElement *e, GstPadDirection dir, const std::string &caps_string) {
  GstCaps *caps = gst_caps_from_string(caps_string.c_str());
  GstCaps *out = GST_BASE_TRANSFORM_GET_CLASS(e)->transform_caps(GST_BASE_TRANSFORM(e), dir, caps, nullptr);
  gst_caps_unref(caps);
  return out;
}

static std::string cuda_caps(const std::string &system_caps) {
  const std::size_t comma = system_caps.find(',');
  return system_caps.substr(0, comma) + "(" + kCudaFeature + ")" + system_caps.substr(comma);
}

// ---------------------------------------------------------------------------
// (a) without a GPU

static void test_templates() {
  const bool built = CF_GST_CUDA;
  if (!built) std::printf("note: built without CUDA-memory support: templates must not offer it\n");
  for (const char *name : {"cudahaar", "cudacdf53", "cudainverse", "cudaview", "cudamed", "cudagap", "cudaged",
                           "cudarct", "cudaycocg", "cudaentropy", "cudahough", "cudadct", "cudacdf97"}) {
    GstElement *e = gst_element_factory_make(name, nullptr);
    CHECK_MSG(template_has_cuda(e, "sink") == built, "%s sink template", name);
    // cudaview writes GRAY8, which GStreamer 1.22 cannot allocate in CUDA memory.
    const bool src = built && std::strcmp(name, "cudaview") != 0;
    CHECK_MSG(template_has_cuda(e, "src") == src, "%s src template", name);
    gst_object_unref(e);
  }
}

// cudahough: overlay keeps the memory; edges and accumulator (GRAY8) come out
// in system memory from either memory, and back take either memory.
static void test_hough_caps() {
  if (!CF_GST_CUDA) return;
  GstElement *e = gst_element_factory_make("cudahough", nullptr);
  const std::string in = cuda_caps(raw_caps("NV12", 64, 48));
  GstCaps *overlay = transform(e, GST_PAD_SINK, in);
  CHECK_MSG(!gst_caps_is_empty(overlay) && all_in(overlay, true), "overlay %s -> %s", in.c_str(),
            caps_string(overlay).c_str());
  for (const char *output : {"edges", "accumulator"}) {
    gst_util_set_object_arg(G_OBJECT(e), "output", output);
    GstCaps *gray = transform(e, GST_PAD_SINK, in);
    GstStructure *s0 = gst_caps_is_empty(gray) ? nullptr : gst_caps_get_structure(gray, 0);
    CHECK_MSG(s0 && all_in(gray, false) && !g_strcmp0(gst_structure_get_string(s0, "format"), "GRAY8"), "%s: %s -> %s",
              output, in.c_str(), caps_string(gray).c_str());
    GstCaps *back = transform(e, GST_PAD_SRC, raw_caps("GRAY8", 64, 48));
    CHECK_MSG(!all_in(back, false) && !all_in(back, true), "%s: GRAY8 -> %s (both memories expected)", output,
              caps_string(back).c_str());
    GstCaps *none = transform(e, GST_PAD_SRC, cuda_caps(raw_caps("RGBA", 64, 48)));
    CHECK_MSG(gst_caps_is_empty(none), "%s: CUDA output -> %s", output, caps_string(none).c_str());
    for (GstCaps *c : {gray, back, none}) gst_caps_unref(c);
  }
  gst_caps_unref(overlay);
  gst_object_unref(e);
}

static void test_transform_caps() {
  const std::string raw = raw_caps("I420", 64, 48);
  for (const char *name : {"cudahaar", "cudacdf53", "cudamed", "cudaged", "cudacdf97"}) {
    GstElement *e = gst_element_factory_make(name, nullptr);
    for (bool cuda : {false, true}) {
      if (cuda && !CF_GST_CUDA) continue;
      const std::string in = cuda ? cuda_caps(raw) : raw;
      GstCaps *coeff = transform(e, GST_PAD_SINK, in);
      CHECK_MSG(!gst_caps_is_empty(coeff) && all_in(coeff, cuda), "%s %s -> %s", name, in.c_str(),
                caps_string(coeff).c_str());
      GstCaps *back = transform(e, GST_PAD_SRC, caps_string(coeff));
      CHECK_MSG(!gst_caps_is_empty(back) && all_in(back, cuda), "%s %s -> %s", name, caps_string(coeff).c_str(),
                caps_string(back).c_str());
      // cudainverse: the coefficients back to raw, in the same memory.
      GstElement *inv = gst_element_factory_make("cudainverse", nullptr);
      GstCaps *rebuilt = transform(inv, GST_PAD_SINK, caps_string(coeff));
      CHECK_MSG(!gst_caps_is_empty(rebuilt) && all_in(rebuilt, cuda), "cudainverse %s -> %s",
                caps_string(coeff).c_str(), caps_string(rebuilt).c_str());
      GstCaps *up = transform(inv, GST_PAD_SRC, in);
      CHECK_MSG(!gst_caps_is_empty(up) && all_in(up, cuda), "cudainverse %s -> %s", in.c_str(),
                caps_string(up).c_str());
      // cudaview reads either memory and writes system-memory GRAY8.
      GstElement *view = gst_element_factory_make("cudaview", nullptr);
      GstCaps *gray = transform(view, GST_PAD_SINK, caps_string(coeff));
      CHECK_MSG(!gst_caps_is_empty(gray) && all_in(gray, false), "cudaview %s -> %s", caps_string(coeff).c_str(),
                caps_string(gray).c_str());
      for (GstCaps *c : {coeff, back, rebuilt, up, gray}) gst_caps_unref(c);
      gst_object_unref(inv);
      gst_object_unref(view);
    }
    if (CF_GST_CUDA) {
      // Formats GstCudaMemory cannot hold in GStreamer 1.22 are not offered.
      GstCaps *none = transform(e, GST_PAD_SINK, cuda_caps(raw_caps("GRAY8", 64, 48)));
      CHECK_MSG(gst_caps_is_empty(none), "%s: GRAY8 in CUDA memory -> %s", name, caps_string(none).c_str());
      gst_caps_unref(none);
    }
    gst_object_unref(e);
  }
}

// Without a usable device, CUDA caps are refused with a message naming the
// device-id (only checkable where there is no GPU).
static void test_cuda_caps_without_device() {
  if (!CF_GST_CUDA || cf::cuda_device_usable(0)) return;
  Harness hx("cudacdf53");
  const bool ok = hx.set_caps(cuda_caps(raw_caps("RGBA", 16, 8)).c_str());
  const std::string errors = hx.errors();
  CHECK_MSG(!ok, "CUDA caps accepted without a device");
  CHECK_MSG(contains(errors, "memory:CUDAMemory needs a CUDA context on device-id=0"), "errors: %s", errors.c_str());
}

// Asks the element (through the harness) for an allocation proposal.
static GstQuery *allocation_query(Harness &hx, const std::string &caps_string) {
  GstCaps *caps = gst_caps_from_string(caps_string.c_str());
  GstQuery *q = gst_query_new_allocation(caps, TRUE);
  gst_caps_unref(caps);
  gst_pad_peer_query(hx.h->srcpad, q);
  return q;
}

// The memory's allocator type; "" when it has none.
static std::string allocator_type(GstMemory *mem) {
  return mem && mem->allocator && mem->allocator->mem_type ? mem->allocator->mem_type : "";
}

static bool pinned(GstMemory *mem) { return allocator_type(mem) == kPinnedType; }

// "<allocator type> memory <address>, <size> bytes", for failure messages.
static std::string memory_label(GstMemory *mem) {
  if (!mem) return "no memory";
  const std::string type = allocator_type(mem);
  char s[160];
  std::snprintf(s, sizeof s, "%s memory %p, %zu bytes", type.empty() ? "(no allocator)" : type.c_str(),
                static_cast<void *>(mem), mem->size);
  return s;
}

// Why memory that should be pinned is not: the pinned allocator falls back
// to system memory when page-locked memory cannot be had (cudaHostAlloc
// fails, e.g. when other processes hold much of it), which this tells apart
// from a pool that never asked the pinned allocator.
static std::string why_not_pinned() {
  void *p = cf::pinned_alloc(1 << 20, 0);
  if (!p) return "cf::pinned_alloc of 1 MB fails now too: page-locked memory is short";
  cf::pinned_free(p);
  return "cf::pinned_alloc of 1 MB works now: the pool did not allocate through the pinned allocator";
}

// Pushes `frames` frames, pulling and dropping each output before the next:
// every output must reuse the first one's memory (a pool, not an allocation
// per frame). Returns that memory's allocator type ("" when nothing came).
// The harness runs the elements in this thread, so each output is back in
// its pool before the next frame is pushed: nothing here depends on timing.
static std::string push_and_check_reuse(Harness &hx, const GstVideoInfo &info, int frames, const char *what) {
  GstMemory *first = nullptr;
  std::string type, first_label;
  for (int i = 0; i < frames; ++i) {
    CHECK_MSG(hx.push(random_frame(info, 7 + i)) == GST_FLOW_OK, "%s: frame %d: %s", what, i, hx.errors().c_str());
    GstBuffer *out = hx.pull();
    CHECK_MSG(out != nullptr, "%s: frame %d: no output; errors: %s", what, i, hx.errors().c_str());
    if (!out) break;
    GstMemory *mem = gst_buffer_peek_memory(out, 0);
    if (i == 0) {
      first = mem;
      first_label = memory_label(mem);
      type = allocator_type(mem);
    } else {
      CHECK_MSG(mem == first, "%s: frame %d got %s, frame 0 had %s (not from the same pool buffer)", what, i,
                memory_label(mem).c_str(), first_label.c_str());
    }
    gst_buffer_unref(out);
  }
  return type;
}

static void test_system_pools() {
  const GstVideoInfo info = video_info("I420", 33, 17);
  Harness hx("cudacdf53 backend=cpu ! cudainverse backend=cpu");
  CHECK(hx.set_caps(raw_caps("I420", 33, 17).c_str()));
  const std::string type = push_and_check_reuse(hx, info, 4, "cpu backend");
  CHECK_MSG(type != kPinnedType, "cpu backend output is pinned");
  GstQuery *q = allocation_query(hx, raw_caps("I420", 33, 17));
  CHECK_MSG(gst_query_get_n_allocation_pools(q) == 0, "a CPU engine proposes a pool");
  gst_query_unref(q);
}

// ---------------------------------------------------------------------------
// (b) pipelines with cudaupload/cudadownload

static std::vector<GstSample *> pull_all(GstElement *pipeline, const char *name) {
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipeline), name);
  std::vector<GstSample *> v;
  while (GstSample *s = gst_app_sink_try_pull_sample(GST_APP_SINK(sink), 0)) v.push_back(s);
  gst_object_unref(sink);
  return v;
}

static void unref_all(std::vector<GstSample *> &v) {
  for (GstSample *s : v) gst_sample_unref(s);
  v.clear();
}

static void stop(GstElement *pipeline) {
  gst_element_set_state(pipeline, GST_STATE_NULL);
  gst_object_unref(pipeline);
}

// Frames of two appsinks equal, one by one.
static void compare_video(GstElement *pipeline, const std::string &what, int expected) {
  std::vector<GstSample *> a = pull_all(pipeline, "a"), b = pull_all(pipeline, "b");
  CHECK_MSG(int(a.size()) == expected && a.size() == b.size(), "%s: %zu and %zu frames, expected %d", what.c_str(),
            a.size(), b.size(), expected);
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    GstVideoInfo info;
    CHECK(gst_video_info_from_caps(&info, gst_sample_get_caps(a[i])));
    const std::string diff = compare_frames(info, gst_sample_get_buffer(a[i]), gst_sample_get_buffer(b[i]));
    CHECK_MSG(diff.empty(), "%s frame %zu: %s", what.c_str(), i, diff.c_str());
  }
  unref_all(a);
  unref_all(b);
}

#if CF_GST_CUDA
// What a pad probe saw: buffers, how many were GstCudaMemory, their context.
struct MemoryProbe {
  int buffers = 0, cuda = 0;
  GstCudaContext *context = nullptr;  // of the first CUDA buffer (no ref: the pipeline keeps it)
};

static GstPadProbeReturn probe_memory(GstPad *, GstPadProbeInfo *info, gpointer data) {
  auto *p = static_cast<MemoryProbe *>(data);
  GstMemory *mem = gst_buffer_peek_memory(GST_PAD_PROBE_INFO_BUFFER(info), 0);
  ++p->buffers;
  if (gst_is_cuda_memory(mem)) {
    ++p->cuda;
    if (!p->context) p->context = GST_CUDA_MEMORY_CAST(mem)->context;
  }
  return GST_PAD_PROBE_OK;
}

static void add_probe(GstElement *pipeline, const char *element, MemoryProbe *probe) {
  GstElement *e = gst_bin_get_by_name(GST_BIN(pipeline), element);
  GstPad *pad = gst_element_get_static_pad(e, "src");
  gst_pad_add_probe(pad, GST_PAD_PROBE_TYPE_BUFFER, probe_memory, probe, nullptr);
  gst_object_unref(pad);
  gst_object_unref(e);
}

// The GstCudaContext an element answers a context query with (ref'd).
static GstCudaContext *element_context(GstElement *pipeline, const char *element) {
  GstElement *e = gst_bin_get_by_name(GST_BIN(pipeline), element);
  GstPad *pad = gst_element_get_static_pad(e, "src");
  GstQuery *q = gst_query_new_context(GST_CUDA_CONTEXT_TYPE);
  GstCudaContext *ctx = nullptr;
  if (gst_pad_query(pad, q)) {
    GstContext *c = nullptr;
    gst_query_parse_context(q, &c);
    if (c) gst_structure_get(gst_context_get_structure(c), GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &ctx, nullptr);
  }
  gst_query_unref(q);
  gst_object_unref(pad);
  gst_object_unref(e);
  return ctx;
}

static std::string source(const char *format, int w, int h, int frames) {
  return "videotestsrc num-buffers=" + std::to_string(frames) + " pattern=snow ! video/x-raw,format=" + format +
         ",width=" + std::to_string(w) + ",height=" + std::to_string(h) + ",framerate=25/1 ! tee name=t ";
}

// source -> appsink a; source -> cudaupload ! video/x-raw(memory:CUDAMemory) ! cudacdf53 ! cudainverse !
// cudadownload -> appsink b: bytes equal, CUDA memory between our elements,
// one context shared by them and the memory. (The video/x-raw capsfilter
// keeps cudadownload from passing CUDA memory through to the appsink.)
// `chain` names its last forward element enc; colour chains and cudaentropy
// in CUDA memory go the same way.
static void roundtrip(const char *format, int w, int h, const std::string &chain = "cudacdf53 levels=3 name=enc") {
  const int frames = 5;
  const std::string what = std::string(format) + " " + std::to_string(w) + "x" + std::to_string(h) + " " + chain;
  GstElement *p = launch(
      source(format, w, h, frames) +
      "t. ! queue ! appsink name=a sync=false wait-on-eos=false  t. ! queue ! cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! " +
      chain + " ! cudainverse name=inv ! cudadownload ! video/x-raw ! appsink name=b sync=false wait-on-eos=false");
  if (!p) return;
  MemoryProbe probe;
  add_probe(p, "enc", &probe);
  const std::string err = run(p, 20);
  CHECK_MSG(err.empty(), "%s: %s", what.c_str(), err.c_str());
  CHECK_MSG(probe.buffers == frames && probe.cuda == frames, "%s: %d of %d coefficient buffers in CUDA memory",
            what.c_str(), probe.cuda, probe.buffers);
  for (const char *name : {"enc", "inv"}) {
    GstElement *e = gst_bin_get_by_name(GST_BIN(p), name);
    CHECK_MSG(get_string_prop(e, "active-backend") == "cuda", "%s %s: backend %s", what.c_str(), name,
              get_string_prop(e, "active-backend").c_str());
    gst_object_unref(e);
  }
  GstCudaContext *enc = element_context(p, "enc"), *inv = element_context(p, "inv");
  CHECK_MSG(enc && enc == inv && enc == probe.context, "%s: contexts enc %p, inv %p, memory %p", what.c_str(),
            (void *)enc, (void *)inv, (void *)probe.context);
  if (enc) gst_object_unref(enc);
  if (inv) gst_object_unref(inv);
  compare_video(p, what + " through CUDA memory", frames);
  std::printf("%s: cudaupload ! video/x-raw(memory:CUDAMemory) ! <chain> ! cudainverse ! cudadownload checked\n",
              what.c_str());
  stop(p);
}

// cudahaar on CUDA memory gives the coefficients of cudahaar on system memory
// (read back through GstCudaMemory's host copy; the CUDA buffer may be longer
// than the frame: cuda_coeff_pool.h).
static void haar_coefficients(const char *format, int w, int h) {
  const std::string what = std::string("cudahaar ") + format + " " + std::to_string(w) + "x" + std::to_string(h);
  GstElement *p = launch(source(format, w, h, 3) +
                         "t. ! queue ! cudahaar levels=2 ! appsink name=a sync=false wait-on-eos=false  t. ! queue ! "
                         "cudaupload ! video/x-raw(memory:CUDAMemory) ! "
                         "cudahaar levels=2 ! appsink name=b sync=false wait-on-eos=false");
  if (!p) return;
  const std::string err = run(p, 20);
  CHECK_MSG(err.empty(), "%s: %s", what.c_str(), err.c_str());
  std::vector<GstSample *> a = pull_all(p, "a"), b = pull_all(p, "b");
  CHECK_MSG(a.size() == 3 && b.size() == 3, "%s: %zu and %zu buffers", what.c_str(), a.size(), b.size());
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    GstCaps *ca = gst_sample_get_caps(a[i]), *cb = gst_caps_copy(gst_sample_get_caps(b[i]));
    CHECK_MSG(has_cuda_feature(cb, 0), "%s: %s", what.c_str(), caps_string(cb).c_str());
    gst_caps_set_features(cb, 0, nullptr);
    CHECK_MSG(gst_caps_is_equal(ca, cb), "%s: caps %s vs %s", what.c_str(), caps_string(ca).c_str(),
              caps_string(cb).c_str());
    gst_caps_unref(cb);
    GstBuffer *ba = gst_sample_get_buffer(a[i]), *bb = gst_sample_get_buffer(b[i]);
    CHECK_MSG(gst_is_cuda_memory(gst_buffer_peek_memory(bb, 0)), "%s: not GstCudaMemory", what.c_str());
    GstMapInfo ma, mb;
    gst_buffer_map(ba, &ma, GST_MAP_READ);
    gst_buffer_map(bb, &mb, GST_MAP_READ);
    CHECK_MSG(mb.size >= ma.size && mb.size < ma.size + 4096, "%s: %zu vs %zu bytes", what.c_str(), mb.size, ma.size);
    CHECK_MSG(mb.size >= ma.size && !std::memcmp(ma.data, mb.data, ma.size), "%s frame %zu: coefficients differ",
              what.c_str(), i);
    gst_buffer_unmap(ba, &ma);
    gst_buffer_unmap(bb, &mb);
  }
  unref_all(a);
  unref_all(b);
  std::printf("%s: coefficients in CUDA memory equal the system-memory ones\n", what.c_str());
  stop(p);
}

// CPU engines on CUDA memory: a clear error (writing through GstCudaMemory's
// host copies is not supported); cudaview only reads and works.
static void cpu_backends_on_cuda_memory() {
  GstElement *p = launch(source("I420", kOddW, kOddH, 3) +
                         "t. ! queue ! appsink name=a sync=false wait-on-eos=false  t. ! queue ! cudaupload ! "
                         "video/x-raw(memory:CUDAMemory) ! cudacdf53 levels=2 "
                         "backend=cpu ! cudainverse backend=openmp ! cudadownload ! video/x-raw ! appsink name=b "
                         "sync=false wait-on-eos=false");
  if (!p) return;
  const std::string err = run(p, 20);
  CHECK_MSG(err.find("backend=cpu cannot process memory:CUDAMemory") != std::string::npos,
            "cpu backend on CUDA memory: expected a clear error, got '%s'", err.c_str());
  stop(p);

  // cudaview (CPU only) reads CUDA coefficients like system ones.
  p = launch(source("RGBA", 65, 33, 2) +
             "t. ! queue ! cudacdf53 levels=2 ! cudaview component=1 ! appsink name=a sync=false wait-on-eos=false  t. "
             "! queue ! "
             "cudaupload ! video/x-raw(memory:CUDAMemory) ! cudacdf53 levels=2 ! cudaview component=1 ! appsink name=b "
             "sync=false wait-on-eos=false");
  if (!p) return;
  const std::string err2 = run(p, 20);
  CHECK_MSG(err2.empty(), "cudaview on CUDA memory: %s", err2.c_str());
  compare_video(p, "cudaview on CUDA memory", 2);
  stop(p);
}

// The cudahough-lines structures of elements "ha" and "hb", in order.
struct LineMessages {
  std::mutex lock;
  std::vector<GstStructure *> a, b;
  ~LineMessages() {
    for (auto *v : {&a, &b})
      for (GstStructure *s : *v) gst_structure_free(s);
  }
};

static GstBusSyncReply collect_lines(GstBus *, GstMessage *m, gpointer data) {
  const GstStructure *s = gst_message_get_structure(m);
  if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ELEMENT && gst_structure_has_name(s, "cudahough-lines")) {
    auto *l = static_cast<LineMessages *>(data);
    std::lock_guard<std::mutex> g(l->lock);
    (!std::strcmp(GST_OBJECT_NAME(GST_MESSAGE_SRC(m)), "ha") ? l->a : l->b).push_back(gst_structure_copy(s));
  }
  return GST_BUS_PASS;
}

// cudahough on CUDA memory (backend cuda) gives what cudahough backend=cpu
// gives on system memory: the overlay byte for byte (it stays GstCudaMemory
// up to cudadownload), edges and accumulator as system-memory GRAY8, and the
// same cudahough-lines messages. SMPTE bars have long vertical edges.
static void hough_on_cuda_memory(const char *format, const std::string &props, bool overlay) {
  const int frames = 3;
  const std::string what = std::string("cudahough ") + props + " " + format;
  GstElement *p = launch("videotestsrc num-buffers=3 pattern=smpte ! video/x-raw,format=" + std::string(format) +
                         ",width=" + std::to_string(kOddW) + ",height=" + std::to_string(kOddH) +
                         ",framerate=25/1 ! tee name=t  t. ! queue ! cudahough name=ha backend=cpu " + props +
                         " ! appsink name=a sync=false wait-on-eos=false  t. ! queue ! cudaupload ! "
                         "video/x-raw(memory:CUDAMemory) ! cudahough name=hb backend=cuda " +
                         props + (overlay ? " ! cudadownload" : "") +
                         " ! video/x-raw ! appsink name=b sync=false wait-on-eos=false");
  if (!p) return;
  LineMessages lines;
  GstBus *bus = gst_element_get_bus(p);
  gst_bus_set_sync_handler(bus, collect_lines, &lines, nullptr);
  MemoryProbe probe;
  add_probe(p, "hb", &probe);
  const std::string err = run(p, 30);
  CHECK_MSG(err.empty(), "%s: %s", what.c_str(), err.c_str());
  CHECK_MSG(probe.buffers == frames && probe.cuda == (overlay ? frames : 0), "%s: %d of %d outputs in CUDA memory",
            what.c_str(), probe.cuda, probe.buffers);
  compare_video(p, what + " on CUDA memory vs system memory", frames);
  stop(p);
  gst_bus_set_sync_handler(bus, nullptr, nullptr, nullptr);
  gst_object_unref(bus);
  CHECK_MSG(lines.a.size() == frames && lines.b.size() == frames, "%s: %zu and %zu line messages", what.c_str(),
            lines.a.size(), lines.b.size());
  int found = 0;
  for (std::size_t i = 0; i < lines.a.size() && i < lines.b.size(); ++i) {
    CHECK_MSG(gst_structure_is_equal(lines.a[i], lines.b[i]), "%s frame %zu: messages differ:\n%s\n%s", what.c_str(), i,
              gst_structure_to_string(lines.a[i]), gst_structure_to_string(lines.b[i]));
    int count = 0;
    gst_structure_get_int(lines.a[i], "count", &count);
    found += count;
  }
  CHECK_MSG(found > 0, "%s: no lines found (the comparison would show nothing)", what.c_str());
  std::printf("%s: CUDA memory equals system memory (%d lines in %d frames)\n", what.c_str(), found, frames);
}

static void hough_bad_backend() {
  for (const char *backend : {"cpu", "openmp"}) {
    GstElement *p = launch(std::string("videotestsrc num-buffers=2 ! video/x-raw,format=RGBA,width=64,height=48 ! "
                                       "cudaupload ! video/x-raw(memory:CUDAMemory) ! cudahough backend=") +
                           backend + " ! cudadownload ! fakesink");
    if (!p) return;
    const std::string err = run(p, 20);
    CHECK_MSG(contains(err, (std::string("backend=") + backend + " cannot process memory:CUDAMemory").c_str()),
              "cudahough backend=%s on CUDA memory: error '%s'", backend, err.c_str());
    stop(p);
  }
}

static void device_id_beyond_devices() {
  GstElement *p = launch(
      "videotestsrc num-buffers=2 ! video/x-raw,format=RGBA,width=64,height=48 ! cudaupload ! "
      "video/x-raw(memory:CUDAMemory) ! cudacdf53 "
      "device-id=99 ! cudainverse ! cudadownload ! fakesink");
  if (!p) return;
  const std::string err = run(p, 20);
  CHECK_MSG(contains(err, "device-id=99"), "device-id=99: error '%s'", err.c_str());
  std::printf("device-id=99: %s\n", err.substr(0, err.find(" | ")).c_str());
  stop(p);
}
#endif

static void test_cuda_pipelines() {
#if CF_GST_CUDA
  if (!have_elements({"videotestsrc", "tee", "queue", "appsink", "fakesink", "cudaupload", "cudadownload"},
                     "nvcodec needs a GPU and its driver"))
    return;
  // GRAY8 is left out: GStreamer 1.22 has no GRAY8 in CUDA memory.
  for (const char *format : {"I420", "NV12", "RGBA", "BGR", "Y444"})
    for (const auto &size : {std::pair<int, int>{kEvenW, kEvenH}, {kOddW, kOddH}})
      roundtrip(format, size.first, size.second);
  for (const char *element : {"cudamed name=enc", "cudagap slice-height=64 name=enc",
                              "cudaged threshold=20 slice-height=7 name=enc", "cudagap host-wait=false name=enc"})
    for (const char *format : {"I420", "RGBA", "NV12"}) roundtrip(format, kOddW, kOddH, element);
  // The deepest 5/3 the odd size allows (8 levels at 321x241, 7 at tiny sizes).
  const std::string deep =
      std::string("cudarct ! cudacdf53 levels=") + (tiny_frames() ? "7" : "8") + " layout=standard name=enc";
  for (const char *format : {"RGBA", "BGR"})
    for (const char *chain :
         {"cudaycocg name=enc ! cudaentropy", "cudaycocg ! cudacdf53 levels=3 name=enc ! cudaentropy",
          "cudarct ! cudahaar levels=2 name=enc", deep.c_str(), "cudarct ! cudamed name=enc",
          "cudaycocg ! cudagap slice-height=16 name=enc ! cudaentropy", "cudarct ! cudaged name=enc",
          "cudarct ! cudacdf97 levels=4 name=enc", "cudaycocg host-wait=false ! cudaged host-wait=false name=enc",
          "cudaycocg ! cudacdf97 levels=2 layout=standard name=enc ! queue"})
      roundtrip(format, kOddW, kOddH, chain);
  // cdf97 unquantised (F32LE in CUDA memory) rounds back exactly.
  for (const char *format : {"I420", "RGBA", "NV12"}) roundtrip(format, kOddW, kOddH, "cudacdf97 levels=3 name=enc");
  haar_coefficients("I420", kOddW, kOddH);
  haar_coefficients("RGBA", kEvenW, kEvenH);
  cpu_backends_on_cuda_memory();
  for (const char *format : {"RGBA", "I420", "NV12"}) {
    hough_on_cuda_memory(format, "thickness=3 color=0x20ff40", true);
    hough_on_cuda_memory(format, "", true);
    hough_on_cuda_memory(format, "output=edges", false);
    hough_on_cuda_memory(format, "output=accumulator", false);
  }
  hough_bad_backend();
  device_id_beyond_devices();
#else
  std::printf("SKIP: built without CUDA-memory support (gstreamer-cuda-1.0)\n");
#endif
}

// ---------------------------------------------------------------------------
// (c) pinned pools of a CUDA engine

static void test_pinned_pools() {
  // cudacdf53 proposes pinned buffers upstream.
  {
    Harness hx("cudacdf53 backend=cuda");
    const std::string caps = raw_caps("I420", 64, 48);
    CHECK_MSG(hx.set_caps(caps.c_str()), "%s", hx.errors().c_str());
    GstQuery *q = allocation_query(hx, caps);
    CHECK_MSG(gst_query_get_n_allocation_pools(q) >= 1, "no pool proposed");
    if (gst_query_get_n_allocation_pools(q) >= 1) {
      GstBufferPool *pool = nullptr;
      guint size = 0;
      gst_query_parse_nth_allocation_pool(q, 0, &pool, &size, nullptr, nullptr);
      CHECK(pool && gst_buffer_pool_set_active(pool, TRUE));
      GstBuffer *buf = nullptr;
      if (pool && gst_buffer_pool_acquire_buffer(pool, &buf, nullptr) == GST_FLOW_OK) {
        CHECK_MSG(pinned(gst_buffer_peek_memory(buf, 0)), "proposed pool gives %s (%s)",
                  memory_label(gst_buffer_peek_memory(buf, 0)).c_str(), why_not_pinned().c_str());
        gst_buffer_unref(buf);
      } else {
        CHECK_MSG(false, "cannot acquire from the proposed pool");
      }
      if (pool) {
        gst_buffer_pool_set_active(pool, FALSE);
        gst_object_unref(pool);
      }
    }
    GstAllocator *allocator = nullptr;
    if (gst_query_get_n_allocation_params(q) > 0) gst_query_parse_nth_allocation_param(q, 0, &allocator, nullptr);
    CHECK_MSG(allocator && !g_strcmp0(allocator->mem_type, kPinnedType), "proposed allocator is not pinned");
    if (allocator) gst_object_unref(allocator);
    gst_query_unref(q);
  }
  // What an upstream element that honours the query allocates: GstHarness
  // negotiates when it creates its first buffer (gst_harness_get_allocator
  // alone returns nothing before that).
  // cudaentropy passes its buffers through: it offers pinned buffers where
  // downstream (here the harness, which proposes no pool) offers none.
  for (const char *name : {"cudacdf53", "cudaentropy"}) {
    GstElement *e = gst_element_factory_make(name, nullptr);
    gst_util_set_object_arg(G_OBJECT(e), "backend", "cuda");
    GstHarness *h = gst_harness_new_with_element(e, "sink", "src");
    gst_harness_set_src_caps_str(h, raw_caps("GRAY8", 64, 48).c_str());
    GstBuffer *buf = gst_harness_create_buffer(h, 64 * 48);
    CHECK_MSG(buf && pinned(gst_buffer_peek_memory(buf, 0)), "%s: upstream buffer: %s, not pinned (%s)", name,
              buf ? memory_label(gst_buffer_peek_memory(buf, 0)).c_str() : "none", why_not_pinned().c_str());
    if (buf) gst_buffer_unref(buf);
    gst_harness_teardown(h);
  }
  // Both elements write their system-memory outputs into reused pinned buffers.
  for (const char *desc : {"cudacdf53 backend=cuda", "cudacdf53 backend=cuda ! cudainverse backend=cuda"}) {
    Harness hx(desc);
    CHECK_MSG(hx.set_caps(raw_caps("RGBA", 321, 241).c_str()), "%s: %s", desc, hx.errors().c_str());
    const std::string type = push_and_check_reuse(hx, video_info("RGBA", 321, 241), 4, desc);
    CHECK_MSG(type == kPinnedType, "%s: output memory is %s, not pinned (%s)", desc, type.c_str(),
              why_not_pinned().c_str());
  }
  std::printf("pinned pools: proposed upstream and used for outputs, reused across frames\n");
}

int main(int argc, char **argv) {
  init(&argc, &argv);
  test_templates();
  test_transform_caps();
  test_hough_caps();
  test_cuda_caps_without_device();
  test_system_pools();

  std::string why;
  if (!cf::cuda_device_usable(0, &why)) {
    std::printf("SKIP: GPU parts (b) and (c): no usable CUDA device (%s)\n", why.c_str());
  } else {
    test_cuda_pipelines();
    test_pinned_pools();
  }
  return cft::test_result();
}
