// JPEG 2000 Part 1 codestream syntax (ITU-T T.800 | ISO/IEC 15444-1,
// Annex A): the byte writer and the marker segments of the main header and
// of a tile-part header, internal to core/.
//
// Every value is big-endian. A marker is two bytes 0xFF xx; a marker
// segment is the marker, its length Lxxx (16 bits, counting itself and the
// parameters, not the marker) and its parameters. The writers compute
// Lxxx from the bytes written (ByteWriter::begin_segment / end_segment),
// so no length is counted by hand.
//
// A codestream, each tile in one or more tile-parts:
//   write_main_header (SOC SIZ COD QCD COM), write_tlm when asked,
//   then per tile-part: begin_tile_part (SOT) ... write_sod, the packets,
//   write_plt when asked (put before SOD), end_tile_part (fills in Psot,
//   and gives the length TLM's entry takes),
//   and write_eoc.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/codec/j2k_byte_copies.hpp"
#include "core/shared/j2k_ht_rules.hpp"  // the style bits: t1::kStyle*, ht::kStyleHt
#include "cudafilters/j2k.hpp"           // J2kProgression

namespace cf::j2k {

// Markers (T.800 A.4 to A.9).
constexpr std::uint16_t kSoc = 0xFF4F;  // start of codestream
constexpr std::uint16_t kSot = 0xFF90;  // start of tile-part
constexpr std::uint16_t kSod = 0xFF93;  // start of data
constexpr std::uint16_t kEoc = 0xFFD9;  // end of codestream
constexpr std::uint16_t kSiz = 0xFF51;  // image and tile size
constexpr std::uint16_t kCod = 0xFF52;  // coding style default
constexpr std::uint16_t kQcd = 0xFF5C;  // quantisation default
constexpr std::uint16_t kCom = 0xFF64;  // comment
constexpr std::uint16_t kCap = 0xFF50;  // extended capabilities (T.814, Part 15)
constexpr std::uint16_t kSop = 0xFF91;  // start of packet (in the bit stream)
constexpr std::uint16_t kEph = 0xFF92;  // end of packet header (in the bit stream)
constexpr std::uint16_t kTlm = 0xFF55;  // tile-part lengths (main header)
constexpr std::uint16_t kPlt = 0xFF58;  // packet lengths (tile-part header)
constexpr std::uint16_t kPoc = 0xFF5F;  // progression order change

// Bytes of a codestream, appended at the end of a growing buffer; values
// already written can be patched in place (lengths known only later).
// Code-block bodies, most of a codestream's bytes, can be appended later:
// their room is taken at once and the copies run together (copy_bytes,
// on several threads) before the bytes are read.
class ByteWriter {
 public:
  ByteWriter() = default;
  // Writes over `storage`, a caller's buffer kept between codestreams,
  // growing it only past its old size (growth fills zeros first, which a
  // codestream no larger than the last never pays); take() hands it back
  // cut to what was written. `copy_threads`: at most this many threads
  // copy the bodies appended later (0: one per core).
  explicit ByteWriter(std::vector<std::uint8_t> &&storage, int copy_threads = 1)
      : bytes_(std::move(storage)), copy_threads_(copy_threads) {}
  std::vector<std::uint8_t> take();

  void u8(std::uint8_t v) {
    room(1);
    bytes_[size_++] = v;
  }
  void u16(std::uint16_t v);
  void u32(std::uint32_t v);
  void append(const std::uint8_t *data, std::size_t n);
  // Appends the n bytes at `data` when the bytes are next read (take,
  // bytes, insert); `data` must stay as it is until then.
  void append_later(const std::uint8_t *data, std::size_t n);
  // Moves the bytes from `pos` on up by n and writes `data` there.
  void insert(std::size_t pos, const std::uint8_t *data, std::size_t n);
  void marker(std::uint16_t m) { u16(m); }
  // Overwrites the 16 or 32 bits at `pos` (already written).
  void patch_u16(std::size_t pos, std::uint16_t v);
  void patch_u32(std::size_t pos, std::uint32_t v);

  // Writes the marker and a placeholder for Lxxx; returns where Lxxx is.
  std::size_t begin_segment(std::uint16_t marker);
  // Sets Lxxx to the bytes from Lxxx to the end; throws cf::Error if they
  // do not fit 16 bits.
  void end_segment(std::size_t length_pos);

  std::size_t size() const { return size_; }
  // The byte at `pos` (written directly, not appended later); throws
  // cf::Error past the end.
  std::uint8_t at(std::size_t pos) const;
  // Every byte written, those appended later included.
  const std::vector<std::uint8_t> &bytes();
  // Copies the bodies appended later now (take, bytes and insert do too).
  void copy_later();

 private:
  // Makes room for n more bytes after size_.
  void room(std::size_t n) {
    if (size_ + n > bytes_.size()) grow(n);
  }
  void grow(std::size_t n);

  struct Later {
    std::size_t at;  // in bytes_, which may move until the copies
    const std::uint8_t *data;
    std::size_t n;
  };
  std::vector<std::uint8_t> bytes_;
  std::size_t size_ = 0;  // bytes_[size_...] are room, not written
  std::vector<Later> later_;
  std::vector<ByteCopy> copies_;
  int copy_threads_ = 1;
};

// Progression orders of COD's SGcod (T.800 A.6.1): the public enum.
using Progression = J2kProgression;

// One progression order change of POC (T.800 A.6.6): packets of layers
// [0, layer_end), resolutions [resolution_start, resolution_end),
// components [component_start, component_end), in `order`.
struct ProgressionChange {
  std::uint32_t resolution_start = 0, component_start = 0;
  std::uint32_t layer_end = 0;
  std::uint32_t resolution_end = 0, component_end = 0;
  Progression order = Progression::Lrcp;
};

// Where a tile's packets start a new tile-part (T.800 A.4.2): never, or
// wherever the next packet's resolution, layer or component changes.
enum class TilePartDivision : std::uint8_t { None = 0, Resolution = 1, Layer = 2, Component = 3 };

// One image component (SIZ's Ssiz, XRsiz, YRsiz).
struct Component {
  std::uint32_t bit_depth = 8;  // 1..38
  bool is_signed = false;
  std::uint32_t subsample_x = 1;  // XRsiz, 1..255
  std::uint32_t subsample_y = 1;  // YRsiz, 1..255
};

// Everything the main header says, in T.800's terms. Sizes are 64-bit so
// that values past the 32-bit fields can be refused, not truncated.
struct CodestreamParams {
  // Reference grid: the image covers [x0, x1) x [y0, y1).
  std::uint64_t x1 = 0, y1 = 0;  // Xsiz, Ysiz
  std::uint64_t x0 = 0, y0 = 0;  // XOsiz, YOsiz
  // Tiles of tile_width x tile_height from (tile_x0, tile_y0).
  std::uint64_t tile_width = 0, tile_height = 0;  // XTsiz, YTsiz
  std::uint64_t tile_x0 = 0, tile_y0 = 0;         // XTOsiz, YTOsiz
  std::vector<Component> components;              // Csiz = size(), 1..16384

  std::uint32_t levels = 5;  // decomposition levels NL, 0..32
  // Code-blocks of 2^xcb x 2^ycb; xcb, ycb in 2..10, xcb + ycb <= 12.
  std::uint32_t cb_width_exp = 6, cb_height_exp = 6;
  std::uint8_t cb_style = 0;  // SPcod style bits: t1::kStyle* and ht::kStyleHt
  Progression progression = Progression::Lrcp;
  std::uint32_t layers = 1;  // 1..65535
  // true: 5/3 wavelet, no quantisation (QCD gives exponents);
  // false: 9/7 wavelet, scalar quantisation expounded (exponent and mantissa).
  bool reversible = true;
  // Multiple component transform on components 0..2 (RCT when reversible,
  // ICT otherwise): needs 3 components or more, alike in depth and subsampling.
  bool mct = false;
  bool sop = false;                    // SOP marker segments may precede packets
  bool eph = false;                    // EPH markers end packet headers
  std::uint16_t rsiz = 0;              // SIZ's Rsiz profile (j2k_profiles.hpp); Part 15's bit is added for HT blocks
  std::vector<ProgressionChange> poc;  // the main header's POC (none: COD's progression alone)
  bool tlm = false;                    // TLM in the main header (write_tlm, end_tile_part)
  bool plt = false;                    // PLT in each tile-part header (write_plt)
  TilePartDivision tile_parts = TilePartDivision::None;
  std::uint32_t guard_bits = 2;  // 0..7
  // CAP's MAGB at least this (0: the subbands' own most, Mb = G + epsilon_b - 1):
  // a profile may declare a larger bound than the frame needs.
  std::uint32_t cap_magnitude_bits = 0;
  // Precinct size exponents PPx, PPy of resolutions r = 0..NL (0..15, at
  // least 1 above resolution 0); both empty: maximal (15 everywhere).
  std::vector<std::uint8_t> precinct_width_exp, precinct_height_exp;
};

// PPx and PPy of resolution r (15 when `p` gives none).
std::uint32_t precinct_width_exp(const CodestreamParams &p, std::uint32_t r);
std::uint32_t precinct_height_exp(const CodestreamParams &p, std::uint32_t r);
// Whether every precinct is maximal (15 x 15): COD then lists no sizes
// (Scod bit 0 clear).
bool maximal_precincts(const CodestreamParams &p);
// xcb' and ycb' of resolution r (T.800 B.7): the code-block size clipped
// to a subband's share of a precinct, min(xcb, PPx) at r = 0 and
// min(xcb, PPx - 1) above.
std::uint32_t block_width_exp(const CodestreamParams &p, std::uint32_t r);
std::uint32_t block_height_exp(const CodestreamParams &p, std::uint32_t r);

// An image of width x height samples at the origin, in one tile.
CodestreamParams one_tile_image(std::uint32_t width, std::uint32_t height, std::vector<Component> components);

// Tiles on the grid: ceil((x1 - tile_x0) / tile_width) x ceil((y1 - tile_y0) / tile_height).
std::uint64_t tile_count(const CodestreamParams &p);

// Empty when `p` keeps T.800's rules; otherwise a message naming the field
// (with its T.800 name) and the rule it breaks.
std::string codestream_check(const CodestreamParams &p);

// Subbands (T.800 Annex F): a component decomposed NL times has 3 NL + 1
// subbands. Resolution 0 is the LL band of level NL; resolution r >= 1 adds
// HL, LH, HH of decomposition level NL - r + 1.
using Orientation = t1::Orientation;  // LL, HL, LH, HH (core/shared/j2k_tier1_rules.hpp)
struct Subband {
  Orientation orientation;
  std::uint32_t level;       // decomposition level (NL for LL; 0 when NL = 0)
  std::uint32_t resolution;  // 0..NL
};
constexpr std::uint32_t subband_count(std::uint32_t levels) { return 3 * levels + 1; }
// The subbands in codestream order (QCD's, and the packets'): LL, then HL,
// LH, HH from level NL down to level 1.
std::vector<Subband> subbands_in_order(std::uint32_t levels);
// log2 of the subband's nominal gain (T.800 E.1.1): LL 0, HL 1, LH 1, HH 2.
constexpr std::uint32_t gain_log2(Orientation o) { return o == Orientation::LL ? 0 : o == Orientation::HH ? 2 : 1; }

// A subband's quantisation: exponent epsilon_b (0..31) and mantissa mu_b
// (0..2047; 0 without quantisation). Step Delta_b = 2^(R_b - eps) (1 + mu / 2^11).
struct SubbandStep {
  std::uint32_t exponent = 0;
  std::uint32_t mantissa = 0;
};
// Without quantisation: epsilon_b = R_b = range_bits + gain_log2(b) per
// subband in order (range_bits: the component's bit depth, plus one for the
// chroma of the RCT).
std::vector<SubbandStep> reversible_steps(std::uint32_t range_bits, std::uint32_t levels);
// The exponent and mantissa nearest to the step `delta` (> 0) of a subband of
// nominal range R_b = range_bits (mantissa rounded to 11 bits).
SubbandStep expounded_step(double delta, std::uint32_t range_bits);
// Empty when `steps` suits QCD for `p` (one per subband, in range);
// otherwise a message naming what is wrong.
std::string qcd_check(const CodestreamParams &p, const std::vector<SubbandStep> &steps);

// Marker segments. The writers throw cf::Error with codestream_check's (or
// qcd_check's) message when the parameters break a rule.
void write_soc(ByteWriter &w);
void write_siz(ByteWriter &w, const CodestreamParams &p);
void write_cod(ByteWriter &w, const CodestreamParams &p);
// CAP (T.814 A.3) for HT code-blocks: Pcap with Part 15's bit, and Ccap15
// saying HT-only blocks, irreversible or not, and the magnitude bit-planes
// bound of the subbands `steps` describe.
void write_cap(ByteWriter &w, const CodestreamParams &p, const std::vector<SubbandStep> &steps);
void write_qcd(ByteWriter &w, const CodestreamParams &p, const std::vector<SubbandStep> &steps);
// COM with Rcom = 1: Latin text (ISO/IEC 8859-15).
void write_com(ByteWriter &w, const std::string &text);
// POC (T.800 A.6.6) of p.poc.
void write_poc(ByteWriter &w, const CodestreamParams &p);
// SOC, SIZ, COD, QCD, POC when p.poc has entries and, when `comment` is not
// empty, COM.
void write_main_header(ByteWriter &w, const CodestreamParams &p, const std::vector<SubbandStep> &steps,
                       const std::string &comment);

// SOT of tile `tile` (Isot, 0..65534), tile-part `part` (TPsot, 0..254) of
// `parts` (TNsot, 0 = not said, else part < parts <= 255), with Psot left 0;
// returns where the SOT marker starts, for end_tile_part.
std::size_t begin_tile_part(ByteWriter &w, std::uint32_t tile, std::uint32_t part, std::uint32_t parts);
void write_sod(ByteWriter &w);
// Sets the tile-part's Psot: the bytes from its SOT marker to the end
// written so far (the tile-part's data included); returns it.
std::uint32_t end_tile_part(ByteWriter &w, std::size_t sot_pos);

// TLM (T.800 A.7.1) for the tile-parts to come, `tiles` holding each one's
// Isot in codestream order: Ttlm of 16 bits and Ptlm of 32 bits each (Stlm
// 0x60), in as many segments as Ltlm's 16 bits need, every Ptlm 0; returns
// where each Ptlm is, for the tile-part's length once it is written.
std::vector<std::size_t> write_tlm(ByteWriter &w, const std::vector<std::uint32_t> &tiles);

// PLT (T.800 A.7.3) of a tile-part's packets, `lengths` in the order they
// were written, each Iplt in 7-bit groups (the high bit set in all but the
// last), in as many segments as Lplt's 16 bits need (Zplt 0..255; throws
// cf::Error beyond); put into the codestream at `at` (where SOD is).
void write_plt(ByteWriter &w, std::size_t at, const std::vector<std::uint32_t> &lengths);
void write_eoc(ByteWriter &w);

// The encoder's name for COM.
constexpr const char *kEncoderComment = "cudafilters";

}  // namespace cf::j2k
