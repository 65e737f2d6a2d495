// What core/ needs from kernels/, declared without CUDA headers. Builds
// without CUDA link cuda_stub.cpp instead, which reports "no CUDA".
#pragma once

#include <string>

#include "cudafilters/cdf97.hpp"
#include "cudafilters/colour.hpp"
#include "cudafilters/entropy.hpp"
#include "cudafilters/frame.hpp"
#include "cudafilters/predictor.hpp"
#include "cudafilters/hough.hpp"
#include "cudafilters/wavelet.hpp"
#include "cpu/dct_setup.hpp"
#include "cpu/halftone_rules.hpp"

namespace cf::detail {
struct CudaState;
bool cuda_usable(int device_id, std::string *why);
CudaState *cuda_create(int device_id);  // throws cf::Error
void cuda_destroy(CudaState *s);        // accepts nullptr
void cuda_synchronize(CudaState *s);
void cuda_use_legacy_stream(CudaState *s, bool on);  // Engine::use_legacy_stream
std::string cuda_device_name(const CudaState *s);
void *pinned_alloc(std::size_t bytes, int device_id);  // nullptr on failure
void pinned_free(void *p);
bool memory_info(int device_id, std::size_t *free_bytes, std::size_t *total_bytes);  // false on failure
void *device_alloc(CudaState *s, std::size_t bytes);   // throws cf::Error
void device_free(CudaState *s, void *p);
void *workspace(CudaState *s, std::size_t bytes);     // Engine::device_workspace; throws cf::Error
long long workspace_allocations(const CudaState *s);  // Engine::workspace_allocations
enum class CopyKind { HostToDevice, DeviceToHost, DeviceToDevice };
void copy(CudaState *s, void *dst, const void *src, std::size_t bytes, CopyKind kind);  // synchronous
// Zeroes `height` rows of `width` bytes, `pitch` apart, in device memory:
// queued on the state's stream, not waited for (cf::zero_padding).
void zero_async(CudaState *s, void *dst, std::size_t pitch, std::size_t width, std::size_t height);
}  // namespace cf::detail

namespace cf::cuda {
// src/dst may each be in host or device memory; host frames are staged
// through cached device buffers on the state's stream. Returns when dst holds
// the result.
void wavelet_forward(detail::CudaState *s, const WaveletParams &p, const FrameView &src,
                     const FrameView &dst);
void wavelet_inverse(detail::CudaState *s, const WaveletParams &p, const FrameView &src,
                     const FrameView &dst);
void cdf97_forward(detail::CudaState *s, const Cdf97Params &p, const FrameView &src, const FrameView &dst);
void cdf97_inverse(detail::CudaState *s, const Cdf97Params &p, const FrameView &src, const FrameView &dst);
void predictor_forward(detail::CudaState *s, const PredictorParams &p, const FrameView &raw, const FrameView &res);
void predictor_inverse(detail::CudaState *s, const PredictorParams &p, const FrameView &res, const FrameView &raw);
// Hough: edge map, votes, threshold and peaks of src (host or device
// memory) on the device. Fills out.threshold, out.edge_pixels and, as `want`
// asks, out.edges / out.accumulator; the peaks come in any order.
void hough_detect(detail::CudaState *s, const HoughParams &p, const HoughGeometry &g, const std::int32_t *trig,
                  const FrameView &src, LumaSource luma, unsigned want, HoughResult &out,
                  std::vector<HoughPeak> &peaks);
// dst = src with the visible lines drawn (cf::hough_draw's rule, checked
// there); host or device frames; returns when dst holds the result.
void hough_draw(detail::CudaState *s, const std::vector<HoughLine> &lines, const HoughDrawParams &d,
                const FrameView &src, const FrameView &dst);
// Error-diffusion halftoning (cf::halftone's rule); returns when dst holds the result.
void halftone(detail::CudaState *s, const halftone_rules::Setup &setup, const FrameView &src, const FrameView &dst);
void colour_transform(detail::CudaState *s, bool inverse, ColourTransform t, const FrameView &src,
                      const FrameView &dst);
// counts: host memory, n_components x shape.bins; returns when they are filled.
void histograms(detail::CudaState *s, const FrameView &f, const HistogramShape &shape, std::uint32_t *counts);
// 8x8 DCT (cf::dct_forward/dct_inverse's rule): forward raw -> coefficients,
// or inverse coefficients -> raw; returns when dst holds the result.
void dct_transform(detail::CudaState *s, bool inverse, const dct::Setup &setup, const FrameView &src,
                   const FrameView &dst);
}  // namespace cf::cuda
