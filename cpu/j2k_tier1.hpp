// Tier-1 of the JPEG 2000 encoder on the CPU: every code-block of the
// coefficient array through t1::encode_block into its slot of CodedBlocks.
// cf::cpu codes the blocks in order; cf::omp gives them to OpenMP threads
// and gives the same bytes (blocks are independent).
#pragma once

#include <cstdint>

#include "core/codec/j2k_coded_blocks.hpp"
#include "core/codec/j2k_layout.hpp"

namespace cf::j2k {

// Block b of `l` from `coefficients` into `out` (slots already sized);
// `work` holds t1::block_work_bytes of the largest block.
// (out.windows, when not empty, gives the planes each block is coded at.)
void code_block(const Layout &l, const std::int32_t *coefficients, unsigned style, std::uint32_t b, std::uint8_t *work,
                CodedBlocks &out);

// Block b's estimate of every plane (HT: ht::estimate_ht_block, style
// asking for candidates; Part 1: t1::estimate_block) into out.results and
// the pass arrays; out needs no codeword slots.
void estimate_planes(const Layout &l, const std::int32_t *coefficients, unsigned style, std::uint32_t b,
                     CodedBlocks &out);

}  // namespace cf::j2k

namespace cf::cpu {
void j2k_code_blocks(const j2k::Layout &l, const std::int32_t *coefficients, unsigned style, j2k::CodedBlocks &out);
void j2k_estimate_planes(const j2k::Layout &l, const std::int32_t *coefficients, unsigned style, j2k::CodedBlocks &out);
}  // namespace cf::cpu

namespace cf::omp {
// threads = 0: all cores.
void j2k_code_blocks(const j2k::Layout &l, const std::int32_t *coefficients, unsigned style, j2k::CodedBlocks &out,
                     int threads);
void j2k_estimate_planes(const j2k::Layout &l, const std::int32_t *coefficients, unsigned style, j2k::CodedBlocks &out,
                         int threads);
}  // namespace cf::omp
