// The CUDA CDF 9/7's checks of cdf97_parity.hpp on the CPU emulation of the
// CUDA execution model: the real kernels/cdf97.cu compiled as C++, thread by
// thread, compared bit for bit with the serial reference (F32 coefficients,
// quantised indices, rounded and float reconstructions). Small sizes: the
// emulation is slow; they still cross 256-thread blocks.
#include "cdf97_parity.hpp"
#include "cuda_runtime.h"

using namespace cft::cdf97_parity;

int main() {
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  for (bool reverse : {false, true}) {
    cf_emulation::set_reverse_order(reverse);
    random_frames(cuda, cpu, {{1, 1}, {7, 5}, {2, 9}, {37, 21}});
  }
  // Several tiles along rows and along columns, with halos across tile edges.
  random_frames(cuda, cpu, {{300, 17}, {45, 290}});
  const Size small{97, 61};
  photos(cuda, cpu, &small);
  std::printf("%lld runs, %lld emulated launches\n", runs(), cf_emulation::launches());
  return cft::test_result();
}
