// The CUDA halftone kernels against the serial reference on a GPU, bit for
// bit: every format, method and scan at odd sizes and padded strides
// (random_frames), frames of several bands up to 1921x1081 and 3840x2160 for
// every method (raster scan; the serpentine kernel is one thread per plane
// and is checked at the smaller sizes), real photos, and frames in device
// memory. Without a usable CUDA device: prints why and exits 77 (skipped).
// CFT_QUICK=1 (for compute-sanitizer runs) keeps the small random frames and
// the device-memory checks, and leaves out the large frames and the photos.
#include <cstdlib>
#include <vector>

#include "gpu_present.hpp"
#include "halftone_parity.hpp"
#include "parity.hpp"  // DeviceFrame

using namespace cft;
using namespace cft::halftone_parity;

int main() {
  if (!cft::gpu_present()) return cft::kSkip;
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  const bool quick = cft::sanitizer_sizes() != cft::Sizes::Full;
  random_frames(cuda, cpu,
                quick ? std::vector<Size>{{1, 1}, {2, 3}, {7, 5}, {33, 65}}
                      : std::vector<Size>{{1, 1}, {2, 3}, {7, 5}, {33, 65}, {321, 241}});

  int before = failures();
  std::uint32_t seed = 500;
  for (const Size s : quick ? std::vector<Size>{} : std::vector<Size>{{1921, 1081}, {3840, 2160}})
    for (const Format &f : {kGray8, kRgba, kI420}) {
      OwnedFrame src = make_raw(f.packing, s.w, s.h, cf::SampleType::U8, 0, f.subsampled);
      fill_random(src, seed++);
      for (HalftoneMethod m : kMethods) {
        HalftoneParams p;
        p.method = m;
        check_one(cuda, cpu, p, f, src, 0);
        if (f.packing == Packing::Gray) {
          p.levels = 8;
          p.stochastic = 0.9;
          p.seed = seed;
          check_one(cuda, cpu, p, f, src, 0, seed);
        }
      }
    }
  if (!quick) {
    report("large frames", before);
    photos(cuda, cpu, {1921, 1081}, true);
  }

#if CFT_HAVE_CUDART
  before = failures();
  for (const Format &f : {kGray8, kRgba, kNv12}) {
    OwnedFrame src = make_raw(f.packing, 1001, 333, cf::SampleType::U8, 0, f.subsampled);
    fill_random(src, seed++);
    OwnedFrame want = copy_of(src), got = copy_of(src);
    HalftoneParams p;
    p.method = HalftoneMethod::JarvisJudiceNinke;
    p.copy_mask = f.copy_mask;
    cf::halftone(cpu, p, 0, src.view, want.view);
    cft::parity::DeviceFrame dsrc(src.view), ddst(got.view);
    cf::halftone(cuda, p, 0, dsrc.view, ddst.view);
    ddst.download(got.view);
    std::string first;
    const long long n = count_differences(want.view, got.view, &first);
    CHECK_MSG(n == 0, "%s in device memory: %lld samples differ; first: %s", f.name, n, first.c_str());
    ++runs();
  }
  report("frames in device memory", before);
#endif
  std::printf("%lld runs\n", runs());
  return cft::test_result();
}
