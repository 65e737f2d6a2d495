// The encoder's precinct partitions (J2kSettings::precincts; T.800 B.6,
// B.7, B.12): random and photo frames of odd sizes, with tiles and with
// subsampled components, coded with several partitions (one size
// everywhere, sizes per resolution, PPx != PPy, precincts that clip the
// code-blocks, down to 1 x 1 code-blocks) in all five progressions, are
// decoded to the input exactly by OpenJPEG's opj_decompress, by OpenJPH's
// ojph_expand (HT code-blocks) and by our own decoder. COD's precinct bytes
// (T.800 A.6.1) and opj_dump's reading of them are the sizes asked; each
// tile's packets (PLT) are layers times B-16's precinct count, empty
// precincts included; rate allocation, layers and byte limits work over
// several precincts; a frame wider than one maximal precinct is coded; the
// default and explicitly maximal precincts give the same bytes; bad sizes
// and bad text are refused with the rule they break.
#include <array>
#include <random>
#include <utility>

#include "cudafilters/engine.hpp"
#include "cudafilters/j2k_decoder.hpp"
#include "j2k_encoder_cases.hpp"

namespace {

using namespace j2k_cases;
using Sizes = std::vector<cf::J2kPrecinctSize>;

// PPx, PPy of resolutions 0..NL as the settings define them: entry i sizes
// resolution NL - i, the last entry every resolution below it too;
// maximal (15, 15) without entries.
std::vector<std::pair<int, int>> exponents_of(const cf::J2kSettings &s) {
  std::vector<std::pair<int, int>> e;
  for (int r = 0; r <= s.levels; ++r) {
    if (s.precincts.empty()) {
      e.push_back({15, 15});
      continue;
    }
    const cf::J2kPrecinctSize &z = s.precincts[std::min<std::size_t>(s.levels - r, s.precincts.size() - 1)];
    e.push_back({z.width_exp, z.height_exp});
  }
  return e;
}

// COD of the main header (T.800 A.6.1): Scod bit 0 and, when set, the
// SPcod bytes after the transform byte, one per resolution from 0 (PPx in
// the low nibble). Empty when Scod bit 0 is clear.
std::vector<std::pair<int, int>> cod_precincts(const std::vector<std::uint8_t> &cs, const std::string &what) {
  std::size_t pos = 2;
  while (pos + 4 <= cs.size() && be16(cs, pos) != 0xFF52) pos += 2 + be16(cs, pos + 2);
  std::vector<std::pair<int, int>> e;
  if (pos + 14 > cs.size()) {
    CHECK_MSG(false, "%s: no COD", what.c_str());
    return e;
  }
  const unsigned length = be16(cs, pos + 2), scod = cs[pos + 4], levels = cs[pos + 9];
  if (!(scod & 1)) {
    CHECK_MSG(length == 12, "%s: Lcod %u without precinct sizes", what.c_str(), length);
    return e;
  }
  CHECK_MSG(length == 12 + levels + 1, "%s: Lcod %u for %u levels with precinct sizes", what.c_str(), length, levels);
  for (unsigned r = 0; r <= levels && pos + 14 + r < cs.size(); ++r)
    e.push_back({cs[pos + 14 + r] & 0xF, cs[pos + 14 + r] >> 4});
  return e;
}

// opj_dump's "preccintsize (w,h)=(a,b) (c,d) ..." of component 0 of the default tile.
std::vector<std::pair<int, int>> opj_dump_precincts(const std::string &path) {
  std::string log;
  cft::run_command("opj_dump -i '" + path + "'", log);
  std::vector<std::pair<int, int>> e;
  const std::size_t at = log.find("preccintsize (w,h)=");
  if (at == std::string::npos) return e;
  std::size_t p = at + 19;
  int w = 0, h = 0, n = 0;
  while (p < log.size() && log[p] != '\n' && std::sscanf(log.c_str() + p, " (%d,%d)%n", &w, &h, &n) == 2) {
    e.push_back({w, h});
    p += std::size_t(n);
  }
  return e;
}

std::string text_of(const std::vector<std::pair<int, int>> &e) {
  std::string t;
  for (auto [w, h] : e) t += "(" + std::to_string(w) + "," + std::to_string(h) + ")";
  return t;
}

// Our own decoder gives the input back exactly.
void own_decode(const TestImage &t, const std::vector<std::uint8_t> &cs, const std::string &what) {
  cf::J2kDecodeSettings ds;
  try {
    const cf::J2kImageInfo info = cf::j2k_image_info(cs.data(), cs.size(), ds);
    const cf::FrameView &f = t.in.frame;
    CHECK_MSG(info.components == f.n_components, "%s: our decoder sees %d components", what.c_str(), info.components);
    if (info.components != f.n_components) return;
    std::vector<std::vector<std::uint16_t>> planes(std::size_t(f.n_components));
    cf::FrameView v;
    v.type = cf::SampleType::U16;
    v.n_planes = v.n_components = f.n_components;
    for (int c = 0; c < f.n_components; ++c) {
      const int w = info.component_width[c], h = info.component_height[c];
      CHECK_MSG(w == f.components[c].width && h == f.components[c].height, "%s: component %d is %dx%d", what.c_str(), c,
                w, h);
      planes[c].assign(std::size_t(w) * h, 0);
      v.planes[c] = {planes[c].data(), std::ptrdiff_t(w) * 2, w * 2, h};
      v.components[c] = {c, 0, 1, w, h};
    }
    cf::Engine engine(cf::Backend::Cpu);
    cf::J2kDecoder dec(engine);
    dec.decode(cs.data(), cs.size(), ds, v);
    long differ = 0;
    for (int c = 0; c < f.n_components; ++c)
      for (int y = 0; y < f.components[c].height; ++y)
        for (int x = 0; x < f.components[c].width; ++x)
          differ += planes[c][std::size_t(y) * f.components[c].width + x] != t.sample(c, x, y);
    CHECK_MSG(differ == 0 && dec.problem().empty(), "%s: our decoder: %ld samples differ (%s)", what.c_str(), differ,
              dec.problem().c_str());
  } catch (const cf::Error &e) {
    CHECK_MSG(false, "%s: our decoder: %s", what.c_str(), e.what());
  }
}

// B-16: the precincts of a resolution [x0, x1) x [y0, y1), cells of
// 2^PPx x 2^PPy anchored at 0 (none when it is empty).
std::size_t precincts_of(std::uint32_t x0, std::uint32_t x1, std::uint32_t y0, std::uint32_t y1, int ppx, int ppy) {
  if (x1 <= x0 || y1 <= y0) return 0;
  const auto across = [](std::uint32_t a0, std::uint32_t a1, int e) {
    return ((std::uint64_t(a1) + (1u << e) - 1) >> e) - (a0 >> e);
  };
  return std::size_t(across(x0, x1, ppx) * across(y0, y1, ppy));
}

std::uint32_t ceil_div(std::uint32_t a, std::uint32_t b) { return (a + b - 1) / b; }

// The packets of tile t (of one tile-part): layers x the precincts of every
// component and resolution (B-12, B-14, B-16).
std::size_t packets_of_tile(const TestImage &t, const cf::J2kSettings &s, std::uint32_t tile) {
  const cf::FrameView &f = t.in.frame;
  const std::uint32_t w = std::uint32_t(f.components[0].width), h = std::uint32_t(f.components[0].height);
  const std::uint32_t tw = s.tile_width ? std::uint32_t(s.tile_width) : w;
  const std::uint32_t th = s.tile_height ? std::uint32_t(s.tile_height) : h;
  const std::uint32_t across = ceil_div(w, tw), p = tile % across, q = tile / across;
  const std::uint32_t tx0 = p * tw, tx1 = std::min(w, tx0 + tw), ty0 = q * th, ty1 = std::min(h, ty0 + th);
  const auto e = exponents_of(s);
  std::size_t n = 0;
  for (int c = 0; c < f.n_components; ++c) {
    const std::uint32_t sx = std::uint32_t(t.in.subsampling_x[c]), sy = std::uint32_t(t.in.subsampling_y[c]);
    for (int r = 0; r <= s.levels; ++r) {
      const std::uint32_t d = 1u << (s.levels - r);
      n += precincts_of(ceil_div(ceil_div(tx0, sx), d), ceil_div(ceil_div(tx1, sx), d), ceil_div(ceil_div(ty0, sy), d),
                        ceil_div(ceil_div(ty1, sy), d), e[std::size_t(r)].first, e[std::size_t(r)].second);
    }
  }
  return n * std::size_t(s.layers);
}

// One case: check_case's decodings (opj_decompress, ojph_expand for HT,
// cpu and openmp alike), our own decoder, COD's precinct bytes and
// opj_dump's reading of them, and each tile's packet count (PLT).
void precinct_case(const TestImage &t, cf::J2kSettings s, bool ojph = true) {
  s.markers = cf::j2k_marker::kPlt;
  const std::string what = t.name + " " + describe(s);
  if (check_case(t, s, ojph).bytes == 0) return;  // refused: check_case said so
  const std::vector<std::uint8_t> cs = encode(cf::Backend::Cpu, t, s);
  if (lossless(s)) own_decode(t, cs, what);
  const auto want = exponents_of(s);
  auto cod = cod_precincts(cs, what);
  if (cod.empty()) cod.assign(std::size_t(s.levels) + 1, {15, 15});  // Scod bit 0 clear: maximal
  CHECK_MSG(cod == want, "%s: COD's precincts %s, asked %s", what.c_str(), text_of(cod).c_str(), text_of(want).c_str());
  const std::string path = temp_dir + "/dump.j2k";
  write_file(path, cs);
  const auto dumped = opj_dump_precincts(path);
  CHECK_MSG(dumped == want, "%s: opj_dump's precincts %s, asked %s", what.c_str(), text_of(dumped).c_str(),
            text_of(want).c_str());
  const Walk w = walk(cs);
  CHECK_MSG(w.complete, "%s: the codestream does not walk to EOC", what.c_str());
  for (const TilePart &p : w.parts) {
    const std::size_t packets = packets_of_tile(t, s, p.isot);
    CHECK_MSG(p.plt.size() == packets, "%s: tile %u has %zu packets, B-16 gives %zu", what.c_str(), p.isot,
              p.plt.size(), packets);
  }
}

cf::J2kSettings with(Sizes sizes, int levels, cf::J2kProgression order, int layers = 1) {
  cf::J2kSettings s;
  s.precincts = std::move(sizes);
  s.levels = levels;
  s.progression = order;
  s.layers = layers;
  return s;
}

// The partitions, each in every progression: 64 x 64 everywhere;
// 256 x 256 then 128 x 128 on a frame smaller than both; 32 x 32 under
// 64 x 64 code-blocks (clipped to 16 x 16 above resolution 0); PPx != PPy
// per resolution; 1 x 1 precincts at resolution 0 (1 x 1 code-blocks).
void partitions(const std::vector<cft::Photo> &photos) {
  const TestImage gray =
      planar_image("gray8 random 97x61", 97, 61, 1, false, 8, kOne, kOne, false, Content::Random, 21, photos);
  const TestImage i420 =
      planar_image("i420 photo 97x61", 97, 61, 3, false, 8, k420x, k420y, false, Content::Photo, 22, photos);
  const TestImage rgb = packed_image("rgb8 photo 321x241", 321, 241, 3, Content::Photo, 23, photos);
  const TestImage y42b =
      planar_image("y42b random 97x61", 97, 61, 3, false, 8, k422x, kOne, false, Content::Random, 24, photos);
  const TestImage gray16 =
      planar_image("gray16 smooth 97x61", 97, 61, 1, true, 16, kOne, kOne, false, Content::Smooth, 25, photos);
  const std::vector<std::pair<Sizes, int>> lists = {
      {{{6, 6}}, 3}, {{{8, 8}, {7, 7}}, 3}, {{{5, 5}}, 3}, {{{6, 4}, {3, 5}, {4, 2}}, 3}, {{{4, 4}, {3, 3}, {0, 0}}, 2},
  };
  for (const auto &[sizes, levels] : lists)
    for (int p = 0; p < 5; ++p) {
      const cf::J2kProgression order = cf::J2kProgression(p);
      precinct_case(gray, with(sizes, levels, order, 1 + p % 2));
      precinct_case(i420, with(sizes, 2, order, 1 + (p + 1) % 2));
      precinct_case(rgb, with(sizes, levels, order));
    }
  for (int p = 0; p < 5; ++p) {
    precinct_case(y42b, with({{5, 4}, {2, 3}}, 2, cf::J2kProgression(p), 2));
    precinct_case(gray16, with({{1, 1}}, 2, cf::J2kProgression(p)));  // 2 x 2 precincts, 1 x 1 code-blocks above r 0
  }
  // Code-blocks of other shapes under the precincts: 32 x 128 and 128 x 8.
  cf::J2kSettings s = with({{5, 6}}, 3, cf::J2kProgression::Rpcl);
  s.codeblock_width = 32;
  s.codeblock_height = 128;
  precinct_case(rgb, s);
  s.codeblock_width = 128;
  s.codeblock_height = 8;
  s.progression = cf::J2kProgression::Pcrl;
  precinct_case(rgb, s);
}

// Tiles (partial ones at the edges) with subsampled components and
// precincts, in the position-driven orders too, and a tile-part per
// resolution or component.
void tiles(const std::vector<cft::Photo> &photos) {
  const TestImage i420 =
      planar_image("i420 photo 97x61", 97, 61, 3, false, 8, k420x, k420y, false, Content::Photo, 31, photos);
  const TestImage rgb = packed_image("rgb8 photo 321x241", 321, 241, 3, Content::Photo, 32, photos);
  for (int p = 0; p < 5; ++p) {
    cf::J2kSettings s = with({{4, 4}, {3, 3}}, 2, cf::J2kProgression(p), 2);
    s.tile_width = 45;
    s.tile_height = 32;
    precinct_case(i420, s);
    s = with({{6, 5}, {5, 5}, {4, 4}}, 3, cf::J2kProgression(p));
    s.tile_width = 107;
    s.tile_height = 121;
    precinct_case(rgb, s);
  }
  for (const cf::J2kTileParts division : {cf::J2kTileParts::Resolution, cf::J2kTileParts::Component})
    for (const cf::J2kProgression order : {cf::J2kProgression::Rpcl, cf::J2kProgression::Pcrl}) {
      cf::J2kSettings s = with({{5, 5}, {4, 4}}, 2, order, 2);
      s.tile_width = 45;
      s.tile_height = 32;
      s.tile_parts = division;
      s.markers = cf::j2k_marker::kAll;
      const std::string what = i420.name + " " + describe(s) + " tile-parts=" + cf::j2k_tile_parts_name(division);
      check_case(i420, s);
      // Each tile's parts numbered 0..n-1 of n, TLM naming every one.
      const Walk w = walk(encode(cf::Backend::Cpu, i420, s));
      CHECK_MSG(w.complete && w.tlm.size() == w.parts.size(), "%s: %zu tile-parts, %zu TLM entries", what.c_str(),
                w.parts.size(), w.tlm.size());
      std::size_t packets = 0;
      for (std::size_t i = 0; i < w.parts.size(); ++i) {
        const TilePart &p = w.parts[i];
        const bool first = i == 0 || w.parts[i - 1].isot != p.isot;
        const bool last = i + 1 == w.parts.size() || w.parts[i + 1].isot != p.isot;
        CHECK_MSG((first ? p.tpsot == 0 : p.tpsot == w.parts[i - 1].tpsot + 1) && (!last || p.tpsot + 1 == p.tnsot),
                  "%s: tile-part %zu is part %u of %u of tile %u", what.c_str(), i, p.tpsot, p.tnsot, p.isot);
        packets += p.plt.size();
        if (last) {
          CHECK_MSG(packets == packets_of_tile(i420, s, p.isot), "%s: tile %u has %zu packets, B-16 gives %zu",
                    what.c_str(), p.isot, packets, packets_of_tile(i420, s, p.isot));
          packets = 0;
        }
      }
    }
}

// Whether OpenJPH reads back its own codestream of this frame, precincts,
// levels and progression (ojph_compress, then ojph_expand). OpenJPH 0.9
// does not for some, precincts of 16 x 16 in LRCP, RLCP and CPRL on a
// photo for one; ojph_expand is asked only about ours where it reads its
// own, and opj_decompress and our decoder check them all.
bool ojph_reads_own(const TestImage &t, const cf::J2kSettings &s) {
  const cf::FrameView &f = t.in.frame;
  const int w = f.components[0].width, h = f.components[0].height, n = f.n_components;
  const bool yuv = n == 3 && !t.in.rgb;
  const std::string in = temp_dir + "/ojph_in" + (n == 1 ? ".pgm" : yuv ? ".yuv" : ".ppm");
  const std::string out = temp_dir + "/ojph_own.j2c";
  std::string bytes = yuv ? "" : (n == 1 ? "P5\n" : "P6\n") + std::to_string(w) + " " + std::to_string(h) + "\n255\n";
  if (yuv)
    for (int c = 0; c < n; ++c)
      for (int y = 0; y < f.components[c].height; ++y)
        for (int x = 0; x < f.components[c].width; ++x) bytes += char(t.sample(c, x, y));
  else
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        for (int c = 0; c < n; ++c) bytes += char(t.sample(c, x, y));
  write_file(in, std::vector<std::uint8_t>(bytes.begin(), bytes.end()));
  std::string sizes;  // ojph_compress lists them from the lowest resolution up
  for (auto [pw, ph] : exponents_of(s))
    sizes += (sizes.empty() ? "{" : ",{") + std::to_string(1 << pw) + "," + std::to_string(1 << ph) + "}";
  std::string raw;  // a .yuv's geometry
  if (yuv)
    raw = " -dims '{" + std::to_string(w) + "," + std::to_string(h) +
          "}' -num_comps 3 -signed false,false,false -bit_depth 8,8,8 -downsamp '{1,1},{" +
          std::to_string(t.in.subsampling_x[1]) + "," + std::to_string(t.in.subsampling_y[1]) + "}'";
  const char *orders[] = {"LRCP", "RLCP", "RPCL", "PCRL", "CPRL"};
  std::string log;
  const int rc =
      cft::run_command("ojph_compress -i '" + in + "' -o '" + out + "'" + raw + " -reversible true -num_decomps " +
                           std::to_string(s.levels) + " -prog_order " + orders[int(s.progression)] + " -precincts '" +
                           sizes + "' && ojph_expand -i '" + out + "' -o '" + temp_dir + "/ojph_own" +
                           (n == 1 ? ".pgm"
                            : yuv  ? ".yuv"
                                   : ".ppm") +
                           "'",
                       log);
  const bool read = rc == 0 && log.find("error") == std::string::npos;
  if (!read) std::printf("%s %s: OpenJPH misreads its own codestream\n", t.name.c_str(), describe(s).c_str());
  return read;
}

int ojph_passed_over = 0;

// HT code-blocks under precincts, decoded by opj_decompress, our decoder
// and ojph_expand (where OpenJPH reads its own).
void ht(const std::vector<cft::Photo> &photos) {
  const TestImage gray =
      planar_image("gray8 photo 97x61", 97, 61, 1, false, 8, kOne, kOne, false, Content::Photo, 41, photos);
  const TestImage rgb = packed_image("rgb8 photo 321x241", 321, 241, 3, Content::Photo, 42, photos);
  const TestImage i420 =
      planar_image("i420 random 97x61", 97, 61, 3, false, 8, k420x, k420y, false, Content::Random, 43, photos);
  for (const Sizes &sizes : {Sizes{{5, 5}}, Sizes{{6, 6}, {5, 5}}, Sizes{{6, 4}, {4, 3}, {2, 2}}, Sizes{{4, 4}}})
    for (int p = 0; p < 5; ++p)
      for (const TestImage *t : {&gray, &rgb, &i420}) {
        cf::J2kSettings s = with(sizes, t == &i420 ? 2 : 3, cf::J2kProgression(p));
        s.block_coder = cf::J2kBlockCoder::Ht;
        const bool ojph = ojph_reads_own(*t, s);
        ojph_passed_over += !ojph;
        precinct_case(*t, s, ojph);
      }
  std::printf("HT under precincts: ojph_expand not asked about %d cases where it misreads its own codestream\n",
              ojph_passed_over);
}

// Rate allocation over several precincts: a bitrate met from below within
// 2 % in three layers, and a byte limit, both decodable.
void rates(const std::vector<cft::Photo> &photos) {
  const TestImage rgb = packed_image("rgb8 photo 321x241", 321, 241, 3, Content::Photo, 51, photos);
  for (const cf::J2kBlockCoder coder : {cf::J2kBlockCoder::Part1, cf::J2kBlockCoder::Ht}) {
    cf::J2kSettings s = with({{5, 5}, {4, 4}}, 4, cf::J2kProgression::Rpcl, coder == cf::J2kBlockCoder::Ht ? 1 : 3);
    s.block_coder = coder;
    s.reversible = false;
    s.bitrate = 1;
    const Outcome o = check_case(rgb, s);
    const double target = std::floor(321.0 * 241 / 8);
    CHECK_MSG(o.bytes <= target && o.bytes >= 0.98 * target && o.psnr > 22,
              "%s %s at 1 bpp with precincts: %zu bytes for %.0f, PSNR %.2f", rgb.name.c_str(), describe(s).c_str(),
              o.bytes, target, o.psnr);
    s.bitrate = 0;
    s.reversible = true;
    s.max_bytes = 12000;
    const Outcome cut = check_case(rgb, s);
    CHECK_MSG(cut.bytes <= 12000 && cut.bytes >= 0.98 * 12000 && cut.psnr > 20,
              "%s %s: %zu bytes under max-bytes 12000, PSNR %.2f", rgb.name.c_str(), describe(s).c_str(), cut.bytes,
              cut.psnr);
  }
}

// A frame wider than 32768 samples: with maximal precincts its highest
// resolution holds two of them (B-16), which the encoder codes.
void wider_than_a_precinct(const std::vector<cft::Photo> &photos) {
  const TestImage wide =
      planar_image("gray8 random 33000x3", 33000, 3, 1, false, 8, kOne, kOne, false, Content::Random, 61, photos);
  cf::J2kSettings s;
  s.levels = 1;
  precinct_case(wide, s);
}

// Without precincts, and with 32768 x 32768 given once or for every
// resolution: the same codestream, COD without precinct sizes.
void default_is_maximal(const std::vector<cft::Photo> &photos) {
  for (const TestImage &t : images_of_size(97, 61, 71, photos))
    for (int p = 0; p < 5; ++p) {
      cf::J2kSettings s;
      s.levels = p == 2 ? 2 : 3;
      s.progression = cf::J2kProgression(p);
      s.layers = 2;
      s.tile_width = p == 2 ? 45 : 0;
      s.tile_height = p == 2 ? 40 : 0;
      const std::string what = t.name + " " + describe(s);
      const std::vector<std::uint8_t> plain = encode(cf::Backend::Cpu, t, s);
      CHECK_MSG(cod_precincts(plain, what).empty(), "%s: COD lists precinct sizes by default", what.c_str());
      s.precincts = {{15, 15}};
      CHECK_MSG(encode(cf::Backend::Cpu, t, s) == plain, "%s: 32768x32768 once differs from the default", what.c_str());
      s.precincts.assign(std::size_t(s.levels) + 1, {15, 15});
      CHECK_MSG(encode(cf::Backend::Cpu, t, s) == plain, "%s: 32768x32768 per resolution differs from the default",
                what.c_str());
    }
}

// Bad sizes: refused by j2k_encode_check and by encode, the rule named;
// bad text refused by j2k_parse_precincts, good text read and written back.
void refusals(const std::vector<cft::Photo> &photos) {
  const TestImage t = planar_image("gray8", 97, 61, 1, false, 8, kOne, kOne, false, Content::Random, 1, photos);
  auto refused = [&](const Sizes &sizes, int levels, const char *words) {
    cf::J2kSettings s;
    s.levels = levels;
    s.precincts = sizes;
    const std::string why = cf::j2k_encode_check(t.in, s);
    CHECK_MSG(why.find(words) != std::string::npos, "expected \"%s\" in \"%s\"", words, why.c_str());
    bool threw = false;
    try {
      encode(cf::Backend::Cpu, t, s);
    } catch (const cf::Error &e) {
      threw = std::string(e.what()).find(words) != std::string::npos;
    }
    CHECK_MSG(threw, "encode did not refuse with \"%s\"", words);
  };
  refused({{16, 16}}, 3, "size 1 (65536x65536, resolution 3 and below) must be a power of two from 1 to 32768");
  refused({{-1, 4}}, 3, "size 1 (2^-1x16, resolution 3 and below) must be a power of two");
  refused({{6, 6}, {0, 3}}, 3, "size 2 (1x8, resolution 2 and below): above resolution 0 a precinct is at least 2x2");
  refused({{0, 0}}, 2, "above resolution 0");
  refused(Sizes(5, {6, 6}), 3, "precincts: 5 sizes for the 4 resolutions of levels = 3");
  cf::J2kSettings ok;
  ok.levels = 2;
  ok.precincts = {{4, 4}, {3, 3}, {0, 0}};  // 1 x 1 at resolution 0 only
  CHECK_MSG(cf::j2k_encode_check(t.in, ok).empty(), "%s", cf::j2k_encode_check(t.in, ok).c_str());

  Sizes sizes = {{1, 1}};
  const auto bad_text = [&](const char *text, const char *words) {
    const std::string why = cf::j2k_parse_precincts(text, sizes);
    CHECK_MSG(why.find(words) != std::string::npos, "\"%s\": expected \"%s\" in \"%s\"", text, words, why.c_str());
    CHECK_MSG(sizes.size() == 1 && sizes[0].width_exp == 1, "\"%s\": the sizes changed on a refusal", text);
  };
  bad_text("256,256,128", "3 numbers; sizes are width,height pairs");
  bad_text("256,100", "\"100\" is not a power of two from 1 to 32768");
  bad_text("64,,64,64", "an empty entry is not a power of two");
  bad_text("65536,64", "\"65536\" is not a power");
  bad_text("[256,256]", "\"[256\" is not a power");
  bad_text("0,4", "\"0\" is not a power");
  CHECK(cf::j2k_parse_precincts("256,256, 128,64,1,2", sizes).empty() && sizes.size() == 3 && sizes[0].width_exp == 8 &&
        sizes[0].height_exp == 8 && sizes[1].width_exp == 7 && sizes[1].height_exp == 6 && sizes[2].width_exp == 0 &&
        sizes[2].height_exp == 1);
  CHECK(cf::j2k_precincts_text(sizes) == "256,256,128,64,1,2");
  CHECK(cf::j2k_parse_precincts("", sizes).empty() && sizes.empty() && cf::j2k_precincts_text(sizes).empty());
}

}  // namespace

int main() {
  if (!cft::have_tool("opj_decompress") || !cft::have_tool("opj_dump")) {
    std::printf("SKIP: opj_decompress or opj_dump not found (Debian package libopenjp2-tools)\n");
    return cft::kSkip;
  }
  temp_dir = (std::filesystem::temp_directory_path() / "cf_j2k_precincts_XXXXXX").string();
  if (!mkdtemp(temp_dir.data())) return 1;
  const std::vector<cft::Photo> photos = cft::load_photos();
  CHECK(!photos.empty());
  if (photos.empty()) return cft::test_result();
  refusals(photos);
  default_is_maximal(photos);
  partitions(photos);
  tiles(photos);
  rates(photos);
  wider_than_a_precinct(photos);
  if (cft::have_tool("ojph_expand"))
    ht(photos);
  else
    std::printf("ojph_expand not found (Debian package openjph-tools): HT codestreams not checked\n");
  std::printf("%d codestreams decoded by opj_decompress, %d of them HT and by ojph_expand too\n", decoded, decoded_ht);
  if (!cft::failures()) std::filesystem::remove_all(temp_dir);
  return cft::test_result();
}
