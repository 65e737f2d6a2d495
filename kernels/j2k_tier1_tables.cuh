// The tables of the Part 1 tier-1 kernels (j2k_tier1_kernels.cuh,
// j2k_tier1_decode_kernels.cuh), made at compile time in device memory:
// each thread block copies those it reads into shared memory, as device code
// always reads them from a copy (mq_row, BlockDecoder::context_labels).
#pragma once

#include <cstdint>

#include "core/shared/j2k_mq_rules.hpp"
#include "core/shared/j2k_tier1_rules.hpp"

namespace cf::cuda::j2k_tier1_tables {

// Table C.2's transitions (the MQ coders).
__device__ const j2k::MqTransitions kMqTransitions = j2k::make_mq_transitions();
// Tables D.1 and D.3 by neighbourhood (the block decoder).
__device__ const j2k::t1::ContextLabels kContextLabels = j2k::t1::make_context_labels();

// `from` into `to` in 32-bit words, thread `first` and every `step`-th
// after it taking one word each (then the block synchronises).
template <class Table>
__device__ __forceinline__ void copy_table(Table &to, const Table &from, int first, int step) {
  static_assert(sizeof(Table) % 4 == 0 && alignof(Table) >= 4, "a table of whole 32-bit words");
  for (int i = first; i < int(sizeof(Table) / 4); i += step)
    reinterpret_cast<std::uint32_t *>(&to)[i] = reinterpret_cast<const std::uint32_t *>(&from)[i];
}

}  // namespace cf::cuda::j2k_tier1_tables
