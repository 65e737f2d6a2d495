// Forward then inverse gives the input back bit for bit: every packing and
// sample type, odd sizes, padded strides, levels 1..max, both layouts, both
// wavelets, both CPU backends. Outputs are poisoned before each run (a
// coefficient left unwritten then spoils the reconstruction), and the bytes
// of a frame that hold no sample (row padding, the guard byte after the
// buffer) must still hold the poison afterwards.
#include <cstdio>
#include <string>
#include <vector>

#include "wavelet_util.hpp"

using cf::SampleType;

namespace {

// Bytes of f's buffer that belong to no sample must all equal `poison`.
long long stray_writes(const cft::OwnedFrame &f, std::uint8_t poison) {
  std::vector<bool> sample(f.bytes.size(), false);
  const cf::FrameView &v = f.view;
  const int ss = cf::sample_size(v.type);
  for (int c = 0; c < v.n_components; ++c)
    for (int y = 0; y < v.components[c].height; ++y)
      for (int x = 0; x < v.components[c].width; ++x) {
        const auto at = static_cast<const std::uint8_t *>(v.sample(c, x, y)) - f.bytes.data();
        for (int b = 0; b < ss; ++b) sample[at + b] = true;
      }
  long long n = 0;
  for (std::size_t i = 0; i < f.bytes.size(); ++i) n += !sample[i] && f.bytes[i] != poison;
  return n;
}

long long round_trips = 0;

void round_trip(cf::Engine &engine, const cft::RawKind &kind, int width, int height, int pad, std::uint32_t seed,
                bool all_levels) {
  cft::OwnedFrame src = cft::make_raw(kind.packing, width, height, kind.type, pad, kind.subsampled);
  cft::fill_random(src, seed);
  const SampleType ct = cf::coefficient_type_for(kind.type);
  for (cf::Wavelet w : cft::kWavelets)
    for (cf::Layout l : cft::kLayouts) {
      const int max = cft::max_levels(w, l, src.view, ct);
      for (int lv = 1; lv <= max; lv = (all_levels || lv == max) ? lv + 1 : max) {
        const cf::WaveletParams p{w, lv, l};
        const std::uint8_t poison = std::uint8_t(0x5A + lv);
        cft::OwnedFrame coeff = cft::make_planar_like(src.view, ct);
        cft::fill_bytes(coeff, poison);
        cft::OwnedFrame back = cft::make_raw(kind.packing, width, height, kind.type, pad, kind.subsampled);
        cft::fill_bytes(back, poison);
        const std::string what = std::string(kind.name) + " " + std::to_string(width) + "x" + std::to_string(height) +
                                 " pad=" + std::to_string(pad) + " " + cft::describe(p) + " on " + engine.describe();
        try {
          cf::wavelet_forward(engine, p, src.view, coeff.view);
          cf::wavelet_inverse(engine, p, coeff.view, back.view);
        } catch (const cf::Error &e) {
          CHECK_MSG(false, "%s: threw %s", what.c_str(), e.what());
          continue;
        }
        ++round_trips;
        std::string first;
        const long long d = cft::count_differences(src.view, back.view, &first);
        CHECK_MSG(d == 0, "%s: %lld samples differ, first %s", what.c_str(), d, first.c_str());
        long long stray = stray_writes(coeff, poison);
        CHECK_MSG(stray == 0, "%s: forward wrote %lld bytes outside the coefficient planes", what.c_str(), stray);
        stray = stray_writes(back, poison);
        CHECK_MSG(stray == 0, "%s: inverse wrote %lld bytes outside the samples", what.c_str(), stray);
      }
    }
}

}  // namespace

int main() {
  auto kinds = cft::raw_kinds(/*with_u16=*/true);
  // Coefficients of an earlier stage (e.g. a colour transform) as input: S16 -> S32.
  kinds.push_back({"S16 coefficients", cft::Packing::Gray, SampleType::S16, false});
  const int sizes[][2] = {{1, 1}, {2, 1},   {1, 2},  {2, 2},  {3, 3},  {5, 7},
                          {7, 5}, {17, 13}, {33, 9}, {64, 1}, {1, 65}, {31, 32}};
  std::uint32_t seed = 7;
  for (cf::Backend backend : cft::cpu_backends()) {
    cf::Engine engine(backend);
    for (const auto &kind : kinds)
      for (const auto &s : sizes)
        for (int pad : {0, 3}) round_trip(engine, kind, s[0], s[1], pad, seed++, true);
    // A larger odd frame: levels 1 and the deepest.
    for (const auto &kind : kinds) round_trip(engine, kind, 641, 479, 1, seed++, false);
  }
  std::printf("%lld round trips\n", round_trips);
  return cft::test_result();
}
