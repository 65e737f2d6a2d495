// The video/x-coefficients media type: translation between caps and core/.
//
// A coefficient stream describes itself, so cudainverse (and an application
// reading an appsink) needs nothing but the caps. A typical stream:
//
//   video/x-coefficients, transform=(string)cdf53,
//       cdf53-levels=(int)3, cdf53-layout=(string)mallat,
//       sample-format=(string)S16LE, format=(string)I420,
//       width=(int)640, height=(int)480, framerate=(fraction)30/1,
//       pixel-aspect-ratio=(fraction)1/1, colorimetry=(string)bt601,
//       chroma-site=(string)jpeg, interlace-mode=(string)progressive
//
// transform      the chain of stages in the order they were applied,
//                comma-separated ("cdf53", "rct", "ycocg,cdf53").
//                cudainverse undoes it from the last stage back. A stage
//                appears at most once; a colour stage (rct, ycocg) must be
//                the first one and needs an RGB-family format; a wavelet
//                or predictor stage must be the last one. The values each stage gets are
//                derived from the chain (stage_input_range): after a colour
//                stage, [-255, 255] for 8-bit RGB, which sets the wavelet's
//                level limit and keeps a predictor's residuals in S16
//                (parsing fills a predictor stage's PredictorParams::input).
// <stage>-<param> per-stage parameters as prefixed fields (haar-levels,
//                haar-layout, cdf53-levels, cdf53-layout, dct-quality): a flat structure
//                stays readable with gst_structure_get_int() and writable in a
//                gst-launch capsfilter, unlike nested structures.
// sample-format  S16LE for 8-bit raw formats, S32LE for GRAY16_LE; a cdf97
//                stream: F32LE, or S16LE/S32LE as above with cdf97-quant-step > 0.
// cdf97 fields   cdf97-levels, cdf97-layout, cdf97-quant-step (double, 0 =
//                none), cdf97-threshold (double, 0 = none),
//                cdf97-threshold-mode (string hard or soft).
// format, width, height (required), framerate, pixel-aspect-ratio,
//                colorimetry, chroma-site, interlace-mode (when known): the
//                raw video the stream rebuilds to.
//
// Buffer layout: one tightly packed plane per component (stride = plane width
// x sample size), planes one after another, in GStreamer's component order of
// the raw format: R, G, B(, A) for the RGB family whatever the memory order
// (RGB and BGR give the same planes), Y, U, V for I420/NV12/Y444, Y for gray.
// Chroma planes of I420 and NV12 are ceil(w/2) x ceil(h/2).
// RGBx/BGRx: the padding byte carries no information and is not stored (three
// planes); cudainverse writes 0xff into it. After a colour stage the planes
// are Y, Cb, Cr (rct) or Y, Co, Cg (ycocg), then alpha unchanged (RGBA/BGRA).
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <string>
#include <vector>

#include "cudafilters/cdf97.hpp"
#include "cudafilters/colour.hpp"
#include "cudafilters/dct.hpp"
#include "cudafilters/frame.hpp"
#include "cudafilters/predictor.hpp"
#include "cudafilters/wavelet.hpp"

namespace cfgst {

constexpr const char *kCoeffMediaType = "video/x-coefficients";
constexpr int kMaxLevels = 32;

// The raw formats a coefficient stream can carry; the templates of the
// wavelet elements and cudainverse use the same list.
#define CF_RAW_FORMATS "{ GRAY8, GRAY16_LE, RGB, BGR, RGBA, BGRA, RGBx, BGRx, I420, NV12, Y444 }"
const std::vector<GstVideoFormat> &supported_raw_formats();
bool raw_format_supported(GstVideoFormat f);
std::string supported_formats_text();  // "GRAY8, GRAY16_LE, ..." for messages

// The subset offered in memory:CUDAMemory. GStreamer 1.22's GstCudaMemory
// cannot allocate GRAY8/GRAY16_LE (its allocator aborts on them; cudaupload
// does not offer them), and RGBx/BGRx would need the padding byte written on
// the device, which core has no kernel for.
#define CF_CUDA_RAW_FORMATS "{ RGB, BGR, RGBA, BGRA, I420, NV12, Y444 }"
bool cuda_raw_format_supported(GstVideoFormat f);

// The caps feature of GstCudaMemory (GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY),
// spelled here so caps code builds without the gstreamer-cuda headers.
constexpr const char *kCudaMemoryFeature = "memory:CUDAMemory";
// CF_CUDA_CAPS(x) is "; x" in builds with CUDA-memory support (CF_GST_CUDA),
// else nothing: pad templates add their CUDA-memory structure with it.
#if CF_GST_CUDA
#define CF_CUDA_CAPS(structure) "; " structure
// The same structure placed first: templates list GPU memory before system
// memory, so `cudaupload ! cudacdf53` negotiates memory:CUDAMemory.
#define CF_CUDA_CAPS_FIRST(structure) structure "; "
#else
#define CF_CUDA_CAPS(structure) ""
#define CF_CUDA_CAPS_FIRST(structure) ""
#endif
// True for system memory (no feature, ANY) and, with CUDA-memory support,
// memory:CUDAMemory (*cuda set); false for any other feature.
bool caps_memory(const GstCaps *caps, guint index, bool *cuda);

// U8 or U16: the sample type of a raw format's components.
cf::SampleType raw_sample_type(GstVideoFormat f);
// S16 for 8-bit formats, S32 for 16-bit ones.
cf::SampleType coeff_sample_type(GstVideoFormat f);
const char *sample_format_name(cf::SampleType coeff);  // "S16LE", "S32LE", "F32LE"

// One coefficient plane per component of `raw`, each of the component's size.
cf::PlanarLayout planar_layout(const GstVideoInfo &raw);

// The RGB family, which colour stages need.
#define CF_RGB_FORMATS "{ RGB, BGR, RGBA, BGRA, RGBx, BGRx }"
#define CF_CUDA_RGB_FORMATS "{ RGB, BGR, RGBA, BGRA }"
bool rgb_format(GstVideoFormat f);

// One stage of the transform chain. A new kind adds its parameters here, a
// row to the stage table in coeff_caps.cpp (with its place in a chain and
// the range of its output) and an undo row in gstcudainverse.cpp.
enum class StageKind { Wavelet, Colour, Predictor, Dct, Cdf97 };
struct CoeffStage {
  std::string name;  // as spelled in transform=: "haar", "cdf53", "rct", "ycocg", "med", "gap", "ged"
  StageKind kind = StageKind::Wavelet;
  cf::WaveletParams wavelet;  // kind == Wavelet
  cf::ColourTransform colour = cf::ColourTransform::Rct;  // kind == Colour
  cf::PredictorParams predictor;  // kind == Predictor
  cf::DctParams dct;              // kind == Dct
  cf::Cdf97Params cdf97;  // kind == Cdf97
};
CoeffStage wavelet_stage(const cf::WaveletParams &p);
CoeffStage colour_stage(cf::ColourTransform t);
CoeffStage predictor_stage(const cf::PredictorParams &p);
CoeffStage dct_stage(const cf::DctParams &p);
CoeffStage cdf97_stage(const cf::Cdf97Params &p);
// The sample type of a stream of `stages` on raw `format`: the last
// stage's (cdf97: F32 unquantised), else S16/S32 by the raw depth.
cf::SampleType stream_sample_type(GstVideoFormat format, const std::vector<CoeffStage> &stages);

// "" when `stages`, in this order, form a valid chain on raw `format`
// (known stages, none twice, colour first and on RGB, wavelet last);
// otherwise a message naming the transform (or format) field.
std::string check_chain(const std::vector<CoeffStage> &stages, GstVideoFormat format);

// A parsed, fixed coefficient stream.
struct CoeffFormat {
  std::vector<CoeffStage> stages;  // in the order they were applied
  cf::SampleType sample_type = cf::SampleType::S16;
  GstVideoInfo raw;           // the raw video the stream rebuilds to
  cf::PlanarLayout planes;    // planar_layout(raw), padded to whole 8x8 blocks after a dct stage
  gsize size = 0;             // bytes of one frame
  const CoeffStage *last_wavelet() const;  // nullptr when there is none
};

// Strict parsing of fixed caps: every missing, unfixed or wrong field gives
// false and a message naming the field ("caps field 'width' is missing").
bool parse_coeff_structure(const GstStructure *s, CoeffFormat *out, std::string *why);
bool parse_coeff_caps(const GstCaps *caps, CoeffFormat *out, std::string *why);
// Parameters that are well-formed but do not suit the frame (wavelet levels
// too deep for a plane or the values they get): "" or a message naming the field.
std::string check_stage_limits(const CoeffFormat &f);
// The values that enter stage i of the chain (i == stages.size(): the
// values of the stream): the raw format's range for stage 0, the range of
// the previous stage's output after it (empty when unknown: after a wavelet).
cf::ValueRange stage_input_range(const CoeffFormat &f, std::size_t i);

// Fixed caps for `stages` applied to the raw video `raw`.
GstCaps *build_coeff_caps(const GstVideoInfo &raw, const std::vector<CoeffStage> &stages);

// For transform_caps (caps may hold lists and ranges; unsupported formats and
// memory are dropped; the caller intersects with its templates). Each output
// structure keeps the memory of its input structure (CUDA in, CUDA out):
// raw -> coefficients with `stages` appended (nullptr: any chain, no
// transform field), one structure per format so sample-format stays exact.
GstCaps *coeff_caps_from_raw_caps(const GstCaps *raw, const std::vector<CoeffStage> *stages);
// coefficients -> the raw video they rebuild. With `last_stage`, only
// structures whose chain is that one stage (or leaves transform open).
GstCaps *raw_caps_from_coeff_caps(const GstCaps *coeff, const char *last_stage = nullptr);

// For forward elements that also take coefficients (chain_caps.h):
// coefficients -> the same with `stage` appended, for structures whose fixed
// chain `stage` may continue; and back: structures whose chain ends with
// `stage` after at least one other -> that chain without it (transform left
// open stays open, minus the stage's fields).
GstCaps *append_stage_caps(const GstCaps *coeff, const CoeffStage &stage);
GstCaps *drop_stage_caps(const GstCaps *coeff, const char *stage);

}  // namespace cfgst
