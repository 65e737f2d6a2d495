// CUDA entries of the JPEG 2000 decoder (kernels/j2k_decode_cuda.cu): tier-1
// of a tile's code-blocks on the GPU, the same samples as
// cpu::j2k_decode_blocks (cpu/j2k_tier1_decode.hpp). Declared without CUDA
// headers for core/; builds without CUDA link core/src/cuda_stub.cpp instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/src/j2k_packet_reader.hpp"
#include "core/src/j2k_tile_plan.hpp"
#include "cpu/j2k_tier1_decode.hpp"  // BandDecoding
#include "kernels/cuda_device.hpp"

namespace cf::cuda {

// Every code-block of `plan` decoded into `coefficients`, the tile's array
// in device memory (plan.coefficient_count entries, the plan's offsets):
// the array is zeroed first, then each block decoded as
// cpu::j2k_decode_blocks decodes it into a zeroed array. Queued on the
// engine's stream; returns when the blocks' statuses are back (the
// coefficients are then in place): the problem of the lowest-numbered bad
// block (j2k::block_problem), or empty. The descriptors, codewords and work
// areas go in a buffer of the engine kept between calls.
std::string j2k_decode_blocks(detail::CudaState *s, const j2k::TilePlan &plan, const j2k::TileCodewords &cw,
                              const std::vector<j2k::BandDecoding> &bands, std::int32_t *coefficients);

// The same into host memory: the coefficients decoded in the engine's
// buffer, then copied to `coefficients` (plan.coefficient_count entries).
std::string j2k_decode_blocks_to_host(detail::CudaState *s, const j2k::TilePlan &plan, const j2k::TileCodewords &cw,
                                      const std::vector<j2k::BandDecoding> &bands, std::int32_t *coefficients);

}  // namespace cf::cuda
