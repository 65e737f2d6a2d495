// Writing the bytes of a frame's memory that hold no sample, so that a whole
// output buffer is the same whatever the backend.
//
// The transforms write samples only: a FrameView may be a window of a larger
// picture (stride > row_bytes), whose "padding" is someone else's pixels. So
// no call zeroes padding on its own; a caller that owns whole buffers (the
// GStreamer elements, for every raw video frame they write) asks for it here.
#pragma once

#include <cstddef>

#include "cudafilters/engine.hpp"
#include "cudafilters/frame.hpp"

namespace cf {

// Zeroes, in each memory plane p of f, the bytes that hold no sample: the
// stride - row_bytes bytes after each row but the last, and everything from
// the last row's samples up to plane_bytes[p] (the bytes of memory from
// planes[p].data that belong to the plane: stride * rows for a plane with
// its last row padded too, more when a gap follows it; values below the
// samples' extent, (rows - 1) * stride + row_bytes, count as that extent).
// Bytes inside a row between samples (the x of RGBx) are left alone.
// Host memory: zeroed before the call returns, whatever the backend. Device
// memory (CUDA engines only, else cf::Error): cudaMemset2DAsync queued on
// the engine's stream without waiting, so the engine's later work runs after
// it and is complete with it (when a call returns, or at synchronize()).
void zero_padding(Engine &e, const FrameView &f, const std::size_t plane_bytes[kMaxPlanes]);

}  // namespace cf
