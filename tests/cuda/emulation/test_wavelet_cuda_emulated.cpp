// The CUDA wavelets' checks of parity.hpp on the CPU emulation of the CUDA
// execution model (emulator.hpp): the real kernels/ code, compiled as C++, is
// run thread by thread and compared bit for bit with the serial reference.
// This runs everywhere, GPU or not, so the kernels' tiling, halos, odd sizes,
// level plan and staging are checked in CI; test_wavelet_cuda_parity checks
// the same on a real GPU. The colour transforms and histograms
// (colour_parity.hpp) likewise. Sizes are small (the emulation is slow) but cross
// tile boundaries (tiles are 64 x 32) in both directions, and every check
// runs with blocks and threads in both orders.
#include "colour_parity.hpp"

using namespace cft::parity;

int main() {
  cf::Engine cuda(Backend::Cuda), cpu(Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  for (bool reverse : {false, true}) {
    cf_emulation::set_reverse_order(reverse);
    std::printf("blocks and threads in %s order\n", reverse ? "reverse" : "launch");
    random_frames(cuda, cpu, {{1, 1}, {1, 7}, {7, 1}, {2, 3}, {17, 13}, {65, 33}, {130, 67}, {256, 37}});
    colour_frames(cuda, cpu, {{1, 1}, {7, 5}, {65, 33}});
    histogram_frames(cuda, cpu, {{1, 1}, {7, 5}, {65, 33}});
  }
  histogram_edge_cases(cuda, cpu, {{1, 1}, {7, 5}, {65, 33}, {301, 203}});
  colour_chains_in_device_memory(cuda, cpu, {{17, 13}, {67, 35}});
  arbitrary_coefficients(cuda, cpu, {{1, 1}, {2, 2}, {17, 13}, {65, 33}});
  engine_reuse(cpu, {{64, 32}, {17, 13}, {130, 67}, {1, 1}, {131, 68}, {33, 1}}, {{130, 67}, {64, 32}});
  device_memory(cuda, cpu, {{17, 13}, {129, 65}});
  missing_device();
  std::printf("%lld runs, %lld emulated launches, %lld blocks\n", runs(), cf_emulation::launches(),
              cf_emulation::blocks());
  return cft::test_result();
}
