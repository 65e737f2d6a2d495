// JPEG 2000 Part 1 encoding (ITU-T T.800 | ISO/IEC 15444-1): one frame in,
// one codestream out, that any Part 1 decoder reads (OpenJPEG, FFmpeg,
// GStreamer's openjpegdec).
//
// The stages: DC level shift and, for RGB, the colour transform (RCT when
// reversible, ICT otherwise); the wavelet (5/3 reversible or 9/7 with
// T.800 Annex F's normalisation); quantisation (irreversible only: one step
// per subband, written expounded in QCD); tier-1 (each code-block coded
// bit-plane by bit-plane with the MQ coder); rate allocation over the
// code-blocks' truncation points; tier-2 (packets in the progression order).
// cpu is the reference; openmp and cuda give the same bytes for every
// setting.
//
// Choices of this encoder: one tile-part per tile unless tile_parts divides
// them; maximal precincts (2^15 x 2^15) unless J2kSettings::precincts
// sizes them; guard bits 2 (more when a subband needs them); a COM marker
// naming the encoder.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cudafilters/engine.hpp"
#include "cudafilters/frame.hpp"

namespace cf {

// Packet progression orders, valued as COD's SGcod writes them (T.800 A.6.1).
enum class J2kProgression { Lrcp = 0, Rlcp = 1, Rpcl = 2, Pcrl = 3, Cprl = 4 };
const char *j2k_progression_name(J2kProgression p);  // "lrcp", ...

// The code-block coder: Part 1's EBCOT (bit-plane passes into the MQ
// coder), or HTJ2K's (ITU-T T.814 | ISO/IEC 15444-15) single cleanup pass
// per block, with the CAP marker and Rsiz bit that Part 15 requires.
enum class J2kBlockCoder { Part1, Ht };
const char *j2k_block_coder_name(J2kBlockCoder c);  // "part1", "ht"

// Code-block style switches (COD's SPcod bits, T.800 Table A.19).
namespace j2k_style {
constexpr unsigned kBypass = 0x01;          // selective arithmetic coding bypass
constexpr unsigned kReset = 0x02;           // context states reset after each pass
constexpr unsigned kRestart = 0x04;         // MQ coder terminated after each pass
constexpr unsigned kVerticalCausal = 0x08;  // vertically causal contexts
constexpr unsigned kPredictable = 0x10;     // predictable termination
constexpr unsigned kSegmentationSymbols = 0x20;
constexpr unsigned kAll = 0x3F;
}  // namespace j2k_style

// Where a tile's packets start a new tile-part (T.800 A.4.2), as
// `opj_compress -TP R|L|C` divides them: never (one tile-part per tile), or
// wherever the resolution, the layer or the component of the next packet in
// the progression order differs from the last one's (RPCL by resolution:
// one tile-part per resolution). At most 255 tile-parts per tile.
enum class J2kTileParts { One, Resolution, Layer, Component };
const char *j2k_tile_parts_name(J2kTileParts t);  // "one", "resolution", "layer", "component"

// Codestream profiles (SIZ's Rsiz, T.800 Amd 1): a set of settings the
// encoder takes in place of the caller's, and limits on the frame it
// refuses clearly.
//  - Dci2k: the 2K digital cinema profile (Rsiz 3), as opj_compress
//    -cinema2K 24 writes it: 3 components of 12 bits, not subsampled, up to
//    2048 x 1080; 9/7, at most 5 levels (the caller's when fewer), 32 x 32
//    code-blocks without style switches, precincts of 256 x 256 (128 x 128
//    at the lowest resolution), CPRL, one layer, one tile, a tile-part per
//    component with TLM, and at most 1,302,083 bytes a frame (24 fps;
//    max_bytes when smaller, 651,041 at 48 fps). The colour transform
//    follows the input (J2kInput::rgb: the ICT, as opj_compress applies it).
//  - Dci4k: the 4K digital cinema profile (Rsiz 4), as opj_compress
//    -cinema4K 24 writes it: Dci2k's settings up to 4096 x 2160, 1 to 6
//    levels, and a progression order change (POC) that sends the
//    resolutions of the 2K image before the last one, each in CPRL, so six
//    tile-parts: the 2K image's three components, then the last
//    resolution's.
//  - Imf2k, Imf4k, Imf8k: the single-tile lossy IMF profiles (Rsiz 0x0400,
//    0x0500, 0x0600 with the main level and sublevel, T.800 Amd 8), as
//    opj_compress -IMF 2K|4K|8K writes them: 1 to 3 components of 8 to 16
//    bits, component 0 not subsampled and the others 1 or 2 across (4:2:2),
//    up to 2048 x 1556, 4096 x 3112, 8192 x 6224; 9/7 at the caller's
//    bitrate and max_bytes, 1 to 5, 6, 7 levels; one tile; 32 x 32
//    code-blocks, Dci2k's precincts, CPRL, one layer, a tile-part per
//    component with TLM.
//  - Imf2kR, Imf4kR, Imf8kR: their reversible forms (Rsiz 0x0700, 0x0800,
//    0x0900): 5/3, lossless unless max_bytes; tiles of the image's size, of
//    1024 x 1024, of 2048 x 2048 (4K, 8K) or 4096 x 4096 (8K); levels at
//    most 4 for tiles 1024 to 2047 wide, 5 to 4095, 6 to 8191, 7 above,
//    and within the profile's 5, 6, 7.
//  - ImfHt: the HTJ2K codestreams of IMF (SMPTE ST 2067-21 Annex H,
//    APP2.HT.REV when `reversible`, APP2.HT.IRV otherwise, at the caller's
//    bitrate and max_bytes): HT code-blocks without switches, 32 to 128
//    wide and 32 to 64 high (the caller's; 64 x 64 by default), one tile,
//    1 to 4 components of 8 to 16 bits, 4:4:4 or components 1 and 2 halved
//    across, up to 8192 on the longer side; the caller's levels within 1
//    to 5, 6, 7 for a longer side up to 2048, 4096, 8192; Dci2k's
//    precincts, RPCL, one layer, a tile-part per resolution, TLM, and CAP
//    with the magnitude bits of Table H.2. Rsiz has Part 15's bit alone
//    (the document names no Rsiz profile).
// The Part 1 IMF profiles write J2kSettings::profile_level into Rsiz and
// check that the sublevel is allowed at the main level (T.800 Table A.53)
// and is 0 for the reversible ones (SMPTE ST 2067-21 Table 5); the main
// level's sample rate and the sublevel's bit rate depend on the frame
// rate, which the caller meets (max_bytes).
enum class J2kProfile { None, Dci2k, Dci4k, Imf2k, Imf4k, Imf8k, Imf2kR, Imf4kR, Imf8kR, ImfHt };
// "none", "dci-2k", "dci-4k", "imf-2k", "imf-4k", "imf-8k", "imf-2k-r",
// "imf-4k-r", "imf-8k-r", "imf-ht".
const char *j2k_profile_name(J2kProfile p);
// The profile j2k_profile_name gives `name`; false when none does.
bool j2k_profile_from_name(const std::string &name, J2kProfile &out);

// An IMF profile's level (T.800 Amd 8): main level 0..11 (0: unspecified),
// sublevel 0..9, at most max(1, main - 2) when the main level is 1 or more.
struct J2kProfileLevel {
  int main = 0, sub = 0;
  bool operator==(const J2kProfileLevel &o) const { return main == o.main && sub == o.sub; }
};

// Optional marker segments (T.800 A.7), as `opj_compress -TLM -PLT` writes
// them: the lengths a reader needs to find a tile-part or a packet without
// parsing what comes before it.
namespace j2k_marker {
constexpr unsigned kTlm = 0x1;  // TLM in the main header: every tile-part's length
constexpr unsigned kPlt = 0x2;  // PLT in each tile-part header: its packets' lengths
constexpr unsigned kAll = 0x3;
}  // namespace j2k_marker

// A precinct size as T.800 B.6 gives it: 2^width_exp x 2^height_exp
// samples of its resolution (PPx, PPy: 0..15, at least 1 above resolution
// 0, where a subband's share of a precinct is half its size). Code-blocks
// are clipped to the precinct's share (B.7): 2^min(xcb, PPx) wide at
// resolution 0, 2^min(xcb, PPx - 1) above it (the same down).
struct J2kPrecinctSize {
  int width_exp = 15, height_exp = 15;
};

// T.800's bounds on the settings below (SPcod's levels and code-block
// exponents, SGcod's layers), shared by the checks, the codestream reader
// and the elements' property ranges.
namespace j2k_limits {
constexpr int kMaxLevels = 32;                          // NL
constexpr int kMinCodeblock = 4, kMaxCodeblock = 1024;  // a code-block side, 2^2..2^10
constexpr int kMaxLayers = 65535;
}  // namespace j2k_limits

struct J2kSettings {
  bool reversible = true;  // true: RCT + 5/3, lossless; false: ICT + 9/7, quantised
  int levels = 5;          // decomposition levels, 0..32 and at most log2 of the smallest tile side
  int codeblock_width = 64, codeblock_height = 64;  // powers of two, 4..1024, area at most 4096
  // Target bits per pixel (of the image's width x height) of the whole
  // codestream; 0 = keep every coding pass. Irreversible coding only.
  double bitrate = 0;
  // Every codestream at most this many bytes (0 = no limit): a frame that
  // would be larger loses coding passes by rate allocation, as at a
  // bitrate (a reversible frame is then no longer lossless); one that fits
  // is coded as without it. With a bitrate, the smaller of the two sizes
  // is the target. HT blocks are coded at candidate cleanup planes
  // whenever there is a limit (ht_rate_planes), to have planes to drop.
  std::uint64_t max_bytes = 0;
  // Quality layers, 1..65535: layer l (0-based) ends at the rate
  // (l + 1) / layers of the target (of the full size when bitrate is 0).
  int layers = 1;
  J2kProgression progression = J2kProgression::Lrcp;
  int tile_width = 0, tile_height = 0;  // 0 = the image's width / height
  unsigned codeblock_style = 0;         // j2k_style bits
  // Ht: one cleanup pass per block, so one layer; of the style bits only
  // vertical-causal, which HT decoders read for refinement passes. Without
  // a bitrate it codes every bit-plane; with one, each block is coded at
  // candidate cleanup planes (ht_rate_planes) and rate allocation keeps one
  // or none per block.
  J2kBlockCoder block_coder = J2kBlockCoder::Part1;
  // Ht with a bitrate: the cleanup planes coded per block, 0..32, around
  // the plane that an estimate of every plane's length points at (the plane
  // itself, then a plane below it, a plane above it, ...); 0 codes every
  // plane of every block (the exhaustive search: slower, a few hundredths
  // of a dB better). Under max_bytes alone the window also reaches down to
  // each block's last plane (a frame that fits is coded as without it).
  int ht_rate_planes = 1;
  // Part 1 with a bitrate: the bit-planes coded below the one that an
  // estimate of every plane's length points at, 0..32 (every plane from a
  // block's top one down to there is coded, and rate allocation chooses
  // among those passes); -1 codes every plane of every block (slower).
  int part1_planes_below = 1;
  unsigned markers = 0;  // j2k_marker bits
  J2kTileParts tile_parts = J2kTileParts::One;
  // Precinct sizes from the highest resolution (NL) down, as opj_compress
  // -c lists them; the last one repeats for the resolutions below it (where
  // opj_compress halves it), at most levels + 1 of them. Empty, or 2^15 x
  // 2^15 everywhere: maximal precincts (COD says none), one per resolution
  // of a tile-component up to 32768 x 32768.
  std::vector<J2kPrecinctSize> precincts;
  J2kProfile profile = J2kProfile::None;
  J2kProfileLevel profile_level;  // the IMF profiles' main level and sublevel
};

// Precinct sizes as text: "W,H,W,H,..." (spaces allowed after commas), in
// samples, each a power of two from 1 to 32768, from the highest
// resolution down; "" for none. Returns an empty string and the sizes in
// `out`, or what is wrong with the text (out untouched).
std::string j2k_parse_precincts(const std::string &text, std::vector<J2kPrecinctSize> &out);
// The text j2k_parse_precincts reads back as `sizes`.
std::string j2k_precincts_text(const std::vector<J2kPrecinctSize> &sizes);

// The frame to code: U8 or U16 samples, 1 to 4 components; component 0 has
// the image's size, component c has ceil(width / subsampling_x[c]) x
// ceil(height / subsampling_y[c]) samples.
struct J2kInput {
  FrameView frame;
  int bit_depth = 8;  // significant bits of each sample: 1..8 for U8, 1..16 for U16
  int subsampling_x[kMaxPlanes] = {1, 1, 1, 1};
  int subsampling_y[kMaxPlanes] = {1, 1, 1, 1};
  // Components 0, 1, 2 are R, G, B: coded through the colour transform
  // (needs 3 or more components, none subsampled). A fourth (alpha) is
  // coded as it is.
  bool rgb = false;
};

// Empty when `in` can be coded with `s`; otherwise what is wrong, with the
// rule it breaks.
std::string j2k_encode_check(const J2kInput &in, const J2kSettings &s);

// Encodes frames with one engine; keeps its plan and buffers between
// frames of one geometry, so a steady stream allocates nothing once warm.
class J2kEncoder {
 public:
  explicit J2kEncoder(Engine &engine);
  ~J2kEncoder();
  J2kEncoder(const J2kEncoder &) = delete;
  J2kEncoder &operator=(const J2kEncoder &) = delete;

  // Replaces `codestream` with the frame's codestream (SOC to EOC). Throws
  // cf::Error with j2k_encode_check's message on bad input. Passing the
  // same vector frame after frame, not cleared, is fastest: its bytes are
  // written over, and only bytes past its old size are first zeroed.
  void encode(const J2kInput &in, const J2kSettings &s, std::vector<std::uint8_t> &codestream);

  // Where the last encode() spent its time, in milliseconds: coding the
  // code-blocks (on cuda: the upload, the kernels and the copies back),
  // then the codestream on the host (rate allocation and tier-2).
  struct StageTimes {
    double blocks_ms = 0, codestream_ms = 0;
  };
  StageTimes stage_times() const;

  struct State;

 private:
  Engine &engine_;
  std::unique_ptr<State> state_;
};

}  // namespace cf
