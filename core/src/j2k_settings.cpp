// The rules of J2kSettings and J2kInput, and their translation into
// CodestreamParams.
#include "j2k_settings.hpp"

#include <algorithm>
#include <cmath>

#include "core/codec/j2k_layout.hpp"
#include "core/shared/ceil_div.hpp"
#include "core/shared/j2k_block_coder_rules.hpp"
#include "cudafilters/error.hpp"
#include "j2k_codestream.hpp"
#include "j2k_profiles.hpp"

namespace cf {

const char *j2k_progression_name(J2kProgression p) {
  switch (p) {
    case J2kProgression::Lrcp: return "lrcp";
    case J2kProgression::Rlcp: return "rlcp";
    case J2kProgression::Rpcl: return "rpcl";
    case J2kProgression::Pcrl: return "pcrl";
    case J2kProgression::Cprl: return "cprl";
  }
  return "?";
}

const char *j2k_tile_parts_name(J2kTileParts t) {
  switch (t) {
    case J2kTileParts::One: return "one";
    case J2kTileParts::Resolution: return "resolution";
    case J2kTileParts::Layer: return "layer";
    case J2kTileParts::Component: return "component";
  }
  return "?";
}

const char *j2k_block_coder_name(J2kBlockCoder c) {
  switch (c) {
    case J2kBlockCoder::Part1: return "part1";
    case J2kBlockCoder::Ht: return "ht";
  }
  return "?";
}

// The public enums and style bits are the codestream's, value for value.
static_assert(int(J2kTileParts::One) == int(j2k::TilePartDivision::None) &&
              int(J2kTileParts::Resolution) == int(j2k::TilePartDivision::Resolution) &&
              int(J2kTileParts::Layer) == int(j2k::TilePartDivision::Layer) &&
              int(J2kTileParts::Component) == int(j2k::TilePartDivision::Component));
static_assert(j2k_style::kBypass == j2k::t1::kStyleBypass && j2k_style::kReset == j2k::t1::kStyleReset &&
              j2k_style::kRestart == j2k::t1::kStyleRestart &&
              j2k_style::kVerticalCausal == j2k::t1::kStyleVerticalCausal &&
              j2k_style::kPredictable == j2k::t1::kStylePredictable &&
              j2k_style::kSegmentationSymbols == j2k::t1::kStyleSegmentation &&
              j2k_style::kAll == j2k::t1::kStylePart1);

namespace {
bool power_of_two(int v) { return v > 0 && (v & (v - 1)) == 0; }
int log2_exact(int v) {
  int k = 0;
  while ((1 << k) < v) ++k;
  return k;
}

std::string frame_rules(const J2kInput &in) {
  const FrameView &f = in.frame;
  if (const char *why = check_frame(f); why && *why) return why;
  if (f.type != SampleType::U8 && f.type != SampleType::U16)
    return std::string("samples of type ") + sample_type_name(f.type) + ": the encoder codes U8 or U16";
  if (f.n_components < 1 || f.n_components > 4)
    return std::to_string(f.n_components) + " components: the encoder codes 1 to 4";
  const int max_depth = f.type == SampleType::U8 ? 8 : 16;
  if (in.bit_depth < 1 || in.bit_depth > max_depth)
    return "bit depth " + std::to_string(in.bit_depth) + " must be 1.." + std::to_string(max_depth) + " for " +
           sample_type_name(f.type) + " samples";
  const int w = f.components[0].width, h = f.components[0].height;
  if (w < 1 || h < 1) return "a frame of " + std::to_string(w) + "x" + std::to_string(h) + " has no samples";
  for (int c = 0; c < f.n_components; ++c) {
    const int sx = in.subsampling_x[c], sy = in.subsampling_y[c];
    if (sx < 1 || sx > 255 || sy < 1 || sy > 255)
      return "component " + std::to_string(c) + ": subsampling " + std::to_string(sx) + "x" + std::to_string(sy) +
             " must be 1..255 each way (XRsiz, YRsiz)";
    const int cw = int(ceil_div(w, sx)), ch = int(ceil_div(h, sy));
    if (f.components[c].width != cw || f.components[c].height != ch)
      return "component " + std::to_string(c) + " is " + std::to_string(f.components[c].width) + "x" +
             std::to_string(f.components[c].height) + "; subsampled " + std::to_string(sx) + "x" + std::to_string(sy) +
             " from " + std::to_string(w) + "x" + std::to_string(h) + " it must be " + std::to_string(cw) + "x" +
             std::to_string(ch);
  }
  if (in.rgb) {
    if (f.n_components < 3) return "RGB input needs 3 components, not " + std::to_string(f.n_components);
    for (int c = 0; c < 3; ++c)
      if (in.subsampling_x[c] != 1 || in.subsampling_y[c] != 1)
        return "RGB input: component " + std::to_string(c) + " is subsampled; the colour transform needs full size";
  }
  return "";
}

std::string exponent_text(int e) { return e >= 0 && e < 31 ? std::to_string(1 << e) : "2^" + std::to_string(e); }

// The list of J2kSettings::precincts: entry i sizes resolution NL - i,
// the last one every resolution below it too.
std::string precinct_rules(const J2kSettings &s) {
  const std::size_t n = s.precincts.size();
  if (n > std::size_t(s.levels) + 1)
    return "precincts: " + std::to_string(n) + " sizes for the " + std::to_string(s.levels + 1) +
           " resolutions of levels = " + std::to_string(s.levels) + " (at most one per resolution, the highest first)";
  for (std::size_t i = 0; i < n; ++i) {
    const J2kPrecinctSize &z = s.precincts[i];
    const int r = s.levels - int(i);
    const std::string at = "precincts: size " + std::to_string(i + 1) + " (" + exponent_text(z.width_exp) + "x" +
                           exponent_text(z.height_exp) + ", resolution " + std::to_string(r) +
                           (i + 1 == n && r > 0 ? " and below" : "") + ")";
    if (z.width_exp < 0 || z.width_exp > 15 || z.height_exp < 0 || z.height_exp > 15)
      return at + " must be a power of two from 1 to 32768 each way (PPx, PPy 0..15)";
    if (r > 0 && (z.width_exp == 0 || z.height_exp == 0))
      return at + ": above resolution 0 a precinct is at least 2x2 (PPx, PPy >= 1: each subband gets half of it)";
  }
  return "";
}

std::string settings_rules(const J2kSettings &s) {
  using namespace j2k_limits;
  if (s.levels < 0 || s.levels > kMaxLevels)
    return "levels = " + std::to_string(s.levels) + " must be 0.." + std::to_string(kMaxLevels);
  if (auto why = precinct_rules(s); !why.empty()) return why;
  for (auto [name, v] : {std::pair{"codeblock-width", s.codeblock_width}, {"codeblock-height", s.codeblock_height}})
    if (!power_of_two(v) || v < kMinCodeblock || v > kMaxCodeblock)
      return std::string(name) + " = " + std::to_string(v) + " must be a power of two, " +
             std::to_string(kMinCodeblock) + ".." + std::to_string(kMaxCodeblock);
  if (s.codeblock_width * s.codeblock_height > j2k::t1::kMaxBlockArea)
    return "code-block of " + std::to_string(s.codeblock_width) + "x" + std::to_string(s.codeblock_height) +
           ": its area must be at most 4096 samples";
  if (!std::isfinite(s.bitrate) || s.bitrate < 0)
    return "bitrate = " + std::to_string(s.bitrate) + " must be 0 (every pass) or positive";
  if (s.max_bytes > 0 && s.max_bytes < 64)
    return "max-bytes = " + std::to_string(s.max_bytes) + " is below the 64 bytes a codestream's headers need at least";
  if (s.reversible && s.bitrate > 0)
    return "bitrate = " + std::to_string(s.bitrate) +
           " with reversible coding: reversible coding keeps every pass (lossless); set reversible=false for a "
           "target rate";
  if (s.layers < 1 || s.layers > kMaxLayers)
    return "layers = " + std::to_string(s.layers) + " must be 1.." + std::to_string(kMaxLayers);
  if (int(s.progression) < 0 || int(s.progression) > int(J2kProgression::Cprl))
    return "progression " + std::to_string(int(s.progression)) + " must be one of lrcp, rlcp, rpcl, pcrl, cprl";
  if (s.tile_width < 0 || s.tile_height < 0)
    return "tile size " + std::to_string(s.tile_width) + "x" + std::to_string(s.tile_height) +
           " must be 0 (one tile) or positive";
  if (s.codeblock_style & ~j2k_style::kAll)
    return "codeblock-style " + std::to_string(s.codeblock_style) + " sets bits outside the six of T.800";
  if (s.codeblock_style & ~j2k::t1::kStylesSupported)
    return "codeblock-style " + std::to_string(s.codeblock_style) + ": this encoder codes only the style bits " +
           std::to_string(j2k::t1::kStylesSupported);
  if (int(s.tile_parts) < 0 || int(s.tile_parts) > int(J2kTileParts::Component))
    return "tile-parts " + std::to_string(int(s.tile_parts)) + " must be one of one, resolution, layer, component";
  if (s.markers & ~j2k_marker::kAll)
    return "markers " + std::to_string(s.markers) + " sets bits other than tlm (1) and plt (2)";
  if (s.ht_rate_planes < 0 || s.ht_rate_planes > j2k::t1::kMaxBitplanes)
    return "ht-rate-planes = " + std::to_string(s.ht_rate_planes) + " must be 0 (every plane) to " +
           std::to_string(j2k::t1::kMaxBitplanes);
  if (s.part1_planes_below < -1 || s.part1_planes_below > j2k::t1::kMaxBitplanes)
    return "part1-planes-below = " + std::to_string(s.part1_planes_below) + " must be -1 (every plane) to " +
           std::to_string(j2k::t1::kMaxBitplanes);
  if (s.block_coder != J2kBlockCoder::Part1 && s.block_coder != J2kBlockCoder::Ht)
    return "block-coder " + std::to_string(int(s.block_coder)) + " must be part1 or ht";
  if (s.block_coder == J2kBlockCoder::Ht) {
    if (s.codeblock_style & ~j2k_style::kVerticalCausal)
      return "codeblock-style " + std::to_string(s.codeblock_style) +
             " with block-coder=ht: HT code-blocks take only vertical-causal of the Part 1 switches";
    if (s.layers > 1)
      return "layers = " + std::to_string(s.layers) +
             " with block-coder=ht: each HT code-block is one cleanup pass, which one layer carries";
  }
  return "";
}
}  // namespace

namespace j2k {

CodestreamParams codestream_params(const J2kInput &in, const J2kSettings &s) {
  const FrameView &f = in.frame;
  std::vector<Component> comps;
  for (int c = 0; c < f.n_components; ++c)
    comps.push_back(
        {std::uint32_t(in.bit_depth), false, std::uint32_t(in.subsampling_x[c]), std::uint32_t(in.subsampling_y[c])});
  CodestreamParams p =
      one_tile_image(std::uint32_t(f.components[0].width), std::uint32_t(f.components[0].height), std::move(comps));
  if (s.tile_width > 0) p.tile_width = std::uint32_t(s.tile_width);
  if (s.tile_height > 0) p.tile_height = std::uint32_t(s.tile_height);
  p.levels = std::uint32_t(s.levels);
  p.cb_width_exp = std::uint32_t(log2_exact(s.codeblock_width));
  p.cb_height_exp = std::uint32_t(log2_exact(s.codeblock_height));
  p.cb_style = std::uint8_t(s.codeblock_style | (s.block_coder == J2kBlockCoder::Ht ? ht::kStyleHt : 0));
  p.progression = s.progression;
  p.layers = std::uint32_t(s.layers);
  p.reversible = s.reversible;
  p.mct = in.rgb;
  p.tlm = (s.markers & j2k_marker::kTlm) != 0;
  p.plt = (s.markers & j2k_marker::kPlt) != 0;
  p.tile_parts = TilePartDivision(int(s.tile_parts));
  p.rsiz = profile_rsiz(s);
  p.poc = profile_poc(s, f.n_components);
  p.cap_magnitude_bits = profile_cap_magnitude_bits(in, s);
  if (!s.precincts.empty())
    for (int r = 0; r <= s.levels; ++r) {
      const J2kPrecinctSize &z = s.precincts[std::min(std::size_t(s.levels - r), s.precincts.size() - 1)];
      p.precinct_width_exp.push_back(std::uint8_t(z.width_exp));
      p.precinct_height_exp.push_back(std::uint8_t(z.height_exp));
    }
  return p;
}

std::uint32_t max_levels(const Layout &l) {
  std::uint32_t shortest = 0xFFFFFFFFu;
  for (const TileComponentLayout &tc : l.tile_components)
    shortest = std::min({shortest, tc.rect.width(), tc.rect.height()});
  std::uint32_t levels = 0;
  while (levels < 32 && (shortest >> (levels + 1)) > 0) ++levels;
  return levels;
}

std::string plan_check(const J2kInput &in, const J2kSettings &s, Layout &layout, PacketPlan &packets) {
  if (auto why = frame_rules(in); !why.empty()) return why;
  if (auto why = profile_rules(in, s); !why.empty()) return why;
  if (auto why = settings_rules(s); !why.empty()) return why;
  const CodestreamParams p = codestream_params(in, s);
  if (auto why = codestream_check(p); !why.empty()) return why;
  // The levels rule reads the tile-components alone: checked before the
  // subbands and code-blocks of every level are made.
  try {
    layout = tile_grid(p);
  } catch (const Error &e) {
    return e.what();
  }
  const std::uint32_t most = max_levels(layout);
  if (std::uint32_t(s.levels) > most)
    return "levels = " + std::to_string(s.levels) + " is more than this frame allows (" + std::to_string(most) +
           "): every resolution of every tile-component needs a sample each way, so levels <= log2 of the "
           "shortest tile-component side";
  try {
    add_levels(layout);
    packets = make_packet_plan(layout);
  } catch (const Error &e) {
    return e.what();
  }
  for (std::size_t t = 0; t < packets.tile_parts.size(); ++t)
    if (packets.tile_parts[t] > 255)
      return std::string("tile-parts=") + j2k_tile_parts_name(s.tile_parts) + " in " +
             j2k_progression_name(s.progression) + " order gives " + std::to_string(packets.tile_parts[t]) +
             " tile-parts in tile " + std::to_string(layout.tiles[t].index) + "; TNsot allows 255";
  return "";
}

}  // namespace j2k

std::string j2k_encode_check(const J2kInput &in, const J2kSettings &s) {
  j2k::Layout layout;
  j2k::PacketPlan packets;
  return j2k::plan_check(in, j2k::profiled(s, in), layout, packets);
}

}  // namespace cf
