// The codestream profiles: digital cinema (T.800 Amd 1 Profiles 3 and 4)
// and IMF (T.800 Amd 8), with the values opj_compress -cinema2K/-cinema4K
// and -IMF write, and IMF's HTJ2K codestreams (SMPTE ST 2067-21 Annex H).
#include "j2k_profiles.hpp"

#include <algorithm>
#include <cstring>

namespace cf {

namespace {

struct ProfileName {
  J2kProfile profile;
  const char *name;
};
constexpr ProfileName kNames[] = {{J2kProfile::None, "none"},       {J2kProfile::Dci2k, "dci-2k"},
                                  {J2kProfile::Dci4k, "dci-4k"},    {J2kProfile::Imf2k, "imf-2k"},
                                  {J2kProfile::Imf4k, "imf-4k"},    {J2kProfile::Imf8k, "imf-8k"},
                                  {J2kProfile::Imf2kR, "imf-2k-r"}, {J2kProfile::Imf4kR, "imf-4k-r"},
                                  {J2kProfile::Imf8kR, "imf-8k-r"}, {J2kProfile::ImfHt, "imf-ht"}};

}  // namespace

const char *j2k_profile_name(J2kProfile p) {
  for (const ProfileName &n : kNames)
    if (n.profile == p) return n.name;
  return "?";
}

bool j2k_profile_from_name(const std::string &name, J2kProfile &out) {
  for (const ProfileName &n : kNames)
    if (name == n.name) {
      out = n.profile;
      return true;
    }
  return false;
}

namespace j2k {

namespace {

// The digital cinema profiles' byte limit per frame at 24 fps (250 Mbit/s).
constexpr std::uint64_t kDciFrameBytes = 1302083;
constexpr std::uint16_t kRsizDci2k = 3, kRsizDci4k = 4;

bool dci(J2kProfile p) { return p == J2kProfile::Dci2k || p == J2kProfile::Dci4k; }
bool imf(J2kProfile p) { return p >= J2kProfile::Imf2k && p <= J2kProfile::Imf8kR; }
bool imf_reversible(J2kProfile p) { return p >= J2kProfile::Imf2kR && p <= J2kProfile::Imf8kR; }
// 0, 1, 2 for the 2K, 4K and 8K forms of an IMF profile.
int imf_size_class(J2kProfile p) { return (int(p) - int(J2kProfile::Imf2k)) % 3; }

// The decomposition levels an IMF profile allows at most (T.800 Amd 8): 5,
// 6, 7 for 2K, 4K, 8K; the reversible ones also by the tile's width: 4 for
// 1024..2047, 5 for 2048..4095, 6 for 4096..8191.
int imf_max_levels(J2kProfile p, int tile_width) {
  const int most = 5 + imf_size_class(p);
  if (!imf_reversible(p) || tile_width < 1024) return most;
  int by_width = 4;
  for (int w = 2048; w <= tile_width && by_width < 7; w *= 2) ++by_width;
  return std::min(most, by_width);
}

// Code-blocks of 32 x 32 without switches, precincts of 256 x 256 and
// 128 x 128 at the lowest resolution, CPRL, one layer, a tile-part per
// component and TLM: what the cinema and IMF profiles share.
void common_profile_settings(J2kSettings &d) {
  d.codeblock_width = d.codeblock_height = 32;
  d.codeblock_style = 0;
  d.block_coder = J2kBlockCoder::Part1;
  d.precincts.assign(std::size_t(d.levels), {8, 8});
  d.precincts.push_back({7, 7});
  d.progression = J2kProgression::Cprl;
  d.layers = 1;
  d.tile_parts = J2kTileParts::Component;
  d.markers = j2k_marker::kTlm;
}

std::string size_text(int w, int h) { return std::to_string(w) + "x" + std::to_string(h); }

std::string dci_rules(const J2kInput &in, const J2kSettings &s, const std::string &at) {
  const FrameView &f = in.frame;
  if (f.n_components != 3 || in.bit_depth != 12)
    return at + "needs 3 components of 12 bits (X'Y'Z'), not " + std::to_string(f.n_components) + " of " +
           std::to_string(in.bit_depth);
  for (int c = 0; c < 3; ++c)
    if (in.subsampling_x[c] != 1 || in.subsampling_y[c] != 1)
      return at + "component " + std::to_string(c) + " is subsampled; the profile codes 4:4:4";
  const bool k4 = s.profile == J2kProfile::Dci4k;
  const int most_w = k4 ? 4096 : 2048, most_h = k4 ? 2160 : 1080;
  if (f.components[0].width > most_w || f.components[0].height > most_h)
    return at + "a frame of " + size_text(f.components[0].width, f.components[0].height) + " is larger than " +
           size_text(most_w, most_h);
  return "";
}

// What the IMF profiles, Part 1 and HT, ask of every frame: samples of 8
// to 16 bits, components 1 and 2 alike, full size or halved across (4:2:2),
// the others full size.
std::string imf_sampling_rules(const J2kInput &in, const std::string &at) {
  if (in.bit_depth < 8) return at + "codes samples of 8 to 16 bits, not " + std::to_string(in.bit_depth);
  for (int c = 0; c < in.frame.n_components; ++c) {
    const int sx = in.subsampling_x[c], sy = in.subsampling_y[c];
    const bool halved = c == 1 || c == 2;
    if (sy != 1 || sx > (halved ? 2 : 1) || (c == 2 && sx != in.subsampling_x[1]))
      return at + "component " + std::to_string(c) + " is subsampled " + size_text(sx, sy) +
             "; the profile codes 4:4:4, or components 1 and 2 alike and halved across (4:2:2)";
  }
  return "";
}

// ST 2067-21 Table H.1: 1 to 5, 6, 7 levels for a longer side up to 2048,
// 4096, 8192.
int imf_ht_max_levels(int width, int height) {
  const int longer = std::max(width, height);
  return longer <= 2048 ? 5 : longer <= 4096 ? 6 : 7;
}

std::string imf_ht_rules(const J2kInput &in, const J2kSettings &s, const std::string &at) {
  if (auto why = imf_sampling_rules(in, at); !why.empty()) return why;
  const int w = in.frame.components[0].width, h = in.frame.components[0].height;
  if (std::max(w, h) > 8192) return at + "a frame of " + size_text(w, h) + " is longer than 8192 on a side";
  if (s.codeblock_width < 32 || s.codeblock_width > 128 || s.codeblock_height < 32 || s.codeblock_height > 64)
    return at + "code-blocks of " + size_text(s.codeblock_width, s.codeblock_height) +
           ": the profile's are 32 to 128 wide and 32 to 64 high";
  return "";
}

// T.800 Table A.53: the highest sublevel of each main level.
int imf_max_sublevel(int main) { return main == 0 ? 9 : std::max(1, main - 2); }

std::string imf_rules(const J2kInput &in, const J2kSettings &s, const std::string &at) {
  const FrameView &f = in.frame;
  const J2kProfileLevel &level = s.profile_level;
  if (level.main < 0 || level.main > 11) return at + "main level " + std::to_string(level.main) + " must be 0..11";
  if (level.sub < 0 || level.sub > imf_max_sublevel(level.main))
    return at + "sublevel " + std::to_string(level.sub) + " must be 0.." +
           std::to_string(imf_max_sublevel(level.main)) + " at main level " + std::to_string(level.main);
  if (imf_reversible(s.profile) && level.sub != 0)
    return at + "sublevel " + std::to_string(level.sub) +
           ": a reversible profile's sublevel is 0 (lossless has no bit rate bound)";
  if (f.n_components > 3) return at + "codes 1 to 3 components, not " + std::to_string(f.n_components);
  if (auto why = imf_sampling_rules(in, at); !why.empty()) return why;
  const int k = imf_size_class(s.profile);
  const int most_w = 2048 << k, most_h = 1556 << k;
  const int w = f.components[0].width, h = f.components[0].height;
  if (w > most_w || h > most_h)
    return at + "a frame of " + size_text(w, h) + " is larger than " + size_text(most_w, most_h);
  const bool one_tile = (s.tile_width == 0 || s.tile_width >= w) && (s.tile_height == 0 || s.tile_height >= h);
  if (!one_tile) {
    const bool square = s.tile_width == s.tile_height;
    const bool allowed = imf_reversible(s.profile) && square &&
                         (s.tile_width == 1024 || (s.tile_width == 2048 && k >= 1) || (s.tile_width == 4096 && k == 2));
    if (!allowed)
      return at + "tiles of " + size_text(s.tile_width, s.tile_height) +
             (imf_reversible(s.profile) ? " are not allowed: one tile, or tiles of 1024x1024" +
                                              std::string(k >= 1 ? ", 2048x2048" : "") + (k == 2 ? ", 4096x4096" : "")
                                        : ": the profile codes one tile");
  }
  return "";
}

}  // namespace

J2kSettings profiled(const J2kSettings &s, const J2kInput &in) {
  if (s.profile == J2kProfile::None) return s;
  J2kSettings d;
  d.profile = s.profile;
  d.part1_planes_below = s.part1_planes_below;
  if (dci(s.profile)) {
    d.reversible = false;
    d.levels = s.profile == J2kProfile::Dci2k ? std::min(s.levels, 5) : std::clamp(s.levels, 1, 6);
    d.max_bytes = s.max_bytes > 0 ? std::min(s.max_bytes, kDciFrameBytes) : kDciFrameBytes;
  } else if (imf(s.profile)) {
    d.profile_level = s.profile_level;
    d.reversible = imf_reversible(s.profile);
    d.bitrate = d.reversible ? 0 : s.bitrate;
    d.max_bytes = s.max_bytes;
    if (d.reversible) {
      d.tile_width = s.tile_width;
      d.tile_height = s.tile_height;
    }
    const int image_width = in.frame.components[0].width;
    const int tile_width = d.tile_width > 0 ? std::min(d.tile_width, image_width) : image_width;
    d.levels = std::clamp(s.levels, 1, imf_max_levels(s.profile, tile_width));
  } else if (s.profile == J2kProfile::ImfHt) {
    d.reversible = s.reversible;
    d.bitrate = s.bitrate;
    d.max_bytes = s.max_bytes;
    d.ht_rate_planes = s.ht_rate_planes;
    const FrameView &f = in.frame;
    d.levels = std::clamp(s.levels, 1, imf_ht_max_levels(f.components[0].width, f.components[0].height));
  }
  common_profile_settings(d);
  if (s.profile == J2kProfile::ImfHt) {
    d.block_coder = J2kBlockCoder::Ht;
    d.codeblock_width = s.codeblock_width;
    d.codeblock_height = s.codeblock_height;
    d.progression = J2kProgression::Rpcl;
    d.tile_parts = J2kTileParts::Resolution;
  }
  return d;
}

std::string profile_rules(const J2kInput &in, const J2kSettings &s) {
  const std::string at = std::string("profile ") + j2k_profile_name(s.profile) + ": ";
  if (dci(s.profile)) return dci_rules(in, s, at);
  if (imf(s.profile)) return imf_rules(in, s, at);
  if (s.profile == J2kProfile::ImfHt) return imf_ht_rules(in, s, at);
  return "";
}

std::uint16_t profile_rsiz(const J2kSettings &s) {
  if (s.profile == J2kProfile::Dci2k) return kRsizDci2k;
  if (s.profile == J2kProfile::Dci4k) return kRsizDci4k;
  if (imf(s.profile)) {
    // 0x0400 .. 0x0900, the sublevel in bits 4..7 and the main level in 0..3.
    const unsigned base = 0x0400u + 0x0100u * unsigned(int(s.profile) - int(J2kProfile::Imf2k));
    return std::uint16_t(base | unsigned(s.profile_level.sub) << 4 | unsigned(s.profile_level.main));
  }
  return 0;
}

std::uint32_t profile_cap_magnitude_bits(const J2kInput &in, const J2kSettings &s) {
  if (s.profile != J2kProfile::ImfHt || !s.reversible) return 0;
  // ST 2067-21 Table H.2 lists B for 8, 10, 12 and 16 bits: the depth + 3,
  // one more with the colour transform, one more above 5 levels; the other
  // depths follow its rows.
  return std::uint32_t(in.bit_depth + 3 + (in.rgb ? 1 : 0) + (s.levels > 5 ? 1 : 0));
}

std::vector<ProgressionChange> profile_poc(const J2kSettings &s, int components) {
  if (s.profile != J2kProfile::Dci4k) return {};
  // The 2K image's resolutions, then the last one, each in CPRL.
  const std::uint32_t n = std::uint32_t(components), levels = std::uint32_t(s.levels);
  return {{0, 0, 1, levels, n, Progression::Cprl}, {levels, 0, 1, levels + 1, n, Progression::Cprl}};
}

}  // namespace j2k
}  // namespace cf
