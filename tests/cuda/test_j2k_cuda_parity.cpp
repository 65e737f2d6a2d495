// The JPEG 2000 encoder's cuda backend against the serial reference on a
// GPU, codestream byte for byte (j2k_parity.hpp): odd sizes up to 1921x1081,
// every input layout, both paths, levels, tiles, code-block sizes and
// styles, real photos at their size, frames in device memory, a sequence of
// frames, and slots that overflow. Without a usable CUDA device: exits 77.
#include "gpu_present.hpp"
#include "j2k_parity.hpp"

using namespace cft::j2k_parity;

int main() {
  if (!cft::gpu_present()) return cft::kSkip;
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  // CFT_QUICK (compute-sanitizer): no frames past 127x65, photos at 150x40.
  const bool quick = cft::sanitizer_sizes() != cft::Sizes::Full;
  const std::vector<Input> all = {Input::Gray8, Input::Gray16, Input::Rgb, Input::Rgba, Input::I420};
  random_frames(cuda, cpu, {{1, 1}, {7, 3}, {33, 17}, {127, 65}}, all);
  if (!quick) random_frames(cuda, cpu, {{1921, 1081}, {300, 4100}}, {Input::Rgb, Input::I420});
  const Size small{150, 40};
  photos(cuda, cpu, quick ? &small : nullptr);
  wide_rows(cuda, cpu);
  clipped_blocks(cuda, cpu, {97, 61});
  if (!quick) clipped_blocks(cuda, cpu, {1921, 1081});
  sequence(cuda, cpu, {640, 480}, {333, 517});
#if CFT_HAVE_CUDART  // the test allocates device memory itself
  device_frames(cuda, cpu, {{33, 17}, quick ? Size{127, 65} : Size{1280, 720}});
#endif
  overflow(cuda, cf::J2kBlockCoder::Part1);
  overflow(cuda, cf::J2kBlockCoder::Ht);
  plane_estimates(cuda, cf::J2kBlockCoder::Ht);
  plane_estimates(cuda, cf::J2kBlockCoder::Part1);
  std::printf("%lld runs (%lld refused by both)\n", runs(), refused());
  return cft::test_result();
}
