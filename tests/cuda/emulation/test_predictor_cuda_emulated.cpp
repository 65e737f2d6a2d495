// The CUDA predictors' checks of predictor_parity.hpp on the CPU emulation
// of the CUDA execution model (emulator.hpp): the real kernels/ code compiled
// as C++, thread by thread, compared bit for bit with the serial reference.
// The inverse's persistent kernel (warps waiting on each other's published
// progress) runs here too: blocks one after another, threads as fibers that
// yield in __nanosleep. Sizes cross the forward's tiles (60x32 4-byte pixels,
// 240x16 planar samples; 481 and 517 leave a last tile of 1 and 37 columns)
// and the inverse's 32-row bands and 32-step chunks, whose interior chunks
// skip the border checks (128: a chunk ends on the last column); blocks and
// threads in both orders.
#include "predictor_parity.hpp"

using namespace cft::predictor_parity;

int main() {
  cf::Engine cuda(Backend::Cuda), cpu(Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  for (bool reverse : {false, true}) {
    cf_emulation::set_reverse_order(reverse);
    std::printf("blocks and threads in %s order\n", reverse ? "reverse" : "launch");
    random_frames(cuda, cpu, {{1, 1}, {1, 7}, {7, 1}, {2, 3}, {17, 13}, {70, 67}}, {0, 1, 7, 32});
  }
  random_frames(cuda, cpu, {{131, 97}}, {0, 64});
  random_frames(cuda, cpu, {{481, 9}, {517, 37}, {128, 37}}, {0, 7});
  arbitrary_residuals(cuda, cpu, {{1, 1}, {17, 13}, {40, 70}});
  colour_range_frames(cuda, cpu, {{1, 1}, {7, 5}, {70, 67}}, {0, 7});
  const Size small{97, 61};
  photos(cuda, cpu, &small);
  std::printf("%lld runs, %lld emulated launches, %lld blocks\n", cft::parity::runs(), cf_emulation::launches(),
              cf_emulation::blocks());
  return cft::test_result();
}
