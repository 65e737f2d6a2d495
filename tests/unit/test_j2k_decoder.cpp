// The JPEG 2000 decoder end to end (cudafilters/j2k_decoder.hpp) on the
// T.803 conformance streams (CF_J2K_CONFORMANCE; skipped without them):
// every stream of at most 4 components decoded on cpu and openmp at the
// reduction the suite gives, each component's peak error and mean squared
// error against the Class 1 reference decoding (PGX) within the suite's
// limits (the README's table, T.803 Tables C.6 and C.7), and cpu and openmp
// equal sample for sample.
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
    // cells[0] is before the first bar.
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

static Decoded decode(const std::vector<std::uint8_t> &data, cf::Backend backend, int reduce) {
  cf::J2kDecodeSettings s;
  s.reduce = reduce;
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
  cf::J2kDecoder dec(engine);
  dec.decode(data.data(), data.size(), s, v);
  d.problem = dec.problem();
  return d;
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
  int passed = 0, refused = 0;
  for (const fs::path &p : streams) {
    const std::string name = p.stem().string();  // p0_01
    Limits lim;
    if (!limits_of(readme, name, lim)) continue;
    const std::vector<std::uint8_t> data = read_file(p);
    Decoded cpu, omp;
    try {
      cpu = decode(data, cf::Backend::Cpu, lim.reduce);
      omp = decode(data, cf::Backend::OpenMP, lim.reduce);
    } catch (const cf::Error &e) {
      std::printf("%s: refused: %s\n", name.c_str(), e.what());
      ++refused;
      continue;
    }
    CHECK_MSG(cpu.planes == omp.planes, "%s: cpu and openmp differ", name.c_str());
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
    std::printf("%s %s\n", ok ? "PASS" : "FAIL", line.c_str());
    CHECK_MSG(ok, "%s outside the conformance limits", name.c_str());
    passed += ok ? 1 : 0;
  }
  fs::remove_all(refs);
  std::printf("conformance: %d of %zu streams within their limits, %d refused\n", passed, streams.size(), refused);
  return cft::test_result();
}
