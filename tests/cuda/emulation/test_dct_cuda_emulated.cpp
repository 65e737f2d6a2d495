// The CUDA 8x8 DCT's checks of dct_parity.hpp on the CPU emulation of the
// CUDA execution model (emulator.hpp): the real kernels/dct_cuda.cu compiled as
// C++, every memory access checked; sizes cross whole and partial 8x8
// blocks and thread blocks, in both orders of blocks and threads, and frames
// in device memory take the kernels' sample-by-sample path. The emulation
// computes with the host's float arithmetic (no contraction), so the
// kernels must give the CPU's bits exactly: any difference is a product
// summed out of order or a wrong operand, and fails here.
#include <cuda_runtime.h>  // the emulation's: cf_emulation controls

#include "dct_parity.hpp"

using namespace cft::dct_parity;

int main() {
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  for (bool reverse : {false, true}) {
    cf_emulation::set_reverse_order(reverse);
    random_frames(cuda, cpu, {{1, 1}, {7, 5}, {17, 13}, {41, 9}}, {0, 50, 100});
  }
  colour_range(cuda, cpu, {{7, 5}, {33, 17}});
  const Size small{97, 61};
  photos(cuda, cpu, &small);
  skewed_device_frames(cuda, cpu, {{1, 1}, {17, 13}, {41, 9}});
  std::printf("%lld values differ from the CPU's (tolerance %d); %lld emulated launches\n", differing(),
              cf::kDctCudaTolerance, cf_emulation::launches());
  CHECK_MSG(differing() == 0, "%lld values differ from the CPU's bits", differing());
  return cft::test_result();
}
