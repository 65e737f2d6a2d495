// The seed corpus of fuzz_j2kdec, made at build time:
//   j2kdec_seeds OUTDIR CONFORMANCE_DIR HTJ2K_DIR KEPT_DIR STAMP
// Small codestreams of our encoder (cf::J2kEncoder) over the settings that
// change their structure (components, depths, subsampling, levels, both
// wavelets, code-block sizes and styles, layers, progressions, tiles, HT
// code-blocks lossless and at a rate), some wrapped in a JP2 file (T.800
// Annex I), each behind fuzz_j2kdec's flag byte; the conformance streams
// and the HT files of another encoder (JPH files read as JP2, refinement
// passes among them) of at most kMaxConformance bytes, when
// CONFORMANCE_DIR/streams and HTJ2K_DIR exist; and every file of KEPT_DIR
// (tests/fuzz/corpus/j2kdec: inputs kept in the source tree as they are,
// flag byte included, such as a header claiming a frame of gigabytes).
// STAMP is written last, for meson.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "cudafilters/error.hpp"
#include "cudafilters/j2k.hpp"

namespace fs = std::filesystem;

namespace {

constexpr std::uintmax_t kMaxConformance = 16384;
int written = 0;

void write_seed(const fs::path &dir, std::uint8_t flags, const std::vector<std::uint8_t> &bytes) {
  std::ofstream f(dir / ("seed-" + std::to_string(written++)), std::ios::binary);
  f.put(char(flags));
  f.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
}

void put32(std::vector<std::uint8_t> &b, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8) b.push_back(std::uint8_t(v >> s));
}
void put_type(std::vector<std::uint8_t> &b, const char *t) { b.insert(b.end(), t, t + 4); }

// A JP2 file around `cs` (T.800 I.5): signature, File Type, JP2 Header
// (Image Header, an enumerated Colour Specification), Contiguous Codestream.
std::vector<std::uint8_t> jp2_of(const std::vector<std::uint8_t> &cs, std::uint32_t w, std::uint32_t h, int n,
                                 int depth) {
  std::vector<std::uint8_t> b;
  put32(b, 12), put_type(b, "jP  "), put32(b, 0x0D0A870A);
  put32(b, 20), put_type(b, "ftyp"), put_type(b, "jp2 "), put32(b, 0), put_type(b, "jp2 ");
  put32(b, 8 + 22 + 15), put_type(b, "jp2h");
  put32(b, 22), put_type(b, "ihdr"), put32(b, h), put32(b, w);
  b.push_back(0), b.push_back(std::uint8_t(n));
  b.push_back(std::uint8_t(depth - 1)), b.push_back(7), b.push_back(0), b.push_back(0);
  put32(b, 15), put_type(b, "colr"), b.push_back(1), b.push_back(0), b.push_back(0);
  put32(b, n >= 3 ? 16 : 17);  // sRGB or greyscale
  put32(b, std::uint32_t(8 + cs.size())), put_type(b, "jp2c");
  b.insert(b.end(), cs.begin(), cs.end());
  return b;
}

struct Image {
  std::vector<std::vector<std::uint16_t>> planes;
  cf::J2kInput in;
};

// A w x h image of n planar U16 components (chroma subsampled by sx, sy),
// smooth with some noise.
Image make_image(int w, int h, int n, int depth, int sx, int sy, bool rgb) {
  Image im;
  cf::FrameView &f = im.in.frame;
  f.type = cf::SampleType::U16;
  f.n_planes = f.n_components = n;
  im.in.bit_depth = depth;
  im.in.rgb = rgb;
  im.planes.resize(std::size_t(n));
  std::uint32_t x32 = 2463534242u;
  for (int c = 0; c < n; ++c) {
    const int dx = c == 1 || c == 2 ? sx : 1, dy = c == 1 || c == 2 ? sy : 1;
    const int cw = (w + dx - 1) / dx, ch = (h + dy - 1) / dy;
    im.in.subsampling_x[c] = dx, im.in.subsampling_y[c] = dy;
    for (int y = 0; y < ch; ++y)
      for (int x = 0; x < cw; ++x) {
        x32 ^= x32 << 13, x32 ^= x32 >> 17, x32 ^= x32 << 5;
        const std::uint32_t top = (1u << depth) - 1;
        im.planes[c].push_back(std::uint16_t(((x * 9 + y * 5 + c * 40) * (top / 200 + 1) + (x32 & 7)) & top));
      }
    f.planes[c] = {im.planes[c].data(), cw * 2, cw * 2, ch};
    f.components[c] = {c, 0, 1, cw, ch};
  }
  return im;
}

}  // namespace

int main(int argc, char **argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: j2kdec_seeds OUTDIR CONFORMANCE_DIR HTJ2K_DIR KEPT_DIR STAMP\n");
    return 2;
  }
  const fs::path out(argv[1]);
  fs::remove_all(out);
  fs::create_directories(out);
  cf::Engine engine(cf::Backend::Cpu);
  cf::J2kEncoder enc(engine);
  struct Case {
    int w, h, n, depth, sx, sy;
    bool rgb;
    cf::J2kSettings s;
    std::uint8_t flags;  // fuzz_j2kdec's first byte; bit 0 (JP2) is added by the wrapping
    bool jp2;
  };
  namespace st = cf::j2k_style;
  std::vector<Case> cases;
  const auto settings = [](bool rev, int levels, int cbw, int cbh, int layers, cf::J2kProgression p, int tw, int th,
                           unsigned style, double bitrate) {
    cf::J2kSettings s;
    s.reversible = rev, s.levels = levels, s.codeblock_width = cbw, s.codeblock_height = cbh, s.layers = layers;
    s.progression = p, s.tile_width = tw, s.tile_height = th, s.codeblock_style = style, s.bitrate = bitrate;
    return s;
  };
  using P = cf::J2kProgression;
  cases.push_back({1, 1, 1, 8, 1, 1, false, settings(true, 0, 64, 64, 1, P::Lrcp, 0, 0, 0, 0), 0, false});
  cases.push_back({7, 5, 1, 8, 1, 1, false, settings(true, 2, 4, 4, 1, P::Lrcp, 0, 0, 0, 0), 0, true});
  cases.push_back({16, 16, 3, 8, 1, 1, true, settings(true, 3, 8, 8, 2, P::Rlcp, 0, 0, 0, 0), 0x0A, false});
  cases.push_back({33, 17, 3, 8, 1, 1, true, settings(false, 3, 16, 16, 3, P::Rpcl, 0, 0, 0, 0), 0x18, true});
  cases.push_back({33, 17, 3, 8, 2, 2, false, settings(true, 2, 8, 4, 1, P::Pcrl, 0, 0, 0, 0), 0x02, false});
  cases.push_back({24, 20, 3, 8, 2, 1, false, settings(true, 2, 4, 8, 1, P::Cprl, 0, 0, 0, 0), 0, false});
  cases.push_back({32, 24, 4, 8, 1, 1, true, settings(true, 3, 16, 8, 1, P::Lrcp, 0, 0, st::kAll, 0), 0, true});
  cases.push_back({40, 30, 1, 12, 1, 1, false, settings(true, 2, 8, 8, 1, P::Rpcl, 16, 16, 0, 0), 0x04, false});
  cases.push_back({40, 30, 1, 16, 1, 1, false, settings(false, 2, 16, 16, 2, P::Lrcp, 17, 13, 0, 3), 0x08, false});
  cases.push_back({48, 32, 3, 8, 1, 1, true, settings(false, 2, 32, 32, 4, P::Pcrl, 0, 0, st::kBypass, 3), 0, true});
  cases.push_back({29, 31, 1, 8, 1, 1, false, settings(true, 3, 8, 8, 1, P::Lrcp, 0, 0, st::kRestart, 0), 0, false});
  cases.push_back({29, 31, 1, 8, 1, 1, false, settings(true, 3, 8, 8, 1, P::Lrcp, 0, 0, st::kReset, 0), 0, false});
  cases.push_back(
      {29, 31, 1, 8, 1, 1, false, settings(true, 3, 8, 8, 1, P::Lrcp, 0, 0, st::kVerticalCausal, 0), 0, false});
  cases.push_back(
      {29, 31, 1, 8, 1, 1, false, settings(true, 3, 8, 8, 1, P::Lrcp, 0, 0, st::kPredictable, 0), 0, false});
  cases.push_back(
      {29, 31, 1, 8, 1, 1, false, settings(true, 3, 8, 8, 1, P::Lrcp, 0, 0, st::kSegmentationSymbols, 0), 0, false});
  cases.push_back({29, 31, 1, 8, 1, 1, false, settings(false, 3, 8, 8, 3, P::Lrcp, 0, 0, st::kBypass | st::kRestart, 2),
                   0x10, false});
  cases.push_back({64, 48, 3, 8, 1, 1, true, settings(true, 4, 64, 64, 1, P::Cprl, 32, 24, 0, 0), 0x02, false});
  cases.push_back({3, 50, 1, 8, 1, 1, false, settings(true, 1, 4, 32, 1, P::Rlcp, 0, 0, 0, 0), 0, false});
  cases.push_back({50, 3, 2, 8, 1, 1, false, settings(false, 1, 32, 4, 1, P::Lrcp, 0, 0, 0, 0), 0, false});
  const std::size_t part1_cases = cases.size();
  cases.push_back({33, 17, 3, 8, 1, 1, true, settings(true, 3, 16, 16, 1, P::Rpcl, 0, 0, 0, 0), 0, true});
  cases.push_back({40, 30, 1, 16, 1, 1, false, settings(false, 2, 8, 8, 1, P::Lrcp, 17, 13, 0, 0), 0x04, false});
  cases.push_back(
      {48, 32, 3, 8, 2, 2, false, settings(false, 3, 16, 8, 1, P::Cprl, 0, 0, st::kVerticalCausal, 2), 0, false});
  cases.push_back({29, 31, 1, 8, 1, 1, false, settings(true, 2, 4, 4, 1, P::Lrcp, 0, 0, 0, 0), 0x02, false});
  for (std::size_t i = part1_cases; i < cases.size(); ++i) cases[i].s.block_coder = cf::J2kBlockCoder::Ht;
  for (const Case &c : cases) {
    Image im = make_image(c.w, c.h, c.n, c.depth, c.sx, c.sy, c.rgb);
    std::vector<std::uint8_t> cs;
    try {
      enc.encode(im.in, c.s, cs);
    } catch (const cf::Error &e) {
      std::fprintf(stderr, "j2kdec_seeds: %dx%d x%d: %s\n", c.w, c.h, c.n, e.what());
      return 1;
    }
    write_seed(out, c.flags, cs);
    if (c.jp2)
      write_seed(out, std::uint8_t(c.flags | 1), jp2_of(cs, std::uint32_t(c.w), std::uint32_t(c.h), c.n, c.depth));
  }
  const fs::path streams = fs::path(argv[2]) / "streams";
  int conformance = 0;
  if (fs::is_directory(streams))
    for (const auto &e : fs::directory_iterator(streams))
      if (e.path().extension() == ".j2k" && e.file_size() <= kMaxConformance) {
        std::ifstream f(e.path(), std::ios::binary);
        write_seed(out, 0, {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()});
        ++conformance;
      }
  int ht = 0;
  const fs::path ht_files(argv[3]);
  if (fs::is_directory(ht_files))
    for (const auto &e : fs::directory_iterator(ht_files)) {
      const std::string ext = e.path().extension().string();
      if ((ext != ".jph" && ext != ".j2c") || e.file_size() > kMaxConformance) continue;
      std::ifstream f(e.path(), std::ios::binary);
      write_seed(out, ext == ".jph" ? 1 : 0, {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()});
      ++ht;
    }
  int kept = 0;
  const fs::path kept_files(argv[4]);
  if (fs::is_directory(kept_files))
    for (const auto &e : fs::directory_iterator(kept_files)) {
      fs::copy_file(e.path(), out / e.path().filename(), fs::copy_options::overwrite_existing);
      ++kept;
    }
  std::ofstream(argv[5]) << written + kept << " seeds, " << conformance << " of them conformance streams, " << ht
                         << " HT files, " << kept << " kept in the source tree\n";
  return 0;
}
