// Halftoning parameters, validation and backend dispatch.
#include "cudafilters/halftone.hpp"

#include <cmath>
#include <string>

#include "cpu/halftone_cpu.hpp"
#include "cudafilters/error.hpp"
#include "kernels/halftone_cuda.hpp"

namespace cf {

const char *halftone_method_name(HalftoneMethod m) {
  switch (m) {
    case HalftoneMethod::FloydSteinberg: return "floyd-steinberg";
    case HalftoneMethod::StevensonArce: return "stevenson-arce";
    case HalftoneMethod::Burkes: return "burkes";
    case HalftoneMethod::Sierra: return "sierra";
    case HalftoneMethod::Stucki: return "stucki";
    case HalftoneMethod::JarvisJudiceNinke: return "jarvis-judice-ninke";
  }
  return "unknown";
}

std::string halftone_check(const HalftoneParams &p) {
  if (int(p.method) < 0 || int(p.method) >= kHalftoneMethods)
    return "method=" + std::to_string(int(p.method)) + " is not one of the six methods";
  if (p.levels < 2 || p.levels > 256)
    return "levels=" + std::to_string(p.levels) + " is out of range: 2 (black and white) to 256";
  if (p.threshold < 0 || p.threshold > 255)
    return "threshold=" + std::to_string(p.threshold) + " is out of range: 0 to 255";
  if (!(p.stochastic >= 0.0 && p.stochastic <= 1.0))  // NaN fails too
    return "stochastic=" + std::to_string(p.stochastic) + " is out of range: 0 to 1";
  return "";
}

int halftone_quantise(int u, int levels, int threshold) {
  const int n = levels - 1;
  const int c = u < 0 ? 0 : u > 255 ? 255 : u;
  auto level = [n](int k) { return (255 * k + n / 2) / n; };
  // k: the largest k <= n - 1 with q_k <= c. floor(c n / 255) is it or one
  // less (when q_{k+1} was rounded down to c or below).
  int k = c * n / 255;
  if (k > n - 1) k = n - 1;
  if (k < n - 1 && level(k + 1) <= c) ++k;
  const int lo = level(k), hi = level(k + 1);
  const int boundary = lo + ((hi - lo) * threshold + 254) / 255;  // ceil((hi - lo) * T / 255)
  return c >= boundary ? hi : lo;
}

namespace {

void check_frames(const FrameView &src, const FrameView &dst) {
  if (const char *why = check_frame(src); *why) throw Error(std::string("source frame: ") + why);
  if (const char *why = check_frame(dst); *why) throw Error(std::string("destination frame: ") + why);
  if (src.type != SampleType::U8 || dst.type != SampleType::U8)
    throw Error(std::string("halftoning takes 8-bit samples (U8), not ") + sample_type_name(src.type) + " -> " +
                sample_type_name(dst.type));
  if (src.n_components != dst.n_components) throw Error("source and destination component counts differ");
  for (int c = 0; c < src.n_components; ++c)
    if (src.components[c].width != dst.components[c].width || src.components[c].height != dst.components[c].height)
      throw Error("source and destination component sizes differ");
}

}  // namespace

void halftone(Engine &e, const HalftoneParams &p, std::uint64_t frame_number, const FrameView &src,
              const FrameView &dst) {
  if (const std::string why = halftone_check(p); !why.empty()) throw Error(why);
  check_frames(src, dst);
  halftone_rules::Setup s{};
  s.method = p.method;
  s.serpentine = p.serpentine;
  s.levels = p.levels;
  s.threshold = p.threshold;
  s.stochastic_scale = int(std::floor(p.stochastic * 65536.0 + 0.5));
  s.seed = p.seed;
  s.frame = frame_number;
  s.copy_mask = p.copy_mask;
  for (int u = 0; u < 256; ++u) s.table[u] = static_cast<unsigned char>(halftone_quantise(u, p.levels, p.threshold));
  switch (e.backend()) {
    case Backend::Cuda: return cuda::halftone(e.cuda(), s, src, dst);
    case Backend::OpenMP: return omp::halftone(s, src, dst, e.threads());
    default: return cpu::halftone(s, src, dst);
  }
}

}  // namespace cf
