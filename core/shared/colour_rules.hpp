// The colour transforms on one pixel: the literal definitions at the top of
// cudafilters/colour.hpp, shared by the serial reference, the OpenMP
// schedule and the CUDA kernels (CF_HD: host_device.hpp), so all three
// compute the same thing.
//
// int32 arithmetic; sums wrap modulo 2^32 (add/sub) instead of being
// undefined for arbitrary S32 input to the inverse; floor(v / 2^k) is v >> k.
#pragma once

#include <cstdint>

#include "core/shared/host_device.hpp"
#include "cudafilters/colour.hpp"

namespace cf::colour {

CF_HD std::int32_t add(std::int32_t a, std::int32_t b) { return std::int32_t(std::uint32_t(a) + std::uint32_t(b)); }
CF_HD std::int32_t sub(std::int32_t a, std::int32_t b) { return std::int32_t(std::uint32_t(a) - std::uint32_t(b)); }

// (R, G, B) in v[0..2] -> (Y, Cb, Cr) or (Y, Co, Cg), in place.
CF_HD void forward(ColourTransform t, std::int32_t v[3]) {
  const std::int32_t r = v[0], g = v[1], b = v[2];
  if (t == ColourTransform::Rct) {
    v[0] = add(add(r, g), add(g, b)) >> 2;
    v[1] = sub(b, g);
    v[2] = sub(r, g);
  } else {
    const std::int32_t co = sub(r, b), tt = add(b, co >> 1), cg = sub(g, tt);
    v[0] = add(tt, cg >> 1);
    v[1] = co;
    v[2] = cg;
  }
}

// The inverse, in place.
CF_HD void inverse(ColourTransform t, std::int32_t v[3]) {
  if (t == ColourTransform::Rct) {
    const std::int32_t y = v[0], cb = v[1], cr = v[2];
    const std::int32_t g = sub(y, add(cb, cr) >> 2);
    v[0] = add(cr, g);
    v[1] = g;
    v[2] = add(cb, g);
  } else {
    const std::int32_t y = v[0], co = v[1], cg = v[2];
    const std::int32_t tt = sub(y, cg >> 1), g = add(cg, tt), b = sub(tt, co >> 1);
    v[0] = add(b, co);
    v[1] = g;
    v[2] = b;
  }
}

}  // namespace cf::colour
