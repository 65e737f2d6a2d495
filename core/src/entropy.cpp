// Histograms (backend dispatch) and the entropy computed from them.
#include "cudafilters/entropy.hpp"

#include <cmath>

#include "cpu/entropy_cpu.hpp"
#include "cudafilters/error.hpp"
#include "kernels/entropy_cuda.hpp"

namespace cf {

HistogramShape histogram_shape(SampleType t) {
  switch (t) {
    case SampleType::U8: return {0, 256};
    case SampleType::U16: return {0, 65536};
    case SampleType::S16: return {-32768, 65536};
    case SampleType::S32:
    case SampleType::F32: break;
  }
  throw Error(
      "entropy of S32 or F32 samples is not supported (a histogram of 2^32 bins); "
      "U8, U16 and S16 are");
}

std::int64_t Histogram::total() const {
  std::int64_t n = 0;
  for (std::uint32_t c : counts) n += c;
  return n;
}

void histograms(Engine &e, const FrameView &f, std::vector<Histogram> &out) {
  if (const char *why = check_frame(f); *why) throw Error(std::string("frame: ") + why);
  const HistogramShape shape = histogram_shape(f.type);
  // One contiguous block of counts for the backends, split afterwards.
  thread_local std::vector<std::uint32_t> counts;
  counts.resize(std::size_t(f.n_components) * shape.bins);
  switch (e.backend()) {
    case Backend::Cuda: cuda::histograms(e.cuda(), f, shape, counts.data()); break;
    case Backend::OpenMP: omp::histograms(f, shape, counts.data(), e.threads()); break;
    default: cpu::histograms(f, shape, counts.data());
  }
  out.resize(std::size_t(f.n_components));
  for (int c = 0; c < f.n_components; ++c) {
    out[c].lo = shape.lo;
    out[c].counts.assign(counts.begin() + c * shape.bins, counts.begin() + (c + 1) * shape.bins);
  }
}

double entropy_bits(const Histogram &h) {
  const double n = double(h.total());
  double bits = 0;
  for (std::uint32_t c : h.counts)
    if (c) {
      const double p = c / n;
      bits -= p * std::log2(p);
    }
  return bits;
}

Entropy entropy_from_histograms(const std::vector<Histogram> &h, std::int64_t pixels) {
  if (h.size() > std::size_t(kMaxPlanes)) throw Error("more histograms than components a frame can have");
  if (pixels < 1) throw Error("the pixel count must be positive");
  Entropy e;
  e.n = int(h.size());
  for (int c = 0; c < e.n; ++c) {
    e.bits_per_sample[c] = entropy_bits(h[c]);
    e.samples[c] = h[c].total();
    e.bits_per_pixel += e.bits_per_sample[c] * double(e.samples[c]);
  }
  e.bits_per_pixel /= double(pixels);
  return e;
}

Entropy frame_entropy(Engine &e, const FrameView &f, std::vector<Histogram> &scratch) {
  histograms(e, f, scratch);
  return entropy_from_histograms(scratch, std::int64_t(f.components[0].width) * f.components[0].height);
}

}  // namespace cf
