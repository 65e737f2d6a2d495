// The JPEG 2000 encoder end to end (cf::J2kEncoder): every codestream it
// makes is decoded by OpenJPEG's opj_decompress, a third-party decoder, and
// reversible coding must give back the input exactly, for every input
// layout, odd sizes, levels, code-block sizes, progressions, layers, tiles
// and style switches; HT codestreams (block_coder = Ht) are decoded by
// OpenJPH's ojph_expand too; the openmp backend gives the same bytes as
// cpu; bad settings are refused with the rule they break.
#include <array>

#include "j2k_encoder_cases.hpp"

namespace {

using namespace j2k_cases;

void formats_and_sizes(const std::vector<cft::Photo> &photos) {
  const int sizes[][2] = {{1, 1}, {7, 3}, {33, 17}, {321, 241}};
  for (const auto &sz : sizes)
    for (const TestImage &t : images_of_size(sz[0], sz[1], 11, photos)) {
      cf::J2kSettings s;
      s.levels = std::min(5, most_levels(sz[0], sz[1], t));
      check_case(t, s);
    }
}

void levels_blocks_orders(const std::vector<cft::Photo> &photos) {
  const std::vector<TestImage> small = images_of_size(33, 17, 5, photos);
  const std::vector<TestImage> mid = images_of_size(321, 241, 6, photos);
  for (const TestImage *t : {&small[0], &mid[0], &mid[5]})
    for (int levels = 0; levels <= most_levels(t->in.frame.components[0].width, t->in.frame.components[0].height, *t);
         ++levels) {
      cf::J2kSettings s;
      s.levels = levels;
      check_case(*t, s);
    }
  const int blocks[][2] = {{4, 4}, {8, 128}, {1024, 4}, {32, 32}, {16, 64}};
  for (const auto &b : blocks) {
    cf::J2kSettings s;
    s.codeblock_width = b[0];
    s.codeblock_height = b[1];
    s.levels = 3;
    check_case(mid[2], s);
    check_case(mid[5], s);
  }
  for (int p = 0; p < 5; ++p)
    for (int layers : {1, 3}) {
      cf::J2kSettings s;
      s.progression = cf::J2kProgression(p);
      s.layers = layers;
      s.levels = 2;
      check_case(small[3], s);
      check_case(mid[5], s);
    }
  namespace st = cf::j2k_style;
  for (unsigned style : {st::kBypass, st::kReset, st::kRestart, st::kVerticalCausal, st::kPredictable,
                         st::kSegmentationSymbols, st::kBypass | st::kRestart | st::kPredictable, st::kAll}) {
    cf::J2kSettings s;
    s.codeblock_style = style;
    check_case(mid[0], s);
    check_case(mid[3], s);
    s.reversible = false;
    s.bitrate = 1;
    s.layers = 3;
    check_case(mid[2], s);
  }
}

void tiles(const std::vector<cft::Photo> &photos) {
  const std::vector<TestImage> mid = images_of_size(321, 241, 8, photos);
  const int tiles[][2] = {{107, 121}, {321, 64}, {128, 241}};
  for (const auto &tl : tiles)
    for (const TestImage *t : {&mid[2], &mid[5], &mid[1]}) {
      cf::J2kSettings s;
      s.tile_width = tl[0];
      s.tile_height = tl[1];
      s.levels = 3;
      s.progression = cf::J2kProgression::Rpcl;
      check_case(*t, s);
    }
}

// TLM and PLT (T.800 A.7.1, A.7.3) read back by the codestream's own
// structure: each TLM entry names its tile-part and gives its Psot; each
// tile-part's PLT lists one length per packet (layers x resolutions x
// components of them) adding up to the bytes after SOD; without the two
// segments the codestream is the one written without them.
// opj_decompress (and ojph_expand for HT) decode it.
void markers(const std::vector<cft::Photo> &photos) {
  const std::vector<TestImage> mid = images_of_size(321, 241, 9, photos);
  for (const TestImage *t : {&mid[2], &mid[5]})
    for (const cf::J2kBlockCoder coder : {cf::J2kBlockCoder::Part1, cf::J2kBlockCoder::Ht}) {
      cf::J2kSettings s;
      s.tile_width = 107;
      s.tile_height = 121;
      s.levels = 3;
      s.layers = coder == cf::J2kBlockCoder::Part1 ? 3 : 1;
      s.block_coder = coder;
      s.markers = cf::j2k_marker::kAll;
      const std::string what = t->name + " " + describe(s) + " tlm+plt";
      check_case(*t, s);
      const Walk w = walk(encode(cf::Backend::Cpu, *t, s));
      s.markers = 0;
      const std::vector<std::uint8_t> plain = encode(cf::Backend::Cpu, *t, s);
      const std::size_t packets = std::size_t(s.layers) * (s.levels + 1) * std::size_t(t->in.frame.n_components);
      CHECK_MSG(w.complete && w.parts.size() == 6 && w.tlm.size() == 6, "%s: %zu tile-parts, %zu TLM entries, 6 tiles",
                what.c_str(), w.parts.size(), w.tlm.size());
      for (std::size_t i = 0; i < w.parts.size() && i < w.tlm.size(); ++i) {
        const TilePart &p = w.parts[i];
        std::size_t sum = 0;
        for (std::uint32_t v : p.plt) sum += v;
        CHECK_MSG(w.tlm[i].first == p.isot && w.tlm[i].second == p.psot && p.plt.size() == packets && sum == p.data,
                  "%s: tile-part %zu (tile %u, %u bytes, %zu after SOD): TLM says tile %u, %u bytes; PLT %zu packets "
                  "of %zu bytes (want %zu packets)",
                  what.c_str(), i, p.isot, p.psot, p.data, w.tlm[i].first, w.tlm[i].second, p.plt.size(), sum, packets);
      }
      CHECK_MSG(w.stripped == plain, "%s: without TLM and PLT, %zu bytes against %zu written without them",
                what.c_str(), w.stripped.size(), plain.size());
    }
}

// Tile-parts divided by resolution, layer or component (T.800 A.4.2): the
// packets of each progression order generated here from T.800 B.12.1's
// loops (one precinct per resolution), a tile-part starting wherever the
// chosen index changes; each tile's TPsot 0..n-1 with TNsot n, its packets
// split as the division says (PLT), TLM naming every tile-part. Decoded
// exactly by opj_decompress.
void tile_parts(const std::vector<cft::Photo> &photos) {
  const std::vector<TestImage> mid = images_of_size(321, 241, 10, photos);
  const TestImage &t = mid[2];  // RGB
  const int levels = 3, layers = 2, components = 3;
  for (const cf::J2kTileParts division :
       {cf::J2kTileParts::Resolution, cf::J2kTileParts::Layer, cf::J2kTileParts::Component})
    for (const cf::J2kProgression order :
         {cf::J2kProgression::Lrcp, cf::J2kProgression::Rpcl, cf::J2kProgression::Cprl}) {
      // The packets' (layer, resolution, component) in order.
      std::vector<std::array<int, 3>> seq;
      for (int a = 0; a < 4; ++a)
        for (int b = 0; b < 4; ++b)
          for (int c = 0; c < 4; ++c) {
            int l = 0, r = 0, k = 0;
            if (order == cf::J2kProgression::Lrcp) l = a, r = b, k = c;
            if (order == cf::J2kProgression::Rpcl) r = a, k = b, l = c;
            if (order == cf::J2kProgression::Cprl) k = a, r = b, l = c;
            if (l < layers && r <= levels && k < components) seq.push_back({l, r, k});
          }
      const int field = division == cf::J2kTileParts::Layer ? 0 : division == cf::J2kTileParts::Resolution ? 1 : 2;
      std::vector<std::size_t> want(1, 0);  // packets per tile-part
      for (std::size_t i = 0; i < seq.size(); ++i) {
        if (i > 0 && seq[i][field] != seq[i - 1][field]) want.push_back(0);
        ++want.back();
      }
      cf::J2kSettings s;
      s.tile_width = 128;  // 128, 128 and 65 columns
      s.tile_height = 241;
      s.levels = levels;
      s.layers = layers;
      s.progression = order;
      s.tile_parts = division;
      s.markers = cf::j2k_marker::kAll;
      const std::string what = t.name + " " + describe(s) + " tile-parts=" + cf::j2k_tile_parts_name(division);
      check_case(t, s);
      const Walk w = walk(encode(cf::Backend::Cpu, t, s));
      const std::size_t tiles = 3;
      CHECK_MSG(w.complete && w.parts.size() == tiles * want.size() && w.tlm.size() == w.parts.size(),
                "%s: %zu tile-parts, %zu TLM entries; want %zu per tile of %zu tiles", what.c_str(), w.parts.size(),
                w.tlm.size(), want.size(), tiles);
      for (std::size_t i = 0; i < w.parts.size() && i < w.tlm.size() && w.parts.size() == tiles * want.size(); ++i) {
        const TilePart &p = w.parts[i];
        const std::size_t n = want.size(), part = i % n;
        CHECK_MSG(p.isot == i / n && p.tpsot == part && p.tnsot == n && p.plt.size() == want[part] &&
                      w.tlm[i].first == p.isot && w.tlm[i].second == p.psot,
                  "%s: tile-part %zu: tile %u part %u of %u with %zu packets; want tile %zu part %zu of %zu with %zu",
                  what.c_str(), i, p.isot, p.tpsot, p.tnsot, p.plt.size(), i / n, part, n, want[part]);
      }
    }
}

// PSNR of opj_compress at `bytes` (its -r ratio), same levels and blocks.
double openjpeg_psnr(const TestImage &t, std::size_t bytes) {
  const cf::FrameView &f = t.in.frame;
  const int w = f.components[0].width, h = f.components[0].height, n = f.n_components;
  const std::string base = temp_dir + "/opj" + std::to_string(decoded++);
  std::ofstream out(base + (n == 1 ? ".pgm" : ".ppm"), std::ios::binary);
  out << (n == 1 ? "P5\n" : "P6\n") << w << " " << h << "\n255\n";
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      for (int c = 0; c < n; ++c) out.put(char(t.sample(c, x, y)));
  out.close();
  const double ratio = double(w) * h * n / double(bytes);
  std::string log;
  const std::string in = base + (n == 1 ? ".pgm" : ".ppm");
  if (cft::run_command("opj_compress -I -n 6 -b 64,64 -r " + std::to_string(ratio) + " -i '" + in + "' -o '" + base +
                           ".j2k' && opj_decompress -i '" + base + ".j2k' -o '" + base + ".rawl'",
                       log) != 0)
    return NAN;
  const std::vector<std::uint8_t> raw = read_file(base + ".rawl");
  if (raw.size() != std::size_t(w) * h * n) return NAN;
  double e = 0;
  for (int c = 0; c < n; ++c)
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const double d = double(raw[(std::size_t(c) * h + y) * w + x]) - t.sample(c, x, y);
        e += d * d;
      }
  return psnr_of(e, double(w) * h * n, 8);
}

// Irreversible coding: every pass kept is near lossless; a bitrate is met
// from below (within 2% when there is that much to code), quality grows
// with it; coding down to a plane below the estimated one is within 0.05 dB
// of coding every plane; PSNR beside opj_compress's at the same size.
void irreversible(const std::vector<cft::Photo> &photos) {
  const std::vector<TestImage> mid = images_of_size(321, 241, 9, photos);
  for (const TestImage *t : {&mid[0], &mid[1], &mid[2], &mid[3], &mid[5], &mid[6]}) {
    cf::J2kSettings s;
    s.reversible = false;
    const Outcome all = check_case(*t, s);
    std::printf("%-22s irreversible, every pass: %8zu bytes, PSNR %.2f dB\n", t->name.c_str(), all.bytes, all.psnr);
    CHECK_MSG(all.psnr > min_psnr(*t, s), "%s: PSNR %.2f", t->name.c_str(), all.psnr);
  }
  for (const TestImage *t : {&mid[2], &mid[5]}) {
    const cf::FrameView &f = t->in.frame;
    const double pixels = double(f.components[0].width) * f.components[0].height;
    double last = 0;
    for (double bpp : {0.25, 0.5, 1.0, 2.0}) {
      for (int layers : {1, 4}) {
        cf::J2kSettings s;
        s.reversible = false;
        s.bitrate = bpp;
        s.layers = layers;
        const Outcome o = check_case(*t, s);
        const double target = std::floor(bpp * pixels / 8);
        CHECK_MSG(o.bytes <= target && o.bytes >= 0.98 * target, "%s at %.2f bpp, %d layers: %zu bytes for %.0f",
                  t->name.c_str(), bpp, layers, o.bytes, target);
        if (layers == 1) {
          CHECK_MSG(o.psnr > last, "%s: PSNR %.2f at %.2f bpp is not above %.2f", t->name.c_str(), o.psnr, bpp, last);
          last = o.psnr;
          // Coding down to a plane below the estimated one (the default)
          // or to it alone, against every plane (the exhaustive search).
          s.part1_planes_below = -1;
          const Outcome every = check_case(*t, s);
          s.part1_planes_below = 0;
          const Outcome none_below = check_case(*t, s);
          CHECK_MSG(
              none_below.bytes <= target && none_below.bytes >= 0.97 * target && none_below.psnr > every.psnr - 0.3,
              "%s at %.2f bpp, coded to the estimated plane: %zu bytes, PSNR %.3f dB; every plane: %.3f dB",
              t->name.c_str(), bpp, none_below.bytes, none_below.psnr, every.psnr);
          CHECK_MSG(every.bytes <= target && o.psnr > every.psnr - 0.05,
                    "%s at %.2f bpp, a plane below the estimate: PSNR %.3f dB; every plane: %.3f dB", t->name.c_str(),
                    bpp, o.psnr, every.psnr);
          const double theirs = f.n_components == 3 && t->in.rgb ? openjpeg_psnr(*t, o.bytes) : NAN;
          std::printf(
              "%-22s %.2f bpp: %7zu bytes, PSNR %.3f dB (to the estimated plane %.3f dB, every plane %.3f dB; "
              "opj_compress at that size: %.2f dB)\n",
              t->name.c_str(), bpp, o.bytes, o.psnr, none_below.psnr, every.psnr, theirs);
        }
      }
    }
  }
}

// HT code-blocks: every layout and odd sizes, both paths, levels, block
// sizes and tiles; opj_decompress and ojph_expand give the input back
// (reversible) or pass the PSNR of Part 1's irreversible coding.
void ht(const std::vector<cft::Photo> &photos) {
  const int sizes[][2] = {{1, 1}, {7, 3}, {33, 17}, {321, 241}};
  for (const auto &sz : sizes)
    for (const TestImage &t : images_of_size(sz[0], sz[1], 13, photos))
      for (bool reversible : {true, false}) {
        cf::J2kSettings s;
        s.block_coder = cf::J2kBlockCoder::Ht;
        s.reversible = reversible;
        s.levels = std::min(5, most_levels(sz[0], sz[1], t));
        const Outcome o = check_case(t, s);
        CHECK_MSG(o.psnr > min_psnr(t, s), "%s ht: PSNR %.2f", t.name.c_str(), o.psnr);
      }
  const std::vector<TestImage> mid = images_of_size(321, 241, 14, photos);
  for (const TestImage *t : {&mid[0], &mid[2], &mid[5]})
    for (const auto &shape : std::vector<std::array<int, 5>>{
             {4, 4, 1, 0, 0}, {16, 16, 3, 0, 0}, {4, 32, 2, 96, 64}, {1024, 4, 2, 0, 0}, {32, 128, 3, 100, 100}})
      for (bool reversible : {true, false}) {
        cf::J2kSettings s;
        s.block_coder = cf::J2kBlockCoder::Ht;
        s.reversible = reversible;
        s.codeblock_width = shape[0];
        s.codeblock_height = shape[1];
        s.levels = shape[2];
        s.tile_width = shape[3];
        s.tile_height = shape[4];
        s.progression = reversible ? cf::J2kProgression::Rpcl : cf::J2kProgression::Cprl;
        check_case(*t, s);
      }
  // At a target rate: a cleanup plane per block, within 2% under the
  // target; the default window of planes around the estimate within 0.1 dB
  // of coding every plane (the exhaustive search), and so is a window of 2.
  for (const TestImage *t : {&mid[2], &mid[5]}) {
    const cf::FrameView &f = t->in.frame;
    const double pixels = double(f.components[0].width) * f.components[0].height;
    double last = 0;
    for (double bpp : {0.25, 1.0, 2.0}) {
      cf::J2kSettings s;
      s.block_coder = cf::J2kBlockCoder::Ht;
      s.reversible = false;
      s.bitrate = bpp;
      const Outcome o = check_case(*t, s);
      const double target = std::floor(bpp * pixels / 8);
      CHECK_MSG(o.bytes <= target && o.bytes >= 0.98 * target, "%s ht at %.2f bpp: %zu bytes for %.0f", t->name.c_str(),
                bpp, o.bytes, target);
      CHECK_MSG(o.psnr > last, "%s ht: PSNR %.2f at %.2f bpp is not above %.2f", t->name.c_str(), o.psnr, bpp, last);
      last = o.psnr;
      s.ht_rate_planes = 0;
      const Outcome every = check_case(*t, s);
      s.ht_rate_planes = 2;
      const Outcome two = check_case(*t, s);
      for (const Outcome *w : {&o, &two})
        CHECK_MSG(w->bytes <= target && w->bytes >= 0.98 * target && w->psnr > every.psnr - 0.1,
                  "%s ht at %.2f bpp, a window of planes: %zu bytes, PSNR %.3f dB; every plane: %.3f dB",
                  t->name.c_str(), bpp, w->bytes, w->psnr, every.psnr);
      std::printf("%-22s ht %.2f bpp: %7zu bytes, PSNR %.3f dB (2 planes %.3f dB, every plane %.3f dB)\n",
                  t->name.c_str(), bpp, o.bytes, o.psnr, two.psnr, every.psnr);
    }
  }
}

// A byte limit: a frame that fits is coded as without it, byte for byte
// (and so lossless when reversible); one that does not lands within 2 %
// under the limit, on both block coders and both paths, alone and below a
// bitrate's own target.
void max_bytes(const std::vector<cft::Photo> &photos) {
  const std::vector<TestImage> mid = images_of_size(321, 241, 14, photos);
  for (const TestImage *t : {&mid[2], &mid[5]})
    for (cf::J2kBlockCoder coder : {cf::J2kBlockCoder::Part1, cf::J2kBlockCoder::Ht})
      for (bool reversible : {true, false}) {
        cf::J2kSettings s;
        s.block_coder = coder;
        s.reversible = reversible;
        const std::vector<std::uint8_t> free = encode(cf::Backend::Cpu, *t, s);
        s.max_bytes = free.size() + 16;
        const Outcome fits = check_case(*t, s);
        const std::string what = t->name + " " + describe(s);
        // HT under a limit codes candidate planes: the same samples, maybe other bytes.
        if (coder == cf::J2kBlockCoder::Part1)
          CHECK_MSG(encode(cf::Backend::Cpu, *t, s) == free, "%s: a limit above the frame changed its bytes",
                    what.c_str());
        CHECK_MSG(fits.bytes <= s.max_bytes && (!reversible || std::isinf(fits.psnr)),
                  "%s: %zu bytes, PSNR %.2f under a limit the frame fits", what.c_str(), fits.bytes, fits.psnr);
        s.max_bytes = free.size() / 3;
        const Outcome cut = check_case(*t, s);
        CHECK_MSG(cut.bytes <= s.max_bytes && cut.bytes >= 0.98 * double(s.max_bytes) && cut.psnr > 24,
                  "%s: %zu bytes for a limit of %llu, PSNR %.2f", what.c_str(), cut.bytes,
                  (unsigned long long)s.max_bytes, cut.psnr);
        if (!reversible) {
          // A bitrate whose target is half as large again as the limit: the limit wins.
          s.bitrate = 1.5 * 8 * double(s.max_bytes) / (321 * 241);
          const Outcome both = check_case(*t, s);
          CHECK_MSG(both.bytes <= s.max_bytes && both.bytes >= 0.98 * double(s.max_bytes),
                    "%s: %zu bytes for a limit of %llu under %.2f bpp", what.c_str(), both.bytes,
                    (unsigned long long)s.max_bytes, s.bitrate);
        }
        std::printf("%-22s %s %s max-bytes: fits %zu bytes, cut to %zu (PSNR %.2f dB)\n", t->name.c_str(),
                    cf::j2k_block_coder_name(coder), reversible ? "reversible" : "irreversible", fits.bytes, cut.bytes,
                    cut.psnr);
      }
}

void large(const std::vector<cft::Photo> &photos) {
  const TestImage rgb = packed_image("rgb8 photo 1921x1081", 1921, 1081, 3, Content::Photo, 3, photos);
  check_case(rgb, cf::J2kSettings{});
}

// Bad settings: refused by j2k_encode_check and by encode, the rule named.
void refusals(const std::vector<cft::Photo> &photos) {
  const TestImage t = planar_image("gray8", 33, 17, 1, false, 8, kOne, kOne, false, Content::Random, 1, photos);
  auto refused = [&](cf::J2kSettings s, const char *words) {
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
  cf::J2kSettings s;
  s.codeblock_width = 48;
  refused(s, "power of two");
  s = {};
  s.codeblock_width = 128;
  s.codeblock_height = 64;
  refused(s, "at most 4096");
  s = {};
  s.levels = 5;  // 17 rows allow 4
  refused(s, "more than this frame allows (4)");
  s = {};
  s.bitrate = 2;
  refused(s, "reversible coding keeps every pass");
  s = {};
  s.max_bytes = 63;
  refused(s, "max-bytes = 63 is below");
  s = {};
  s.ht_rate_planes = 33;
  refused(s, "ht-rate-planes = 33 must be 0 (every plane) to 32");
  s = {};
  s.part1_planes_below = -2;
  refused(s, "part1-planes-below = -2 must be -1 (every plane) to 32");
  s = {};
  s.layers = 0;
  refused(s, "layers = 0 must be 1..65535");
  s = {};
  s.codeblock_style = 0x40;
  refused(s, "outside the six");
  s = {};
  s.block_coder = cf::J2kBlockCoder::Ht;
  s.layers = 2;
  refused(s, "one layer carries");
  s = {};
  s.block_coder = cf::J2kBlockCoder::Ht;
  s.codeblock_style = cf::j2k_style::kBypass;
  refused(s, "only vertical-causal");
  TestImage bad = t;
  bad.in.bit_depth = 9;
  CHECK(cf::j2k_encode_check(bad.in, cf::J2kSettings{}).find("must be 1..8") != std::string::npos);
  bad = t;
  bad.in.subsampling_x[0] = 2;
  CHECK(cf::j2k_encode_check(bad.in, cf::J2kSettings{}).find("it must be 17x17") != std::string::npos);
}

}  // namespace

int main() {
  if (!cft::have_tool("opj_decompress")) {
    std::printf("SKIP: opj_decompress not found (Debian package libopenjp2-tools): no third-party decoding\n");
    return cft::kSkip;
  }
  temp_dir = (std::filesystem::temp_directory_path() / "cf_j2k_encoder_XXXXXX").string();
  if (!mkdtemp(temp_dir.data())) return 1;
  const std::vector<cft::Photo> photos = cft::load_photos();
  CHECK(!photos.empty());
  if (photos.empty()) return cft::test_result();
  refusals(photos);
  formats_and_sizes(photos);
  levels_blocks_orders(photos);
  tiles(photos);
  markers(photos);
  tile_parts(photos);
  irreversible(photos);
  max_bytes(photos);
  large(photos);
  if (cft::have_tool("ojph_expand"))
    ht(photos);
  else
    std::printf("ojph_expand not found (Debian package openjph-tools): HT codestreams not checked\n");
  std::printf("%d codestreams decoded by opj_decompress, %d of them HT and by ojph_expand too\n", decoded, decoded_ht);
  if (!cft::failures()) std::filesystem::remove_all(temp_dir);
  return cft::test_result();
}
