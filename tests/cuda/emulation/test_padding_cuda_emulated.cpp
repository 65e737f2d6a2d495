// cf::zero_padding on device frames of the emulated CUDA engine (the real
// kernels/ entry, cudaMemset2DAsync emulated), against the definition's
// known answers (padding_check.hpp); host frames through the same engine.
#include "padding_check.hpp"

int main() {
  cf::Engine cuda(cf::Backend::Cuda);
  const int runs =
      cft::padding::check_shapes(cuda, cf::Memory::Device) + cft::padding::check_shapes(cuda, cf::Memory::Host);
  std::printf("%d frames\n", runs);
  return cft::test_result();
}
