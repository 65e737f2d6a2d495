// Tier-2 assembly: precinct plans from the coded blocks, packets in the
// progression order of T.800 B.12 over the precincts of each tile.
#include "j2k_codestream.hpp"

#include <algorithm>

#include "core/codec/j2k_tier2.hpp"
#include "cudafilters/error.hpp"

namespace cf::j2k {

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
                   t1::PlaneWindow window, std::uint32_t mb, std::uint32_t kept, CodeBlockPlan &cb) {
  cb.zero_bitplanes = mb;
  std::size_t offset = 0, bytes = 0;
  if (kept > 0) {
    for (std::uint32_t i = 0; i + 1 < kept; ++i) offset += std::size_t(lengths[i]);
    bytes = std::size_t(lengths[kept - 1]);
    // Without a window, candidate 0 is plane passes - 1: the block's top
    // (every plane a candidate), or 0 (one candidate, every plane coded).
    const int first = window.count == 0 ? res.passes - 1 : t1::first_window_plane(int(planes_of(res)), window);
    cb.zero_bitplanes = mb - 1 - (std::uint32_t(first) - (kept - 1));
  }
  std::fill(cb.passes.begin(), cb.passes.end(), 0);
  std::fill(cb.bytes.begin(), cb.bytes.end(), 0);
  cb.passes[0] = kept > 0 ? 1 : 0;
  cb.bytes[0] = std::uint32_t(bytes);
  cb.view = data + offset;
  cb.view_size = bytes;
}

// The plan of precinct `precinct` of `resolution` of the tile, written
// over `plan` (a plan of an earlier codestream of the same layout, or
// empty): its vectors keep their room, so that writing again after rate
// allocation, or the next frame, allocates nothing per code-block.
void precinct_plan(const Layout &l, const TileLayout &tile, const TilePlan &tp, const PlanResolution &resolution,
                   std::uint32_t precinct, const std::vector<SubbandStep> &steps, const CodedBlocks &blocks,
                   const std::vector<std::uint32_t> &cumulative, PrecinctPlan &plan) {
  const std::uint32_t layers = l.params.layers;
  plan.layers = layers;
  plan.subbands.resize(resolution.bands);
  for (std::uint32_t i = 0; i < resolution.bands; ++i) {
    const std::uint32_t pb = resolution.first_band + i;
    const PrecinctBand share = precinct_share(tp, resolution, pb, precinct);
    const BandLayout &band = layout_band(l, tile, tp.bands[pb]);
    const std::uint32_t mb = l.params.guard_bits + steps[band.step_index].exponent - 1;
    PrecinctSubband &sub = plan.subbands[i];
    sub.width = share.width;
    sub.height = share.height;
    sub.blocks.resize(std::size_t(share.width) * share.height);
    for (std::uint32_t k = 0; k < share.width * share.height; ++k) {
      // The precinct's cells of the band's grid, in raster order.
      const std::uint32_t b =
          band.first_block + (share.y0 + k / share.width) * band.grid_width + share.x0 + k % share.width;
      const t1::BlockResult &res = blocks.results[b];
      const std::int32_t *lengths = blocks.pass_lengths.data() + std::size_t(b) * kMaxPasses;
      const std::uint8_t *data = blocks.codeword(b);
      CodeBlockPlan &cb = sub.blocks[k];
      cb.passes.resize(layers);
      cb.bytes.resize(layers);
      cb.data.clear();
      cb.ends_segment.clear();
      cb.pass_lengths.clear();
      if (l.params.cb_style & ht::kStyleHt) {
        ht_block_plan(res, lengths, data, blocks.windows.empty() ? t1::PlaneWindow{} : blocks.windows[b], mb,
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
      if (style & (t1::kStyleBypass | t1::kStyleRestart))
        for (std::uint32_t pass = 0; pass < done; ++pass) {
          cb.ends_segment.push_back(t1::pass_ends_segment(style, int(pass), res.passes) ? 1 : 0);
          cb.pass_lengths.push_back(std::uint32_t(lengths[pass]));
        }
    }
  }
}
}  // namespace

void write_codestream(const Layout &l, const PacketPlan &packets, const std::vector<SubbandStep> &steps,
                      const CodedBlocks &blocks, const std::vector<std::uint32_t> &cumulative_passes,
                      const std::string &comment, ByteWriter &w, std::vector<PrecinctPlan> &plans) {
  const CodestreamParams &p = l.params;
  write_main_header(w, p, steps, comment);
  std::vector<std::size_t> ptlm;
  if (p.tlm) {
    std::vector<std::uint32_t> tile_parts;
    for (std::size_t t = 0; t < l.tiles.size(); ++t)
      tile_parts.insert(tile_parts.end(), packets.tile_parts[t], l.tiles[t].index);
    ptlm = write_tlm(w, tile_parts);
  }
  plans.resize(std::max<std::size_t>(plans.size(), packets.most_precincts));
  std::uint32_t sequence = 0;
  std::vector<PrecinctPacketWriter> writers;
  writers.reserve(packets.most_precincts);
  std::vector<std::uint32_t> packet_lengths;
  std::size_t first_part = 0;  // the tile's first tile-part in the codestream (its TLM entry)
  for (std::size_t t = 0; t < l.tiles.size(); ++t) {
    const TileLayout &tile = l.tiles[t];
    const TilePlan &tp = packets.tiles[t];
    // One writer per precinct of the tile, in the plan's numbering, each
    // lent a plan of `plans` and handing it back once its packets are out.
    writers.clear();
    for (const PlanComponent &pc : tp.components)
      for (const PlanResolution &res : pc.resolutions)
        for (std::uint32_t k = 0; k < res.precincts_x * res.precincts_y; ++k) {
          PrecinctPlan &plan = plans[res.first_precinct + k];
          precinct_plan(l, tile, tp, res, k, steps, blocks, cumulative_passes, plan);
          writers.emplace_back(std::move(plan));
        }
    const std::uint32_t parts = packets.tile_parts[t];
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
      if (p.tlm) w.patch_u32(ptlm[first_part + part], length);
    };
    begin_part();
    bool first = true;
    PacketId last;
    for_each_packet(tp, packets.coding, [&](const PacketId &k) {
      if (!first && starts_tile_part(p.tile_parts, last, k)) {
        end_part();
        ++part;
        begin_part();
      }
      first = false;
      last = k;
      const PlanResolution &res = tp.components[k.component].resolutions[k.resolution];
      PrecinctPacketWriter &pw = writers[res.first_precinct + k.precinct];
      const std::size_t start = w.size();
      pw.write_next(w, {p.sop, p.eph, sequence++ & 0xFFFF});
      if (p.plt) packet_lengths.push_back(std::uint32_t(w.size() - start));
      return true;
    });
    end_part();
    if (part + 1 != parts)
      throw Error("JPEG 2000 encoder: tile " + std::to_string(tile.index) + " made " + std::to_string(part + 1) +
                  " tile-parts, " + std::to_string(parts) + " counted");
    w.copy_later();  // before the next tile refills the plans the bodies point into
    for (std::size_t i = 0; i < writers.size(); ++i) plans[i] = std::move(writers[i]).take_plan();
    first_part += parts;
  }
  write_eoc(w);
}

}  // namespace cf::j2k
