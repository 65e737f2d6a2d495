// Tier-2 assembly: precinct plans from the coded blocks, packets in the
// progression order of T.800 B.12.1 (with one precinct per resolution the
// position loops of RPCL, PCRL and CPRL visit that precinct once).
#include "j2k_codestream.hpp"

#include <algorithm>

#include "cudafilters/error.hpp"
#include "j2k_tier2.hpp"

namespace cf::j2k {

std::vector<PacketIndex> packet_order(Progression order, std::uint32_t layers, std::uint32_t levels,
                                      std::uint32_t components) {
  std::vector<PacketIndex> out;
  const std::uint32_t resolutions = levels + 1;
  out.reserve(std::size_t(layers) * resolutions * components);
  switch (order) {
    case Progression::Lrcp:
      for (std::uint32_t l = 0; l < layers; ++l)
        for (std::uint32_t r = 0; r < resolutions; ++r)
          for (std::uint32_t c = 0; c < components; ++c) out.push_back({l, r, c});
      break;
    case Progression::Rlcp:
      for (std::uint32_t r = 0; r < resolutions; ++r)
        for (std::uint32_t l = 0; l < layers; ++l)
          for (std::uint32_t c = 0; c < components; ++c) out.push_back({l, r, c});
      break;
    case Progression::Rpcl:
      for (std::uint32_t r = 0; r < resolutions; ++r)
        for (std::uint32_t c = 0; c < components; ++c)
          for (std::uint32_t l = 0; l < layers; ++l) out.push_back({l, r, c});
      break;
    case Progression::Pcrl:
    case Progression::Cprl:
      for (std::uint32_t c = 0; c < components; ++c)
        for (std::uint32_t r = 0; r < resolutions; ++r)
          for (std::uint32_t l = 0; l < layers; ++l) out.push_back({l, r, c});
      break;
  }
  return out;
}

bool starts_tile_part(TilePartDivision division, const PacketIndex &before, const PacketIndex &k) {
  switch (division) {
    case TilePartDivision::Resolution: return k.resolution != before.resolution;
    case TilePartDivision::Layer: return k.layer != before.layer;
    case TilePartDivision::Component: return k.component != before.component;
    case TilePartDivision::None: break;
  }
  return false;
}

std::uint64_t tile_parts_per_tile(Progression order, std::uint32_t layers, std::uint32_t levels,
                                  std::uint32_t components, TilePartDivision division) {
  // packet_order's loops, outermost first: 'L'ayer, 'R'esolution, 'C'omponent.
  const char *nesting = order == Progression::Lrcp   ? "LRC"
                        : order == Progression::Rlcp ? "RLC"
                        : order == Progression::Rpcl ? "RCL"
                                                     : "CRL";
  const char key = division == TilePartDivision::Resolution  ? 'R'
                   : division == TilePartDivision::Layer     ? 'L'
                   : division == TilePartDivision::Component ? 'C'
                                                             : 0;
  // The key's index changes at every step of its loop, and when a loop
  // outside it steps (back to 0), unless its loop has one step.
  std::uint64_t parts = 1;
  for (const char *d = nesting; key && *d; ++d) {
    const std::uint64_t n = *d == 'L' ? layers : *d == 'R' ? levels + 1 : components;
    if (*d == key) return n > 1 ? parts * n : 1;
    parts *= n;
  }
  return 1;
}

namespace {
std::uint32_t planes_of(const t1::BlockResult &r) { return std::uint32_t(t1::kMaxBitplanes - r.zero_bitplanes); }
}  // namespace

std::uint32_t guard_bits_needed(const Layout &l, const std::vector<SubbandStep> &steps, const CodedBlocks &blocks) {
  std::uint32_t guard = 2;
  for (std::size_t b = 0; b < l.blocks.size(); ++b) {
    const t1::BlockResult &r = blocks.results[b];
    if (r.passes == 0) continue;
    const std::uint32_t exponent = steps[l.bands[l.blocks[b].band].step_index].exponent;
    // planes <= G + exponent - 1
    const std::uint32_t planes = planes_of(r);
    if (planes + 1 > exponent + guard) guard = planes + 1 - exponent;
  }
  if (guard > 7)
    throw Error("JPEG 2000 encoder: a subband needs " + std::to_string(guard) +
                " guard bits to hold its coefficients; QCD allows at most 7");
  return guard;
}

namespace {
// An HT block (ht::encode_ht_block): its "passes" are candidate cleanup
// passes, candidate i at plane first - i (first: the window's top, or the
// block's top plane) with lengths[i] bytes, back to back; keeping k of them
// sends candidate k - 1 alone, as one cleanup pass in the first layer, with
// Mb - 1 - plane missing MSBs.
void ht_block_plan(const t1::BlockResult &res, const std::int32_t *lengths, const std::uint8_t *data,
                   ht::CandidateWindow window, std::uint32_t mb, std::uint32_t kept, CodeBlockPlan &cb) {
  cb.zero_bitplanes = mb;
  std::size_t offset = 0, bytes = 0;
  if (kept > 0) {
    for (std::uint32_t i = 0; i + 1 < kept; ++i) offset += std::size_t(lengths[i]);
    bytes = std::size_t(lengths[kept - 1]);
    // Without a window, candidate 0 is plane passes - 1: the block's top
    // (every plane a candidate), or 0 (one candidate, every plane coded).
    const int first = window.count == 0 ? res.passes - 1 : ht::first_candidate_plane(int(planes_of(res)), window);
    cb.zero_bitplanes = mb - 1 - (std::uint32_t(first) - (kept - 1));
  }
  std::fill(cb.passes.begin(), cb.passes.end(), 0);
  std::fill(cb.bytes.begin(), cb.bytes.end(), 0);
  cb.passes[0] = kept > 0 ? 1 : 0;
  cb.bytes[0] = std::uint32_t(bytes);
  cb.view = data + offset;
  cb.view_size = bytes;
}

// The plan of the precinct of resolution r of tile-component tc, written
// over `plan` (a plan of an earlier codestream of the same layout, or
// empty): its vectors keep their room, so that writing again after rate
// allocation, or the next frame, allocates nothing per code-block.
void precinct_plan(const Layout &l, const std::vector<SubbandStep> &steps, const CodedBlocks &blocks,
                   const std::vector<std::uint32_t> &cumulative, std::uint32_t tc, std::uint32_t r,
                   PrecinctPlan &plan) {
  const std::uint32_t layers = l.params.layers;
  plan.layers = layers;
  const TileComponentLayout &t = l.tile_components[tc];
  const std::uint32_t first = r == 0 ? 0 : 1 + 3 * (r - 1), count = r == 0 ? 1 : 3;
  plan.subbands.resize(count);
  for (std::uint32_t i = 0; i < count; ++i) {
    const BandLayout &band = l.bands[t.first_band + first + i];
    const std::uint32_t mb = l.params.guard_bits + steps[band.step_index].exponent - 1;
    PrecinctSubband &sub = plan.subbands[i];
    sub.width = band.grid_width;
    sub.height = band.grid_height;
    sub.blocks.resize(std::size_t(band.grid_width) * band.grid_height);
    for (std::uint32_t k = 0; k < band.grid_width * band.grid_height; ++k) {
      const std::uint32_t b = band.first_block + k;
      const t1::BlockResult &res = blocks.results[b];
      const std::int32_t *lengths = blocks.pass_lengths.data() + std::size_t(b) * kMaxPasses;
      const std::uint8_t *data = blocks.data.data() + blocks.offset[b];
      CodeBlockPlan &cb = sub.blocks[k];
      cb.passes.resize(layers);
      cb.bytes.resize(layers);
      cb.data.clear();
      cb.ends_segment.clear();
      cb.pass_lengths.clear();
      if (l.params.cb_style & cb_style::kHt) {
        ht_block_plan(res, lengths, data, blocks.windows.empty() ? ht::CandidateWindow{} : blocks.windows[b], mb,
                      cumulative[std::size_t(b) * layers], cb);
        continue;
      }
      cb.zero_bitplanes = res.passes > 0 ? mb - planes_of(res) : mb;
      std::uint32_t done = 0, sent = 0;
      for (std::uint32_t layer = 0; layer < layers; ++layer) {
        const std::uint32_t upto = cumulative[std::size_t(b) * layers + layer];
        const std::uint32_t end = upto > 0 ? std::uint32_t(lengths[upto - 1]) : 0;
        cb.passes[layer] = upto - done;
        cb.bytes[layer] = end - sent;
        done = upto;
        sent = end;
      }
      cb.view = data;
      cb.view_size = sent;
      // Terminated segments inside the codeword: one length per segment.
      const unsigned style = l.params.cb_style;
      if (style & (cb_style::kBypass | cb_style::kTerminateAll))
        for (std::uint32_t pass = 0; pass < done; ++pass) {
          cb.ends_segment.push_back(t1::pass_ends_segment(style, int(pass), res.passes) ? 1 : 0);
          cb.pass_lengths.push_back(std::uint32_t(lengths[pass]));
        }
    }
  }
}
}  // namespace

void write_codestream(const Layout &l, const std::vector<SubbandStep> &steps, const CodedBlocks &blocks,
                      const std::vector<std::uint32_t> &cumulative_passes, const std::string &comment, ByteWriter &w,
                      std::vector<PrecinctPlan> &plans) {
  const CodestreamParams &p = l.params;
  const std::uint32_t components = std::uint32_t(p.components.size());
  const std::vector<PacketIndex> order = packet_order(p.progression, p.layers, p.levels, components);
  // More than 255 is refused by the settings check, and by begin_tile_part.
  const std::uint32_t parts =
      std::uint32_t(tile_parts_per_tile(p.progression, p.layers, p.levels, components, p.tile_parts));
  write_main_header(w, p, steps, comment);
  std::vector<std::size_t> ptlm;
  if (p.tlm) {
    std::vector<std::uint32_t> tile_parts;
    for (const TileLayout &tile : l.tiles) tile_parts.insert(tile_parts.end(), parts, tile.index);
    ptlm = write_tlm(w, tile_parts);
  }
  const std::size_t per_tile = std::size_t(components) * (p.levels + 1);
  plans.resize(std::max(plans.size(), per_tile));
  std::uint32_t sequence = 0;
  std::vector<PrecinctPacketWriter> writers;
  writers.reserve(per_tile);
  std::vector<std::uint32_t> packet_lengths;
  for (const TileLayout &tile : l.tiles) {
    // One writer per (component, resolution) precinct of the tile, each
    // lent a plan of `plans` and handing it back once its packets are out.
    writers.clear();
    for (std::uint32_t c = 0; c < components; ++c)
      for (std::uint32_t r = 0; r <= p.levels; ++r) {
        PrecinctPlan &plan = plans[std::size_t(c) * (p.levels + 1) + r];
        precinct_plan(l, steps, blocks, cumulative_passes, tile.first_tile_component + c, r, plan);
        writers.emplace_back(std::move(plan));
      }
    std::uint32_t part = 0;
    std::size_t sot = 0, sod = 0;
    const auto begin_part = [&] {
      sot = begin_tile_part(w, tile.index, part, parts);
      sod = w.size();
      write_sod(w);
      packet_lengths.clear();
    };
    const auto end_part = [&] {
      if (p.plt) write_plt(w, sod, packet_lengths);
      const std::uint32_t length = end_tile_part(w, sot);
      if (p.tlm) w.patch_u32(ptlm[std::size_t(&tile - l.tiles.data()) * parts + part], length);
    };
    begin_part();
    for (std::size_t i = 0; i < order.size(); ++i) {
      const PacketIndex &k = order[i];
      if (i > 0 && starts_tile_part(p.tile_parts, order[i - 1], k)) {
        end_part();
        ++part;
        begin_part();
      }
      PrecinctPacketWriter &pw = writers[std::size_t(k.component) * (p.levels + 1) + k.resolution];
      const std::size_t start = w.size();
      pw.write_next(w, {p.sop, p.eph, sequence++ & 0xFFFF});
      if (p.plt) packet_lengths.push_back(std::uint32_t(w.size() - start));
    }
    end_part();
    for (std::size_t i = 0; i < per_tile; ++i) plans[i] = std::move(writers[i]).take_plan();
  }
  write_eoc(w);
}

}  // namespace cf::j2k
