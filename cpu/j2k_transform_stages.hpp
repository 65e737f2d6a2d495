// The steps of the JPEG 2000 transform stage on one tile (cpu/j2k_transform.hpp),
// shared by the serial reference and the OpenMP schedule: each pass is a
// list of independent items (a row, a column) handed to a `for_each(n,
// scratch, body)` that runs body(i, int_scratch, float_scratch) for i in
// [0, n), on one thread or many. Every item gets the same operations
// whichever thread runs it, so the bits do not depend on the schedule.
//
// The passes of a tile: load (samples, DC level shift, colour transform)
// into the work blocks; per level, the columns (VER_SD) then the rows
// (HOR_SD) of the resolution being split; quantisation (irreversible). The
// work block of a tile-component is its int32 coefficient block when
// reversible, a float block of the same shape otherwise.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "core/codec/j2k_layout.hpp"
#include "core/shared/ceil_div.hpp"
#include "core/shared/colour_rules.hpp"
#include "core/shared/j2k_dwt_rules.hpp"
#include "core/shared/j2k_quant_rules.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k.hpp"

namespace cf::j2k::transform {

struct Frame {
  const J2kInput &in;
  const Layout &layout;
  const std::vector<float> &step_reciprocals;
  std::int32_t *coefficients;
};

inline void check(const Frame &f) {
  const CodestreamParams &p = f.layout.params;
  const FrameView &v = f.in.frame;
  const auto fail = [](const std::string &m) { throw Error("JPEG 2000 transform: " + m); };
  if (v.memory != Memory::Host) fail("the cpu and openmp backends read host frames");
  if (v.type != SampleType::U8 && v.type != SampleType::U16)
    fail(std::string("samples must be U8 or U16, not ") + sample_type_name(v.type));
  if (std::size_t(v.n_components) != p.components.size())
    fail("the frame has " + std::to_string(v.n_components) + " components, the layout " +
         std::to_string(p.components.size()));
  for (int c = 0; c < v.n_components; ++c) {
    const cf::Component &k = v.components[c];
    const j2k::Component &q = p.components[std::size_t(c)];
    const std::uint64_t w = ceil_div(p.x1, q.subsample_x) - ceil_div(p.x0, q.subsample_x);
    const std::uint64_t h = ceil_div(p.y1, q.subsample_y) - ceil_div(p.y0, q.subsample_y);
    if (std::uint64_t(k.width) != w || std::uint64_t(k.height) != h)
      fail("component " + std::to_string(c) + " is " + std::to_string(k.width) + "x" + std::to_string(k.height) +
           ", the layout's " + std::to_string(w) + "x" + std::to_string(h) + " (T.800 B-12)");
    if (q.bit_depth < 1 || q.bit_depth > std::uint32_t(v.type == SampleType::U8 ? 8 : 16))
      fail("component " + std::to_string(c) + " has " + std::to_string(q.bit_depth) + " bits, more than " +
           sample_type_name(v.type) + " holds");
  }
  if (p.mct != f.in.rgb) fail("the input's rgb and the layout's multiple component transform (mct) differ");
  if (p.mct && p.components.size() < 3) fail("the colour transform needs 3 components");
  if (!p.reversible)
    for (const BandLayout &b : f.layout.bands)
      if (b.step_index >= f.step_reciprocals.size())
        fail("subband step " + std::to_string(b.step_index) + " has no reciprocal (" +
             std::to_string(f.step_reciprocals.size()) + " given)");
}

// Floats of work a tile needs (irreversible): its tile-components' areas.
inline std::size_t tile_work_size(const Layout &l, std::uint32_t tile) {
  if (l.params.reversible) return 0;
  std::size_t n = 0;
  const TileLayout &t = l.tiles[tile];
  for (std::size_t k = 0; k < l.params.components.size(); ++k) {
    const Rect &r = l.tile_components[t.first_tile_component + k].rect;
    n += std::size_t(r.width()) * r.height();
  }
  return n;
}

// One tile's tile-components and where their work blocks are.
template <class T>
struct TileWork {
  std::vector<const TileComponentLayout *> tcs;
  std::vector<T *> blocks;
};

inline TileWork<std::int32_t> int_work(const Frame &f, std::uint32_t tile) {
  TileWork<std::int32_t> w;
  const TileLayout &t = f.layout.tiles[tile];
  for (std::size_t k = 0; k < f.layout.params.components.size(); ++k) {
    const TileComponentLayout &tc = f.layout.tile_components[t.first_tile_component + k];
    w.tcs.push_back(&tc);
    w.blocks.push_back(f.coefficients + tc.offset);
  }
  return w;
}
inline TileWork<float> float_work(const Frame &f, std::uint32_t tile, float *work) {
  TileWork<float> w;
  const TileLayout &t = f.layout.tiles[tile];
  for (std::size_t k = 0; k < f.layout.params.components.size(); ++k) {
    const TileComponentLayout &tc = f.layout.tile_components[t.first_tile_component + k];
    w.tcs.push_back(&tc);
    w.blocks.push_back(work);
    work += std::size_t(tc.rect.width()) * tc.rect.height();
  }
  return w;
}

// Finds the part of a list of lengths that item i falls in: i becomes the
// index inside that part.
inline std::size_t part_of(const std::vector<std::size_t> &lengths, std::size_t &i) {
  std::size_t k = 0;
  while (i >= lengths[k]) i -= lengths[k++];
  return k;
}
inline std::size_t total(const std::vector<std::size_t> &lengths) {
  std::size_t n = 0;
  for (std::size_t v : lengths) n += v;
  return n;
}

// n samples of component c from its sample (x, y), unsigned, as int32.
inline void read_samples(const FrameView &v, int c, int x, int y, int n, std::int32_t *out) {
  const auto *p = static_cast<const std::uint8_t *>(v.sample(c, x, y));
  const std::ptrdiff_t step = std::ptrdiff_t(v.components[c].pixel_stride) * sample_size(v.type);
  if (v.type == SampleType::U8) {
    for (int i = 0; i < n; ++i) out[i] = p[i * step];
  } else {
    for (int i = 0; i < n; ++i) {
      std::uint16_t s;
      std::memcpy(&s, p + i * step, sizeof s);
      out[i] = s;
    }
  }
}

// Row y (0-based in the tile-component) of tile-component k: its samples
// DC-shifted; with the colour transform, k = 0 also does components 1 and 2.
template <class T>
void load_row(const Frame &f, const TileWork<T> &w, std::size_t k, std::uint32_t y, std::int32_t *scratch) {
  const CodestreamParams &p = f.layout.params;
  const TileComponentLayout &tc = *w.tcs[k];
  const int width = int(tc.rect.width());
  const bool colour = p.mct && k == 0;
  const std::size_t comps = colour ? 3 : 1;
  std::int32_t *rows[3];
  for (std::size_t j = 0; j < comps; ++j) {
    const std::size_t c = k + j;
    const j2k::Component &q = p.components[c];
    // Component coordinates of the tile-component to frame coordinates (B-12).
    const int x = int(tc.rect.x0 - ceil_div(p.x0, q.subsample_x));
    const int row = int(tc.rect.y0 + y - ceil_div(p.y0, q.subsample_y));
    rows[j] = scratch + j * std::size_t(width);
    read_samples(f.in.frame, int(c), x, row, width, rows[j]);
    for (int i = 0; i < width; ++i) rows[j][i] = quant::dc_shift(rows[j][i], int(q.bit_depth));
  }
  const std::size_t at = std::size_t(y) * width;
  if (!colour) {
    for (int i = 0; i < width; ++i) w.blocks[k][at + i] = T(rows[0][i]);
    return;
  }
  for (int i = 0; i < width; ++i) {
    if constexpr (std::is_same_v<T, float>) {
      float v[3] = {float(rows[0][i]), float(rows[1][i]), float(rows[2][i])};
      quant::ict_forward(v);
      for (int j = 0; j < 3; ++j) w.blocks[k + j][at + i] = v[j];
    } else {
      std::int32_t v[3] = {rows[0][i], rows[1][i], rows[2][i]};
      colour::forward(ColourTransform::Rct, v);
      for (int j = 0; j < 3; ++j) w.blocks[k + j][at + i] = v[j];
    }
  }
}

// Row y of tile-component k's block, quantised band by band.
inline void quantise_row(const Frame &f, const TileWork<float> &w, std::size_t k, std::uint32_t y, std::int32_t *out) {
  const TileComponentLayout &tc = *w.tcs[k];
  const std::size_t width = tc.rect.width(), bands = subband_count(f.layout.params.levels);
  const float *row = w.blocks[k] + y * width;
  std::int32_t *dst = out + tc.offset + y * width;
  for (std::size_t b = 0; b < bands; ++b) {
    const BandLayout &band = f.layout.bands[tc.first_band + b];
    if (y < band.buffer_y || y >= band.buffer_y + band.band.height()) continue;
    const float r = f.step_reciprocals[band.step_index];
    for (std::uint32_t x = band.buffer_x; x < band.buffer_x + band.band.width(); ++x)
      dst[x] = quant::quantise(row[x], r);
  }
}

// The passes of one tile on its work blocks (int32: 5/3, float: 9/7).
template <class T, class ForEach>
void transform_tile(const Frame &f, const TileWork<T> &w, ForEach &&for_each) {
  using Filter = std::conditional_t<std::is_same_v<T, float>, dwt::Irreversible97, dwt::Reversible53>;
  const std::size_t comps = w.tcs.size();
  const std::uint32_t levels = f.layout.params.levels;
  std::size_t scratch = 1;
  for (const TileComponentLayout *tc : w.tcs)
    scratch = std::max<std::size_t>({scratch, tc->rect.width(), tc->rect.height()});

  // Load: the rows of every tile-component but the colour transform's 1 and 2.
  std::vector<std::size_t> lengths(comps);
  for (std::size_t k = 0; k < comps; ++k)
    lengths[k] = (f.layout.params.mct && (k == 1 || k == 2)) ? 0 : w.tcs[k]->rect.height();
  for_each(total(lengths), 3 * scratch, [&](std::size_t i, std::int32_t *is, float *) {
    const std::size_t k = part_of(lengths, i);
    load_row(f, w, k, std::uint32_t(i), is);
  });

  // Level l splits resolution NL - l + 1: its columns, then its rows.
  for (std::uint32_t l = 1; l <= levels; ++l) {
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t k = 0; k < comps; ++k) {
        const Rect &r = w.tcs[k]->resolutions[levels - l + 1];
        lengths[k] = pass == 0 ? r.width() : r.height();
      }
      for_each(total(lengths), scratch, [&](std::size_t i, std::int32_t *is, float *fs) {
        const std::size_t k = part_of(lengths, i);
        const Rect &r = w.tcs[k]->resolutions[levels - l + 1];
        const std::ptrdiff_t stride = w.tcs[k]->rect.width();
        T *s;
        if constexpr (std::is_same_v<T, float>)
          s = fs;
        else
          s = is;
        if (pass == 0)
          dwt::forward_column<Filter>(w.blocks[k], stride, r.y0, int(r.height()), int(i), s);
        else
          dwt::forward_row<Filter>(w.blocks[k], stride, r.x0, int(r.width()), int(i), s);
      });
    }
  }

  if constexpr (std::is_same_v<T, float>) {
    for (std::size_t k = 0; k < comps; ++k) lengths[k] = w.tcs[k]->rect.height();
    for_each(total(lengths), scratch, [&](std::size_t i, std::int32_t *, float *) {
      const std::size_t k = part_of(lengths, i);
      quantise_row(f, w, k, std::uint32_t(i), f.coefficients);
    });
  }
}

// Every pass of tile `tile`; `work` holds tile_work_size floats.
template <class ForEach>
void run_tile(const Frame &f, std::uint32_t tile, float *work, ForEach &&for_each) {
  if (f.layout.params.reversible)
    transform_tile(f, int_work(f, tile), for_each);
  else
    transform_tile(f, float_work(f, tile, work), for_each);
}

// Scratch lines of one thread.
struct Scratch {
  std::vector<std::int32_t> ints;
  std::vector<float> floats;
  void reserve(std::size_t n) {
    if (ints.size() < n) ints.resize(n);
    if (floats.size() < n) floats.resize(n);
  }
};

}  // namespace cf::j2k::transform
