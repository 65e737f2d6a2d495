// Tier-1 over OpenMP threads: blocks are independent, so each thread codes
// whole blocks with the reference's code_block and the bytes are the same.
#include <vector>

#include "cpu/j2k_tier1.hpp"
#include "cpu/omp_threads.hpp"

namespace cf::omp {

void j2k_code_blocks(const j2k::Layout &l, const std::int32_t *coefficients, unsigned style, j2k::CodedBlocks &out,
                     int threads) {
  out.packed = nullptr;  // the codewords are in the slots of out.data
  const long n = long(l.blocks.size());
  const std::size_t work_bytes = j2k::t1::block_work_bytes(1 << l.params.cb_width_exp, 1 << l.params.cb_height_exp);
#pragma omp parallel num_threads(thread_count(threads, l.coefficient_count))
  {
    thread_local std::vector<std::uint8_t> work;  // per OpenMP thread, kept between frames
    work.resize(work_bytes);
#pragma omp for schedule(dynamic, 4)
    for (long b = 0; b < n; ++b) j2k::code_block(l, coefficients, style, std::uint32_t(b), work.data(), out);
  }
}

void j2k_estimate_planes(const j2k::Layout &l, const std::int32_t *coefficients, unsigned style, j2k::CodedBlocks &out,
                         int threads) {
  const long n = long(l.blocks.size());
#pragma omp parallel for num_threads(thread_count(threads, l.coefficient_count)) schedule(dynamic, 4)
  for (long b = 0; b < n; ++b) j2k::estimate_planes(l, coefficients, style, std::uint32_t(b), out);
}

}  // namespace cf::omp
