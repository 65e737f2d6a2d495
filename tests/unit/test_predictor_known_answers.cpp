// Known answers of the predictors: small arrays worked out by hand from the
// definitions (MED, GAP, GED, the border rule, slices), then the test's own
// straightforward implementation (predictor_util.hpp) against every CPU
// backend on random frames of many shapes.
#include <cstdio>
#include <vector>

#include "predictor_util.hpp"
#include "wavelet_util.hpp"

using cf::PredictorParams;
using cf::SampleType;

namespace {

// A GRAY8 frame of w x h from `px`, and its residuals on `engine`.
std::vector<std::int64_t> residuals(cf::Engine &engine, const PredictorParams &p, int w, int h,
                                    const std::vector<int> &px) {
  cft::OwnedFrame raw = cft::make_raw(cft::Packing::Gray, w, h, SampleType::U8);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) cft::write_sample(raw.view, 0, x, y, px[y * w + x]);
  cft::OwnedFrame res = cft::make_planar_like(raw.view, SampleType::S16);
  cft::fill_bytes(res, 0x5A);
  cf::predictor_forward(engine, p, raw.view, res.view);
  std::vector<std::int64_t> out;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) out.push_back(cft::read_sample(res.view, 0, x, y));
  return out;
}

void expect(cf::Engine &engine, const char *what, const PredictorParams &p, int w, int h, const std::vector<int> &px,
            const std::vector<std::int64_t> &want) {
  const std::vector<std::int64_t> got = residuals(engine, p, w, h, px);
  for (std::size_t i = 0; i < want.size(); ++i)
    CHECK_MSG(got[i] == want[i], "%s on %s: residual %zu (x=%zu, y=%zu) is %lld, expected %lld", what,
              engine.describe().c_str(), i, i % w, i / w, (long long)got[i], (long long)want[i]);
}

void hand_computed(cf::Engine &e) {
  // MED on 3x3. First pixel: 100 - 128. First row: W. First column: N.
  // (1,1): W=101 N=102 NW=100 <= min -> max(W,N)=102;  (2,1): NW=102 >= max(100,101) -> min=100;
  // (1,2): W=100 N=100 NW=101 -> 100;  (2,2): W=103 N=102 NW=100 -> 103.
  const std::vector<int> a = {100, 102, 101, 101, 100, 102, 100, 103, 100};
  expect(e, "MED 3x3", {cf::Predictor::Med, 40, 0}, 3, 3, a, {-28, 2, -1, 1, -2, 2, -1, 3, -3});
  // MED, W + N - NW: (1,1) W=10 N=20 NW=15 -> 15.
  expect(e, "MED plane", {cf::Predictor::Med, 40, 0}, 2, 2, {15, 20, 10, 16}, {-113, 5, -5, 1});
  // Slices of one row: every row is a first row (mid, then W).
  expect(e, "MED slice-height=1", {cf::Predictor::Med, 40, 1}, 3, 2, {1, 2, 4, 8, 16, 32}, {-127, 1, 2, -120, 8, 16});
  // Slice-height 2 on 3 rows: row 2 starts a new slice.
  expect(e, "MED slice-height=2", {cf::Predictor::Med, 40, 2}, 1, 3, {50, 60, 70}, {-78, 10, -58});

  // GAP on 4x3 {10 20 30 43 / 10 20 30 40 / 10 20 35 50}, row 1 and pixel (2,2):
  // (1,1): W=10 WW=W N=20 NN=N NW=10 NE=30 NNE=NE: dh = 0+10+10 = 20, dv = 0 -> -20 -> (3t+N)/4,
  //   t = 15 + 5 = 20 -> 20; pixel 20 -> 0.
  // (2,1): W=20 WW=10 N=30 NN=N NW=20 NE=43 NNE=NE: dh = 10+10+13 = 33, dv = 0 -> -33 -> (t+N)/2,
  //   t = 25 + 23/4 = 30.75 -> 30.375 -> 30; pixel 30 -> 0.
  // (3,1): W=30 WW=20 N=43 NW=30 NE=N NNE=NN=N: dh = 10+13+0 = 23, dv = 0 -> (3t+N)/4,
  //   t = 36.5 + 13/4 = 39.75 -> (119.25 + 43)/4 = 40.56 -> 40; pixel 40 -> 0.
  // (2,2): W=20 WW=10 N=30 NN=30 NW=20 NE=40 NNE=43: dh = 10+10+10 = 30, dv = 0+0+3 = 3 -> -27
  //   -> (3t+N)/4, t = 25 + 20/4 = 30 -> 30; pixel 35 -> 5.
  const std::vector<int> g = {10, 20, 30, 43, 10, 20, 30, 40, 10, 20, 35, 50};
  const std::vector<std::int64_t> gap_row1 = {10 - 10, 20 - 20, 30 - 30, 40 - 40};
  const std::vector<std::int64_t> got = residuals(e, {cf::Predictor::Gap, 40, 0}, 4, 3, g);
  CHECK_MSG(got[4] == gap_row1[0] && got[5] == gap_row1[1] && got[6] == gap_row1[2] && got[7] == gap_row1[3],
            "GAP 4x3 row 1 on %s: %lld %lld %lld %lld", e.describe().c_str(), (long long)got[4], (long long)got[5],
            (long long)got[6], (long long)got[7]);
  CHECK_MSG(got[10] == 5, "GAP 4x3 (2,2) on %s: %lld, expected 5", e.describe().c_str(), (long long)got[10]);
  // A sharp horizontal edge: dv - dh > 80 -> W. Rows 0,0,0 / 200,200,X:
  // (2,1): W=200 WW=200 N=0 NW=0 NE=0(clamped: N) NNE=0 -> dh=0, dv=200 -> W=200; X=201 -> 1.
  const std::vector<std::int64_t> edge = residuals(e, {cf::Predictor::Gap, 40, 0}, 3, 2, {0, 0, 0, 200, 200, 201});
  CHECK_MSG(edge[5] == 1, "GAP horizontal edge on %s: %lld, expected 1", e.describe().c_str(), (long long)edge[5]);

  // GED at (1,1) of 2x2 {100, 100 / 100, X}: gv = gh = 0 -> floor((300 + 300 - 200)/4) = 100.
  // With N = 180 (row 0 = 100, 180): gv = |100-100| + |180-180| (NN=N) = 0, gh = 0 + |100-180| = 80
  // -> gv - gh = -80 < -40 -> N = 180; at threshold 100 -> (300 + 540 - 200)/4 = 160.
  expect(e, "GED T=40", {cf::Predictor::Ged, 40, 0}, 2, 2, {100, 180, 100, 170}, {-28, 80, 0, -10});
  expect(e, "GED T=100", {cf::Predictor::Ged, 100, 0}, 2, 2, {100, 180, 100, 170}, {-28, 80, 0, 10});
}

long long compared = 0;

// Every CPU backend against the test's own implementation, and back.
void against_model(cf::Engine &e, const cft::RawKind &k, int w, int h, int pad, std::uint32_t seed) {
  cft::OwnedFrame raw = cft::make_raw(k.packing, w, h, k.type, pad, k.subsampled);
  cft::fill_random(raw, seed);
  if (seed % 2) {  // smooth content too, so every GAP/GED branch is taken
    for (int c = 0; c < raw.view.n_components; ++c)
      for (int y = 0; y < raw.view.components[c].height; ++y)
        for (int x = 0; x < raw.view.components[c].width; ++x)
          cft::write_sample(raw.view, c, x, y,
                            (cft::read_sample(raw.view, c, x, y) & 63) + 3 * x + 5 * y + (x * y) % 40);
  }
  const SampleType rt = cf::residual_type_for(k.type);
  for (cf::Predictor pr : cft::kPredictors)
    for (int slice : {0, 1, 2, 7}) {
      const PredictorParams p{pr, pr == cf::Predictor::Ged ? int(seed % 3) * 30 : 40, slice};
      cft::OwnedFrame want = cft::make_planar_like(raw.view, rt), got = cft::make_planar_like(raw.view, rt);
      cft::model_forward(p, raw.view, want.view);
      cft::fill_bytes(got, 0x5A);
      const std::string what = std::string(k.name) + " " + std::to_string(w) + "x" + std::to_string(h) + " " +
                               cft::describe(p) + " on " + e.describe();
      try {
        cf::predictor_forward(e, p, raw.view, got.view);
        std::string first;
        const long long n = cft::count_differences(want.view, got.view, &first);
        CHECK_MSG(n == 0, "%s: %lld residuals differ from the definition, first %s", what.c_str(), n, first.c_str());
      } catch (const cf::Error &err) {
        CHECK_MSG(false, "%s: %s", what.c_str(), err.what());
      }
      ++compared;
    }
}

}  // namespace

int main() {
  auto kinds = cft::raw_kinds(/*with_u16=*/true);
  kinds.push_back({"S16 coefficients", cft::Packing::Gray, SampleType::S16, false});
  std::uint32_t seed = 11;
  for (cf::Backend b : cft::cpu_backends()) {
    cf::Engine e(b);
    hand_computed(e);
    for (const auto &k : kinds)
      for (const auto &s : {std::pair{1, 1}, {2, 1}, {1, 3}, {3, 3}, {7, 5}, {5, 7}, {16, 9}})
        against_model(e, k, s.first, s.second, int(seed % 2) * 3, seed), ++seed;
  }
  std::printf("%lld frames compared with the definition\n", compared);
  return cft::test_result();
}
