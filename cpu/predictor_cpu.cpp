// Serial reference of the lossless predictors: it defines the correct result
// that the OpenMP and CUDA backends must reproduce bit for bit.
//
// Row by row, per component: the rows a prediction reads (the row itself and
// the two above it, within the slice) are held as int32 work rows in a ring
// of three, loaded from and stored to the frames with cpu/samples.hpp; the
// arithmetic is core/shared/predictor_rules.hpp.
#include <cstdint>
#include <vector>

#include "core/shared/predictor_rules.hpp"
#include "cpu/predictor_cpu.hpp"
#include "cpu/samples.hpp"

namespace cf::cpu {

namespace {

// Three work rows and an output row, kept between calls per thread.
struct Ring {
  std::int32_t *rows[3];
  std::int32_t *out;
  std::int32_t *row(int y) const { return rows[y % 3]; }
};
Ring ring(int width) {
  thread_local std::vector<std::int32_t> buffer;
  if (buffer.size() < std::size_t(width) * 4) buffer.resize(std::size_t(width) * 4);
  std::int32_t *b = buffer.data();
  return {{b, b + width, b + 2 * width}, b + 3 * width};
}

}  // namespace

void predictor_forward_rows(const PredictorParams &p, const FrameView &raw, const FrameView &res, int c, int y_begin,
                            int y_end) {
  const int w = raw.components[c].width;
  const predict::Range r = predict::range_of(raw.type);
  const Ring ws = ring(w);
  for (int y = y_begin; y < y_end; ++y) {
    const predict::SliceRows s = predict::SliceRows::of(y, p.slice_height);
    // Rows above y_begin that the first rows need (loaded once).
    if (y == y_begin)
      for (int k = y - 2; k < y; ++k)
        if (k >= s.first) samples::load_row(raw, c, k, ws.row(k));
    samples::load_row(raw, c, y, ws.row(y));
    const std::int32_t *up1 = s.has_up1(y) ? ws.row(y - 1) : nullptr;
    const std::int32_t *up2 = s.has_up2(y) ? ws.row(y - 2) : up1;
    predict::forward_row(p, r, up2, up1, ws.row(y), w, ws.out);
    samples::store_row(res, c, y, ws.out);
  }
}

void predictor_inverse_rows(const PredictorParams &p, const FrameView &res, const FrameView &raw, int c, int y_begin,
                            int y_end) {
  const int w = raw.components[c].width;
  const predict::Range r = predict::range_of(raw.type);
  const Ring ws = ring(w);
  for (int y = y_begin; y < y_end; ++y) {
    const predict::SliceRows s = predict::SliceRows::of(y, p.slice_height);
    samples::load_row(res, c, y, ws.row(y));
    const std::int32_t *up1 = s.has_up1(y) ? ws.row(y - 1) : nullptr;
    const std::int32_t *up2 = s.has_up2(y) ? ws.row(y - 2) : up1;
    predict::inverse_row(p, r, up2, up1, ws.row(y), w, 0, w);
    samples::store_row(raw, c, y, ws.row(y));
  }
}

void predictor_forward(const PredictorParams &p, const FrameView &raw, const FrameView &res) {
  for (int c = 0; c < raw.n_components; ++c) predictor_forward_rows(p, raw, res, c, 0, raw.components[c].height);
}

void predictor_inverse(const PredictorParams &p, const FrameView &res, const FrameView &raw) {
  for (int c = 0; c < raw.n_components; ++c) predictor_inverse_rows(p, res, raw, c, 0, raw.components[c].height);
}

}  // namespace cf::cpu
