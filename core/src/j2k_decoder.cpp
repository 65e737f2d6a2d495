// JPEG 2000 decoding (cudafilters/j2k_decoder.hpp): the headers and tier-2
// of every tile, then tier-1 into the frame's coefficient array (host
// memory, or device memory on cuda) that the reconstruction stage reads
// (cpu/j2k_reconstruct.hpp, kernels/j2k_tier1_decode_cuda.hpp), described by a
// Layout built from the tiles' plans.
#include "cudafilters/j2k_decoder.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>

#include "core/codec/j2k_block_decoding.hpp"
#include "core/codec/j2k_header.hpp"
#include "core/codec/j2k_layout.hpp"
#include "core/codec/j2k_packet_reader.hpp"
#include "core/codec/j2k_reconstruction.hpp"
#include "core/codec/j2k_tile_plan.hpp"
#include "cpu/j2k_reconstruct.hpp"
#include "cpu/j2k_tier1_decode.hpp"
#include "cudafilters/error.hpp"
#include "kernels/j2k_tier1_decode_cuda.hpp"

namespace cf {

namespace {
// A tile as the decoder takes it through tier-2 and tier-1.
struct PendingTile {
  j2k::TilePlan plan;
  j2k::TileCodewords codewords;
  std::vector<j2k::BandDecoding> bands;
  std::size_t base = 0;
};
}  // namespace

struct J2kDecoder::State {
  std::string problem;
  std::vector<std::int32_t> coefficients;
  // Kept from frame to frame: the code-block lists reuse their entries.
  std::vector<PendingTile> tiles;
  J2kDecoder::StageTimes times;
};

namespace {

using namespace j2k;

// Code-blocks and precincts a tile may have: one per sample of the image
// is more than any legal coding makes (1 x 1 precincts at resolution 0).
std::size_t plan_limit(const Header &h) {
  std::uint64_t samples = 0;
  for (const j2k::Component &c : h.grid.components)
    samples += (std::uint64_t(h.grid.x1 - h.grid.x0) / c.subsample_x + 1) *
               (std::uint64_t(h.grid.y1 - h.grid.y0) / c.subsample_y + 1);
  return std::size_t(std::min<std::uint64_t>(samples + 64, std::uint64_t(1) << 32));
}

[[noreturn]] void refuse(const std::string &what) { throw Error("JPEG 2000 decoder: " + what, ErrorKind::Unsupported); }

// What this decoder takes, and what the reconstruction needs of every
// tile: the components decoded, the component transform (one for all
// tiles), the fewest levels of a tile-component decoded.
struct Coding {
  std::size_t components = 0;  // decoded: components 0..components - 1
  bool mct = false;
  std::uint32_t min_levels = 0;
};

// The image's parameters as far as the reconstruction reads them: the
// components decoded; each tile-component carries its own wavelet.
CodestreamParams params_of(const Header &h, const Coding &k) {
  CodestreamParams p;
  p.x0 = h.grid.x0, p.y0 = h.grid.y0, p.x1 = h.grid.x1, p.y1 = h.grid.y1;
  p.tile_x0 = h.grid.tile_x0, p.tile_y0 = h.grid.tile_y0;
  p.tile_width = h.grid.tile_width, p.tile_height = h.grid.tile_height;
  p.components.assign(h.grid.components.begin(), h.grid.components.begin() + std::ptrdiff_t(k.components));
  p.mct = k.mct;
  return p;
}

// The frame's samples at the requested reduction, from SIZ alone: past
// s.max_samples (0: no limit) the frame is refused, before any tile is
// looked at.
void check_samples(const Header &h, const Coding &k, const J2kDecodeSettings &s) {
  if (s.max_samples == 0) return;
  const CodestreamParams p = params_of(h, k);
  const std::uint32_t reduce = std::uint32_t(s.reduce);
  const Size first = reduced_component_size(p, 0, reduce);
  std::uint64_t total = 0;
  std::string sizes;
  bool alike = true;
  for (std::size_t c = 0; c < k.components; ++c) {
    const Size z = reduced_component_size(p, std::uint32_t(c), reduce);
    total += std::uint64_t(z.width) * z.height;
    alike = alike && z.width == first.width && z.height == first.height;
    sizes += (c ? " + " : "") + std::to_string(z.width) + " x " + std::to_string(z.height);
  }
  if (total <= s.max_samples) return;
  if (alike)
    sizes = std::to_string(first.width) + " x " + std::to_string(first.height) + " x " + std::to_string(k.components);
  if (reduce) sizes += " at reduce = " + std::to_string(reduce);
  refuse("the frame has " + std::to_string(total) + " samples (" + sizes +
         "), more than max_samples = " + std::to_string(s.max_samples));
}

Coding check_supported(const Header &h, const J2kDecodeSettings &s) {
  const auto &comps = h.grid.components;
  if (s.components < 0 || std::size_t(s.components) > comps.size())
    refuse("components = " + std::to_string(s.components) + ": the codestream has " + std::to_string(comps.size()) +
           " (0 decodes all)");
  Coding k;
  k.components = s.components > 0 ? std::size_t(s.components) : comps.size();
  if (k.components > std::size_t(kMaxPlanes))
    refuse((s.components > 0 ? "components = " + std::to_string(s.components)
                             : std::to_string(comps.size()) + " components") +
           ": a frame holds at most " + std::to_string(kMaxPlanes) +
           " (J2kDecodeSettings::components decodes the first ones)");
  for (std::size_t c = 0; c < k.components; ++c)
    if (comps[c].bit_depth > 16)
      refuse("component " + std::to_string(c) + " has " + std::to_string(comps[c].bit_depth) +
             "-bit samples: at most 16 are decoded");
  if (s.reduce < 0 || s.reduce > 32 || s.layers < 0) refuse("reduce must be in 0..32 and layers not negative");
  for (int c = 0; c < kMaxPlanes; ++c)
    if (s.shift_up[c] < 0 || s.shift_up[c] > 15)
      refuse("shift_up[" + std::to_string(c) + "] = " + std::to_string(s.shift_up[c]) + ": must be in 0..15");
  check_samples(h, k, s);
  k.min_levels = kMaxLevels;
  for (std::uint32_t t = 0; t < h.tiles.size(); ++t) {
    const ResolvedTile r = resolve(h, t);
    for (std::size_t c = 0; c < k.components; ++c) k.min_levels = std::min(k.min_levels, r.components[c].levels);
    if (t == 0) k.mct = r.coding.mct;
    if (r.coding.mct != k.mct) refuse("tile " + std::to_string(t) + ": the component transform differs from tile 0's");
    if (!r.coding.mct) continue;
    // The RCT goes with the 5/3 (G.2), the ICT with the 9/7 (G.3): one of
    // them on components 0..2 means one wavelet on the three.
    for (std::size_t c = 1; c < 3 && c < comps.size(); ++c)
      if (r.components[c].reversible != r.components[0].reversible)
        refuse("tile " + std::to_string(t) +
               ": the component transform (mct) on components 0..2 of different "
               "wavelets (the RCT needs the 5/3 on all three, T.800 G.2; the ICT the 9/7, G.3)");
  }
  if (k.mct && k.components < 3)
    refuse("components = " + std::to_string(k.components) +
           ": the component transform (mct) makes each of components 0..2 from all three (T.800 G.2, G.3)");
  if (std::uint32_t(s.reduce) > k.min_levels)
    refuse("reduce = " + std::to_string(s.reduce) + ": a tile-component has only " + std::to_string(k.min_levels) +
           " decomposition levels");
  return k;
}

// A subband's exponent and mantissa (E.1.1.1; derived: E-5).
SubbandStep step_of(const ComponentQuant &q, const PlanBand &b, std::uint32_t levels) {
  if (q.style != QuantStyle::Derived) return q.steps[b.step_index];
  SubbandStep s = q.steps[0];
  const std::int64_t e = std::int64_t(s.exponent) - levels + b.level;
  if (e < 0) refuse("a derived quantisation exponent below 0 for a subband of level " + std::to_string(b.level));
  s.exponent = std::uint32_t(e);
  return s;
}

}  // namespace

J2kImageInfo j2k_image_info(const std::uint8_t *data, std::size_t size, const J2kDecodeSettings &s) {
  const Header h = read_header(data, size);
  const Coding k = check_supported(h, s);
  const CodestreamParams p = params_of(h, k);
  J2kImageInfo info;
  info.components = int(k.components);
  info.codestream_components = int(h.grid.components.size());
  info.colour_transform = k.mct;
  // A frame's sides are ints: SIZ allows up to 2^32 - 1 samples a side.
  const auto fits = [](std::uint64_t side) { return side <= std::uint64_t(INT32_MAX); };
  for (int c = 0; c < info.components; ++c) {
    const Size z = reduced_component_size(p, std::uint32_t(c), std::uint32_t(s.reduce));
    if (!fits(z.width) || !fits(z.height))
      refuse("component " + std::to_string(c) + " is " + std::to_string(z.width) + "x" + std::to_string(z.height) +
             ": a frame holds at most 2^31 - 1 samples a side");
    info.component_width[c] = int(z.width);
    info.component_height[c] = int(z.height);
    info.bit_depth[c] = int(h.grid.components[c].bit_depth);
    info.is_signed[c] = h.grid.components[c].is_signed;
    info.subsampling_x[c] = int(h.grid.components[c].subsample_x);
    info.subsampling_y[c] = int(h.grid.components[c].subsample_y);
  }
  const std::uint64_t sx = std::uint64_t(1) << s.reduce, sy = sx;
  const std::uint64_t width = (std::uint64_t(h.grid.x1) + sx - 1) / sx - (std::uint64_t(h.grid.x0) + sx - 1) / sx;
  const std::uint64_t height = (std::uint64_t(h.grid.y1) + sy - 1) / sy - (std::uint64_t(h.grid.y0) + sy - 1) / sy;
  if (!fits(width) || !fits(height))
    refuse("the image is " + std::to_string(width) + "x" + std::to_string(height) +
           ": a frame holds at most 2^31 - 1 samples a side");
  info.width = int(width);
  info.height = int(height);
  return info;
}

J2kDecoder::J2kDecoder(Engine &engine) : engine_(engine), state_(std::make_unique<State>()) {}
J2kDecoder::~J2kDecoder() = default;
const std::string &J2kDecoder::problem() const { return state_->problem; }
J2kDecoder::StageTimes J2kDecoder::stage_times() const { return state_->times; }

namespace {

// A tile read through tier-2, waiting for tier-1: its plan, codewords and
// band settings, and where its coefficients start in the frame's array.
}  // namespace

void J2kDecoder::decode(const std::uint8_t *data, std::size_t size, const J2kDecodeSettings &s, const FrameView &out) {
  State &st = *state_;
  st.problem.clear();
  st.times = {};
  using Clock = std::chrono::steady_clock;
  const auto ms = [](Clock::time_point a, Clock::time_point b) {
    return std::chrono::duration<double, std::milli>(b - a).count();
  };
  const auto start = Clock::now();
  const Header h = read_header(data, size);
  const Coding k = check_supported(h, s);
  const bool cuda = engine_.backend() == Backend::Cuda;

  Layout layout;
  layout.params = params_of(h, k);
  std::vector<float> steps;
  std::vector<std::uint32_t> roi;
  bool any_roi = false;
  const std::uint32_t kept_layers = s.layers > 0 ? std::uint32_t(s.layers) : UINT32_MAX;

  // Headers and tier-2 of every tile first: the frame's coefficient array
  // is then sized once, on the host or on the device, for the
  // tile-components decoded that have a code-block to decode, at the
  // resolutions kept.
  std::vector<PendingTile> &tiles = st.tiles;
  tiles.resize(h.tiles.size());
  std::size_t coefficient_count = 0;
  for (std::uint32_t t = 0; t < h.tiles.size(); ++t) {
    const ResolvedTile coding = resolve(h, t);
    PendingTile &tile = tiles[t];
    tile.plan = make_tile_plan(h, t, coding, plan_limit(h));
    tile.base = coefficient_count;
    TilePlan &plan = tile.plan;
    read_tile_packets(data, h, plan, coding, kept_layers, tile.codewords);
    tile.bands.resize(plan.bands.size());
    for (std::size_t i = 0; i < plan.bands.size(); ++i) {
      const PlanBand &band = plan.bands[i];
      const PlanComponent &pc = plan.components[band.component];
      const ComponentQuant &quant = coding.quant[band.component];
      BandDecoding &d = tile.bands[i];
      // A discarded resolution, or a component not decoded (no coefficients).
      d.skip = band.component >= k.components || band.resolution + std::uint32_t(s.reduce) > pc.levels;
      d.style = coding.components[band.component].cb_style;
      // Mb (E-2), plus the ROI shift: region coefficients were scaled up by it (H.1).
      d.magnitude_bitplanes =
          int(quant.guard_bits + step_of(quant, band, pc.levels).exponent) - 1 + int(coding.roi_shift[band.component]);
      // 9/7 indices get one bit below the last decoded plane, so that they are
      // reconstructed at its middle.
      d.fraction_bits = coding.components[band.component].reversible ? 0 : 1;
    }
    // Coefficients only where a code-block has a pass; the others are zero.
    std::vector<bool> stored(k.components, false);
    for (const BlockCodeword &cb : tile.codewords.blocks)
      if (!tile.bands[cb.block.band].skip && cb.passes > 0) stored[plan.bands[cb.block.band].component] = true;
    place_coefficients(plan, stored, std::uint32_t(s.reduce));
    coefficient_count += plan.coefficient_count;

    // The tile's part of the layout, for the reconstruction.
    TileLayout tl;
    tl.index = t;
    tl.rect = plan.rect;
    tl.first_tile_component = std::uint32_t(layout.tile_components.size());
    layout.tiles.push_back(tl);
    for (std::uint32_t c = 0; c < k.components; ++c) {
      const PlanComponent &pc = plan.components[c];
      TileComponentLayout tc;
      tc.tile = t;
      tc.component = c;
      tc.rect = pc.rect;
      tc.offset = tile.base + pc.offset;
      tc.coefficient_stride = pc.stride;
      tc.coded = stored[c];
      tc.reversible = coding.components[c].reversible;
      // The plan lists each component's bands together, in component order.
      tc.first_band = std::uint32_t(layout.bands.size());
      for (const PlanBand &b : plan.bands) {
        if (b.component == c) break;
        ++tc.first_band;
      }
      for (const PlanResolution &r : pc.resolutions) tc.resolutions.push_back(r.rect);
      layout.tile_components.push_back(tc);
      roi.push_back(coding.roi_shift[c]);
      any_roi = any_roi || coding.roi_shift[c] != 0;
    }
    for (const PlanBand &b : plan.bands) {
      if (b.component >= k.components) break;  // bands come in component order
      BandLayout bl;
      bl.orientation = b.orientation;
      bl.level = b.level;
      bl.resolution = b.resolution;
      bl.band = b.rect;
      bl.buffer_x = b.buffer_x;
      bl.buffer_y = b.buffer_y;
      bl.step_index = b.step_index;
      layout.bands.push_back(bl);
      if (coding.components[b.component].reversible) {
        steps.push_back(1.0f);  // not read: 5/3 coefficients are not quantised
      } else {
        // Delta_b (E-3), halved: tier-1 gives indices with a fraction bit.
        const SubbandStep q = step_of(coding.quant[b.component], b, plan.components[b.component].levels);
        const int range = int(h.grid.components[b.component].bit_depth) + int(gain_log2(b.orientation));
        steps.push_back(float(std::ldexp(1.0 + q.mantissa / 2048.0, range - int(q.exponent) - 1)));
      }
    }
  }
  layout.coefficient_count = coefficient_count;
  const auto read = Clock::now();

  // Tier-1 of every tile (on cuda: all in one launch); the first problem in
  // tile order is reported.
  std::int32_t *coefficients = nullptr;
  std::vector<std::string> bad(tiles.size());
  if (cuda) {
    coefficients = cuda::j2k_frame_coefficients(engine_.cuda(), coefficient_count);
    std::vector<cuda::J2kTileBlocks> all;
    for (const PendingTile &tile : tiles) all.push_back({&tile.plan, &tile.codewords, &tile.bands, tile.base});
    bad = cuda::j2k_decode_tiles(engine_.cuda(), all, coefficients, coefficient_count);
  } else {
    st.coefficients.assign(coefficient_count, 0);
    coefficients = st.coefficients.data();
    for (std::uint32_t t = 0; t < tiles.size(); ++t) {
      const PendingTile &tile = tiles[t];
      std::int32_t *tile_coefficients = coefficients + tile.base;
      if (engine_.backend() == Backend::OpenMP)
        bad[t] = omp::j2k_decode_blocks(tile.plan, tile.codewords, tile.bands, tile_coefficients, engine_.threads());
      else
        bad[t] = cpu::j2k_decode_blocks(tile.plan, tile.codewords, tile.bands, tile_coefficients);
    }
  }
  for (std::uint32_t t = 0; t < tiles.size() && st.problem.empty(); ++t) {
    if (!tiles[t].codewords.problem.empty())
      st.problem = "tile " + std::to_string(t) + ": " + tiles[t].codewords.problem;
    else if (!bad[t].empty())
      st.problem = "tile " + std::to_string(t) + ", " + bad[t];
  }
  const auto decoded = Clock::now();

  Reconstruction r;
  r.steps = std::move(steps);
  if (any_roi) r.roi_shifts = std::move(roi);
  r.reduce = std::uint32_t(s.reduce);
  r.irreversible_fraction_bits = 1;
  for (std::size_t c = 0; c < k.components; ++c) r.shift_up[c] = std::uint32_t(s.shift_up[c]);
  if (cuda)
    cuda::j2k_reconstruct(engine_.cuda(), layout, coefficients, r, out);
  else if (engine_.backend() == Backend::OpenMP)
    omp::j2k_reconstruct(layout, coefficients, r, out, engine_.threads());
  else
    cpu::j2k_reconstruct(layout, coefficients, r, out);
  st.times = {ms(start, read), ms(read, decoded), ms(decoded, Clock::now())};
}

}  // namespace cf
