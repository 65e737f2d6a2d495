// The CUDA wavelets against the serial reference on a GPU, bit for bit.
//
// Both wavelets, both layouts, every raw layout of frames.hpp (GRAY8/16, RGB,
// RGBA, I420, Y444, NV12, RGBA/U16, and S16 coefficients as input), sizes
// 1x1, 1x7, 7x1, 17x13, 640x480 and 1921x1081, rows tight and padded, random
// data and real photos: forward on cuda == forward on cpu, and the cuda
// inverse of that == the input. Also the inverse of arbitrary coefficients,
// one engine across changing sizes (no device allocation once sizes repeat),
// frames in device memory, and a device id that does not exist.
// Without a usable CUDA device: prints why and exits 77 (skipped).
#include "parity.hpp"

using namespace cft::parity;

int main() {
  std::string why;
  if (!cf::cuda_device_usable(0, &why)) {
    std::printf("SKIP: no usable CUDA device: %s\n", why.c_str());
    return cft::kSkip;
  }
  cf::Engine cuda(Backend::Cuda), cpu(Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());

  random_frames(cuda, cpu, {{1, 1}, {1, 7}, {7, 1}, {17, 13}, {640, 480}, {1921, 1081}});
  arbitrary_coefficients(cuda, cpu, {{1, 1}, {2, 2}, {17, 13}, {65, 33}, {300, 200}, {1921, 1081}});
  photos(cuda, cpu, {1921, 1081});
  engine_reuse(cpu, {{640, 480}, {17, 13}, {1921, 1081}, {1, 1}, {640, 480}, {1922, 1082}, {33, 1}},
               {{1921, 1081}, {640, 480}});
#if CFT_HAVE_CUDART
  device_memory(cuda, cpu, {{17, 13}, {1921, 1081}});
#else
  std::printf("note: built without the CUDA runtime: frames in device memory not tested\n");
#endif
  missing_device();
  std::printf("%lld runs\n", runs());
  return cft::test_result();
}
