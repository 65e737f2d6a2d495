// The core library without GStreamer: an RGB image in an ordinary buffer
// with padded rows goes through a reversible colour transform (YCoCg-R) and
// a 3-level CDF 5/3 wavelet, then back through both inverses; the result
// must equal the input byte for byte. Exits 0 when it does, 1 when it does
// not, 2 when the library refuses the work (the message says why).
//
//   core_example [cpu|openmp|cuda]   (default: CUDA when usable, else OpenMP)
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include <cudafilters/colour.hpp>
#include <cudafilters/engine.hpp>
#include <cudafilters/error.hpp>
#include <cudafilters/frame.hpp>
#include <cudafilters/wavelet.hpp>

namespace {

// Packed 8-bit RGB (R, G, B of a pixel side by side) with `stride` bytes per
// row: one memory plane, three components that start one byte apart and step
// three samples from one pixel to the next.
cf::FrameView rgb_view(std::uint8_t *data, int width, int height, int stride) {
  cf::FrameView f;
  f.type = cf::SampleType::U8;
  f.memory = cf::Memory::Host;
  f.n_planes = 1;
  f.planes[0] = cf::MemoryPlane{data, stride, width * 3, height};
  f.n_components = 3;
  for (int c = 0; c < 3; ++c) f.components[c] = cf::Component{0, c, 3, width, height};
  return f;
}

cf::Backend backend_named(const char *name) {
  if (!std::strcmp(name, "cpu")) return cf::Backend::Cpu;
  if (!std::strcmp(name, "openmp")) return cf::Backend::OpenMP;
  if (!std::strcmp(name, "cuda")) return cf::Backend::Cuda;
  throw cf::Error(std::string("unknown backend ") + name + " (cpu, openmp or cuda)");
}

}  // namespace

int main(int argc, char **argv) {
  // Odd sizes on purpose: the wavelet's bands need not divide evenly.
  const int width = 101, height = 67, stride = 320;  // 303 bytes of pixels, 17 of padding
  std::vector<std::uint8_t> image(std::size_t(stride) * height, 0), rebuilt(image.size(), 0);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      std::uint8_t *px = &image[std::size_t(y) * stride + x * 3];
      px[0] = std::uint8_t(2 * x + y);          // R: a ramp
      px[1] = std::uint8_t((x * y) / 16);       // G: a curved ramp
      px[2] = std::uint8_t((x ^ y) * 37 + 11);  // B: busy texture
    }

  try {
    cf::Engine engine(argc > 1 ? backend_named(argv[1]) : cf::Backend::Auto);
    const cf::FrameView src = rgb_view(image.data(), width, height, stride);
    const cf::FrameView dst = rgb_view(rebuilt.data(), width, height, stride);
    if (const char *why = cf::check_frame(src); *why) throw cf::Error(why);

    // Coefficient frames: one tight S16 plane per component, which is what
    // planar_view() lays out in a single buffer.
    cf::PlanarLayout planes;
    planes.n = 3;
    for (int c = 0; c < 3; ++c) planes.width[c] = width, planes.height[c] = height;
    const std::size_t samples = cf::planar_size(planes, cf::SampleType::S16) / sizeof(std::int16_t);
    std::vector<std::int16_t> colour_buf(samples), wavelet_buf(samples);
    const cf::FrameView colour = cf::planar_view(colour_buf.data(), planes, cf::SampleType::S16, cf::Memory::Host);
    const cf::FrameView coeffs = cf::planar_view(wavelet_buf.data(), planes, cf::SampleType::S16, cf::Memory::Host);

    // The wavelet is told the colour planes' value range so that its overflow
    // limit on `levels` is computed from it rather than from all of S16.
    const cf::ColourTransform ct = cf::ColourTransform::YCoCg;
    const cf::WaveletParams wp(cf::Wavelet::Cdf53, 3, cf::Layout::Mallat,
                               cf::colour_output_range(ct, cf::SampleType::U8));

    cf::colour_forward(engine, ct, src, colour);
    cf::wavelet_forward(engine, wp, colour, coeffs);
    cf::wavelet_inverse(engine, wp, coeffs, colour);
    cf::colour_inverse(engine, ct, colour, dst);

    // Compare the pixels only: the padding at the end of each row is not
    // part of the frame, and the library leaves it alone.
    long long differing = 0;
    for (int y = 0; y < height; ++y)
      for (int i = 0; i < width * 3; ++i)
        differing += image[std::size_t(y) * stride + i] != rebuilt[std::size_t(y) * stride + i];

    // The coarsest band (LL, listed last): a small thumbnail of each plane.
    const cf::Subband ll = cf::wavelet_subbands(wp, width, height).back();
    std::printf("%dx%d RGB (stride %d) on %s: YCoCg-R + CDF 5/3, %d levels, LL %dx%d; round trip %s\n", width, height,
                stride, engine.describe().c_str(), wp.levels, ll.width, ll.height, differing ? "DIFFERS" : "exact");
    if (differing) std::printf("%lld of %d samples differ\n", differing, width * height * 3);
    return differing ? 1 : 0;
  } catch (const cf::Error &e) {
    std::fprintf(stderr, "cudafilters: %s\n", e.what());
    return 2;
  }
}
