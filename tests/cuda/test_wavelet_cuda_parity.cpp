// The CUDA wavelets against the serial reference on a GPU, bit for bit.
//
// Both wavelets, both layouts, every raw layout of frames.hpp (GRAY8/16, RGB,
// RGBA, I420, Y444, NV12, RGBA/U16, and S16 coefficients as input), sizes
// 1x1, 1x7, 7x1, 17x13, 640x480 and 1921x1081, rows tight and padded, random
// data and real photos: forward on cuda == forward on cpu, and the cuda
// inverse of that == the input. Also the inverse of arbitrary coefficients,
// one engine across changing sizes (no device allocation once sizes repeat),
// frames in device memory, and a device id that does not exist. Then the
// colour transforms and histograms (colour_parity.hpp), chains included.
// Without a usable CUDA device: prints why and exits 77 (skipped).
// CFT_QUICK=1 (for compute-sanitizer runs) keeps every check but uses sizes
// up to 257x129 (still odd, still wider than one 128-column strip);
// CFT_QUICK=tiny (racecheck) up to 45x29.
#include <cstdlib>
#include <string>

#include "colour_parity.hpp"
#include "gpu_present.hpp"

using namespace cft::parity;

int main() {
  if (!cft::gpu_present()) return cft::kSkip;
  cf::Engine cuda(Backend::Cuda), cpu(Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());

  const cft::Sizes sizes = cft::sanitizer_sizes();
  const bool quick = sizes != cft::Sizes::Full, tiny = sizes == cft::Sizes::Tiny;
  const Size big = tiny    ? Size{45, 29}
                   : quick ? Size{257, 129}
                           : Size{1921, 1081},
             mid = tiny    ? Size{17, 13}
                   : quick ? Size{131, 67}
                           : Size{640, 480};
  random_frames(cuda, cpu, {{1, 1}, {1, 7}, {7, 1}, {17, 13}, mid, big});
  arbitrary_coefficients(cuda, cpu, {{1, 1}, {2, 2}, {17, 13}, {65, 33}, mid, big});
  photos(cuda, cpu, big);
  colour_frames(cuda, cpu, {{1, 1}, {7, 5}, {17, 13}, mid, big});
  histogram_frames(cuda, cpu, {{1, 1}, {7, 5}, mid, big});
  histogram_edge_cases(cuda, cpu, {{1, 1}, {7, 5}, mid, big});
  colour_photos(cuda, cpu, big);
  engine_reuse(cpu, {mid, {17, 13}, big, {1, 1}, mid, {big.w + 1, big.h + 1}, {33, 1}}, {big, mid});
#if CFT_HAVE_CUDART
  device_memory(cuda, cpu, {{17, 13}, big});
  colour_chains_in_device_memory(cuda, cpu, {{17, 13}, mid, big});
#else
  std::printf("note: built without the CUDA runtime: frames in device memory not tested\n");
#endif
  missing_device();
  std::printf("%lld runs\n", runs());
  return cft::test_result();
}
