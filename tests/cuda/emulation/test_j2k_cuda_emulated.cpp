// The JPEG 2000 encoder's cuda backend on the CPU emulation of the CUDA
// execution model: the real kernels/j2k_encode_cuda.cu compiled as C++, thread by
// thread, against the serial reference, codestream byte for byte
// (j2k_parity.hpp). Small sizes: the emulation is slow; they still cross
// 256-thread blocks, tiles and partial code-blocks.
#include "cuda_runtime.h"
#include "j2k_parity.hpp"

using namespace cft::j2k_parity;

int main() {
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  const std::vector<Input> all = {Input::Gray8, Input::Gray16, Input::Rgb, Input::Rgba, Input::I420};
  random_frames(cuda, cpu, {{1, 1}, {7, 3}, {33, 17}}, all);
  // Threads in the other order: a kernel that relied on the order would differ.
  cf_emulation::set_reverse_order(true);
  random_frames(cuda, cpu, {{33, 17}}, {Input::Rgb, Input::I420});
  cf_emulation::set_reverse_order(false);
  random_frames(cuda, cpu, {{127, 65}}, all);
  const Size small{97, 61};
  photos(cuda, cpu, &small);
  wide_rows(cuda, cpu);
  clipped_blocks(cuda, cpu, {45, 37});
  sequence(cuda, cpu, {40, 30}, {21, 50});
  device_frames(cuda, cpu, {{33, 17}});
  overflow(cuda, cf::J2kBlockCoder::Part1);
  overflow(cuda, cf::J2kBlockCoder::Ht);
  plane_estimates(cuda, cf::J2kBlockCoder::Ht);
  plane_estimates(cuda, cf::J2kBlockCoder::Part1);
  std::printf("%lld runs (%lld refused by both), %lld emulated launches\n", runs(), refused(),
              cf_emulation::launches());
  return cft::test_result();
}
