// cf::zero_padding on host frames with the serial and OpenMP engines, and on
// device frames where a CUDA device is usable (the emulated kernels check the
// device path everywhere: tests/cuda/emulation/test_padding_cuda_emulated.cpp).
#include <memory>

#include "cudafilters/engine.hpp"
#include "padding_check.hpp"

int main() {
  int runs = 0;
  for (cf::Backend b : {cf::Backend::Cpu, cf::Backend::OpenMP}) {
    std::unique_ptr<cf::Engine> e;
    try {
      e = std::make_unique<cf::Engine>(b);
    } catch (const cf::Error &err) {
      std::printf("note: %s\n", err.what());  // a build without OpenMP
      continue;
    }
    runs += cft::padding::check_shapes(*e, cf::Memory::Host);
    cft::padding::check_device_refused(*e);
  }
  if (cf::cuda_device_usable(0)) {
    cf::Engine cuda(cf::Backend::Cuda);
    runs += cft::padding::check_shapes(cuda, cf::Memory::Host);
    runs += cft::padding::check_shapes(cuda, cf::Memory::Device);
  }
  std::printf("%d frames\n", runs);
  return cft::test_result();
}
