// The timing loop of the measuring tools (predictor_timing, j2k_timing).
#pragma once

#include <algorithm>
#include <chrono>

namespace cfbench {

// Best of `rounds` rounds of `n` calls, in ms per call, after one warm-up
// call (allocations, clocks); `settle` ends each round (waits for calls that
// only queue work).
template <class F, class G = void (*)()>
double time_ms(
    int rounds, int n, F &&f, G &&settle = [] {}) {
  using Clock = std::chrono::steady_clock;
  f();
  double best = 1e30;
  for (int r = 0; r < rounds; ++r) {
    const auto t = Clock::now();
    for (int i = 0; i < n; ++i) f();
    settle();
    best = std::min(best, std::chrono::duration<double, std::milli>(Clock::now() - t).count() / n);
  }
  return best;
}

}  // namespace cfbench
