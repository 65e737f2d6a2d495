// Buffers <-> core views: what a pad carries (raw video or a coefficient
// stream), and the mapping of one buffer of it into a cf::FrameView, with the
// size checks that keep a short buffer from being read out of bounds.
#pragma once

#include <gst/gst.h>
#include <gst/video/video.h>

#include <string>

#include "coeff_caps.h"
#include "cudafilters/engine.hpp"
#include "cudafilters/frame.hpp"

namespace cfgst {

// The format of one pad, parsed from fixed caps.
struct PadFormat {
  bool coefficients = false;                 // video/x-coefficients, else video/x-raw
  bool cuda = false;                         // caps feature memory:CUDAMemory, else system memory
  GstVideoInfo info;                         // raw: the video; coefficients: the video they rebuild
  CoeffFormat coeff;                         // coefficients only
  cf::SampleType type = cf::SampleType::U8;  // U8/U16 raw, S16/S32 coefficients
  gsize size = 0;                            // bytes of one frame (raw: without GstVideoMeta)
  // "I420 17x13" / "cdf53 coefficients (S16LE) of I420 17x13", then
  // " in CUDA memory" when cuda.
  std::string describe() const;
};

// Raw caps must be one of the supported formats (the message names the
// format otherwise); coefficient caps are parsed strictly (coeff_caps.h).
bool pad_format_from_caps(GstCaps *caps, PadFormat *out, std::string *why);

// The geometry of a raw frame without memory (data pointers null), for
// parameter checks such as cf::wavelet_check.
cf::FrameView raw_frame_shape(const GstVideoInfo &info);
// A mapped raw frame: memory planes from GST_VIDEO_FRAME_PLANE_DATA/STRIDE,
// components from GST_VIDEO_FRAME_COMP_PLANE/POFFSET/PSTRIDE/WIDTH/HEIGHT
// (pixel_stride counted in samples).
cf::FrameView raw_frame_view(const GstVideoFrame &frame);

// Writes `value` into the bytes of each packed pixel that no component covers
// (the x of RGBx/BGRx). Host memory only for now.
void fill_raw_padding(const cf::FrameView &raw, const GstVideoInfo &info, guint8 value);

// Bytes a raw buffer must hold: info.size without GstVideoMeta, otherwise
// what the meta's offsets and strides reach.
gsize raw_required_size(const GstVideoInfo &info, const GstVideoMeta *meta);

// One buffer mapped as its pad format says, unmapped on destruction.
// `device`: map GstCudaMemory to its device pointers (GST_MAP_CUDA) and give a
// Memory::Device view; the caller says so only when every memory of the
// buffer lives in the engine's CUDA context. Otherwise the view is host
// memory: system memory as it is, GstCudaMemory through its host staging copy
// (GstCudaMemory downloads on map and uploads when next mapped for CUDA).
class MappedFrame {
 public:
  MappedFrame() = default;
  ~MappedFrame();
  MappedFrame(const MappedFrame &) = delete;
  MappedFrame &operator=(const MappedFrame &) = delete;

  // `what` ("input", "output") starts the message when the buffer is too
  // small for its caps or cannot be mapped.
  bool map(GstBuffer *buf, const PadFormat &fmt, GstMapFlags flags, bool device, const char *what, std::string *why);
  const cf::FrameView &view() const { return view_; }
  // Raw frames: zeroes the bytes that hold no sample (cf::zero_padding): the
  // tail of each row, and from a plane's last row to where the next plane
  // of its mapping starts (I420 and NV12 of odd height: a luma row), the
  // last plane ending at stride x rows. Coefficient buffers: nothing.
  void zero_padding(cf::Engine &engine) const;

 private:
  GstBuffer *buffer_ = nullptr;
  GstBuffer *host_copy_ = nullptr;  // what buffer_ is, when the GstCudaMemory was copied to the host here
  bool video_ = false;
  GstVideoFrame frame_{};
  GstMapInfo map_{};
  cf::FrameView view_;
};

}  // namespace cfgst
