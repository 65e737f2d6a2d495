// The steps of the JPEG 2000 reconstruction stage on one tile
// (cpu/j2k_reconstruct.hpp), shared by the serial reference and the OpenMP
// schedule: each pass is a list of independent items (a row, a column)
// handed to a `for_each(n, scratch, body)` that runs body(i, int_scratch,
// float_scratch) for i in [0, n), on one thread or many, as the forward
// stage's (cpu/j2k_transform_stages.hpp). Every item gets the same
// operations whichever thread runs it, so the bits do not depend on the
// schedule.
//
// The passes of a tile: load (ROI scaling undone, dequantisation) of the
// bands of resolutions 0..NL - reduce into the work blocks; per level from
// NL down to reduce + 1, the rows (HOR_SR) then the columns (VER_SR) of the
// resolution being rebuilt; store (colour transform, DC level shift,
// rounding, clamping) into the frame. The work block of a tile-component
// is the top-left region of its coefficient block that resolution
// NL - reduce covers (rows of that region's width): int32 when its
// wavelet is the 5/3 (TileComponentLayout::reversible), float for the 9/7,
// so one tile may hold both.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "core/codec/j2k_layout.hpp"
#include "core/codec/j2k_reconstruction.hpp"  // Frame, check, kept, levels_of, is_constant
#include "core/shared/colour_rules.hpp"
#include "core/shared/j2k_dequant_rules.hpp"
#include "core/shared/j2k_idwt_rules.hpp"
#include "cpu/j2k_reconstruct.hpp"
#include "cpu/j2k_transform_stages.hpp"  // part_of, total, Scratch
#include "cudafilters/error.hpp"

namespace cf::j2k::reconstruct {

using transform::part_of;
using transform::Scratch;
using transform::total;

// Samples of work a tile needs: its tile-components' kept regions, int32
// for the reversible ones and float for the others (none for the constant
// ones).
struct WorkSize {
  std::size_t ints = 0, floats = 0;
};
inline WorkSize tile_work_size(const Layout &l, std::uint32_t tile, std::uint32_t reduce) {
  WorkSize n;
  const TileLayout &t = l.tiles[tile];
  for (std::size_t k = 0; k < l.params.components.size(); ++k) {
    const TileComponentLayout &tc = l.tile_components[t.first_tile_component + k];
    if (is_constant(l, t, k)) continue;
    const Rect &r = kept(tc, reduce);
    (tc.reversible ? n.ints : n.floats) += std::size_t(r.width()) * r.height();
  }
  return n;
}

// One tile's tile-components (their indices and layouts) and their work
// blocks: ints[k] for a reversible one (5/3), floats[k] otherwise (9/7),
// the other null; both null for a constant one.
struct TileWork {
  std::vector<std::size_t> indices;
  std::vector<const TileComponentLayout *> tcs;
  std::vector<std::int32_t *> ints;
  std::vector<float *> floats;
  std::vector<bool> constant;
};

inline TileWork tile_work(const Frame &f, std::uint32_t tile, std::int32_t *ints, float *floats) {
  TileWork w;
  const TileLayout &t = f.layout.tiles[tile];
  for (std::size_t k = 0; k < f.layout.params.components.size(); ++k) {
    const std::size_t i = t.first_tile_component + k;
    const TileComponentLayout &tc = f.layout.tile_components[i];
    const Rect &r = kept(tc, f.r.reduce);
    const std::size_t n = std::size_t(r.width()) * r.height();
    const bool constant = is_constant(f.layout, t, k);
    w.indices.push_back(i);
    w.tcs.push_back(&tc);
    w.constant.push_back(constant);
    w.ints.push_back(tc.reversible && !constant ? ints : nullptr);
    w.floats.push_back(tc.reversible || constant ? nullptr : floats);
    if (constant) continue;
    if (tc.reversible)
      ints += n;
    else
      floats += n;
  }
  return w;
}

// Row y of tile-component k's work block from its coefficients: the bands
// of the kept resolutions, ROI scaling undone, dequantised when float
// (zeros where nothing is coded).
template <class T>
void load_row(const Frame &f, const TileWork &w, std::size_t k, T *block, std::uint32_t y) {
  const TileComponentLayout &tc = *w.tcs[k];
  const std::uint32_t kept_levels = levels_of(tc) - f.r.reduce;
  const std::size_t width = kept(tc, f.r.reduce).width();
  T *dst = block + y * width;
  if (!tc.coded) {
    std::fill(dst, dst + width, T(0));
    return;
  }
  const std::int32_t *src = f.coefficients + tc.offset + std::size_t(y) * tc.coefficient_stride;
  const std::uint32_t shift = f.r.roi_shifts.empty() ? 0 : f.r.roi_shifts[w.indices[k]];
  const std::uint32_t fraction_bits = tc.reversible ? 0 : f.r.irreversible_fraction_bits;
  // Bands in subbands_in_order(): those of resolutions 0..kept_levels come first.
  for (std::size_t b = 0; b < subband_count(kept_levels); ++b) {
    const std::size_t index = tc.first_band + b;
    const BandLayout &band = f.layout.bands[index];
    if (y < band.buffer_y || y >= band.buffer_y + band.band.height()) continue;
    for (std::uint32_t x = band.buffer_x; x < band.buffer_x + band.band.width(); ++x) {
      const std::int32_t q = quant::roi_descale(src[x], shift, fraction_bits);
      if constexpr (std::is_same_v<T, float>)
        dst[x] = quant::dequantise(q, f.r.steps[index]);
      else
        dst[x] = q;
    }
  }
}

// n output samples of component c from its sample (x, y).
inline void write_samples(const FrameView &v, int c, int x, int y, int n, const std::uint32_t *in) {
  auto *p = static_cast<std::uint8_t *>(v.sample(c, x, y));
  const std::ptrdiff_t step = std::ptrdiff_t(v.components[c].pixel_stride) * sample_size(v.type);
  if (v.type == SampleType::U8) {
    for (int i = 0; i < n; ++i) p[i * step] = std::uint8_t(in[i]);
  } else {
    for (int i = 0; i < n; ++i) {
      const std::uint16_t s = std::uint16_t(in[i]);
      std::memcpy(p + i * step, &s, sizeof s);
    }
  }
}

// Row y of the kept region r of component c's tile-component into the
// frame: r.width() samples from `in`.
inline void write_row(const Frame &f, const Rect &r, std::size_t c, std::uint32_t y, const std::uint32_t *in) {
  const CodestreamParams &p = f.layout.params;
  const std::uint64_t scale = std::uint64_t(p.components[c].subsample_x) << f.r.reduce;
  const std::uint64_t scale_y = std::uint64_t(p.components[c].subsample_y) << f.r.reduce;
  // Resolution coordinates to the reduced component's (B-14 on the image origin).
  const int x = int(r.x0 - ceil_div(p.x0, scale));
  const int row = int(r.y0 + y - ceil_div(p.y0, scale_y));
  write_samples(f.out, int(c), x, row, int(r.width()), in);
}

// Row y of tile-component k into the frame, from `blocks` (its work block,
// and with the colour transform those of components 1 and 2: k = 0 then
// does all three, alike in wavelet as check() makes sure). scratch holds 3
// rows of the kept width.
template <class T>
void store_row(const Frame &f, const TileWork &w, std::size_t k, T *const *blocks, std::uint32_t y,
               std::int32_t *scratch) {
  const CodestreamParams &p = f.layout.params;
  const TileComponentLayout &tc = *w.tcs[k];
  const Rect &r = kept(tc, f.r.reduce);
  const int width = int(r.width());
  const bool colour = p.mct && k == 0;
  const std::size_t comps = colour ? 3 : 1, at = std::size_t(y) * width;
  auto *out = reinterpret_cast<std::uint32_t *>(scratch);
  for (int i = 0; i < width; ++i) {
    std::int32_t v[3];
    if constexpr (std::is_same_v<T, float>) {
      float s[3];
      for (std::size_t j = 0; j < comps; ++j) s[j] = blocks[j][at + i];
      if (colour) quant::ict_inverse(s);
      for (std::size_t j = 0; j < comps; ++j) v[j] = quant::nearest(s[j]);
    } else {
      for (std::size_t j = 0; j < comps; ++j) v[j] = blocks[j][at + i];
      if (colour) colour::inverse(ColourTransform::Rct, v);
    }
    for (std::size_t j = 0; j < comps; ++j)
      out[j * std::size_t(width) + i] = quant::output_sample(v[j], int(p.components[k + j].bit_depth))
                                        << f.r.shift_up[k + j];
  }
  for (std::size_t j = 0; j < comps; ++j) write_row(f, r, k + j, y, out + j * std::size_t(width));
}

// Row y of constant tile-component k into the frame: the samples of a zero
// (is_constant). scratch holds a row of the kept width.
inline void store_constant_row(const Frame &f, const TileWork &w, std::size_t k, std::uint32_t y,
                               std::int32_t *scratch) {
  const Rect &r = kept(*w.tcs[k], f.r.reduce);
  auto *out = reinterpret_cast<std::uint32_t *>(scratch);
  const std::uint32_t v = quant::output_sample(0, int(f.layout.params.components[k].bit_depth)) << f.r.shift_up[k];
  std::fill(out, out + r.width(), v);
  write_row(f, r, k, y, out);
}

// The passes of one tile on its work blocks, each tile-component with its
// own wavelet (int32: 5/3, float: 9/7).
template <class ForEach>
void reconstruct_tile(const Frame &f, const TileWork &w, ForEach &&for_each) {
  const std::size_t comps = w.tcs.size();
  const std::uint32_t reduce = f.r.reduce;
  std::size_t scratch = 1;
  for (const TileComponentLayout *tc : w.tcs)
    scratch = std::max<std::size_t>({scratch, kept(*tc, reduce).width(), kept(*tc, reduce).height()});

  std::vector<std::size_t> lengths(comps);
  for (std::size_t k = 0; k < comps; ++k) lengths[k] = w.constant[k] ? 0 : kept(*w.tcs[k], reduce).height();
  for_each(total(lengths), scratch, [&](std::size_t i, std::int32_t *, float *) {
    const std::size_t k = part_of(lengths, i);
    if (w.tcs[k]->reversible)
      load_row(f, w, k, w.ints[k], std::uint32_t(i));
    else
      load_row(f, w, k, w.floats[k], std::uint32_t(i));
  });

  // Level l rebuilds resolution NL - l + 1: its rows, then its columns.
  std::uint32_t deepest = 0;
  for (const TileComponentLayout *tc : w.tcs) deepest = std::max(deepest, levels_of(*tc));
  for (std::uint32_t l = deepest; l > reduce; --l) {
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t k = 0; k < comps; ++k) {
        const std::uint32_t nl = levels_of(*w.tcs[k]);
        const Rect &r = w.tcs[k]->resolutions[l <= nl ? nl - l + 1 : 0];
        lengths[k] = l > nl || w.constant[k] ? 0 : pass == 0 ? r.height() : r.width();
      }
      for_each(total(lengths), scratch, [&](std::size_t i, std::int32_t *is, float *fs) {
        const std::size_t k = part_of(lengths, i);
        const Rect &r = w.tcs[k]->resolutions[levels_of(*w.tcs[k]) - l + 1];
        const std::ptrdiff_t stride = kept(*w.tcs[k], reduce).width();
        if (w.tcs[k]->reversible) {
          if (pass == 0)
            dwt::inverse_row<dwt::Reversible53>(w.ints[k], stride, r.x0, int(r.width()), int(i), is);
          else
            dwt::inverse_column<dwt::Reversible53>(w.ints[k], stride, r.y0, int(r.height()), int(i), is);
        } else {
          if (pass == 0)
            dwt::inverse_row<dwt::Irreversible97>(w.floats[k], stride, r.x0, int(r.width()), int(i), fs);
          else
            dwt::inverse_column<dwt::Irreversible97>(w.floats[k], stride, r.y0, int(r.height()), int(i), fs);
        }
      });
    }
  }

  // The colour transform's components are constant together or not at all.
  const bool colour = f.layout.params.mct && !w.constant[0];
  for (std::size_t k = 0; k < comps; ++k)
    lengths[k] = (colour && (k == 1 || k == 2)) ? 0 : kept(*w.tcs[k], reduce).height();
  for_each(total(lengths), 3 * scratch, [&](std::size_t i, std::int32_t *is, float *) {
    const std::size_t k = part_of(lengths, i), n = colour && k == 0 ? 3 : 1;
    if (w.constant[k]) {
      store_constant_row(f, w, k, std::uint32_t(i), is);
    } else if (w.tcs[k]->reversible) {
      std::int32_t *blocks[3] = {w.ints[k], n > 1 ? w.ints[k + 1] : nullptr, n > 2 ? w.ints[k + 2] : nullptr};
      store_row(f, w, k, blocks, std::uint32_t(i), is);
    } else {
      float *blocks[3] = {w.floats[k], n > 1 ? w.floats[k + 1] : nullptr, n > 2 ? w.floats[k + 2] : nullptr};
      store_row(f, w, k, blocks, std::uint32_t(i), is);
    }
  });
}

// The work blocks of one thread's tile.
struct Work {
  std::vector<std::int32_t> ints;
  std::vector<float> floats;
};

// Every pass of tile `tile`.
template <class ForEach>
void run_tile(const Frame &f, std::uint32_t tile, Work &work, ForEach &&for_each) {
  const WorkSize n = tile_work_size(f.layout, tile, f.r.reduce);
  work.ints.resize(n.ints);
  work.floats.resize(n.floats);
  reconstruct_tile(f, tile_work(f, tile, work.ints.data(), work.floats.data()), for_each);
}

}  // namespace cf::j2k::reconstruct
