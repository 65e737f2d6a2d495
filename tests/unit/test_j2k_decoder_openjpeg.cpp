// The JPEG 2000 decoder (cudafilters/j2k_decoder.hpp) against OpenJPEG, a
// third-party codec: codestreams made by opj_compress from real photos
// (opencv-doc's samples, CF_TEST_IMAGES; synthetic pictures without them)
// with every option that changes the codestream's structure: levels,
// code-block sizes, progressions, layers by rate and by PSNR, tiles of odd
// sizes, precincts, SOP and EPH, the six code-block style switches, the
// 9/7 wavelet, tile-parts, progression order changes, image and tile
// offsets, odd image sizes, 12-bit, signed, 4-component and subsampled
// images. Each is decoded on cpu and openmp (equal sample for sample) and
// compared with opj_decompress's decoding of the same stream: exactly for
// the 5/3 wavelet (and, lossless, with the source image), within 1 per
// sample for the 9/7; then with the first 1..L-1 layers (opj_decompress -l)
// and at reductions 1 and 2 (opj_decompress -r). Skipped (77) without the
// opj tools.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "check.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k_decoder.hpp"
#include "frames.hpp"
#include "shell.hpp"

namespace {

std::string temp_dir;

std::vector<std::uint8_t> read_file(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// A source image: planar samples (component after component, each at its
// subsampled size), written as PGM/PPM (whole-size unsigned components of
// 1 or 3) or as raw with opj_compress's -F description.
struct Source {
  std::string name;
  int width = 0, height = 0, components = 0, depth = 8;
  bool is_signed = false;
  int dx[4] = {1, 1, 1, 1}, dy[4] = {1, 1, 1, 1};
  std::vector<std::vector<std::int32_t>> planes;
  std::string path, raw_format;  // raw_format: "-F ..." for raw sources

  int cw(int c) const { return (width + dx[c] - 1) / dx[c]; }
  int ch(int c) const { return (height + dy[c] - 1) / dy[c]; }
};

// A sample of the photos (or of a synthetic picture) at (x, y), colour c.
int picture(const std::vector<cft::Photo> &photos, int which, int c, int x, int y) {
  if (photos.empty()) {
    // Smooth ramps, an edge, and some noise: every subband gets data.
    const unsigned noise = (unsigned(x) * 2654435761u ^ unsigned(y) * 40503u ^ unsigned(c) * 977u) >> 27;
    return int((x * 3 + y * 5 + c * 60 + ((x / 9 + y / 7) % 2) * 70 + noise) & 255);
  }
  const cft::Photo &p = photos[std::size_t(which) % photos.size()];
  const int px = (x + 37 * which) % p.width, py = (y + 23 * which) % p.height;
  return p.rgb[(std::size_t(py) * p.width + px) * 3 + c % 3];
}

// opj_compress reads (width x height) / (dx x dy) samples of a subsampled raw
// component: subsampled sources have sides that are multiples of dx and dy.
Source make_source(const std::vector<cft::Photo> &photos, const std::string &name, int w, int h, int n, int depth,
                   bool is_signed, int which, int sub_x = 1, int sub_y = 1) {
  Source s;
  s.name = name;
  s.width = w, s.height = h, s.components = n, s.depth = depth, s.is_signed = is_signed;
  for (int c = 1; c < n && c < 3; ++c) s.dx[c] = sub_x, s.dy[c] = sub_y;
  s.planes.resize(std::size_t(n));
  for (int c = 0; c < n; ++c)
    for (int y = 0; y < s.ch(c); ++y)
      for (int x = 0; x < s.cw(c); ++x) {
        std::int32_t v = picture(photos, which, c, x * s.dx[c], y * s.dy[c]);
        // Deeper samples: the photo in the top bits, a pattern below.
        if (depth > 8) v = v << (depth - 8) | ((x * 5 + y * 3) & ((1 << (depth - 8)) - 1));
        if (depth < 8) v >>= 8 - depth;
        if (is_signed) v -= 1 << (depth - 1);
        s.planes[std::size_t(c)].push_back(v);
      }
  const bool pnm = !is_signed && (n == 1 || n == 3) && sub_x == 1 && sub_y == 1;
  s.path = temp_dir + "/src-" + std::to_string(w) + "x" + std::to_string(h) + "-" + std::to_string(n) + "-" +
           std::to_string(depth) + (is_signed ? "s" : "u") + std::to_string(which) + std::to_string(sub_x) +
           std::to_string(sub_y) + (pnm ? (n == 1 ? ".pgm" : ".ppm") : ".raw");
  std::ofstream f(s.path, std::ios::binary);
  const int bytes = depth > 8 ? 2 : 1;
  if (pnm) {
    f << (n == 1 ? "P5\n" : "P6\n") << w << " " << h << "\n" << ((1 << depth) - 1) << "\n";
    for (int i = 0; i < w * h; ++i)
      for (int c = 0; c < n; ++c) {
        const std::uint32_t v = std::uint32_t(s.planes[std::size_t(c)][std::size_t(i)]);
        if (bytes == 2) f.put(char(v >> 8));
        f.put(char(v & 255));
      }
  } else {
    // opj_compress's raw input: planar, big-endian when over 8 bits.
    s.raw_format = "-F " + std::to_string(w) + "," + std::to_string(h) + "," + std::to_string(n) + "," +
                   std::to_string(depth) + "," + (is_signed ? "s" : "u");
    for (int c = 0; c < n; ++c) {
      s.raw_format += (c ? ":" : "@") + std::to_string(s.dx[c]) + "x" + std::to_string(s.dy[c]);
      for (const std::int32_t v : s.planes[std::size_t(c)]) {
        if (bytes == 2) f.put(char(std::uint32_t(v) >> 8 & 255));
        f.put(char(std::uint32_t(v) & 255));
      }
    }
  }
  return s;
}

// Decoded components as signed values (ours: the offset of signed
// components taken off again).
struct Image {
  std::vector<int> width, height;
  std::vector<std::vector<std::int32_t>> planes;
};

std::string decode_ours(const std::vector<std::uint8_t> &cs, cf::Backend backend, int layers, int reduce, Image &out) {
  cf::J2kDecodeSettings s;
  s.layers = layers;
  s.reduce = reduce;
  try {
    const cf::J2kImageInfo info = cf::j2k_image_info(cs.data(), cs.size(), s);
    int depth = 0;
    for (int c = 0; c < info.components; ++c) depth = std::max(depth, info.bit_depth[c]);
    const int bytes = depth > 8 ? 2 : 1;
    cf::FrameView v;
    v.type = bytes == 2 ? cf::SampleType::U16 : cf::SampleType::U8;
    v.n_planes = v.n_components = info.components;
    std::vector<std::vector<std::uint8_t>> buffers(std::size_t(info.components));
    for (int c = 0; c < info.components; ++c) {
      const int w = info.component_width[c], h = info.component_height[c];
      const int stride = w * bytes + 3;  // padded rows
      buffers[std::size_t(c)].assign(std::size_t(stride) * std::max(h, 1), 0xA5);
      v.planes[c] = {buffers[std::size_t(c)].data(), stride, w * bytes, h};
      v.components[c] = {c, 0, 1, w, h};
    }
    cf::Engine engine(backend, 2);
    cf::J2kDecoder dec(engine);
    dec.decode(cs.data(), cs.size(), s, v);
    if (!dec.problem().empty()) return "problem: " + dec.problem();
    out = {};
    for (int c = 0; c < info.components; ++c) {
      const int w = info.component_width[c], h = info.component_height[c];
      const std::int32_t offset = info.is_signed[c] ? 1 << (info.bit_depth[c] - 1) : 0;
      out.width.push_back(w);
      out.height.push_back(h);
      out.planes.emplace_back();
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
          const void *p = v.sample(c, x, y);
          std::uint16_t u16 = 0;  // rows of odd strides: copied, not loaded in place
          if (bytes == 2) std::memcpy(&u16, p, 2);
          const std::int32_t u = bytes == 2 ? u16 : *static_cast<const std::uint8_t *>(p);
          out.planes.back().push_back(u - offset);
        }
    }
  } catch (const cf::Error &e) {
    return e.what();
  }
  return "";
}

// opj_decompress's decoding into .rawl (component after component, 1 byte
// a sample up to 8 bits, else 2, little-endian; signed values in two's
// complement of the component's depth), sized by our decoding `like`.
// Subsampled components one at a time (-c): decoding them together, it
// would take them for YCbCr and convert them to RGB.
std::string decode_openjpeg(const std::string &stream, const Source &src, int layers, int reduce, const Image &like,
                            Image &out) {
  out = {};
  const bool subsampled = src.dx[1] > 1 || src.dy[1] > 1;
  std::vector<std::uint8_t> b;
  for (std::size_t c = 0; c < (subsampled ? like.planes.size() : 1); ++c) {
    const std::string raw = stream + ".rawl";
    std::string log, options = subsampled ? " -c " + std::to_string(c) : "";
    if (layers) options += " -l " + std::to_string(layers);
    if (reduce) options += " -r " + std::to_string(reduce);
    std::filesystem::remove(raw);
    const int rc = cft::run_command("opj_decompress -i '" + stream + "' -o '" + raw + "'" + options, log);
    if (rc != 0 || log.find("[ERROR]") != std::string::npos) return "opj_decompress" + options + ": " + log;
    const std::vector<std::uint8_t> part = read_file(raw);
    b.insert(b.end(), part.begin(), part.end());
  }
  const int bytes = src.depth > 8 ? 2 : 1;
  std::size_t at = 0;
  for (std::size_t c = 0; c < like.planes.size(); ++c) {
    const std::size_t n = std::size_t(like.width[c]) * like.height[c];
    if (b.size() < at + n * bytes) return "opj_decompress gave " + std::to_string(b.size()) + " bytes, too few";
    out.width.push_back(like.width[c]);
    out.height.push_back(like.height[c]);
    out.planes.emplace_back();
    for (std::size_t i = 0; i < n; ++i, at += bytes) {
      std::int32_t v = bytes == 2 ? b[at] | b[at + 1] << 8 : b[at];
      if (src.is_signed && v >> (src.depth - 1) & 1) v -= 1 << src.depth;
      out.planes.back().push_back(v);
    }
  }
  if (at != b.size()) return "opj_decompress gave " + std::to_string(b.size()) + " bytes, not " + std::to_string(at);
  return "";
}

// The largest difference between two decodings of the same size; -1 when
// their sizes differ. `where` describes the first largest one.
long max_difference(const Image &a, const Image &b, std::string &where) {
  if (a.planes.size() != b.planes.size()) return where = "component counts differ", -1;
  long most = 0;
  for (std::size_t c = 0; c < a.planes.size(); ++c) {
    if (a.width[c] != b.width[c] || a.height[c] != b.height[c] || a.planes[c].size() != b.planes[c].size())
      return where = "component " + std::to_string(c) + " sizes differ", -1;
    for (std::size_t i = 0; i < a.planes[c].size(); ++i) {
      const long d = std::labs(long(a.planes[c][i]) - b.planes[c][i]);
      if (d > most) {
        most = d;
        where = "component " + std::to_string(c) + " (" + std::to_string(i % a.width[c]) + "," +
                std::to_string(i / a.width[c]) + "): " + std::to_string(a.planes[c][i]) + " vs " +
                std::to_string(b.planes[c][i]);
      }
    }
  }
  return most;
}

struct Counts {
  int streams = 0, full = 0, lossless = 0, layered = 0, reduced = 0, refused_by_opj = 0;
  int irreversible_exact = 0, irreversible_off_by_one = 0;  // 9/7 decodings
} counts;

// The number after `flag` in `options` ("-n 4": 4), or `otherwise`.
int option_number(const std::string &options, const std::string &flag, int otherwise) {
  const std::size_t at = (" " + options + " ").find(" " + flag + " ");
  return at == std::string::npos ? otherwise : std::atoi(options.c_str() + at + flag.size());
}

// How many entries the list after `flag` has ("-r 20,10,1": 3), or 0.
int list_length(const std::string &options, const std::string &flag) {
  const std::size_t at = (" " + options + " ").find(" " + flag + " ");
  if (at == std::string::npos) return 0;
  const std::size_t start = at + flag.size(), end = options.find(' ', start + 1);
  const std::string list = options.substr(start, end == std::string::npos ? std::string::npos : end - start);
  return int(std::count(list.begin(), list.end(), ',')) + 1;
}

// The last entry of the list after `flag` ("-r 20,10,1": 1).
double last_entry(const std::string &options, const std::string &flag) {
  const std::size_t at = (" " + options + " ").find(" " + flag + " ");
  const std::size_t end = options.find(' ', at + flag.size() + 1);
  const std::string list =
      options.substr(at + flag.size() + 1, end == std::string::npos ? end : end - at - flag.size() - 1);
  return std::atof(list.c_str() + (list.find_last_of(',') == std::string::npos ? 0 : list.find_last_of(',') + 1));
}

// Compares our decoding with opj_decompress's: exactly for the 5/3, within
// 1 for the 9/7.
void compare(const std::string &what, const Image &ours, const Image &theirs, bool reversible) {
  std::string where;
  const long d = max_difference(ours, theirs, where);
  CHECK_MSG(d >= 0 && d <= (reversible ? 0 : 1), "%s: ours and opj_decompress's differ by %ld, first at %s",
            what.c_str(), d, where.c_str());
  if (!reversible) ++(d == 0 ? counts.irreversible_exact : counts.irreversible_off_by_one);
}

// One opj_compress stream from `src` with `options`, decoded every way.
void check_stream(const Source &src, const std::string &options) {
  const std::string what = src.name + " [" + options + "]";
  const std::string stream = temp_dir + "/s" + std::to_string(counts.streams + counts.refused_by_opj) + ".j2k";
  std::string log;
  const int rc =
      cft::run_command("opj_compress -i '" + src.path + "' " + src.raw_format + " -o '" + stream + "' " + options, log);
  if (rc != 0 || log.find("[ERROR]") != std::string::npos) {
    CHECK_MSG(false, "%s: opj_compress refused: %s", what.c_str(), log.c_str());
    ++counts.refused_by_opj;
    return;
  }
  ++counts.streams;
  const std::vector<std::uint8_t> cs = read_file(stream);
  const bool reversible = (" " + options + " ").find(" -I ") == std::string::npos;
  const int levels = option_number(options, "-n", 6) - 1;
  // Lossless: the 5/3 with every pass kept (no rate, or a last layer of rate 1 or PSNR 0).
  const int rates = list_length(options, "-r"), psnrs = list_length(options, "-q");
  const bool lossless = reversible && ((rates == 0 && psnrs == 0) || (rates && last_entry(options, "-r") == 1) ||
                                       (psnrs && last_entry(options, "-q") == 0));

  const int layers = std::max({1, rates, psnrs});

  Image cpu, omp, theirs;
  std::string why = decode_ours(cs, cf::Backend::Cpu, 0, 0, cpu);
  CHECK_MSG(why.empty(), "%s: our decoder: %s", what.c_str(), why.c_str());
  if (!why.empty()) return;
  why = decode_ours(cs, cf::Backend::OpenMP, 0, 0, omp);
  CHECK_MSG(why.empty() && cpu.planes == omp.planes, "%s: openmp differs from cpu %s", what.c_str(), why.c_str());
  why = decode_openjpeg(stream, src, 0, 0, cpu, theirs);
  CHECK_MSG(why.empty(), "%s: %s", what.c_str(), why.c_str());
  if (!why.empty()) return;
  compare(what, cpu, theirs, reversible);
  ++counts.full;
  if (lossless) {
    Image source;
    for (int c = 0; c < src.components; ++c) {
      source.width.push_back(src.cw(c));
      source.height.push_back(src.ch(c));
      source.planes.push_back(src.planes[std::size_t(c)]);
    }
    std::string where;
    const long d = max_difference(cpu, source, where);
    CHECK_MSG(d == 0, "%s: lossless, yet differs from the source by %ld at %s", what.c_str(), d, where.c_str());
    ++counts.lossless;
  }
  for (int l = 1; l < layers; ++l) {
    Image ours;
    const std::string at = what + " layers " + std::to_string(l);
    why = decode_ours(cs, cf::Backend::Cpu, l, 0, ours);
    if (why.empty()) why = decode_openjpeg(stream, src, l, 0, ours, theirs);
    CHECK_MSG(why.empty(), "%s: %s", at.c_str(), why.c_str());
    if (why.empty()) compare(at, ours, theirs, reversible), ++counts.layered;
  }
  for (int r = 1; r <= std::min(2, levels); ++r) {
    Image ours;
    const std::string at = what + " reduce " + std::to_string(r);
    why = decode_ours(cs, cf::Backend::Cpu, 0, r, ours);
    if (why.empty()) why = decode_openjpeg(stream, src, 0, r, ours, theirs);
    CHECK_MSG(why.empty(), "%s: %s", at.c_str(), why.c_str());
    if (why.empty()) compare(at, ours, theirs, reversible), ++counts.reduced;
  }
  std::filesystem::remove(stream);
}

// A stream that breaks a rule of T.800, which opj_decompress takes but our
// decoder refuses, naming the rule (`words`).
void check_refused(const Source &src, const std::string &options, const std::string &words) {
  const std::string stream = temp_dir + "/refused.j2k";
  std::string log;
  cft::run_command("opj_compress -i '" + src.path + "' " + src.raw_format + " -o '" + stream + "' " + options, log);
  const std::vector<std::uint8_t> cs = read_file(stream);
  Image ours;
  const std::string why = decode_ours(cs, cf::Backend::Cpu, 0, 0, ours);
  CHECK_MSG(why.find(words) != std::string::npos, "%s [%s]: expected a refusal naming \"%s\", got \"%s\"",
            src.name.c_str(), options.c_str(), words.c_str(), why.c_str());
}

}  // namespace

int main() {
  for (const char *tool : {"opj_compress", "opj_decompress"})
    if (!cft::have_tool(tool)) {
      std::printf("SKIP: no %s (Debian package libopenjp2-tools)\n", tool);
      return cft::kSkip;
    }
  temp_dir = (std::filesystem::temp_directory_path() / "cf_j2k_decoder_opj_XXXXXX").string();
  if (!mkdtemp(temp_dir.data())) return 1;
  const std::vector<cft::Photo> photos = cft::load_photos();
  if (photos.empty()) std::printf("note: synthetic pictures instead of photos\n");

  const Source gray = make_source(photos, "gray8 257x129", 257, 129, 1, 8, false, 0);
  const Source rgb = make_source(photos, "rgb8 257x129", 257, 129, 3, 8, false, 1);
  const Source big = make_source(photos, "rgb8 320x240", 320, 240, 3, 8, false, 2);
  const Source one = make_source(photos, "gray8 1x1", 1, 1, 1, 8, false, 0);
  const Source tiny = make_source(photos, "gray8 13x7", 13, 7, 1, 8, false, 0);
  const Source tiny_rgb = make_source(photos, "rgb8 13x7", 13, 7, 3, 8, false, 1);
  const Source deep = make_source(photos, "gray12 97x61", 97, 61, 1, 12, false, 2);
  const Source rgba = make_source(photos, "rgba8 61x43", 61, 43, 4, 8, false, 1);
  const Source signed12 = make_source(photos, "signed12 45x33", 45, 33, 1, 12, true, 0);
  const Source sub420 = make_source(photos, "yuv420 8-bit 68x42", 68, 42, 3, 8, false, 2, 2, 2);
  const Source sub422 = make_source(photos, "yuv422 8-bit 66x40", 66, 40, 3, 8, false, 0, 2, 1);

  // Levels and code-block sizes.
  for (int n = 1; n <= 6; ++n) {
    check_stream(gray, "-n " + std::to_string(n));
    check_stream(rgb, "-n " + std::to_string(n) + " -I");
  }
  for (const char *b : {"-b 4,4", "-b 16,64", "-b 64,64", "-b 32,32", "-b 64,16", "-b 8,128"}) {
    check_stream(gray, b);
    check_stream(rgb, std::string(b) + " -n 4");
  }
  // Progressions with layers.
  for (const char *p : {"LRCP", "RLCP", "RPCL", "PCRL", "CPRL"}) {
    check_stream(rgb, std::string("-p ") + p + " -r 40,10,1");
    check_stream(big, std::string("-p ") + p + " -r 30,8,2 -c [64,64],[32,32],[16,16] -n 5");
    check_stream(rgb, std::string("-p ") + p + " -I -r 50,20,5");
  }
  // Layers by rate and by PSNR.
  check_stream(gray, "-r 80,40,20,10,5,1");
  check_stream(gray, "-q 25,32,40,0");
  check_stream(rgb, "-q 28,34,40");
  check_stream(rgb, "-I -q 30,35,40,45");
  check_stream(big, "-r 100");
  // Tiles of odd sizes, with offsets.
  for (const char *t : {"-t 100,50", "-t 61,37", "-t 128,128", "-t 257,17"}) {
    check_stream(rgb, std::string(t) + " -n 3");
    check_stream(gray, std::string(t) + " -n 3 -p RPCL -r 20,5,1");
  }
  check_stream(big, "-t 97,61 -n 4 -I -r 20,5");
  check_stream(gray, "-d 5,3 -n 4");
  check_stream(gray, "-d 37,11 -t 64,64 -T 20,5 -n 3 -p PCRL");
  check_stream(rgb, "-d 1,1 -t 33,33 -T 1,0 -n 3 -I");
  check_stream(tiny, "-d 3,5 -n 2");
  // Precincts.
  check_stream(gray, "-c [16,16] -n 4");
  // Halved down to 1 x 1 at resolution 1, opj_compress writes PPx = PPy = 0
  // there, which T.800 Table A.21 allows at resolution 0 only.
  check_refused(gray, "-c [16,16] -n 6", "0 is allowed only at resolution 0");
  check_stream(gray, "-c [128,64],[64,32],[32,16],[16,8] -p RPCL -r 10,1");
  check_stream(rgb, "-c [32,32] -p PCRL -b 16,16 -r 20,4,1");
  check_stream(rgb, "-c [64,64],[32,32],[8,8] -p CPRL -n 5 -b 8,8");
  // Packet markers.
  check_stream(gray, "-SOP");
  check_stream(gray, "-EPH");
  check_stream(rgb, "-SOP -EPH -r 20,5,1 -p RLCP -c [32,32]");
  // Code-block style switches, alone and together.
  for (const int m : {1, 2, 4, 8, 16, 32, 3, 5, 12, 36, 48, 63}) {
    check_stream(gray, "-M " + std::to_string(m) + " -r 20,5,1");
    check_stream(rgb, "-M " + std::to_string(m) + " -I -r 10,3");
  }
  // Tile-parts and progression order changes.
  for (const char *tp : {"R", "L", "C"}) {
    check_stream(rgb, std::string("-TP ") + tp + " -t 128,64 -r 20,5,1 -n 4");
    check_stream(big, std::string("-TP ") + tp + " -n 5 -p RPCL -r 10,1");
  }
  // opj_compress writes every packet only for volumes that do not overlap,
  // in one tile (T1: the first, T2: the second).
  check_stream(rgb, "-POC T1=0,0,3,3,3,RPCL/T1=3,0,3,6,3,PCRL -r 20,5,1");
  check_stream(rgb, "-POC T1=0,0,3,6,2,LRCP/T1=0,2,3,6,3,CPRL -r 20,5,1 -SOP");
  check_stream(gray, "-POC T2=0,0,2,3,1,RLCP/T2=3,0,2,6,1,RPCL -r 20,1 -t 128,128");
  // Odd sizes and sample formats.
  check_stream(one, "-n 1");
  check_stream(tiny, "-n 1");
  check_stream(tiny, "-n 3 -b 4,4");
  check_stream(tiny_rgb, "-n 2 -r 5,1");
  check_stream(tiny_rgb, "-n 3 -I");
  check_stream(deep, "-n 4 -r 20,5,1");
  check_stream(deep, "-I -n 5");
  check_stream(rgba, "-n 4 -p CPRL -r 10,1");
  check_stream(rgba, "-n 3 -I -t 32,32");
  check_stream(signed12, "-n 3");
  check_stream(signed12, "-n 4 -I -r 5");
  check_stream(sub420, "-n 3 -mct 0");
  check_stream(sub422, "-n 3 -mct 0 -p RPCL -r 10,1");
  check_stream(sub420, "-n 2 -mct 0 -I -t 32,16");
  // Everything at once.
  check_stream(big, "-n 4 -b 16,16 -p RPCL -r 30,10,1 -t 97,61 -c [32,32],[16,16] -SOP -EPH -M 63 -TP R -d 3,2 -T 1,1");
  check_stream(big, "-n 5 -b 32,16 -p CPRL -I -q 30,38 -t 150,110 -c [64,64] -SOP -M 9 -TP C");

  std::printf(
      "%d opj_compress streams: %d decoded like opj_decompress, %d lossless to the source, %d at fewer layers, %d "
      "reduced; of the 9/7 decodings %d equal opj_decompress's, %d within 1\n",
      counts.streams, counts.full, counts.lossless, counts.layered, counts.reduced, counts.irreversible_exact,
      counts.irreversible_off_by_one);
  if (!cft::failures()) std::filesystem::remove_all(temp_dir);
  return cft::test_result();
}
