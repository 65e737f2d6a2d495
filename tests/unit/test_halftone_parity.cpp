// The OpenMP wavefront against the serial reference, bit for bit: every
// format, method and scan at odd sizes and padded strides, on frames large
// enough to run on several threads (more threads than this machine has
// cores, so rows wait on each other in many interleavings), and on photos.
#include "halftone_parity.hpp"

using namespace cft;
using namespace cft::halftone_parity;

int main() {
  cf::Engine cpu(cf::Backend::Cpu);
  for (int threads : {2, 5, 8}) {
    cf::Engine omp(cf::Backend::OpenMP, threads);
    std::printf("%s, %d threads\n", omp.describe().c_str(), threads);
    random_frames(omp, cpu, {{1, 1}, {7, 5}, {70, 3}});
    // Frames of 2^16 pixels or more per thread run as a wavefront.
    const int before = failures();
    OwnedFrame big = make_raw(Packing::Gray, 1001, 531, cf::SampleType::U8, 3);
    fill_random(big, threads);
    for (HalftoneMethod m : kMethods)
      for (int levels : {2, 6}) {
        HalftoneParams p;
        p.method = m;
        p.levels = levels;
        p.stochastic = levels == 6 ? 1.0 : 0.0;
        check_one(omp, cpu, p, kGray8, big, 3);
      }
    OwnedFrame rgb = make_raw(Packing::Packed4, 321, 241, cf::SampleType::U8, 1);
    fill_random(rgb, 99);
    for (bool serpentine : {false, true}) {
      HalftoneParams p;
      p.serpentine = serpentine;
      p.method = HalftoneMethod::StevensonArce;
      check_one(omp, cpu, p, kRgba, rgb, 1);
    }
    report("wavefront frames", before);
  }
  cf::Engine omp(cf::Backend::OpenMP, 4);
  photos(omp, cpu, {640, 481}, true);
  std::printf("%lld runs\n", runs());
  return test_result();
}
