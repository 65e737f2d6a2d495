// Tier-1 decoding over OpenMP threads: blocks are independent, so each
// thread decodes whole blocks with the reference's decode_plan_block and
// the samples are the same.
#include <vector>

#include "cpu/j2k_tier1_decode.hpp"
#include "cpu/omp_threads.hpp"

namespace cf::omp {

std::string j2k_decode_blocks(const j2k::TilePlan &plan, const j2k::TileCodewords &cw,
                              const std::vector<j2k::BandDecoding> &bands, std::int32_t *coefficients, int threads) {
  const long n = long(cw.blocks.size());
  long first_bad = n;
  j2k::t1::BlockStatus bad = j2k::t1::BlockStatus::kOk;
#pragma omp parallel num_threads(thread_count(threads, plan.coefficient_count))
  {
    thread_local j2k::BlockScratch scratch;  // per OpenMP thread, kept between frames
#pragma omp for schedule(dynamic, 4)
    for (long b = 0; b < n; ++b) {
      const j2k::t1::BlockStatus s = j2k::decode_plan_block(plan, cw, bands, std::uint32_t(b), coefficients, scratch);
      if (s != j2k::t1::BlockStatus::kOk) {
#pragma omp critical(cf_j2k_decode_problem)
        if (b < first_bad) first_bad = b, bad = s;
      }
    }
  }
  return first_bad < n ? j2k::block_problem(plan, cw.blocks[std::size_t(first_bad)], bad) : std::string();
}

}  // namespace cf::omp
