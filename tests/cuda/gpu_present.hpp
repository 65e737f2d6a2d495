// The GPU-only tests' first step: without a usable CUDA device they print
// why and exit with meson's skip code.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "check.hpp"
#include "cudafilters/engine.hpp"

namespace cft {
// True when device 0 can run kernels; otherwise prints "SKIP: ..." (the
// caller returns kSkip).
inline bool gpu_present() {
  std::string why;
  if (cf::cuda_device_usable(0, &why)) return true;
  std::printf("SKIP: no usable CUDA device: %s\n", why.c_str());
  return false;
}

// Frame sizes for compute-sanitizer runs, from CFT_QUICK: unset = full
// sizes, "tiny" = the smallest that still cross tile edges (racecheck),
// anything else = smaller frames (memcheck, synccheck).
enum class Sizes { Full, Quick, Tiny };
inline Sizes sanitizer_sizes() {
  const char *q = std::getenv("CFT_QUICK");
  return !q ? Sizes::Full : std::string(q) == "tiny" ? Sizes::Tiny : Sizes::Quick;
}
}  // namespace cft
