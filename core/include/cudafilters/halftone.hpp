// Error-diffusion halftoning of 8-bit planes with six classic kernels,
// integer arithmetic only, so cpu, openmp and cuda give identical bits.
//
// The exact rule, per component plane (W x H samples v(x, y) in 0..255):
//
// Scan. Rows top to bottom. Row y runs left to right (direction d = +1),
//   or, with `serpentine`, right to left (d = -1) on odd rows. A pixel sends
//   its diffused error e' to (x + d*dx, y + dy) for each tap (dx, dy, w) of
//   the method (table below, mirrored with the row); targets outside the
//   plane drop their share (no renormalisation).
// Sum. A(x, y) = sum of w * e'(source) over the taps that reach (x, y): an
//   integer, so the order of summation cannot matter.
// Value. u = v + floor((A + D/2) / D) (D the method's divisor: the rounded
//   mean of the incoming errors), then u is clamped to [-255, 510]. Without
//   `stochastic` the clamp never acts (every error stays within +-255).
// Output. q = quantise(u). Levels L (2..256): q_k = floor((255 k + (L-1)/2) / (L-1)),
//   k = 0..L-1 (255 k / (L-1) rounded half up). With c = u clamped to 0..255
//   and k the largest index <= L-2 with q_k <= c: q = q_{k+1} when
//   c >= q_k + ceil((q_{k+1} - q_k) * T / 255), else q_k. T = `threshold`
//   (0..255, default 128): for L = 2 that is "255 when u >= T, else 0"; for
//   more levels T is the same fraction T/255 of the step between two levels.
// Error. e = u - q. The diffused error e' = e, or with stochastic amplitude
//   p > 0: e' = e + floor((e * P * s + 2^31) / 2^32), that is e * (1 + r)
//   rounded to nearest, r = P * s / 2^32 in (-p, p), where
//   P = floor(p * 65536 + 0.5) and s = 2 * (h >> 48) - 65535 (odd, |s| < 65536)
//   from the 64-bit hash h = mix(k ^ (y << 32 | x)), with the per-plane key
//   k = mix(mix(mix(seed ^ 0x9E3779B97F4A7C15) ^ frame) ^ plane) and mix the
//   splitmix64 finaliser. Plane = component index; frame = the caller's frame
//   number. Same input, seed, frame number and parameters: same bits, on
//   every backend and every run.
//
// Methods (taps relative to the current pixel, scanning left to right):
//   floyd-steinberg     /16:  (1,0)7; (-1,1)3 (0,1)5 (1,1)1
//   stevenson-arce     /200:  (2,0)32; (-3,1)12 (-1,1)26 (1,1)30 (3,1)16;
//                             (-2,2)12 (0,2)26 (2,2)12; (-3,3)5 (-1,3)12 (1,3)12 (3,3)5
//   burkes              /32:  (1,0)8 (2,0)4; (-2,1)2 (-1,1)4 (0,1)8 (1,1)4 (2,1)2
//   sierra              /32:  (1,0)5 (2,0)3; (-2,1)2 (-1,1)4 (0,1)5 (1,1)4 (2,1)2;
//                             (-1,2)2 (0,2)3 (1,2)2
//   stucki              /42:  (1,0)8 (2,0)4; (-2,1)2 (-1,1)4 (0,1)8 (1,1)4 (2,1)2;
//                             (-2,2)1 (-1,2)2 (0,2)4 (1,2)2 (2,2)1
//   jarvis-judice-ninke /48:  (1,0)7 (2,0)5; (-2,1)3 (-1,1)5 (0,1)7 (1,1)5 (2,1)3;
//                             (-2,2)1 (-1,2)3 (0,2)5 (1,2)3 (2,2)1
//
// Parallel schedules (same bits): without serpentine a row can follow the
// row above at a fixed lag of columns (wavefront). With serpentine the rows
// run in opposite directions, so the first pixel of a row needs the last
// pixel of the row above: every plane is one sequential chain, and only
// separate planes run in parallel.
#pragma once

#include <cstdint>
#include <string>

#include "cudafilters/engine.hpp"
#include "cudafilters/frame.hpp"

namespace cf {

enum class HalftoneMethod { FloydSteinberg, StevensonArce, Burkes, Sierra, Stucki, JarvisJudiceNinke };
constexpr int kHalftoneMethods = 6;
// "floyd-steinberg", "stevenson-arce", "burkes", "sierra", "stucki", "jarvis-judice-ninke"
const char *halftone_method_name(HalftoneMethod m);

struct HalftoneParams {
  HalftoneMethod method = HalftoneMethod::FloydSteinberg;
  bool serpentine = false;
  int levels = 2;           // 2..256 output values, evenly spaced over 0..255
  int threshold = 128;      // 0..255, see the rule above
  double stochastic = 0.0;  // p in [0, 1]; 0 = deterministic
  std::uint64_t seed = 0;
  // Components copied from src to dst unchanged instead of halftoned (bit c
  // for component c): alpha.
  unsigned copy_mask = 0;
};

// Empty when the parameters are valid, else a message naming the parameter,
// its value and the allowed range.
std::string halftone_check(const HalftoneParams &p);

// The output value for a corrected value u (the Output rule above).
int halftone_quantise(int u, int levels, int threshold);

// src -> dst, U8 frames of the same geometry (component count and sizes;
// strides and memory may differ; host or device memory on the CUDA engine).
// frame_number keys the stochastic generator. Throws cf::Error on bad
// parameters or frames.
void halftone(Engine &e, const HalftoneParams &p, std::uint64_t frame_number, const FrameView &src,
              const FrameView &dst);

}  // namespace cf
