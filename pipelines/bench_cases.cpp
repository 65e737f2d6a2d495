#include "bench_cases.hpp"
#include "frame_source.hpp"

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
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>

#include "cudafilters/cdf97.hpp"
#include "cudafilters/colour.hpp"
#include "cudafilters/dct.hpp"
#include "cudafilters/entropy.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/halftone.hpp"
#include "cudafilters/hough.hpp"
#include "cudafilters/predictor.hpp"
#include "cudafilters/wavelet.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Runs `frame(i)` until `seconds` have passed (at least 3 times) after two
// warm-up calls; fills fps/ms/frames.
// `drain` (optional) waits for work the calls only queued (an engine on the
// legacy stream, elements in CUDA memory): the time includes it.
template <class Frame>
void timed_loop(BenchResult &r, double seconds, Frame &&frame, const std::function<void()> &drain = {}) {
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
  if (drain) {
    drain();
    elapsed = seconds_since(start);
  }
  r.fps = r.frames / elapsed;
  r.ms = 1000.0 * elapsed / r.frames;
  r.gbps = double(r.in_bytes + r.out_bytes) * r.fps / 1e9;
}

// 1.22 asserts in gst_cuda_context_new unless the CUDA library was loaded first.
GstCudaContext *shared_cuda_context() {
  // The CUDA allocator registers itself once per process; a GstCudaBufferPool
  // created before that (a memory=cuda row run first) cannot be configured.
  static GstCudaContext *ctx =
      gst_cuda_load_library() ? (gst_cuda_memory_init_once(), gst_cuda_context_new(0)) : nullptr;
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

constexpr const char *kInversePrefix = "cudainverse:";

bool is_inverse(const BenchCase &c) { return c.element.rfind(kInversePrefix, 0) == 0; }
std::string forward_element(const BenchCase &c) {
  return is_inverse(c) ? c.element.substr(std::strlen(kInversePrefix)) : c.element;
}

// A forward element with the case's parameters (those it has).
GstElement *make_forward(const BenchCase &c, const char *backend) {
  GstElement *e = gst_element_factory_make(forward_element(c).c_str(), nullptr);
  if (!e) return nullptr;
  gst_util_set_object_arg(G_OBJECT(e), "backend", backend);
  // `levels` is the wavelets' (cudahalftone's grey levels stay at 2).
  if (bench_has_levels(c.element)) g_object_set(e, "levels", c.levels, nullptr);
  if (g_object_class_find_property(G_OBJECT_GET_CLASS(e), "slice-height"))
    g_object_set(e, "slice-height", c.slice_height, nullptr);
  for (const auto &[name, value] : bench_props(c.props))
    gst_util_set_object_arg(G_OBJECT(e), name.c_str(), value.c_str());
  return e;
}

// The forward element's output for `frame` (system memory), and its caps.
// A GstCudaBufferPool of the shared context for raw frames of `caps`,
// active, with room for two buffers.
GstBufferPool *raw_cuda_pool(GstCaps *caps, const GstVideoInfo &info) {
  GstBufferPool *pool = gst_cuda_buffer_pool_new(shared_cuda_context());
  GstStructure *config = gst_buffer_pool_get_config(pool);
  gst_buffer_pool_config_set_params(config, caps, info.size, 2, 2);
  gst_buffer_pool_set_config(pool, config);
  gst_buffer_pool_set_active(pool, TRUE);
  return pool;
}

// Two frames of the forward element's stream of `frame` (made untimed, the
// inverse's input), and their caps: on cpu in system memory, or with
// `cuda` on the cuda backend from and into CUDA memory (raw: CUDA caps).
bool forward_outputs(const BenchCase &c, GstBuffer *frame, GstCaps *raw, bool cuda, GstCaps **caps, GstBuffer *out[2]) {
  GstElement *e = make_forward(c, cuda ? "cuda" : "cpu");
  if (!e || (cuda && !bench_set_cuda_context(e))) {
    if (e) gst_object_unref(e);
    return false;
  }
  GstHarness *h = gst_harness_new_with_element(e, "sink", "src");
  gst_harness_set_src_caps(h, gst_caps_ref(raw));
  GstBufferPool *pool = nullptr;
  GstBuffer *in = gst_buffer_ref(frame);
  if (cuda) {
    GstVideoInfo info;
    gst_video_info_from_caps(&info, raw);
    pool = raw_cuda_pool(raw, info);
    gst_buffer_unref(in);
    in = upload_frame(frame, info, pool);
  }
  // Both pulled before either is released: two buffers of the element's pool.
  for (int i = 0; i < 2; ++i)
    out[i] = in && gst_harness_push(h, gst_buffer_ref(in)) == GST_FLOW_OK ? gst_harness_try_pull(h) : nullptr;
  *caps = gst_pad_get_current_caps(h->sinkpad);
  if (in) gst_buffer_unref(in);
  gst_harness_teardown(h);
  gst_object_unref(e);
  if (pool) {
    gst_buffer_pool_set_active(pool, FALSE);
    gst_object_unref(pool);
  }
  return out[0] && out[1] && *caps;
}

}  // namespace

std::string bench_fmt(const char *f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

bool bench_has(const std::vector<std::string> &list, const std::string &item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

bool bench_has_levels(const std::string &element) {
  return element == "cudahaar" || element == "cudacdf53" || element == "cudacdf97";
}

bool bench_is_predictor(const std::string &element) {
  for (const char *p : {"cudamed", "cudagap", "cudaged"})
    if (element == p || element == std::string(kInversePrefix) + p) return true;
  return false;
}

std::string bench_params(const BenchCase &c) {
  std::string p = bench_is_predictor(c.element) ? "slice-height=" + std::to_string(c.slice_height)
                  : bench_has_levels(c.element) ? "levels=" + std::to_string(c.levels)
                                                : "";
  if (!c.props.empty()) p += (p.empty() ? "" : " ") + c.props;
  return p.empty() ? "-" : p;
}

std::vector<std::pair<std::string, std::string>> bench_props(const std::string &props) {
  std::vector<std::pair<std::string, std::string>> out;
  std::istringstream in(props);
  for (std::string kv; in >> kv;)
    if (const auto eq = kv.find('='); eq != std::string::npos) out.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  return out;
}

GstBuffer *bench_load_frame(const std::string &image, const std::string &format, int w, int h) {
  return decode_frame(image, format, w, h);
}

bool bench_set_cuda_context(GstElement *element) {
  GstCudaContext *ctx = shared_cuda_context();
  if (!ctx) return false;
  GstContext *context = gst_context_new_cuda_context(ctx);
  gst_element_set_context(element, context);
  gst_context_unref(context);
  return true;
}

void bench_cuda_drain() {
  if (!shared_cuda_context() || !gst_cuda_context_push(shared_cuda_context())) return;
  CuStreamSynchronize(nullptr);
  gst_cuda_context_pop(nullptr);
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
  const bool passthrough = c.element == "cudaentropy";  // reads its input; nothing is written
  GstCaps *caps = gst_caps_from_string(raw_caps(c, cuda).c_str());
  GstVideoInfo info;
  gst_video_info_from_caps(&info, caps);
  GstElement *element = nullptr;
  GstBuffer *inputs[2] = {nullptr, nullptr};
  if (is_inverse(c)) {
    // Push the forward's stream (made once) into cudainverse.
    GstCaps *coeff_caps = nullptr;
    GstBuffer *coeffs[2] = {nullptr, nullptr};
    const bool made = forward_outputs(c, frame, caps, cuda, &coeff_caps, coeffs);
    gst_caps_unref(caps);
    if (!made) {
      r.note = "cannot make the forward stream";
      for (GstBuffer *b : coeffs)
        if (b) gst_buffer_unref(b);
      if (coeff_caps) gst_caps_unref(coeff_caps);
      return r;
    }
    caps = coeff_caps;
    frame = gst_buffer_ref(coeffs[0]);  // owned below
    // In CUDA memory the forward's buffers are the inputs; in system memory
    // they are copied into buffers of the negotiated pool below.
    for (int i = 0; i < 2; ++i) {
      if (cuda)
        inputs[i] = coeffs[i];
      else
        gst_buffer_unref(coeffs[i]);
    }
    element = gst_element_factory_make("cudainverse", nullptr);
    gst_util_set_object_arg(G_OBJECT(element), "backend", c.backend.c_str());
  } else {
    element = make_forward(c, c.backend.c_str());
    gst_buffer_ref(frame);
  }
  // In CUDA memory the elements queue each frame on the context's legacy
  // stream and push at once (host-wait=false); the timed loop drains it.
  if (element && cuda) g_object_set(element, "host-wait", FALSE, nullptr);
  if (!element) {
    r.note = "element not found";
    gst_caps_unref(caps);
    gst_buffer_unref(frame);
    return r;
  }
  GstBufferPool *pool = nullptr;
  if (cuda) {
    if (!bench_set_cuda_context(element)) {
      r.note = "no GstCudaContext";
      gst_caps_unref(caps);
      gst_object_unref(element);
      for (GstBuffer *b : inputs)
        if (b) gst_buffer_unref(b);
      gst_buffer_unref(frame);
      return r;
    }
    if (!is_inverse(c)) {
      pool = raw_cuda_pool(caps, info);
      for (auto &b : inputs) b = upload_frame(frame, info, pool);
    }
  }
  // A harness gives its element no bus; with one, a failed row shows the element's error message.
  GstBus *bus = gst_bus_new();
  gst_element_set_bus(element, bus);
  gst_object_unref(bus);
  GstHarness *h = gst_harness_new_with_element(element, "sink", "src");
  if (!c.encoded_caps.empty()) gst_harness_set_sink_caps_str(h, c.encoded_caps.c_str());
  gst_harness_set_src_caps(h, caps);  // takes the caps; runs the allocation query
  if (!cuda) {
    // Input buffers as an upstream element that honours the allocation query
    // would allocate them (pinned memory for backend=cuda): the harness
    // negotiates when it creates its first buffer. Pageable inputs halve the
    // host-to-device copy rate.
    for (auto &b : inputs) {
      b = gst_harness_create_buffer(h, gst_buffer_get_size(frame));
      GstMapInfo map;
      gst_buffer_map(b, &map, GST_MAP_WRITE);
      gst_buffer_extract(frame, 0, map.data, map.size);
      gst_buffer_unmap(b, &map);
    }
  }
  r.in_bytes = gst_buffer_get_size(frame);
  timed_loop(
      r, seconds,
      [&](int i) {
        if (!inputs[i & 1] || gst_harness_push(h, gst_buffer_ref(inputs[i & 1])) != GST_FLOW_OK) return false;
        GstBuffer *out = gst_harness_try_pull(h);
        if (!out) return false;
        if (cuda && c.encoded_caps.empty() && !gst_is_cuda_memory(gst_buffer_peek_memory(out, 0)))
          r.note = "output not in CUDA memory";
        r.out_bytes = passthrough ? 0 : gst_buffer_get_size(out);
        gst_buffer_unref(out);
        return r.note.empty();
      },
      [&] {
        if (!cuda || !gst_cuda_context_push(shared_cuda_context())) return;
        CuStreamSynchronize(nullptr);  // the elements queue on the context's legacy stream
        gst_cuda_context_pop(nullptr);
      });
  if (!r.note.empty() && r.note == "error") r.note = bus_error(h->element);
  for (auto &b : inputs)
    if (b) gst_buffer_unref(b);
  gst_buffer_unref(frame);
  gst_harness_teardown(h);
  gst_object_unref(element);
  if (pool) {
    gst_buffer_pool_set_active(pool, FALSE);
    gst_object_unref(pool);
  }
  return r;
}

namespace {
// cudahough on a device frame: detection only (edges, votes, peaks, the line
// list back on the host); props "edge=canny" and "theta-bins=N" apply.
void bench_hough_core(BenchResult &r, cf::Engine &engine, const BenchCase &c, const cf::FrameView &raw,
                      double seconds) {
  cf::HoughParams p;
  for (const auto &[name, value] : bench_props(c.props)) {
    if (name == "edge") p.edge = value == "canny" ? cf::EdgeDetector::Canny : cf::EdgeDetector::Sobel;
    if (name == "theta-bins") p.theta_bins = std::stoi(value);
  }
  const bool rgb = c.format != "GRAY8" && c.format != "I420" && c.format != "NV12" && c.format != "Y444";
  cf::HoughResult result;
  timed_loop(r, seconds, [&](int) {
    cf::hough_detect(engine, p, raw, rgb ? cf::LumaSource::Rgb : cf::LumaSource::Component0, result);
    return true;
  });
}
}  // namespace

BenchResult bench_core(const BenchCase &c, GstBuffer *frame, double seconds) {
  BenchResult r;
  if (is_inverse(c) && !bench_is_predictor(c.element) && forward_element(c) != "cudadct") {
    r.note = "core inverse rows: predictors and cudadct only";
    return r;
  }
  GstVideoInfo info;
  GstCaps *caps = gst_caps_from_string(raw_caps(c, false).c_str());
  gst_video_info_from_caps(&info, caps);
  gst_caps_unref(caps);
  try {
    cf::Engine engine(cf::Backend::Cuda);
    // Device frames: calls return once queued, as the elements' do in CUDA
    // memory; each timed loop then waits for the last one (drain).
    engine.use_legacy_stream(true);
    const std::function<void()> drain = [&] { engine.synchronize(); };
    // The raw frame in device memory with the system buffer's layout.
    cf::FrameView raw;
    raw.type = GST_VIDEO_INFO_COMP_DEPTH(&info, 0) > 8 ? cf::SampleType::U16 : cf::SampleType::U8;
    raw.memory = cf::Memory::Device;
    // memory "core-pinned": the same frames in pinned host memory, so the
    // core's staging copies are in the figure but GStreamer is not.
    const bool host = c.memory == "core-pinned";
    raw.memory = host ? cf::Memory::Host : cf::Memory::Device;
    auto alloc = [&](std::size_t bytes) {
      void *p = host ? cf::pinned_alloc(bytes) : engine.device_alloc(bytes);
      if (!p) throw cf::Error("no pinned memory");
      return p;
    };
    auto release = [&](void *p) { host ? cf::pinned_free(p) : engine.device_free(p); };
    r.in_bytes = gst_buffer_get_size(frame);
    void *in = alloc(r.in_bytes);
    GstMapInfo map;
    gst_buffer_map(frame, &map, GST_MAP_READ);
    if (host)
      std::memcpy(in, map.data, r.in_bytes);
    else
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
    if (c.element == "cudahough") {
      bench_hough_core(r, engine, c, raw, seconds);
      release(in);
      return r;
    }
    if (c.element == "cudahalftone") {  // raw -> raw of the same layout, alpha copied
      r.out_bytes = r.in_bytes;
      void *out = alloc(r.out_bytes);
      cf::FrameView dst = raw;
      for (int p = 0; p < dst.n_planes; ++p)
        dst.planes[p].data = static_cast<char *>(out) + GST_VIDEO_INFO_PLANE_OFFSET(&info, p);
      cf::HalftoneParams hp;
      hp.copy_mask = GST_VIDEO_INFO_HAS_ALPHA(&info) ? 1u << GST_VIDEO_COMP_A : 0u;
      timed_loop(
          r, seconds,
          [&](int i) {
            cf::halftone(engine, hp, std::uint64_t(i), raw, dst);
            return true;
          },
          drain);
      release(in);
      release(out);
      return r;
    }
    if (forward_element(c) == "cudadct") {  // raw <-> S16 planes padded to whole 8x8 blocks
      cf::PlanarLayout padded = layout;
      for (int k = 0; k < layout.n; ++k) {
        padded.width[k] = cf::padded_to_blocks(layout.width[k]);
        padded.height[k] = cf::padded_to_blocks(layout.height[k]);
      }
      r.out_bytes = cf::planar_size(padded, cf::SampleType::S16);
      void *out = alloc(r.out_bytes);
      const cf::FrameView coeffs = cf::planar_view(out, padded, cf::SampleType::S16, raw.memory);
      cf::DctParams p;
      for (const auto &[name, value] : bench_props(c.props))
        if (name == "quality") p.quality = std::stoi(value);
      cf::dct_forward(engine, p, raw, coeffs);  // the inverse's input
      engine.synchronize();
      timed_loop(
          r, seconds,
          [&](int) {
            if (is_inverse(c))
              cf::dct_inverse(engine, p, coeffs, raw);
            else
              cf::dct_forward(engine, p, raw, coeffs);
            return true;
          },
          drain);
      if (is_inverse(c)) std::swap(r.in_bytes, r.out_bytes);
      release(in);
      release(out);
      return r;
    }
    if (c.element == "cudacdf97") {  // F32 coefficients (S16 with a quant-step in --props)
      cf::Cdf97Params p;
      p.levels = c.levels;
      for (const auto &[name, value] : bench_props(c.props)) {
        if (name == "quant-step") p.quant_step = std::stof(value);
        if (name == "threshold") p.threshold = std::stof(value);
      }
      const cf::SampleType ct = cf::cdf97_coefficient_type(p, raw.type);
      r.out_bytes = cf::planar_size(layout, ct);
      void *out = alloc(r.out_bytes);
      const cf::FrameView coeffs = cf::planar_view(out, layout, ct, raw.memory);
      timed_loop(
          r, seconds,
          [&](int) {
            cf::cdf97_forward(engine, p, raw, coeffs);
            return true;
          },
          drain);
      release(in);
      release(out);
      return r;
    }
    const cf::SampleType ct = cf::coefficient_type_for(raw.type);
    const bool entropy = c.element == "cudaentropy";
    r.out_bytes = entropy ? 0 : cf::planar_size(layout, ct);
    void *out = alloc(cf::planar_size(layout, ct));
    const cf::FrameView coeffs = cf::planar_view(out, layout, ct, raw.memory);
    if (bench_is_predictor(c.element)) {
      const std::string name = forward_element(c);
      const cf::PredictorParams p{name == "cudamed"   ? cf::Predictor::Med
                                  : name == "cudagap" ? cf::Predictor::Gap
                                                      : cf::Predictor::Ged,
                                  cf::kDefaultGedThreshold, c.slice_height};
      cf::predictor_forward(engine, p, raw, coeffs);  // the inverse's input
      engine.synchronize();
      timed_loop(
          r, seconds,
          [&](int) {
            if (is_inverse(c))
              cf::predictor_inverse(engine, p, coeffs, raw);
            else
              cf::predictor_forward(engine, p, raw, coeffs);
            return true;
          },
          drain);
      if (is_inverse(c)) std::swap(r.in_bytes, r.out_bytes);
    } else {
      const cf::WaveletParams p{c.element == "cudahaar" ? cf::Wavelet::Haar : cf::Wavelet::Cdf53, c.levels,
                                cf::Layout::Mallat};
      std::vector<cf::Histogram> histograms;
      timed_loop(
          r, seconds,
          [&](int) {
            if (c.element == "cudarct" || c.element == "cudaycocg")
              cf::colour_forward(engine, c.element == "cudarct" ? cf::ColourTransform::Rct : cf::ColourTransform::YCoCg,
                                 raw, coeffs);
            else if (entropy)
              cf::histograms(engine, raw, histograms);  // the histograms downloaded; the entropy is host arithmetic
            else
              cf::wavelet_forward(engine, p, raw, coeffs);
            return true;
          },
          drain);
    }
    release(in);
    release(out);
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
