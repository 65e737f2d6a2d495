// Helpers shared by the wavelet unit tests: the backends to run, the raw
// layouts of frames.hpp by name, and the level counts a frame allows.
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "check.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/wavelet.hpp"
#include "frames.hpp"

namespace cft {

// The CPU backends of this build: the serial reference and, when built, OpenMP.
inline std::vector<cf::Backend> cpu_backends() {
  std::vector<cf::Backend> b{cf::Backend::Cpu};
  try {
    cf::Engine e(cf::Backend::OpenMP);
    b.push_back(cf::Backend::OpenMP);
  } catch (const cf::Error &err) {
    std::printf("note: no OpenMP backend in this build (%s); testing cpu only\n", err.what());
  }
  return b;
}

// A raw frame layout of frames.hpp, as the elements' formats use them.
struct RawKind {
  const char *name;
  Packing packing;
  cf::SampleType type;
  bool subsampled;
};

// Every packing of frames.hpp; `with_u16` adds each packing in U16.
inline std::vector<RawKind> raw_kinds(bool with_u16) {
  using cf::SampleType;
  std::vector<RawKind> k = {
      {"GRAY8", Packing::Gray, SampleType::U8, false},     {"GRAY16", Packing::Gray, SampleType::U16, false},
      {"RGB", Packing::Packed3, SampleType::U8, false},    {"RGBA", Packing::Packed4, SampleType::U8, false},
      {"I420", Packing::Planar3, SampleType::U8, true},    {"Y444", Packing::Planar3, SampleType::U8, false},
      {"NV12", Packing::SemiPlanar, SampleType::U8, true},
  };
  if (with_u16) {
    k.push_back({"RGB/U16", Packing::Packed3, SampleType::U16, false});
    k.push_back({"RGBA/U16", Packing::Packed4, SampleType::U16, false});
    k.push_back({"I420/U16", Packing::Planar3, SampleType::U16, true});
    k.push_back({"Y444/U16", Packing::Planar3, SampleType::U16, false});
    k.push_back({"NV12/U16", Packing::SemiPlanar, SampleType::U16, true});
  }
  return k;
}

// Deepest level count every component of f allows into `coeff`.
inline int max_levels(cf::Wavelet w, cf::Layout l, const cf::FrameView &f, cf::SampleType coeff) {
  int m = 1 << 30;
  for (int c = 0; c < f.n_components; ++c)
    m = std::min(m, cf::wavelet_max_levels(w, l, f.components[c].width, f.components[c].height, f.type, coeff));
  return m;
}

inline std::string describe(const cf::WaveletParams &p) {
  return std::string(cf::wavelet_name(p.wavelet)) + " levels=" + std::to_string(p.levels) + " " +
         cf::layout_name(p.layout);
}

constexpr cf::Wavelet kWavelets[] = {cf::Wavelet::Haar, cf::Wavelet::Cdf53};
constexpr cf::Layout kLayouts[] = {cf::Layout::Mallat, cf::Layout::Standard};

}  // namespace cft
