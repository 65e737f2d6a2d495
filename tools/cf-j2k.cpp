// cf-j2k: the JPEG 2000 codec of cudafilters from the command line.
//
//   cf-j2k encode -i IN.pgm|IN.ppm|IN.pgx -o OUT.j2k|.j2c|.jp2|.jph [options]
//   cf-j2k encode -i IN.yuv|IN.raw --size WxH --format I420|Y42B|Y444|GRAY8|GRAY16_LE [--depth BITS] ...
//   cf-j2k decode -i IN.j2k|.j2c|.jp2|.jph -o OUT.pgm|.ppm|.pgx|.yuv|.raw [--reduce N] [--layers N]
//   cf-j2k info IN
//
// Encoding options mirror cudaj2kenc's properties: --lossy (ICT and 9/7;
// the default is lossless), --bitrate BPP (implies --lossy), --levels N,
// --max-bytes N (every codestream at most N bytes, lossless ones too),
// --block WxH, --layers N, --progression lrcp|rlcp|rpcl|pcrl|cprl,
// --tile WxH, --tile-parts one|resolution|layer|component (where a tile's
// packets start a new tile-part), --precincts W,H,W,H,... (precinct sizes
// from the highest resolution down, the last repeating below; default
// maximal), --profile none|dci-2k|dci-4k|imf-2k|imf-4k|imf-8k|imf-2k-r|
// imf-4k-r|imf-8k-r|imf-ht (digital cinema, IMF) with --profile-level MAIN,SUB
// (an IMF profile's main level and sublevel, default 0,0), --coder
// part1|ht (.jph implies ht),
// --style bypass,reset,restart,vertical-causal,predictable,
// segmentation-symbols (the code-block style switches),
// --markers tlm,plt (tile-part lengths in the main header, packet lengths
// in each tile-part header), --backend auto|cuda|openmp|cpu, --device N.
//
// PGX (one file per component): IN.pgx is one component; IN_0.pgx brings
// IN_1.pgx, IN_2.pgx, ... along while they exist (opj_decompress's
// naming), each at full size or subsampled, all of one depth; three or more
// full-size components go through the colour transform, as opj_compress
// does (signed PGX is refused: the encoder codes unsigned components).
// Decoding to OUT.pgx writes OUT_0.pgx, OUT_1.pgx, ..., signed components
// as "PG ML -".
//
// Batches: -i a folder (its .pgm/.ppm/.pgx, or its codestreams and files, in
// name order) and -o a folder, the outputs named after the inputs with
// --ext's extension (encode: j2k by default; decode: pgm for one component,
// ppm for more; a folder's PGX frames are its _0 files and the plain
// ones); or -i and -o frame patterns with printf's %d (frame%05d.ppm,
// numbered from 0 or 1 while the files exist). One encoder or decoder codes
// the whole batch; a progress line on stderr, the frames per second at the
// end; --keep-going goes on past a bad file.
//
// Exit status: 0 done, 1 an input or its coding failed, 2 the command line
// is wrong; the message names the problem, and no output file is left
// behind for an input that failed.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <unistd.h>

#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k.hpp"
#include "cudafilters/j2k_decoder.hpp"
#include "cudafilters/j2k_file.hpp"
#include "pgx.hpp"
#include "pnm.hpp"
#include "raw_frames.hpp"

namespace {

// A wrong command line (exit status 2), as opposed to a failure (1).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const char kUsage[] =
    "usage: cf-j2k encode -i IN.pgm|IN.ppm|IN.pgx -o OUT.j2k|.j2c|.jp2|.jph [--lossy] [--bitrate BPP] [--max-bytes N]\n"
    "                     [--levels N] [--block WxH] [--layers N] [--progression lrcp|rlcp|rpcl|pcrl|cprl]\n"
    "                     [--tile WxH] [--tile-parts one|resolution|layer|component] [--precincts W,H,...]\n"
    "                     [--profile none|dci-2k|dci-4k|imf-2k|imf-4k|imf-8k|imf-2k-r|imf-4k-r|imf-8k-r|imf-ht]\n"
    "                     [--profile-level MAIN,SUB]\n"
    "                     [--coder part1|ht] [--style bypass,reset,restart,vertical-causal,predictable,...]\n"
    "                     [--markers tlm,plt] [--backend auto|cuda|openmp|cpu] [--device N]\n"
    "       cf-j2k encode -i IN.yuv|IN.raw --size WxH --format I420|Y42B|Y444|GRAY8|GRAY16_LE [--depth BITS] ...\n"
    "       cf-j2k decode -i IN.j2k|.j2c|.jp2|.jph -o OUT.pgm|.ppm|.pgx|.yuv|.raw [--reduce N] [--layers N]\n"
    "                     [--backend auto|cuda|openmp|cpu] [--device N]\n"
    "       cf-j2k info IN.j2k|.j2c|.jp2|.jph\n"
    "batches: -i FOLDER -o FOLDER [--ext EXT], or -i and -o patterns such as frame%05d.ppm; --keep-going\n";

std::string extension(const std::string &path) {
  const std::size_t dot = path.rfind('.');
  if (dot == std::string::npos || path.find('/', dot) != std::string::npos) return "";
  std::string e = path.substr(dot + 1);
  for (char &c : e) c = char(std::tolower(static_cast<unsigned char>(c)));
  return e;
}

// --name value pairs after the subcommand; `flags` take no value.
std::map<std::string, std::string> options(int argc, char **argv, const std::vector<std::string> &known,
                                           const std::vector<std::string> &flags) {
  std::map<std::string, std::string> o;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    bool is_flag = false;
    for (const std::string &f : flags) is_flag |= a == f;
    if (is_flag) {
      o[a] = "1";
      continue;
    }
    bool ok = false;
    for (const std::string &k : known) ok |= a == k;
    if (!ok) throw UsageError("unknown option " + a);
    if (i + 1 >= argc) throw UsageError(a + " needs a value");
    o[a] = argv[++i];
  }
  return o;
}

int integer(const std::string &name, const std::string &v, int lo, int hi) {
  char *end = nullptr;
  const long n = std::strtol(v.c_str(), &end, 10);
  if (v.empty() || *end || n < lo || n > hi)
    throw UsageError(name + " " + v + ": a whole number from " + std::to_string(lo) + " to " + std::to_string(hi));
  return int(n);
}

// A comma-separated list of the names in `flags`, OR-ed together.
unsigned flag_list(const std::string &option, const std::string &text,
                   const std::vector<std::pair<std::string, unsigned>> &flags) {
  unsigned bits = 0;
  const std::string list = text + ",";
  for (std::size_t at = 0, comma; (comma = list.find(',', at)) != std::string::npos; at = comma + 1) {
    const std::string name = list.substr(at, comma - at);
    const auto f = std::find_if(flags.begin(), flags.end(), [&](const auto &n) { return n.first == name; });
    if (f == flags.end()) {
      std::string names;
      for (const auto &n : flags) names += (names.empty() ? "" : ", ") + n.first;
      throw UsageError(option + " " + text + ": a list of " + names);
    }
    bits |= f->second;
  }
  return bits;
}

void size_pair(const std::string &name, const std::string &v, int &w, int &h) {
  if (std::sscanf(v.c_str(), "%dx%d", &w, &h) != 2 || w < 1 || h < 1) throw UsageError(name + " " + v + ": WxH");
}

cf::Backend backend_of(const std::map<std::string, std::string> &o) {
  const auto it = o.find("--backend");
  if (it == o.end() || it->second == "auto") return cf::Backend::Auto;
  if (it->second == "cuda") return cf::Backend::Cuda;
  if (it->second == "openmp") return cf::Backend::OpenMP;
  if (it->second == "cpu") return cf::Backend::Cpu;
  throw UsageError("--backend " + it->second + ": auto, cuda, openmp or cpu");
}

std::vector<std::uint8_t> read_file(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot open " + path);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Writes `bytes` to `path` whole, or removes what was written.
void write_file(const std::string &path, const std::vector<std::uint8_t> &bytes) {
  std::FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) throw std::runtime_error("cannot create " + path);
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  if (std::fclose(f) != 0 || !ok) {
    std::remove(path.c_str());
    throw std::runtime_error("cannot write " + path);
  }
}

std::string required(const std::map<std::string, std::string> &o, const char *name) {
  const auto it = o.find(name);
  if (it == o.end()) throw UsageError(std::string(name) + " is required");
  return it->second;
}

// One input and its output. A folder's decoded outputs without --ext get
// their extension from the codestream (`ext_by_content`, `out` the stem).
struct Job {
  std::string in, out;
  bool ext_by_content = false;
};

std::string printf_name(const std::string &pattern, int n) {
  std::vector<char> b(pattern.size() + 32);
  std::snprintf(b.data(), b.size(), pattern.c_str(), n);
  return b.data();
}

bool is_directory(const std::string &path) {
  std::error_code e;
  return std::filesystem::is_directory(path, e);
}

// The jobs of -i and -o: one file to one file; a frame pattern (printf's
// %d, say frame%05d.ppm) to another, numbered from 0 or 1 while the files
// exist; or a folder's files with the `inputs` extensions, sorted, into the
// folder -o (made when missing), each named by its stem and `folder_ext`
// (empty: chosen by the job, Job::ext_by_content).
std::vector<Job> jobs_of(const std::string &in, const std::string &out, const std::vector<std::string> &inputs,
                         const std::string &folder_ext) {
  std::vector<Job> jobs;
  if (in.find('%') != std::string::npos) {
    if (out.find('%') == std::string::npos) throw UsageError("-i " + in + " is a pattern, so -o must be one too");
    const int first = std::filesystem::exists(printf_name(in, 0)) ? 0 : 1;
    for (int n = first; std::filesystem::exists(printf_name(in, n)); ++n)
      jobs.push_back({printf_name(in, n), printf_name(out, n)});
    if (jobs.empty()) throw std::runtime_error("no file matches " + in + " (numbered from 0 or 1)");
    return jobs;
  }
  if (!is_directory(in)) return {{in, out}};
  std::vector<std::string> files;
  for (const auto &entry : std::filesystem::directory_iterator(in)) {
    const std::string name = entry.path().string();
    for (const std::string &e : inputs)
      if (entry.is_regular_file() && extension(name) == e) files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) throw std::runtime_error(in + ": no input files in the folder");
  std::error_code made;
  std::filesystem::create_directories(out, made);
  if (!is_directory(out)) throw std::runtime_error("cannot make the folder " + out);
  for (const std::string &f : files) {
    const std::string stem = (std::filesystem::path(out) / std::filesystem::path(f).stem()).string();
    jobs.push_back({f, folder_ext.empty() ? stem : stem + "." + folder_ext, folder_ext.empty()});
  }
  return jobs;
}

// Runs `one` on every job with a progress line; a failure stops the batch
// unless `keep_going`. With more than one job, the frames per second at the
// end. Returns the exit status.
template <class One>
int run_jobs(const std::vector<Job> &jobs, bool keep_going, One one) {
  const auto start = std::chrono::steady_clock::now();
  const bool progress = jobs.size() > 1 && isatty(fileno(stderr));  // a log gets the messages alone
  int failed = 0;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    if (progress) std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", i + 1, jobs.size(), jobs[i].in.c_str());
    try {
      one(jobs[i]);
    } catch (const UsageError &) {
      throw;
    } catch (const std::exception &e) {
      if (progress) std::fputc('\n', stderr);
      std::fprintf(stderr, "cf-j2k: %s\n", e.what());
      ++failed;
      if (!keep_going) return 1;
    }
  }
  if (jobs.size() > 1) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (progress) std::fputc('\n', stderr);
    std::printf("%zu frames in %.2f s: %.1f fps%s\n", jobs.size() - failed, s, double(jobs.size() - failed) / s,
                failed ? (", " + std::to_string(failed) + " failed").c_str() : "");
  }
  return failed ? 1 : 0;
}

// A frame of PGX components (pgx_component_paths) as the encoder's input:
// one plane of 16-bit samples per component (U16 takes any depth up to
// 16); the components after the first subsampled by the smallest factors
// that give their sizes.
struct PgxFrame {
  std::vector<cfj2k::PgxImage> images;  // the planes point into their samples
  cf::J2kInput input;
  cf::J2kColourspace colourspace = cf::J2kColourspace::Greyscale;
};

int subsampling_of(int full, int size) {
  for (int s = 1; s <= 255; ++s)
    if ((full + s - 1) / s == size) return s;
  return 0;
}

PgxFrame read_pgx_frame(const std::string &path) {
  const std::vector<std::string> paths = cfj2k::pgx_component_paths(path, cf::kMaxPlanes);
  PgxFrame f;
  f.images.reserve(paths.size());  // no reallocation: the planes point into them
  cf::FrameView &v = f.input.frame;
  v.type = cf::SampleType::U16;
  v.n_planes = v.n_components = int(paths.size());
  bool subsampled = false;
  int width = 0, height = 0;
  for (std::size_t c = 0; c < paths.size(); ++c) {
    f.images.push_back(cfj2k::read_pgx(paths[c]));
    cfj2k::PgxImage &im = f.images.back();
    if (im.is_signed) throw std::runtime_error(paths[c] + ": signed samples (the encoder codes unsigned components)");
    if (c == 0) {
      width = im.width;
      height = im.height;
      f.input.bit_depth = im.depth;
    } else if (im.depth != f.input.bit_depth) {
      throw std::runtime_error(paths[c] + ": depth " + std::to_string(im.depth) + ", component 0's is " +
                               std::to_string(f.input.bit_depth) + " (one depth for every component)");
    }
    const int sx = subsampling_of(width, im.width), sy = subsampling_of(height, im.height);
    if (sx == 0 || sy == 0)
      throw std::runtime_error(paths[c] + ": " + std::to_string(im.width) + "x" + std::to_string(im.height) +
                               " is no subsampling of component 0's " + std::to_string(width) + "x" +
                               std::to_string(height));
    f.input.subsampling_x[c] = sx;
    f.input.subsampling_y[c] = sy;
    subsampled |= sx > 1 || sy > 1;
    v.planes[c] = {im.samples.data(), im.width * 2, im.width * 2, im.height};
    v.components[c] = {int(c), 0, 1, im.width, im.height};
  }
  f.input.rgb = paths.size() >= 3 && !subsampled;
  f.colourspace = f.input.rgb         ? cf::J2kColourspace::Srgb
                  : paths.size() >= 3 ? cf::J2kColourspace::Sycc
                                      : cf::J2kColourspace::Greyscale;
  return f;
}

int encode(int argc, char **argv) {
  const auto o = options(argc, argv, {"-i",          "-o",        "--bitrate",       "--max-bytes", "--levels",
                                      "--block",     "--layers",  "--progression",   "--tile",      "--tile-parts",
                                      "--precincts", "--profile", "--profile-level", "--coder",     "--style",
                                      "--markers",   "--backend", "--device",        "--ext",       "--size",
                                      "--format",    "--depth"},
                         {"--lossy", "--keep-going"});
  const std::string in_path = required(o, "-i"), out_path = required(o, "-o");
  const bool batch = in_path.find('%') != std::string::npos || is_directory(in_path);
  const std::string ext =
      batch && is_directory(in_path) ? (o.count("--ext") ? o.at("--ext") : "j2k") : extension(out_path);
  if (ext != "j2k" && ext != "j2c" && ext != "jp2" && ext != "jph")
    throw UsageError(out_path + ": the output must end in .j2k, .j2c, .jp2 or .jph");
  cf::J2kSettings s;
  if (o.count("--bitrate")) {
    char *end = nullptr;
    s.bitrate = std::strtod(o.at("--bitrate").c_str(), &end);
    if (*end || !(s.bitrate > 0)) throw UsageError("--bitrate " + o.at("--bitrate") + ": bits per pixel above 0");
  }
  s.reversible = !o.count("--lossy") && s.bitrate == 0;
  if (o.count("--max-bytes")) s.max_bytes = std::uint64_t(integer("--max-bytes", o.at("--max-bytes"), 64, 2147483647));
  if (o.count("--levels")) s.levels = integer("--levels", o.at("--levels"), 0, 32);
  if (o.count("--block")) size_pair("--block", o.at("--block"), s.codeblock_width, s.codeblock_height);
  if (o.count("--layers")) s.layers = integer("--layers", o.at("--layers"), 1, 65535);
  if (o.count("--tile")) size_pair("--tile", o.at("--tile"), s.tile_width, s.tile_height);
  if (o.count("--progression")) {
    const std::string p = o.at("--progression");
    int k = 0;
    while (k < 5 && p != cf::j2k_progression_name(cf::J2kProgression(k))) ++k;
    if (k == 5) throw UsageError("--progression " + p + ": lrcp, rlcp, rpcl, pcrl or cprl");
    s.progression = cf::J2kProgression(k);
  }
  if (o.count("--tile-parts")) {
    const std::string t = o.at("--tile-parts");
    int k = 0;
    while (k < 4 && t != cf::j2k_tile_parts_name(cf::J2kTileParts(k))) ++k;
    if (k == 4) throw UsageError("--tile-parts " + t + ": one, resolution, layer or component");
    s.tile_parts = cf::J2kTileParts(k);
  }
  if (o.count("--profile")) {
    const std::string p = o.at("--profile");
    if (!cf::j2k_profile_from_name(p, s.profile)) {
      std::string names;
      for (int k = 0; k <= int(cf::J2kProfile::ImfHt); ++k)
        names += std::string(k == 0                            ? ""
                             : k == int(cf::J2kProfile::ImfHt) ? " or "
                                                               : ", ") +
                 cf::j2k_profile_name(cf::J2kProfile(k));
      throw UsageError("--profile " + p + ": " + names);
    }
  }
  if (o.count("--profile-level")) {
    const std::string t = o.at("--profile-level");
    const std::size_t comma = t.find(',');
    if (comma == std::string::npos)
      throw UsageError("--profile-level " + t + ": MAIN,SUB (an IMF main level and sublevel)");
    s.profile_level.main = integer("--profile-level's main level", t.substr(0, comma), 0, 11);
    s.profile_level.sub = integer("--profile-level's sublevel", t.substr(comma + 1), 0, 9);
  }
  if (o.count("--precincts"))
    if (const std::string why = cf::j2k_parse_precincts(o.at("--precincts"), s.precincts); !why.empty())
      throw UsageError("--" + why);
  if (o.count("--markers"))
    s.markers =
        flag_list("--markers", o.at("--markers"), {{"tlm", cf::j2k_marker::kTlm}, {"plt", cf::j2k_marker::kPlt}});
  if (o.count("--style"))
    s.codeblock_style = flag_list("--style", o.at("--style"),
                                  {{"bypass", cf::j2k_style::kBypass},
                                   {"reset", cf::j2k_style::kReset},
                                   {"restart", cf::j2k_style::kRestart},
                                   {"vertical-causal", cf::j2k_style::kVerticalCausal},
                                   {"predictable", cf::j2k_style::kPredictable},
                                   {"segmentation-symbols", cf::j2k_style::kSegmentationSymbols}});
  const std::string coder = o.count("--coder") ? o.at("--coder") : ext == "jph" ? "ht" : "part1";
  if (coder != "part1" && coder != "ht") throw UsageError("--coder " + coder + ": part1 or ht");
  if (ext == "jph" && coder != "ht") throw UsageError(out_path + ": a .jph file holds HT code-blocks (--coder ht)");
  s.block_coder = coder == "ht" ? cf::J2kBlockCoder::Ht : cf::J2kBlockCoder::Part1;
  const int device = o.count("--device") ? integer("--device", o.at("--device"), 0, 63) : 0;
  // Raw input (.yuv, .raw): its size and format from the command line.
  int raw_w = 0, raw_h = 0, raw_depth = 0;
  cfj2k::RawFormat raw;
  const bool raw_input = o.count("--format") || o.count("--size");
  if (raw_input) {
    size_pair("--size", required(o, "--size"), raw_w, raw_h);
    try {
      raw = cfj2k::raw_format(required(o, "--format"));
    } catch (const std::invalid_argument &e) {
      throw UsageError(e.what());
    }
    raw_depth =
        o.count("--depth") ? integer("--depth", o.at("--depth"), 1, 8 * raw.sample_bytes) : 8 * raw.sample_bytes;
  }
  std::vector<Job> jobs =
      jobs_of(in_path, out_path,
              raw_input ? std::vector<std::string>{"yuv", "raw"} : std::vector<std::string>{"pgm", "ppm", "pgx"}, ext);
  // A folder's stem_1.pgx, stem_2.pgx, ... come with its stem_0.pgx.
  jobs.erase(std::remove_if(jobs.begin(), jobs.end(),
                            [&](const Job &j) { return is_directory(in_path) && cfj2k::is_later_pgx_component(j.in); }),
             jobs.end());

  cf::Engine engine(backend_of(o), 0, device);
  cf::J2kEncoder encoder(engine);  // one for the batch: its plan is kept while frames keep their shape
  std::vector<std::uint8_t> codestream, file;
  // Codes `in` (checked first) into the codestream, or the file around it.
  const auto code_and_write = [&](const Job &job, const cf::J2kInput &in, cf::J2kColourspace colourspace) {
    const std::string why = cf::j2k_encode_check(in, s);
    if (!why.empty()) throw std::runtime_error(job.in + ": " + why);
    encoder.encode(in, s, codestream);
    if (ext == "jp2" || ext == "jph") {
      cf::j2k_write_file(codestream.data(), codestream.size(), colourspace, ext == "jph", file);
      write_file(job.out, file);
    } else {
      write_file(job.out, codestream);
    }
  };
  std::vector<std::uint8_t> raw_bytes;
  return run_jobs(jobs, o.count("--keep-going") > 0, [&](const Job &job) {
    if (raw_input) {
      raw_bytes = read_file(job.in);
      const std::size_t need = cfj2k::raw_frame_bytes(raw, raw_w, raw_h);
      if (raw_bytes.size() != need)
        throw std::runtime_error(job.in + ": " + std::to_string(raw_bytes.size()) + " bytes; a " +
                                 std::to_string(raw_w) + "x" + std::to_string(raw_h) + " " + raw.name + " frame has " +
                                 std::to_string(need));
      cf::J2kInput in;
      in.frame = cfj2k::raw_view(raw, raw_w, raw_h, raw_bytes.data());
      in.bit_depth = raw_depth;
      for (int c = 0; c < raw.components; ++c) {
        in.subsampling_x[c] = raw.subsampling_x[c];
        in.subsampling_y[c] = raw.subsampling_y[c];
      }
      code_and_write(job, in, raw.components == 3 ? cf::J2kColourspace::Sycc : cf::J2kColourspace::Greyscale);
      return;
    }
    if (extension(job.in) == "pgx") {
      const PgxFrame frame = read_pgx_frame(job.in);
      code_and_write(job, frame.input, frame.colourspace);
      return;
    }
    const cfj2k::PnmImage im = cfj2k::read_pnm(job.in);
    // 16-bit samples in the machine's order (the file's are big-endian).
    std::vector<std::uint16_t> wide;
    if (im.sample_bytes() == 2) {
      wide.resize(im.bytes.size() / 2);
      for (std::size_t i = 0; i < wide.size(); ++i) wide[i] = std::uint16_t(im.bytes[2 * i] << 8 | im.bytes[2 * i + 1]);
    }
    cf::J2kInput in;
    cf::FrameView &f = in.frame;
    f.type = wide.empty() ? cf::SampleType::U8 : cf::SampleType::U16;
    f.n_planes = 1;
    const int row_bytes = im.width * im.channels * im.sample_bytes();
    f.planes[0] = {wide.empty() ? (void *)im.bytes.data() : (void *)wide.data(), row_bytes, row_bytes, im.height};
    f.n_components = im.channels;
    for (int c = 0; c < im.channels; ++c)
      f.components[c] = {0, c * im.sample_bytes(), im.channels, im.width, im.height};
    in.bit_depth = im.depth;
    in.rgb = im.channels == 3;
    code_and_write(job, in, im.channels == 3 ? cf::J2kColourspace::Srgb : cf::J2kColourspace::Greyscale);
  });
}

// The image `v` holds: every component, or the first four of a codestream
// of more (the decoder's most), `s` set to decode those.
cf::J2kImageInfo all_components(const cf::J2kFileView &v, cf::J2kDecodeSettings &s) {
  try {
    return cf::j2k_image_info(v.codestream, v.size, s);
  } catch (const cf::Error &e) {
    if (e.kind() != cf::ErrorKind::Unsupported) throw;
    s.components = cf::kMaxPlanes;
    return cf::j2k_image_info(v.codestream, v.size, s);
  }
}

// Decodes every component of `v` (at most 4) to target_0.pgx,
// target_1.pgx, ...: each at its own size and depth. Nothing is left
// behind when one fails.
void write_pgx_components(cf::J2kDecoder &decoder, const cf::J2kFileView &v, cf::J2kDecodeSettings &s,
                          const std::string &in, const std::string &target) {
  const cf::J2kImageInfo info = all_components(v, s);
  std::vector<cfj2k::PgxImage> images(std::size_t(info.components));
  cf::FrameView f;
  f.type = cf::SampleType::U16;
  f.n_planes = f.n_components = info.components;
  for (int c = 0; c < info.components; ++c) {
    cfj2k::PgxImage &im = images[std::size_t(c)];
    im.is_signed = info.is_signed[c];
    im.width = info.component_width[c];
    im.height = info.component_height[c];
    im.depth = info.bit_depth[c];
    im.samples.resize(std::size_t(im.width) * im.height);
    f.planes[c] = {im.samples.data(), im.width * 2, im.width * 2, im.height};
    f.components[c] = {c, 0, 1, im.width, im.height};
  }
  decoder.decode(v.codestream, v.size, s, f);
  if (!decoder.problem().empty()) throw std::runtime_error(in + ": " + decoder.problem());
  for (int c = 0; c < info.components; ++c) {
    try {
      write_file(cfj2k::pgx_component_path(target, c), cfj2k::pgx_bytes(images[std::size_t(c)]));
    } catch (...) {
      for (int k = 0; k < c; ++k) std::remove(cfj2k::pgx_component_path(target, k).c_str());
      throw;
    }
  }
}

int decode(int argc, char **argv) {
  const auto o =
      options(argc, argv, {"-i", "-o", "--reduce", "--layers", "--backend", "--device", "--ext"}, {"--keep-going"});
  const std::string in_path = required(o, "-i"), out_path = required(o, "-o");
  cf::J2kDecodeSettings base;
  if (o.count("--reduce")) base.reduce = integer("--reduce", o.at("--reduce"), 0, 32);
  if (o.count("--layers")) base.layers = integer("--layers", o.at("--layers"), 0, 65535);
  const int device = o.count("--device") ? integer("--device", o.at("--device"), 0, 63) : 0;
  const std::string wanted = o.count("--ext") ? o.at("--ext") : "";
  if (!wanted.empty() && wanted != "pgm" && wanted != "ppm" && wanted != "pgx")
    throw UsageError("--ext " + wanted + ": pgm, ppm or pgx");
  // A folder's outputs without --ext: PGM for one component, PPM for more,
  // chosen as each is decoded.
  const std::vector<Job> jobs = jobs_of(in_path, out_path, {"j2k", "j2c", "jp2", "jph"}, wanted);
  for (const Job &job : jobs)
    if (!job.ext_by_content && extension(job.out) != "pgm" && extension(job.out) != "ppm" &&
        extension(job.out) != "pgx" && extension(job.out) != "yuv" && extension(job.out) != "raw")
      throw UsageError(job.out + ": the output must end in .pgm, .ppm, .pgx, .yuv or .raw");

  cf::Engine engine(backend_of(o), 0, device);
  cf::J2kDecoder decoder(engine);
  return run_jobs(jobs, o.count("--keep-going") > 0, [&](const Job &job) {
    cf::J2kDecodeSettings s = base;
    const std::vector<std::uint8_t> data = read_file(job.in);
    const cf::J2kFileView v = cf::j2k_read_file(data.data(), data.size());
    std::string target = job.out;
    if (job.ext_by_content) {
      cf::J2kDecodeSettings probe = base;
      target += all_components(v, probe).codestream_components == 1 ? ".pgm" : ".ppm";
    }
    if (extension(target) == "pgx") {
      write_pgx_components(decoder, v, s, job.in, target);
      return;
    }
    if (extension(target) == "yuv" || extension(target) == "raw") {
      // Every component (at most 4) as its own plane, one after another:
      // 8-bit samples, or 16-bit little-endian ones when a component is deeper.
      const cf::J2kImageInfo info = all_components(v, s);
      int depth = 0;
      for (int c = 0; c < info.components; ++c) depth = std::max(depth, info.bit_depth[c]);
      const int bytes = depth > 8 ? 2 : 1;
      std::size_t total = 0;
      for (int c = 0; c < info.components; ++c)
        total += std::size_t(info.component_width[c]) * info.component_height[c] * bytes;
      std::vector<std::uint8_t> out(total);
      cf::FrameView f;
      f.type = bytes == 2 ? cf::SampleType::U16 : cf::SampleType::U8;
      f.n_planes = f.n_components = info.components;
      std::size_t at = 0;
      for (int c = 0; c < info.components; ++c) {
        const int row = info.component_width[c] * bytes;
        f.planes[c] = {out.data() + at, row, row, info.component_height[c]};
        f.components[c] = {c, 0, 1, info.component_width[c], info.component_height[c]};
        at += std::size_t(row) * info.component_height[c];
      }
      decoder.decode(v.codestream, v.size, s, f);
      if (!decoder.problem().empty()) throw std::runtime_error(job.in + ": " + decoder.problem());
      write_file(target, out);
      return;
    }
    const int channels = extension(target) == "ppm" ? 3 : 1;
    s.components = channels;
    const cf::J2kImageInfo info = cf::j2k_image_info(v.codestream, v.size, s);
    int depth = 0;
    for (int c = 0; c < channels; ++c) {
      if (info.component_width[c] != info.width || info.component_height[c] != info.height)
        throw std::runtime_error(job.in + ": component " + std::to_string(c) +
                                 " is subsampled; a PNM holds full-size components only");
      depth = std::max(depth, info.bit_depth[c]);
    }
    cfj2k::PnmImage im;
    im.width = info.width;
    im.height = info.height;
    im.channels = channels;
    im.depth = depth;
    im.maxval = (1u << depth) - 1;
    const int bytes = im.sample_bytes();
    std::vector<std::uint16_t> wide(bytes == 2 ? std::size_t(im.width) * im.height * channels : 0);
    im.bytes.resize(std::size_t(im.width) * im.height * channels * bytes);
    cf::FrameView f;
    f.type = bytes == 2 ? cf::SampleType::U16 : cf::SampleType::U8;
    f.n_planes = 1;
    const int row_bytes = im.width * channels * bytes;
    f.planes[0] = {bytes == 2 ? (void *)wide.data() : (void *)im.bytes.data(), row_bytes, row_bytes, im.height};
    f.n_components = channels;
    for (int c = 0; c < channels; ++c) {
      f.components[c] = {0, c * bytes, channels, im.width, im.height};
      s.shift_up[c] = depth - info.bit_depth[c];  // one maxval for every channel
    }
    decoder.decode(v.codestream, v.size, s, f);
    if (!decoder.problem().empty()) throw std::runtime_error(job.in + ": " + decoder.problem());
    for (std::size_t i = 0; i < wide.size(); ++i) {
      im.bytes[2 * i] = std::uint8_t(wide[i] >> 8);
      im.bytes[2 * i + 1] = std::uint8_t(wide[i]);
    }
    write_file(target, cfj2k::pnm_bytes(im));
  });
}

// A progression order's name as the standard writes it ("LRCP").
std::string upper(std::string s) {
  for (char &c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// Rsiz in words: the profile (T.800 Table A.10, Amd 1 and 8) and Part 15's
// bit; "" for a plain Part 1 codestream.
std::string rsiz_words(unsigned rsiz) {
  std::string words;
  const unsigned profile = rsiz & 0x3FFF;
  const char *imf[] = {"IMF 2K", "IMF 4K", "IMF 8K", "IMF 2K reversible", "IMF 4K reversible", "IMF 8K reversible"};
  if (profile == 3 || profile == 4)
    words = profile == 3 ? "2K digital cinema" : "4K digital cinema";
  else if (profile >= 0x0400 && profile <= 0x09FF)
    words = std::string(imf[(profile >> 8) - 4]) + ", main level " + std::to_string(profile & 0xF) + ", sublevel " +
            std::to_string((profile >> 4) & 0xF);
  else if (profile != 0)
    words = "profile " + std::to_string(profile);
  if (rsiz & 0x4000) words += words.empty() ? "HTJ2K (Part 15)" : "; HTJ2K (Part 15)";
  return words.empty() ? "" : " (" + words + ")";
}

int info(int argc, char **argv) {
  if (argc != 3) throw UsageError("info takes one file");
  const std::string path = argv[2];
  const std::vector<std::uint8_t> data = read_file(path);
  const cf::J2kFileView v = cf::j2k_read_file(data.data(), data.size());
  cf::J2kDecodeSettings s;
  const cf::J2kImageInfo info = all_components(v, s);
  const char *colour[] = {"unknown", "sRGB", "greyscale", "sYCC"};
  std::printf("%s: %s, codestream of %zu bytes\n", path.c_str(), v.boxed ? "JP2/JPH file" : "bare codestream", v.size);
  if (v.boxed) std::printf("colourspace: %s\n", colour[int(v.colourspace)]);
  std::printf("image: %dx%d, %d components%s\n", info.width, info.height, info.codestream_components,
              info.colour_transform ? ", colour transform on components 0..2" : "");
  for (int c = 0; c < info.components; ++c)
    std::printf("component %d: %d bits %s, subsampling %dx%d, %dx%d samples\n", c, info.bit_depth[c],
                info.is_signed[c] ? "signed" : "unsigned", info.subsampling_x[c], info.subsampling_y[c],
                info.component_width[c], info.component_height[c]);
  const cf::J2kCodingInfo k = cf::j2k_coding_info(v.codestream, v.size);
  const char *quant[] = {"none (reversible)", "scalar derived", "scalar expounded"};
  std::printf("capabilities (Rsiz): 0x%04x%s\n", unsigned(k.capabilities), rsiz_words(k.capabilities).c_str());
  std::printf("tiles: %ux%u from (%u,%u), %u across, %u down\n", k.tile_width, k.tile_height, k.tile_x0, k.tile_y0,
              k.tiles_across, k.tiles_down);
  const cf::J2kComponentCoding &cod = k.coding;
  std::printf("transform: %s wavelet, %d levels\n", cod.reversible ? "5/3 reversible" : "9/7 irreversible", cod.levels);
  std::printf("code-blocks: %dx%d, %s, style 0x%02x\n", cod.codeblock_width, cod.codeblock_height,
              cod.ht() ? "HT (HTJ2K)" : "Part 1 (EBCOT)", cod.codeblock_style);
  std::printf("precincts:");
  for (std::size_t r = 0; r < cod.precinct_width.size(); ++r)
    std::printf(" %dx%d", cod.precinct_width[r], cod.precinct_height[r]);
  std::printf(" (resolution 0 first)\n");
  std::printf("progression: %s, %d layers%s%s\n",
              upper(cf::j2k_progression_name(cf::J2kProgression(k.progression % 5))).c_str(), k.layers,
              k.sop ? ", SOP" : "", k.eph ? ", EPH" : "");
  std::printf("quantisation: %s, %d guard bits\n", quant[k.quantisation % 3], k.guard_bits);
  std::printf("main header markers:");
  for (const std::string &m : k.markers) std::printf(" %s", m.c_str());
  std::printf("\n");
  // Components coded otherwise (COC; a tile's own COD or COC).
  for (const cf::J2kComponentCoding &e : k.component_codings) {
    if (e.tile < 0)
      std::printf("component %d (COC):", e.component);
    else
      std::printf("tile %d, component %d (tile-part header):", e.tile, e.component);
    std::printf(" %s wavelet, %d levels, code-blocks %dx%d, style 0x%02x, precincts", e.reversible ? "5/3" : "9/7",
                e.levels, e.codeblock_width, e.codeblock_height, e.codeblock_style);
    for (std::size_t r = 0; r < e.precinct_width.size(); ++r)
      std::printf(" %dx%d", e.precinct_width[r], e.precinct_height[r]);
    std::printf("\n");
  }
  return 0;
}

}  // namespace

int main(int argc, char **argv) {
  const std::string command = argc > 1 ? argv[1] : "";
  try {
    if (command == "encode") return encode(argc, argv);
    if (command == "decode") return decode(argc, argv);
    if (command == "info") return info(argc, argv);
    if (command == "-h" || command == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    throw UsageError(command.empty() ? "no subcommand" : "unknown subcommand " + command);
  } catch (const UsageError &e) {
    std::fprintf(stderr, "cf-j2k: %s\n%s", e.what(), kUsage);
    return 2;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "cf-j2k: %s\n", e.what());
    return 1;
  }
}
