// What the HT code-block encoder and decoder (HTJ2K, ITU-T T.814) share:
// the style bit, the quads' context and exponent prediction from the row
// above, and which coding passes a block's packets carry in which codeword
// segment. CF_HD: host_device.hpp.
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"
#include "core/shared/j2k_block_coder_rules.hpp"
#include "core/shared/j2k_mq_rules.hpp"  // leading_zeros

namespace cf::j2k::ht {

// The code-block style bit (COD's SPcod) that selects HT code-blocks.
constexpr unsigned kStyleHt = 0x40;

// Scup, MEL's and VLC's bytes together, is 2..4079 (T.814); a block of 4096
// samples needs at most about 3200 (16 VLC bits and 7 MEL bits per quad).
constexpr int kMaxScup = 4079;

CF_HD int popcount4(unsigned v) { return int(v & 1) + int((v >> 1) & 1) + int((v >> 2) & 1) + int((v >> 3) & 1); }

CF_HD int bit_length(std::uint32_t v) { return v ? 32 - leading_zeros(v) : 0; }

// MEL's 13 states and the exponent of each (a run of 2^E zero events is
// one bit): 0 0 0 1 1 1 2 2 2 3 3 4 5, counted rather than looked up (an
// array indexed at run time goes to a GPU thread's local memory).
CF_HD int mel_exponent(int state) {
  return int(state >= 3) + int(state >= 6) + int(state >= 9) + int(state >= 11) + int(state >= 12);
}

// c_q of a quad (T.814): in the first row from the left quad alone; below
// it from the row above (exponents a of columns x - 1 .. x + 2, 0 where
// insignificant) and the left quad.
CF_HD unsigned quad_context(bool first_row, unsigned left_rho, int a_m1, int a_0, int a_1, int a_2) {
  if (first_row) return ((left_rho | (left_rho >> 1)) & 1u) | (left_rho >> 1 & 6u);
  const unsigned nw_n = (a_m1 | a_0) != 0, ne_nf = (a_1 | a_2) != 0;
  const unsigned w = (left_rho & 0xCu) != 0;
  return nw_n | (w << 1) | (ne_nf << 2);
}

// kappa_q: 1 in the first row and for a quad of at most one significant
// sample; else the largest exponent above (columns x - 1 .. x + 2) less 1.
CF_HD int quad_kappa(bool first_row, unsigned rho, int a_m1, int a_0, int a_1, int a_2) {
  if (first_row || popcount4(rho) < 2) return 1;
  int e = a_m1 > a_0 ? a_m1 : a_0;
  e = e > a_1 ? e : a_1;
  e = e > a_2 ? e : a_2;
  return e - 1 > 1 ? e - 1 : 1;
}

// The exponents E of the bottom samples of the row of quads above (0:
// insignificant), from which a quad's context c_q and exponent predictor
// kappa_q come; the row being coded is recorded as it goes.
class QuadRows {
 public:
  static constexpr int kColumns = t1::kMaxBlockSide + 4;  // column c at c + 1; -1 and past the end stay 0
  // For a block `width` samples wide (<= t1::kMaxBlockSide).
  CF_HD void clear(int width) {
    used_ = width + 4;
    for (int i = 0; i < used_; ++i) above_[i] = below_[i] = 0;
  }
  CF_HD unsigned context(int x, bool first_row, unsigned left_rho) const {
    return quad_context(first_row, left_rho, above(x - 1), above(x), above(x + 1), above(x + 2));
  }
  CF_HD int kappa(int x, bool first_row, unsigned rho) const {
    return quad_kappa(first_row, rho, above(x - 1), above(x), above(x + 1), above(x + 2));
  }
  // The quad at column x ends with exponents e_bottom_left, e_bottom_right.
  CF_HD void record(int x, int e_bottom_left, int e_bottom_right) {
    below_[x + 1] = std::uint8_t(e_bottom_left);
    below_[x + 2] = std::uint8_t(e_bottom_right);
  }
  CF_HD void next_row() {
    for (int i = 0; i < used_; ++i) above_[i] = below_[i], below_[i] = 0;
  }

 private:
  CF_HD int above(int column) const { return above_[column + 1]; }
  std::uint8_t above_[kColumns], below_[kColumns];
  int used_ = kColumns;  // entries in use: the block's columns, -1 and two past the end
};

// A block's coding passes (T.814): placeholder passes in threes, then
// one HT set: a cleanup pass, a significance propagation pass and a
// magnitude refinement pass. The cleanup pass of a block of `passes` passes
// is pass 3 floor((passes - 1) / 3); each placeholder three adds a missing
// MSB. The cleanup pass (with the placeholders) is one codeword segment,
// the refinement passes a second.
CF_HD constexpr int cleanup_pass(int passes) { return passes > 0 ? 3 * ((passes - 1) / 3) : 0; }
CF_HD constexpr bool pass_ends_segment(int pass, int cleanup) { return pass == cleanup || pass == cleanup + 2; }
CF_HD constexpr int segment_count(int passes) { return passes == 0 ? 0 : passes - cleanup_pass(passes) > 1 ? 2 : 1; }

}  // namespace cf::j2k::ht
