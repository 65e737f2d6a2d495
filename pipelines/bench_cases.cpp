#include "bench_cases.hpp"

#define GST_USE_UNSTABLE_API
#include <gst/check/gstharness.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/video/video.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>

#include "cudafilters/error.hpp"
#include "cudafilters/colour.hpp"
#include "cudafilters/entropy.hpp"
#include "cudafilters/wavelet.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Runs `frame(i)` until `seconds` have passed (at least 3 times) after two
// warm-up calls; fills fps/ms/frames.
template <class Frame>
void timed_loop(BenchResult &r, double seconds, Frame &&frame) {
  if (!frame(0) || !frame(1)) {
    if (r.note.empty()) r.note = "error";
    return;
  }
  const auto start = Clock::now();
  double elapsed = 0;
  while (elapsed < seconds || r.frames < 3) {
    if (!frame(r.frames)) {
      if (r.note.empty()) r.note = "error";
      return;
    }
    ++r.frames;
    elapsed = seconds_since(start);
  }
  r.fps = r.frames / elapsed;
  r.ms = 1000.0 * elapsed / r.frames;
  r.gbps = double(r.in_bytes + r.out_bytes) * r.fps / 1e9;
}

// 1.22 asserts in gst_cuda_context_new unless the CUDA library was loaded first.
GstCudaContext *shared_cuda_context() {
  static GstCudaContext *ctx = gst_cuda_load_library() ? gst_cuda_context_new(0) : nullptr;
  return ctx;
}

// A copy of system-memory `frame` in a GstCudaMemory buffer of the shared context.
GstBuffer *upload_frame(GstBuffer *frame, const GstVideoInfo &info, GstBufferPool *pool) {
  GstBuffer *out = nullptr;
  if (gst_buffer_pool_acquire_buffer(pool, &out, nullptr) != GST_FLOW_OK) return nullptr;
  GstVideoFrame src, dst;
  gst_video_frame_map(&src, &info, frame, GST_MAP_READ);
  gst_video_frame_map(&dst, &info, out, GST_MAP_WRITE);
  gst_video_frame_copy(&dst, &src);
  gst_video_frame_unmap(&dst);
  gst_video_frame_unmap(&src);
  return out;
}

std::string bus_error(GstElement *element) {
  std::string text = "error";
  if (GstMessage *m = gst_bus_pop_filtered(GST_ELEMENT_BUS(element), GST_MESSAGE_ERROR)) {
    GError *e = nullptr;
    gst_message_parse_error(m, &e, nullptr);
    text = e->message;
    g_error_free(e);
    gst_message_unref(m);
  }
  return text;
}

std::string raw_caps(const BenchCase &c, bool cuda) {
  return std::string("video/x-raw") + (cuda ? "(memory:CUDAMemory)" : "") + ",format=" + c.format +
         ",width=" + std::to_string(c.width) + ",height=" + std::to_string(c.height) + ",framerate=30/1";
}

}  // namespace

GstBuffer *bench_load_frame(const std::string &image, const std::string &format, int w, int h) {
  const std::string desc = "filesrc location=\"" + image +
                           "\" ! decodebin ! videoconvert ! videoscale ! video/x-raw,format=" + format +
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

BenchResult bench_element(const BenchCase &c, GstBuffer *frame, double seconds) {
  BenchResult r;
  const bool cuda = c.memory == "cuda";
  // GStreamer 1.22's CUDA allocator aborts on formats it does not know.
  static const std::string kCudaFormats = " RGB BGR RGBA BGRA I420 NV12 Y444 ";
  if (cuda && kCudaFormats.find(" " + c.format + " ") == std::string::npos) {
    r.note = c.format + " has no GstCudaMemory layout in GStreamer 1.22";
    return r;
  }
  GstElement *element = gst_element_factory_make(c.element.c_str(), nullptr);
  if (!element) {
    r.note = "element not found";
    return r;
  }
  gst_util_set_object_arg(G_OBJECT(element), "backend", c.backend.c_str());
  if (g_object_class_find_property(G_OBJECT_GET_CLASS(element), "levels"))
    g_object_set(element, "levels", c.levels, nullptr);
  const bool passthrough = c.element == "cudaentropy";  // reads its input; nothing is written
  GstCaps *caps = gst_caps_from_string(raw_caps(c, cuda).c_str());
  GstVideoInfo info;
  gst_video_info_from_caps(&info, caps);
  GstBufferPool *pool = nullptr;
  GstBuffer *inputs[2] = {nullptr, nullptr};
  if (cuda) {
    GstCudaContext *ctx = shared_cuda_context();
    if (!ctx) {
      r.note = "no GstCudaContext";
      gst_caps_unref(caps);
      gst_object_unref(element);
      return r;
    }
    GstContext *context = gst_context_new_cuda_context(ctx);
    gst_element_set_context(element, context);
    gst_context_unref(context);
    pool = gst_cuda_buffer_pool_new(ctx);
    GstStructure *config = gst_buffer_pool_get_config(pool);
    gst_buffer_pool_config_set_params(config, caps, info.size, 2, 2);
    gst_buffer_pool_set_config(pool, config);
    gst_buffer_pool_set_active(pool, TRUE);
    for (auto &b : inputs) b = upload_frame(frame, info, pool);
  }
  GstHarness *h = gst_harness_new_with_element(element, "sink", "src");
  gst_harness_set_src_caps(h, caps);  // takes the caps; runs the allocation query
  if (!cuda) {
    // Input buffers from the allocator the element proposed (pinned memory
    // for backend=cuda), as an upstream element that honours the query would.
    GstAllocator *allocator = nullptr;
    GstAllocationParams params;
    gst_harness_get_allocator(h, &allocator, &params);
    for (auto &b : inputs) {
      b = gst_buffer_new_allocate(allocator, gst_buffer_get_size(frame), allocator ? &params : nullptr);
      GstMapInfo map;
      gst_buffer_map(b, &map, GST_MAP_WRITE);
      gst_buffer_extract(frame, 0, map.data, map.size);
      gst_buffer_unmap(b, &map);
    }
    if (allocator) gst_object_unref(allocator);
  }
  r.in_bytes = gst_buffer_get_size(frame);
  timed_loop(r, seconds, [&](int i) {
    if (!inputs[i & 1] || gst_harness_push(h, gst_buffer_ref(inputs[i & 1])) != GST_FLOW_OK) return false;
    GstBuffer *out = gst_harness_try_pull(h);
    if (!out) return false;
    if (cuda && !gst_is_cuda_memory(gst_buffer_peek_memory(out, 0))) r.note = "output not in CUDA memory";
    r.out_bytes = passthrough ? 0 : gst_buffer_get_size(out);
    gst_buffer_unref(out);
    return r.note.empty();
  });
  if (!r.note.empty() && r.note == "error") r.note = bus_error(h->element);
  for (auto &b : inputs)
    if (b) gst_buffer_unref(b);
  gst_harness_teardown(h);
  gst_object_unref(element);
  if (pool) {
    gst_buffer_pool_set_active(pool, FALSE);
    gst_object_unref(pool);
  }
  return r;
}

BenchResult bench_core(const BenchCase &c, GstBuffer *frame, double seconds) {
  BenchResult r;
  GstVideoInfo info;
  GstCaps *caps = gst_caps_from_string(raw_caps(c, false).c_str());
  gst_video_info_from_caps(&info, caps);
  gst_caps_unref(caps);
  try {
    cf::Engine engine(cf::Backend::Cuda);
    // The raw frame in device memory with the system buffer's layout.
    cf::FrameView raw;
    raw.type = GST_VIDEO_INFO_COMP_DEPTH(&info, 0) > 8 ? cf::SampleType::U16 : cf::SampleType::U8;
    raw.memory = cf::Memory::Device;
    r.in_bytes = gst_buffer_get_size(frame);
    void *in = engine.device_alloc(r.in_bytes);
    GstMapInfo map;
    gst_buffer_map(frame, &map, GST_MAP_READ);
    engine.upload(in, map.data, r.in_bytes);
    gst_buffer_unmap(frame, &map);
    raw.n_planes = GST_VIDEO_INFO_N_PLANES(&info);
    for (int p = 0; p < raw.n_planes; ++p) {
      const int comp = [&] {
        for (int k = 0; k < int(GST_VIDEO_INFO_N_COMPONENTS(&info)); ++k)
          if (int(GST_VIDEO_INFO_COMP_PLANE(&info, k)) == p) return k;
        return 0;
      }();
      raw.planes[p] = {static_cast<char *>(in) + GST_VIDEO_INFO_PLANE_OFFSET(&info, p),
                       GST_VIDEO_INFO_PLANE_STRIDE(&info, p),
                       GST_VIDEO_INFO_COMP_WIDTH(&info, comp) * GST_VIDEO_INFO_COMP_PSTRIDE(&info, comp),
                       GST_VIDEO_INFO_COMP_HEIGHT(&info, comp)};
    }
    raw.n_components = GST_VIDEO_INFO_N_COMPONENTS(&info);
    cf::PlanarLayout layout;
    layout.n = raw.n_components;
    for (int k = 0; k < raw.n_components; ++k) {
      const int sample = cf::sample_size(raw.type);
      raw.components[k] = {int(GST_VIDEO_INFO_COMP_PLANE(&info, k)), int(GST_VIDEO_INFO_COMP_POFFSET(&info, k)),
                           GST_VIDEO_INFO_COMP_PSTRIDE(&info, k) / sample, GST_VIDEO_INFO_COMP_WIDTH(&info, k),
                           GST_VIDEO_INFO_COMP_HEIGHT(&info, k)};
      layout.width[k] = raw.components[k].width;
      layout.height[k] = raw.components[k].height;
    }
    const cf::SampleType ct = cf::coefficient_type_for(raw.type);
    const bool entropy = c.element == "cudaentropy";
    r.out_bytes = entropy ? 0 : cf::planar_size(layout, ct);
    void *out = engine.device_alloc(cf::planar_size(layout, ct));
    const cf::FrameView coeffs = cf::planar_view(out, layout, ct, cf::Memory::Device);
    const cf::WaveletParams p{c.element == "cudahaar" ? cf::Wavelet::Haar : cf::Wavelet::Cdf53, c.levels,
                              cf::Layout::Mallat};
    std::vector<cf::Histogram> histograms;
    timed_loop(r, seconds, [&](int) {
      if (c.element == "cudarct" || c.element == "cudaycocg")
        cf::colour_forward(engine, c.element == "cudarct" ? cf::ColourTransform::Rct : cf::ColourTransform::YCoCg,
                           raw, coeffs);
      else if (entropy)
        cf::histograms(engine, raw, histograms);  // the histograms downloaded; the entropy is host arithmetic
      else
        cf::wavelet_forward(engine, p, raw, coeffs);
      return true;
    });
    engine.device_free(in);
    engine.device_free(out);
  } catch (const cf::Error &e) {
    r.note = e.what();
  }
  return r;
}

Ceilings bench_ceilings() {
  Ceilings c;
  try {
    cf::Engine engine(cf::Backend::Cuda);
    const std::size_t bytes = std::size_t(256) << 20;
    void *a = engine.device_alloc(bytes), *b = engine.device_alloc(bytes);
    void *host = cf::pinned_alloc(bytes);
    if (!host) throw cf::Error("no pinned memory");
    // Best of 5 rounds of 10 copies after warming up: the first copies of a
    // run also wake the GPU's clocks, which is not what the ceiling means.
    auto rate = [&](auto &&copy) {
      for (int i = 0; i < 5; ++i) copy();
      double best = 0;
      for (int round = 0; round < 5; ++round) {
        const int n = 10;
        const auto start = Clock::now();
        for (int i = 0; i < n; ++i) copy();
        best = std::max(best, double(bytes) * n / seconds_since(start) / 1e9);
      }
      return best;
    };
    c.d2d_gbps = 2 * rate([&] { engine.device_copy(b, a, bytes); });  // read + written
    c.h2d_gbps = rate([&] { engine.upload(a, host, bytes); });
    c.d2h_gbps = rate([&] { engine.download(host, a, bytes); });
    cf::pinned_free(host);
    engine.device_free(a);
    engine.device_free(b);
  } catch (const cf::Error &e) {
    c.note = e.what();
  }
  return c;
}

BenchResult bench_pipeline(const std::string &description) {
  BenchResult r;
  GError *err = nullptr;
  GstElement *pipe = gst_parse_launch(description.c_str(), &err);
  if (!pipe) {
    r.note = err ? err->message : "cannot build the pipeline";
    g_clear_error(&err);
    return r;
  }
  GstElement *sink = gst_bin_get_by_name(GST_BIN(pipe), "sink");
  g_object_set(sink, "signal-handoffs", TRUE, "sync", FALSE, nullptr);
  g_signal_connect(sink, "handoff", G_CALLBACK(+[](GstElement *, GstBuffer *, GstPad *, gpointer frames) {
                     ++*static_cast<int *>(frames);
                   }),
                   &r.frames);
  const auto start = Clock::now();
  gst_element_set_state(pipe, GST_STATE_PLAYING);
  GstMessage *m = gst_bus_timed_pop_filtered(GST_ELEMENT_BUS(pipe), 300 * GST_SECOND,
                                             GstMessageType(GST_MESSAGE_EOS | GST_MESSAGE_ERROR));
  const double elapsed = seconds_since(start);
  if (!m) {
    r.note = "timed out";
  } else if (GST_MESSAGE_TYPE(m) == GST_MESSAGE_ERROR) {
    GError *e = nullptr;
    gst_message_parse_error(m, &e, nullptr);
    r.note = e->message;
    g_error_free(e);
  } else {
    r.fps = r.frames / elapsed;
    r.ms = 1000.0 * elapsed / r.frames;
  }
  if (m) gst_message_unref(m);
  gst_element_set_state(pipe, GST_STATE_NULL);
  gst_object_unref(sink);
  gst_object_unref(pipe);
  return r;
}
