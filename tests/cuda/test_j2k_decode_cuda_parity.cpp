// The JPEG 2000 decoder's tier-1 on a GPU against the serial reference,
// sample for sample and problem for problem (j2k_decode_parity.hpp): random
// tiles, our encoder's codestreams at 640x480 and every conformance stream
// (CF_J2K_CONFORMANCE); then every conformance stream of at most 4
// components decoded whole by cf::J2kDecoder on cuda and on cpu, frame for
// frame. Without a usable CUDA device: exits 77.
#include "cudafilters/j2k_decoder.hpp"
#include "gpu_present.hpp"
#include "j2k_decode_parity.hpp"

// The frame of `data` decoded by `e`, its components one after another (U16).
static std::vector<std::uint16_t> whole_frame(cf::Engine &e, const std::vector<std::uint8_t> &data) {
  const cf::J2kDecodeSettings s;
  const cf::J2kImageInfo info = cf::j2k_image_info(data.data(), data.size(), s);
  std::size_t total = 0;
  for (int c = 0; c < info.components; ++c) total += std::size_t(info.component_width[c]) * info.component_height[c];
  std::vector<std::uint16_t> frame(total + 1, 0);
  cf::FrameView v;
  v.type = cf::SampleType::U16;
  v.n_planes = v.n_components = info.components;
  std::size_t at = 0;
  for (int c = 0; c < info.components; ++c) {
    const int w = info.component_width[c], h = info.component_height[c];
    v.planes[c] = {frame.data() + at, std::ptrdiff_t(w) * 2, w * 2, h};
    v.components[c] = {c, 0, 1, w, h};
    at += std::size_t(w) * h;
  }
  cf::J2kDecoder dec(e);
  dec.decode(data.data(), data.size(), s, v);
  return frame;
}

static void whole_frames(cf::Engine &cuda, cf::Engine &cpu, std::size_t limit) {
  namespace fs = std::filesystem;
  const char *dir = std::getenv("CF_J2K_CONFORMANCE");
  if (!dir || !fs::is_directory(fs::path(dir) / "streams")) return;
  int same = 0, tried = 0;
  for (const auto &e : fs::directory_iterator(fs::path(dir) / "streams")) {
    if (e.path().extension() != ".j2k") continue;
    std::ifstream f(e.path(), std::ios::binary);
    const std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (limit && data.size() > limit) continue;
    try {
      const bool eq = whole_frame(cuda, data) == whole_frame(cpu, data);
      CHECK_MSG(eq, "%s: cuda's frame differs from cpu's", e.path().filename().c_str());
      same += eq ? 1 : 0;
      ++tried;
    } catch (const cf::Error &) {  // more than 4 components: refused on both
    }
  }
  std::printf("whole frames of the conformance streams: %d of %d equal on cuda and cpu\n", same, tried);
}

using namespace cft::j2k_decode_parity;

int main() {
  if (!cft::gpu_present()) return cft::kSkip;
  cf::Engine cuda(cf::Backend::Cuda), cpu(cf::Backend::Cpu);
  std::printf("%s against %s\n", cuda.describe().c_str(), cpu.describe().c_str());
  // CFT_QUICK (compute-sanitizer): fewer tiles, small frames, small streams.
  const bool quick = cft::sanitizer_sizes() != cft::Sizes::Full;
  random_tiles(cuda, quick ? 20 : 200, quick ? 60 : 400);
  encoder_streams(cuda, cpu, quick ? 61 : 640, quick ? 37 : 480);
  conformance_streams(cuda, quick ? 200000 : 0);
  no_allocation_when_warm(cuda, cpu);
  whole_frames(cuda, cpu, quick ? 200000 : 0);
  std::printf("%lld tiles, %lld code-blocks decoded, %lld tiles with a problem\n", counts().tiles, counts().blocks,
              counts().problems);
  return cft::test_result();
}
