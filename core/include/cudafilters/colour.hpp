// Reversible integer colour transforms of RGB: JPEG 2000's RCT and YCoCg-R.
//
// Input: a raw frame of 3 or 4 components of one size, components 0, 1, 2
// being R, G, B (GStreamer's component order of the RGB family, whatever the
// byte order in memory) and component 3, if present, alpha. Output: one
// plane per component, in this order:
//   RCT (ISO/IEC 15444-1, annex G.2):
//     Y  = floor((R + 2G + B) / 4),  Cb = B - G,  Cr = R - G
//     inverse: G = Y - floor((Cb + Cr) / 4),  R = Cr + G,  B = Cb + G
//   YCoCg-R (Malvar and Sullivan, 2003), in lifting form:
//     Co = R - B,  t = B + floor(Co / 2),  Cg = G - t,  Y = t + floor(Cg / 2)
//     inverse: t = Y - floor(Cg / 2),  G = Cg + t,  B = t - floor(Co / 2),  R = B + Co
//   alpha: copied unchanged in both directions (it is not a colour; keeping
//   it as its own plane keeps RGBA round trips exact).
// Floors are arithmetic shifts, so every backend gives the same bits.
//
// Value ranges for B-bit input (M = 2^B - 1): Y and alpha in [0, M], the two
// differences in [-M, M]: B + 1 significant bits, so 8-bit input fits S16
// and 16-bit input S32.
#pragma once

#include <string>

#include "cudafilters/engine.hpp"
#include "cudafilters/frame.hpp"

namespace cf {

enum class ColourTransform { Rct, YCoCg };
const char *colour_name(ColourTransform t);  // "rct", "ycocg"

// The values every output plane of the forward transform of `raw` (U8 or
// U16) samples lies in: [-M, M] (the union of the planes' ranges).
ValueRange colour_output_range(ColourTransform t, SampleType raw);

// Empty when src -> dst is a valid forward transform (src U8/U16 with 3 or 4
// components of one size; dst the same components, of a signed type that
// holds colour_output_range); otherwise what is wrong.
std::string colour_check(const FrameView &src, const FrameView &dst);

void colour_forward(Engine &e, ColourTransform t, const FrameView &src, const FrameView &dst);
// The exact inverse: src S16/S32 planes, dst raw (values clamped to its
// type's range, which leaves exact reconstructions unchanged).
void colour_inverse(Engine &e, ColourTransform t, const FrameView &src, const FrameView &dst);

}  // namespace cf
