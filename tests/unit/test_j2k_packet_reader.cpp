// JPEG 2000 tier-2 decoding (core/codec/j2k_packet_reader.hpp,
// core/codec/j2k_packet_order.hpp, core/codec/j2k_tile_plan.hpp):
//  1. the header bit reader's unstuffing after 0xFF (T.800 B.10.1), by hand;
//  2. tag trees (B.10.2): the bits the encoder's tag tree writes for random
//     grids over rising thresholds, read back to the same answers;
//  3. Table B.4's codewords read back for 1..164 passes;
//  4. the packet order of the five progressions and of POC volumes against
//     B.12's loops written out literally (every grid point of the tile
//     visited), on tiles with offsets, subsampling by 1, 2 and 3, different
//     levels per component, and precincts of several sizes;
//  5. every conformance stream (CF_J2K_CONFORMANCE; skipped without it):
//     the packets of every tile read without a problem, ending exactly at
//     the end of the tile's data (a misread header shifts every packet
//     after it).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "core/codec/j2k_header.hpp"
#include "core/codec/j2k_packet_order.hpp"
#include "core/codec/j2k_packet_reader.hpp"
#include "core/codec/j2k_tier2.hpp"

using namespace cf::j2k;

static void bit_reader() {
  // 0xFF, then 0x40 with its stuffed top bit, then 0xA5.
  const std::uint8_t b[] = {0xFF, 0x40, 0xA5, 0x11};
  PacketBitReader in(b, sizeof b);
  CHECK(in.bits(8) == 0xFF);
  CHECK(in.bits(7) == 0x40);  // 100 0000: the 7 low bits of 0x40
  CHECK(in.bits(8) == 0xA5);
  CHECK(in.finish() == 3);
  // A header ending in 0xFF owns the next byte too.
  const std::uint8_t c[] = {0x12, 0xFF, 0x00, 0x77};
  PacketBitReader in2(c, sizeof c);
  CHECK(in2.bits(16) == 0x12FF);
  CHECK(in2.finish() == 3);
  // Past the end: PacketTruncated.
  PacketBitReader in3(b, 1);
  bool threw = false;
  try {
    in3.bits(9);
  } catch (const PacketTruncated &) {
    threw = true;
  }
  CHECK(threw);
}

static void tag_trees() {
  std::mt19937 rng(5);
  int checked = 0;
  for (int round = 0; round < 200; ++round) {
    const std::uint32_t w = 1 + rng() % 9, h = 1 + rng() % 7;
    std::vector<std::uint32_t> values(std::size_t(w) * h);
    for (auto &v : values) v = rng() % 6;
    TagTree enc(w, h, values);
    PacketBitWriter out;
    // Thresholds rising over "packets", each leaf asked in raster order.
    std::vector<bool> answers;
    for (std::uint32_t t = 1; t <= 7; ++t)
      for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) answers.push_back(enc.encode(out, x, y, t));
    const std::vector<std::uint8_t> bytes = out.finish();
    TagTreeDecoder dec(w, h);
    PacketBitReader in(bytes.data(), bytes.size());
    std::size_t k = 0;
    for (std::uint32_t t = 1; t <= 7; ++t)
      for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x, ++k) {
          const bool below = dec.below(in, x, y, t);
          CHECK(below == answers[k]);
          CHECK(below == (values[std::size_t(y) * w + x] < t));
          ++checked;
        }
  }
  std::printf("tag trees: %d answers read back\n", checked);
}

// Trees on both sides of TagTreeDecoder::kDenseLeaves (above it only the
// nodes whose bits were read are kept), asked as tier-2 asks them: after a
// leaf that is not below the threshold, the leaves after it in its row
// under the node below() names are not asked. Every leaf under that node
// must be at least the threshold, and every answer read must be the
// encoder's: a leaf passed over that needed a bit would shift every later
// one.
static void tag_trees_passed_over() {
  std::mt19937 rng(9);
  int asked = 0, passed = 0, sparse = 0;
  for (int round = 0; round < 40; ++round) {
    const std::uint32_t w = 8 + rng() % 72, h = 8 + rng() % 48;
    sparse += std::uint64_t(w) * h > TagTreeDecoder::kDenseLeaves;
    std::vector<std::uint32_t> values(std::size_t(w) * h);
    for (auto &v : values) v = rng() % 16 == 0 ? rng() % 3 : 3 + rng() % 5;
    TagTree enc(w, h, values);
    PacketBitWriter out;
    for (std::uint32_t t = 1; t <= 8; ++t)
      for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) enc.encode(out, x, y, t);
    const std::vector<std::uint8_t> bytes = out.finish();
    TagTreeDecoder dec(w, h);
    PacketBitReader in(bytes.data(), bytes.size());
    for (std::uint32_t t = 1; t <= 8; ++t)
      for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w;) {
          int level = -1;
          const bool below = dec.below(in, x, y, t, &level);
          ++asked;
          CHECK_MSG(below == (values[std::size_t(y) * w + x] < t),
                    "%ux%u tree, leaf (%u, %u), threshold %u: answer not the encoder's", w, h, x, y, t);
          if (below || level < 0) {
            CHECK_MSG(below, "%ux%u tree, leaf (%u, %u), threshold %u: no level for a leaf not below", w, h, x, y, t);
            ++x;
            continue;
          }
          const std::uint32_t x0 = (x >> level) << level, y0 = (y >> level) << level, side = 1u << level;
          for (std::uint32_t j = y0; j < std::min(h, y0 + side); ++j)
            for (std::uint32_t i = x0; i < std::min(w, x0 + side); ++i)
              CHECK_MSG(values[std::size_t(j) * w + i] >= t,
                        "%ux%u tree, threshold %u: level %d over (%u, %u) holds leaf (%u, %u) of value %u", w, h, t,
                        level, x, y, i, j, values[std::size_t(j) * w + i]);
          const std::uint32_t next = std::min(w, x0 + side);
          passed += int(next - x - 1);
          x = next;
        }
  }
  CHECK_MSG(sparse >= 10 && passed * 4 > asked, "%d sparse trees, %d leaves passed over, %d asked", sparse, passed,
            asked);
  std::printf("tag trees passed over: %d leaves asked, %d passed over without a bit (%d trees kept sparse)\n", asked,
              passed, sparse);
}

static void passes_codewords() {
  for (std::uint32_t n = 1; n <= kMaxPassesPerPacket; ++n) {
    PacketBitWriter out;
    const PassesCode code = passes_codeword(n);
    out.bits(code.bits, code.length);
    const std::vector<std::uint8_t> bytes = out.finish();
    PacketBitReader in(bytes.data(), bytes.size());
    // Table B.4 read by hand here: 0; 10; 11xx; 1111 xxxxx; 1111 11111 xxxxxxx.
    std::uint32_t got;
    if (!in.bit())
      got = 1;
    else if (!in.bit())
      got = 2;
    else if (std::uint32_t a = in.bits(2); a != 3)
      got = 3 + a;
    else if (std::uint32_t b = in.bits(5); b != 31)
      got = 6 + b;
    else
      got = 37 + in.bits(7);
    CHECK(got == n);
  }
}

// ---------------------------------------------------------------------------
// Packet order against B.12's loops.

struct Geometry {
  std::uint32_t x0, y0, x1, y1, tile_x0, tile_y0, tile_w, tile_h;
  std::vector<std::pair<std::uint32_t, std::uint32_t>> subsampling;
  std::vector<std::uint32_t> levels;
  std::vector<std::vector<std::uint8_t>> ppx, ppy;  // per component, per resolution
};

static Header header_of(const Geometry &g) {
  Header h;
  h.grid.x0 = g.x0, h.grid.y0 = g.y0, h.grid.x1 = g.x1, h.grid.y1 = g.y1;
  h.grid.tile_x0 = g.tile_x0, h.grid.tile_y0 = g.tile_y0, h.grid.tile_width = g.tile_w, h.grid.tile_height = g.tile_h;
  h.grid.tiles_x = (g.x1 - g.tile_x0 + g.tile_w - 1) / g.tile_w;
  h.grid.tiles_y = (g.y1 - g.tile_y0 + g.tile_h - 1) / g.tile_h;
  for (auto [sx, sy] : g.subsampling) {
    Component c;
    c.subsample_x = sx;
    c.subsample_y = sy;
    h.grid.components.push_back(c);
  }
  h.tiles.resize(std::size_t(h.grid.tiles_x) * h.grid.tiles_y);
  return h;
}

static ResolvedTile coding_of(const Geometry &g, std::uint32_t layers, Progression order) {
  ResolvedTile t;
  t.coding.layers = layers;
  t.coding.progression = order;
  for (std::size_t c = 0; c < g.levels.size(); ++c) {
    ComponentCoding cc;
    cc.levels = g.levels[c];
    cc.cb_width_exp = 2;
    cc.cb_height_exp = 2;
    cc.precinct_width_exp = g.ppx[c];
    cc.precinct_height_exp = g.ppy[c];
    t.components.push_back(cc);
  }
  return t;
}

static std::uint64_t cdiv(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

// B.12.1: the five progressions over one volume, literally: every grid
// point of the tile for the position-driven ones.
static void literal_volume(const TilePlan &p, const Header &h, std::uint32_t r0, std::uint32_t r1, std::uint32_t c0,
                           std::uint32_t c1, std::uint32_t l1, Progression order, std::vector<std::uint32_t> &sent,
                           std::vector<PacketId> &out) {
  const auto emit = [&](std::uint32_t l, std::uint32_t c, std::uint32_t r, std::uint32_t k) {
    std::uint32_t &s = sent[p.components[c].resolutions[r].first_precinct + k];
    if (s == l) out.push_back({l, c, r, k}), ++s;
  };
  const auto exists = [&](std::uint32_t c, std::uint32_t r) {
    return c < p.components.size() && r <= p.components[c].levels;
  };
  std::uint32_t max_res = 0;
  for (const auto &pc : p.components) max_res = std::max(max_res, pc.levels + 1);
  r1 = std::min(r1, max_res);
  c1 = std::min<std::uint32_t>(c1, std::uint32_t(p.components.size()));
  if (order == Progression::Lrcp || order == Progression::Rlcp) {
    for (std::uint32_t a = 0; a < (order == Progression::Lrcp ? l1 : r1); ++a)
      for (std::uint32_t b = 0; b < (order == Progression::Lrcp ? r1 : l1); ++b) {
        const std::uint32_t l = order == Progression::Lrcp ? a : b, r = order == Progression::Lrcp ? b : a;
        if (r < r0) continue;
        for (std::uint32_t c = c0; c < c1; ++c)
          if (exists(c, r)) {
            const PlanResolution &res = p.components[c].resolutions[r];
            for (std::uint32_t k = 0; k < res.precincts_x * res.precincts_y; ++k) emit(l, c, r, k);
          }
      }
    return;
  }
  // The precinct of (c, r) that starts at (x, y), if any (B.12.1.3).
  const auto at = [&](std::uint32_t c, std::uint32_t r, std::uint64_t x, std::uint64_t y, std::uint32_t &k) {
    if (!exists(c, r)) return false;
    const PlanComponent &pc = p.components[c];
    const PlanResolution &res = pc.resolutions[r];
    if (res.precincts_x == 0) return false;
    const std::uint32_t n = pc.levels - r, ppx = res.precinct_width_exp, ppy = res.precinct_height_exp;
    const bool yok = y % (std::uint64_t(h.grid.components[c].subsample_y) << (ppy + n)) == 0 ||
                     (y == p.rect.y0 && ((std::uint64_t(res.rect.y0) << n) % (std::uint64_t(1) << (ppy + n))) != 0);
    const bool xok = x % (std::uint64_t(h.grid.components[c].subsample_x) << (ppx + n)) == 0 ||
                     (x == p.rect.x0 && ((std::uint64_t(res.rect.x0) << n) % (std::uint64_t(1) << (ppx + n))) != 0);
    if (!xok || !yok) return false;
    const std::uint64_t i =
        (cdiv(x, std::uint64_t(h.grid.components[c].subsample_x) << n) >> ppx) - (res.rect.x0 >> ppx);
    const std::uint64_t j =
        (cdiv(y, std::uint64_t(h.grid.components[c].subsample_y) << n) >> ppy) - (res.rect.y0 >> ppy);
    if (i >= res.precincts_x || j >= res.precincts_y) return false;
    k = std::uint32_t(j * res.precincts_x + i);
    return true;
  };
  std::uint32_t k;
  const Rect t = p.rect;
  if (order == Progression::Rpcl) {
    for (std::uint32_t r = r0; r < r1; ++r)
      for (std::uint64_t y = t.y0; y < t.y1; ++y)
        for (std::uint64_t x = t.x0; x < t.x1; ++x)
          for (std::uint32_t c = c0; c < c1; ++c)
            if (at(c, r, x, y, k))
              for (std::uint32_t l = 0; l < l1; ++l) emit(l, c, r, k);
  } else if (order == Progression::Pcrl) {
    for (std::uint64_t y = t.y0; y < t.y1; ++y)
      for (std::uint64_t x = t.x0; x < t.x1; ++x)
        for (std::uint32_t c = c0; c < c1; ++c)
          for (std::uint32_t r = r0; r < r1; ++r)
            if (at(c, r, x, y, k))
              for (std::uint32_t l = 0; l < l1; ++l) emit(l, c, r, k);
  } else {  // Cprl
    for (std::uint32_t c = c0; c < c1; ++c)
      for (std::uint64_t y = t.y0; y < t.y1; ++y)
        for (std::uint64_t x = t.x0; x < t.x1; ++x)
          for (std::uint32_t r = r0; r < r1; ++r)
            if (at(c, r, x, y, k))
              for (std::uint32_t l = 0; l < l1; ++l) emit(l, c, r, k);
  }
}

static void packet_orders() {
  std::mt19937 rng(11);
  int tiles = 0;
  std::size_t packets = 0;
  for (int round = 0; round < 60; ++round) {
    Geometry g;
    g.tile_x0 = rng() % 5, g.tile_y0 = rng() % 5;
    g.tile_w = 16 + rng() % 40, g.tile_h = 16 + rng() % 40;
    g.x0 = g.tile_x0 + rng() % 6, g.y0 = g.tile_y0 + rng() % 6;
    g.x1 = g.x0 + 10 + rng() % 70, g.y1 = g.y0 + 10 + rng() % 70;
    const std::uint32_t comps = 1 + rng() % 3;
    const std::pair<std::uint32_t, std::uint32_t> subs[] = {{1, 1}, {2, 1}, {3, 2}, {2, 2}};
    for (std::uint32_t c = 0; c < comps; ++c) {
      g.subsampling.push_back(subs[rng() % 4]);
      g.levels.push_back(rng() % 4);
      std::vector<std::uint8_t> px, py;
      for (std::uint32_t r = 0; r <= g.levels.back(); ++r) {
        px.push_back(std::uint8_t((r == 0 ? 0 : 1) + rng() % 4));
        py.push_back(std::uint8_t((r == 0 ? 0 : 1) + rng() % 4));
      }
      g.ppx.push_back(px);
      g.ppy.push_back(py);
    }
    const Header h = header_of(g);
    const std::uint32_t layers = 1 + rng() % 3;
    for (int o = 0; o < 5; ++o)
      for (int with_poc = 0; with_poc < 2; ++with_poc) {
        ResolvedTile coding = coding_of(g, layers, Progression(o));
        if (with_poc) {
          // Two volumes: the low resolutions' first layer in another order, then everything.
          coding.poc.push_back({0, 0, 1, 2, comps, Progression((o + 2) % 5)});
          coding.poc.push_back({0, 0, layers, 5, comps, Progression(o)});
        }
        for (std::uint32_t tile = 0; tile < h.tiles.size(); ++tile) {
          const TilePlan plan = make_tile_plan(h, tile, coding, 1u << 20);
          std::vector<PacketId> got, want;
          for_each_packet(plan, coding, [&](const PacketId &id) {
            got.push_back(id);
            return true;
          });
          std::vector<std::uint32_t> sent(plan.precinct_count, 0);
          if (coding.poc.empty())
            literal_volume(plan, h, 0, 99, 0, comps, layers, Progression(o), sent, want);
          else
            for (const ProgressionChange &v : coding.poc)
              literal_volume(plan, h, v.resolution_start, v.resolution_end, v.component_start, v.component_end,
                             std::min(v.layer_end, layers), v.order, sent, want);
          CHECK(got.size() == want.size());
          for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) {
            const bool same = got[i].layer == want[i].layer && got[i].component == want[i].component &&
                              got[i].resolution == want[i].resolution && got[i].precinct == want[i].precinct;
            if (!same)
              std::printf("order %d poc %d tile %u packet %zu: got l%u c%u r%u p%u, B.12 gives l%u c%u r%u p%u\n", o,
                          with_poc, tile, i, got[i].layer, got[i].component, got[i].resolution, got[i].precinct,
                          want[i].layer, want[i].component, want[i].resolution, want[i].precinct);
            CHECK(same);
            if (!same) break;
          }
          ++tiles;
          packets += got.size();
        }
      }
  }
  std::printf("packet order: %d tiles, %zu packets in B.12's order\n", tiles, packets);
}

static void conformance_streams() {
  const char *dir = std::getenv("CF_J2K_CONFORMANCE");
  const std::filesystem::path streams = dir ? std::filesystem::path(dir) / "streams" : std::filesystem::path();
  if (!dir || !std::filesystem::is_directory(streams)) {
    std::printf("SKIP: no conformance streams (CF_J2K_CONFORMANCE unset or no streams/ folder)\n");
    return;
  }
  int files = 0, tiles = 0;
  for (const auto &e : std::filesystem::directory_iterator(streams)) {
    if (e.path().extension() != ".j2k") continue;
    std::ifstream f(e.path(), std::ios::binary);
    const std::vector<std::uint8_t> data((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    const Header h = read_header(data.data(), data.size());
    for (std::uint32_t t = 0; t < h.tiles.size(); ++t) {
      const ResolvedTile coding = resolve(h, t);
      const TilePlan plan = make_tile_plan(h, t, coding, std::size_t(1) << 24);
      const TileCodewords cw = read_tile_packets(data.data(), h, plan, coding, coding.coding.layers);
      CHECK_MSG(cw.problem.empty(), "%s tile %u: %s", e.path().filename().c_str(), t, cw.problem.c_str());
      CHECK_MSG(cw.bytes_read == cw.size, "%s tile %u: packets end at byte %zu of %zu",
                e.path().filename().c_str(), t, cw.bytes_read, cw.size);
      ++tiles;
    }
    ++files;
  }
  std::printf("conformance streams: %d files, %d tiles read to the end of their packets\n", files, tiles);
}

int main() {
  bit_reader();
  tag_trees();
  tag_trees_passed_over();
  passes_codewords();
  packet_orders();
  conformance_streams();
  return cft::test_result();
}
