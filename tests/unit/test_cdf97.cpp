// CDF 9/7 (cudafilters/cdf97.hpp) on the CPU backends: known answers from an
// independent double-precision lifting written here, gains of the
// normalisation, energy, thresholds and quantisation from their definitions,
// round trips (float error < 1e-3, 8-bit exact, PSNR on real photos),
// cpu/openmp parity bit for bit, odd sizes, bad parameters.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "cdf97_parity.hpp"
#include "check.hpp"
#include "cudafilters/cdf97.hpp"
#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "frames.hpp"

using cf::Cdf97Params;
using cf::Layout;
using cft::OwnedFrame;
using cft::Packing;

namespace {

// ---------------------------------------------------------------- reference

// JPEG 2000's 9/7 lifting on one signal in double, written from T.800 F.3.8
// with an explicit extension function (not in place: each step makes a new
// vector), followed by the sqrt(2)/K, K/sqrt(2) scaling, deinterleaved.
std::vector<double> ref_1d(const std::vector<double> &x) {
  const int n = int(x.size());
  if (n < 2) return x;
  auto ext = [n](int i) { return i < 0 ? -i : (i >= n ? 2 * (n - 1) - i : i); };
  std::vector<double> y = x;
  const double coef[4] = {-1.586134342, -0.05298011854, 0.8829110762, 0.4435068522};
  for (int step = 0; step < 4; ++step) {
    std::vector<double> next = y;
    for (int i = step % 2 == 0 ? 1 : 0; i < n; i += 2) next[i] = y[i] + coef[step] * (y[ext(i - 1)] + y[ext(i + 1)]);
    y = next;
  }
  const double K = 1.230174105;
  std::vector<double> out(n);
  const int nl = (n + 1) / 2;
  for (int i = 0; i < n; ++i)
    out[i % 2 ? nl + i / 2 : i / 2] = y[i] * (i % 2 ? K / std::sqrt(2.0) : std::sqrt(2.0) / K);
  return out;
}

// The 2-D transform of a w x h plane (row-major) in double, both layouts.
std::vector<double> ref_2d(std::vector<double> a, int w, int h, int levels, Layout layout) {
  auto rows = [&](int bw, int bh) {
    for (int y = 0; y < bh; ++y) {
      std::vector<double> r(a.begin() + y * w, a.begin() + y * w + bw);
      r = ref_1d(r);
      std::copy(r.begin(), r.end(), a.begin() + y * w);
    }
  };
  auto cols = [&](int bw, int bh) {
    for (int x = 0; x < bw; ++x) {
      std::vector<double> c(bh);
      for (int y = 0; y < bh; ++y) c[y] = a[y * w + x];
      c = ref_1d(c);
      for (int y = 0; y < bh; ++y) a[y * w + x] = c[y];
    }
  };
  if (layout == Layout::Mallat) {
    for (int k = 0, bw = w, bh = h; k < levels; ++k, bw = (bw + 1) / 2, bh = (bh + 1) / 2) {
      rows(bw, bh);
      cols(bw, bh);
    }
  } else {
    for (int k = 0, bw = w; k < levels; ++k, bw = (bw + 1) / 2) rows(bw, h);
    for (int k = 0, bh = h; k < levels; ++k, bh = (bh + 1) / 2) cols(w, bh);
  }
  return a;
}

float coeff_at(const OwnedFrame &f, int c, int x, int y) {
  float v;
  std::memcpy(&v, f.view.sample(c, x, y), sizeof v);
  return v;
}

OwnedFrame gray(int w, int h, std::uint32_t seed) {
  OwnedFrame f = cft::make_raw(Packing::Gray, w, h, cf::SampleType::U8);
  cft::fill_random(f, seed);
  return f;
}

std::vector<double> plane_of(const OwnedFrame &f) {
  const int w = f.view.components[0].width, h = f.view.components[0].height;
  std::vector<double> v(std::size_t(w) * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) v[std::size_t(y) * w + x] = double(cft::read_sample(f.view, 0, x, y));
  return v;
}

OwnedFrame forward(cf::Engine &e, const Cdf97Params &p, const OwnedFrame &raw) {
  OwnedFrame out = cft::make_planar_like(raw.view, cf::cdf97_coefficient_type(p, raw.view.type));
  cf::cdf97_forward(e, p, raw.view, out.view);
  return out;
}

// ---------------------------------------------------------------- tests

void known_answers(cf::Engine &e) {
  for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {1, 5}, {7, 5}, {16, 16}, {33, 17}, {64, 9}})
    for (Layout layout : {Layout::Mallat, Layout::Standard})
      for (int levels = 1; levels <= cf::cdf97_max_levels(w, h); ++levels) {
        OwnedFrame raw = gray(w, h, 1000 + w * 31 + h);
        Cdf97Params p;
        p.levels = levels;
        p.layout = layout;
        OwnedFrame c = forward(e, p, raw);
        const std::vector<double> want = ref_2d(plane_of(raw), w, h, levels, layout);
        double worst = 0;
        for (int y = 0; y < h; ++y)
          for (int x = 0; x < w; ++x) {
            const double d = std::fabs(coeff_at(c, 0, x, y) - want[std::size_t(y) * w + x]);
            // Relative to the coefficient, or to the input's range for small ones.
            worst = std::max(worst, d / std::max(255.0, std::fabs(want[std::size_t(y) * w + x])));
          }
        CHECK_MSG(worst < 1e-4, "%dx%d levels %d %s: relative error %g against the double reference", w, h, levels,
                  cf::layout_name(layout), worst);
      }
}

// A constant c: every detail band is 0 and LL = c * 2^levels (gain sqrt(2)
// per 1-D pass); a row alternating m + c, m - c: low sqrt(2) m, high
// -sqrt(2) c.
void gains(cf::Engine &e) {
  for (Layout layout : {Layout::Mallat, Layout::Standard}) {
    OwnedFrame raw = cft::make_raw(Packing::Gray, 40, 24, cf::SampleType::U8);
    cft::fill_bytes(raw, 100);
    Cdf97Params p;
    p.levels = 3;
    p.layout = layout;
    OwnedFrame c = forward(e, p, raw);
    double worst_detail = 0, worst_ll = 0;
    for (int y = 0; y < 24; ++y)
      for (int x = 0; x < 40; ++x) {
        const double v = coeff_at(c, 0, x, y);
        if (x < 5 && y < 3)
          worst_ll = std::max(worst_ll, std::fabs(v - 800.0));
        else
          worst_detail = std::max(worst_detail, std::fabs(v));
      }
    CHECK_MSG(worst_detail < 1e-3, "constant frame: detail coefficient %g", worst_detail);
    CHECK_MSG(worst_ll < 800 * 1e-5, "constant frame: LL off 100 * 2^3 by %g", worst_ll);
  }
  OwnedFrame row = cft::make_raw(Packing::Gray, 16, 1, cf::SampleType::U8);
  for (int x = 0; x < 16; ++x) cft::write_sample(row.view, 0, x, 0, x % 2 ? 0 : 200);
  Cdf97Params p;  // one level; the rows: 100 +- 100
  OwnedFrame c = forward(e, p, row);
  for (int x = 8; x < 16; ++x)
    CHECK_MSG(std::fabs(coeff_at(c, 0, x, 0) + 100 * std::sqrt(2.0)) < 1e-3, "Nyquist gain: %g", coeff_at(c, 0, x, 0));
  for (int x = 0; x < 8; ++x)
    CHECK_MSG(std::fabs(coeff_at(c, 0, x, 0) - 100 * std::sqrt(2.0)) < 1e-3, "DC gain: %g", coeff_at(c, 0, x, 0));
}

// Nearly orthonormal: the energy of the coefficients is that of the input
// within a few per cent, for noise and for a photo.
void energy(cf::Engine &e) {
  std::vector<OwnedFrame> frames;
  frames.push_back(gray(256, 192, 5));
  for (const cft::Photo &ph : cft::load_photos()) {
    OwnedFrame f = cft::make_raw(Packing::Gray, ph.width, ph.height, cf::SampleType::U8);
    cft::fill_from_rgb(f, ph.width, ph.height, ph.rgb);
    frames.push_back(std::move(f));
    break;
  }
  for (const OwnedFrame &raw : frames) {
    const int w = raw.view.components[0].width, h = raw.view.components[0].height;
    Cdf97Params p;
    p.levels = 4;
    OwnedFrame c = forward(e, p, raw);
    // Energy of the zero-mean input against the detail bands plus the LL
    // band minus its mean (the mean's energy alone is exact).
    double in = 0, out = 0;
    const std::vector<double> x = plane_of(raw);
    double mean = 0;
    for (double v : x) mean += v;
    mean /= double(x.size());
    for (double v : x) in += (v - mean) * (v - mean);
    const int lw = (w + 15) / 16, lh = (h + 15) / 16;
    double ll_mean = 0;
    for (int y = 0; y < lh; ++y)
      for (int xx = 0; xx < lw; ++xx) ll_mean += coeff_at(c, 0, xx, y);
    ll_mean /= double(lw) * lh;
    for (int y = 0; y < h; ++y)
      for (int xx = 0; xx < w; ++xx) {
        double v = coeff_at(c, 0, xx, y);
        if (xx < lw && y < lh) v -= ll_mean;
        out += v * v;
      }
    const double ratio = out / in;
    std::printf("energy ratio (coefficients / input, mean removed) %dx%d: %.4f\n", w, h, ratio);
    CHECK_MSG(ratio > 0.9 && ratio < 1.1, "%dx%d: energy ratio %g", w, h, ratio);
  }
}

// Threshold and quantisation from their definitions, applied here to the
// F32 coefficients of the same frame.
void post_processing(cf::Engine &e) {
  const int w = 37, h = 29;
  OwnedFrame raw = gray(w, h, 77);
  for (Layout layout : {Layout::Mallat, Layout::Standard}) {
    Cdf97Params p;
    p.levels = 2;
    p.layout = layout;
    OwnedFrame plain = forward(e, p, raw);
    const int lw = 10, lh = 8;  // ceil(ceil(37/2)/2), ceil(ceil(29/2)/2)
    for (bool soft : {false, true}) {
      Cdf97Params t = p;
      t.threshold = 20;
      t.threshold_mode = soft ? cf::ThresholdMode::Soft : cf::ThresholdMode::Hard;
      OwnedFrame th = forward(e, t, raw);
      Cdf97Params q = t;
      q.quant_step = 3.5f;
      OwnedFrame qu = forward(e, q, raw);
      long long bad_t = 0, bad_q = 0, zeroed = 0;
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const float c = coeff_at(plain, 0, x, y);
          float want = c;
          if (!(x < lw && y < lh)) {
            if (std::fabs(c) < 20.0f) {
              want = 0;
              ++zeroed;
            } else if (soft) {
              want = c < 0 ? c + 20.0f : c - 20.0f;
            }
          }
          if (coeff_at(th, 0, x, y) != want) ++bad_t;
          const float k = std::floor(std::fabs(want) / 3.5f);
          const long long wantq = want < 0 ? -(long long)k : (long long)k;
          if (cft::read_sample(qu.view, 0, x, y) != wantq) ++bad_q;
        }
      CHECK_MSG(bad_t == 0, "%s threshold: %lld coefficients differ from the definition", soft ? "soft" : "hard",
                bad_t);
      CHECK_MSG(bad_q == 0, "quantisation: %lld indices differ from the definition", bad_q);
      CHECK(zeroed > 0);
    }
  }
  // Indices saturate to the destination type, S16 whatever the input (a
  // colour stage's S16 planes): a 1x1 frame of +-1000 at step 0.01 gives
  // 100000 -> +-32767 in S16, 100000 in S32.
  for (int v : {1000, -1000}) {
    OwnedFrame px = cft::make_raw(Packing::Gray, 1, 1, cf::SampleType::S16);
    cft::write_sample(px.view, 0, 0, 0, v);
    Cdf97Params fine;
    fine.quant_step = 0.01f;
    for (cf::SampleType t : {cf::SampleType::S16, cf::SampleType::S32}) {
      OwnedFrame k = cft::make_planar_like(px.view, t);
      cf::cdf97_forward(e, fine, px.view, k.view);
      const long long want =
          t == cf::SampleType::S16 ? (v < 0 ? -32767 : 32767) : (long long)std::floor(v / 0.01f + 0.0f);
      CHECK_MSG(cft::read_sample(k.view, 0, 0, 0) == want, "index of %d at step 0.01 into %s: %lld, want %lld", v,
                cf::sample_type_name(t), (long long)cft::read_sample(k.view, 0, 0, 0), want);
    }
  }
  // Reconstruction of an index: (k + 0.5 sign(k)) step, through the inverse
  // of a 1x1 frame (no transform at one sample).
  OwnedFrame one = cft::make_raw(Packing::Gray, 1, 1, cf::SampleType::S16);
  OwnedFrame out = cft::make_planar_like(one.view, cf::SampleType::F32);
  Cdf97Params q;
  q.quant_step = 2.5f;
  for (int k : {-3, 0, 7}) {
    cft::write_sample(one.view, 0, 0, 0, k);
    cf::cdf97_inverse(e, q, one.view, out.view);
    const float want = k == 0 ? 0.0f : (k + (k < 0 ? -0.5f : 0.5f)) * 2.5f;
    CHECK_MSG(coeff_at(out, 0, 0, 0) == want, "dequantise %d: %g, want %g", k, coeff_at(out, 0, 0, 0), want);
  }
}

double psnr8(const OwnedFrame &a, const OwnedFrame &b) {
  double se = 0;
  long long n = 0;
  for (int c = 0; c < a.view.n_components; ++c)
    for (int y = 0; y < a.view.components[c].height; ++y)
      for (int x = 0; x < a.view.components[c].width; ++x, ++n) {
        const double d = double(cft::read_sample(a.view, c, x, y) - cft::read_sample(b.view, c, x, y));
        se += d * d;
      }
  return se == 0 ? INFINITY : 10 * std::log10(255.0 * 255.0 / (se / double(n)));
}

// Round trips: float error < 1e-3 before rounding, exact after it.
void round_trips(cf::Engine &e) {
  for (auto [w, h] : std::vector<std::pair<int, int>>{{1, 1}, {2, 2}, {7, 5}, {5, 7}, {64, 48}, {321, 241}})
    for (const cft::cdf97_parity::Kind &k : cft::cdf97_parity::kinds())
      for (Layout layout : {Layout::Mallat, Layout::Standard}) {
        OwnedFrame raw = cft::make_raw(k.packing, w, h, k.type, 3, k.subsampled);
        cft::fill_random(raw, std::uint32_t(w * 7 + h));
        int deepest = 64;
        for (int c = 0; c < raw.view.n_components; ++c)
          deepest =
              std::min(deepest, cf::cdf97_max_levels(raw.view.components[c].width, raw.view.components[c].height));
        Cdf97Params p;
        p.levels = deepest;
        p.layout = layout;
        OwnedFrame c = forward(e, p, raw);
        OwnedFrame f = cft::make_planar_like(raw.view, cf::SampleType::F32);
        cf::cdf97_inverse(e, p, c.view, f.view);
        double worst = 0;
        for (int i = 0; i < raw.view.n_components; ++i)
          for (int y = 0; y < raw.view.components[i].height; ++y)
            for (int x = 0; x < raw.view.components[i].width; ++x)
              worst = std::max(worst,
                               std::fabs(double(coeff_at(f, i, x, y)) - double(cft::read_sample(raw.view, i, x, y))));
        CHECK_MSG(worst < 1e-3 * (k.type == cf::SampleType::U16 ? 256 : 1), "%s %dx%d levels %d: float error %g",
                  k.name, w, h, deepest, worst);
        OwnedFrame back = cft::copy_of(raw);
        cft::fill_bytes(back, 0x77);
        cf::cdf97_inverse(e, p, c.view, back.view);
        CHECK_MSG(cft::count_differences(raw.view, back.view) == 0, "%s %dx%d levels %d %s: not exact after rounding",
                  k.name, w, h, deepest, cf::layout_name(layout));
      }
}

// PSNR on the real photos (RGB), without and with quantisation.
void photo_psnr(cf::Engine &e) {
  for (const cft::Photo &ph : cft::load_photos()) {
    OwnedFrame raw = cft::make_raw(Packing::Packed3, ph.width, ph.height, cf::SampleType::U8);
    cft::fill_from_rgb(raw, ph.width, ph.height, ph.rgb);
    for (float step : {0.0f, 1.0f, 8.0f}) {
      Cdf97Params p;
      p.levels = 5;
      p.quant_step = step;
      OwnedFrame c = forward(e, p, raw);
      OwnedFrame back = cft::copy_of(raw);
      cf::cdf97_inverse(e, p, c.view, back.view);
      const double db = psnr8(raw, back);
      std::printf("%s %dx%d levels 5 quant-step %g: PSNR %.2f dB\n", ph.name.c_str(), ph.width, ph.height, step, db);
      if (step == 0) CHECK_MSG(db >= 60, "%s: PSNR %g dB < 60", ph.name.c_str(), db);
      if (step == 1) CHECK_MSG(db >= 45, "%s: step 1 PSNR %g dB", ph.name.c_str(), db);
    }
  }
}

void bad_input(cf::Engine &e) {
  OwnedFrame raw = gray(17, 13, 3);
  auto error_of = [&](const Cdf97Params &p, cf::SampleType t) -> std::string {
    OwnedFrame c = cft::make_planar_like(raw.view, t);
    try {
      cf::cdf97_forward(e, p, raw.view, c.view);
    } catch (const cf::Error &err) {
      return err.what();
    }
    return "";
  };
  Cdf97Params deep;
  deep.levels = 6;
  const std::string d = error_of(deep, cf::SampleType::F32);
  CHECK_MSG(d.find("levels=6 is too deep") != std::string::npos && d.find("at most 5") != std::string::npos, "%s",
            d.c_str());
  Cdf97Params neg;
  neg.quant_step = -1;
  CHECK(error_of(neg, cf::SampleType::S16).find("quant-step") != std::string::npos);
  Cdf97Params nan;
  nan.quant_step = NAN;
  CHECK(error_of(nan, cf::SampleType::S16).find("quant-step") != std::string::npos);
  Cdf97Params thr;
  thr.threshold = -2;
  CHECK(error_of(thr, cf::SampleType::F32).find("threshold") != std::string::npos);
  Cdf97Params q;
  q.quant_step = 2;
  CHECK(error_of(q, cf::SampleType::F32).find("must be S16") != std::string::npos);
  CHECK(error_of(Cdf97Params{}, cf::SampleType::S16).find("must be F32") != std::string::npos);
}

}  // namespace

int main() {
  cf::Engine cpu(cf::Backend::Cpu);
  known_answers(cpu);
  gains(cpu);
  energy(cpu);
  post_processing(cpu);
  round_trips(cpu);
  photo_psnr(cpu);
  bad_input(cpu);
  try {
    cf::Engine omp(cf::Backend::OpenMP, 2);
    cft::cdf97_parity::random_frames(omp, cpu, {{1, 1}, {7, 5}, {2, 9}, {70, 41}, {321, 241}});
    cft::cdf97_parity::photos(omp, cpu, nullptr);
    std::printf("openmp against cpu: %lld runs\n", cft::cdf97_parity::runs());
  } catch (const cf::Error &err) {
    std::printf("note: no OpenMP backend (%s)\n", err.what());
  }
  return cft::test_result();
}
