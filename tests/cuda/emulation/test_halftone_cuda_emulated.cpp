// The CUDA halftone kernels on the CPU emulation of the CUDA execution model
// (emulator.hpp), bit for bit against the serial reference: the wavefront
// kernel's lag, its shared-memory error ring, the boundary words between
// bands (frames taller than 32 rows have several bands; the emulator runs a
// waiting warp's spin-wait as a yield, so warps of a block overtake each
// other in every order the barriers allow), tickets, serpentine, stochastic,
// multi-level, alpha copies and staging. Blocks and threads run in both orders.
#include <cuda_runtime.h>  // the emulation's: cf_emulation controls

#include "halftone_parity.hpp"

using namespace cft;
using namespace cft::halftone_parity;

int main() {
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  for (bool reverse : {false, true}) {
    cf_emulation::set_reverse_order(reverse);
    std::printf("blocks and threads in %s order\n", reverse ? "reverse" : "launch");
    random_frames(cuda, cpu, {{1, 1}, {2, 3}, {7, 5}, {20, 33}, {45, 70}});
  }
  cf_emulation::set_reverse_order(false);
  // Nine bands of one plane (eight waits on a previous band), every method.
  const int before = failures();
  OwnedFrame tall = make_raw(Packing::Gray, 37, 280, cf::SampleType::U8, 1);
  fill_random(tall, 5);
  for (HalftoneMethod m : kMethods) {
    HalftoneParams p;
    p.method = m;
    check_one(cuda, cpu, p, kGray8, tall, 1);
    p.stochastic = 1.0;
    p.levels = 3;
    check_one(cuda, cpu, p, kGray8, tall, 1, 9);
  }
  report("nine bands", before);
  photos(cuda, cpu, {96, 70}, false);
  std::printf("%lld runs, %lld emulated launches, %lld blocks\n", runs(), cf_emulation::launches(),
              cf_emulation::blocks());
  return cft::test_result();
}
