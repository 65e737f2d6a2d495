// The raw video a coefficient stream can carry: formats, the memory their
// caps may name, and the sample types of raw and coefficient planes.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <string>
#include <vector>

#include "cudafilters/frame.hpp"

namespace cfgst {

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

// The RGB family, which colour stages need.
#define CF_RGB_FORMATS "{ RGB, BGR, RGBA, BGRA, RGBx, BGRx }"
#define CF_CUDA_RGB_FORMATS "{ RGB, BGR, RGBA, BGRA }"
bool rgb_format(GstVideoFormat f);

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

}  // namespace cfgst
