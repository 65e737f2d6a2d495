// The order of a tile's packets (T.800 B.12).
#include "core/codec/j2k_packet_order.hpp"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace cf::j2k {

namespace {

struct Volume {
  std::uint32_t r0, r1, c0, c1, layer_end;
  Progression order;
};

// Where the position-driven progressions reach a precinct: the y (or x) on
// the reference grid at which its row (column) j begins. `t0`: the tile's
// ty0; `tr0`: the resolution's try0; `sub`: YRsiz; `n`: NL - r; `pp`:
// PPy. The rows after the first begin at multiples of YRsiz 2^(PPy + NL - r);
// the first one at ty0 when try0 is not a multiple of 2^PPy (B.12.1.3's
// second condition), else at its own multiple.
std::uint64_t position(std::uint64_t t0, std::uint32_t tr0, std::uint32_t sub, std::uint32_t n, std::uint32_t pp,
                       std::uint32_t j) {
  const std::uint64_t first = tr0 >> pp;
  if (j == 0 && (tr0 & ((std::uint64_t(1) << pp) - 1)) != 0) return t0;
  return (first + j) * (std::uint64_t(sub) << (pp + n));
}

// The precincts of one (component, resolution) in the order a
// position-driven walk reaches them: row by row, each row from the left
// (position() grows with j and with i), so the walk over a volume merges
// these streams, never listing the precincts.
struct PrecinctStream {
  std::uint64_t y = 0, x = 0;  // where the walk reaches precinct (i, j)
  std::uint32_t c = 0, r = 0, i = 0, j = 0;
};

}  // namespace

void for_each_packet(const TilePlan &plan, const ResolvedTile &coding,
                     const std::function<bool(const PacketId &)> &visit) {
  const std::uint32_t layers = coding.coding.layers;
  const std::uint32_t ncomp = std::uint32_t(plan.components.size());
  std::uint32_t max_res = 0;
  for (const PlanComponent &pc : plan.components) max_res = std::max(max_res, pc.levels + 1);

  std::vector<Volume> volumes;
  for (const ProgressionChange &v : coding.poc)
    volumes.push_back({v.resolution_start, v.resolution_end, v.component_start, v.component_end, v.layer_end, v.order});
  if (volumes.empty()) volumes.push_back({0, max_res, 0, ncomp, layers, coding.coding.progression});

  // Layers sent per precinct, kept only for POC's volumes (one volume sends
  // each packet once, in order), and only for the precincts a packet of
  // which was sent.
  const bool track = !coding.poc.empty();
  std::unordered_map<std::uint32_t, std::uint32_t> sent;
  const auto precincts = [&](std::uint32_t c, std::uint32_t r) -> const PlanResolution * {
    if (c >= ncomp || r > plan.components[c].levels) return nullptr;
    return &plan.components[c].resolutions[r];
  };
  // The packet of layer l of precinct p of (c, r), when not sent yet.
  const auto packet = [&](std::uint32_t l, std::uint32_t c, std::uint32_t r, std::uint32_t p) {
    if (track) {
      const std::uint32_t key = precincts(c, r)->first_precinct + p;
      const auto at = sent.find(key);
      if (l != (at == sent.end() ? 0 : at->second)) return true;
      if (at == sent.end())
        sent.emplace(key, 1);
      else
        ++at->second;
    }
    return visit({l, c, r, p});
  };

  for (const Volume &v : volumes) {
    const std::uint32_t r1 = std::min(v.r1, max_res), c1 = std::min(v.c1, ncomp);
    const std::uint32_t l1 = std::min(v.layer_end, layers);
    if (v.order == Progression::Lrcp || v.order == Progression::Rlcp) {
      const bool layer_first = v.order == Progression::Lrcp;
      const std::uint32_t outer_end = layer_first ? l1 : r1, inner_end = layer_first ? r1 : l1;
      for (std::uint32_t a = layer_first ? 0 : v.r0; a < outer_end; ++a)
        for (std::uint32_t b = layer_first ? v.r0 : 0; b < inner_end; ++b) {
          const std::uint32_t l = layer_first ? a : b, r = layer_first ? b : a;
          for (std::uint32_t c = v.c0; c < c1; ++c) {
            const PlanResolution *res = precincts(c, r);
            if (!res) continue;
            for (std::uint32_t p = 0; p < res->precincts_x * res->precincts_y; ++p)
              if (!packet(l, c, r, p)) return;
          }
        }
      continue;
    }
    // Position-driven orders: the precincts of the volume by where the walk
    // over the reference grid reaches them (each (component, resolution) a
    // stream in that order, merged).
    const auto key = [&](const PrecinctStream &a) {
      switch (v.order) {
        case Progression::Rpcl: return std::make_tuple(std::uint64_t(a.r), a.y, a.x, std::uint64_t(a.c));
        case Progression::Pcrl: return std::make_tuple(a.y, a.x, std::uint64_t(a.c), std::uint64_t(a.r));
        default: return std::make_tuple(std::uint64_t(a.c), a.y, a.x, std::uint64_t(a.r));  // Cprl
      }
    };
    const auto later = [&](const PrecinctStream &a, const PrecinctStream &b) { return key(b) < key(a); };
    const auto place = [&](PrecinctStream &a) {
      const PlanComponent &pc = plan.components[a.c];
      const PlanResolution &res = pc.resolutions[a.r];
      const std::uint32_t n = pc.levels - a.r;
      a.y = position(plan.rect.y0, res.rect.y0, pc.subsample_y, n, res.precinct_height_exp, a.j);
      a.x = position(plan.rect.x0, res.rect.x0, pc.subsample_x, n, res.precinct_width_exp, a.i);
    };
    std::vector<PrecinctStream> heap;
    for (std::uint32_t c = v.c0; c < c1; ++c)
      for (std::uint32_t r = v.r0; r < r1; ++r) {
        const PlanResolution *res = precincts(c, r);
        if (!res || res->precincts_x == 0 || res->precincts_y == 0) continue;
        PrecinctStream a;
        a.c = c, a.r = r;
        place(a);
        heap.push_back(a);
      }
    std::make_heap(heap.begin(), heap.end(), later);
    while (!heap.empty()) {
      std::pop_heap(heap.begin(), heap.end(), later);
      PrecinctStream &a = heap.back();
      const PlanResolution &res = plan.components[a.c].resolutions[a.r];
      for (std::uint32_t l = 0; l < l1; ++l)
        if (!packet(l, a.c, a.r, a.j * res.precincts_x + a.i)) return;
      if (++a.i == res.precincts_x) a.i = 0, ++a.j;
      if (a.j == res.precincts_y) {
        heap.pop_back();
        continue;
      }
      place(a);
      std::push_heap(heap.begin(), heap.end(), later);
    }
  }
}

}  // namespace cf::j2k
