// The JPEG 2000 decoder on the CPU emulation of the CUDA execution model:
// the real kernels/j2k_tier1_decode_cuda.cu and j2k_reconstruct_cuda.cu compiled
// as C++, against the serial reference: tier-1 sample for sample and
// problem for problem (j2k_decode_parity.hpp: random tiles, our encoder's
// codestreams, every conformance stream, CF_J2K_CONFORMANCE, HT files with
// refinement passes, CF_HTJ2K_STREAMS), then whole
// frames (j2k_frame_parity.hpp: our encoder's streams of small odd sizes,
// streams with absent code-blocks, the small conformance streams).
#include "cuda_runtime.h"
#include "j2k_decode_parity.hpp"
#include "j2k_frame_parity.hpp"

using namespace cft::j2k_decode_parity;
using namespace cft::j2k_frame_parity;

int main() {
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  random_tiles(cuda, 40, 60);
  // Threads in the other order: a kernel that relied on the order would differ.
  cf_emulation::set_reverse_order(true);
  random_tiles(cuda, 10, 60);
  cf_emulation::set_reverse_order(false);
  encoder_streams(cuda, cpu, 61, 37);
  conformance_streams(cuda, 0);
  ht_streams(cuda);
  no_allocation_when_warm(cuda, cpu);
  encoder_frames(cuda, cpu, 45, 27);
  encoder_frames(cuda, cpu, 19, 139);  // taller than a column tile (kTileRows) at the first levels
  absent_block_frames(cuda, cpu, 45, 27);
  conformance_frames(cuda, cpu, 20000);
  std::printf("%lld tiles, %lld code-blocks decoded, %lld tiles with a problem; %d whole frames, %d equal, %d refused "
              "alike; %lld emulated launches\n",
              counts().tiles, counts().blocks, counts().problems, frame_counts().frames, frame_counts().equal,
              frame_counts().refused, cf_emulation::launches());
  return cft::test_result();
}
