// Serial reference of the CDF 9/7: it defines the result the OpenMP and
// CUDA backends reproduce bit for bit (the steps are in cdf97_rows.hpp and
// core/shared/cdf97_rules.hpp).
#include <vector>

#include "cpu/cdf97_cpu.hpp"
#include "cpu/cdf97_rows.hpp"

namespace cf::cpu {

namespace {
void run(cdf97::Direction dir, const Cdf97Params &p, const FrameView &src, const FrameView &dst) {
  thread_local std::vector<float> tmp;
  cdf97::transform(dir, p, src, dst, [&](int n, int scratch, auto &&body) {
    if (tmp.size() < std::size_t(scratch)) tmp.resize(std::size_t(scratch));
    for (int i = 0; i < n; ++i) body(i, tmp.data());
  });
}
}  // namespace

void cdf97_forward(const Cdf97Params &p, const FrameView &src, const FrameView &dst) {
  run(cdf97::Direction::Forward, p, src, dst);
}
void cdf97_inverse(const Cdf97Params &p, const FrameView &src, const FrameView &dst) {
  run(cdf97::Direction::Inverse, p, src, dst);
}

}  // namespace cf::cpu
