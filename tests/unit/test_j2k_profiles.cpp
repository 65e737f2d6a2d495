// Codestream profiles (J2kSettings::profile): dci-2k and dci-4k, the
// digital cinema profiles. 12-bit 4:4:4 frames of photos, and of noise that
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

// The frame as a 16-bit PPM of maxval 4095, which opj_compress reads as
// 12-bit samples.
void write_ppm12(const TestImage &t, const std::string &path) {
  const int w = t.in.frame.components[0].width, h = t.in.frame.components[0].height;
  std::vector<std::uint8_t> b;
  const std::string head = "P6\n" + std::to_string(w) + " " + std::to_string(h) + "\n4095\n";
  b.assign(head.begin(), head.end());
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < 3; ++c) {
        const unsigned v = t.sample(c, x, y);
        b.push_back(std::uint8_t(v >> 8));
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
    write_ppm12(t, base + ".ppm");
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
  dci(photos);
  return cft::test_result();
}
