// CUDA entries of the JPEG 2000 encoder (kernels/j2k_encode_cuda.cu): the transform
// stage and tier-1 of a frame on the GPU, the codewords and the blocks'
// summaries brought back for rate allocation and tier-2 on the host.
// Declared without CUDA headers for core/; builds without CUDA link
// core/src/cuda_stub.cpp instead.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/codec/j2k_coded_blocks.hpp"
#include "core/codec/j2k_layout.hpp"
#include "cudafilters/j2k.hpp"
#include "kernels/cuda_device.hpp"

namespace cf::cuda {

// What the encoder keeps on the device for one geometry: the layout's
// tables and every buffer a frame needs. Made by the first frame, reused
// by the next ones of the same layout; the encoder drops it when it plans
// a new layout.
struct J2kPlan;
struct J2kPlanDeleter {
  void operator()(J2kPlan *p) const;  // frees the device memory
};
using J2kPlanPtr = std::unique_ptr<J2kPlan, J2kPlanDeleter>;

// A frame's two stages on the GPU, as the encoder calls them: first the
// transform, then (for HT at a rate) the plane estimates, then tier-1.

// The frame `in` (host memory, uploaded through the engine's staging, or
// device memory, read in place) through the transform (step_reciprocals as
// cpu::j2k_transform takes them) into the plan's coefficients, made first
// when `plan` is empty. Queued on the engine's stream: the frame must stay
// valid until j2k_code_blocks returns.
void j2k_transform(detail::CudaState *s, J2kPlanPtr &plan, const J2kInput &in, const j2k::Layout &layout,
                   const std::vector<float> &step_reciprocals);

// Every plane's estimate of every block (HT cleanup planes, or Part 1
// planes), as cpu::j2k_estimate_planes fills `out` (results and pass
// arrays, sized by the caller). Returns when `out` is filled.
void j2k_estimate_planes(detail::CudaState *s, J2kPlan &plan, unsigned style, j2k::CodedBlocks &out);

// Tier-1 with code-block style `style` (and out.windows: the planes each
// block is coded at). Fills `out` as cpu::j2k_code_blocks does (out's slots sized
// by the caller), except that the codewords come back packed: block b's at
// out.data[out.offset[b]], one after another; out.capacity is the slots'
// size on the device. A block that outgrew its slot reports kOverflow and
// brings back no bytes; then, and only then, the whole coefficient array is
// copied to `coefficients` (layout.coefficient_count entries) so the host
// can code those blocks again. Returns when `out` is filled.
void j2k_code_blocks(detail::CudaState *s, J2kPlan &plan, unsigned style, std::int32_t *coefficients,
                     j2k::CodedBlocks &out);

}  // namespace cf::cuda
