// OpenMP Hough against the serial reference, bit for bit: edge maps,
// accumulators, thresholds and line lists (tests/support/hough_parity.hpp),
// on random frames of odd sizes with padded strides, and real photos.
// CFT_HOUGH_LARGE=1 adds 1280x720 and 1921x1081 frames.
#include <cstdlib>

#include "hough_parity.hpp"

int main() {
  cf::Engine cpu(cf::Backend::Cpu), omp(cf::Backend::OpenMP, 3);
  std::printf("%s against %s\n", omp.describe().c_str(), cpu.describe().c_str());
  cft::hough::random_frames(cpu, omp, {{3, 3}, {7, 5}, {64, 33}, {321, 241}});
  std::vector<cft::hough::Size> real = {{321, 241}};
  if (std::getenv("CFT_HOUGH_LARGE")) real.insert(real.end(), {{1280, 720}, {1921, 1081}});
  cft::hough::real_frames(cpu, omp, real);
  std::printf("%lld comparisons\n", cft::hough::comparisons());
  return cft::test_result();
}
