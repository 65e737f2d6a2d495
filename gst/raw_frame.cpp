#include "raw_frame.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "cuda_memory.h"
#include "cudafilters/error.hpp"
#include "cudafilters/padding.hpp"

namespace cfgst {

namespace {

bool fail(std::string *why, const std::string &msg) {
  if (why) *why = msg;
  return false;
}

// A raw view over planes at `data` with `stride` (data may be null: a shape).
cf::FrameView raw_view(const GstVideoInfo &info, guint8 *const data[], const gint stride[]) {
  cf::FrameView v;
  v.type = raw_sample_type(GST_VIDEO_INFO_FORMAT(&info));
  v.memory = cf::Memory::Host;
  const int ss = cf::sample_size(v.type);
  v.n_planes = GST_VIDEO_INFO_N_PLANES(&info);
  v.n_components = GST_VIDEO_INFO_N_COMPONENTS(&info);
  for (int c = 0; c < v.n_components; ++c) {
    cf::Component &k = v.components[c];
    k.plane = GST_VIDEO_INFO_COMP_PLANE(&info, c);
    k.offset = GST_VIDEO_INFO_COMP_POFFSET(&info, c);
    k.pixel_stride = GST_VIDEO_INFO_COMP_PSTRIDE(&info, c) / ss;
    k.width = GST_VIDEO_INFO_COMP_WIDTH(&info, c);
    k.height = GST_VIDEO_INFO_COMP_HEIGHT(&info, c);
    // A plane row spans its widest component's pixels (RGBx: 4 bytes each).
    cf::MemoryPlane &p = v.planes[k.plane];
    p.row_bytes = std::max(p.row_bytes, k.width * GST_VIDEO_INFO_COMP_PSTRIDE(&info, c));
    p.rows = std::max(p.rows, k.height);
  }
  for (int p = 0; p < v.n_planes; ++p) {
    v.planes[p].data = data ? data[p] : nullptr;
    v.planes[p].stride = stride[p];
  }
  return v;
}

}  // namespace

std::string PadFormat::describe() const {
  std::string s = std::string(gst_video_format_to_string(GST_VIDEO_INFO_FORMAT(&info))) + " " +
                  std::to_string(GST_VIDEO_INFO_WIDTH(&info)) + "x" + std::to_string(GST_VIDEO_INFO_HEIGHT(&info));
  const char *where = cuda ? " in CUDA memory" : "";
  if (!coefficients) return s + where;
  std::string chain;
  for (const CoeffStage &st : coeff.stages) chain += (chain.empty() ? "" : ",") + st.name;
  return chain + " coefficients (" + sample_format_name(type) + ") of " + s + where;
}

bool pad_format_from_caps(GstCaps *caps, PadFormat *out, std::string *why) {
  if (!caps || gst_caps_is_empty(caps)) return fail(why, "no caps");
  const GstStructure *s = gst_caps_get_structure(caps, 0);
  PadFormat f;
  if (!caps_memory(caps, 0, &f.cuda)) {
    gchar *features = gst_caps_features_to_string(gst_caps_get_features(caps, 0));
    const std::string msg = std::string("caps feature ") + features + " is not supported (" +
                            (CF_GST_CUDA ? "system memory or memory:CUDAMemory"
                                         : "system memory only: this build has no CUDA-memory support") +
                            ")";
    g_free(features);
    return fail(why, msg);
  }
  if (gst_structure_has_name(s, kCoeffMediaType)) {
    if (!parse_coeff_caps(caps, &f.coeff, why)) return false;
    f.coefficients = true;
    if (f.cuda && !cuda_raw_format_supported(GST_VIDEO_INFO_FORMAT(&f.coeff.raw)))
      return fail(why, std::string("format ") + gst_video_format_to_string(GST_VIDEO_INFO_FORMAT(&f.coeff.raw)) +
                           " is not supported in " + kCudaMemoryFeature + " (supported: " CF_CUDA_RAW_FORMATS ")");
    f.info = f.coeff.raw;
    f.type = f.coeff.sample_type;
    f.size = f.coeff.size;
  } else if (gst_structure_has_name(s, "video/x-raw")) {
    const char *format = gst_structure_get_string(s, "format");
    if (!format) return fail(why, "caps field 'format' is missing or not a fixed string");
    const GstVideoFormat vf = gst_video_format_from_string(format);
    if (!raw_format_supported(vf))
      return fail(why,
                  std::string("format ") + format + " is not supported (supported: " + supported_formats_text() + ")");
    if (f.cuda && !cuda_raw_format_supported(vf))
      return fail(why, std::string("format ") + format + " is not supported in " + kCudaMemoryFeature +
                           " (supported: " CF_CUDA_RAW_FORMATS ")");
    const char *mode = gst_structure_get_string(s, "interlace-mode");
    if (mode && !std::strcmp(mode, "alternate"))
      return fail(why, "interlace-mode=alternate (one field per buffer) is not supported");
    if (!gst_video_info_from_caps(&f.info, caps))
      return fail(why, "raw video caps are incomplete or invalid (need fixed format, width and height)");
    f.type = raw_sample_type(vf);
    f.size = GST_VIDEO_INFO_SIZE(&f.info);
  } else {
    return fail(why, std::string("unexpected media type ") + gst_structure_get_name(s));
  }
  *out = f;
  return true;
}

cf::FrameView raw_frame_shape(const GstVideoInfo &info) { return raw_view(info, nullptr, info.stride); }

cf::FrameView raw_frame_view(const GstVideoFrame &frame) {
  guint8 *data[GST_VIDEO_MAX_PLANES];
  for (int p = 0; p < GST_VIDEO_MAX_PLANES; ++p) data[p] = static_cast<guint8 *>(GST_VIDEO_FRAME_PLANE_DATA(&frame, p));
  return raw_view(frame.info, data, frame.info.stride);
}

void fill_raw_padding(const cf::FrameView &raw, const GstVideoInfo &info, guint8 value) {
  const int ss = cf::sample_size(raw.type);
  for (int p = 0; p < raw.n_planes; ++p) {
    // Bytes of one pixel of this plane that belong to a component.
    int pixel_bytes = 0, width = 0;
    bool covered[16] = {};
    for (int c = 0; c < raw.n_components; ++c) {
      const cf::Component &k = raw.components[c];
      if (k.plane != p) continue;
      pixel_bytes = GST_VIDEO_INFO_COMP_PSTRIDE(&info, c);
      width = k.width;
      for (int b = 0; b < ss && k.offset + b < 16; ++b) covered[k.offset + b] = true;
    }
    if (pixel_bytes <= 0 || pixel_bytes > 16) continue;
    int gaps = 0;
    for (int b = 0; b < pixel_bytes; ++b) gaps += !covered[b];
    if (!gaps) continue;
    // Formats with padding bytes (RGBx, BGRx) are not offered in CUDA memory.
    if (raw.memory != cf::Memory::Host) throw cf::Error("filling padding bytes of device frames is not implemented");
    const cf::MemoryPlane &mp = raw.planes[p];
    for (int y = 0; y < mp.rows; ++y) {
      guint8 *row = static_cast<guint8 *>(mp.data) + std::ptrdiff_t(y) * mp.stride;
      for (int x = 0; x < width; ++x)
        for (int b = 0; b < pixel_bytes; ++b)
          if (!covered[b]) row[x * pixel_bytes + b] = value;
    }
  }
}

gsize raw_required_size(const GstVideoInfo &info, const GstVideoMeta *meta) {
  if (!meta) return GST_VIDEO_INFO_SIZE(&info);
  const cf::FrameView shape = raw_frame_shape(info);
  gsize need = 0;
  for (int p = 0; p < shape.n_planes && p < (int)meta->n_planes; ++p) {
    const cf::MemoryPlane &mp = shape.planes[p];
    const gsize stride = meta->stride[p] > 0 ? gsize(meta->stride[p]) : gsize(mp.row_bytes);
    need = std::max(need, meta->offset[p] + stride * (mp.rows - 1) + mp.row_bytes);
  }
  return need;
}

MappedFrame::~MappedFrame() {
  if (buffer_) {
    if (video_)
      gst_video_frame_unmap(&frame_);
    else
      gst_buffer_unmap(buffer_, &map_);
  }
  if (host_copy_) gst_buffer_unref(host_copy_);
}

bool MappedFrame::map(GstBuffer *buf, const PadFormat &fmt, GstMapFlags flags, bool device, const char *what,
                      std::string *why) {
  const gsize have = gst_buffer_get_size(buf);
  const cf::Memory memory = device ? cf::Memory::Device : cf::Memory::Host;
  if (device) flags = GstMapFlags(flags | kMapCuda);
  if (fmt.coefficients) {
    if (have < fmt.size)
      return fail(why, std::string(what) + " buffer holds " + std::to_string(have) + " bytes, but its caps (" +
                           fmt.describe() + ") need " + std::to_string(fmt.size) + " bytes");
    if (!gst_buffer_map(buf, &map_, flags)) return fail(why, std::string(what) + " buffer cannot be mapped");
    buffer_ = buf;
    view_ = cf::planar_view(map_.data, fmt.coeff.planes, fmt.type, memory);
    return true;
  }
  const GstVideoMeta *meta = gst_buffer_get_video_meta(buf);
  // GstCudaMemory without GstVideoMeta: its own (pitched) layout.
  GstVideoInfo info = fmt.info;
  const bool pitched = !meta && cuda_memory_layout(buf, &info);
  const gsize need = pitched ? GST_VIDEO_INFO_SIZE(&info) : raw_required_size(fmt.info, meta);
  if (have < need)
    return fail(why, std::string(what) + " buffer holds " + std::to_string(have) + " bytes, but its caps (" +
                         fmt.describe() + ") need " + std::to_string(need) + " bytes");
  if (meta &&
      (int(meta->width) != GST_VIDEO_INFO_WIDTH(&fmt.info) || int(meta->height) != GST_VIDEO_INFO_HEIGHT(&fmt.info) ||
       meta->format != GST_VIDEO_INFO_FORMAT(&fmt.info)))
    return fail(why, std::string(what) + " buffer's video meta does not match its caps (" + fmt.describe() + ")");
  // GstCudaMemory read on the host: the device bytes ourselves where
  // GStreamer's staging copy would miss some (cuda_memory_host_copy); the
  // copy has the memory's layout, from its video meta when it has one.
  if (!device && (flags & GST_MAP_WRITE) == 0 && buffer_context(buf)) {
    GstVideoInfo layout = info;
    for (guint p = 0; meta && p < meta->n_planes; ++p) {
      layout.offset[p] = meta->offset[p];
      layout.stride[p] = meta->stride[p];
    }
    if ((host_copy_ = cuda_memory_host_copy(buf, layout))) {
      buf = host_copy_;
      info = layout;
    }
  }
  if (!gst_video_frame_map(&frame_, &info, buf, flags))
    return fail(why, std::string(what) + " buffer cannot be mapped as " + fmt.describe());
  buffer_ = buf;
  video_ = true;
  view_ = raw_frame_view(frame_);
  view_.memory = memory;
  if (const char *bad = cf::check_frame(view_); *bad) return fail(why, std::string(what) + " frame: " + bad);
  return true;
}

void MappedFrame::zero_padding(cf::Engine &engine) const {
  if (!video_) return;
  std::size_t plane_bytes[cf::kMaxPlanes] = {};
  for (int p = 0; p < view_.n_planes; ++p) {
    const cf::MemoryPlane &mp = view_.planes[p];
    const auto start = reinterpret_cast<std::uintptr_t>(mp.data);
    // The mapping that holds the plane: one per plane when the frame was
    // mapped through its GstVideoMeta, else the whole buffer.
    const GstMapInfo &m = frame_.meta ? frame_.map[p] : frame_.map[0];
    const std::uintptr_t mapped_end = reinterpret_cast<std::uintptr_t>(m.data) + m.size;
    std::uintptr_t end = std::min(mapped_end, start + std::uintptr_t(mp.stride) * std::uintptr_t(mp.rows));
    std::uintptr_t next = mapped_end;  // the nearest plane after this one in the mapping
    for (int q = 0; q < view_.n_planes; ++q) {
      const auto other = reinterpret_cast<std::uintptr_t>(view_.planes[q].data);
      if (other > start && other < next) next = other;
    }
    if (next < mapped_end) end = next;
    plane_bytes[p] = std::size_t(end - start);
  }
  cf::zero_padding(engine, view_, plane_bytes);
}

}  // namespace cfgst
