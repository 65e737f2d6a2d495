// CUDA backend of the JPEG 2000 decoder's tier-1 (kernels/j2k_tier1_decode_cuda.hpp;
// device code in kernels/j2k_tier1_decode_kernels.cuh). Per call (a tile,
// or every tile of a frame): a descriptor per code-block to decode, the
// blocks' segment lengths and the codewords (each tile's bytes as tier-2
// read them, where a block of one chunk finds its codeword in place, then
// the joined chunks of the blocks of several) laid out in one host image
// and uploaded in one copy into the engine's Slot::J2kTier1 buffer, which
// also holds the statuses, the HT blocks' work areas and quad codes (and,
// for the host variant, the coefficients); it grows when a call needs more
// and is otherwise reused, so once the sizes are known no call allocates
// device memory. The coefficients are zeroed, the kernels decode the
// blocks (HT ones a thread per block reading MEL and VLC, then a warp per
// block reading MagSgn; Part 1 ones a thread per block), and the statuses
// come back: one wait. The host side of the copies is the engine's pinned
// memory (HostSlot::J2kDecoder), where the image is laid out (the
// codewords' megabytes copied there on several threads).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/codec/j2k_byte_copies.hpp"
#include "core/codec/j2k_radix_order.hpp"
#include "core/shared/ceil_div.hpp"
#include "cudafilters/error.hpp"
#include "kernels/cuda_state.cuh"
#include "kernels/j2k_tier1_decode_cuda.hpp"
#include "kernels/j2k_tier1_decode_kernels.cuh"
#include "kernels/launch.cuh"

namespace cf::cuda {

namespace j2k_decode_launch {

using j2k_decode_kernels::DecodeArgs;
using j2k_decode_kernels::DecodeBlock;
using j2k_decode_kernels::kDecodeThreads;
using j2k_decode_kernels::kHtCodeThreads;
using j2k_decode_kernels::kHtDecodeThreads;

// What the host lays out for a frame's tiles (or one tile): the blocks to
// decode in launch order, with the lists that say where each came from,
// and the bytes uploaded after the descriptors and segment lengths, as
// pieces: per tile, its bytes up to the last chunk read in place, then its
// joined chunks. Kept from call to call (decode_frame), so that a stream
// of frames lays out without allocating.
struct FrameJob {
  std::vector<DecodeBlock> blocks;   // the blocks to decode, in launch order
  std::vector<std::uint32_t> index;  // each one's place in its tile's TileCodewords::blocks
  std::vector<std::uint32_t> tile;   // each one's tile in the frame's list
  std::vector<int> segments;
  unsigned long long work = 0;                    // bytes of work areas
  unsigned long long codes = 0;                   // words of HT blocks' quad codes
  std::vector<std::vector<std::uint8_t>> joined;  // per tile: codewords of several chunks, back to back
  std::vector<std::pair<const std::uint8_t *, std::size_t>> pieces;
  std::size_t byte_count = 0;
  // Scratch of the layout: per block, its offset in its tile's `joined`
  // (SIZE_MAX: in place); the launch order and the lists permuted to it.
  std::vector<std::size_t> joined_at;
  j2k::RadixOrder order;
  std::vector<DecodeBlock> sorted_blocks;
  std::vector<std::uint32_t> sorted_index, sorted_tile;
};

// The blocks of tile t that cpu::j2k_decode_blocks decodes
// (j2k::block_decoded), with the same inputs decode_plan_block gives
// t1::decode_block, appended to f; the tile's bytes start at f.byte_count
// and its samples at `base`.
void lay_out(const j2k::TilePlan &plan, const j2k::TileCodewords &cw, const std::vector<j2k::BandDecoding> &bands,
             std::uint32_t t, std::size_t base, FrameJob &f) {
  namespace t1 = j2k::t1;
  if (bands.size() != plan.bands.size())
    throw Error("JPEG 2000 tier-1 on CUDA: " + std::to_string(bands.size()) + " band settings for a plan of " +
                std::to_string(plan.bands.size()) + " subbands");
  const std::size_t first = f.blocks.size(), bytes_at = f.byte_count;
  std::vector<std::uint8_t> &joined = f.joined[t];
  joined.clear();
  std::size_t tile_bytes = 0;  // of cw.data, up to the last chunk read in place
  for (std::uint32_t b = 0; b < cw.blocks.size(); ++b) {
    const j2k::BlockCodeword &cb = cw.blocks[b];
    const j2k::PlanBlock &blk = cb.block;
    const j2k::PlanBand &band = plan.bands[blk.band];
    const j2k::BandDecoding &d = bands[blk.band];
    if (!j2k::block_decoded(plan, cb, bands)) continue;
    DecodeBlock k{};
    std::size_t length = 0;
    if (cb.chunks.size() == 1) {
      k.codeword = cb.chunks[0].offset;
      length = cb.chunks[0].length;
      tile_bytes = std::max(tile_bytes, cb.chunks[0].offset + length);
      f.joined_at.push_back(SIZE_MAX);
    } else {
      f.joined_at.push_back(joined.size());
      for (const j2k::ByteSpan &c : cb.chunks)
        joined.insert(joined.end(), cw.data + c.offset, cw.data + c.offset + c.length);
      length = joined.size() - f.joined_at.back();
    }
    k.length = int(length);
    k.first_segment = int(f.segments.size());
    k.segments = int(cb.segment_lengths.size());
    for (std::uint32_t v : cb.segment_lengths) f.segments.push_back(int(v));
    k.width = int(blk.rect.width());
    k.height = int(blk.rect.height());
    const j2k::PlanComponent &pc = plan.components[band.component];
    k.stride = int(pc.stride);
    k.samples = base + pc.offset + std::size_t(blk.buffer_y) * pc.stride + blk.buffer_x;
    k.work = f.work;
    k.codes = f.codes;
    // HT blocks' work areas, each 16-byte aligned: the decoder reads its
    // states in words (Part 1 blocks keep theirs in shared memory); and
    // their quads' codes, a word a quad.
    if ((d.style & j2k::ht::kStyleHt) && t1::block_size_ok(k.width, k.height)) {
      f.work += (unsigned(t1::block_work_bytes(k.width, k.height)) + 15u) & ~15u;
      f.codes += unsigned(j2k_decode_kernels::ht_codes::quad_count(k.width, k.height));
    }
    k.orientation = int(band.orientation);
    k.style = d.style;
    k.magnitude_bitplanes = d.magnitude_bitplanes;
    k.zero_bitplanes = int(cb.zero_bitplanes);
    k.passes = int(cb.passes);
    k.fraction_bits = d.fraction_bits;
    f.blocks.push_back(k);
    f.index.push_back(b);
    f.tile.push_back(t);
  }
  // The tile's bytes read in place, then its joined chunks.
  for (std::size_t i = first; i < f.blocks.size(); ++i)
    f.blocks[i].codeword += bytes_at + (f.joined_at[i] == SIZE_MAX ? 0 : tile_bytes + f.joined_at[i]);
  f.pieces.push_back({cw.data, tile_bytes});
  f.pieces.push_back({joined.data(), joined.size()});
  f.byte_count += tile_bytes + joined.size();
}

bool is_ht(const DecodeBlock &k) { return (k.style & j2k::ht::kStyleHt) != 0; }

// HT blocks first (their kernel takes them, then Part 1's the rest), each
// kind with the longest codewords first, so that the last blocks to start
// are short; equal ones as laid out.
void launch_order(FrameJob &f) {
  const std::size_t n = f.blocks.size();
  std::vector<std::uint64_t> &keys = f.order.keys(n);
  for (std::size_t i = 0; i < n; ++i)
    keys[i] = std::uint64_t(!is_ht(f.blocks[i])) << 32 | (0xFFFFFFFFu - std::uint32_t(f.blocks[i].length));
  const std::vector<std::uint32_t> &order = f.order.sort();
  const auto permute = [&](auto &list, auto &sorted) {
    sorted.resize(n);
    for (std::size_t i = 0; i < n; ++i) sorted[i] = list[order[i]];
    list.swap(sorted);
  };
  permute(f.blocks, f.sorted_blocks);
  permute(f.index, f.sorted_index);
  permute(f.tile, f.sorted_tile);
}

// Every tile's blocks in f, each tile's descriptors moved by its base in
// the frame's coefficients and by where its bytes, segment lengths and
// work areas start in the frame's.
void lay_out_frame(const std::vector<J2kTileBlocks> &tiles, FrameJob &f) {
  std::size_t count = 0;
  for (const J2kTileBlocks &tile : tiles) count += tile.codewords->blocks.size();
  f.blocks.clear();
  f.index.clear();
  f.tile.clear();
  f.segments.clear();
  f.joined_at.clear();
  f.pieces.clear();
  f.blocks.reserve(count);
  f.index.reserve(count);
  f.tile.reserve(count);
  f.joined_at.reserve(count);
  f.work = f.codes = 0;
  f.byte_count = 0;
  if (f.joined.size() < tiles.size()) f.joined.resize(tiles.size());
  for (std::uint32_t t = 0; t < tiles.size(); ++t)
    lay_out(*tiles[t].plan, *tiles[t].codewords, *tiles[t].bands, t, tiles[t].base, f);
  launch_order(f);
}

// Where each part goes in the Slot::J2kTier1 buffer: the uploaded image
// (descriptors, segment lengths, the HT lookup, codewords), then the
// statuses, the work areas, the HT quads' codes and the coefficients when
// the buffer holds them.
struct Placement {
  std::size_t segments = 0, bytes = 0, tables = 0, image = 0;  // image: the uploaded part's size
  std::size_t status = 0, work = 0, codes = 0, coefficients = 0, total = 0;
};

Placement place(const FrameJob &f, std::size_t byte_count, std::size_t coefficient_count) {
  using detail::align_up;
  Placement p;
  p.segments = align_up(sizeof(DecodeBlock) * f.blocks.size());
  p.tables = p.segments + align_up(sizeof(int) * f.segments.size());
  p.bytes = p.tables + align_up(sizeof(j2k::ht::DecodeTables));
  p.image = p.bytes + byte_count;
  p.status = align_up(p.image);
  p.work = p.status + align_up(sizeof(int) * f.blocks.size());
  p.codes = p.work + align_up(std::size_t(f.work));
  p.coefficients = p.codes + align_up(sizeof(std::uint32_t) * std::size_t(f.codes));
  p.total = p.coefficients + sizeof(std::int32_t) * coefficient_count;
  return p;
}

// Every block of `f` decoded into the frame's coefficients (device memory,
// or the buffer's own copy brought back to `host_coefficients`), zeroed
// first; each tile's problem: that of its lowest-numbered bad block.
std::vector<std::string> decode(detail::CudaState *s, const std::vector<J2kTileBlocks> &tiles, const FrameJob &f,
                                std::size_t coefficient_count, std::int32_t *device_coefficients,
                                std::int32_t *host_coefficients) {
  detail::DeviceScope scope(s);
  const std::size_t n = f.blocks.size();
  const Placement at = place(f, f.byte_count, host_coefficients ? coefficient_count : 0);
  auto *base = static_cast<std::uint8_t *>(s->reserve(detail::Slot::J2kTier1, at.total));
  std::int32_t *coefficients =
      host_coefficients ? reinterpret_cast<std::int32_t *>(base + at.coefficients) : device_coefficients;
  if (coefficient_count)
    detail::check(cudaMemsetAsync(coefficients, 0, sizeof(std::int32_t) * coefficient_count, s->stream),
                  "zeroing the JPEG 2000 coefficients");
  // The image and the statuses pass through the engine's pinned memory.
  auto *host =
      n > 0 ? static_cast<std::uint8_t *>(s->reserve_host(detail::HostSlot::J2kDecoder, at.status + sizeof(int) * n))
            : nullptr;
  const int *status = host ? reinterpret_cast<const int *>(host + at.status) : nullptr;
  if (n > 0) {
    std::uint8_t *image = host;
    const auto bytes_of = [](const auto *p) { return reinterpret_cast<const std::uint8_t *>(p); };
    std::vector<j2k::ByteCopy> copies = {
        {image, bytes_of(f.blocks.data()), sizeof(DecodeBlock) * n},
        {image + at.segments, bytes_of(f.segments.data()), sizeof(int) * f.segments.size()},
        // HT code-blocks' VLC lookup (4 KB) travels with the descriptors.
        {image + at.tables, bytes_of(&j2k::ht::decode_tables()), sizeof(j2k::ht::DecodeTables)}};
    std::size_t put = at.bytes;
    for (const auto &[bytes, size] : f.pieces) {
      copies.push_back({image + put, bytes, size});
      put += size;
    }
    j2k::copy_bytes(copies, 0);  // megabytes of codewords: on several threads
    detail::check(cudaMemcpyAsync(base, image, at.image, cudaMemcpyHostToDevice, s->stream),
                  "uploading the JPEG 2000 code-blocks");
    const int ht = int(std::count_if(f.blocks.begin(), f.blocks.end(), is_ht));
    DecodeArgs a{reinterpret_cast<const DecodeBlock *>(base),
                 0,
                 ht,
                 base + at.bytes,
                 reinterpret_cast<const int *>(base + at.segments),
                 base + at.work,
                 coefficients,
                 reinterpret_cast<int *>(base + at.status),
                 reinterpret_cast<const j2k::ht::DecodeTables *>(base + at.tables),
                 reinterpret_cast<std::uint32_t *>(base + at.codes)};
    launch_kernel(s, j2k_decode_kernels::read_ht_codes, (long long)ceil_div(ht, kHtCodeThreads), kHtCodeThreads, a,
                  "the JPEG 2000 HT code reading kernel");
    launch_kernel(s, j2k_decode_kernels::decode_ht_blocks, (long long)ht, kHtDecodeThreads, a,
                  "the JPEG 2000 HT decoding kernel");
    a.first = ht;
    a.count = int(n) - ht;
    launch_kernel(s, j2k_decode_kernels::decode_blocks, (long long)a.count, kDecodeThreads, a,
                  "the JPEG 2000 tier-1 decoding kernel");
    detail::check(
        cudaMemcpyAsync(host + at.status, base + at.status, sizeof(int) * n, cudaMemcpyDeviceToHost, s->stream),
        "copying back the JPEG 2000 code-blocks' statuses");
  }
  if (host_coefficients && coefficient_count)
    detail::check(cudaMemcpyAsync(host_coefficients, coefficients, sizeof(std::int32_t) * coefficient_count,
                                  cudaMemcpyDeviceToHost, s->stream),
                  "copying back the JPEG 2000 coefficients");
  detail::check(cudaStreamSynchronize(s->stream), "decoding JPEG 2000 code-blocks on the CUDA stream");
  // Per tile, the problem of the lowest-numbered bad block, as cpu's.
  std::vector<std::size_t> first(tiles.size(), n);
  for (std::size_t i = 0; i < n; ++i) {
    if (status[i] == int(j2k::t1::BlockStatus::kOk)) continue;
    std::size_t &f0 = first[f.tile[i]];
    if (f0 == n || f.index[i] < f.index[f0]) f0 = i;
  }
  std::vector<std::string> problems(tiles.size());
  for (std::size_t t = 0; t < tiles.size(); ++t)
    if (first[t] < n)
      problems[t] = j2k::block_problem(*tiles[t].plan, tiles[t].codewords->blocks[f.index[first[t]]],
                                       j2k::t1::BlockStatus(status[first[t]]));
  return problems;
}

// The frame job of this thread, laid out for `tiles`: kept from call to
// call, so a stream of frames lays out without allocating.
const FrameJob &laid_out(const std::vector<J2kTileBlocks> &tiles) {
  thread_local FrameJob f;
  lay_out_frame(tiles, f);
  return f;
}

// One tile through decode().
std::string decode_tile(detail::CudaState *s, const j2k::TilePlan &plan, const j2k::TileCodewords &cw,
                        const std::vector<j2k::BandDecoding> &bands, std::int32_t *device_coefficients,
                        std::int32_t *host_coefficients) {
  const std::vector<J2kTileBlocks> tiles = {{&plan, &cw, &bands, 0}};
  return decode(s, tiles, laid_out(tiles), plan.coefficient_count, device_coefficients, host_coefficients)[0];
}

}  // namespace j2k_decode_launch

std::string j2k_decode_blocks(detail::CudaState *s, const j2k::TilePlan &plan, const j2k::TileCodewords &cw,
                              const std::vector<j2k::BandDecoding> &bands, std::int32_t *coefficients) {
  return j2k_decode_launch::decode_tile(s, plan, cw, bands, coefficients, nullptr);
}

std::string j2k_decode_blocks_to_host(detail::CudaState *s, const j2k::TilePlan &plan, const j2k::TileCodewords &cw,
                                      const std::vector<j2k::BandDecoding> &bands, std::int32_t *coefficients) {
  return j2k_decode_launch::decode_tile(s, plan, cw, bands, nullptr, coefficients);
}

std::vector<std::string> j2k_decode_tiles(detail::CudaState *s, const std::vector<J2kTileBlocks> &tiles,
                                          std::int32_t *coefficients, std::size_t coefficient_count) {
  namespace l = j2k_decode_launch;
  return l::decode(s, tiles, l::laid_out(tiles), coefficient_count, coefficients, nullptr);
}

}  // namespace cf::cuda
