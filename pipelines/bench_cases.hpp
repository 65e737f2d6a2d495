// The measurements of cf-bench, one function per kind (see cf-bench.cpp).
#pragma once

#include <gst/gst.h>

#include <string>
#include <utility>
#include <vector>

// element: a forward element (cudahaar, cudacdf53, cudamed, cudagap, cudaged)
// or "cudainverse:<forward element>", the inverse of that element's stream
// (its residuals or coefficients are made once, untimed, then pushed).
struct BenchCase {
  std::string element, format, backend, memory;  // memory: system | cuda | core
  int width, height, levels;
  int slice_height = 0;  // predictors
  std::string props;     // extra element properties, "name=value name=value" (e.g. "edge=canny")
  // Caps the harness takes from an encoder (e.g. "image/x-jpc"); its output
  // is then host memory in every memory mode. Empty: raw frames, which in
  // memory "cuda" must come out in CUDA memory.
  std::string encoded_caps;
};
// v printed with the printf format f ("%.2f"): a table cell.
std::string bench_fmt(const char *f, double v);
// Whether `list` (an option's values) names `item`.
bool bench_has(const std::vector<std::string> &list, const std::string &item);

bool bench_is_predictor(const std::string &element);  // cudamed, cudagap, cudaged, or their inverse
bool bench_has_levels(const std::string &element);    // cudahaar, cudacdf53, cudacdf97
std::string bench_params(const BenchCase &c);         // "levels=3", "slice-height=64"

struct BenchResult {
  double fps = 0, ms = 0, gbps = 0;  // gbps: (input + output bytes) per second
  std::size_t in_bytes = 0, out_bytes = 0;
  int frames = 0;
  std::string note;  // why there is no figure
};

// "a=1 b=x" -> {{"a", "1"}, {"b", "x"}}.
std::vector<std::pair<std::string, std::string>> bench_props(const std::string &props);

// One frame of `image` decoded and scaled to format/size (system memory).
GstBuffer *bench_load_frame(const std::string &image, const std::string &format, int w, int h);

// The element in a GstHarness, fed with two prepared copies of `frame`:
// memory "system" pushes them as they are, "cuda" uploads them once into
// GstCudaMemory and negotiates memory:CUDAMemory on both pads. Inverse
// cases push two frames of the forward element's stream, made untimed:
// by its cpu backend in system memory, by its cuda backend from and into
// CUDA memory in memory "cuda".
BenchResult bench_element(const BenchCase &c, GstBuffer *frame, double seconds);

// The process's GstCudaContext (the one bench_element's CUDA rows use) set
// on `element`; false without one.
bool bench_set_cuda_context(GstElement *element);
// Waits for the work elements queued on that context's legacy stream
// (host-wait=false).
void bench_cuda_drain();

// The core library alone on frames already in device memory (no GStreamer):
// what the kernels cost, launches and stream synchronisation included.
BenchResult bench_core(const BenchCase &c, GstBuffer *frame, double seconds);

struct Ceilings {
  double d2d_gbps = 0;                // device-to-device copy, bytes read + written per second
  double h2d_gbps = 0, d2h_gbps = 0;  // pinned host <-> device copies
  std::string note;
};
Ceilings bench_ceilings();

// A whole pipeline (gst-launch syntax, ending in a fakesink named "sink"),
// run to EOS: frames reaching the sink per second of wall time.
BenchResult bench_pipeline(const std::string &description);
