// The JPEG 2000 decoder's tier-1 on a GPU against the serial reference,
// sample for sample and problem for problem (j2k_decode_parity.hpp): random
// tiles, our encoder's codestreams at 640x480 and every conformance stream
// (CF_J2K_CONFORMANCE). Without a usable CUDA device: exits 77.
#include "gpu_present.hpp"
#include "j2k_decode_parity.hpp"

using namespace cft::j2k_decode_parity;

int main() {
  if (!cft::gpu_present()) return cft::kSkip;
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  // CFT_QUICK (compute-sanitizer): fewer tiles, small frames, small streams.
  const bool quick = cft::sanitizer_sizes() != cft::Sizes::Full;
  random_tiles(cuda, quick ? 20 : 200, quick ? 60 : 400);
  encoder_streams(cuda, cpu, quick ? 61 : 640, quick ? 37 : 480);
  conformance_streams(cuda, quick ? 200000 : 0);
  no_allocation_when_warm(cuda, cpu);
  std::printf("%lld tiles, %lld code-blocks decoded, %lld tiles with a problem\n", counts().tiles, counts().blocks,
              counts().problems);
  return cft::test_result();
}
