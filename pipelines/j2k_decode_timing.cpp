// Timing of the JPEG 2000 decoder through the core API (not a test): a photo
// resampled to 1280x720, 1920x1080 and 3840x2160 in GRAY8, RGB and I420,
// coded by our encoder (openmp, reversible and irreversible at 1 bpp), then
// decoded on openmp, on cuda into a host frame and into a frame in device
// memory; ms per frame, fps and, for cuda into device memory, the last
// frame's split between the packet headers (host), tier-1 and the
// reconstruction (J2kDecoder::stage_times). Every frame is compared with
// the openmp one (exits 1 on a difference). Beside them, opj_decompress (all
// cores) on the same codestream when it is on the PATH, timed as a process
// (reading the .j2k and writing the PGM or PPM included); with
// --block-coder ht (HTJ2K code-blocks) also OpenJPH's ojph_expand.
//
//   j2k_decode_timing [photo.jpg] [--sizes 1280x720,...] [--serial] [--block-coder ht]
//
// --serial adds the cpu backend (slow at 4K).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "best_time.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k.hpp"
#include "cudafilters/j2k_decoder.hpp"
#include "frames.hpp"
#include "j2k_timing_inputs.hpp"
#include "shell.hpp"

namespace {

using cfbench::time_ms;

// A frame for the decoded image: its components one after another, U8.
struct Decoded {
  cf::Engine *device_engine = nullptr;
  std::vector<std::uint8_t> host;
  void *device = nullptr;
  cf::FrameView view;

  Decoded(const cf::J2kImageInfo &info, cf::Engine *on_device) : device_engine(on_device) {
    std::size_t total = 0;
    for (int c = 0; c < info.components; ++c) total += std::size_t(info.component_width[c]) * info.component_height[c];
    host.assign(total, 0);
    if (device_engine) device = device_engine->device_alloc(total);
    view.type = cf::SampleType::U8;
    view.memory = device ? cf::Memory::Device : cf::Memory::Host;
    view.n_planes = view.n_components = info.components;
    auto *base = static_cast<std::uint8_t *>(device ? device : host.data());
    std::size_t at = 0;
    for (int c = 0; c < info.components; ++c) {
      const int w = info.component_width[c], h = info.component_height[c];
      view.planes[c] = {base + at, w, w, h};
      view.components[c] = {c, 0, 1, w, h};
      at += std::size_t(w) * h;
    }
  }
  ~Decoded() {
    if (device) device_engine->device_free(device);
  }
  const std::vector<std::uint8_t> &bytes() {
    if (device) device_engine->download(host.data(), device, host.size());
    return host;
  }
};

// A third-party decoder on the codestream, as a process: opj_decompress (all
// cores) or ojph_expand; 0 when it cannot run it.
double reference_ms(const std::vector<std::uint8_t> &stream, const cfbench::TimingInput &k, const char *tool) {
  if (!cft::have_tool(tool) || k.subsampled) return 0;
  const std::string in = "/tmp/cf_j2k_decode_timing.j2k";
  std::ofstream(in, std::ios::binary)
      .write(reinterpret_cast<const char *>(stream.data()), std::streamsize(stream.size()));
  const std::string out =
      std::string("/tmp/cf_j2k_decode_timing") + (k.packing == cft::Packing::Gray ? ".pgm" : ".ppm");
  const std::string cmd = std::string(tool) + (std::string(tool) == "opj_decompress" ? " -threads ALL_CPUS" : "") +
                          " -i " + in + " -o " + out + " > /dev/null";
  std::string log;
  return time_ms(1, 3, [&] { cft::run_command(cmd, log); });
}

}  // namespace

int main(int argc, char **argv) {
  cfbench::TimingOptions o;
  if (!cfbench::read_timing_options(argc, argv, o)) return 1;
  const std::string &photo = o.photo;
  std::string why;
  const bool gpu = cf::cuda_device_usable(0, &why);
  cf::Engine omp(cf::Backend::OpenMP), cpu(cf::Backend::Cpu);
  const bool ht = o.block_coder == cf::J2kBlockCoder::Ht;
  std::printf(
      "# JPEG 2000 decoder timing (%s code-blocks)\n\n%s resampled, coded by cudaj2kenc's core (5 levels, 64 x 64 "
      "blocks, one layer, one tile); %s%s%s\n\n",
      ht ? "HT" : "Part 1", photo.c_str(), omp.describe().c_str(), gpu ? "; " : "",
      gpu ? cf::Engine(cf::Backend::Cuda).describe().c_str() : "");
  std::printf(
      "| size | format | coding | bpp | cpu ms | openmp ms | cuda host ms | cuda device ms | cuda device fps | "
      "of which packets ms | of which tier-1 ms | of which reconstruction ms | opj_decompress ms | ojph_expand ms "
      "|\n"
      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  int failures = 0;
  for (const auto &[w, h] : o.sizes)
    for (const cfbench::TimingInput &k : cfbench::kTimingInputs) {
      const cft::OwnedFrame f = cfbench::timing_frame(o, k, w, h);
      const cf::J2kInput in = cfbench::timing_j2k_input(f, k);
      for (bool reversible : {true, false}) {
        cf::J2kSettings s;
        s.reversible = reversible;
        s.bitrate = reversible ? 0 : 1;
        s.block_coder = o.block_coder;
        std::vector<std::uint8_t> stream;
        cf::J2kEncoder(omp).encode(in, s, stream);
        const cf::J2kDecodeSettings ds;
        const cf::J2kImageInfo info = cf::j2k_image_info(stream.data(), stream.size(), ds);
        Decoded ref(info, nullptr);
        cf::J2kDecoder d_omp(omp);
        const double t_omp = time_ms(2, 3, [&] { d_omp.decode(stream.data(), stream.size(), ds, ref.view); });
        double t_cpu = 0, t_host = 0, t_dev = 0;
        cf::J2kDecoder::StageTimes stages;
        if (o.serial) {
          Decoded out(info, nullptr);
          cf::J2kDecoder d(cpu);
          t_cpu = time_ms(1, 1, [&] { d.decode(stream.data(), stream.size(), ds, out.view); });
          failures += out.bytes() != ref.host;
        }
        if (gpu) {
          cf::Engine cuda(cf::Backend::Cuda);
          cf::J2kDecoder d(cuda);
          Decoded host(info, nullptr), device(info, &cuda);
          t_host = time_ms(3, 10, [&] { d.decode(stream.data(), stream.size(), ds, host.view); });
          failures += host.bytes() != ref.host;
          t_dev = time_ms(3, 10, [&] { d.decode(stream.data(), stream.size(), ds, device.view); });
          stages = d.stage_times();
          failures += device.bytes() != ref.host;
        }
        const double bpp = 8.0 * double(stream.size()) / (double(w) * h);
        std::printf(
            "| %dx%d | %s | %s | %.3f | %.2f | %.2f | %.2f | %.2f | %.1f | %.2f | %.2f | %.2f | %.1f | %.1f |\n", w, h,
            k.name, reversible ? "reversible" : "irreversible 1 bpp", bpp, t_cpu, t_omp, t_host, t_dev,
            t_dev > 0 ? 1000.0 / t_dev : 0.0, stages.packets_ms, stages.blocks_ms, stages.reconstruction_ms,
            reference_ms(stream, k, "opj_decompress"), ht ? reference_ms(stream, k, "ojph_expand") : 0.0);
        std::fflush(stdout);
      }
    }
  if (failures) std::printf("\n%d decoded frames differ from openmp's\n", failures);
  return failures ? 1 : 0;
}
