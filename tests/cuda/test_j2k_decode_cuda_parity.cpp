// The JPEG 2000 decoder on a GPU against the serial reference: tier-1
// sample for sample and problem for problem (j2k_decode_parity.hpp: random
// tiles, our encoder's codestreams at 640x480 (HT ones among them), every
// conformance stream, CF_J2K_CONFORMANCE, and HT files with refinement
// passes, CF_HTJ2K_STREAMS), then whole frames of cf::J2kDecoder on cuda and on
// cpu (j2k_frame_parity.hpp: our encoder's streams at 333x217, streams with
// absent code-blocks and the conformance streams, several reductions and
// layers, host and device frames). Without a usable CUDA device: exits 77.
#include "gpu_present.hpp"
#include "j2k_decode_parity.hpp"
#include "j2k_frame_parity.hpp"

using namespace cft::j2k_decode_parity;
using namespace cft::j2k_frame_parity;

int main() {
  if (!cft::gpu_present()) return cft::kSkip;
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  // CFT_QUICK (compute-sanitizer): fewer tiles, small frames, small
  // streams; "tiny" (racecheck): a few tiles and the conformance streams of
  // at most 3400 bytes (the 5/3 with the RCT, the 9/7 with the ICT among them).
  const cft::Sizes sizes = cft::sanitizer_sizes();
  const bool quick = sizes != cft::Sizes::Full, tiny = sizes == cft::Sizes::Tiny;
  random_tiles(cuda, tiny ? 2 : quick ? 20 : 200, tiny ? 10 : quick ? 60 : 400);
  if (!tiny) encoder_streams(cuda, cpu, quick ? 61 : 640, quick ? 37 : 480);
  conformance_streams(cuda, tiny ? 3400 : quick ? 200000 : 0);
  if (!tiny) ht_streams(cuda);
  no_allocation_when_warm(cuda, cpu);
  if (!tiny) encoder_frames(cuda, cpu, quick ? 61 : 333, quick ? 37 : 217);
  absent_block_frames(cuda, cpu, 61, 37);
  conformance_frames(cuda, cpu, tiny ? 3400 : quick ? 200000 : 0);
  std::printf(
      "%lld tiles, %lld code-blocks decoded, %lld tiles with a problem; %d whole frames, %d equal, %d refused "
      "alike\n",
      counts().tiles, counts().blocks, counts().problems, frame_counts().frames, frame_counts().equal,
      frame_counts().refused);
  return cft::test_result();
}
