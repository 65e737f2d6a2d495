// The CUDA Hough checks of hough_cuda_checks.hpp on the CPU emulation of the
// CUDA execution model (emulator.hpp): the real kernels/ code compiled as
// C++, every memory access checked, blocks and threads in both orders, every
// voting strategy (the constant-memory angle table is a plain array here);
// and the line drawing kernel (cf::hough_draw). Small frames (the emulation
// is slow), but wider and taller than the 32 x 8 gradient tiles and 64 x 16
// hysteresis tiles.
#include "hough_cuda_checks.hpp"
#include "hough_draw_check.hpp"

using namespace cft::hough;

int main() {
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  for (bool reverse : {false, true}) {
    cf_emulation::set_reverse_order(reverse);
    std::printf("blocks and threads in %s order\n", reverse ? "reverse" : "launch");
    for_each_voting({"", "shared:1", "shared:3", "global", "constant"}, [&] {
      random_frames(cpu, cuda, {{3, 3}, {7, 5}, {67, 35}}, false);
      angle_counts(cpu, cuda, {40, 21});
    });
  }
  unknown_strategy_refused(cuda);
  real_frames(cpu, cuda, {{131, 67}});
  device_source(cuda, cpu, {{17, 13}});
  engine_reuse(cuda, cpu, {{70, 40}, {5, 3}, {90, 50}});
  // The line drawing kernel against the reference drawing, host and device frames.
  for (bool device : {false, true}) cft::hough_draw::check(cuda, {{1, 1}, {7, 5}, {67, 35}}, {1, 2, 5}, device);
  std::printf("%lld comparisons, %lld emulated launches, %lld blocks\n", comparisons(), cf_emulation::launches(),
              cf_emulation::blocks());
  return cft::test_result();
}
