// The CUDA 8x8 DCT against the serial reference on a GPU (dct_parity.hpp):
// within 1 on every coefficient and sample, sizes up to 1921x1081, photos at
// their own size, frames in device memory off word boundaries. Without a usable CUDA device: prints why and exits 77.
#include "dct_parity.hpp"
#include "gpu_present.hpp"

using namespace cft::dct_parity;

int main() {
  if (!cft::gpu_present()) return cft::kSkip;
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  random_frames(cuda, cpu, {{1, 1}, {7, 5}, {17, 13}, {70, 67}, {321, 241}}, {0, 1, 25, 50, 90, 100});
  random_frames(cuda, cpu, {{1921, 1081}}, {0, 75});
  colour_range(cuda, cpu, {{7, 5}, {321, 241}});
  photos(cuda, cpu, nullptr);
#if CFT_HAVE_CUDART  // the frames are allocated with the CUDA runtime
  skewed_device_frames(cuda, cpu, {{17, 13}, {321, 241}});
#endif
  std::printf("%lld values differ from the CPU's (tolerance %d)\n", differing(), cf::kDctCudaTolerance);
  return cft::test_result();
}
