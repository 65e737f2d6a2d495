// Reversible integer wavelets: Haar (S-transform in lifting form) and the
// CDF 5/3 of JPEG 2000's reversible path.
//
// 1-D rule for a signal x[0..N-1] (JPEG 2000 with the origin at 0):
//   low band  = ceil(N/2) samples (even positions), high band = floor(N/2).
//   Haar:  d[n] = x[2n+1] - x[2n];  s[n] = x[2n] + floor(d[n] / 2).
//          An odd N leaves the last sample unpaired: s = x[N-1].
//   5/3:   d[n] = x[2n+1] - floor((x[2n] + x[2n+2]) / 2)
//          s[n] = x[2n]   + floor((d[n-1] + d[n] + 2) / 4)
//          with whole-sample symmetric extension: x[N] = x[N-2], d[-1] = d[0],
//          and for odd N d[(N-1)/2] = d[(N-3)/2]. N = 1 passes x[0] unchanged.
// Floors are floors (arithmetic shifts), so every backend gives the same bits.
// 2-D, Mallat: at each level rows then columns of the current LL band.
// 2-D, standard: all row levels on whole rows, then all column levels.
#pragma once

#include <string>
#include <vector>

#include "cudafilters/engine.hpp"
#include "cudafilters/frame.hpp"

namespace cf {

enum class Wavelet { Haar, Cdf53 };
enum class Layout { Mallat, Standard };
const char *wavelet_name(Wavelet w);  // "haar", "cdf53"
const char *layout_name(Layout l);    // "mallat", "standard"

struct WaveletParams {
  Wavelet wavelet = Wavelet::Cdf53;
  int levels = 1;
  Layout layout = Layout::Mallat;
  // The values the source's samples can take, when narrower than its sample
  // type (coefficients of an earlier stage: colour_output_range() of
  // <cudafilters/colour.hpp>); empty = the source sample type's range. The
  // overflow limit of `levels` is computed from it. Source values outside
  // it are outside the contract: coefficients may saturate, differently on
  // different backends.
  ValueRange input;

  WaveletParams() = default;
  WaveletParams(Wavelet w, int n, Layout l, ValueRange in = {}) : wavelet(w), levels(n), layout(l), input(in) {}
};

// Coefficient type for a raw sample type: S16 for 8-bit, S32 for 16-bit.
SampleType coefficient_type_for(SampleType raw);

// Deepest level count allowed for a component of width x height: levels stop
// once the low band is 1x1, and no coefficient may overflow `coeff` for any
// input of type `input` (bounded by each band's cascaded filter and the
// rounding of every lifting step, computed for up to 16 levels). Always >= 1 (a 1x1 frame passes
// unchanged at level 1).
int wavelet_max_levels(Wavelet w, Layout l, int width, int height, SampleType input, SampleType coeff);
// The same for inputs whose values lie in `input` (not empty).
int wavelet_max_levels(Wavelet w, Layout l, int width, int height, ValueRange input, SampleType coeff);

// Empty when `p` suits every component of `raw` (values in p.input, or of
// raw.type when it is empty); otherwise a message naming the property and
// the limit ("levels=9 is too deep for 17x13: at most 4").
std::string wavelet_check(const WaveletParams &p, const FrameView &raw, SampleType coeff);

// Subband rectangles of one component, in its coefficient plane.
enum class BandKind { LL, HL, LH, HH };
struct Subband {
  int x, y, width, height;
  int level;  // 1 = finest
  BandKind kind;
};
std::vector<Subband> wavelet_subbands(const WaveletParams &p, int width, int height);

// raw (U8/U16, or S16/S32 coefficients of an earlier stage) -> coefficients
// (S16/S32, one tight plane per component of the same size as the input's).
void wavelet_forward(Engine &e, const WaveletParams &p, const FrameView &src, const FrameView &dst);
// The exact inverse. dst may be raw (values clamped to its range, which
// leaves exact coefficients unchanged) or coefficients of an earlier stage.
void wavelet_inverse(Engine &e, const WaveletParams &p, const FrameView &src, const FrameView &dst);

}  // namespace cf
