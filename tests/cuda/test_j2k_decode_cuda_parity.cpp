// The JPEG 2000 decoder on a GPU against the serial reference: tier-1
// sample for sample and problem for problem (j2k_decode_parity.hpp: random
// tiles, our encoder's codestreams at 640x480 and every conformance stream,
// CF_J2K_CONFORMANCE), then whole frames of cf::J2kDecoder on cuda and on
// cpu (j2k_frame_parity.hpp: our encoder's streams at 333x217 and the
// conformance streams, several reductions and layers, host and device
// frames). Without a usable CUDA device: exits 77.
#include "gpu_present.hpp"
#include "j2k_decode_parity.hpp"
#include "j2k_frame_parity.hpp"

using namespace cft::j2k_decode_parity;
using namespace cft::j2k_frame_parity;

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
  encoder_frames(cuda, cpu, quick ? 61 : 333, quick ? 37 : 217);
  conformance_frames(cuda, cpu, quick ? 200000 : 0);
  std::printf("%lld tiles, %lld code-blocks decoded, %lld tiles with a problem; %d whole frames, %d equal, %d refused "
              "alike\n",
              counts().tiles, counts().blocks, counts().problems, frame_counts().frames, frame_counts().equal,
              frame_counts().refused);
  return cft::test_result();
}
