// The CUDA predictors against the serial reference on a GPU, bit for bit:
// every raw layout, odd sizes up to 1921x1081 (GRAY8 and RGBA also at
// 3840x2160), rows tight and padded, slice heights 0, 1, 7, 64 (0 and 64 from 1921x1081), random data and real photos
// at their own size, the inverse of arbitrary residuals, S16 input in [-255, 255] with S16 residuals (after a colour
// stage), frames in device memory (also with an engine on the legacy stream, whose device-frame calls return once
// queued). Without a usable CUDA device: prints why and exits 77 (skipped). CFT_QUICK=1 (for compute-sanitizer runs)
// keeps every check with sizes up to 257x129; CFT_QUICK=tiny (racecheck) up to 64x70.
#include <cstdlib>
#include <string>

#include "gpu_present.hpp"
#include "predictor_parity.hpp"

using namespace cft::predictor_parity;

int main() {
  if (!cft::gpu_present()) return cft::kSkip;
  cf::Engine cuda(Backend::Cuda), cpu(Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  const cft::Sizes sizes = cft::sanitizer_sizes();
  const bool quick = sizes != cft::Sizes::Full, tiny = sizes == cft::Sizes::Tiny;
  const Size big = tiny    ? Size{45, 70}
                   : quick ? Size{257, 129}
                           : Size{1921, 1081},
             mid = tiny    ? Size{33, 40}
                   : quick ? Size{131, 67}
                           : Size{640, 480},
             small{64, 40};
  random_frames(cuda, cpu, {{1, 1}, {1, 7}, {7, 1}, {17, 13}, {70, 67}, mid}, {0, 1, 7, 64});
  random_frames(cuda, cpu, {big}, {0, 64});
  if (!quick) random_frames(cuda, cpu, {{3840, 2160}}, {0, 64}, {cft::parity::kGray8, cft::parity::kRgba}, {0});
  arbitrary_residuals(cuda, cpu, {{1, 1}, {17, 13}, mid, big});
  colour_range_frames(cuda, cpu, {{1, 1}, {17, 13}, mid, big}, {0, 64});
  photos(cuda, cpu, tiny ? &small : nullptr);
#if CFT_HAVE_CUDART
  device_memory(cuda, cpu, {{17, 13}, big});
  // Calls on device frames that return once queued (Engine::use_legacy_stream):
  // the downloads, synchronous copies on the legacy stream, find them complete.
  cf::Engine queued(Backend::Cuda);
  queued.use_legacy_stream(true);
  device_memory(queued, cpu, {{17, 13}, big});
#endif
  std::printf("%lld runs\n", cft::parity::runs());
  return cft::test_result();
}
