/**
 * SECTION:element-cudainverse
 * @title: cudainverse
 * @short_description: Rebuilds raw video from any cudafilters coefficient stream
 *
 * Rebuilds the raw video of a video/x-coefficients stream from its caps
 * alone: the `transform` chain and each stage's parameter fields, the
 * `sample-format`, and the raw `format`, `width`, `height` (framerate,
 * pixel-aspect-ratio, colorimetry, chroma-site and interlace-mode are
 * carried over). The chain is undone from its last stage back; no property
 * besides the common ones.
 *
 * What comes back: chains of reversible integer stages (haar, cdf53, rct,
 * ycocg, med, gap, ged) bit for bit. After dct: the inverse DCT of the
 * rounded (quality 0) or dequantised coefficients, rounded and clamped, so
 * the input up to that rounding or the JPEG quantisation (cuda within 1 of
 * the CPU backends). After cdf97: the inverse wavelet, rounded to the raw
 * format (floor(v + 0.5), clamped); 8-bit video without threshold or
 * quant-step comes back exactly (float error below 1e-3), otherwise up to
 * the thresholding and the quantisation (indices rebuilt at the middle of
 * their bin). The padding byte of RGBx/BGRx, which no stream carries, is
 * written as 0xff.
 *
 * Input: video/x-coefficients in system memory, or in memory:CUDAMemory
 * (S16LE or F32LE, formats RGB, BGR, RGBA, BGRA, I420, NV12, Y444); the
 * output is the raw video in the input's memory.
 *
 * ## Example launch line
 * ```
 * gst-launch-1.0 videotestsrc num-buffers=30 ! video/x-raw,format=NV12,width=640,height=480 \
 *     ! cudacdf53 levels=3 ! cudainverse ! video/x-raw,format=NV12 ! fakesink
 * gst-launch-1.0 videotestsrc num-buffers=1 ! video/x-raw,format=I420,width=640,height=480 \
 *     ! cudacdf97 levels=5 quant-step=8 ! cudainverse ! videoconvert ! pngenc ! filesink location=cdf97-q8.png
 * ```
 */
// Each stage is undone through a row of kUndo; stages between the first and
// the last write into cached intermediate planes of the stream's sample type
// (host vectors, or the engine's device workspace for CUDA memory; none for
// one-stage chains).

#include <cstdint>
#include <vector>

#include "cf_base.h"
#include "cf_private.h"
#include "cudafilters/cdf97.hpp"
#include "cudafilters/colour.hpp"
#include "cudafilters/dct.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/predictor.hpp"
#include "cudafilters/wavelet.hpp"

GST_DEBUG_CATEGORY_STATIC(gst_cuda_inverse_debug);
#define GST_CAT_DEFAULT gst_cuda_inverse_debug

G_BEGIN_DECLS
#define GST_TYPE_CUDA_INVERSE (gst_cuda_inverse_get_type())
G_DECLARE_FINAL_TYPE(GstCudaInverse, gst_cuda_inverse, GST, CUDA_INVERSE, GstCfBase)
G_END_DECLS

struct _GstCudaInverse {
  GstCfBase parent;
};

struct GstCudaInversePrivate {
  // Streaming thread only: intermediate planes for chains of several stages,
  // reallocated when the stream's size changes, never per frame.
  std::vector<std::uint8_t> scratch[2];  // ping-pong
};

G_DEFINE_TYPE_WITH_PRIVATE(GstCudaInverse, gst_cuda_inverse, GST_TYPE_CF_BASE)
#define PRIV(self) (static_cast<GstCudaInversePrivate *>(gst_cuda_inverse_get_instance_private(self)))
GST_ELEMENT_REGISTER_DEFINE(cudainverse, "cudainverse", GST_RANK_NONE, GST_TYPE_CUDA_INVERSE)

// ---------------------------------------------------------------------------
// The undo table: one row per stage kind. A colour transform or predictor
// adds its inverse here (and its stage in coeff_stages.h).

namespace {

using UndoFn = void (*)(cf::Engine &, const cfgst::CoeffStage &, const cf::FrameView &src, const cf::FrameView &dst);

void undo_wavelet(cf::Engine &e, const cfgst::CoeffStage &st, const cf::FrameView &src, const cf::FrameView &dst) {
  cf::wavelet_inverse(e, st.wavelet, src, dst);
}

void undo_predictor(cf::Engine &e, const cfgst::CoeffStage &st, const cf::FrameView &src, const cf::FrameView &dst) {
  cf::predictor_inverse(e, st.predictor, src, dst);
}

void undo_dct(cf::Engine &e, const cfgst::CoeffStage &st, const cf::FrameView &src, const cf::FrameView &dst) {
  cf::dct_inverse(e, st.dct, src, dst);
}

void undo_colour(cf::Engine &e, const cfgst::CoeffStage &st, const cf::FrameView &src, const cf::FrameView &dst) {
  cf::colour_inverse(e, st.colour, src, dst);
}

// Rounds to the raw format at the end (cudafilters/cdf97.hpp).
void undo_cdf97(cf::Engine &e, const cfgst::CoeffStage &st, const cf::FrameView &src, const cf::FrameView &dst) {
  cf::cdf97_inverse(e, st.cdf97, src, dst);
}

struct UndoDef {
  cfgst::StageKind kind;
  UndoFn undo;
};
const UndoDef kUndo[] = {{cfgst::StageKind::Wavelet, undo_wavelet},
                         {cfgst::StageKind::Colour, undo_colour},
                         {cfgst::StageKind::Predictor, undo_predictor},
                         {cfgst::StageKind::Dct, undo_dct},
                         {cfgst::StageKind::Cdf97, undo_cdf97}};

UndoFn find_undo(cfgst::StageKind kind) {
  for (const UndoDef &d : kUndo)
    if (d.kind == kind) return d.undo;
  return nullptr;
}

}  // namespace

// System memory and memory:CUDAMemory; the output keeps the input's memory.
static GstStaticPadTemplate sink_template =
    GST_STATIC_PAD_TEMPLATE("sink", GST_PAD_SINK, GST_PAD_ALWAYS,
                            GST_STATIC_CAPS(CF_CUDA_CAPS_FIRST(
                                "video/x-coefficients(memory:CUDAMemory), sample-format=(string){ S16LE, F32LE }, "
                                "format=(string)" CF_CUDA_RAW_FORMATS) "video/x-coefficients"));

static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE(
    "src", GST_PAD_SRC, GST_PAD_ALWAYS,
    GST_STATIC_CAPS(CF_CUDA_CAPS_FIRST(
        "video/x-raw(memory:CUDAMemory), format=(string)" CF_CUDA_RAW_FORMATS
        ", width=(int)[1, 32767], height=(int)[1, 32767]") "video/x-raw, format=(string)" CF_RAW_FORMATS
                                                           ", width=(int)[1, 32767], height=(int)[1, 32767]"));

static GstCaps *gst_cuda_inverse_transform_caps(GstBaseTransform *trans, GstPadDirection direction, GstCaps *caps,
                                                GstCaps *filter) {
  GstCaps *out, *templ;
  if (direction == GST_PAD_SINK) {
    out = cfgst::raw_caps_from_coeff_caps(caps);
    templ = gst_static_pad_template_get_caps(&src_template);
  } else {
    out = cfgst::coeff_caps_from_raw_caps(caps, nullptr);  // any transform chain
    templ = gst_static_pad_template_get_caps(&sink_template);
  }
  GstCaps *t = gst_caps_intersect_full(out, templ, GST_CAPS_INTERSECT_FIRST);
  gst_caps_unref(out);
  gst_caps_unref(templ);
  out = t;
  if (filter) {
    t = gst_caps_intersect_full(filter, out, GST_CAPS_INTERSECT_FIRST);
    gst_caps_unref(out);
    out = t;
  }
  GST_LOG_OBJECT(trans, "%s %" GST_PTR_FORMAT " -> %" GST_PTR_FORMAT, direction == GST_PAD_SINK ? "sink" : "src", caps,
                 out);
  return out;
}

static std::string gst_cuda_inverse_check_input(GstCfBase *, const cfgst::PadFormat &in) {
  if (!in.coefficients) return "the input must be a video/x-coefficients stream";
  for (const cfgst::CoeffStage &st : in.coeff.stages)
    if (!find_undo(st.kind)) return "caps field 'transform': stage '" + st.name + "' cannot be undone yet";
  return cfgst::check_stage_limits(in.coeff);
}

static std::string gst_cuda_inverse_configure(GstCfBase *base, const cfgst::PadFormat &in,
                                              const cfgst::PadFormat &out) {
  std::string why = gst_cuda_inverse_check_input(base, in);
  if (!why.empty()) return why;
  if (out.coefficients) return "the output must be raw video";
  if (out.cuda != in.cuda) return "the output caps must be in the input's memory (" + in.describe() + ")";
  if (GST_VIDEO_INFO_FORMAT(&out.info) != GST_VIDEO_INFO_FORMAT(&in.info) ||
      GST_VIDEO_INFO_WIDTH(&out.info) != GST_VIDEO_INFO_WIDTH(&in.info) ||
      GST_VIDEO_INFO_HEIGHT(&out.info) != GST_VIDEO_INFO_HEIGHT(&in.info))
    return "the output caps (" + out.describe() + ") are not the video the stream rebuilds (" + in.describe() + ")";
  GST_INFO_OBJECT(base, "undoing %s", in.describe().c_str());
  return "";
}

static void gst_cuda_inverse_process(GstCfBase *base, cf::Engine &engine, const CfFrame &in, const CfFrame &out) {
  GstCudaInverse *self = GST_CUDA_INVERSE(base);
  const cfgst::CoeffFormat &cf = in.format.coeff;
  const int n = int(cf.stages.size());
  cf::FrameView src = in.view;
  // Planes between stages have the components' sizes (only the stream's
  // own planes may be padded, by a last dct stage).
  // They hold integer coefficients (a float cdf97 stage can only be last).
  const cf::PlanarLayout between = cfgst::planar_layout(cf.raw);
  const cf::SampleType between_type = cfgst::coeff_sample_type(GST_VIDEO_INFO_FORMAT(&cf.raw));
  const std::size_t between_size = cf::planar_size(between, between_type);
  for (int i = n - 1; i >= 0; --i) {
    cf::FrameView dst = out.view;
    if (i > 0) {
      // The input of stage i: planes of the stream's sample type, in the
      // memory of the frames (two halves of one workspace on the device).
      if (in.view.memory == cf::Memory::Device) {
        const std::size_t half = (between_size + 255) / 256 * 256;
        auto *ws = static_cast<std::uint8_t *>(engine.device_workspace(2 * half));
        dst = cf::planar_view(ws + (i % 2) * half, between, between_type, cf::Memory::Device);
      } else {
        std::vector<std::uint8_t> &buf = PRIV(self)->scratch[i % 2];
        if (buf.size() < between_size) buf.resize(between_size);
        dst = cf::planar_view(buf.data(), between, between_type, cf::Memory::Host);
      }
    }
    find_undo(cf.stages[i].kind)(engine, cf.stages[i], src, dst);
    src = dst;
  }
  // RGBx/BGRx: the padding byte is not in the stream; write 0xff.
  cfgst::fill_raw_padding(out.view, out.format.info, 0xff);
}

static void gst_cuda_inverse_finalize(GObject *object) {
  cfgst::destroy_private(PRIV(GST_CUDA_INVERSE(object)));
  G_OBJECT_CLASS(gst_cuda_inverse_parent_class)->finalize(object);
}

static void gst_cuda_inverse_class_init(GstCudaInverseClass *klass) {
  GObjectClass *gobject_class = G_OBJECT_CLASS(klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS(klass);
  GstCfBaseClass *base_class = GST_CF_BASE_CLASS(klass);
  GST_DEBUG_CATEGORY_INIT(gst_cuda_inverse_debug, "cudainverse", 0, "cudainverse element");

  gobject_class->finalize = gst_cuda_inverse_finalize;
  gst_element_class_add_static_pad_template(element_class, &sink_template);
  gst_element_class_add_static_pad_template(element_class, &src_template);
  gst_element_class_set_static_metadata(
      element_class, "CUDA coefficient inverse", "Filter/Converter/Video",
      "Rebuilds the raw video of any video/x-coefficients stream, reading only its caps (transform chain "
      "and its parameters, sample-format, format, size), on CUDA, OpenMP or the CPU. Chains of reversible "
      "integer stages (haar, cdf53, rct, ycocg, med, gap, ged) come back bit for bit. After dct: the inverse "
      "DCT of the rounded (quality 0) or JPEG-quantised coefficients, rounded and clamped, so the input up "
      "to that rounding or quantisation (CUDA within 1 of the CPU). After cdf97: the inverse wavelet, "
      "rounded and clamped; 8-bit video without threshold or quant-step comes back exactly (float error "
      "below 1e-3), otherwise up to the thresholding and the quantisation (indices rebuilt at the middle of "
      "their bin). RGBx/BGRx padding bytes, which the stream does not carry, are set to 0xff",
      "cudafilters");

  GST_BASE_TRANSFORM_CLASS(klass)->transform_caps = gst_cuda_inverse_transform_caps;
  base_class->debug = gst_cuda_inverse_debug;
  base_class->check_input = gst_cuda_inverse_check_input;
  base_class->configure = gst_cuda_inverse_configure;
  base_class->process = gst_cuda_inverse_process;
}

static void gst_cuda_inverse_init(GstCudaInverse *self) { cfgst::construct_private(PRIV(self)); }
