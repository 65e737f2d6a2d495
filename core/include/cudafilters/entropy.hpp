// Zeroth-order entropy of the component planes of a frame (raw video or
// coefficients): the bits per sample an ideal memoryless coder needs for
// each plane, and the bits per pixel of the whole frame. This is the figure
// by which decorrelating transforms are compared: the lower, the more
// compressible (to zeroth order) the output.
//
// For plane c with N_c samples of which n_c(v) have value v:
//   H_c = -sum_v p log2 p,  p = n_c(v) / N_c              (bits per sample)
//   bits per pixel = sum_c H_c * N_c / (W * H)
// where W x H is the size of component 0 (the frame's full resolution): so
// I420's quarter-size chroma planes weigh a quarter, RGBA's alpha plane
// counts in full, RGBx's padding byte (not a component) not at all.
//
// The histograms (integers) are computed on the engine's backend and are
// identical on all of them; the entropy is computed from them on the host,
// in one fixed order, so it is identical too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cudafilters/engine.hpp"
#include "cudafilters/frame.hpp"

namespace cf {

// The bins of a histogram of samples of type t: `bins` values from `lo`
// (U8: 256 from 0; U16: 65536 from 0; S16: 65536 from -32768). S32 samples
// are refused (cf::Error): a histogram of 2^32 bins is not practical.
struct HistogramShape {
  std::int64_t lo = 0;
  std::size_t bins = 0;
};
HistogramShape histogram_shape(SampleType t);

// Histogram of one component: counts[i] samples have the value lo + i.
struct Histogram {
  std::int64_t lo = 0;
  std::vector<std::uint32_t> counts;
  std::int64_t total() const;
};

// One histogram per component of f (resized as needed; reuse `out` between
// frames to avoid allocations).
void histograms(Engine &e, const FrameView &f, std::vector<Histogram> &out);

struct Entropy {
  int n = 0;                                // components
  double bits_per_sample[kMaxPlanes] = {};  // H_c
  std::int64_t samples[kMaxPlanes] = {};    // N_c
  double bits_per_pixel = 0;                // sum_c H_c N_c / (W H)
};

double entropy_bits(const Histogram &h);  // H of one histogram; 0 for an empty one
// `pixels`: W x H, the size of component 0.
Entropy entropy_from_histograms(const std::vector<Histogram> &h, std::int64_t pixels);
// histograms() then entropy_from_histograms(); `scratch` is reused between calls.
Entropy frame_entropy(Engine &e, const FrameView &f, std::vector<Histogram> &scratch);

}  // namespace cf
