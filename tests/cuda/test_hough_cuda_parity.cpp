// The CUDA Hough backend against the serial reference on a GPU, bit for bit:
// edge maps, accumulators, thresholds and line lists (hough_parity.hpp) for
// every voting strategy (shared, global, constant; angle counts up to the
// largest), every input layout, odd sizes with padded rows,
// random frames and real photos up to 3840x2160 (GRAY8 and YUV layouts there), sources in device memory,
// one engine across sizes; the line drawing kernel (cf::hough_draw). Without a usable CUDA device: exits 77 (skipped).
// CFT_QUICK=1 (compute-sanitizer runs) keeps every check on smaller frames; =tiny (racecheck) on frames up to 64x33.
#include <cstdlib>
#include <string>

#include "gpu_present.hpp"
#include "hough_cuda_checks.hpp"
#include "hough_draw_check.hpp"

using namespace cft::hough;

int main() {
  if (!cft::gpu_present()) return cft::kSkip;
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  const cft::Sizes sizes = cft::sanitizer_sizes();
  const bool quick = sizes != cft::Sizes::Full, tiny = sizes == cft::Sizes::Tiny;
  const Size big = tiny ? Size{64, 33} : quick ? Size{257, 129} : Size{1921, 1081};
  const Size mid = tiny ? Size{40, 21} : Size{321, 241};
  for_each_voting({"", "shared:1", "shared:7", "global", "constant"}, [&] {
    random_frames(cpu, cuda, {{3, 3}, {7, 5}, {64, 33}, mid}, false);
    real_frames(cpu, cuda, {mid});
    angle_counts(cpu, cuda, mid);
  });
  unknown_strategy_refused(cuda);
  random_frames(cpu, cuda, {big}, false);
  real_frames(cpu, cuda, {big});
  if (!quick) real_frames(cpu, cuda, {{3840, 2160}}, true);
  device_source(cuda, cpu, {{17, 13}, big});
  engine_reuse(cuda, cpu, {{640, 480}, {17, 13}, big, {3, 3}, {640, 480}});
  // The line drawing kernel against the reference drawing (which cpu and
  // openmp equal in tests/unit), host and device frames.
  for (bool device : {false, true})
    cft::hough_draw::check(cuda, {{1, 1}, {2, 3}, {7, 5}, mid, big}, {1, 2, 3, 4, 7}, device);
  std::printf("%lld comparisons\n", comparisons());
  return cft::test_result();
}
