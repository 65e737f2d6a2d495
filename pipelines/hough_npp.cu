// The NPP peer of cudahough's voting: nppiFilterHoughLine_8u32f_C1R_Ctx on
// the same edge map (a binary PGM written by hough-bench), the same angles
// (pi/180 apart, 180 of them) and rho step (1 pixel), timed side by side
// with hough-bench's "vote + peaks on the canny map" rows. Optional: NPP is
// not needed to build cudafilters; pipelines/hough-gpu-compare.sh builds
// this with nvcc on the GPU machine:
//   nvcc -O2 -o hough_npp pipelines/hough_npp.cu -lnppif -lnppc   (not yet compiled against NPP 13 after the
//   angle-step fallback below: the H100 run refused {1, pi/180}, see results/h100-hough-compare.md)
//   hough_npp edges.pgm THRESHOLD
// Prints the median of 50 runs, as CUDA events around the call on its stream
// and as host wall time including a stream synchronisation per call.
#include <cuda_runtime.h>
#include <npp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}
static void check(NppStatus s, const char *what) {
  if (s != NPP_SUCCESS) {
    std::fprintf(stderr, "%s: NPP status %d\n", what, int(s));
    std::exit(1);
  }
}

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: hough_npp edges.pgm threshold\n");
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::string magic;
  int w = 0, h = 0, max = 0;
  in >> magic >> w >> h >> max;
  in.get();
  std::vector<unsigned char> img(std::size_t(w) * h);
  in.read(reinterpret_cast<char *>(img.data()), std::streamsize(img.size()));
  if (magic != "P5" || !in) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  const int threshold = std::atoi(argv[2]);
  long long edges = 0;
  for (unsigned char v : img) edges += v != 0;

  cudaStream_t stream;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "stream");
  NppStreamContext ctx{};
  ctx.hStream = stream;
  cudaDeviceProp prop;
  check(cudaGetDevice(&ctx.nCudaDeviceId), "device");
  check(cudaGetDeviceProperties(&prop, ctx.nCudaDeviceId), "properties");
  ctx.nMultiProcessorCount = prop.multiProcessorCount;
  ctx.nMaxThreadsPerMultiProcessor = prop.maxThreadsPerMultiProcessor;
  ctx.nMaxThreadsPerBlock = prop.maxThreadsPerBlock;
  ctx.nSharedMemPerBlock = prop.sharedMemPerBlock;
  ctx.nCudaDevAttrComputeCapabilityMajor = prop.major;
  ctx.nCudaDevAttrComputeCapabilityMinor = prop.minor;
  check(cudaStreamGetFlags(stream, &ctx.nStreamFlags), "stream flags");

  Npp8u *src = nullptr;
  check(cudaMalloc(&src, img.size()), "cudaMalloc");
  check(cudaMemcpy(src, img.data(), img.size(), cudaMemcpyHostToDevice), "upload");
  const NppiSize roi{w, h};
  // 180 angles over [0, pi): NPP 13 refused {1, pi/180} (NPP_BAD_ARGUMENT_ERROR
  // for every line capacity, on the H100); NVIDIA's own sample passes
  // {1, 1}, i.e. the angle step in degrees, which is tried next.
  NppPointPolar delta{};
  int max_lines = 0, buffer_size = 0;
  for (const NppPointPolar d : {NppPointPolar{1.0f, float(3.14159265358979323846 / 180.0)}, NppPointPolar{1.0f, 1.0f}})
    for (int m : {1 << 16, 1 << 12, 1 << 8}) {
      if (max_lines) break;
      const NppStatus st = nppiFilterHoughLineGetBufferSize(roi, d, m, &buffer_size);
      std::printf("nppiFilterHoughLineGetBufferSize(%dx%d, {%g, %g}, %d): status %d, %d bytes\n", w, h, d.rho, d.theta,
                  m, int(st), buffer_size);
      if (st == NPP_SUCCESS) max_lines = m, delta = d;
    }
  if (!max_lines) return 1;
  Npp8u *buffer = nullptr;
  NppPointPolar *lines = nullptr;
  int *count = nullptr;
  check(cudaMalloc(&buffer, buffer_size), "cudaMalloc buffer");
  check(cudaMalloc(&lines, sizeof(NppPointPolar) * max_lines), "cudaMalloc lines");
  check(cudaMalloc(&count, sizeof(int)), "cudaMalloc count");
  auto call = [&] {
    check(nppiFilterHoughLine_8u32f_C1R_Ctx(src, w, roi, delta, threshold, lines, max_lines, count, buffer, ctx),
          "nppiFilterHoughLine_8u32f_C1R_Ctx");
  };
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  for (int i = 0; i < 5; ++i) call();
  check(cudaStreamSynchronize(stream), "warm-up");
  std::vector<float> event_ms;
  std::vector<double> wall_ms;
  for (int i = 0; i < 50; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    cudaEventRecord(a, stream);
    call();
    cudaEventRecord(b, stream);
    check(cudaStreamSynchronize(stream), "run");
    wall_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    event_ms.push_back(ms);
  }
  std::sort(event_ms.begin(), event_ms.end());
  std::sort(wall_ms.begin(), wall_ms.end());
  int found = 0;
  check(cudaMemcpy(&found, count, sizeof found, cudaMemcpyDeviceToHost), "count");
  std::printf(
      "npp | %s | %dx%d | %.1f%% edges | delta {%g, %g} | threshold %d | %d lines (capacity %d) | %.3f ms (events) | "
      "%.3f ms (wall, synchronised)\n",
      argv[1], w, h, 100.0 * edges / (double(w) * h), delta.rho, delta.theta, threshold, found, max_lines, event_ms[25],
      wall_ms[25]);
  return 0;
}
