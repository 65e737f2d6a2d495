/**
 * SECTION:element-cudaj2kenc
 * @title: cudaj2kenc
 * @short_description: JPEG 2000 Part 1 encoder on CUDA, OpenMP or the CPU
 *
 * Codes each raw frame into one JPEG 2000 codestream (ITU-T T.800 | ISO/IEC
 * 15444-1, SOC to EOC) that any Part 1 decoder reads: openjpegdec,
 * opj_decompress, FFmpeg. Every output frame is a sync point (a codestream
 * depends on no other frame). The backends give identical codestreams; cpu
 * is the serial reference.
 *
 * Output: `image/x-jpc` (the bare codestream) or `image/x-j2c` (the same
 * codestream inside a `jp2c` box, what MJ2 files hold), whichever
 * downstream lists first (image/x-jpc when it takes anything), with the
 * fields openjpegdec and the muxers read: `colorspace` (sRGB, sYUV, GRAY),
 * `sampling` (RGB, RGBA, YCbCr-4:2:0, YCbCr-4:2:2, YCbCr-4:4:4, GRAYSCALE)
 * and `num-components`, besides width, height and framerate. mxfmux takes
 * `image/x-jpc` of sRGB and sYUV; mj2mux (isomp4) lists image/x-j2c first,
 * frames of 16 x 16 or more.
 *
 * Input: GRAY8, GRAY16_LE (16-bit samples), RGB, BGR, RGBx, BGRx (3
 * components R, G, B whatever the byte order; the padding byte is not
 * coded), RGBA, BGRA (R, G, B and alpha as a fourth component), I420 (2x2
 * subsampled chroma), Y42B (2x1), Y444, their 10- and 12-bit planar forms
 * I420_10LE, I422_10LE, Y444_10LE, I420_12LE, I422_12LE, Y444_12LE, and
 * planar GBR_10LE, GBR_12LE (R, G, B), coded at their depth, in system
 * memory; RGB, BGR, RGBA, BGRA, RGBx, BGRx, I420 and Y444 also in
 * memory:CUDAMemory, read as device memory by backend=cuda and through
 * GstCudaMemory's host copy by cpu and openmp. RGB-family frames go
 * through the colour transform (RCT when reversible, ICT otherwise); YUV
 * and grey components are coded as they are.
 *
 * Properties: `reversible` (5/3 wavelet and RCT, lossless; false: 9/7 and
 * ICT, quantised), `levels`, `codeblock-width`, `codeblock-height`,
 * `bitrate` (bits per pixel of the whole codestream, irreversible only),
 * `max-bytes` (a hard limit on every frame's codestream, lossless or not;
 * under it each frame's size is posted in an element message "cudaj2kenc":
 * frame, bytes, max-bytes, bits-per-pixel),
 * `layers`, `progression`, `tile-width`, `tile-height`, `codeblock-style`,
 * `block-coder` (part1, or ht: HTJ2K's single-pass code-blocks), `tile-parts` (one, or a tile-part wherever the
 * resolution, layer or component of the next packet changes), `markers` (tlm: tile-part lengths in the main
 * header, plt: packet lengths in each tile-part header), `precincts` (precinct sizes in samples from the highest
 * resolution down, the last repeating below it: "256,256,128,128"; empty: maximal), `profile` (digital cinema and
 * IMF codestream profiles, with `profile-main-level` and `profile-sublevel` for IMF), and the engine properties of
 * every cudafilters element (`backend`, `threads`, `device-id`, `host-wait`, `active-backend`). The codestream is
 * host memory, so every frame
 * ends with its codestream complete whatever `host-wait` says; it only decides whether the engine waits for GStreamer's
 * copies of CUDA input on the host or queues behind them. A change applies at the next frame. A combination the encoder
 * cannot code (a code-block side that is not a power of two, a code-block area over 4096, more levels than the smallest
 * tile side allows, a bitrate with reversible coding, more than one layer with block-coder=ht, a `precincts` text that
 * does not parse or a precinct size T.800 does not allow) is an element error with the rule it breaks, at caps time
 * or at the frame after the change.
 *
 * A GstVideoEncoder, not a GstCfBase (GstBaseTransform) like the filters:
 * a codestream's size is known only once it is coded, and an encoder is
 * what applications and the muxers expect (timestamps and frame
 * bookkeeping, key-unit requests, latency, caps negotiation of
 * image/x-jpc and image/x-j2c). What it shares with the other elements it
 * takes from them: the engine properties (cf_engine_props.h), the mapping
 * of raw frames (raw_frame.h), the CUDA context sharing (cuda_memory.h) and
 * the input pools (cf_allocation.h).
 *
 * ## Example launch lines
 * ```
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=RGB,width=640,height=480 \
 *     ! cudaj2kenc ! openjpegdec ! videoconvert ! autovideosink
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=I420,width=640,height=480 \
 *     ! cudaj2kenc reversible=false bitrate=2 ! mxfmux ! filesink location=out.mxf
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=Y444,width=640,height=480 \
 *     ! cudaj2kenc ! mj2mux ! filesink location=out.mj2
 * ```
 */

#include <gst/video/gstvideoencoder.h>
#include <gst/video/video.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cf_allocation.h"
#include "cf_base.h"
#include "cf_engine_host.h"
#include "cf_private.h"
#include "cuda_memory.h"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k.hpp"
#include "j2k_caps.h"
#include "j2k_enums.h"
#include "raw_formats.h"
#include "raw_frame.h"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_j2k_enc_debug);
#define GST_CAT_DEFAULT gst_cuda_j2k_enc_debug

G_BEGIN_DECLS
#define GST_TYPE_CUDA_J2K_ENC (gst_cuda_j2k_enc_get_type())
G_DECLARE_FINAL_TYPE(GstCudaJ2kEnc, gst_cuda_j2k_enc, GST, CUDA_J2K_ENC, GstVideoEncoder)
G_END_DECLS

struct _GstCudaJ2kEnc {
  GstVideoEncoder parent;
};

struct GstCudaJ2kEncPrivate {
  // Properties: GST_OBJECT_LOCK.
  cf::J2kSettings settings;
  std::string precincts;        // the `precincts` text as set
  std::string precincts_error;  // what is wrong with it: an element error at caps time or the next frame
  // The engine properties, the engine and its CUDA context, as GstCfBase
  // holds them. The encoder refers to the engine and goes first
  // (destroy_engine).
  cfgst::EngineHost host;

  // State-change and streaming threads.
  std::unique_ptr<cf::J2kEncoder> encoder;
  cfgst::PadFormat in;
  bool configured = false;
  bool j2c = false;                      // image/x-j2c: a jp2c box header before the codestream
  std::vector<std::uint8_t> codestream;  // reused between frames
  guint64 frames = 0;                    // coded so far: the size messages' frame numbers
};

G_DEFINE_TYPE_WITH_PRIVATE(GstCudaJ2kEnc, gst_cuda_j2k_enc, GST_TYPE_VIDEO_ENCODER)
GST_ELEMENT_REGISTER_DEFINE(cudaj2kenc, "cudaj2kenc", GST_RANK_NONE, GST_TYPE_CUDA_J2K_ENC)
#define PRIV(self) (static_cast<GstCudaJ2kEncPrivate *>(gst_cuda_j2k_enc_get_instance_private(self)))

enum {
  PROP_0,
  PROP_REVERSIBLE,
  PROP_LEVELS,
  PROP_CODEBLOCK_WIDTH,
  PROP_CODEBLOCK_HEIGHT,
  PROP_BITRATE,
  PROP_LAYERS,
  PROP_PROGRESSION,
  PROP_TILE_WIDTH,
  PROP_TILE_HEIGHT,
  PROP_CODEBLOCK_STYLE,
  PROP_BLOCK_CODER,
  PROP_MAX_BYTES,
  PROP_MARKERS,
  PROP_TILE_PARTS,
  PROP_PRECINCTS,
  PROP_PROFILE,
  PROP_PROFILE_MAIN_LEVEL,
  PROP_PROFILE_SUBLEVEL,
  PROP_ENGINE_FIRST,  // then the engine properties, in cfgst::EngineProp order
};

static guint engine_prop(cfgst::EngineProp p) { return PROP_ENGINE_FIRST + guint(p); }

using cf::j2k_limits::kMaxCodeblock;
using cf::j2k_limits::kMaxLayers;
using cf::j2k_limits::kMaxLevels;
using cf::j2k_limits::kMinCodeblock;
static constexpr double kMaxBitrate = 1024;  // bits per pixel: more than 4 components of 16 bits ever need

#define J2K_SINK_CAPS                                                                                   \
  CF_CUDA_CAPS_FIRST("video/x-raw(memory:CUDAMemory), format=(string)" CF_J2K_CUDA_RAW_FORMATS          \
                     ", width=(int)[1, 16384], height=(int)[1, 16384], framerate=(fraction)[0/1, MAX]") \
  "video/x-raw, format=(string)" CF_J2K_RAW_FORMATS                                                     \
  ", width=(int)[1, 16384], height=(int)[1, 16384], framerate=(fraction)[0/1, MAX]"

#define J2K_CODESTREAM_FIELDS                                                                                   \
  ", width=(int)[1, 16384], height=(int)[1, 16384], framerate=(fraction)[0/1, MAX], num-components=(int)[1, 4]" \
  ", colorspace=(string){ sRGB, sYUV, GRAY }, sampling=(string)" CF_J2K_SAMPLINGS

static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS(J2K_SINK_CAPS));
// image/x-jpc first: the bare codestream unless downstream asks for j2c.
static GstStaticPadTemplate src_template =
    GST_STATIC_PAD_TEMPLATE("src", GST_PAD_SRC, GST_PAD_ALWAYS,
                            GST_STATIC_CAPS("image/x-jpc" J2K_CODESTREAM_FIELDS "; image/x-j2c" J2K_CODESTREAM_FIELDS));

// ---------------------------------------------------------------------------
// The engine (as GstCfBase makes it)

static void destroy_engine(GstCudaJ2kEncPrivate *priv) {
  priv->encoder.reset();
  cfgst::destroy_engine(priv->host);
}

// The engine from the properties (an element error when the backend cannot
// be used), and the encoder on it.
static bool create_engine(GstCudaJ2kEnc *self) {
  GstCudaJ2kEncPrivate *priv = PRIV(self);
  if (!cfgst::create_engine(GST_ELEMENT(self), priv->host, true, gst_cuda_j2k_enc_debug)) return false;
  priv->encoder = std::make_unique<cf::J2kEncoder>(*priv->host.engine);
  return true;
}

// memory:CUDAMemory needs the shared GstCudaContext of device-id; a CUDA
// engine made elsewhere is made again in it. Posts an element error when
// there is none.
static bool prepare_cuda_memory(GstCudaJ2kEnc *self) {
  GstCudaJ2kEncPrivate *priv = PRIV(self);
  if (!cfgst::ensure_cuda_context(GST_ELEMENT(self), priv->host, gst_cuda_j2k_enc_debug)) return false;
  if (cfgst::engine_outside_cuda_context(priv->host)) {
    destroy_engine(priv);
    return create_engine(self);
  }
  return true;
}

// The settings, and in `why` what is wrong with a property the settings
// cannot hold (a `precincts` text that does not parse).
static cf::J2kSettings settings_of(GstCudaJ2kEnc *self, std::string &why) {
  GST_OBJECT_LOCK(self);
  const cf::J2kSettings s = PRIV(self)->settings;
  why = PRIV(self)->precincts_error;
  GST_OBJECT_UNLOCK(self);
  return s;
}

// ---------------------------------------------------------------------------
// GstVideoEncoder

static gboolean gst_cuda_j2k_enc_start(GstVideoEncoder *enc) {
  return create_engine(GST_CUDA_J2K_ENC(enc)) ? TRUE : FALSE;
}

static gboolean gst_cuda_j2k_enc_stop(GstVideoEncoder *enc) {
  GstCudaJ2kEnc *self = GST_CUDA_J2K_ENC(enc);
  GstCudaJ2kEncPrivate *priv = PRIV(self);
  priv->encoder.reset();
  cfgst::stop_engine(GST_ELEMENT(self), priv->host);
  priv->configured = false;
  return TRUE;
}

// Downstream's own order decides between image/x-jpc and image/x-j2c (the
// first of the two it lists); the bare codestream when it takes anything.
// mj2mux lists image/x-j2c first, and GStreamer 1.22's mj2mux loses the
// timestamps of image/x-jpc buffers when it boxes them itself.
static bool downstream_wants_j2c(GstVideoEncoder *enc) {
  GstCaps *peer = gst_pad_peer_query_caps(GST_VIDEO_ENCODER_SRC_PAD(enc), nullptr);
  bool j2c = false;
  for (guint i = 0; peer && !gst_caps_is_any(peer) && i < gst_caps_get_size(peer); ++i) {
    const GstStructure *s = gst_caps_get_structure(peer, i);
    if (gst_structure_has_name(s, "image/x-jpc")) break;
    if (gst_structure_has_name(s, "image/x-j2c")) {
      j2c = true;
      break;
    }
  }
  if (peer) gst_caps_unref(peer);
  return j2c;
}

static gboolean gst_cuda_j2k_enc_set_format(GstVideoEncoder *enc, GstVideoCodecState *state) {
  GstCudaJ2kEnc *self = GST_CUDA_J2K_ENC(enc);
  GstCudaJ2kEncPrivate *priv = PRIV(self);
  priv->configured = false;
  cfgst::PadFormat in;
  in.info = state->info;
  const GstVideoFormat format = GST_VIDEO_INFO_FORMAT(&in.info);
  if (!cfgst::caps_memory(state->caps, 0, &in.cuda) || !cfgst::j2k_format_supported(format) ||
      (in.cuda && !cfgst::j2k_cuda_format_supported(format))) {
    GST_ELEMENT_ERROR(
        self, CORE, NEGOTIATION,
        ("format %s is not supported in %s (supported: %s)", gst_video_format_to_string(format),
         in.cuda ? cfgst::kCudaMemoryFeature : "system memory", in.cuda ? CF_J2K_CUDA_RAW_FORMATS : CF_J2K_RAW_FORMATS),
        ("sink caps: %" GST_PTR_FORMAT, state->caps));
    return FALSE;
  }
  in.type = cfgst::raw_sample_type(format);
  in.size = GST_VIDEO_INFO_SIZE(&in.info);

  // The frame's geometry against the settings now, so that a refused
  // combination is named at caps time rather than at the first frame. The
  // check reads the geometry, never a sample: the planes point at a
  // placeholder only because a view's planes must not be null.
  static std::uint8_t placeholder;
  cf::FrameView shape = cfgst::raw_frame_shape(in.info);
  for (int p = 0; p < shape.n_planes; ++p) shape.planes[p].data = &placeholder;
  std::string why;
  const cf::J2kSettings settings = settings_of(self, why);
  if (why.empty()) why = cf::j2k_encode_check(cfgst::j2k_input(shape, in.info), settings);
  if (!why.empty()) {
    GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS, ("%s", why.c_str()), ("input: %s", in.describe().c_str()));
    return FALSE;
  }
  if (in.cuda && !prepare_cuda_memory(self)) return FALSE;

  priv->in = in;
  priv->j2c = downstream_wants_j2c(enc);
  GstVideoCodecState *out =
      gst_video_encoder_set_output_state(enc, cfgst::j2k_codestream_caps(in.info, priv->j2c), state);
  gst_video_codec_state_unref(out);
  priv->configured = true;
  GST_DEBUG_OBJECT(self, "coding %s as %s", in.describe().c_str(), priv->j2c ? "image/x-j2c" : "image/x-jpc");
  return gst_video_encoder_negotiate(enc);
}

// Property changes reach the engine here, at the next frame.
static bool prepare_engine(GstCudaJ2kEnc *self) {
  GstCudaJ2kEncPrivate *priv = PRIV(self);
  GST_OBJECT_LOCK(self);
  const bool stale = priv->host.engine_stale;
  const int threads = int(priv->host.threads);
  GST_OBJECT_UNLOCK(self);
  if (!priv->host.engine || stale) {
    destroy_engine(priv);
    if (priv->in.cuda && !prepare_cuda_memory(self)) return false;
    if (!priv->host.engine && !create_engine(self)) return false;
  }
  priv->host.engine->set_threads(threads);
  return true;
}

static GstFlowReturn drop_with_error(GstCudaJ2kEnc *self, GstVideoCodecFrame *frame) {
  gst_video_codec_frame_unref(frame);
  return PRIV(self)->configured ? GST_FLOW_ERROR : GST_FLOW_NOT_NEGOTIATED;
}

// Under max-bytes, each frame's size in an element message "cudaj2kenc":
// frame (from 0), bytes (of the codestream), max-bytes and bits-per-pixel
// (of the frame's width x height). Without a limit nothing is posted, so
// an application that reads no messages collects none.
static void post_frame_size(GstCudaJ2kEnc *self, const cf::J2kSettings &s, std::size_t bytes) {
  GstCudaJ2kEncPrivate *priv = PRIV(self);
  const guint64 frame = priv->frames++;
  if (s.max_bytes == 0) return;
  const double pixels = double(GST_VIDEO_INFO_WIDTH(&priv->in.info)) * GST_VIDEO_INFO_HEIGHT(&priv->in.info);
  GstStructure *m = gst_structure_new("cudaj2kenc", "frame", G_TYPE_UINT64, frame, "bytes", G_TYPE_UINT64,
                                      guint64(bytes), "max-bytes", G_TYPE_UINT64, guint64(s.max_bytes),
                                      "bits-per-pixel", G_TYPE_DOUBLE, 8.0 * double(bytes) / pixels, nullptr);
  gst_element_post_message(GST_ELEMENT(self), gst_message_new_element(GST_OBJECT(self), m));
}

static GstFlowReturn gst_cuda_j2k_enc_handle_frame(GstVideoEncoder *enc, GstVideoCodecFrame *frame) {
  GstCudaJ2kEnc *self = GST_CUDA_J2K_ENC(enc);
  GstCudaJ2kEncPrivate *priv = PRIV(self);
  if (!priv->configured) {
    GST_ELEMENT_ERROR(self, CORE, NEGOTIATION, ("no caps were negotiated before the first frame"), (nullptr));
    return drop_with_error(self, frame);
  }
  if (!prepare_engine(self)) return drop_with_error(self, frame);

  // Device pointers only for GstCudaMemory of the engine's context; other
  // memory is read on the host (GstCudaMemory through its staging copy).
  const bool device = cfgst::buffer_in_context(frame->input_buffer, priv->host.engine_ctx);
  if (device && !priv->host.legacy_stream) cfgst::wait_default_stream(priv->host.engine_ctx);
  std::string why;
  cfgst::MappedFrame mapped;
  if (!mapped.map(frame->input_buffer, priv->in, GST_MAP_READ, device, "input", &why)) {
    GST_ELEMENT_ERROR(self, STREAM, FORMAT, ("%s", why.c_str()), (nullptr));
    return drop_with_error(self, frame);
  }
  const cf::J2kSettings settings = settings_of(self, why);
  if (!why.empty()) {
    GST_ELEMENT_ERROR(self, LIBRARY, SETTINGS, ("%s", why.c_str()), ("input: %s", priv->in.describe().c_str()));
    return drop_with_error(self, frame);
  }
  try {
    priv->encoder->encode(cfgst::j2k_input(mapped.view(), priv->in.info), settings, priv->codestream);
  } catch (const std::exception &e) {
    GST_ELEMENT_ERROR(
        self, LIBRARY, SETTINGS, ("%s", e.what()),
        ("backend %s, input %s", cf::backend_name(priv->host.engine->backend()), priv->in.describe().c_str()));
    return drop_with_error(self, frame);
  }

  const std::size_t header = priv->j2c ? cfgst::kJp2cHeaderBytes : 0;
  GstBuffer *out = gst_video_encoder_allocate_output_buffer(enc, header + priv->codestream.size());
  GstMapInfo map;
  if (!out || !gst_buffer_map(out, &map, GST_MAP_WRITE)) {
    if (out) gst_buffer_unref(out);
    GST_ELEMENT_ERROR(self, RESOURCE, FAILED,
                      ("cannot allocate an output buffer of %zu bytes", header + priv->codestream.size()), (nullptr));
    return drop_with_error(self, frame);
  }
  if (priv->j2c) cfgst::write_jp2c_header(map.data, priv->codestream.size());
  std::copy(priv->codestream.begin(), priv->codestream.end(), map.data + header);
  gst_buffer_unmap(out, &map);
  frame->output_buffer = out;
  GST_VIDEO_CODEC_FRAME_SET_SYNC_POINT(frame);
  post_frame_size(self, settings, priv->codestream.size());
  return gst_video_encoder_finish_frame(enc, frame);
}

// CUDA input gets a GstCudaBufferPool of the shared context; a CUDA engine
// offers pinned system-memory buffers. Otherwise GstVideoEncoder's default.
static gboolean gst_cuda_j2k_enc_propose_allocation(GstVideoEncoder *enc, GstQuery *query) {
  GstCudaJ2kEncPrivate *priv = PRIV(GST_CUDA_J2K_ENC(enc));
  if (priv->configured && (priv->in.cuda || priv->host.pinned)) {
    gst_query_add_allocation_meta(query, GST_VIDEO_META_API_TYPE, nullptr);
    cfgst::propose_input_pool(query, priv->in, priv->host.cuda_ctx, priv->host.pinned);
    return TRUE;
  }
  return GST_VIDEO_ENCODER_CLASS(gst_cuda_j2k_enc_parent_class)->propose_allocation(enc, query);
}

static gboolean gst_cuda_j2k_enc_sink_query(GstVideoEncoder *enc, GstQuery *query) {
  if (cfgst::answer_context_query(GST_ELEMENT(enc), PRIV(GST_CUDA_J2K_ENC(enc))->host, query)) return TRUE;
  return GST_VIDEO_ENCODER_CLASS(gst_cuda_j2k_enc_parent_class)->sink_query(enc, query);
}

static gboolean gst_cuda_j2k_enc_src_query(GstVideoEncoder *enc, GstQuery *query) {
  if (cfgst::answer_context_query(GST_ELEMENT(enc), PRIV(GST_CUDA_J2K_ENC(enc))->host, query)) return TRUE;
  return GST_VIDEO_ENCODER_CLASS(gst_cuda_j2k_enc_parent_class)->src_query(enc, query);
}

static void gst_cuda_j2k_enc_set_context(GstElement *element, GstContext *context) {
  cfgst::set_engine_context(element, PRIV(GST_CUDA_J2K_ENC(element))->host, context);
  GST_ELEMENT_CLASS(gst_cuda_j2k_enc_parent_class)->set_context(element, context);
}

// ---------------------------------------------------------------------------
// GObject

static void gst_cuda_j2k_enc_set_property(GObject *object, guint id, const GValue *value, GParamSpec *pspec) {
  GstCudaJ2kEnc *self = GST_CUDA_J2K_ENC(object);
  GstCudaJ2kEncPrivate *priv = PRIV(self);
  cf::J2kSettings &s = priv->settings;
  GST_OBJECT_LOCK(self);
  switch (id) {
    case PROP_REVERSIBLE: s.reversible = g_value_get_boolean(value); break;
    case PROP_LEVELS: s.levels = g_value_get_int(value); break;
    case PROP_CODEBLOCK_WIDTH: s.codeblock_width = g_value_get_int(value); break;
    case PROP_CODEBLOCK_HEIGHT: s.codeblock_height = g_value_get_int(value); break;
    case PROP_BITRATE: s.bitrate = g_value_get_double(value); break;
    case PROP_LAYERS: s.layers = g_value_get_int(value); break;
    case PROP_PROGRESSION: s.progression = cf::J2kProgression(g_value_get_enum(value)); break;
    case PROP_TILE_WIDTH: s.tile_width = g_value_get_int(value); break;
    case PROP_TILE_HEIGHT: s.tile_height = g_value_get_int(value); break;
    case PROP_CODEBLOCK_STYLE: s.codeblock_style = g_value_get_flags(value); break;
    case PROP_BLOCK_CODER: s.block_coder = cf::J2kBlockCoder(g_value_get_enum(value)); break;
    case PROP_MAX_BYTES: s.max_bytes = g_value_get_uint64(value); break;
    case PROP_MARKERS: s.markers = g_value_get_flags(value); break;
    case PROP_TILE_PARTS: s.tile_parts = cf::J2kTileParts(g_value_get_enum(value)); break;
    case PROP_PROFILE: s.profile = cf::J2kProfile(g_value_get_enum(value)); break;
    case PROP_PROFILE_MAIN_LEVEL: s.profile_level.main = g_value_get_int(value); break;
    case PROP_PROFILE_SUBLEVEL: s.profile_level.sub = g_value_get_int(value); break;
    case PROP_PRECINCTS: {
      const gchar *text = g_value_get_string(value);
      priv->precincts = text ? text : "";
      priv->precincts_error = cf::j2k_parse_precincts(priv->precincts, s.precincts);
      if (!priv->precincts_error.empty()) GST_WARNING_OBJECT(self, "%s", priv->precincts_error.c_str());
      break;
    }
    default:
      if (id >= engine_prop(cfgst::EngineProp::Backend) && id <= engine_prop(cfgst::EngineProp::HostWait))
        cfgst::set_engine_property(priv->host, cfgst::EngineProp(id - PROP_ENGINE_FIRST), value);
      else
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_cuda_j2k_enc_get_property(GObject *object, guint id, GValue *value, GParamSpec *pspec) {
  GstCudaJ2kEnc *self = GST_CUDA_J2K_ENC(object);
  GstCudaJ2kEncPrivate *priv = PRIV(self);
  const cf::J2kSettings &s = priv->settings;
  GST_OBJECT_LOCK(self);
  switch (id) {
    case PROP_REVERSIBLE: g_value_set_boolean(value, s.reversible); break;
    case PROP_LEVELS: g_value_set_int(value, s.levels); break;
    case PROP_CODEBLOCK_WIDTH: g_value_set_int(value, s.codeblock_width); break;
    case PROP_CODEBLOCK_HEIGHT: g_value_set_int(value, s.codeblock_height); break;
    case PROP_BITRATE: g_value_set_double(value, s.bitrate); break;
    case PROP_LAYERS: g_value_set_int(value, s.layers); break;
    case PROP_PROGRESSION: g_value_set_enum(value, int(s.progression)); break;
    case PROP_TILE_WIDTH: g_value_set_int(value, s.tile_width); break;
    case PROP_TILE_HEIGHT: g_value_set_int(value, s.tile_height); break;
    case PROP_CODEBLOCK_STYLE: g_value_set_flags(value, s.codeblock_style); break;
    case PROP_BLOCK_CODER: g_value_set_enum(value, int(s.block_coder)); break;
    case PROP_MAX_BYTES: g_value_set_uint64(value, s.max_bytes); break;
    case PROP_MARKERS: g_value_set_flags(value, s.markers); break;
    case PROP_TILE_PARTS: g_value_set_enum(value, int(s.tile_parts)); break;
    case PROP_PRECINCTS: g_value_set_string(value, priv->precincts.c_str()); break;
    case PROP_PROFILE: g_value_set_enum(value, int(s.profile)); break;
    case PROP_PROFILE_MAIN_LEVEL: g_value_set_int(value, s.profile_level.main); break;
    case PROP_PROFILE_SUBLEVEL: g_value_set_int(value, s.profile_level.sub); break;
    default:
      if (id >= engine_prop(cfgst::EngineProp::Backend) && id <= engine_prop(cfgst::EngineProp::ActiveBackend))
        cfgst::get_engine_property(priv->host, cfgst::EngineProp(id - PROP_ENGINE_FIRST), value);
      else
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, id, pspec);
  }
  GST_OBJECT_UNLOCK(self);
}

static void gst_cuda_j2k_enc_finalize(GObject *object) {
  GstCudaJ2kEncPrivate *priv = PRIV(GST_CUDA_J2K_ENC(object));
  priv->encoder.reset();
  cfgst::stop_engine(GST_ELEMENT(object), priv->host);
  cfgst::destroy_private(priv);
  G_OBJECT_CLASS(gst_cuda_j2k_enc_parent_class)->finalize(object);
}

static void install_settings_properties(GObjectClass *gobject_class) {
  const cf::J2kSettings d;  // the core's defaults are the properties' defaults
  const auto rw = GParamFlags(G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | GST_PARAM_MUTABLE_PLAYING);
  g_object_class_install_property(
      gobject_class, PROP_REVERSIBLE,
      g_param_spec_boolean("reversible", "Reversible",
                           "true: RCT and the 5/3 wavelet, lossless; false: ICT and the 9/7 wavelet, quantised",
                           d.reversible, rw));
  g_object_class_install_property(
      gobject_class, PROP_LEVELS,
      g_param_spec_int("levels", "Levels",
                       "Wavelet decomposition levels; at most log2 of the shortest side of any tile-component (an "
                       "element error names the limit)",
                       0, kMaxLevels, d.levels, rw));
  g_object_class_install_property(gobject_class, PROP_CODEBLOCK_WIDTH,
                                  g_param_spec_int("codeblock-width", "Code-block width",
                                                   "Code-block width: a power of two, and width x height at most 4096",
                                                   kMinCodeblock, kMaxCodeblock, d.codeblock_width, rw));
  g_object_class_install_property(gobject_class, PROP_CODEBLOCK_HEIGHT,
                                  g_param_spec_int("codeblock-height", "Code-block height",
                                                   "Code-block height: a power of two, and width x height at most 4096",
                                                   kMinCodeblock, kMaxCodeblock, d.codeblock_height, rw));
  g_object_class_install_property(
      gobject_class, PROP_BITRATE,
      g_param_spec_double("bitrate", "Bitrate",
                          "Target bits per pixel of the whole codestream (irreversible coding only); 0 = keep every "
                          "coding pass",
                          0, kMaxBitrate, d.bitrate, rw));
  g_object_class_install_property(
      gobject_class, PROP_MAX_BYTES,
      g_param_spec_uint64("max-bytes", "Max bytes",
                          "Every frame's codestream at most this many bytes (0 = no limit): a frame that would be "
                          "larger loses coding passes (a reversible one is then no longer lossless); with a bitrate, "
                          "the smaller size is the target",
                          0, G_MAXUINT64, d.max_bytes, rw));
  g_object_class_install_property(
      gobject_class, PROP_LAYERS,
      g_param_spec_int("layers", "Quality layers",
                       "Quality layers: layer l (from 0) ends at (l + 1) / layers of the target rate", 1, kMaxLayers,
                       d.layers, rw));
  g_object_class_install_property(gobject_class, PROP_PROGRESSION,
                                  g_param_spec_enum("progression", "Progression order", "Order of the packets",
                                                    GST_TYPE_CF_J2K_PROGRESSION, int(d.progression), rw));
  g_object_class_install_property(
      gobject_class, PROP_TILE_WIDTH,
      g_param_spec_int("tile-width", "Tile width", "Tile width (0 = the frame's width: one tile across)", 0, G_MAXINT,
                       d.tile_width, rw));
  g_object_class_install_property(
      gobject_class, PROP_TILE_HEIGHT,
      g_param_spec_int("tile-height", "Tile height", "Tile height (0 = the frame's height: one tile down)", 0, G_MAXINT,
                       d.tile_height, rw));
  g_object_class_install_property(
      gobject_class, PROP_CODEBLOCK_STYLE,
      g_param_spec_flags("codeblock-style", "Code-block style", "Code-block coding switches (COD's code-block style)",
                         GST_TYPE_CF_J2K_CODEBLOCK_STYLE, d.codeblock_style, rw));
  g_object_class_install_property(
      gobject_class, PROP_BLOCK_CODER,
      g_param_spec_enum("block-coder", "Block coder",
                        "Code-block coder: part1 (EBCOT, T.800) or ht (HTJ2K, T.814: one cleanup pass per block)",
                        GST_TYPE_CF_J2K_BLOCK_CODER, int(d.block_coder), rw));
  g_object_class_install_property(
      gobject_class, PROP_MARKERS,
      g_param_spec_flags("markers", "Markers", "Optional marker segments of lengths (T.800 A.7): tlm, plt",
                         GST_TYPE_CF_J2K_MARKERS, d.markers, rw));
  g_object_class_install_property(
      gobject_class, PROP_TILE_PARTS,
      g_param_spec_enum("tile-parts", "Tile-parts",
                        "Where a tile's packets start a new tile-part: one per tile, or wherever the resolution, "
                        "layer or component of the next packet changes",
                        GST_TYPE_CF_J2K_TILE_PARTS, int(d.tile_parts), rw));
  g_object_class_install_property(
      gobject_class, PROP_PROFILE,
      g_param_spec_enum("profile", "Profile",
                        "Codestream profile: the profile's settings in place of the element's. dci-2k, dci-4k "
                        "(digital cinema): 12-bit 4:4:4 input up to 2048x1080 or 4096x2160, at most 1302083 bytes "
                        "a frame or max-bytes when smaller; imf-2k, imf-4k, imf-8k (9/7 at bitrate and max-bytes) "
                        "and imf-2k-r, imf-4k-r, imf-8k-r (5/3): 8 to 16 bits, 4:4:4 or 4:2:2; imf-ht: IMF's HTJ2K "
                        "codestreams, reversible or at bitrate as the element says",
                        GST_TYPE_CF_J2K_PROFILE, int(d.profile), rw));
  g_object_class_install_property(gobject_class, PROP_PROFILE_MAIN_LEVEL,
                                  g_param_spec_int("profile-main-level", "Profile main level",
                                                   "An IMF profile's main level, written into Rsiz (0: unspecified)", 0,
                                                   11, d.profile_level.main, rw));
  g_object_class_install_property(
      gobject_class, PROP_PROFILE_SUBLEVEL,
      g_param_spec_int("profile-sublevel", "Profile sublevel",
                       "An IMF profile's sublevel, written into Rsiz: at most max(1, main level - 2) from main "
                       "level 1",
                       0, 9, d.profile_level.sub, rw));
  g_object_class_install_property(
      gobject_class, PROP_PRECINCTS,
      g_param_spec_string("precincts", "Precincts",
                          "Precinct sizes in samples, \"W,H,W,H,...\" (powers of two, 1 to 32768), from the highest "
                          "resolution down, the last repeating below it; \"\": maximal (32768 x 32768). Code-blocks "
                          "are clipped to a subband's share of a precinct",
                          "", rw));
}

static void gst_cuda_j2k_enc_class_init(GstCudaJ2kEncClass *klass) {
  GST_DEBUG_CATEGORY_INIT(gst_cuda_j2k_enc_debug, "cudaj2kenc", 0, "cudaj2kenc element");
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstVideoEncoderClass *enc_class = GST_VIDEO_ENCODER_CLASS(klass);

  gobject_class->set_property = gst_cuda_j2k_enc_set_property;
  gobject_class->get_property = gst_cuda_j2k_enc_get_property;
  gobject_class->finalize = gst_cuda_j2k_enc_finalize;
  install_settings_properties(gobject_class);
  cfgst::install_engine_properties(gobject_class, PROP_ENGINE_FIRST);

  element_class->set_context = gst_cuda_j2k_enc_set_context;
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  gst_element_class_set_static_metadata(
      element_class, "CUDA JPEG 2000 encoder", "Codec/Encoder/Video/Image",
      "JPEG 2000 Part 1 encoder (ITU-T T.800) on CUDA, OpenMP or the CPU: one codestream per frame "
      "(image/x-jpc, or image/x-j2c in a jp2c box), reversible (5/3, lossless) or irreversible (9/7, with a "
      "bitrate), identical bytes on every backend",
      "cudafilters");

  enc_class->start = gst_cuda_j2k_enc_start;
  enc_class->stop = gst_cuda_j2k_enc_stop;
  enc_class->set_format = gst_cuda_j2k_enc_set_format;
  enc_class->handle_frame = gst_cuda_j2k_enc_handle_frame;
  enc_class->propose_allocation = gst_cuda_j2k_enc_propose_allocation;
  enc_class->sink_query = gst_cuda_j2k_enc_sink_query;
  enc_class->src_query = gst_cuda_j2k_enc_src_query;

  gst_type_mark_as_plugin_api(GST_TYPE_CF_J2K_PROGRESSION, GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(GST_TYPE_CF_J2K_CODEBLOCK_STYLE, GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(GST_TYPE_CF_J2K_MARKERS, GstPluginAPIFlags(0));
  gst_type_mark_as_plugin_api(GST_TYPE_CF_J2K_TILE_PARTS, GstPluginAPIFlags(0));
}

static void gst_cuda_j2k_enc_init(GstCudaJ2kEnc *self) { cfgst::construct_private(PRIV(self)); }
