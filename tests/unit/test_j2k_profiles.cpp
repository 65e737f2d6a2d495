// Codestream profiles (J2kSettings::profile).
// The IMF profiles (imf-2k, -4k, -8k and their reversible -r forms) against
// `opj_compress -IMF` on photos and noise of 8 to 16 bits, one tile and
// 1024 x 1024 tiles: the same main header in opj_dump and the same Rsiz
// (main level and sublevel), a tile-part per component in TLM, exact
// through opj_decompress when reversible (4:2:2 too), the caller's settings
// replaced; the frames, tiles and levels they refuse, named. imf-ht, the
// HTJ2K codestreams of SMPTE ST 2067-21 Annex H: the fields of its Table H.1
// and the CAP of Table H.2 (below).
// dci-2k and dci-4k, the digital cinema profiles: 12-bit 4:4:4 frames of photos, and of noise that
// needs the byte limit, coded with each: opj_dump reads the same main header
// from ours as from `opj_compress -cinema2K 24` / `-cinema4K 24` on the same
// frame (every field of SIZ, COD and the components' coding; the
// quantisation steps aside, which the two encoders derive differently),
// SIZ's Rsiz is 3 / 4, POC is present for 4K alone, the codestream holds a
// tile-part per component (4K: per component of the 2K image, then of the
// last resolution) listed in TLM and at most 1,302,083 bytes (or max_bytes
// when smaller), opj_decompress decodes it within 1 dB of OpenJPEG's own at
// its size; the caller's other settings change nothing; cpu and openmp give
// the same bytes; frames a profile does not admit are refused with what it
// needs (skipped, 77, without opj_compress, opj_dump and opj_decompress).
#include <cmath>
#include <string>
#include <vector>

#include "j2k_encoder_cases.hpp"

namespace {

using namespace j2k_cases;

constexpr std::uint64_t kDciFrameBytes = 1302083;

// The frame (1 or 3 components of one size) as a PGM or PPM of maxval
// 2^depth - 1, which opj_compress reads as samples of that depth.
void write_pnm(const TestImage &t, const std::string &path) {
  const int w = t.in.frame.components[0].width, h = t.in.frame.components[0].height;
  const int n = t.in.frame.n_components, depth = t.in.bit_depth;
  std::vector<std::uint8_t> b;
  const std::string head = std::string(n == 1 ? "P5" : "P6") + "\n" + std::to_string(w) + " " + std::to_string(h) +
                           "\n" + std::to_string((1 << depth) - 1) + "\n";
  b.assign(head.begin(), head.end());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < n; ++c) {
        const unsigned v = t.sample(c, x, y);
        if (depth > 8) b.push_back(std::uint8_t(v >> 8));
        b.push_back(std::uint8_t(v));
      }
  write_file(path, b);
}

// opj_dump's main header, without what differs by design: the quantisation
// steps and where the marker segments sit.
std::string dumped_header(const std::string &path) {
  std::string log, kept;
  cft::run_command("opj_dump -i '" + path + "'", log);
  std::size_t at = 0;
  for (std::size_t end; (end = log.find('\n', at)) != std::string::npos; at = end + 1) {
    const std::string line = log.substr(at, end - at);
    if (line.find("stepsizes") == std::string::npos && line.find("pos=") == std::string::npos &&
        line.find("position=") == std::string::npos)
      kept += line + "\n";
  }
  return kept;
}

// PSNR of the 12-bit PPM that opj_decompress makes of `codestream`.
double decoded_psnr(const TestImage &t, const std::string &codestream, const std::string &out) {
  std::string log;
  if (cft::run_command("opj_decompress -i '" + codestream + "' -o '" + out + "'", log) != 0) return 0;
  const std::vector<std::uint8_t> ppm = read_file(out);
  const int w = t.in.frame.components[0].width, h = t.in.frame.components[0].height;
  const std::size_t header = ppm.size() - std::size_t(w) * h * 6;
  if (ppm.size() < std::size_t(w) * h * 6) return 0;
  double e = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) {
        const std::size_t i = header + (std::size_t(y) * w + x) * 6 + std::size_t(c) * 2;
        const double d = double(ppm[i] << 8 | ppm[i + 1]) - double(t.sample(c, x, y));
        e += d * d;
      }
  return psnr_of(e, double(w) * h * 3, 12);
}

// Whether SIZ is followed, before the first tile-part, by a POC segment.
bool has_poc(const std::vector<std::uint8_t> &cs) {
  for (std::size_t at = 2; at + 4 <= cs.size() && be16(cs, at) != 0xFF90; at += 2 + be16(cs, at + 2))
    if (be16(cs, at) == 0xFF5F) return true;
  return false;
}

void dci(const std::vector<cft::Photo> &photos) {
  const cft::TempDir dir;
  const int sx[3] = {1, 1, 1}, sy[3] = {1, 1, 1};
  struct Case {
    TestImage t;
    cf::J2kProfile profile;
  };
  const Case cases[] = {
      {planar_image("photos 2048x1080", 2048, 1080, 3, true, 12, sx, sy, true, Content::Photo, 5, photos),
       cf::J2kProfile::Dci2k},
      {planar_image("noise 1998x1080", 1998, 1080, 3, true, 12, sx, sy, true, Content::Random, 6, photos),
       cf::J2kProfile::Dci2k},
      {planar_image("photos 1000x540", 1000, 540, 3, true, 12, sx, sy, true, Content::Photo, 7, photos),
       cf::J2kProfile::Dci4k},
      {planar_image("noise 1000x540", 1000, 540, 3, true, 12, sx, sy, false, Content::Random, 8, photos),
       cf::J2kProfile::Dci4k}};
  for (const Case &k : cases) {
    const TestImage &t = k.t;
    const bool k4 = k.profile == cf::J2kProfile::Dci4k;
    cf::J2kSettings s;
    s.profile = k.profile;
    const std::vector<std::uint8_t> ours = encode(cf::Backend::Cpu, t, s);
    CHECK_MSG(encode(cf::Backend::OpenMP, t, s) == ours, "%s: openmp's codestream differs from cpu's", t.name.c_str());
    const std::string base = dir.path + "/frame", ours_path = dir.path + "/ours.j2k", theirs_path = base + ".j2k";
    write_file(ours_path, ours);
    write_pnm(t, base + ".ppm");
    std::string log;
    std::string option = k4 ? " -cinema4K 24" : " -cinema2K 24";
    if (!t.in.rgb) option += " -mct 0";
    CHECK_MSG(cft::run_command("opj_compress -i '" + base + ".ppm' -o '" + theirs_path + "'" + option, log) == 0,
              "%s: opj_compress%s failed: %s", t.name.c_str(), option.c_str(), log.c_str());
    const std::string mine = dumped_header(ours_path), theirs = dumped_header(theirs_path);
    CHECK_MSG(!mine.empty() && mine == theirs, "%s: opj_dump reads\n%s\nfrom ours and\n%s\nfrom opj_compress%s",
              t.name.c_str(), mine.c_str(), theirs.c_str(), option.c_str());
    const unsigned rsiz = k4 ? 4 : 3;
    CHECK_MSG(ours.size() > 8 && be16(ours, 6) == rsiz && has_poc(ours) == k4, "%s: Rsiz %u (not %u) or POC %s",
              t.name.c_str(), ours.size() > 8 ? be16(ours, 6) : 0u, rsiz, has_poc(ours) ? "present" : "absent");
    const Walk w = walk(ours);
    const unsigned parts = k4 ? 6 : 3;
    bool per_component = w.complete && w.parts.size() == parts && w.tlm.size() == parts;
    for (std::size_t i = 0; per_component && i < parts; ++i)
      per_component = w.parts[i].tpsot == i && w.parts[i].tnsot == parts && w.tlm[i].second == w.parts[i].psot;
    CHECK_MSG(per_component, "%s: %zu tile-parts and %zu TLM entries, not one per component", t.name.c_str(),
              w.parts.size(), w.tlm.size());
    // The per-component limit (1,041,666 bytes at 24 fps), which the frame's
    // limit leaves to the content: a component's tile-parts together.
    std::uint64_t component_bytes[3] = {0, 0, 0};
    for (std::size_t i = 0; i < w.parts.size(); ++i) component_bytes[i % 3] += w.parts[i].psot;
    for (int c = 0; c < 3; ++c)
      CHECK_MSG(component_bytes[c] <= 1041666, "%s: component %d has %llu bytes, more than 1,041,666", t.name.c_str(),
                c, (unsigned long long)component_bytes[c]);
    const double psnr = decoded_psnr(t, ours_path, dir.path + "/ours.ppm");
    const double theirs_psnr = decoded_psnr(t, theirs_path, dir.path + "/theirs.ppm");
    CHECK_MSG(ours.size() <= kDciFrameBytes && psnr > theirs_psnr - 1,
              "%s: %zu bytes (at most %llu), PSNR %.2f dB (opj_compress -cinema2K: %.2f dB)", t.name.c_str(),
              ours.size(), (unsigned long long)kDciFrameBytes, psnr, theirs_psnr);
    std::printf("%-18s %s: %zu bytes, PSNR %.2f dB (opj_compress%s: %zu bytes, %.2f dB)\n", t.name.c_str(),
                cf::j2k_profile_name(k.profile), ours.size(), psnr, option.c_str(), read_file(theirs_path).size(),
                theirs_psnr);

    // The profile's settings replace the caller's; a smaller byte limit wins.
    cf::J2kSettings other = s;
    other.reversible = true;
    other.codeblock_width = other.codeblock_height = 64;
    other.progression = cf::J2kProgression::Lrcp;
    other.layers = 3;
    other.tile_width = 512;
    CHECK_MSG(encode(cf::Backend::Cpu, t, other) == ours, "%s: the caller's settings changed the codestream",
              t.name.c_str());
    other.max_bytes = 400000;
    const std::size_t limited = encode(cf::Backend::Cpu, t, other).size();
    CHECK_MSG(limited <= 400000 && limited >= 0.98 * 400000, "%s: max-bytes 400000 gave %zu bytes", t.name.c_str(),
              limited);
  }
}

// Frames the profile does not admit: what it needs, named.
void refusals(const std::vector<cft::Photo> &photos) {
  const int full[4] = {1, 1, 1, 1}, half[3] = {1, 2, 2};
  cf::J2kSettings s;
  s.profile = cf::J2kProfile::Dci2k;
  const auto refused = [&](const TestImage &t, const char *what) {
    const std::string why = cf::j2k_encode_check(t.in, s);
    const std::string named = std::string("profile ") + cf::j2k_profile_name(s.profile);
    CHECK_MSG(why.find(named) != std::string::npos && why.find(what) != std::string::npos,
              "%s: \"%s\" does not say \"%s\"", t.name.c_str(), why.c_str(), what);
  };
  refused(planar_image("8-bit", 64, 32, 3, false, 8, full, full, true, Content::Smooth, 1, photos),
          "needs 3 components of 12 bits");
  refused(planar_image("4 components", 64, 32, 4, true, 12, full, full, true, Content::Smooth, 1, photos),
          "needs 3 components of 12 bits");
  refused(planar_image("4:2:0", 64, 32, 3, true, 12, full, half, false, Content::Smooth, 1, photos), "subsampled");
  refused(planar_image("2050 wide", 2050, 16, 3, true, 12, full, full, true, Content::Smooth, 1, photos),
          "larger than 2048x1080");
  s.profile = cf::J2kProfile::Dci4k;
  refused(planar_image("4097 wide", 4097, 16, 3, true, 12, full, full, true, Content::Smooth, 1, photos),
          "larger than 4096x2160");
  refused(planar_image("8-bit", 64, 32, 3, false, 8, full, full, true, Content::Smooth, 1, photos),
          "needs 3 components of 12 bits");
  CHECK(std::string(cf::j2k_profile_name(cf::J2kProfile::Dci2k)) == "dci-2k" &&
        std::string(cf::j2k_profile_name(cf::J2kProfile::Dci4k)) == "dci-4k");
}

// Whether the tile-parts are one per component of each tile, in order, each
// listed in TLM with its length.
bool tile_part_per_component(const std::vector<std::uint8_t> &cs, unsigned components, unsigned tiles) {
  const Walk w = walk(cs);
  bool ok = w.complete && w.parts.size() == components * tiles && w.tlm.size() == w.parts.size();
  for (std::size_t i = 0; ok && i < w.parts.size(); ++i)
    ok = w.parts[i].isot == i / components && w.parts[i].tpsot == i % components && w.parts[i].tnsot == components &&
         w.tlm[i].second == w.parts[i].psot;
  return ok;
}

// The IMF profiles against opj_compress -IMF on the same frame: the main
// header opj_dump reads and Rsiz (with the main level and sublevel) equal;
// a tile-part per component in TLM; the reversible ones exact through
// opj_decompress, 4:2:2 included.
void imf(const std::vector<cft::Photo> &photos) {
  const cft::TempDir dir;
  temp_dir = dir.path;
  const int one[3] = {1, 1, 1}, half[3] = {1, 2, 2};
  struct Case {
    TestImage t;
    cf::J2kProfile profile;
    cf::J2kProfileLevel level;
    int tile;         // 0: one tile
    const char *opj;  // opj_compress -IMF's profile
  };
  const Case cases[] = {
      {packed_image("rgb8 photos 1920x1080", 1920, 1080, 3, Content::Photo, 11, photos),
       cf::J2kProfile::Imf2k,
       {4, 2},
       0,
       "2K"},
      {planar_image("rgb12 photos 2100x1000", 2100, 1000, 3, true, 12, one, one, true, Content::Photo, 12, photos),
       cf::J2kProfile::Imf4kR,
       {6, 0},
       0,
       "4K_R"},
      {planar_image("rgb16 noise 1200x600", 1200, 600, 3, true, 16, one, one, true, Content::Random, 13, photos),
       cf::J2kProfile::Imf2kR,
       {0, 0},
       1024,
       "2K_R"},
      {planar_image("gray10 photo 700x400", 700, 400, 1, true, 10, one, one, false, Content::Photo, 14, photos),
       cf::J2kProfile::Imf8k,
       {11, 9},
       0,
       "8K"}};
  for (const Case &k : cases) {
    const TestImage &t = k.t;
    cf::J2kSettings s;
    s.profile = k.profile;
    s.profile_level = k.level;
    s.tile_width = s.tile_height = k.tile;
    s.reversible = k.profile >= cf::J2kProfile::Imf2kR;  // for check_case's exactness test
    const std::vector<std::uint8_t> ours = encode(cf::Backend::Cpu, t, s);
    const std::string base = dir.path + "/imf", ours_path = dir.path + "/ours.j2k", theirs_path = base + ".j2k";
    write_file(ours_path, ours);
    write_pnm(t, base + ".ppm");
    std::string log, option = std::string(" -IMF ") + k.opj + ",mainlevel=" + std::to_string(k.level.main) +
                              ",sublevel=" + std::to_string(k.level.sub);
    if (k.tile) option += " -t " + std::to_string(k.tile) + "," + std::to_string(k.tile);
    CHECK_MSG(cft::run_command("opj_compress -i '" + base + ".ppm' -o '" + theirs_path + "'" + option, log) == 0,
              "%s: opj_compress%s failed: %s", t.name.c_str(), option.c_str(), log.c_str());
    const std::vector<std::uint8_t> theirs = read_file(theirs_path);
    const std::string mine = dumped_header(ours_path), opj = dumped_header(theirs_path);
    CHECK_MSG(!mine.empty() && mine == opj, "%s: opj_dump reads\n%s\nfrom ours and\n%s\nfrom opj_compress%s",
              t.name.c_str(), mine.c_str(), opj.c_str(), option.c_str());
    CHECK_MSG(ours.size() > 8 && theirs.size() > 8 && be16(ours, 6) == be16(theirs, 6),
              "%s: Rsiz 0x%04X, opj_compress%s writes 0x%04X", t.name.c_str(), ours.size() > 8 ? be16(ours, 6) : 0u,
              option.c_str(), theirs.size() > 8 ? be16(theirs, 6) : 0u);
    const int w = t.in.frame.components[0].width, h = t.in.frame.components[0].height;
    const unsigned tiles = k.tile ? unsigned(((w + k.tile - 1) / k.tile) * ((h + k.tile - 1) / k.tile)) : 1u;
    CHECK_MSG(tile_part_per_component(ours, unsigned(t.in.frame.n_components), tiles),
              "%s: not a tile-part per component of each tile, listed in TLM", t.name.c_str());
    const Outcome o = check_case(t, s);
    std::printf("%-24s %s level %d,%d: %zu bytes, PSNR %.2f dB (opj_compress%s: %zu bytes)\n", t.name.c_str(),
                cf::j2k_profile_name(k.profile), k.level.main, k.level.sub, o.bytes, o.psnr, option.c_str(),
                theirs.size());

    // The profile's settings replace the caller's.
    cf::J2kSettings other = s;
    other.codeblock_width = other.codeblock_height = 64;
    other.progression = cf::J2kProgression::Lrcp;
    other.layers = 3;
    other.markers = cf::j2k_marker::kPlt;
    CHECK_MSG(encode(cf::Backend::Cpu, t, other) == ours, "%s: the caller's settings changed the codestream",
              t.name.c_str());
  }
  // 4:2:2, reversible: exact through opj_decompress, component by component.
  const TestImage t422 =
      planar_image("y422 10-bit photo 640x360", 640, 360, 3, true, 10, half, one, false, Content::Photo, 15, photos);
  cf::J2kSettings s;
  s.profile = cf::J2kProfile::Imf2kR;
  const Outcome o = check_case(t422, s);
  CHECK_MSG(o.bytes > 0, "%s: not coded", t422.name.c_str());
  // Lossy at a bitrate: near its size.
  s.profile = cf::J2kProfile::Imf4k;
  s.reversible = false;
  s.bitrate = 2;
  const std::size_t target = std::size_t(640 * 360 * 2 / 8);
  const std::vector<std::uint8_t> lossy = encode(cf::Backend::Cpu, t422, s);
  CHECK_MSG(lossy.size() <= target && lossy.size() >= 0.97 * target, "%s: imf-4k at 2 bpp gave %zu bytes (target %zu)",
            t422.name.c_str(), lossy.size(), target);
}

// The field `name=` of opj_dump's output, as text ("" when absent).
std::string dump_field(const std::string &dump, const std::string &name) {
  const std::size_t at = dump.find(name + "=");
  if (at == std::string::npos) return "";
  const std::size_t from = at + name.size() + 1, end = dump.find_first_of(",\n", from);
  return dump.substr(from, end - from);
}

// CAP's Pcap and Ccap15 (T.814 A.3) from the main header; false without CAP.
bool read_cap(const std::vector<std::uint8_t> &cs, std::uint32_t &pcap, unsigned &ccap15) {
  for (std::size_t at = 2; at + 4 <= cs.size() && be16(cs, at) != 0xFF90; at += 2 + be16(cs, at + 2))
    if (be16(cs, at) == 0xFF50 && at + 10 <= cs.size()) {
      pcap = be32(cs, at + 4);
      ccap15 = be16(cs, at + 8);
      return true;
    }
  return false;
}

// imf-ht (ST 2067-21 Annex H) on photos and noise, reversible and not: the
// fields of Table H.1 as opj_dump reads them (one tile, RPCL, one layer, HT
// blocks without switches, precincts 128 then 256, the levels of the
// frame's size), Rsiz with Part 15's bit alone, CAP with Pcap's bit 15 and
// Ccap15's magnitude bits as Table H.2 gives B for the depth, the colour
// transform and the levels (T.814 Table A.4 turns B into the field), a
// tile-part per resolution in TLM; exact through opj_decompress and
// ojph_expand when reversible.
void imf_ht(const std::vector<cft::Photo> &photos) {
  const cft::TempDir dir;
  temp_dir = dir.path;
  const int one[4] = {1, 1, 1, 1}, half[3] = {1, 2, 2};
  struct Case {
    TestImage t;
    bool reversible;
    int levels, block_w, block_h;
    int expect_levels;
  };
  const Case cases[] = {
      {packed_image("rgb8 photos 1920x1080", 1920, 1080, 3, Content::Photo, 21, photos), true, 5, 64, 64, 5},
      {planar_image("y422 10-bit photo 1280x720", 1280, 720, 3, true, 10, half, one, false, Content::Photo, 22, photos),
       true, 8, 128, 32, 5},
      {planar_image("rgb12 photos 2100x1000", 2100, 1000, 3, true, 12, one, one, true, Content::Photo, 23, photos),
       true, 6, 32, 64, 6},
      {packed_image("rgba8 noise 640x360", 640, 360, 4, Content::Random, 24, photos), true, 5, 64, 64, 5},
      {planar_image("gray16 noise 600x400", 600, 400, 1, true, 16, one, one, false, Content::Random, 25, photos), false,
       0, 64, 32, 1}};
  // ST 2067-21 Table H.2: B by depth (8, 10, 12, 16 bits), for no colour
  // transform and at most 5 levels, for one of the two, for both.
  const auto table_h2 = [](int depth, bool mct, bool above5) {
    const int base = depth == 8 ? 11 : depth == 10 ? 13 : depth == 12 ? 15 : 19;
    return base + (mct ? 1 : 0) + (above5 ? 1 : 0);
  };
  const auto magbp = [](int b) { return b <= 8 ? 0 : b <= 27 ? b - 8 : 13 + (b >> 2); };  // T.814 Table A.4
  for (const Case &k : cases) {
    const TestImage &t = k.t;
    cf::J2kSettings s;
    s.profile = cf::J2kProfile::ImfHt;
    s.reversible = k.reversible;
    s.bitrate = k.reversible ? 0 : 4;
    s.levels = k.levels;
    s.codeblock_width = k.block_w;
    s.codeblock_height = k.block_h;
    s.progression = cf::J2kProgression::Lrcp;  // the profile's RPCL in its place
    const Outcome o = check_case(t, s);
    const std::vector<std::uint8_t> cs = encode(cf::Backend::Cpu, t, s);
    const std::string path = dir.path + "/ht.j2k";
    write_file(path, cs);
    std::string dump;
    cft::run_command("opj_dump -i '" + path + "'", dump);
    std::string precincts = "(7,7) ";
    for (int r = 1; r <= k.expect_levels; ++r) precincts += "(8,8) ";
    const bool fields = dump_field(dump, "tw") == "1" && dump_field(dump, "th") == "1" &&
                        dump_field(dump, "prg") == "0x2" && dump_field(dump, "numlayers") == "1" &&
                        dump_field(dump, "cblksty") == "0x40" &&
                        dump_field(dump, "numresolutions") == std::to_string(k.expect_levels + 1) &&
                        dump_field(dump, "cblkw") == "2^" + std::to_string(int(std::log2(k.block_w))) &&
                        dump_field(dump, "cblkh") == "2^" + std::to_string(int(std::log2(k.block_h))) &&
                        dump.find("preccintsize (w,h)=" + precincts + "\n") != std::string::npos;
    CHECK_MSG(fields, "%s: opj_dump does not read Table H.1's fields:\n%s", t.name.c_str(), dump.c_str());
    CHECK_MSG(cs.size() > 8 && be16(cs, 6) == 0x4000, "%s: Rsiz 0x%04X, not 0x4000", t.name.c_str(),
              cs.size() > 8 ? be16(cs, 6) : 0u);
    std::uint32_t pcap = 0;
    unsigned ccap15 = 0;
    const bool cap = read_cap(cs, pcap, ccap15);
    const int expect = magbp(table_h2(t.in.bit_depth, t.in.rgb, k.expect_levels > 5));
    const bool magnitude = k.reversible ? int(ccap15 & 0x1F) == expect : int(ccap15 & 0x1F) <= magbp(31);
    CHECK_MSG(cap && pcap == 0x00020000 && (ccap15 & 0xFFC0) == 0 && ((ccap15 >> 5) & 1) == (k.reversible ? 0u : 1u) &&
                  magnitude,
              "%s: CAP %s, Pcap 0x%08X, Ccap15 0x%04X (magnitude field %d expected)", t.name.c_str(),
              cap ? "present" : "absent", pcap, ccap15, expect);
    const Walk w = walk(cs);
    const std::size_t parts = std::size_t(k.expect_levels) + 1;
    bool per_resolution = w.complete && w.parts.size() == parts && w.tlm.size() == parts;
    for (std::size_t i = 0; per_resolution && i < parts; ++i)
      per_resolution = w.parts[i].tpsot == i && w.parts[i].tnsot == parts && w.tlm[i].second == w.parts[i].psot;
    CHECK_MSG(per_resolution, "%s: %zu tile-parts and %zu TLM entries, not one per resolution (%zu)", t.name.c_str(),
              w.parts.size(), w.tlm.size(), parts);
    std::printf("%-26s imf-ht %s: %zu bytes, PSNR %.2f dB, Ccap15 0x%04X\n", t.name.c_str(),
                k.reversible ? "REV" : "IRV at 4 bpp", o.bytes, o.psnr, ccap15);
  }
}

void imf_refusals(const std::vector<cft::Photo> &photos) {
  const int one[4] = {1, 1, 1, 1}, half[3] = {1, 2, 2};
  cf::J2kSettings s;
  const auto refused = [&](const TestImage &t, cf::J2kProfile p, const char *what) {
    s.profile = p;
    const std::string why = cf::j2k_encode_check(t.in, s);
    const std::string named = std::string("profile ") + cf::j2k_profile_name(p);
    CHECK_MSG(why.find(named) != std::string::npos && why.find(what) != std::string::npos,
              "%s, %s: \"%s\" does not say \"%s\"", t.name.c_str(), named.c_str(), why.c_str(), what);
  };
  const TestImage small = planar_image("rgb8 64x32", 64, 32, 3, false, 8, one, one, true, Content::Smooth, 1, photos);
  refused(planar_image("4 components", 64, 32, 4, true, 12, one, one, true, Content::Smooth, 1, photos),
          cf::J2kProfile::Imf2k, "codes 1 to 3 components");
  refused(planar_image("7-bit", 64, 32, 3, false, 7, one, one, true, Content::Smooth, 1, photos),
          cf::J2kProfile::Imf4kR, "8 to 16 bits");
  refused(planar_image("4:2:0", 64, 32, 3, false, 8, half, half, false, Content::Smooth, 1, photos),
          cf::J2kProfile::Imf2k, "is subsampled 2x2");
  refused(planar_image("2050 wide", 2050, 16, 3, false, 8, one, one, true, Content::Smooth, 1, photos),
          cf::J2kProfile::Imf2kR, "larger than 2048x1556");
  refused(planar_image("3113 high", 16, 3113, 1, false, 8, one, one, false, Content::Smooth, 1, photos),
          cf::J2kProfile::Imf4k, "larger than 4096x3112");
  s.tile_width = s.tile_height = 512;
  refused(planar_image("1200x600", 1200, 600, 1, false, 8, one, one, false, Content::Smooth, 1, photos),
          cf::J2kProfile::Imf2kR, "tiles of 512x512 are not allowed");
  s.tile_width = s.tile_height = 0;
  s.profile_level = {4, 3};
  refused(small, cf::J2kProfile::Imf2k, "sublevel 3 must be 0..2 at main level 4");
  s.profile_level = {5, 1};
  refused(small, cf::J2kProfile::Imf4kR, "a reversible profile's sublevel is 0");
  s.profile_level = {12, 0};
  refused(small, cf::J2kProfile::Imf8kR, "main level 12 must be 0..11");
  s.profile_level = {};
  refused(planar_image("4:2:0", 64, 32, 3, false, 8, half, half, false, Content::Smooth, 1, photos),
          cf::J2kProfile::ImfHt, "is subsampled 2x2");
  refused(planar_image("8193 wide", 8193, 8, 1, false, 8, one, one, false, Content::Smooth, 1, photos),
          cf::J2kProfile::ImfHt, "longer than 8192");
  s.codeblock_height = 16;
  refused(small, cf::J2kProfile::ImfHt, "code-blocks of 64x16");
  s.codeblock_height = 64;
  // Lossy profiles code one tile whatever the caller asks.
  s.profile = cf::J2kProfile::Imf2k;
  s.tile_width = s.tile_height = 1024;
  CHECK_MSG(cf::j2k_encode_check(small.in, s).empty(), "imf-2k with tile 1024: %s",
            cf::j2k_encode_check(small.in, s).c_str());
  for (int p = 0; p <= int(cf::J2kProfile::ImfHt); ++p) {
    cf::J2kProfile back;
    CHECK_MSG(cf::j2k_profile_from_name(cf::j2k_profile_name(cf::J2kProfile(p)), back) && back == cf::J2kProfile(p),
              "profile %d: its name %s does not read back", p, cf::j2k_profile_name(cf::J2kProfile(p)));
  }
}

}  // namespace

int main() {
  if (!cft::have_tool("opj_compress") || !cft::have_tool("opj_dump") || !cft::have_tool("opj_decompress")) {
    std::printf("SKIP: opj_compress, opj_dump or opj_decompress not found (Debian package libopenjp2-tools)\n");
    return cft::kSkip;
  }
  const std::vector<cft::Photo> photos = cft::load_photos();
  CHECK(!photos.empty());
  if (photos.empty()) return cft::test_result();
  refusals(photos);
  imf_refusals(photos);
  dci(photos);
  imf(photos);
  imf_ht(photos);
  return cft::test_result();
}
