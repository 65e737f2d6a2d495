// The CUDA CDF 9/7 against the serial reference on a GPU, bit for bit (F32
// coefficients, quantised indices, rounded and float reconstructions):
// odd sizes up to 1921x1081, padded rows, both layouts, level 1 and the
// deepest, real photos at their size. Without a usable CUDA device: exits 77.
#include <cstdlib>
#include <string>

#include "cdf97_parity.hpp"
#include "cudafilters/engine.hpp"
#include "gpu_present.hpp"

using namespace cft::cdf97_parity;

int main() {
  if (!cft::gpu_present()) return cft::kSkip;
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  // CFT_QUICK (compute-sanitizer): no 1921x1081 frame; =tiny (racecheck):
  // frames and photos up to 150x40 (still two tiles along rows).
  const cft::Sizes sizes = cft::sanitizer_sizes();
  const bool quick = sizes != cft::Sizes::Full, tiny = sizes == cft::Sizes::Tiny;
  const Size small{150, 40};
  random_frames(cuda, cpu, {{1, 1}, {7, 5}, {2, 9}, tiny ? Size{45, 140} : Size{321, 241}});
  if (!quick) random_frames(cuda, cpu, {{1921, 1081}});
  photos(cuda, cpu, tiny ? &small : nullptr);
  std::printf("%lld runs\n", runs());
  return cft::test_result();
}
