/**
 * SECTION:element-cudaj2kdec
 * @title: cudaj2kdec
 * @short_description: JPEG 2000 Part 1 decoder on CUDA, OpenMP or the CPU
 *
 * Decodes each buffer, one JPEG 2000 codestream (ITU-T T.800 | ISO/IEC
 * 15444-1), into one raw frame in CUDA or system memory (see Memory below).
 * Every frame is decoded on its own (a codestream depends on no other
 * frame).
 *
 * Input: `image/x-jpc` (the bare codestream, SOC to EOC: jpeg2000parse's
 * and mxfdemux's output), `image/x-j2c` (the codestream in a `jp2c` box, as
 * MJ2 files and qtdemux give it; other boxes before it are skipped) and
 * `image/jp2` (a JP2 file per buffer: its first codestream box, and its
 * colr box for the colours), with or without the fields jpeg2000parse and
 * the encoders add. What a buffer holds is read from its first bytes, so a
 * bare codestream under image/x-j2c decodes too.
 *
 * Output: video/x-raw, the format from the codestream's headers, read at
 * the first frame and at every frame after (a change of size or format
 * renegotiates):
 *
 * | components | components 1, 2 | depth <= 8 | 9..10 | 11..12 | 13..16 |
 * |---|---|---|---|---|---|
 * | 1 | | GRAY8 | GRAY16_LE | GRAY16_LE | GRAY16_LE |
 * | 3, RGB | 1x1 | RGB | GBR_10LE | GBR_12LE | refused |
 * | 3, YCbCr | 1x1 | Y444 | Y444_10LE | Y444_12LE | Y444_16LE |
 * | 3, YCbCr | 2x1 subsampled | Y42B | I422_10LE | I422_12LE | refused |
 * | 3, YCbCr | 2x2 subsampled | I420 | I420_10LE | I420_12LE | refused |
 * | 4 (R, G, B, A) | 1x1 | RGBA | RGBA64_LE | RGBA64_LE | RGBA64_LE |
 *
 * Three components of one size are RGB when a JP2 colr box says sRGB, else
 * when the codestream's colour transform is on, else when the caps say
 * colorspace=sRGB (or an RGB sampling); otherwise YCbCr. Samples less deep
 * than the format are shifted up to its depth; signed components come out
 * offset by 2^(depth - 1). Anything else (2 or more than 4 components,
 * other subsamplings, more than 16 bits, more samples than `max-samples`,
 * what the core decoder refuses) is an element error naming the components
 * or the property.
 *
 * Memory: with backend cuda (or auto on a machine with a GPU) the frame is
 * decoded on the GPU (only the headers and the packet headers are read on
 * the host) into memory:CUDAMemory when downstream takes it and the format
 * is RGB, RGBA, I420 (of even height) or Y444 (j2k_dec_format.h says
 * why), otherwise into pinned system memory. cpu and openmp decode
 * into system memory.
 *
 * Properties: `reduce` (highest resolution levels discarded: the frame is
 * 2^reduce times smaller, rounded up), `layers` (quality layers decoded at
 * most, 0 = all), `max-samples` (the most samples a frame may have, summed
 * over its components at the size `reduce` gives; a codestream whose
 * headers claim more is an element error naming it, before anything of its
 * size is allocated; the default, 536870912 = 2^29, takes a 16K frame of 4
 * components, 15360x8640; 0 = no limit), and the engine properties of every
 * cudafilters element (`backend`, `threads`, `device-id`, `host-wait`,
 * `active-backend`); cpu (the serial reference), openmp and cuda give the
 * same frames. A change applies at the next frame.
 *
 * Faults: a frame whose codestream cannot be read (broken headers or
 * boxes) is dropped with an element warning naming the problem, and the
 * stream goes on; a frame cut short or corrupt inside its packets is
 * decoded as far as its data goes and pushed, with a warning saying where
 * it stopped; a codestream the decoder does not take (see above) is an
 * element error.
 *
 * Rank: secondary, below openjpegdec (primary), which takes more of Part 1
 * (more than 4 components, mixed wavelets); decodebin picks cudaj2kdec
 * where openjpegdec is missing, or when asked for by name.
 *
 * ## Example launch lines
 * ```
 * gst-launch-1.0 filesrc location=in.j2k ! jpeg2000parse ! cudaj2kdec ! videoconvert ! autovideosink
 * gst-launch-1.0 filesrc location=in.mj2 ! qtdemux ! cudaj2kdec ! videoconvert ! autovideosink
 * gst-launch-1.0 filesrc location=in.mxf ! mxfdemux ! cudaj2kdec reduce=1 ! videoconvert ! autovideosink
 * ```
 */

#include <gst/video/gstvideodecoder.h>
#include <gst/video/video.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "cf_allocation.h"
#include "cf_engine_host.h"
#include "cf_private.h"
#include "cuda_memory.h"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k_decoder.hpp"
#include "j2k_dec_format.h"
#include "j2k_dec_input.h"
#include "raw_formats.h"
#include "raw_frame.h"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_j2k_dec_debug);
#define GST_CAT_DEFAULT gst_cuda_j2k_dec_debug

G_BEGIN_DECLS
#define GST_TYPE_CUDA_J2K_DEC (gst_cuda_j2k_dec_get_type())
G_DECLARE_FINAL_TYPE(GstCudaJ2kDec, gst_cuda_j2k_dec, GST, CUDA_J2K_DEC, GstVideoDecoder)
G_END_DECLS

struct _GstCudaJ2kDec {
  GstVideoDecoder parent;
};

struct GstCudaJ2kDecPrivate {
  // Properties: GST_OBJECT_LOCK.
  cf::J2kDecodeSettings settings;
  cfgst::EngineHost host;

  // State-change and streaming threads.
  std::unique_ptr<cf::J2kDecoder> decoder;
  GstVideoCodecState *input = nullptr;
  cfgst::J2kColourHint caps_colour = cfgst::J2kColourHint::None;
  cfgst::J2kOutput out;   // what the output state was set for (format UNKNOWN: none yet)
  bool out_cuda = false;  // the output caps are memory:CUDAMemory
};

G_DEFINE_TYPE_WITH_PRIVATE(GstCudaJ2kDec, gst_cuda_j2k_dec, GST_TYPE_VIDEO_DECODER)
GST_ELEMENT_REGISTER_DEFINE(cudaj2kdec, "cudaj2kdec", GST_RANK_SECONDARY, GST_TYPE_CUDA_J2K_DEC)
#define PRIV(self) (static_cast<GstCudaJ2kDecPrivate *>(gst_cuda_j2k_dec_get_instance_private(self)))

enum {
  PROP_0,
  PROP_REDUCE,
  PROP_LAYERS,
  PROP_MAX_SAMPLES,
  PROP_ENGINE_FIRST,  // then the engine properties, in cfgst::EngineProp order
};

static guint engine_prop(cfgst::EngineProp p) { return PROP_ENGINE_FIRST + guint(p); }

static constexpr int kMaxReduce = 32;     // T.800 A.6.1: at most 32 decomposition levels
static constexpr int kMaxLayers = 65535;  // COD's 16-bit layer count

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE(
    "sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS("image/x-jpc; image/x-j2c; image/jp2"));
#define CF_J2K_DEC_SIZES "width=(int)[1, MAX], height=(int)[1, MAX], framerate=(fraction)[0/1, MAX]"
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE(
    "src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS(CF_CUDA_CAPS_FIRST("video/x-raw(memory:CUDAMemory), format=(string)" CF_J2K_DEC_CUDA_FORMATS
                                       ", " CF_J2K_DEC_SIZES) "video/x-raw, format=(string)" CF_J2K_DEC_FORMATS
                                                              ", " CF_J2K_DEC_SIZES));

// ---------------------------------------------------------------------------
// The engine

// The engine from the properties (an element error when the backend cannot
// be used), and the decoder on it.
static bool create_engine(GstCudaJ2kDec *self) {
  GstCudaJ2kDecPrivate *priv = PRIV(self);
  priv->decoder.reset();
  cfgst::destroy_engine(priv->host);
  if (!cfgst::create_engine(GST_ELEMENT(self), priv->host, true, gst_cuda_j2k_dec_debug)) return false;
  priv->decoder = std::make_unique<cf::J2kDecoder>(*priv->host.engine);
  return true;
}

// memory:CUDAMemory needs the shared GstCudaContext of device-id; a CUDA
// engine made elsewhere is made again in it. Posts an element error when
// there is none.
static bool prepare_cuda_memory(GstCudaJ2kDec *self) {
  GstCudaJ2kDecPrivate *priv = PRIV(self);
  if (!cfgst::ensure_cuda_context(GST_ELEMENT(self), priv->host, gst_cuda_j2k_dec_debug)) return false;
  return !cfgst::engine_outside_cuda_context(priv->host) || create_engine(self);
}

// Property changes reach the engine here, at the next frame.
static bool prepare_engine(GstCudaJ2kDec *self) {
  GstCudaJ2kDecPrivate *priv = PRIV(self);
  GST_OBJECT_LOCK(self);
  const bool stale = priv->host.engine_stale;
  const int threads = int(priv->host.threads);
  GST_OBJECT_UNLOCK(self);
  if (!priv->host.engine || stale) {
    if (!create_engine(self)) return false;
    // A new backend may change the memory the output can be in.
    priv->out = {};
    if (priv->out_cuda && !prepare_cuda_memory(self)) return false;
  }
  priv->host.engine->set_threads(threads);
  return true;
}

static bool cuda_engine(GstCudaJ2kDecPrivate *priv) {
  return priv->host.engine && priv->host.engine->backend() == cf::Backend::Cuda;
}

static cf::J2kDecodeSettings settings_of(GstCudaJ2kDec *self) {
  GST_OBJECT_LOCK(self);
  const cf::J2kDecodeSettings s = PRIV(self)->settings;
  GST_OBJECT_UNLOCK(self);
  return s;
}

// ---------------------------------------------------------------------------
// GstVideoDecoder

static gboolean gst_cuda_j2k_dec_start(GstVideoDecoder *dec) {
  GstCudaJ2kDec *self = GST_CUDA_J2K_DEC(dec);
  PRIV(self)->out = {};
  PRIV(self)->out_cuda = false;
  return prepare_engine(self) ? TRUE : FALSE;
}

static gboolean gst_cuda_j2k_dec_stop(GstVideoDecoder *dec) {
  GstCudaJ2kDec *self = GST_CUDA_J2K_DEC(dec);
  GstCudaJ2kDecPrivate *priv = PRIV(self);
  priv->decoder.reset();
  cfgst::stop_engine(GST_ELEMENT(self), priv->host);
  g_clear_pointer(&priv->input, gst_video_codec_state_unref);
  priv->out = {};
  return TRUE;
}

// The sink template as it is: GstVideoDecoder's default proxies the src
// caps' width, height and framerate into the sink caps, which a capsfilter
// of a bare `image/x-jpc` after filesrc cannot fixate.
static GstCaps *gst_cuda_j2k_dec_getcaps(GstVideoDecoder *dec, GstCaps *filter) {
  GstCaps *templ = gst_pad_get_pad_template_caps(GST_VIDEO_DECODER_SINK_PAD(dec));
  if (!filter) return templ;
  GstCaps *caps = gst_caps_intersect_full(filter, templ, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref(templ);
  return caps;
}

// The output format is known only from a codestream: set at the first frame.
static gboolean gst_cuda_j2k_dec_set_format(GstVideoDecoder *dec, GstVideoCodecState *state) {
  GstCudaJ2kDecPrivate *priv = PRIV(GST_CUDA_J2K_DEC(dec));
  g_clear_pointer(&priv->input, gst_video_codec_state_unref);
  priv->input = gst_video_codec_state_ref(state);
  priv->caps_colour = cfgst::colour_hint_from_caps(gst_caps_get_structure(state->caps, 0));
  priv->out = {};
  return TRUE;
}

// Whether downstream takes `caps` (raw video of a fixed format and size)
// in memory:CUDAMemory: a CUDA engine then decodes straight into it.
static bool downstream_takes_cuda(GstCudaJ2kDec *self, const GstCaps *caps, const cfgst::J2kOutput &want) {
  if (!cuda_engine(PRIV(self)) || !cfgst::j2k_dec_cuda_format(want.format, want.height)) return false;
  GstCaps *cuda = gst_caps_copy(caps);
  gst_caps_set_features(cuda, 0, gst_caps_features_new(cfgst::kCudaMemoryFeature, nullptr));
  GstCaps *peer = gst_pad_peer_query_caps(GST_VIDEO_DECODER_SRC_PAD(self), cuda);
  const bool takes = peer && !gst_caps_is_empty(peer);
  if (peer) gst_caps_unref(peer);
  gst_caps_unref(cuda);
  return takes;
}

// The output state for `want`, negotiated when it differs from the current
// one: in memory:CUDAMemory when the engine is CUDA, the format is one
// GstCudaMemory holds and downstream takes it; else in system memory.
static bool ensure_output(GstCudaJ2kDec *self, const cfgst::J2kOutput &want) {
  GstCudaJ2kDecPrivate *priv = PRIV(self);
  GstVideoDecoder *dec = GST_VIDEO_DECODER(self);
  if (want.format == priv->out.format && want.width == priv->out.width && want.height == priv->out.height) return true;
  GstVideoCodecState *out =
      gst_video_decoder_set_output_state(dec, want.format, guint(want.width), guint(want.height), priv->input);
  out->caps = gst_video_info_to_caps(&out->info);
  priv->out_cuda = downstream_takes_cuda(self, out->caps, want);
  if (priv->out_cuda) {
    if (!prepare_cuda_memory(self)) {
      gst_video_codec_state_unref(out);
      return false;
    }
    gst_caps_set_features(out->caps, 0, gst_caps_features_new(cfgst::kCudaMemoryFeature, nullptr));
  }
  gst_video_codec_state_unref(out);
  if (!gst_video_decoder_negotiate(dec)) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION,
                      ("downstream refuses %s %dx%d", gst_video_format_to_string(want.format), want.width, want.height),
                      (nullptr));
    priv->out = {};
    return false;
  }
  priv->out = want;
  GST_DEBUG_OBJECT(self, "decoding to %s %dx%d in %s", gst_video_format_to_string(want.format), want.width, want.height,
                   priv->out_cuda ? "CUDA memory" : "system memory");
  return true;
}

// Output buffers: a GstCudaBufferPool of the shared context in CUDA memory,
// pinned system memory for a CUDA engine, else GstVideoDecoder's default.
static gboolean gst_cuda_j2k_dec_decide_allocation(GstVideoDecoder *dec, GstQuery *query) {
  GstCudaJ2kDec *self = GST_CUDA_J2K_DEC(dec);
  GstCudaJ2kDecPrivate *priv = PRIV(self);
  GstCaps *caps = nullptr;
  gst_query_parse_allocation(query, &caps, nullptr);
  if (!caps || (!priv->out_cuda && !priv->host.pinned))
    return GST_VIDEO_DECODER_CLASS(gst_cuda_j2k_dec_parent_class)->decide_allocation(dec, query);
  cfgst::PadFormat out;
  out.cuda = priv->out_cuda;
  if (!gst_video_info_from_caps(&out.info, caps)) return FALSE;
  out.type = GST_VIDEO_FORMAT_INFO_BITS(out.info.finfo) > 8 ? cf::SampleType::U16 : cf::SampleType::U8;
  out.size = GST_VIDEO_INFO_SIZE(&out.info);
  std::string why;
  if (!cfgst::decide_output_pool(query, out, priv->host.cuda_ctx, priv->host.pinned, &why)) {
    GST_ELEMENT_ERROR(self, RESOURCE, FAILED, ("%s", why.c_str()), (nullptr));
    return FALSE;
  }
  return TRUE;
}

static gboolean gst_cuda_j2k_dec_sink_query(GstVideoDecoder *dec, GstQuery *query) {
  if (cfgst::answer_context_query(GST_ELEMENT(dec), PRIV(GST_CUDA_J2K_DEC(dec))->host, query)) return TRUE;
  return GST_VIDEO_DECODER_CLASS(gst_cuda_j2k_dec_parent_class)->sink_query(dec, query);
}

static gboolean gst_cuda_j2k_dec_src_query(GstVideoDecoder *dec, GstQuery *query) {
  if (cfgst::answer_context_query(GST_ELEMENT(dec), PRIV(GST_CUDA_J2K_DEC(dec))->host, query)) return TRUE;
  return GST_VIDEO_DECODER_CLASS(gst_cuda_j2k_dec_parent_class)->src_query(dec, query);
}

static void gst_cuda_j2k_dec_set_context(GstElement *element, GstContext *context) {
  cfgst::set_engine_context(element, PRIV(GST_CUDA_J2K_DEC(element))->host, context);
  GST_ELEMENT_CLASS(gst_cuda_j2k_dec_parent_class)->set_context(element, context);
}

// What this decoder does not take the core refuses with ErrorKind::Unsupported
// (cudafilters/error.hpp); any other error names a codestream that breaks
// T.800, or the device's failure, and costs the frame alone.
static bool is_refusal(const std::exception &e) {
  const auto *error = dynamic_cast<const cf::Error *>(&e);
  return error && error->kind() == cf::ErrorKind::Unsupported;
}

// The core's refusal with its settings named as the properties that set
// them (J2kDecodeSettings::max_samples is max-samples; reduce and layers
// are spelt alike).
static std::string refusal_message(const std::exception &e) {
  std::string m = e.what();
  static const std::string field = "max_samples = ";
  if (const std::size_t at = m.find(field); at != std::string::npos) m.replace(at, field.size(), "max-samples = ");
  return m;
}

// A frame that cannot be read: dropped with a warning, the stream goes on.
static GstFlowReturn drop_corrupt(GstCudaJ2kDec *self, GstVideoCodecFrame *frame, const std::string &why) {
  GST_ELEMENT_WARNING(
      self, STREAM, DECODE, ("frame dropped: %s", why.c_str()),
      ("frame %u, %" G_GSIZE_FORMAT " bytes", frame->system_frame_number, gst_buffer_get_size(frame->input_buffer)));
  return gst_video_decoder_drop_frame(GST_VIDEO_DECODER(self), frame);
}

static GstFlowReturn fail_frame(GstCudaJ2kDec *self, GstVideoCodecFrame *frame, GstFlowReturn ret) {
  gst_video_decoder_drop_frame(GST_VIDEO_DECODER(self), frame);
  return ret;
}

static GstFlowReturn gst_cuda_j2k_dec_handle_frame(GstVideoDecoder *dec, GstVideoCodecFrame *frame) {
  GstCudaJ2kDec *self = GST_CUDA_J2K_DEC(dec);
  GstCudaJ2kDecPrivate *priv = PRIV(self);
  if (!prepare_engine(self)) return fail_frame(self, frame, GST_FLOW_ERROR);
  cf::J2kDecodeSettings settings = settings_of(self);

  // The input mapped until the end, with a reference of its own: dropping
  // or finishing the frame releases the frame's.
  GstMapInfo in;
  if (!gst_buffer_map(frame->input_buffer, &in, GST_MAP_READ)) {
    GST_ELEMENT_ERROR(self, RESOURCE, READ, ("cannot map the input buffer"), (nullptr));
    return fail_frame(self, frame, GST_FLOW_ERROR);
  }
  struct Unmap {
    GstBuffer *b;
    GstMapInfo *m;
    ~Unmap() {
      gst_buffer_unmap(b, m);
      gst_buffer_unref(b);
    }
  } unmap{gst_buffer_ref(frame->input_buffer), &in};

  std::string why;
  cfgst::J2kCodestream cs;
  if (!cfgst::find_codestream(in.data, in.size, &cs, &why)) return drop_corrupt(self, frame, why);
  cf::J2kImageInfo info;
  try {
    info = cf::j2k_image_info(cs.data, cs.size, settings);
  } catch (const std::exception &e) {
    if (!is_refusal(e)) return drop_corrupt(self, frame, e.what());
    GST_ELEMENT_ERROR(self, STREAM, WRONG_TYPE, ("%s", refusal_message(e).c_str()),
                      ("reduce=%d layers=%d max-samples=%" G_GUINT64_FORMAT, settings.reduce, settings.layers,
                       guint64(settings.max_samples)));
    return fail_frame(self, frame, GST_FLOW_ERROR);
  }
  const cfgst::J2kColourHint colour = cs.colour != cfgst::J2kColourHint::None ? cs.colour : priv->caps_colour;
  cfgst::J2kOutput want;
  if (!cfgst::j2k_output_format(info, colour, &want, &why)) {
    GST_ELEMENT_ERROR(self, STREAM, WRONG_TYPE, ("cannot decode to raw video: %s", why.c_str()), (nullptr));
    return fail_frame(self, frame, GST_FLOW_ERROR);
  }
  GstVideoInfo out_info;
  gst_video_info_set_format(&out_info, want.format, guint(want.width), guint(want.height));
  if (!cfgst::j2k_sizes_match(info, out_info, &why)) {
    GST_ELEMENT_ERROR(self, STREAM, WRONG_TYPE, ("cannot decode to raw video: %s", why.c_str()), (nullptr));
    return fail_frame(self, frame, GST_FLOW_ERROR);
  }
  if (!ensure_output(self, want)) return fail_frame(self, frame, GST_FLOW_NOT_NEGOTIATED);

  const GstFlowReturn ret = gst_video_decoder_allocate_output_frame(dec, frame);
  if (ret != GST_FLOW_OK) return fail_frame(self, frame, ret);
  // Device pointers only for GstCudaMemory of the engine's context; other
  // memory is written on the host (GstCudaMemory through its staging copy).
  cfgst::PadFormat out_format;
  out_format.cuda = priv->out_cuda;
  out_format.info = out_info;
  out_format.type = GST_VIDEO_FORMAT_INFO_BITS(out_info.finfo) > 8 ? cf::SampleType::U16 : cf::SampleType::U8;
  out_format.size = GST_VIDEO_INFO_SIZE(&out_info);
  const bool device = cuda_engine(priv) && cfgst::buffer_in_context(frame->output_buffer, priv->host.engine_ctx);
  for (int c = 0; c < info.components; ++c) settings.shift_up[c] = want.shift[c];
  std::string failure;
  bool refusal = false;
  {
    cfgst::MappedFrame mapped;  // unmapped at the end of the scope, before the frame is dropped or pushed
    if (!mapped.map(frame->output_buffer, out_format, GST_MAP_WRITE, device, "output", &why)) {
      GST_ELEMENT_ERROR(self, RESOURCE, WRITE, ("%s", why.c_str()), (nullptr));
      return fail_frame(self, frame, GST_FLOW_ERROR);
    }
    try {
      priv->decoder->decode(cs.data, cs.size, settings, mapped.view());
    } catch (const std::exception &e) {
      refusal = is_refusal(e);
      failure = refusal ? refusal_message(e) : e.what();
    }
  }
  if (!failure.empty() && !refusal) return drop_corrupt(self, frame, failure);
  if (refusal) {
    GST_ELEMENT_ERROR(self, STREAM, DECODE, ("%s", failure.c_str()),
                      ("backend %s", cf::backend_name(priv->host.engine->backend())));
    return fail_frame(self, frame, GST_FLOW_ERROR);
  }
  if (!priv->decoder->problem().empty())
    GST_ELEMENT_WARNING(self, STREAM, DECODE, ("frame decoded in part: %s", priv->decoder->problem().c_str()),
                        ("frame %u", frame->system_frame_number));
  return gst_video_decoder_finish_frame(dec, frame);
}

// ---------------------------------------------------------------------------
// GObject

static void gst_cuda_j2k_dec_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  GstCudaJ2kDec *self = GST_CUDA_J2K_DEC(object);
  GstCudaJ2kDecPrivate *priv = PRIV(self);
  GST_OBJECT_LOCK(self);
  switch (id) {
    case PROP_REDUCE: priv->settings.reduce = g_value_get_int(value); break;
    case PROP_LAYERS: priv->settings.layers = g_value_get_int(value); break;
    case PROP_MAX_SAMPLES: priv->settings.max_samples = g_value_get_uint64(value); break;
    default:
      if (id >= engine_prop(cfgst::EngineProp::Backend) && id <= engine_prop(cfgst::EngineProp::HostWait))
        cfgst::set_engine_property(priv->host, cfgst::EngineProp(id - PROP_ENGINE_FIRST), value);
      else
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_cuda_j2k_dec_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  GstCudaJ2kDec *self = GST_CUDA_J2K_DEC(object);
  GstCudaJ2kDecPrivate *priv = PRIV(self);
  GST_OBJECT_LOCK(self);
  switch (id) {
    case PROP_REDUCE: g_value_set_int(value, priv->settings.reduce); break;
    case PROP_LAYERS: g_value_set_int(value, priv->settings.layers); break;
    case PROP_MAX_SAMPLES: g_value_set_uint64(value, priv->settings.max_samples); break;
    default:
      if (id >= engine_prop(cfgst::EngineProp::Backend) && id <= engine_prop(cfgst::EngineProp::ActiveBackend))
        cfgst::get_engine_property(priv->host, cfgst::EngineProp(id - PROP_ENGINE_FIRST), value);
      else
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_cuda_j2k_dec_finalize(GObject *object) {
  GstCudaJ2kDecPrivate *priv = PRIV(GST_CUDA_J2K_DEC(object));
  priv->decoder.reset();
  cfgst::stop_engine(GST_ELEMENT(object), priv->host);
  g_clear_pointer(&priv->input, gst_video_codec_state_unref);
  cfgst::destroy_private(priv);
  G_OBJECT_CLASS(gst_cuda_j2k_dec_parent_class)->finalize(object);
}

static void gst_cuda_j2k_dec_class_init(GstCudaJ2kDecClass *klass) {
  GST_DEBUG_CATEGORY_INIT(gst_cuda_j2k_dec_debug, "cudaj2kdec", 0, "cudaj2kdec element");
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstVideoDecoderClass *dec_class = GST_VIDEO_DECODER_CLASS(klass);

  gobject_class->set_property = gst_cuda_j2k_dec_set_property;
  gobject_class->get_property = gst_cuda_j2k_dec_get_property;
  gobject_class->finalize = gst_cuda_j2k_dec_finalize;
  const cf::J2kDecodeSettings d;  // the core's defaults are the properties' defaults
  const auto rw = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  g_object_class_install_property(
      gobject_class, PROP_REDUCE,
      g_param_spec_int("reduce", "Reduce",
                       "Highest resolution levels discarded: the frame is 2^reduce times smaller (rounded up); at "
                       "most the codestream's decomposition levels (an element error names them)",
                       0, kMaxReduce, d.reduce, rw));
  g_object_class_install_property(
      gobject_class, PROP_LAYERS,
      g_param_spec_int("layers", "Quality layers", "Quality layers decoded at most (0 = all)", 0, kMaxLayers, d.layers,
                       rw));
  g_object_class_install_property(
      gobject_class, PROP_MAX_SAMPLES,
      g_param_spec_uint64("max-samples", "Maximum samples",
                          "The most samples a frame may have, summed over its components at the size reduce gives: "
                          "a codestream claiming more is an element error, refused from its headers (default 2^29, "
                          "a 16K frame of 4 components; 0 = no limit)",
                          0, G_MAXUINT64, d.max_samples, rw));
  cfgst::install_engine_properties(gobject_class, PROP_ENGINE_FIRST);

  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  gst_element_class_set_static_metadata(
      element_class, "CUDA JPEG 2000 decoder", "Codec/Decoder/Video/Image",
      "JPEG 2000 Part 1 decoder (ITU-T T.800) on CUDA, OpenMP or the CPU: image/x-jpc, image/x-j2c (jp2c box) "
      "or image/jp2 to raw video in CUDA or system memory, at a reduced resolution or fewer quality layers on "
      "request",
      "cudafilters");

  dec_class->start = gst_cuda_j2k_dec_start;
  dec_class->stop = gst_cuda_j2k_dec_stop;
  dec_class->set_format = gst_cuda_j2k_dec_set_format;
  dec_class->handle_frame = gst_cuda_j2k_dec_handle_frame;
  dec_class->getcaps = gst_cuda_j2k_dec_getcaps;
  dec_class->decide_allocation = gst_cuda_j2k_dec_decide_allocation;
  dec_class->sink_query = gst_cuda_j2k_dec_sink_query;
  dec_class->src_query = gst_cuda_j2k_dec_src_query;
  element_class->set_context = gst_cuda_j2k_dec_set_context;
}

static void gst_cuda_j2k_dec_init(GstCudaJ2kDec *self) {
  cfgst::construct_private(PRIV(self));
  gst_video_decoder_set_packetized(GST_VIDEO_DECODER(self), TRUE);
  gst_video_decoder_set_needs_format(GST_VIDEO_DECODER(self), TRUE);
}
