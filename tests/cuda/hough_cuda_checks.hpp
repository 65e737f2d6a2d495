// Checks of the CUDA Hough backend against the serial reference, shared by
// the GPU test (test_hough_cuda_parity.cpp) and the same checks on the CPU
// emulation of the kernels (emulation/test_hough_cuda_emulated.cpp).
#pragma once

#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "hough_parity.hpp"

#if CFT_HAVE_CUDART
#include <cuda_runtime.h>
#endif

namespace cft::hough {

// Every voting strategy of kernels/hough_cuda.cu (CF_HOUGH_VOTING), then back to
// the default.
inline void for_each_voting(const std::vector<const char *> &strategies, const std::function<void()> &body) {
  for (const char *s : strategies) {
    if (*s)
      setenv("CF_HOUGH_VOTING", s, 1);
    else
      unsetenv("CF_HOUGH_VOTING");
    std::printf("voting: %s\n", *s ? s : "default");
    std::fflush(stdout);
    body();
  }
  unsetenv("CF_HOUGH_VOTING");
}

// Angle counts from 1 to the largest, one after another on one engine: with
// CF_HOUGH_VOTING=constant the constant-memory table is replaced between
// them and must hold every angle up to kHoughMaxThetaBins.
inline void angle_counts(cf::Engine &cpu, cf::Engine &cuda, const Size &s) {
  const Layout &gray = layouts()[0];
  OwnedFrame f = make_frame(gray, s.w, s.h, 0);
  fill_random(f, 77);
  for (int bins : {1, 97, cf::kHoughMaxThetaBins, 180, 97}) {
    cf::HoughParams p;
    p.theta_bins = bins;
    compare(cpu, cuda, f, gray.luma, p, "theta-bins " + std::to_string(bins));
  }
}

// A CF_HOUGH_VOTING that names no strategy is refused, the value named.
inline void unknown_strategy_refused(cf::Engine &cuda) {
  const Layout &gray = layouts()[0];
  OwnedFrame f = make_frame(gray, 17, 13, 0);
  fill_random(f, 5);
  for (const char *bad : {"constnat", "shared:0", "global "}) {
    setenv("CF_HOUGH_VOTING", bad, 1);
    std::string message;
    try {
      cf::HoughResult r;
      cf::hough_detect(cuda, {}, f.view, gray.luma, r);
    } catch (const cf::Error &e) {
      message = e.what();
    }
    ++comparisons();
    CHECK_MSG(message.find(std::string("CF_HOUGH_VOTING=") + bad + " is not") != std::string::npos,
              "CF_HOUGH_VOTING=%s: expected a refusal naming it, got \"%s\"", bad, message.c_str());
  }
  unsetenv("CF_HOUGH_VOTING");
}

// A source frame in device memory gives what the same frame on the host gives.
inline void device_source(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes) {
#if CFT_HAVE_CUDART
  for (const Size &s : sizes)
    for (const Layout &l : layouts()) {
      OwnedFrame host = make_frame(l, s.w, s.h, 7);
      fill_random(host, 99);
      OwnedFrame dev = host;
      void *mem = nullptr;
      if (cudaMalloc(&mem, host.bytes.size()) != cudaSuccess) {
        CHECK_MSG(false, "cudaMalloc failed");
        return;
      }
      cudaMemcpy2D(mem, host.bytes.size(), host.bytes.data(), host.bytes.size(), host.bytes.size(), 1,
                   cudaMemcpyHostToDevice);
      dev.view.memory = cf::Memory::Device;
      for (int i = 0; i < dev.view.n_planes; ++i)
        dev.view.planes[i].data = static_cast<std::uint8_t *>(mem) +
                                  (static_cast<std::uint8_t *>(host.view.planes[i].data) - host.bytes.data());
      cf::HoughResult a, b;
      cf::hough_detect(cpu, {}, host.view, l.luma, a, cf::kHoughWantAccumulator);
      cf::hough_detect(cuda, {}, dev.view, l.luma, b, cf::kHoughWantAccumulator);
      ++comparisons();
      CHECK_MSG(a.accumulator == b.accumulator && a.lines.size() == b.lines.size(),
                "%s %dx%d in device memory: results differ", l.name, s.w, s.h);
      cudaFree(mem);
    }
#else
  (void)cuda, (void)cpu, (void)sizes;
  std::printf("note: built without the CUDA runtime: device-memory sources not tested\n");
#endif
}

// One engine through changing sizes and parameters (the workspace grows and
// is reused; results stay right).
inline void engine_reuse(cf::Engine &cuda, cf::Engine &cpu, const std::vector<Size> &sizes) {
  const Layout &gray = layouts()[0];
  std::uint32_t seed = 500;
  for (const Size &s : sizes) {
    OwnedFrame f = make_frame(gray, s.w, s.h, 0);
    fill_random(f, seed++);
    for (const cf::HoughParams &p : param_sets())
      compare(cpu, cuda, f, gray.luma, p, "reuse " + std::to_string(s.w) + "x" + std::to_string(s.h));
  }
}

}  // namespace cft::hough
