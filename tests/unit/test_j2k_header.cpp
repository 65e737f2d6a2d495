// Reading JPEG 2000 headers (core/codec/j2k_header.hpp, core/src/j2k_jp2.hpp):
//  - every conformance stream (CF_J2K_CONFORMANCE) against what OpenJPEG's
//    opj_dump prints of it, and its tile-parts against a walk of its SOT
//    segments written here;
//  - streams made by opj_compress with known options;
//  - streams written by hand from T.800 Annex A (PPM, PPT, POC, RGN, COC,
//    QCC, Psot = 0, truncation), and one per refused rule;
//  - hostile input: every stream cut at every offset of its headers and
//    with bytes flipped must throw cf::Error or give a header whose spans
//    lie in the data;
//  - JP2 boxes written by hand from T.800 Annex I, and opj_compress's .jp2.
// Cases needing a missing tool or folder print SKIP and the rest runs.
#include <unistd.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <memory>
#include <string>
#include <vector>

#if defined(__SANITIZE_ADDRESS__)
#define CFT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CFT_ASAN 1
#endif
#endif
#ifdef CFT_ASAN
#include <sanitizer/asan_interface.h>
#else
#define ASAN_POISON_MEMORY_REGION(at, n) ((void)(at), (void)(n))
#define ASAN_UNPOISON_MEMORY_REGION(at, n) ((void)(at), (void)(n))
#endif

#include "check.hpp"
#include "core/codec/j2k_header.hpp"
#include "core/src/j2k_jp2.hpp"
#include "cudafilters/error.hpp"
#include "shell.hpp"

using namespace cf::j2k;
using Bytes = std::vector<std::uint8_t>;
namespace fs = std::filesystem;

static bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

static Bytes read_file(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  return Bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

static std::uint32_t be16(const Bytes &b, std::size_t p) { return std::uint32_t(b[p]) << 8 | b[p + 1]; }
static std::uint32_t be32(const Bytes &b, std::size_t p) { return be16(b, p) << 16 | be16(b, p + 2); }

// The error message of read_header(bytes), or "" when it gives a header.
static std::string header_error(const Bytes &b) {
  try {
    read_header(b.data(), b.size());
    return "";
  } catch (const cf::Error &e) {
    return e.what();
  }
}

static void check_refused(const Bytes &b, const std::string &part, const char *what) {
  const std::string e = header_error(b);
  CHECK_MSG(!e.empty() && contains(e, part) && contains(e, "JPEG 2000 codestream: "),
            "%s: expected an error naming \"%s\", got \"%s\"", what, part.c_str(), e.c_str());
}

// ---------------------------------------------------------------------------
// A codestream's tile-parts, found by walking its markers (T.800 A.4):
// independent of the reader under test.

struct WalkedPart {
  std::uint32_t tile = 0;
  std::size_t sot = 0, data = 0, end = 0;  // SOT, after SOD, end of the tile-part
};
struct Walk {
  std::size_t main_end = 0;  // where the first SOT is
  std::vector<WalkedPart> parts;
};

// The bytes from a marker at `p` to the next one: 2 for SOD and for the
// markers 0xFF30..0xFF3F, which have no parameters (T.800 Table A.1).
static std::size_t marker_step(const Bytes &b, std::size_t p) {
  const std::uint32_t m = be16(b, p);
  return (m >= 0xFF30 && m <= 0xFF3F) || p + 4 > b.size() ? 2 : 2 + be16(b, p + 2);
}

static Walk walk(const Bytes &b) {
  Walk w;
  std::size_t p = 2;
  while (p + 4 <= b.size() && be16(b, p) != 0xFF90) p += marker_step(b, p);
  w.main_end = p;
  while (p + 12 <= b.size() && be16(b, p) == 0xFF90) {
    WalkedPart t;
    t.sot = p;
    t.tile = be16(b, p + 4);
    const std::uint32_t psot = be32(b, p + 6);
    std::size_t q = p + 12;
    while (q + 2 <= b.size() && be16(b, q) != 0xFF93) q += marker_step(b, q);
    t.data = q + 2;
    t.end = psot ? p + psot : b.size();
    if (!psot && be16(b, b.size() - 2) == 0xFFD9) t.end -= 2;
    w.parts.push_back(t);
    if (!psot) break;
    p += psot;
  }
  return w;
}

// The tile-parts the reader found against the walk.
static void check_parts(const Header &h, const Walk &w, const std::string &name) {
  std::vector<std::vector<WalkedPart>> per_tile(h.tiles.size());
  for (const WalkedPart &p : w.parts)
    if (p.tile < per_tile.size()) per_tile[p.tile].push_back(p);
  std::size_t total = 0;
  for (std::size_t t = 0; t < h.tiles.size(); ++t) {
    const auto &parts = h.tiles[t].parts;
    total += parts.size();
    CHECK_MSG(parts.size() == per_tile[t].size(), "%s tile %zu: %zu tile-parts read, %zu walked", name.c_str(), t,
              parts.size(), per_tile[t].size());
    for (std::size_t i = 0; i < parts.size() && i < per_tile[t].size(); ++i) {
      CHECK_MSG(parts[i].offset == per_tile[t][i].data && parts[i].length == per_tile[t][i].end - per_tile[t][i].data,
                "%s tile %zu part %zu: data [%zu, +%zu), walked [%zu, %zu)", name.c_str(), t, i, parts[i].offset,
                parts[i].length, per_tile[t][i].data, per_tile[t][i].end);
    }
  }
  CHECK_MSG(total == w.parts.size(), "%s: %zu tile-parts read, %zu walked", name.c_str(), total, w.parts.size());
}

// ---------------------------------------------------------------------------
// What opj_dump -i prints of the image and the main header's default tile.

struct DumpComponent {
  long dx = -1, dy = -1, prec = -1, sgnd = -1;
};
struct DumpTileComponent {
  long csty = -1, numresolutions = -1, cblkw = -1, cblkh = -1, cblksty = -1, qmfbid = -1;
  long qntsty = -1, numgbits = -1, roishift = -1;
  std::vector<std::pair<long, long>> precincts, steps;  // (w, h); (m, e)
};
struct Dump {
  long x0 = -1, y0 = -1, x1 = -1, y1 = -1, numcomps = -1;
  std::vector<DumpComponent> comps;
  long tx0 = -1, ty0 = -1, tdx = -1, tdy = -1, tw = -1, th = -1;
  long csty = -1, prg = -1, numlayers = -1, mct = -1;
  std::vector<DumpTileComponent> tile_comps;
};

static std::vector<std::pair<long, long>> pairs(const std::string &s) {
  std::vector<std::pair<long, long>> out;
  for (std::size_t p = s.find('('); p != std::string::npos; p = s.find('(', p + 1)) {
    long a = 0, b = 0;
    if (std::sscanf(s.c_str() + p, "(%ld,%ld)", &a, &b) == 2) out.push_back({a, b});
  }
  return out;
}

static Dump parse_dump(const std::string &text) {
  Dump d;
  std::istringstream in(text);
  std::string line;
  bool in_tile = false;
  while (std::getline(in, line)) {
    const std::size_t first = line.find_first_not_of(" \t");
    if (first == std::string::npos) continue;
    line = line.substr(first);
    if (line.rfind("component ", 0) == 0) {
      d.comps.emplace_back();
      continue;
    }
    if (line.rfind("default tile", 0) == 0) {
      if (in_tile) break;  // the per-tile dumps that may follow are not read
      in_tile = true;
      continue;
    }
    if (line.rfind("comp ", 0) == 0) {
      d.tile_comps.emplace_back();
      continue;
    }
    if (line.rfind("preccintsize", 0) == 0 && !d.tile_comps.empty()) {
      d.tile_comps.back().precincts = pairs(line.substr(line.find('=')));
      continue;
    }
    if (line.rfind("stepsizes", 0) == 0 && !d.tile_comps.empty()) {
      d.tile_comps.back().steps = pairs(line.substr(line.find('=')));
      continue;
    }
    // key=value, key=value
    std::istringstream fields(line);
    std::string field;
    while (std::getline(fields, field, ',')) {
      const std::size_t eq = field.find('=');
      if (eq == std::string::npos) continue;
      std::string key = field.substr(0, eq);
      key.erase(0, key.find_first_not_of(" \t"));
      std::string value = field.substr(eq + 1);
      if (value.rfind("2^", 0) == 0) value = value.substr(2);
      const long v = std::strtol(value.c_str(), nullptr, 0);
      DumpComponent *c = d.comps.empty() || in_tile ? nullptr : &d.comps.back();
      DumpTileComponent *tc = d.tile_comps.empty() ? nullptr : &d.tile_comps.back();
      if (!in_tile) {
        if (key == "x0") d.x0 = v;
        if (key == "y0") d.y0 = v;
        if (key == "x1") d.x1 = v;
        if (key == "y1") d.y1 = v;
        if (key == "numcomps") d.numcomps = v;
        if (key == "tx0") d.tx0 = v;
        if (key == "ty0") d.ty0 = v;
        if (key == "tdx") d.tdx = v;
        if (key == "tdy") d.tdy = v;
        if (key == "tw") d.tw = v;
        if (key == "th") d.th = v;
        if (c && key == "dx") c->dx = v;
        if (c && key == "dy") c->dy = v;
        if (c && key == "prec") c->prec = v;
        if (c && key == "sgnd") c->sgnd = v;
      } else if (!tc) {
        if (key == "csty") d.csty = v;
        if (key == "prg") d.prg = v;
        if (key == "numlayers") d.numlayers = v;
        if (key == "mct") d.mct = v;
      } else {
        if (key == "csty") tc->csty = v;
        if (key == "numresolutions") tc->numresolutions = v;
        if (key == "cblkw") tc->cblkw = v;
        if (key == "cblkh") tc->cblkh = v;
        if (key == "cblksty") tc->cblksty = v;
        if (key == "qmfbid") tc->qmfbid = v;
        if (key == "qntsty") tc->qntsty = v;
        if (key == "numgbits") tc->numgbits = v;
        if (key == "roishift") tc->roishift = v;
      }
    }
  }
  return d;
}

#define SAME(a, b, ...) \
  CHECK_MSG(long(a) == long(b), "%s: %s = %ld, opj_dump says %ld", name.c_str(), #a, long(a), long(b))

// The reader's header of a stream against opj_dump's view of it.
static void compare_with_dump(const Header &h, const Dump &d, const std::string &name) {
  const ImageGrid &g = h.grid;
  SAME(g.x0, d.x0);
  SAME(g.y0, d.y0);
  SAME(g.x1, d.x1);
  SAME(g.y1, d.y1);
  SAME(g.components.size(), d.numcomps);
  CHECK_MSG(d.comps.size() == g.components.size(), "%s: opj_dump lists %zu components", name.c_str(), d.comps.size());
  for (std::size_t c = 0; c < g.components.size() && c < d.comps.size(); ++c) {
    SAME(g.components[c].subsample_x, d.comps[c].dx);
    SAME(g.components[c].subsample_y, d.comps[c].dy);
    SAME(g.components[c].bit_depth, d.comps[c].prec);
    SAME(g.components[c].is_signed, d.comps[c].sgnd);
  }
  SAME(g.tile_x0, d.tx0);
  SAME(g.tile_y0, d.ty0);
  SAME(g.tile_width, d.tdx);
  SAME(g.tile_height, d.tdy);
  SAME(g.tiles_x, d.tw);
  SAME(g.tiles_y, d.th);
  SAME(h.tiles.size(), d.tw * d.th);
  const ResolvedTile r = resolve_main(h);
  SAME(r.coding.sop, (d.csty >> 1) & 1);
  SAME(r.coding.eph, (d.csty >> 2) & 1);
  SAME(int(r.coding.progression), d.prg);
  SAME(r.coding.layers, d.numlayers);
  SAME(r.coding.mct, d.mct);
  CHECK_MSG(d.tile_comps.size() == g.components.size(), "%s: opj_dump lists %zu tile components", name.c_str(),
            d.tile_comps.size());
  for (std::size_t c = 0; c < g.components.size() && c < d.tile_comps.size(); ++c) {
    const ComponentCoding &cc = r.components[c];
    const ComponentQuant &q = r.quant[c];
    const DumpTileComponent &t = d.tile_comps[c];
    SAME(cc.levels + 1, t.numresolutions);
    SAME(cc.cb_width_exp, t.cblkw);
    SAME(cc.cb_height_exp, t.cblkh);
    SAME(cc.cb_style, t.cblksty);
    SAME(cc.reversible, t.qmfbid);
    SAME(cc.precinct_width_exp.size(), t.precincts.size());
    for (std::size_t i = 0; i < cc.precinct_width_exp.size() && i < t.precincts.size(); ++i) {
      SAME(cc.precinct_width_exp[i], t.precincts[i].first);
      SAME(cc.precinct_height_exp[i], t.precincts[i].second);
    }
    SAME(int(q.style), t.qntsty);
    SAME(q.guard_bits, t.numgbits);
    SAME(q.steps.size(), t.steps.size());
    for (std::size_t i = 0; i < q.steps.size() && i < t.steps.size(); ++i) {
      SAME(q.steps[i].mantissa, t.steps[i].first);
      SAME(q.steps[i].exponent, t.steps[i].second);
    }
    SAME(r.roi_shift[c], t.roishift);
  }
}

// Whether tile t of `h` has the same tile-parts, whole, as in `whole` (the
// uncut stream's header): its headers are then the same bytes, and so is
// what resolving it does.
static bool same_parts(const Header &h, const Header *whole, std::size_t t) {
  if (!whole || t >= whole->tiles.size()) return false;
  const std::vector<ByteSpan> &a = h.tiles[t].parts, &b = whole->tiles[t].parts;
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].offset != b[i].offset || a[i].length != b[i].length) return false;
  return true;
}

// Every tile resolves, or is refused with cf::Error; spans lie in the data.
// Tiles whose parts are those of `whole` (when given) are not resolved
// again: a cut past all their bytes changes nothing of them.
static void check_sound(const Header &h, std::size_t size, const char *what, const Header *whole = nullptr) {
  CHECK_MSG(h.tiles.size() == std::size_t(h.grid.tiles_x) * h.grid.tiles_y, "%s: tiles", what);
  for (std::size_t t = 0; t < h.tiles.size(); ++t) {
    for (const ByteSpan &s : h.tiles[t].parts)
      CHECK_MSG(s.offset <= size && s.length <= size - s.offset, "%s: tile %zu data past the end", what, t);
    if (h.tiles[t].parts.empty() || same_parts(h, whole, t)) continue;
    try {
      const ResolvedTile r = resolve(h, std::uint32_t(t));
      CHECK(r.components.size() == h.grid.components.size());
    } catch (const cf::Error &) {
    }
  }
}

// Cuts `b` at every offset of its headers (the main header and each
// tile-part's SOT..SOD) and at a few in its data, and flips bytes in the
// headers: each must give cf::Error or a sound header.
static void hostile(const Bytes &b, const std::string &name) {
  const Walk w = walk(b);
  std::vector<std::size_t> cuts;
  for (std::size_t i = 0; i <= std::min(w.main_end + 2, b.size()); ++i) cuts.push_back(i);
  for (const WalkedPart &p : w.parts) {
    for (std::size_t i = p.sot; i <= std::min(p.data, b.size()); ++i) cuts.push_back(i);
    cuts.push_back((p.data + p.end) / 2);
  }
  // The longest cut first: each cut hides the bytes past it from
  // AddressSanitizer (nothing in other builds), so a read past the cut is
  // reported as in a buffer of its size, without copying each cut.
  std::sort(cuts.begin(), cuts.end(), [](std::size_t x, std::size_t y) { return x > y; });
  std::size_t refused = 0, read = 0;
  // The uncut stream's header, every tile resolved once; the cuts resolve
  // only the tiles they change.
  std::unique_ptr<Header> whole;
  try {
    whole = std::make_unique<Header>(read_header(b.data(), b.size()));
    check_sound(*whole, b.size(), name.c_str());
  } catch (const cf::Error &) {
  }
  Bytes copy = b;
  std::size_t hidden_from = copy.size();
  for (std::size_t at : cuts) {
    const std::size_t n = std::min(at, copy.size());
    ASAN_POISON_MEMORY_REGION(copy.data() + n, hidden_from - n);
    hidden_from = n;
    try {
      const Header h = read_header(copy.data(), n);
      check_sound(h, n, name.c_str(), n > w.main_end ? whole.get() : nullptr);
      ++read;
    } catch (const cf::Error &) {
      ++refused;
    }
  }
  ASAN_UNPOISON_MEMORY_REGION(copy.data(), copy.size());
  // Flips in the headers, from a fixed seed, each undone after its read.
  std::uint32_t seed = 12345;
  auto next = [&seed]() { return seed = seed * 1664525u + 1013904223u; };
  std::vector<std::size_t> header_bytes;
  for (std::size_t i = 0; i < std::min(w.main_end, b.size()); ++i) header_bytes.push_back(i);
  for (const WalkedPart &p : w.parts)
    for (std::size_t i = p.sot; i < std::min(p.data, b.size()); ++i) header_bytes.push_back(i);
  std::size_t flips = 0;
  std::vector<std::pair<std::size_t, std::uint8_t>> flipped;
  for (int k = 0; k < 1500 && !header_bytes.empty(); ++k) {
    flipped.clear();
    for (int j = 0, m = 1 + next() % 3; j < m; ++j) {
      const std::size_t i = header_bytes[(next() >> 8) % header_bytes.size()];
      const std::uint8_t bit = std::uint8_t(1u << ((next() >> 4) % 8));
      copy[i] ^= bit;
      flipped.push_back({i, bit});
    }
    try {
      const Header h = read_header(copy.data(), copy.size());
      check_sound(h, copy.size(), name.c_str());
    } catch (const cf::Error &) {
    }
    for (auto it = flipped.rbegin(); it != flipped.rend(); ++it) copy[it->first] ^= it->second;
    ++flips;
  }
  CHECK_MSG(refused > 0, "%s: no cut was refused", name.c_str());
  std::printf("  %s: %zu cuts (%zu refused, %zu read), %zu flips\n", name.c_str(), cuts.size(), refused, read, flips);
}

static std::string g_temp;

static bool dump_and_compare(const std::string &path, const std::string &name, Header *out = nullptr) {
  const Bytes b = read_file(path);
  Header h;
  try {
    h = read_header(b.data(), b.size());
  } catch (const cf::Error &e) {
    CHECK_MSG(false, "%s: refused: %s", name.c_str(), e.what());
    return false;
  }
  check_parts(h, walk(b), name);
  std::string text;
  if (cft::have_tool("opj_dump")) {
    if (cft::run_command("opj_dump -i '" + path + "'", text) == 0)
      compare_with_dump(h, parse_dump(text), name);
    else
      CHECK_MSG(false, "%s: opj_dump failed: %s", name.c_str(), text.c_str());
  }
  if (out) *out = std::move(h);
  return true;
}

// ---------------------------------------------------------------------------
// (a) The conformance streams.

static void conformance_streams() {
  const char *dir = std::getenv("CF_J2K_CONFORMANCE");
  const fs::path streams = dir ? fs::path(dir) / "streams" : fs::path();
  if (!dir || !fs::is_directory(streams)) {
    std::printf("SKIP: no conformance streams (CF_J2K_CONFORMANCE unset or no streams/ folder)\n");
    return;
  }
  if (!cft::have_tool("opj_dump")) std::printf("SKIP: no opj_dump; the streams are read and walked only\n");
  std::vector<fs::path> files;
  for (const auto &e : fs::directory_iterator(streams))
    if (e.path().extension() == ".j2k") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path &f : files) {
    const std::string name = f.filename().string();
    Header h;
    if (!dump_and_compare(f.string(), name, &h)) continue;
    for (std::size_t t = 0; t < h.tiles.size(); ++t) {
      try {
        resolve(h, std::uint32_t(t));
      } catch (const cf::Error &e) {
        CHECK_MSG(false, "%s tile %zu: %s", name.c_str(), t, e.what());
      }
    }
    std::size_t parts = 0;
    bool packed = false;
    for (const TileHeaders &t : h.tiles) parts += t.parts.size(), packed |= t.headers_packed;
    std::printf("  %s: %u x %u tiles, %zu tile-parts%s\n", name.c_str(), h.grid.tiles_x, h.grid.tiles_y, parts,
                packed ? ", packed packet headers" : "");
    hostile(read_file(f.string()), name);
  }
  std::printf("conformance: %zu streams\n", files.size());
}

// ---------------------------------------------------------------------------
// (b) Streams made by opj_compress with known options.

static void write_pnm(const std::string &path, std::uint32_t w, std::uint32_t h, int planes) {
  std::ofstream f(path, std::ios::binary);
  f << (planes == 3 ? "P6" : "P5") << "\n" << w << " " << h << "\n255\n";
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x)
      for (int p = 0; p < planes; ++p) f.put(char((x * 3 + y * 5 + p * 70 + (x * y) % 17) & 0xFF));
}

static bool compress(const std::string &in, const std::string &out, const std::string &options) {
  std::string text;
  const int rc = cft::run_command("opj_compress -i '" + in + "' -o '" + out + "' " + options, text);
  CHECK_MSG(rc == 0, "opj_compress %s failed: %s", options.c_str(), text.c_str());
  return rc == 0;
}

static void opj_compress_streams() {
  if (!cft::have_tool("opj_compress")) {
    std::printf("SKIP: no opj_compress\n");
    return;
  }
  const std::string rgb = g_temp + "/rgb.ppm", grey = g_temp + "/grey.pgm";
  write_pnm(rgb, 200, 150, 3);
  write_pnm(grey, 75, 41, 1);
  {
    const std::string out = g_temp + "/a.j2k", name = "opj_compress RPCL SOP EPH PLT TP-R M63";
    Header h;
    if (compress(rgb, out, "-n 3 -b 32,32 -p RPCL -t 64,64 -c [64,64],[32,32] -SOP -EPH -PLT -TP R -M 63") &&
        dump_and_compare(out, name, &h)) {
      CHECK(h.grid.x1 == 200 && h.grid.y1 == 150 && h.grid.components.size() == 3);
      CHECK(h.grid.tile_width == 64 && h.grid.tile_height == 64 && h.grid.tiles_x == 4 && h.grid.tiles_y == 3);
      for (const Component &c : h.grid.components) CHECK(c.bit_depth == 8 && !c.is_signed && c.subsample_x == 1);
      for (std::uint32_t t = 0; t < h.tiles.size(); ++t) {
        CHECK_MSG(h.tiles[t].parts.size() == 3, "tile %u: %zu tile-parts, -TP R with 3 resolutions gives 3", t,
                  h.tiles[t].parts.size());
        const ResolvedTile r = resolve(h, t);
        CHECK(r.coding.progression == Progression::Rpcl && r.coding.sop && r.coding.eph && r.coding.layers == 1);
        CHECK(r.coding.mct);
        for (const ComponentCoding &cc : r.components) {
          CHECK(cc.levels == 2 && cc.cb_width_exp == 5 && cc.cb_height_exp == 5 && cc.cb_style == 63);
          CHECK(cc.reversible);
          // -c lists precincts from the highest resolution down.
          CHECK(cc.precinct_width_exp.size() == 3 && cc.precinct_width_exp[2] == 6 && cc.precinct_height_exp[2] == 6);
          CHECK(cc.precinct_width_exp[1] == 5 && cc.precinct_height_exp[1] == 5);
        }
        for (const ComponentQuant &q : r.quant) CHECK(q.style == QuantStyle::None && q.steps.size() == 7);
      }
      hostile(read_file(out), name);
    }
  }
  {
    const std::string out = g_temp + "/b.j2k", name = "opj_compress -I CPRL 3 layers";
    Header h;
    if (compress(grey, out, "-I -n 4 -r 40,20,10 -p CPRL -b 16,64") && dump_and_compare(out, name, &h)) {
      CHECK(h.grid.x1 == 75 && h.grid.y1 == 41 && h.grid.components.size() == 1 && h.tiles.size() == 1);
      const ResolvedTile r = resolve(h, 0);
      CHECK(r.coding.progression == Progression::Cprl && r.coding.layers == 3 && !r.coding.mct);
      CHECK(r.components[0].levels == 3 && !r.components[0].reversible);
      CHECK(r.components[0].cb_width_exp == 4 && r.components[0].cb_height_exp == 6);
      CHECK(r.quant[0].style == QuantStyle::Expounded && r.quant[0].steps.size() == 10);
      CHECK(h.tiles[0].parts.size() == 1);
      hostile(read_file(out), name);
    }
  }
  {
    // JP2: the boxes opj_compress writes, against what T.800 Annex I says
    // they must hold for this image.
    const std::string out = g_temp + "/c.jp2";
    if (compress(rgb, out, "-n 2")) {
      const Bytes b = read_file(out);
      CHECK(detect_j2k_format(b.data(), b.size()) == J2kFormat::Jp2);
      try {
        const Jp2Info info = read_jp2(b.data(), b.size());
        CHECK(info.width == 200 && info.height == 150 && info.components == 3 && info.bits_per_component == 7);
        CHECK(info.colour_method == 1 && info.enumerated_colourspace == std::uint32_t(Jp2Colourspace::Srgb));
        const Header h = read_header(b.data() + info.codestream.offset, info.codestream.length);
        CHECK(h.grid.x1 == 200 && h.grid.components.size() == 3);
      } catch (const cf::Error &e) {
        CHECK_MSG(false, "opj_compress's JP2: %s", e.what());
      }
    }
  }
}

// ---------------------------------------------------------------------------
// (c) Streams written by hand (T.800 Annex A field tables).

struct Writer {
  Bytes b;
  void u8(std::uint32_t v) { b.push_back(std::uint8_t(v)); }
  void u16(std::uint32_t v) { u8(v >> 8), u8(v); }
  void u32(std::uint32_t v) { u16(v >> 16), u16(v); }
  void bytes(const Bytes &v) { b.insert(b.end(), v.begin(), v.end()); }
  // Marker, Lxxx = 2 + body, body.
  void segment(std::uint32_t marker, const Bytes &body) {
    u16(marker);
    u16(std::uint32_t(body.size() + 2));
    bytes(body);
  }
};

struct Siz {
  std::uint32_t x1 = 64, y1 = 64, x0 = 0, y0 = 0, tw = 32, th = 32, tx0 = 0, ty0 = 0;
  std::uint32_t csiz = 3;
  std::vector<std::uint8_t> ssiz = {7, 7, 7};
  std::uint32_t xr = 1, yr = 1;
};

static Bytes siz_body(const Siz &s) {
  Writer w;
  w.u16(0);
  for (std::uint32_t v : {s.x1, s.y1, s.x0, s.y0, s.tw, s.th, s.tx0, s.ty0}) w.u32(v);
  w.u16(s.csiz);
  for (std::uint8_t d : s.ssiz) w.u8(d), w.u8(s.xr), w.u8(s.yr);
  return w.b;
}

// COD: Scod, progression, layers, mct, NL, xcb - 2, ycb - 2, style, transform, precincts.
static Bytes cod_body(std::uint32_t scod, std::uint32_t order, std::uint32_t layers, std::uint32_t mct,
                      std::uint32_t levels, std::uint32_t xcb, std::uint32_t ycb, std::uint32_t style,
                      std::uint32_t transform, const Bytes &precincts = {}) {
  Bytes b = {std::uint8_t(scod),  std::uint8_t(order),    std::uint8_t(layers >> 8), std::uint8_t(layers),
             std::uint8_t(mct),   std::uint8_t(levels),   std::uint8_t(xcb - 2),     std::uint8_t(ycb - 2),
             std::uint8_t(style), std::uint8_t(transform)};
  for (std::uint8_t p : precincts) b.push_back(p);
  return b;
}

// QCD without quantisation, guard bits 2, for NL = 1: 4 exponents.
static Bytes qcd_none_1() { return {0x40, 8 << 3, 9 << 3, 9 << 3, 10 << 3}; }

static Writer main_header(const Siz &s = Siz()) {
  Writer w;
  w.u16(0xFF4F);
  w.segment(0xFF51, siz_body(s));
  w.segment(0xFF52, cod_body(0, 0, 1, 0, 1, 4, 4, 0, 1));
  w.segment(0xFF5C, qcd_none_1());
  return w;
}

// SOT (Lsot = 10) with Psot filled by end_part.
static std::size_t begin_part(Writer &w, std::uint32_t tile, std::uint32_t part, std::uint32_t parts) {
  const std::size_t at = w.b.size();
  w.u16(0xFF90);
  w.u16(10);
  w.u16(tile);
  w.u32(0);
  w.u8(part);
  w.u8(parts);
  return at;
}
static void end_part(Writer &w, std::size_t sot, const Bytes &data) {
  w.u16(0xFF93);
  w.bytes(data);
  const std::uint32_t psot = std::uint32_t(w.b.size() - sot);
  for (int i = 0; i < 4; ++i) w.b[sot + 6 + i] = std::uint8_t(psot >> (24 - 8 * i));
}

// QCD without quantisation, guard bits 2, for NL = 2: 7 exponents.
static Bytes qcd_none_2() { return {0x40, 8 << 3, 9 << 3, 9 << 3, 10 << 3, 9 << 3, 9 << 3, 10 << 3}; }

static Header read_or_fail(const Bytes &b, const char *what) {
  try {
    return read_header(b.data(), b.size());
  } catch (const cf::Error &e) {
    CHECK_MSG(false, "%s refused: %s", what, e.what());
    return Header();
  }
}

static void hand_written_streams() {
  // Four tiles, tile 1 in two tile-parts (the second ends the stream with
  // Psot = 0), tile 2 with its own COD, COC, QCD, QCC, RGN and POC; tile 3
  // has no tile-part. The main header has COC, QCC, RGN and POC too.
  Writer w;
  w.u16(0xFF4F);
  w.segment(0xFF51, siz_body(Siz()));
  w.segment(0xFF52, cod_body(0x6, 2, 5, 1, 1, 4, 4, 0, 1));       // SOP, EPH, RPCL, 5 layers, MCT, NL 1, 16 x 16, 5/3
  w.segment(0xFF53, {1, 1, 2, 3, 5, 0x08, 1, 0x22, 0x33, 0x44});  // COC comp 1: NL 2, 32 x 128, precincts
  w.segment(0xFF5C, qcd_none_2());                                // QCD: 7 bands (component 1's NL)
  w.segment(0xFF5D, {2, 0x21, 0x48, 0x00});                       // QCC comp 2: derived, guard 1, eps 9
  w.segment(0xFF5E, {0, 0, 7});                                   // RGN comp 0: shift 7
  w.segment(0xFF5F, {0, 0, 0, 3, 2, 3, 4, 1, 1, 0, 5, 2, 0, 1});  // POC, 2 entries
  w.segment(0xFF64, {0, 1, 'h', 'i'});                            // COM
  w.u16(0xFF30);                                                  // a marker alone
  w.segment(0xFF70, {1, 2, 3});                                   // an unknown segment
  std::size_t sot = begin_part(w, 0, 0, 1);
  end_part(w, sot, {0xAA, 0xBB});
  sot = begin_part(w, 2, 0, 0);
  w.segment(0xFF52, cod_body(0, 1, 2, 0, 0, 6, 5, 0x11, 0));     // RLCP, 2 layers, NL 0, 64 x 32, style 0x11, 9/7
  w.segment(0xFF53, {0, 0, 1, 3, 3, 0, 1});                      // COC comp 0: NL 1, 32 x 32, 5/3
  w.segment(0xFF5C, {0x02 | 0x20, 0x40, 0x12});                  // QCD: expounded, guard 1, one band
  w.segment(0xFF5D, {0, 0x20, 1 << 3, 2 << 3, 3 << 3, 4 << 3});  // QCC comp 0: none, guard 1, 4 bands
  w.segment(0xFF5E, {1, 0, 3});                                  // RGN comp 1: shift 3
  w.segment(0xFF5F, {0, 1, 0, 1, 1, 2, 3});                      // POC
  w.segment(0xFF58, {0, 5});                                     // PLT
  end_part(w, sot, {1, 2, 3});
  sot = begin_part(w, 1, 0, 2);
  end_part(w, sot, {4});
  begin_part(w, 1, 1, 2);  // Psot = 0: up to EOC
  w.u16(0xFF93);
  const std::size_t last_data = w.b.size();
  w.bytes({9, 8, 7});
  w.u16(0xFFD9);
  const Header h = read_or_fail(w.b, "hand-written stream");
  if (h.tiles.size() != 4) {
    CHECK(h.tiles.size() == 4);
    return;
  }
  CHECK(h.grid.tiles_x == 2 && h.grid.tiles_y == 2);
  CHECK(h.tiles[0].parts.size() == 1 && h.tiles[0].parts[0].length == 2 && w.b[h.tiles[0].parts[0].offset] == 0xAA);
  CHECK(h.tiles[1].parts.size() == 2 && h.tiles[1].parts[0].length == 1 && h.tiles[1].parts[1].offset == last_data &&
        h.tiles[1].parts[1].length == 3);
  CHECK(h.tiles[2].parts.size() == 1 && h.tiles[2].parts[0].length == 3 && h.tiles[3].parts.empty());
  CHECK(!h.tiles[0].headers_packed && h.tiles[0].packed.empty());
  check_parts(h, walk(w.b), "hand-written");
  {
    const ResolvedTile r = resolve(h, 0);  // the main header's segments alone
    CHECK(r.coding.sop && r.coding.eph && r.coding.progression == Progression::Rpcl && r.coding.layers == 5);
    CHECK(r.coding.mct);
    CHECK(r.components[0].levels == 1 && r.components[0].cb_width_exp == 4 && r.components[0].reversible);
    CHECK(r.components[0].precinct_width_exp == std::vector<std::uint8_t>({15, 15}));
    const ComponentCoding &c1 = r.components[1];
    CHECK(c1.levels == 2 && c1.cb_width_exp == 5 && c1.cb_height_exp == 7 && c1.cb_style == 0x08 && c1.reversible);
    CHECK(c1.precinct_width_exp == std::vector<std::uint8_t>({2, 3, 4}));
    CHECK(c1.precinct_height_exp == std::vector<std::uint8_t>({2, 3, 4}));
    CHECK(r.components[2].levels == 1);
    // The QCD's 7 bands: the first 3 NL + 1 = 4 for the components of NL 1.
    CHECK(r.quant[0].style == QuantStyle::None && r.quant[0].guard_bits == 2 && r.quant[0].steps.size() == 4);
    CHECK(r.quant[0].steps[0].exponent == 8 && r.quant[0].steps[3].exponent == 10);
    CHECK(r.quant[1].steps.size() == 7 && r.quant[1].steps[6].exponent == 10);
    CHECK(r.quant[2].style == QuantStyle::Derived && r.quant[2].guard_bits == 1 && r.quant[2].steps.size() == 1);
    CHECK(r.quant[2].steps[0].exponent == 9 && r.quant[2].steps[0].mantissa == 0);
    CHECK(r.roi_shift == std::vector<std::uint32_t>({7, 0, 0}));
    CHECK(r.poc.size() == 2);
    if (r.poc.size() == 2) {
      CHECK(r.poc[0].resolution_start == 0 && r.poc[0].component_start == 0 && r.poc[0].layer_end == 3 &&
            r.poc[0].resolution_end == 2 && r.poc[0].component_end == 3 && r.poc[0].order == Progression::Cprl);
      // CEpoc = 0 is 256 (8 bits), every component from CSpoc on.
      CHECK(r.poc[1].resolution_start == 1 && r.poc[1].component_start == 1 && r.poc[1].layer_end == 5 &&
            r.poc[1].resolution_end == 2 && r.poc[1].component_end == 3 && r.poc[1].order == Progression::Rlcp);
    }
    const ResolvedTile m = resolve_main(h);
    CHECK(m.components[1].levels == 2 && m.roi_shift[0] == 7 && m.poc.size() == 2);
  }
  {
    // Tile 2: tile COC > tile COD > main COC > main COD; QCC > QCD likewise.
    const ResolvedTile r = resolve(h, 2);
    CHECK(!r.coding.sop && !r.coding.eph && r.coding.progression == Progression::Rlcp && r.coding.layers == 2);
    CHECK(!r.coding.mct);
    CHECK(r.components[0].levels == 1 && r.components[0].cb_width_exp == 5 && r.components[0].cb_height_exp == 5 &&
          r.components[0].reversible);
    for (int c : {1, 2})
      CHECK(r.components[c].levels == 0 && r.components[c].cb_width_exp == 6 && r.components[c].cb_height_exp == 5 &&
            r.components[c].cb_style == 0x11 && !r.components[c].reversible &&
            r.components[c].precinct_width_exp == std::vector<std::uint8_t>({15}));
    CHECK(r.quant[0].style == QuantStyle::None && r.quant[0].guard_bits == 1 && r.quant[0].steps.size() == 4 &&
          r.quant[0].steps[2].exponent == 3);
    for (int c : {1, 2})
      CHECK(r.quant[c].style == QuantStyle::Expounded && r.quant[c].guard_bits == 1 && r.quant[c].steps.size() == 1 &&
            r.quant[c].steps[0].exponent == 8 && r.quant[c].steps[0].mantissa == 0x12);
    CHECK(r.roi_shift == std::vector<std::uint32_t>({7, 3, 0}));
    CHECK(r.poc.size() == 1 && r.poc[0].component_start == 1 && r.poc[0].component_end == 2 &&
          r.poc[0].resolution_end == 1 && r.poc[0].layer_end == 1 && r.poc[0].order == Progression::Pcrl);
  }
  hostile(w.b, "hand-written");

  // Psot past the end of the data: the truncated last tile-part keeps what
  // is there.
  {
    Writer t = main_header();
    const std::size_t s = begin_part(t, 3, 0, 1);
    end_part(t, s, {1, 2, 3, 4, 5, 6});
    t.b.resize(t.b.size() - 2);
    const Header c = read_or_fail(t.b, "stream cut in its data");
    CHECK(c.tiles.size() == 4 && c.tiles[3].parts.size() == 1 && c.tiles[3].parts[0].length == 4 &&
          c.tiles[3].parts[0].offset + 4 == t.b.size());
  }
  // Cut inside a tile-part header: that tile-part is dropped, the ones
  // before it kept.
  {
    Writer t = main_header();
    std::size_t s = begin_part(t, 0, 0, 1);
    end_part(t, s, {1});
    s = begin_part(t, 1, 0, 1);
    t.segment(0xFF64, {0, 1, 'a', 'b', 'c'});
    const std::size_t cut = t.b.size() - 2;
    end_part(t, s, {1});
    t.b.resize(cut);
    const Header c = read_or_fail(t.b, "stream cut in a tile-part header");
    CHECK(c.tiles.size() == 4 && c.tiles[0].parts.size() == 1 && c.tiles[1].parts.empty());
  }
}

// PPM in two segments, the second Nppm split across them: each tile-part
// gets its chunk, in codestream order (T.800 A.7.4).
static void packed_headers() {
  {
    Writer w = main_header();
    // Chunks: tile-part 0: {0xA1, 0xA2}, tile-part 1: {}, tile-part 2: {0xC1, 0xC2, 0xC3}.
    w.segment(0xFF60, {0, 0, 0, 0, 2, 0xA1, 0xA2, 0, 0, 0, 0, 0, 0});
    w.segment(0xFF60, {1, 0, 3, 0xC1, 0xC2, 0xC3});
    std::size_t s = begin_part(w, 2, 0, 2);
    end_part(w, s, {1});
    s = begin_part(w, 0, 0, 1);
    end_part(w, s, {2});
    s = begin_part(w, 2, 1, 2);
    end_part(w, s, {3});
    w.u16(0xFFD9);
    const Header h = read_or_fail(w.b, "PPM stream");
    if (h.tiles.size() == 4) {
      CHECK(h.tiles[2].headers_packed && h.tiles[2].packed == Bytes({0xA1, 0xA2, 0xC1, 0xC2, 0xC3}));
      CHECK(h.tiles[0].headers_packed && h.tiles[0].packed.empty());
      CHECK(h.tiles[2].parts.size() == 2 && h.tiles[0].parts.size() == 1);
    }
    hostile(w.b, "PPM");
    // A fourth tile-part has no chunk.
    Writer more = w;
    more.b.resize(more.b.size() - 2);
    s = begin_part(more, 1, 0, 1);
    end_part(more, s, {4});
    check_refused(more.b, "PPM gives packet headers for 3 tile-parts", "PPM short of tile-parts");
    // Zppm out of order.
    Writer z = main_header();
    z.segment(0xFF60, {1, 0, 0, 0, 0});
    s = begin_part(z, 0, 0, 1);
    end_part(z, s, {});
    check_refused(z.b, "Zppm", "PPM Zppm out of order");
    // PPM and PPT together.
    Writer both = main_header();
    both.segment(0xFF60, {0, 0, 0, 0, 0});
    s = begin_part(both, 0, 0, 1);
    both.segment(0xFF61, {0, 1});
    end_part(both, s, {});
    check_refused(both.b, "PPT", "PPM and PPT");
  }
  {
    // PPT: Zppt 0 and 1 in the first tile-part, 2 in the second.
    Writer w = main_header();
    std::size_t s = begin_part(w, 1, 0, 0);
    w.segment(0xFF61, {0, 0x11, 0x12});
    w.segment(0xFF61, {1, 0x13});
    end_part(w, s, {5, 6});
    s = begin_part(w, 1, 1, 0);
    w.segment(0xFF61, {2, 0x14});
    end_part(w, s, {7});
    const Header h = read_or_fail(w.b, "PPT stream");
    if (h.tiles.size() == 4) {
      CHECK(h.tiles[1].headers_packed && h.tiles[1].packed == Bytes({0x11, 0x12, 0x13, 0x14}));
      CHECK(!h.tiles[0].headers_packed && h.tiles[1].parts.size() == 2);
    }
    hostile(w.b, "PPT");
    Writer z = main_header();
    s = begin_part(z, 1, 0, 0);
    z.segment(0xFF61, {1, 0x11});
    end_part(z, s, {});
    check_refused(z.b, "Zppt", "PPT Zppt out of order");
  }
}

// One stream per rule of T.800 the reader enforces, each refused with a
// message naming the field.
static void refused_rules() {
  auto with_siz = [](const Siz &s) {
    Writer w = main_header(s);
    const std::size_t sot = begin_part(w, 0, 0, 1);
    end_part(w, sot, {});
    return w.b;
  };
  check_refused({0xFF, 0x51}, "SOC", "no SOC");
  check_refused({}, "SOC", "empty");
  {
    Writer w;
    w.u16(0xFF4F);
    w.segment(0xFF52, cod_body(0, 0, 1, 0, 1, 4, 4, 0, 1));
    check_refused(w.b, "SIZ must follow SOC", "COD before SIZ");
  }
  Siz s;
  s.csiz = 0, s.ssiz = {};
  check_refused(with_siz(s), "Csiz = 0", "Csiz 0");
  s = Siz(), s.csiz = 4;
  check_refused(with_siz(s), "Lsiz", "Csiz beyond Lsiz");
  s = Siz(), s.ssiz = {7, 38, 7};
  check_refused(with_siz(s), "bit depth 39", "depth 39");
  s = Siz(), s.xr = 0;
  check_refused(with_siz(s), "XRsiz", "XRsiz 0");
  s = Siz(), s.yr = 0;
  check_refused(with_siz(s), "YRsiz", "YRsiz 0");
  s = Siz(), s.x0 = 64;
  check_refused(with_siz(s), "Xsiz", "empty image");
  s = Siz(), s.tw = 0;
  check_refused(with_siz(s), "XTsiz", "XTsiz 0");
  s = Siz(), s.x0 = 10, s.tx0 = 11;
  check_refused(with_siz(s), "XTOsiz", "XTOsiz > XOsiz");
  s = Siz(), s.y0 = 40, s.y1 = 80, s.th = 32;
  check_refused(with_siz(s), "YTOsiz", "first tile misses the image");
  s = Siz(), s.x1 = 1000, s.y1 = 1000, s.tw = 3, s.th = 3;
  check_refused(with_siz(s), "65535", "too many tiles");
  {
    // SIZ claiming 16384 components of 2^31 x 2^31 in a small buffer.
    Writer w;
    w.u16(0xFF4F);
    w.u16(0xFF51);
    w.u16(38 + 3 * 16384);  // Lsiz = 49190
    w.u16(0);
    for (std::uint32_t v : {0x80000000u, 0x80000000u, 0u, 0u, 0x80000000u, 0x80000000u, 0u, 0u}) w.u32(v);
    w.u16(16384);
    for (int i = 0; i < 30; ++i) w.u8(7);
    check_refused(w.b, "past the end of the data", "huge SIZ, small buffer");
    // The same with an Lsiz that fits the buffer: Lsiz does not match Csiz.
    w.b[4] = 0, w.b[5] = std::uint8_t(w.b.size() - 4);
    check_refused(w.b, "Lsiz", "huge SIZ, Lsiz of the buffer");
  }
  auto with_cod = [](const Bytes &cod) {
    Writer w;
    w.u16(0xFF4F);
    w.segment(0xFF51, siz_body(Siz()));
    w.segment(0xFF52, cod);
    w.segment(0xFF5C, qcd_none_1());
    const std::size_t sot = begin_part(w, 0, 0, 1);
    end_part(w, sot, {});
    return w.b;
  };
  check_refused(with_cod(cod_body(0, 0, 1, 0, 33, 4, 4, 0, 1)), "NL = 33", "33 levels");
  check_refused(with_cod(cod_body(0, 0, 1, 0, 1, 11, 2, 0, 1)), "xcb = 11", "xcb 11");
  check_refused(with_cod(cod_body(0, 0, 1, 0, 1, 7, 6, 0, 1)), "xcb + ycb = 13", "xcb + ycb 13");
  check_refused(with_cod(cod_body(0, 0, 0, 0, 1, 4, 4, 0, 1)), "layers = 0", "0 layers");
  check_refused(with_cod(cod_body(0, 5, 1, 0, 1, 4, 4, 0, 1)), "progression order = 5", "progression 5");
  check_refused(with_cod(cod_body(0, 0, 1, 2, 1, 4, 4, 0, 1)), "multiple component transformation", "mct 2");
  check_refused(with_cod(cod_body(0, 0, 1, 0, 1, 4, 4, 0x80, 1)), "code-block style", "style 0x80");
  check_refused(with_cod(cod_body(0, 0, 1, 0, 1, 4, 4, 0xC0, 1)), "mix HT and Part 1", "style 0xC0 (HT mixed)");
  check_refused(with_cod(cod_body(0, 0, 1, 0, 1, 4, 4, 0x41, 1)), "other than vertically causal", "style 0x41");
  check_refused(with_cod(cod_body(0, 0, 1, 0, 1, 4, 4, 0, 2)), "transformation = 2", "transform 2");
  check_refused(with_cod(cod_body(0x8, 0, 1, 0, 1, 4, 4, 0, 1)), "Scod", "Scod bit 3");
  check_refused(with_cod(cod_body(1, 0, 1, 0, 1, 4, 4, 0, 1, {0x00, 0x50})), "resolution 1", "PPx 0 at r = 1");
  CHECK(header_error(with_cod(cod_body(1, 0, 1, 0, 1, 4, 4, 0, 1, {0x00, 0x55}))).empty());
  check_refused(with_cod(cod_body(1, 0, 1, 0, 1, 4, 4, 0, 1, {0x00})), "precinct size", "precincts cut");
  check_refused(with_cod(cod_body(0, 0, 1, 0, 1, 4, 4, 0, 1, {0x00})), "longer than its fields", "COD too long");

  auto with_main = [](std::uint32_t marker, const Bytes &body, Siz s = Siz()) {
    Writer w = main_header(s);
    w.segment(marker, body);
    const std::size_t sot = begin_part(w, 0, 0, 1);
    end_part(w, sot, {});
    return w.b;
  };
  check_refused(with_main(0xFF53, {3, 0, 1, 4, 4, 0, 1}), "Ccoc = 3", "Ccoc >= Csiz");
  check_refused(with_main(0xFF53, {0, 2, 1, 4, 4, 0, 1}), "Scoc", "Scoc bit 1");
  check_refused(with_main(0xFF5D, {3, 0x40, 8}), "Cqcc = 3", "Cqcc >= Csiz");
  check_refused(with_main(0xFF5D, {0, 0x40, 8, 8}), "3 NL + 1", "QCC none, 2 bands");
  check_refused(with_main(0xFF5D, {0, 0x42, 8, 8, 8}), "3 NL + 1", "QCC expounded, odd bytes");
  check_refused(with_main(0xFF5D, {0, 0x41, 8, 8, 8, 8}), "derived", "QCC derived, 4 bytes");
  check_refused(with_main(0xFF5D, {0, 0x43, 8, 8}), "quantisation style = 3", "QCC style 3");
  check_refused(with_main(0xFF5E, {3, 0, 1}), "Crgn = 3", "Crgn >= Csiz");
  check_refused(with_main(0xFF5E, {0, 1, 1}), "Srgn", "Srgn 1");
  check_refused(with_main(0xFF5F, {0, 0, 0, 1, 1, 3}), "multiple of 7", "POC 6 bytes");
  check_refused(with_main(0xFF5F, {1, 0, 0, 1, 1, 3, 0}), "REpoc", "REpoc <= RSpoc");
  check_refused(with_main(0xFF5F, {0, 3, 0, 1, 1, 3, 0}), "CSpoc = 3", "CSpoc >= Csiz");
  check_refused(with_main(0xFF5F, {0, 2, 0, 1, 1, 2, 0}), "CEpoc", "CEpoc <= CSpoc");
  check_refused(with_main(0xFF5F, {0, 0, 0, 0, 1, 3, 0}), "LYEpoc", "LYEpoc 0");
  check_refused(with_main(0xFF5F, {0, 0, 0, 1, 1, 3, 5}), "Ppoc", "Ppoc 5");
  check_refused(with_main(0xFF52, cod_body(0, 0, 1, 0, 1, 4, 4, 0, 1)), "second COD", "two COD");
  check_refused(with_main(0xFF5C, qcd_none_1()), "second QCD", "two QCD");
  CHECK(header_error(with_main(0xFF64, {0, 1, 'a'})).empty());
  {
    // 257 components: Ccoc, Cqcc, Crgn, CSpoc and CEpoc are 16 bits.
    Siz big;
    big.csiz = 257;
    big.ssiz.assign(257, 7);
    CHECK(header_error(with_main(0xFF53, {0x01, 0x00, 0, 1, 4, 4, 0, 1}, big)).empty());
    check_refused(with_main(0xFF53, {0x01, 0x01, 0, 1, 4, 4, 0, 1}, big), "Ccoc = 257", "Ccoc 257 of 257");
    check_refused(with_main(0xFF53, {0x01, 0, 1, 4, 4, 0, 1}, big), "Lxxx too short", "8-bit Ccoc with 257 components");
    const Header h = read_or_fail(with_main(0xFF5F, {0, 0, 1, 0, 1, 2, 0x01, 0x01, 2}, big), "16-bit POC");
    CHECK(h.main.poc.size() == 1 && h.main.poc[0].component_end == 257 && h.main.poc[0].order == Progression::Rpcl);
  }
  {
    Writer w;
    w.u16(0xFF4F);
    w.segment(0xFF51, siz_body(Siz()));
    w.segment(0xFF5C, qcd_none_1());
    const std::size_t sot = begin_part(w, 0, 0, 1);
    end_part(w, sot, {});
    check_refused(w.b, "no COD", "no COD");
  }
  {
    // Lxxx lying past the end of the data in the main header.
    Writer w = main_header();
    w.u16(0xFF64);
    w.u16(200);
    w.u16(1);
    check_refused(w.b, "past the end of the data", "COM longer than the data");
    Writer l = main_header();
    l.u16(0xFF64);
    l.u16(1);
    check_refused(l.b, "Lxxx = 1", "Lxxx 1");
    Writer cut = main_header();
    check_refused(cut.b, "ends in the main header", "no SOT");
  }
  // Tile-part rules.
  auto parts = [](std::function<void(Writer &)> add) {
    Writer w = main_header();
    add(w);
    return w.b;
  };
  check_refused(parts([](Writer &w) {
                  const std::size_t s = begin_part(w, 4, 0, 1);
                  end_part(w, s, {});
                }),
                "Isot = 4", "Isot beyond the tiles");
  check_refused(parts([](Writer &w) {
                  const std::size_t s = begin_part(w, 0, 1, 2);
                  end_part(w, s, {});
                }),
                "TPsot = 1", "TPsot 1 first");
  check_refused(parts([](Writer &w) {
                  const std::size_t s = begin_part(w, 0, 2, 2);
                  end_part(w, s, {});
                }),
                "TPsot", "TPsot >= TNsot");
  check_refused(parts([](Writer &w) {
                  std::size_t s = begin_part(w, 0, 0, 2);
                  end_part(w, s, {});
                  s = begin_part(w, 0, 1, 3);
                  end_part(w, s, {});
                }),
                "TNsot = 3", "TNsot changes");
  check_refused(parts([](Writer &w) {
                  std::size_t s = begin_part(w, 0, 0, 2);
                  end_part(w, s, {});
                  s = begin_part(w, 0, 1, 2);
                  w.segment(0xFF52, cod_body(0, 0, 1, 0, 1, 4, 4, 0, 1));
                  end_part(w, s, {});
                }),
                "first tile-part", "COD in tile-part 1");
  check_refused(parts([](Writer &w) {
                  const std::size_t s = begin_part(w, 0, 0, 1);
                  w.segment(0xFF64, {0, 1, 'a', 'b', 'c', 'd'});
                  end_part(w, s, {});
                  w.b[s + 9] = 14;  // Psot = 14: ends inside the COM
                }),
                "Psot", "segment past Psot");
  check_refused(parts([](Writer &w) {
                  const std::size_t s = begin_part(w, 0, 0, 1);
                  end_part(w, s, {});
                  w.b[s + 3] = 11;  // Lsot = 11
                }),
                "Lsot", "Lsot 11");
  check_refused(parts([](Writer &w) {
                  const std::size_t s = begin_part(w, 0, 0, 1);
                  end_part(w, s, {});
                  w.b[s + 9] = 12;  // Psot = 12
                }),
                "Psot = 12", "Psot 12");
  check_refused(parts([](Writer &w) {
                  const std::size_t s = begin_part(w, 0, 0, 1);
                  end_part(w, s, {});
                  w.u16(0xFF64);
                }),
                "expected SOT or EOC", "junk after a tile-part");
  {
    // resolve(): the main QCD's 4 bands cannot serve a COC of NL 2.
    Writer w = main_header();
    w.segment(0xFF53, {1, 0, 2, 4, 4, 0, 1});
    const std::size_t s = begin_part(w, 0, 0, 1);
    end_part(w, s, {});
    const Header h = read_or_fail(w.b, "COC NL 2 with QCD of NL 1");
    std::string e;
    try {
      resolve(h, 0);
    } catch (const cf::Error &x) {
      e = x.what();
    }
    CHECK_MSG(contains(e, "component 1") && contains(e, "3 NL + 1 = 7"), "got \"%s\"", e.c_str());
    try {
      resolve(h, 4);
      CHECK(false);
    } catch (const cf::Error &) {
    }
  }
}

// ---------------------------------------------------------------------------
// (d) JP2 boxes (T.800 Annex I).

static void box(Writer &w, const char *type, const Bytes &contents) {
  w.u32(std::uint32_t(8 + contents.size()));
  for (int i = 0; i < 4; ++i) w.u8(std::uint8_t(type[i]));
  w.bytes(contents);
}

static Bytes jp2_boxes(const Bytes &codestream, int jp2c_form, const Bytes &colr) {
  Writer w;
  box(w, "jP  ", {0x0D, 0x0A, 0x87, 0x0A});
  box(w, "ftyp", {'j', 'p', '2', ' ', 0, 0, 0, 0, 'j', 'p', '2', ' '});
  Writer h;
  box(h, "ihdr", {0, 0, 0, 64, 0, 0, 0, 64, 0, 3, 7, 7, 0, 0});  // 64 x 64, 3 components of 8 bits
  box(h, "colr", colr);
  box(w, "jp2h", h.b);
  box(w, "free", {1, 2, 3});
  if (jp2c_form == 0) {
    box(w, "jp2c", codestream);
  } else if (jp2c_form == 1) {  // XLBox
    w.u32(1);
    for (char c : {'j', 'p', '2', 'c'}) w.u8(std::uint8_t(c));
    w.u32(0);
    w.u32(std::uint32_t(16 + codestream.size()));
    w.bytes(codestream);
  } else {  // LBox 0: to the end of the file
    w.u32(0);
    for (char c : {'j', 'p', '2', 'c'}) w.u8(std::uint8_t(c));
    w.bytes(codestream);
  }
  return w.b;
}

static std::string jp2_error(const Bytes &b) {
  try {
    read_jp2(b.data(), b.size());
    return "";
  } catch (const cf::Error &e) {
    return e.what();
  }
}

static void jp2_files() {
  Writer cs = main_header();
  const std::size_t s = begin_part(cs, 0, 0, 1);
  end_part(cs, s, {1, 2});
  cs.u16(0xFFD9);
  CHECK(detect_j2k_format(cs.b.data(), cs.b.size()) == J2kFormat::Codestream);
  const Bytes srgb = {1, 0, 0, 0, 0, 0, 16};
  for (int form = 0; form < 3; ++form) {
    const Bytes f = jp2_boxes(cs.b, form, srgb);
    CHECK(detect_j2k_format(f.data(), f.size()) == J2kFormat::Jp2);
    try {
      const Jp2Info info = read_jp2(f.data(), f.size());
      CHECK(info.width == 64 && info.height == 64 && info.components == 3 && info.bits_per_component == 7);
      CHECK(!info.colourspace_unknown && !info.intellectual_property);
      CHECK(info.colour_method == 1 && info.enumerated_colourspace == 16 && !info.icc_profile);
      CHECK(info.codestream.length == cs.b.size() && info.codestream.offset + cs.b.size() == f.size());
      CHECK(Bytes(f.begin() + info.codestream.offset, f.end()) == cs.b);
    } catch (const cf::Error &e) {
      CHECK_MSG(false, "JP2 form %d: %s", form, e.what());
    }
    // Cut anywhere: refused (except inside an LBox-0 codestream, which
    // runs to the end by definition).
    const std::size_t limit = form == 2 ? f.size() - cs.b.size() : f.size();
    for (std::size_t at = 0; at < limit; ++at) {
      const std::string e = jp2_error(Bytes(f.begin(), f.begin() + at));
      CHECK_MSG(contains(e, "JP2 file: "), "JP2 form %d cut at %zu: \"%s\"", form, at, e.c_str());
    }
  }
  {
    const Bytes f = jp2_boxes(cs.b, 0, {2, 0, 0, 'I', 'C', 'C'});  // METH 2: a profile
    const Jp2Info info = read_jp2(f.data(), f.size());
    CHECK(info.colour_method == 2 && info.icc_profile);
  }
  auto refused = [](const Bytes &f, const char *part, const char *what) {
    const std::string e = jp2_error(f);
    CHECK_MSG(contains(e, part) && contains(e, "JP2 file: "), "%s: got \"%s\"", what, e.c_str());
  };
  refused(cs.b, "signature", "a codestream");
  Bytes f = jp2_boxes(cs.b, 0, {3, 0, 0, 0, 0, 0, 16});
  refused(f, "METH = 3", "colr METH 3");
  f = jp2_boxes(cs.b, 0, srgb);
  f[12 + 16 + 2] = 'x';  // the ftyp's CL entry: 'jpx '
  refused(f, "'jp2 '", "no jp2 compatibility");
  f = jp2_boxes(cs.b, 0, srgb);
  f[12 + 3] = 5;  // ftyp LBox = 5
  refused(f, "LBox = 5", "LBox 5");
  f = jp2_boxes(cs.b, 0, srgb);
  const std::size_t ihdr = 12 + 20 + 8;
  f[ihdr + 8 + 11] = 6;  // C = 6
  refused(f, "C = 6", "ihdr C 6");
  f = jp2_boxes(cs.b, 0, srgb);
  f[ihdr + 8 + 9] = 0;  // NC = 0
  refused(f, "NC = 0", "ihdr NC 0");
  {
    Writer w;
    box(w, "jP  ", {0x0D, 0x0A, 0x87, 0x0A});
    box(w, "ftyp", {'j', 'p', '2', ' ', 0, 0, 0, 0, 'j', 'p', '2', ' '});
    box(w, "jp2c", cs.b);
    refused(w.b, "jp2c before jp2h", "no jp2h");
  }
}

// ---------------------------------------------------------------------------

int main() {
  g_temp = (fs::temp_directory_path() / ("cf_j2k_header_" + std::to_string(::getpid()))).string();
  fs::create_directories(g_temp);
  hand_written_streams();
  packed_headers();
  refused_rules();
  jp2_files();
  conformance_streams();
  opj_compress_streams();
  fs::remove_all(g_temp);
  return cft::test_result();
}
