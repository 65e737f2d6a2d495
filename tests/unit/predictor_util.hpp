// The predictors written again, straight from their definitions, for the
// tests: a whole plane in a std::vector, every neighbour read by clamped
// coordinates, MED as a median of three, GAP and GED in floating point and
// then floored. Nothing here is shared with cpu/ or kernels/, so a test that
// compares them with this can fail.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "check.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/predictor.hpp"
#include "frames.hpp"

namespace cft {

struct Plane {
  int w = 0, h = 0;
  std::vector<std::int64_t> v;
  std::int64_t at(int x, int y) const { return v[std::size_t(y) * w + x]; }
};

inline Plane read_plane(const cf::FrameView &f, int c) {
  Plane p;
  p.w = f.components[c].width;
  p.h = f.components[c].height;
  p.v.resize(std::size_t(p.w) * p.h);
  for (int y = 0; y < p.h; ++y)
    for (int x = 0; x < p.w; ++x) p.v[std::size_t(y) * p.w + x] = read_sample(f, c, x, y);
  return p;
}

inline std::int64_t raw_mid(cf::SampleType t) {
  return t == cf::SampleType::U8 ? 128 : t == cf::SampleType::U16 ? 32768 : 0;
}
inline std::int64_t raw_lo(cf::SampleType t) { return t == cf::SampleType::S16 ? -32768 : 0; }
inline std::int64_t raw_hi(cf::SampleType t) {
  return t == cf::SampleType::U8 ? 255 : t == cf::SampleType::U16 ? 65535 : 32767;
}

// The prediction of pixel (x, y) of `img` by the definition in predictor.hpp.
inline std::int64_t model_prediction(const cf::PredictorParams &p, cf::SampleType type, const Plane &img, int x,
                                     int y) {
  const int top = p.slice_height > 0 ? y / p.slice_height * p.slice_height : 0;
  if (y == top && x == 0) return raw_mid(type);
  if (y == top) return img.at(x - 1, y);
  if (x == 0) return img.at(x, y - 1);
  // Clamped into the slice: columns to [0, w-1], rows to [top, ...].
  auto px = [&](int dx, int dy) { return double(img.at(std::clamp(x + dx, 0, img.w - 1), std::max(y + dy, top))); };
  const double W = px(-1, 0), WW = px(-2, 0), N = px(0, -1), NN = px(0, -2), NW = px(-1, -1), NE = px(1, -1),
               NNE = px(1, -2);
  double pred = 0;
  if (p.predictor == cf::Predictor::Med) {
    double three[3] = {W, N, W + N - NW};  // MED = median(W, N, W + N - NW)
    std::sort(three, three + 3);
    pred = three[1];
  } else if (p.predictor == cf::Predictor::Gap) {
    const double dh = std::abs(W - WW) + std::abs(N - NW) + std::abs(N - NE);
    const double dv = std::abs(W - NW) + std::abs(N - NN) + std::abs(NE - NNE);
    const double t = (W + N) / 2 + (NE - NW) / 4;
    if (dv - dh > 80)
      pred = W;
    else if (dh - dv > 80)
      pred = N;
    else if (dv - dh > 32)
      pred = std::floor((t + W) / 2);
    else if (dv - dh > 8)
      pred = std::floor((3 * t + W) / 4);
    else if (dh - dv > 32)
      pred = std::floor((t + N) / 2);
    else if (dh - dv > 8)
      pred = std::floor((3 * t + N) / 4);
    else
      pred = std::floor(t);
  } else {
    const double gv = std::abs(NW - W) + std::abs(NN - N), gh = std::abs(WW - W) + std::abs(NW - N);
    if (gv - gh > p.threshold)
      pred = W;
    else if (gh - gv > p.threshold)
      pred = N;
    else
      pred = std::floor((3 * W + 3 * N - 2 * NW) / 4);
  }
  return std::clamp<std::int64_t>(std::int64_t(pred), raw_lo(type), raw_hi(type));
}

// Residuals of every component of `raw` written into `res` by the definition.
inline void model_forward(const cf::PredictorParams &p, const cf::FrameView &raw, const cf::FrameView &res) {
  for (int c = 0; c < raw.n_components; ++c) {
    const Plane img = read_plane(raw, c);
    for (int y = 0; y < img.h; ++y)
      for (int x = 0; x < img.w; ++x)
        write_sample(res, c, x, y, img.at(x, y) - model_prediction(p, raw.type, img, x, y));
  }
}

inline std::string describe(const cf::PredictorParams &p) {
  std::string s = cf::predictor_name(p.predictor);
  if (p.predictor == cf::Predictor::Ged) s += " threshold=" + std::to_string(p.threshold);
  return s + " slice-height=" + std::to_string(p.slice_height);
}

// f() must throw a cf::Error whose message contains every word.
inline void expect_error(const char *what, const std::function<void()> &f, std::initializer_list<const char *> words) {
  try {
    f();
    CHECK_MSG(false, "%s: no error", what);
  } catch (const cf::Error &e) {
    for (const char *w : words)
      CHECK_MSG(std::strstr(e.what(), w) != nullptr, "%s: error '%s' does not name '%s'", what, e.what(), w);
  }
}

constexpr cf::Predictor kPredictors[] = {cf::Predictor::Med, cf::Predictor::Gap, cf::Predictor::Ged};

}  // namespace cft
