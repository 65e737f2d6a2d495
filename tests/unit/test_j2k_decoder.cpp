// The JPEG 2000 decoder end to end (cudafilters/j2k_decoder.hpp) on the
// T.803 conformance streams (CF_J2K_CONFORMANCE; skipped without them):
// every stream decoded on cpu and openmp at the reduction the suite gives
// (the components the README's table lists: "4 of 257" decodes the first
// 4), each component's peak error and mean squared error against the
// Class 1 reference decoding (PGX) within the suite's limits (the README's
// table, T.803 Tables C.6 and C.7), cpu and openmp equal sample for
// sample; a refusal fails. The streams whose tile mixes the 5/3 and the
// 9/7 (COC, as opj_dump reads them) are counted apart. Then the
// components setting: a part of the components decodes as the whole
// does, and what it cannot do is refused with its reason.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "check.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k_decoder.hpp"
#include "shell.hpp"

namespace fs = std::filesystem;

static std::vector<std::uint8_t> read_file(const fs::path &p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// A PGX file: "PG ML +|- depth width height\n", then big-endian samples
// of 1, 2 or 4 bytes.
struct Pgx {
  int width = 0, height = 0, depth = 0;
  bool is_signed = false;
  std::vector<std::int64_t> v;
};
static bool read_pgx(const fs::path &p, Pgx &out) {
  const std::vector<std::uint8_t> b = read_file(p);
  std::size_t eol = 0;
  while (eol < b.size() && b[eol] != '\n') ++eol;
  if (eol >= b.size()) return false;
  std::istringstream head(std::string(b.begin(), b.begin() + std::ptrdiff_t(eol)));
  std::string pg, order, sign;
  head >> pg >> order;
  // The sign may stand alone, touch the depth ("+8", "-12") or be missing.
  std::string rest;
  head >> rest;
  if (rest == "+" || rest == "-") {
    sign = rest;
    head >> out.depth;
  } else if (rest[0] == '+' || rest[0] == '-') {
    sign = rest.substr(0, 1);
    out.depth = std::stoi(rest.substr(1));
  } else {
    out.depth = std::stoi(rest);
  }
  head >> out.width >> out.height;
  out.is_signed = sign == "-";
  const int bytes = out.depth <= 8 ? 1 : out.depth <= 16 ? 2 : 4;
  const std::size_t n = std::size_t(out.width) * out.height;
  if (b.size() < eol + 1 + n * bytes) return false;
  out.v.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t u = 0;
    for (int k = 0; k < bytes; ++k) u = u << 8 | b[eol + 1 + i * bytes + k];
    std::int64_t s = std::int64_t(u);
    if (out.is_signed && (u >> (8 * bytes - 1))) s -= std::int64_t(1) << (8 * bytes);
    out.v[i] = s;
  }
  return true;
}

struct Limits {
  int components = 0, codestream_components = 0;  // decoded, in the codestream
  int reduce = 0;
  std::vector<double> peak, mse;
};

static std::vector<double> numbers(const std::string &cell) {
  std::vector<double> v;
  std::stringstream ss(cell);
  std::string x;
  while (std::getline(ss, x, ':')) v.push_back(std::stod(x));
  return v;
}

// The README's table: | stream | components | reduce | peak | MSE | ...
static bool limits_of(const std::string &readme, const std::string &stream, Limits &out) {
  std::istringstream in(readme);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| " + stream + " |", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, '|')) {
      const auto a = c.find_first_not_of(' '), z = c.find_last_not_of(' ');
      cells.push_back(a == std::string::npos ? "" : c.substr(a, z - a + 1));
    }
    // cells[0] is before the first bar; components: "3", or "4 of 257".
    out.components = out.codestream_components = std::stoi(cells[2]);
    if (const auto of = cells[2].find(" of "); of != std::string::npos)
      out.codestream_components = std::stoi(cells[2].substr(of + 4));
    out.reduce = std::stoi(cells[3]);
    out.peak = numbers(cells[4]);
    out.mse = numbers(cells[5]);
    return true;
  }
  return false;
}

struct Decoded {
  cf::J2kImageInfo info;
  std::vector<std::vector<std::uint16_t>> planes;
  std::string problem;
};

// `reused`: a decoder kept from earlier streams instead of a new one.
static Decoded decode(const std::vector<std::uint8_t> &data, cf::Backend backend, int reduce, int components = 0,
                      const int *shift_up = nullptr, cf::J2kDecoder *reused = nullptr) {
  cf::J2kDecodeSettings s;
  s.reduce = reduce;
  s.components = components;
  if (shift_up) std::copy(shift_up, shift_up + cf::kMaxPlanes, s.shift_up);
  Decoded d;
  d.info = cf::j2k_image_info(data.data(), data.size(), s);
  cf::FrameView v;
  v.type = cf::SampleType::U16;
  v.n_planes = v.n_components = d.info.components;
  d.planes.resize(std::size_t(d.info.components));
  for (int c = 0; c < d.info.components; ++c) {
    const int w = d.info.component_width[c], h = d.info.component_height[c];
    d.planes[c].assign(std::size_t(w) * h + 1, 0);
    v.planes[c] = {d.planes[c].data(), std::ptrdiff_t(w) * 2, w * 2, h};
    v.components[c] = {c, 0, 1, w, h};
  }
  cf::Engine engine(backend);
  cf::J2kDecoder fresh(engine);
  cf::J2kDecoder &dec = reused ? *reused : fresh;
  dec.decode(data.data(), data.size(), s, v);
  d.problem = dec.problem();
  return d;
}

// Expects decode to throw a cf::Error whose message holds `why`.
static void refused(const std::vector<std::uint8_t> &data, int components, const char *why) {
  try {
    decode(data, cf::Backend::Cpu, 0, components);
  } catch (const cf::Error &e) {
    CHECK_MSG(std::string(e.what()).find(why) != std::string::npos, "components = %d: '%s' does not say '%s'",
              components, e.what(), why);
    return;
  }
  CHECK_MSG(false, "components = %d accepted, expected a refusal saying '%s'", components, why);
}

// J2kDecodeSettings::components: the first components decode as they do
// among all; more than a frame holds, more than the codestream has, or
// fewer than the colour transform needs are refused.
static void components_setting(const fs::path &root) {
  const std::vector<std::uint8_t> four = read_file(root / "streams" / "p0_05.j2k");  // 4 components, no mct
  const std::vector<std::uint8_t> many = read_file(root / "streams" / "p0_13.j2k");  // 257 components, mct
  const Decoded all = decode(four, cf::Backend::Cpu, 0);
  for (int n = 1; n <= 3; ++n) {
    const Decoded cpu = decode(four, cf::Backend::Cpu, 0, n), omp = decode(four, cf::Backend::OpenMP, 0, n);
    CHECK_MSG(cpu.info.components == n && cpu.info.codestream_components == 4,
              "p0_05, %d components: info says %d of %d", n, cpu.info.components, cpu.info.codestream_components);
    CHECK_MSG(cpu.planes == omp.planes, "p0_05, %d components: cpu and openmp differ", n);
    CHECK_MSG(std::equal(cpu.planes.begin(), cpu.planes.end(), all.planes.begin()),
              "p0_05, %d components: not the first %d of all 4", n, n);
  }
  refused(four, 5, "the codestream has 4");
  refused(four, -1, "components = -1");
  refused(many, 0, "257 components: a frame holds at most 4");
  refused(many, 5, "components = 5: a frame holds at most 4");
  refused(many, 2, "the component transform (mct) makes each of components 0..2 from all three");
  std::printf(
      "components setting: the first 1..3 of p0_05 as among all 4; 5 of 4, -1, all or 5 of 257, 2 of a colour "
      "transform refused\n");
}

// J2kDecodeSettings::shift_up: each component's samples times 2^shift, on
// cpu and openmp; a shift past 16 bits, or outside 0..15, is refused.
static void shift_setting(const fs::path &root) {
  const std::vector<std::uint8_t> four = read_file(root / "streams" / "p0_05.j2k");
  const Decoded plain = decode(four, cf::Backend::Cpu, 0);
  int shift[cf::kMaxPlanes] = {};
  for (int c = 0; c < plain.info.components; ++c) shift[c] = std::min(c + 1, 16 - plain.info.bit_depth[c]);
  for (cf::Backend b : {cf::Backend::Cpu, cf::Backend::OpenMP}) {
    const Decoded up = decode(four, b, 0, 0, shift);
    for (int c = 0; c < plain.info.components; ++c)
      for (std::size_t i = 0; i < plain.planes[c].size(); ++i)
        if (up.planes[c][i] != std::uint16_t(plain.planes[c][i] << shift[c])) {
          CHECK_MSG(false, "p0_05 on %s, component %d shifted up by %d: sample %zu is %u, not %u << %d",
                    cf::backend_name(b), c, shift[c], i, up.planes[c][i], plain.planes[c][i], shift[c]);
          break;
        }
  }
  const auto refuses = [&](int c, int value, const char *why) {
    int bad[cf::kMaxPlanes] = {};
    bad[c] = value;
    try {
      decode(four, cf::Backend::Cpu, 0, 0, bad);
      CHECK_MSG(false, "shift_up[%d] = %d accepted, expected a refusal saying '%s'", c, value, why);
    } catch (const cf::Error &e) {
      CHECK_MSG(std::string(e.what()).find(why) != std::string::npos, "shift_up[%d] = %d: '%s' does not say '%s'", c,
                value, e.what(), why);
    }
  };
  refuses(0, 17 - plain.info.bit_depth[0], "more than U16 holds");
  refuses(1, -1, "must be in 0..15");
  refuses(2, 16, "must be in 0..15");
  std::printf("shift_up: p0_05's components shifted up by 1..%d on cpu and openmp; past 16 bits, -1 and 16 refused\n",
              shift[3]);
}

// A main header (SOC, SIZ of one 8-bit component subsampled by xr, one
// tile, COD with no levels, QCD) and an empty tile-part, width x 16.
static std::vector<std::uint8_t> wide_stream(std::uint32_t width, std::uint8_t xr) {
  std::vector<std::uint8_t> b = {0xFF, 0x4F, 0xFF, 0x51, 0, 41, 0, 0};
  const auto u32 = [&](std::uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) b.push_back(std::uint8_t(v >> s));
  };
  for (std::uint32_t v : {width, 16u, 0u, 0u, width, 16u, 0u, 0u}) u32(v);
  b.insert(b.end(), {0, 1, 7, xr, 1});
  b.insert(b.end(), {0xFF, 0x52, 0, 12, 0, 0, 0, 1, 0, 0, 4, 4, 0, 1});  // COD: LRCP, 1 layer, NL 0, 5/3
  b.insert(b.end(), {0xFF, 0x5C, 0, 4, 0x40, 8 << 3});                   // QCD: none, guard 2
  b.insert(b.end(), {0xFF, 0x90, 0, 10, 0, 0, 0, 0, 0, 14, 0, 1, 0xFF, 0x93, 0xFF, 0xD9});
  return b;
}

// SIZ allows 2^32 - 1 samples a side; a frame holds 2^31 - 1 (without the
// sample limit, which refuses such frames first).
static void huge_sides() {
  cf::J2kDecodeSettings unlimited;
  unlimited.max_samples = 0;
  const auto refuses = [&](const std::vector<std::uint8_t> &b, const char *why) {
    try {
      cf::j2k_image_info(b.data(), b.size(), unlimited);
      CHECK_MSG(false, "a stream %s wide accepted", why);
    } catch (const cf::Error &e) {
      CHECK_MSG(std::string(e.what()).find(why) != std::string::npos, "'%s' does not say '%s'", e.what(), why);
    }
  };
  refuses(wide_stream(0xFFFFFFF0u, 1), "component 0 is 4294967280x16: a frame holds at most 2^31 - 1 samples a side");
  refuses(wide_stream(0xFFFFFFF0u, 2), "the image is 4294967280x16: a frame holds at most 2^31 - 1 samples a side");
  const std::vector<std::uint8_t> fits = wide_stream(0x7FFFFFFFu, 1);
  const cf::J2kImageInfo info = cf::j2k_image_info(fits.data(), fits.size(), unlimited);
  CHECK_MSG(info.width == 0x7FFFFFFF, "a stream 2^31 - 1 wide: info width %d", info.width);
  std::printf("sides past 2^31 - 1 samples refused, 2^31 - 1 taken\n");
}

int main() {
  const char *dir = std::getenv("CF_J2K_CONFORMANCE");
  if (!dir || !fs::is_directory(fs::path(dir) / "streams")) {
    std::printf("SKIP: no conformance streams (CF_J2K_CONFORMANCE unset or no streams/ folder)\n");
    return 77;
  }
  const fs::path root(dir);
  const std::vector<std::uint8_t> readme_bytes = read_file(root / "README.md");
  const std::string readme(readme_bytes.begin(), readme_bytes.end());
  const fs::path refs = fs::temp_directory_path() / ("cf-j2k-reference-" + std::to_string(::getpid()));
  fs::create_directories(refs);
  std::string tar_output;
  if (cft::run_command("tar xJf '" + (root / "reference.tar.xz").string() + "' -C '" + refs.string() + "' 2>&1",
                       tar_output) != 0) {
    std::printf("SKIP: cannot unpack reference.tar.xz\n");
    fs::remove_all(refs);
    return 77;
  }
  std::vector<fs::path> streams;
  for (const auto &e : fs::directory_iterator(root / "streams"))
    if (e.path().extension() == ".j2k") streams.push_back(e.path());
  std::sort(streams.begin(), streams.end());
  const bool have_dump = cft::have_tool("opj_dump");
  if (!have_dump) std::printf("SKIP: no opj_dump: the streams mixing wavelets are not told apart\n");
  int passed = 0, listed = 0, mixed = 0, mixed_passed = 0;
  // One decoder through every stream (tile counts and code-block lists of
  // every size in turn, its lists reused): each as a new decoder's.
  cf::Engine shared_engine(cf::Backend::Cpu);
  cf::J2kDecoder shared(shared_engine);
  for (const fs::path &p : streams) {
    const std::string name = p.stem().string();  // p0_01
    Limits lim;
    if (!limits_of(readme, name, lim)) continue;
    ++listed;
    const std::vector<std::uint8_t> data = read_file(p);
    // A tile coding some components with the 5/3 (qmfbid=1) and others with the 9/7 (0).
    std::string dump;
    const bool mixes = have_dump && cft::run_command("opj_dump -i '" + p.string() + "'", dump) == 0 &&
                       dump.find("qmfbid=0") != std::string::npos && dump.find("qmfbid=1") != std::string::npos;
    mixed += mixes ? 1 : 0;
    // All components, or the first ones where the codestream has more than the suite compares.
    const int keep = lim.components < lim.codestream_components ? lim.components : 0;
    Decoded cpu, omp;
    try {
      cpu = decode(data, cf::Backend::Cpu, lim.reduce, keep);
      omp = decode(data, cf::Backend::OpenMP, lim.reduce, keep);
    } catch (const cf::Error &e) {
      CHECK_MSG(false, "%s refused: %s", name.c_str(), e.what());
      continue;
    }
    CHECK_MSG(cpu.info.components == lim.components && cpu.info.codestream_components == lim.codestream_components,
              "%s: %d of %d components, the README says %d of %d", name.c_str(), cpu.info.components,
              cpu.info.codestream_components, lim.components, lim.codestream_components);
    CHECK_MSG(cpu.planes == omp.planes, "%s: cpu and openmp differ", name.c_str());
    const Decoded again = decode(data, cf::Backend::Cpu, lim.reduce, keep, nullptr, &shared);
    CHECK_MSG(again.planes == cpu.planes && again.problem == cpu.problem,
              "%s: a decoder kept from the streams before decodes it otherwise", name.c_str());
    bool ok = true;
    std::string line = name + ":";
    for (int c = 0; c < cpu.info.components; ++c) {
      // c1p0_01_0.pgx: profile, stream number, component.
      const std::string ref_name = "c1p" + name.substr(1, 1) + "_" + name.substr(3) + "_" + std::to_string(c) + ".pgx";
      Pgx ref;
      if (!read_pgx(refs / "reference" / ref_name, ref)) {
        CHECK_MSG(false, "%s: no reference %s", name.c_str(), ref_name.c_str());
        ok = false;
        continue;
      }
      const int w = cpu.info.component_width[c], h = cpu.info.component_height[c];
      CHECK_MSG(w == ref.width && h == ref.height, "%s component %d: %dx%d, the reference %dx%d", name.c_str(), c, w, h,
                ref.width, ref.height);
      if (w != ref.width || h != ref.height) {
        ok = false;
        continue;
      }
      const std::int64_t offset = cpu.info.is_signed[c] ? std::int64_t(1) << (cpu.info.bit_depth[c] - 1) : 0;
      std::int64_t peak = 0;
      double sq = 0;
      for (std::size_t i = 0; i < ref.v.size(); ++i) {
        const std::int64_t e = std::int64_t(cpu.planes[c][i]) - offset - ref.v[i];
        peak = std::max<std::int64_t>(peak, e < 0 ? -e : e);
        sq += double(e) * double(e);
      }
      const double mse = ref.v.empty() ? 0 : sq / double(ref.v.size());
      const double pl = lim.peak[std::min<std::size_t>(std::size_t(c), lim.peak.size() - 1)];
      const double ml = lim.mse[std::min<std::size_t>(std::size_t(c), lim.mse.size() - 1)];
      char buf[160];
      std::snprintf(buf, sizeof buf, " [%d] peak %lld (limit %g), MSE %.3f (limit %g)", c, (long long)peak, pl, mse,
                    ml);
      line += buf;
      if (double(peak) > pl || mse > ml) ok = false;
    }
    if (!cpu.problem.empty()) line += " (stopped: " + cpu.problem + ")";
    if (mixes) line += " (5/3 and 9/7 in one tile)";
    std::printf("%s %s\n", ok ? "PASS" : "FAIL", line.c_str());
    CHECK_MSG(ok, "%s outside the conformance limits", name.c_str());
    passed += ok ? 1 : 0;
    mixed_passed += ok && mixes && cpu.planes == omp.planes ? 1 : 0;
  }
  fs::remove_all(refs);
  CHECK_MSG(listed == int(streams.size()), "%zu streams, %d in the README's table", streams.size(), listed);
  std::printf("conformance: %d of %zu streams within their limits\n", passed, streams.size());
  if (have_dump) {
    // p0_05, p0_06 and p1_03 code component 3 with the 5/3, components 0..2 with the 9/7.
    CHECK_MSG(mixed >= 3, "only %d streams mix the 5/3 and the 9/7 as opj_dump reads them", mixed);
    std::printf("mixed wavelets in one tile: %d of %d streams within their limits, cpu and openmp equal\n",
                mixed_passed, mixed);
  }
  components_setting(root);
  shift_setting(root);
  huge_sides();
  return cft::test_result();
}
