// Timing of the JPEG 2000 encoder through the core API (not a test): a photo
// resampled to 1280x720, 1920x1080 and 3840x2160 in GRAY8, RGB and I420,
// reversible and irreversible at 1 bpp, on openmp, cuda with host frames and
// cuda with frames already in device memory; ms per frame, fps and the
// codestream's bits per pixel; for cuda on device frames, the last frame's
// split between coding the blocks and writing the codestream
// (J2kEncoder::stage_times). Every codestream is compared with the
// openmp one (exits 1 on a difference). Beside them, opj_compress (all
// cores) on the same image when it is on the PATH, timed as a process
// (reading the PPM and writing the file included); with --block-coder ht
// (HTJ2K code-blocks), OpenJPH's ojph_compress (one thread, the only way
// it runs; lossless: it has no target rate).
//
//   j2k_timing [photo.jpg] [--sizes 1280x720,...] [--serial] [--block-coder ht]
//
// --serial adds the cpu backend (slow at 4K).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "best_time.hpp"
#include "device_frame.hpp"
#include "check.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k.hpp"
#include "frames.hpp"
#include "j2k_timing_inputs.hpp"
#include "shell.hpp"

namespace {

using cfbench::OnDevice;
using cfbench::time_ms;

// The third-party encoder on the same frame, as a process: opj_compress
// (Part 1) or ojph_compress (HT, lossless only); 0 when it cannot run it.
double reference_ms(const cft::OwnedFrame &f, const cfbench::TimingInput &k, int w, int h, bool reversible,
                    bool ht) {
  const char *tool = ht ? "ojph_compress" : "opj_compress";
  if (!cft::have_tool(tool) || k.subsampled || (ht && !reversible)) return 0;
  const int n = k.packing == cft::Packing::Gray ? 1 : 3;
  const std::string in = std::string("/tmp/cf_j2k_timing") + (n == 1 ? ".pgm" : ".ppm");
  cfbench::write_pnm(f, k, w, h, in);
  const std::string cmd = ht ? "ojph_compress -reversible true -num_decomps 5 -block_size '{64,64}' -prog_order "
                               "LRCP -i " + in + " -o /tmp/cf_j2k_timing.j2c > /dev/null"
                             : "opj_compress -threads ALL_CPUS -n 6 -b 64,64 " +
                                   std::string(reversible ? "" : "-I -r " + std::to_string(8.0 * n)) + " -i " + in +
                                   " -o /tmp/cf_j2k_timing.j2k > /dev/null";
  std::string log;
  const double ms = time_ms(1, 3, [&] { cft::run_command(cmd, log); });
  return ms;
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
  std::printf("# JPEG 2000 encoder timing (%s code-blocks)\n\n%s resampled; %s%s%s\n\n", ht ? "HT" : "Part 1",
              photo.c_str(), omp.describe().c_str(), gpu ? "; " : "",
              gpu ? cf::Engine(cf::Backend::Cuda).describe().c_str() : "");
  std::printf(
      "| size | format | coding | bpp | cpu ms | openmp ms | cuda host ms | cuda device ms | cuda device fps | "
      "of which blocks ms | of which codestream ms | %s ms |\n"
      "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n",
      ht ? "ojph_compress" : "opj_compress");
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
        std::vector<std::uint8_t> ref, out;
        cf::J2kEncoder e_omp(omp);
        const double t_omp = time_ms(2, 3, [&] { e_omp.encode(in, s, ref); });
        double t_cpu = 0, t_host = 0, t_dev = 0;
        cf::J2kEncoder::StageTimes stages;
        if (o.serial) {
          cf::J2kEncoder e(cpu);
          t_cpu = time_ms(1, 1, [&] { e.encode(in, s, out); });
          failures += out != ref;
        }
        if (gpu) {
          cf::Engine cuda(cf::Backend::Cuda);
          cf::J2kEncoder e(cuda);
          t_host = time_ms(3, 10, [&] { e.encode(in, s, out); });
          failures += out != ref;
          OnDevice d(cuda, f);
          cf::J2kInput din = in;
          din.frame = d.view;
          t_dev = time_ms(3, 10, [&] { e.encode(din, s, out); });
          stages = e.stage_times();
          failures += out != ref;
        }
        const double bpp = 8.0 * double(ref.size()) / (double(w) * h);
        std::printf("| %dx%d | %s | %s | %.3f | %.2f | %.2f | %.2f | %.2f | %.1f | %.2f | %.2f | %.1f |\n", w, h,
                    k.name, reversible ? "reversible" : "irreversible 1 bpp", bpp, t_cpu, t_omp, t_host, t_dev,
                    t_dev > 0 ? 1000.0 / t_dev : 0.0, stages.blocks_ms, stages.codestream_ms,
                    reference_ms(f, k, w, h, reversible, ht));
        std::fflush(stdout);
      }
    }
  if (failures) std::printf("\n%d codestreams differ from openmp's\n", failures);
  return failures ? 1 : 0;
}
