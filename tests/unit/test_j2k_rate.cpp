// JPEG 2000 rate allocation (core/src/j2k_rate.hpp), checked against the
// definitions of PCRD (T.800 J.14, EBCOT):
//  1. hulls worked by hand: merged zero-byte passes, a popped point, a
//     last pass that removes nothing;
//  2. two blocks allocated over four layers by hand from their slopes;
//  3. random small cases against brute force written here: every block on
//     a hull vertex (found by its definition, all chords), budgets kept,
//     layers monotone, no combination of truncation points of at most the
//     same bytes removing more weighted error, and the next segment in
//     slope order not fitting;
//  4. full budgets keep every pass, zero budgets none, repeats identical;
//  5. even layer budgets, tier-2 contributions, CodedBlocks views;
//  6. bad input named in the message.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "core/src/j2k_rate.hpp"
#include "cudafilters/error.hpp"

using namespace cf::j2k;
using Budgets = std::vector<std::size_t>;
constexpr std::size_t kAll = std::numeric_limits<std::size_t>::max();

// A block owning its arrays.
struct TestBlock {
  std::vector<std::int32_t> lengths;
  std::vector<std::int64_t> distortion;
  double weight = 1.0;
  RateBlock view() const {
    return RateBlock{static_cast<int>(lengths.size()), lengths.data(), distortion.data(), weight};
  }
  int passes() const { return static_cast<int>(lengths.size()); }
  std::int64_t length_at(int k) const { return k ? lengths[k - 1] : 0; }
  std::int64_t removed_at(int k) const {
    std::int64_t d = 0;
    for (int i = 0; i < k; ++i) d += distortion[i];
    return d;
  }
};

static std::vector<RateBlock> views(const std::vector<TestBlock> &blocks) {
  std::vector<RateBlock> v;
  for (const auto &b : blocks) v.push_back(b.view());
  return v;
}

static std::vector<int> hull_passes(const RateBlock &b) {
  std::vector<int> v;
  for (const auto &p : block_hull(b)) v.push_back(p.passes);
  return v;
}

static std::string list(const std::vector<int> &v) {
  std::string s;
  for (int x : v) s += std::to_string(x) + " ";
  return s;
}

// ---------------------------------------------------------------------------
// 1. Hulls by hand.

static void hulls_by_hand() {
  // Lengths 2 5 5 9 10, gains 10 9 3 4 0: pass 2 adds no bytes, so it goes
  // with pass 3; points (0,0) (2,10) (5,22) (9,26) (10,26); slopes 5, 4, 1,
  // then 0 (not a vertex).
  TestBlock a{{2, 5, 5, 9, 10}, {10, 9, 3, 4, 0}, 1.0};
  const auto ha = block_hull(a.view());
  CHECK_MSG(hull_passes(a.view()) == (std::vector<int>{0, 1, 3, 4}), "hull of a: %s",
            list(hull_passes(a.view())).c_str());
  if (ha.size() == 4) {
    CHECK(ha[2].bytes == 5 && ha[2].distortion == 22);
    CHECK(ha[3].bytes == 9 && ha[3].distortion == 26);
  }
  // Points (4,4) (6,12) (9,15): the slope 1 to (4,4) is below the slope 4
  // from it to (6,12), so (4,4) is under the chord and leaves; slopes 2, 1.
  TestBlock b{{4, 6, 9}, {4, 8, 3}, 1.0};
  CHECK_MSG(hull_passes(b.view()) == (std::vector<int>{0, 2, 3}), "hull of b: %s", list(hull_passes(b.view())).c_str());
  // Collinear points: (2,2) (4,4) (6,6) with slopes 1, 1, 1: only the end
  // remains (slopes strictly fall).
  TestBlock c{{2, 4, 6}, {2, 2, 2}, 1.0};
  CHECK_MSG(hull_passes(c.view()) == (std::vector<int>{0, 3}), "hull of c: %s", list(hull_passes(c.view())).c_str());
  // Nothing removed: only (0,0).
  TestBlock d{{3, 7}, {0, 0}, 1.0};
  CHECK_MSG(hull_passes(d.view()) == (std::vector<int>{0}), "hull of d: %s", list(hull_passes(d.view())).c_str());
  // A first pass of 0 bytes goes with the second: (3, 9).
  TestBlock e{{0, 3}, {5, 4}, 1.0};
  CHECK_MSG(hull_passes(e.view()) == (std::vector<int>{0, 2}), "hull of e: %s", list(hull_passes(e.view())).c_str());
  CHECK(block_hull(TestBlock{}.view()).size() == 1);
}

// ---------------------------------------------------------------------------
// 2. Two blocks over four layers by hand.
//
// Block A (weight 1): the hull of hulls_by_hand's a: segments of slope 5
// (2 bytes, to 1 pass), 4 (3 bytes, to 3), 1 (4 bytes, to 4), then its
// trailing pass (1 byte, to 5). Block B (weight 3): b's slopes 2 and 1
// become 6 (6 bytes, to 2 passes) and 3 (3 bytes, to 3). In slope order:
// B 6, A 5, A 4, B 3, A 1, A's tail; bytes so far 6, 8, 11, 14, 18, 19.

static void allocation_by_hand() {
  const std::vector<TestBlock> blocks{{{2, 5, 5, 9, 10}, {10, 9, 3, 4, 0}, 1.0}, {{4, 6, 9}, {4, 8, 3}, 3.0}};
  const RateHulls hulls(views(blocks));
  CHECK(hulls.total_bytes() == 19);
  CHECK(hulls.prefix_bytes() == (std::vector<std::uint64_t>{0, 6, 8, 11, 14, 18, 19}));
  // 5 bytes: B's 6 do not fit, and nothing after them is taken.
  const RateAllocation r = allocate_layers(hulls, Budgets{5, 8, 13, kAll});
  const std::uint32_t want_a[] = {0, 1, 3, 5}, want_b[] = {0, 2, 2, 3};
  const std::uint32_t bytes_a[] = {0, 2, 5, 10}, bytes_b[] = {0, 6, 6, 9};
  const std::uint64_t want_bytes[] = {0, 8, 11, 19};
  const double inf = std::numeric_limits<double>::infinity();
  const double want_threshold[] = {inf, 5, 4, -inf};
  CHECK(r.layers == 4);
  for (std::size_t l = 0; l < 4; ++l) {
    CHECK_MSG(r.passes_at(0, l) == want_a[l] && r.passes_at(1, l) == want_b[l], "layer %zu: passes %u %u", l,
              r.passes_at(0, l), r.passes_at(1, l));
    CHECK_MSG(r.bytes_at(0, l) == bytes_a[l] && r.bytes_at(1, l) == bytes_b[l], "layer %zu: bytes %u %u", l,
              r.bytes_at(0, l), r.bytes_at(1, l));
    CHECK_MSG(r.layer_bytes[l] == want_bytes[l], "layer %zu: %llu bytes", l, (unsigned long long)r.layer_bytes[l]);
    CHECK_MSG(r.threshold[l] == want_threshold[l], "layer %zu: threshold %g", l, r.threshold[l]);
  }
  // A budget of 17 stops before A's slope-1 segment (4 bytes).
  const RateAllocation s = allocate_layers(views(blocks), Budgets{17});
  CHECK(s.passes_at(0, 0) == 3 && s.passes_at(1, 0) == 3 && s.layer_bytes[0] == 14);

  // Tier-2's view: new passes and bytes per layer.
  CodeBlockPlan plan;
  set_layer_contributions(r, 0, plan);
  CHECK(plan.passes == (std::vector<std::uint32_t>{0, 1, 2, 2}));
  CHECK(plan.bytes == (std::vector<std::uint32_t>{0, 2, 3, 5}));
  set_layer_contributions(r, 1, plan);
  CHECK(plan.passes == (std::vector<std::uint32_t>{0, 2, 0, 1}));
  CHECK(plan.bytes == (std::vector<std::uint32_t>{0, 6, 0, 3}));
}

// ---------------------------------------------------------------------------
// 3. Brute force on random small cases. Weights are powers of two (or 0),
// so weighted slopes that are equal as fractions are equal doubles too,
// and the test's exact fractions order segments as the code must.

// The weighted error removed, times 4 so weights 1/4..4 stay integers.
static std::int64_t weight4(const TestBlock &b) { return static_cast<std::int64_t>(b.weight * 4); }

// Truncation points a block may stop at: 0, and k when its length is not 0
// and pass k + 1 (if any) adds bytes.
static std::vector<int> candidates(const TestBlock &b) {
  std::vector<int> c{0};
  for (int k = 1; k <= b.passes(); ++k)
    if (b.length_at(k) > 0 && (k == b.passes() || b.lengths[k] > b.lengths[k - 1])) c.push_back(k);
  return c;
}

// Hull vertices by the definition: (0,0), and each candidate c that removes more than every shorter candidate and lies
// strictly above every chord between a shorter and a longer candidate.
static std::vector<int> brute_hull(const TestBlock &b) {
  const std::vector<int> cand = candidates(b);
  std::vector<int> hull{0};
  for (int c : cand) {
    const std::int64_t lc = b.length_at(c), dc = b.removed_at(c);
    if (c == 0) continue;
    bool vertex = true;
    for (int a : cand) {
      const std::int64_t la = b.length_at(a), da = b.removed_at(a);
      if (la >= lc) continue;
      if (da >= dc) vertex = false;
      for (int z : cand) {
        const std::int64_t lz = b.length_at(z), dz = b.removed_at(z);
        if (lz <= lc) continue;
        // Above the chord: (dc - da) / (lc - la) > (dz - da) / (lz - la).
        if ((dc - da) * (lz - la) <= (dz - da) * (lc - la)) vertex = false;
      }
    }
    if (vertex) hull.push_back(c);
  }
  return hull;
}

static TestBlock random_block(std::mt19937 &rng) {
  TestBlock b;
  const int passes = std::uniform_int_distribution<int>(0, 6)(rng);
  std::int32_t length = 0;
  for (int k = 0; k < passes; ++k) {
    length += std::uniform_int_distribution<int>(0, 5)(rng);  // zero-byte passes too
    b.lengths.push_back(length);
    const int r = std::uniform_int_distribution<int>(0, 19)(rng);
    b.distortion.push_back(r == 0   ? -std::uniform_int_distribution<int>(1, 5)(rng)
                           : r == 1 ? 0
                                    : std::uniform_int_distribution<int>(1, 40)(rng));
  }
  const double weights[] = {0.0, 0.25, 1.0, 2.0, 4.0};
  b.weight = weights[std::uniform_int_distribution<int>(0, 4)(rng)];
  return b;
}

static void brute_force_case(std::mt19937 &rng, int index) {
  const int nblocks = std::uniform_int_distribution<int>(1, 4)(rng);
  std::vector<TestBlock> blocks;
  std::uint64_t total = 0;
  for (int i = 0; i < nblocks; ++i) {
    blocks.push_back(random_block(rng));
    total += blocks.back().length_at(blocks.back().passes());
  }
  const int layers = std::uniform_int_distribution<int>(1, 4)(rng);
  Budgets budgets;
  for (int l = 0; l < layers; ++l) budgets.push_back(std::uniform_int_distribution<std::size_t>(0, total + 2)(rng));
  std::sort(budgets.begin(), budgets.end());

  const RateAllocation r = allocate_layers(views(blocks), budgets);
  CHECK(r.layers == static_cast<std::size_t>(layers));
  std::vector<std::vector<int>> hulls, cands;
  for (const auto &b : blocks) hulls.push_back(brute_hull(b)), cands.push_back(candidates(b));

  for (int l = 0; l < layers; ++l) {
    std::uint64_t bytes = 0;
    std::int64_t removed = 0;
    bool tails = false;  // a block past its last vertex: every segment is in
    for (int i = 0; i < nblocks; ++i) {
      const TestBlock &b = blocks[i];
      const int k = static_cast<int>(r.passes_at(i, l));
      bool on_hull = false;
      for (int v : hulls[i]) on_hull |= v == k;
      if (!on_hull) tails = true;
      CHECK_MSG(on_hull || k == b.passes(), "case %d layer %d block %d: %d passes, hull %s", index, l, i, k,
                list(hulls[i]).c_str());
      CHECK_MSG(r.bytes_at(i, l) == b.length_at(k), "case %d layer %d block %d: %u bytes for %d passes", index, l, i,
                r.bytes_at(i, l), k);
      if (l > 0)
        CHECK_MSG(r.passes_at(i, l) >= r.passes_at(i, l - 1), "case %d layer %d block %d: fewer passes", index, l, i);
      bytes += b.length_at(k);
      removed += weight4(b) * b.removed_at(k);
    }
    CHECK_MSG(bytes == r.layer_bytes[l] && bytes <= budgets[l], "case %d layer %d: %llu bytes (%llu), budget %zu",
              index, l, (unsigned long long)bytes, (unsigned long long)r.layer_bytes[l], budgets[l]);
    if (tails) {
      // Trailing passes come last of all: every block has its whole hull.
      for (int i = 0; i < nblocks; ++i)
        CHECK_MSG(static_cast<int>(r.passes_at(i, l)) >= hulls[i].back(), "case %d layer %d block %d: tails early",
                  index, l, i);
      continue;
    }
    // No combination of truncation points within these bytes removes more.
    std::vector<std::size_t> pick(nblocks, 0);
    for (;;) {
      std::uint64_t cb = 0;
      std::int64_t cd = 0;
      for (int i = 0; i < nblocks; ++i) {
        const int k = cands[i][pick[i]];
        cb += blocks[i].length_at(k);
        cd += weight4(blocks[i]) * blocks[i].removed_at(k);
      }
      CHECK_MSG(cb > bytes || cd <= removed, "case %d layer %d: %llu bytes remove %lld > %lld", index, l,
                (unsigned long long)cb, (long long)cd, (long long)removed);
      int i = 0;
      while (i < nblocks && ++pick[i] == cands[i].size()) pick[i++] = 0;
      if (i == nblocks) break;
    }
    // The next segment in slope order (largest weighted slope among each
    // block's next hull segment, ties to the lower block; then the first
    // block with trailing passes) does not fit.
    int next = -1;
    std::int64_t next_dd = 0, next_dl = 1;
    std::int64_t next_bytes = -1;
    for (int i = 0; i < nblocks; ++i) {
      const TestBlock &b = blocks[i];
      const int k = static_cast<int>(r.passes_at(i, l));
      std::size_t v = 0;
      while (hulls[i][v] != k) ++v;
      if (v + 1 == hulls[i].size()) continue;
      const int n = hulls[i][v + 1];
      const std::int64_t dd = weight4(b) * (b.removed_at(n) - b.removed_at(k)), dl = b.length_at(n) - b.length_at(k);
      if (next < 0 || dd * next_dl > next_dd * dl) next = i, next_dd = dd, next_dl = dl, next_bytes = dl;
    }
    if (next < 0)
      for (int i = 0; i < nblocks && next < 0; ++i)
        if (static_cast<int>(r.passes_at(i, l)) < blocks[i].passes())
          next = i, next_bytes = blocks[i].length_at(blocks[i].passes()) - r.bytes_at(i, l);
    if (next >= 0)
      CHECK_MSG(bytes + next_bytes > budgets[l], "case %d layer %d: block %d's next %lld bytes fit budget %zu", index,
                l, next, (long long)next_bytes, budgets[l]);
  }
  // The same input gives the same output.
  const RateAllocation again = allocate_layers(views(blocks), budgets);
  CHECK(again.passes == r.passes && again.bytes == r.bytes && again.layer_bytes == r.layer_bytes);
}

static void brute_force() {
  std::mt19937 rng(20240611);
  const int cases = 3000;
  for (int i = 0; i < cases; ++i) brute_force_case(rng, i);
  std::printf("%d random cases against brute force\n", cases);
}

// ---------------------------------------------------------------------------
// 4. Full and zero budgets, repeats.

static void full_and_zero() {
  std::mt19937 rng(7);
  std::vector<TestBlock> blocks;
  std::uint64_t total = 0;
  for (int i = 0; i < 40; ++i) {
    TestBlock b = random_block(rng);
    if (b.passes() && b.lengths[0] == 0) b.lengths[0] = 1;  // some bytes from pass 1
    for (std::size_t k = 1; k < b.lengths.size(); ++k) b.lengths[k] = std::max(b.lengths[k], b.lengths[k - 1]);
    total += b.length_at(b.passes());
    blocks.push_back(b);
  }
  const RateHulls hulls(views(blocks));
  CHECK(hulls.total_bytes() == total);
  for (std::size_t budget : {static_cast<std::size_t>(total), kAll}) {
    const RateAllocation r = allocate_layers(hulls, Budgets{budget});
    CHECK(r.layer_bytes[0] == total);
    for (std::size_t i = 0; i < blocks.size(); ++i)
      CHECK_MSG(static_cast<int>(r.passes_at(i, 0)) == blocks[i].passes(), "full budget: block %zu has %u of %d passes",
                i, r.passes_at(i, 0), blocks[i].passes());
  }
  const RateAllocation z = allocate_layers(hulls, Budgets{0, 0});
  for (std::size_t i = 0; i < blocks.size(); ++i) CHECK(z.passes_at(i, 0) == 0 && z.passes_at(i, 1) == 0);
  CHECK(z.layer_bytes[1] == 0);
  // One byte short of everything: some pass is left out.
  const RateAllocation s = allocate_layers(hulls, Budgets{static_cast<std::size_t>(total - 1)});
  CHECK(s.layer_bytes[0] < total);

  // Segments in a strict total order: slope down, then block, then passes.
  const auto &seg = hulls.segments();
  for (std::size_t i = 1; i < seg.size(); ++i) {
    const auto &a = seg[i - 1], &b = seg[i];
    CHECK(a.slope > b.slope ||
          (a.slope == b.slope && (a.block < b.block || (a.block == b.block && a.passes < b.passes))));
  }
  // Reusing the hulls, rebuilding them, and repeating give the same bits.
  const Budgets budgets = even_layer_budgets(total, 5);
  const RateAllocation r1 = allocate_layers(hulls, budgets), r2 = allocate_layers(views(blocks), budgets),
                       r3 = allocate_layers(hulls, budgets);
  CHECK(r1.passes == r2.passes && r1.passes == r3.passes && r1.layer_bytes == r2.layer_bytes);
  for (std::size_t l = 0; l < 5; ++l) CHECK(r1.layer_bytes[l] <= budgets[l]);
  CHECK(r1.layer_bytes[4] == total);
}

// Equal slopes (copies of one block, weights of 0, huge and tiny weights
// whose slopes span the double range) still come in block, then passes,
// order, behind every larger slope.
static void ties_in_order() {
  std::mt19937 rng(11);
  std::vector<TestBlock> blocks;
  for (int i = 0; i < 12; ++i) {
    TestBlock b = random_block(rng);
    b.weight = i % 4 == 0 ? 0.0 : i % 4 == 1 ? 1e300 : i % 4 == 2 ? 1e-300 : 1.0;
    blocks.push_back(b);
    blocks.push_back(b);  // the same slopes again, one block later
  }
  const RateHulls hulls(views(blocks));
  const auto &seg = hulls.segments();
  CHECK(!seg.empty());
  for (std::size_t i = 1; i < seg.size(); ++i) {
    const auto &a = seg[i - 1], &b = seg[i];
    CHECK_MSG(a.slope > b.slope ||
                  (a.slope == b.slope && (a.block < b.block || (a.block == b.block && a.passes < b.passes))),
              "segment %zu (slope %g, block %u, passes %u) before segment %zu (slope %g, block %u, passes %u)", i - 1,
              a.slope, a.block, a.passes, i, b.slope, b.block, b.passes);
  }
}

// ---------------------------------------------------------------------------
// 5. Even budgets and the view of CodedBlocks.

static void even_budgets_and_views() {
  CHECK(even_layer_budgets(10, 3) == (Budgets{3, 6, 10}));
  CHECK(even_layer_budgets(0, 2) == (Budgets{0, 0}));
  CHECK(even_layer_budgets(7, 1) == (Budgets{7}));

  CodedBlocks coded;
  coded.results = {t1::BlockResult{t1::BlockStatus::kOk, 2, 5, 0, 0}, t1::BlockResult{t1::BlockStatus::kOk, 0, 0, 0, 0}};
  coded.pass_lengths.assign(2 * kMaxPasses, 0);
  coded.pass_distortion.assign(2 * kMaxPasses, 0);
  coded.pass_lengths[0] = 3, coded.pass_lengths[1] = 5;
  coded.pass_distortion[0] = 8, coded.pass_distortion[1] = 2;
  const auto blocks = rate_blocks(coded, {2.0, 1.0});
  CHECK(blocks.size() == 2);
  CHECK(blocks[0].passes == 2 && blocks[0].lengths == coded.pass_lengths.data() &&
        blocks[0].distortion == coded.pass_distortion.data() && blocks[0].weight == 2.0);
  CHECK(blocks[1].passes == 0 && blocks[1].lengths == coded.pass_lengths.data() + kMaxPasses);
  const RateAllocation r = allocate_layers(blocks, Budgets{3, kAll});
  CHECK(r.passes_at(0, 0) == 1 && r.passes_at(0, 1) == 2 && r.passes_at(1, 1) == 0);
}

// ---------------------------------------------------------------------------
// 6. Bad input.

template <class F>
static void expect_error(F f, const char *needle, const char *what) {
  try {
    f();
    CHECK_MSG(false, "%s: no error", what);
  } catch (const cf::Error &e) {
    CHECK_MSG(std::string(e.what()).find(needle) != std::string::npos, "%s: message '%s' lacks '%s'", what, e.what(),
              needle);
  }
}

static void bad_input() {
  const TestBlock good{{2, 4}, {3, 1}, 1.0};
  const TestBlock falling{{4, 2}, {3, 1}, 1.0};
  expect_error(
      [&] {
        RateHulls h({good.view(), falling.view()});
      },
      "code-block 1: pass 1's length 2 is below pass 0's 4", "falling lengths");
  TestBlock negative{{-1, 2}, {3, 1}, 1.0};
  expect_error([&] { block_hull(negative.view()); }, "length -1 < 0", "negative length");
  TestBlock nan = good;
  nan.weight = std::nan("");
  expect_error([&] { RateHulls h({nan.view()}); }, "weight", "NaN weight");
  RateBlock many = good.view();
  many.passes = kMaxPasses + 1;
  expect_error([&] { block_hull(many); }, "coding passes (0 to", "too many passes");
  RateBlock missing{1, nullptr, nullptr, 1.0};
  expect_error([&] { block_hull(missing); }, "no pass lengths", "missing arrays");
  const RateHulls hulls({good.view()});
  expect_error(
      [&] {
        allocate_layers(hulls, Budgets{5, 3});
      },
      "layer 1's budget 3 is below layer 0's 5", "falling budgets");
  expect_error([&] { allocate_layers(hulls, Budgets{}); }, "0 layers (1 to 65535", "no layers");
  expect_error([&] { allocate_layers(hulls, Budgets(65536, 1)); }, "65536 layers", "too many layers");
  expect_error([&] { even_layer_budgets(10, 0); }, "0 layers", "even budgets, no layers");
  CodedBlocks coded;
  coded.results.resize(2);
  expect_error([&] { rate_blocks(coded, {1.0}); }, "1 weights for 2 code-blocks", "weights count");
  expect_error([&] { rate_blocks(coded, {1.0, 1.0}); }, "pass arrays of 0 and 0 entries", "short pass arrays");
  const RateAllocation r = allocate_layers(hulls, Budgets{kAll});
  CodeBlockPlan plan;
  expect_error([&] { set_layer_contributions(r, 1, plan); }, "code-block 1 is not in the allocation", "block index");
}

// Topping up the last layer: a block whose next segment is too big stops,
// a later segment of another block that fits still goes in (worked by hand).
void fill_by_hand() {
  // Block 0: one pass of 100 bytes removing 1000 (slope 10).
  // Block 1: passes of 10 and 20 bytes removing 50 and 40 (slopes 5, 2).
  const std::vector<TestBlock> blocks = {{{100}, {1000}, 1.0}, {{10, 30}, {50, 40}, 1.0}};
  const RateHulls hulls(views(blocks));
  RateAllocation a = allocate_layers(hulls, Budgets{25});
  CHECK(a.passes_at(0, 0) == 0 && a.passes_at(1, 0) == 0 && a.layer_bytes[0] == 0);  // slope order stops at block 0
  fill_last_layer(hulls, 25, a);
  CHECK(a.passes_at(0, 0) == 0 && a.passes_at(1, 0) == 1 && a.bytes_at(1, 0) == 10 && a.layer_bytes[0] == 10);
  // Room for both of block 1's passes, not for block 0's.
  a = allocate_layers(hulls, Budgets{0, 30});
  fill_last_layer(hulls, 30, a);
  CHECK(a.passes_at(1, 0) == 0 && a.passes_at(1, 1) == 2 && a.layer_bytes[1] == 30 && a.layer_bytes[0] == 0);
  // A full budget leaves nothing to add.
  a = allocate_layers(hulls, Budgets{kAll});
  fill_last_layer(hulls, 130, a);
  CHECK(a.layer_bytes[0] == 130 && a.passes_at(0, 0) == 1 && a.passes_at(1, 0) == 2);
}

int main() {
  fill_by_hand();
  hulls_by_hand();
  allocation_by_hand();
  brute_force();
  full_and_zero();
  ties_in_order();
  even_budgets_and_views();
  bad_input();
  return cft::test_result();
}
