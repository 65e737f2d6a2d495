// CUDA entries of the JPEG 2000 decoder: tier-1 of a tile's code-blocks on
// the GPU (kernels/j2k_tier1_decode_cuda.cu), the same samples as
// cpu::j2k_decode_blocks (cpu/j2k_tier1_decode.hpp), and the reconstruction
// of the frame (kernels/j2k_reconstruct_cuda.cu), the same samples as
// cpu::j2k_reconstruct (cpu/j2k_reconstruct.hpp). Declared without CUDA
// headers for core/; builds without CUDA link core/src/cuda_stub.cpp instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/codec/j2k_block_decoding.hpp"  // BandDecoding
#include "core/codec/j2k_packet_reader.hpp"
#include "core/codec/j2k_reconstruction.hpp"  // Reconstruction
#include "core/codec/j2k_tile_plan.hpp"
#include "kernels/cuda_device.hpp"

namespace cf::cuda {

// Every code-block of `cw` decoded into `coefficients`, the tile's array
// in device memory (plan.coefficient_count entries, the plan's offsets and
// strides): the array is zeroed first, then each block decoded as
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

// One tile for j2k_decode_tiles: its plan, codewords and band settings,
// and where its coefficients start in the frame's array.
struct J2kTileBlocks {
  const j2k::TilePlan *plan;
  const j2k::TileCodewords *codewords;
  const std::vector<j2k::BandDecoding> *bands;
  std::size_t base;
};

// j2k_decode_blocks for every tile of a frame in one launch: the frame's
// array (coefficient_count entries, device memory) zeroed, then every
// block of every tile decoded at its tile's base; returns each tile's
// problem, as j2k_decode_blocks would.
std::vector<std::string> j2k_decode_tiles(detail::CudaState *s, const std::vector<J2kTileBlocks> &tiles,
                                          std::int32_t *coefficients, std::size_t coefficient_count);

// The frame's coefficient array in device memory: `count` int32 entries in
// the engine's Slot::J2kCoefficients buffer (kept between calls, grown when
// a frame needs more; contents undefined), for j2k_decode_tiles to fill
// and j2k_reconstruct to read.
std::int32_t *j2k_frame_coefficients(detail::CudaState *s, std::size_t count);

// cpu::j2k_reconstruct on the GPU, `coefficients` in device memory: the same
// samples into `out`, a frame in device memory or host memory (then staged
// through the engine's buffers). Returns when `out` holds the frame (on the
// legacy stream with a device frame: once it is queued, as every entry).
void j2k_reconstruct(detail::CudaState *s, const j2k::Layout &layout, const std::int32_t *coefficients,
                     const j2k::Reconstruction &r, const FrameView &out);

}  // namespace cf::cuda
