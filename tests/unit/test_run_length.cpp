// The run-length segment count of pipelines/run_length.hpp on arrays whose
// runs are counted by hand: empty, one value, one long run, alternating
// values, signed values, a run going on from one image row into the next,
// and runs of the quantised indices' type (int16) and of floats.
#include <cstdint>
#include <vector>

#include "check.hpp"
#include "pipelines/run_length.hpp"

namespace {

template <class T>
std::size_t runs(const std::vector<T> &v) {
  return cfseeds::run_count(v.data(), v.size());
}

}  // namespace

int main() {
  using V = std::vector<int>;
  CHECK(runs(V{}) == 0);
  CHECK(runs(V{5}) == 1);
  CHECK(runs(V{0, 0, 0, 0}) == 1);
  CHECK(runs(V{1, 2, 2, 3, 3, 3}) == 3);        // [1] [2 2] [3 3 3]
  CHECK(runs(V{0, 1, 0, 1}) == 4);              // nothing repeats
  CHECK(runs(V{-1, -1, 1, 1, -1}) == 3);        // sign matters: [-1 -1] [1 1] [-1]
  CHECK(runs(V{4, 4, 0, 0, 0, 4, 4, 4}) == 3);  // [4 4] [0 0 0] [4 4 4]
  // A 3x2 image in raster order: rows {7, 7, 7} and {7, 0, 0}: the run of
  // 7s goes on into the second row, so two segments, not three.
  CHECK(runs(V{7, 7, 7, 7, 0, 0}) == 2);
  // A run longer than 16 bits can count stays one segment.
  CHECK(runs(std::vector<std::int16_t>(70000, 0)) == 1);
  std::vector<std::int16_t> q(512 * 512, 0);
  q[0] = 12;            // [12] then zeros up to 1000
  q[1000] = -3;         // [-3], zeros again
  q[1001] = -3;         //   (one run of two)
  CHECK(runs(q) == 4);  // [12] [0 x 999] [-3 -3] [0 ...]
  // The report's bytes: 8 per segment (a pointer's size on a 64-bit build).
  CHECK(cfseeds::kReportBytesPerSegment * runs(q) == 32);
  CHECK(runs(std::vector<float>{0.5f, 0.5f, -0.0f, 0.0f}) == 2);  // -0 == 0 compares equal
  return cft::test_result();
}
