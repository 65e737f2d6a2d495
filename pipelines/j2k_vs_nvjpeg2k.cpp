// Our JPEG 2000 codec beside NVIDIA's nvJPEG2000 on the same GPU, the same
// frames and the same run (a benchmark, not a test; built only when the
// build is given nvJPEG2000's folder: -Dnvjpeg2k=<wheel>/nvidia/nvjpeg2k).
//
// Frames: native-resolution photos tiled to the size (a camera's detail,
// not an upscaled photo), in GRAY8, RGB or I420, as planes in device
// memory; both codecs read them there and decode into device memory.
// Settings both codecs share: one tile, 5 levels, 64 x 64 code-blocks, LRCP,
// one layer; lossless (RCT + 5/3) or at 1 bpp (ICT + 9/7: ours by its
// bitrate, nvJPEG2000 by the quality factor whose size comes closest to
// 1 bpp without passing it).
//
// Per case two counts, for each codec:
//   one frame at a time: one instance, each frame complete before the next
//     (ms from handing over the frame to having its result);
//   stream rate: K instances in K threads, each with its own state and CUDA
//     stream, their frames per second added; the best K of --streams, and
//     every K as a "<K>-streams-<case>" row.
// Interchange, lossless: nvJPEG2000 decodes our codestream to the frame and
// we decode its codestream to the frame, sample for sample; a difference
// fails the row (exit 1). At 1 bpp: the PSNR of each codec's own round
// trip, and the largest difference between the two decoders on each
// other's streams.
//
//   j2k_vs_nvjpeg2k [--sizes 3840x2160,...] [--formats RGB,GRAY8,I420]
//                   [--cases part1-lossless-encode,...] [--streams 1,4,8]
//                   [--seconds 0.5] [--photos DIR] [--markdown OUT.md]
//                   [--ht-rate-planes 1] [--part1-planes-below 1]
#include <nvjpeg2k.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime_api.h>

#include "cudafilters/engine.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k.hpp"
#include "cudafilters/j2k_decoder.hpp"
#include "frames.hpp"
#include "tiled_photos.hpp"

namespace {

using Clock = std::chrono::steady_clock;

void cuda_check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void nv_check(nvjpeg2kStatus_t s, const char *what) {
  if (s != NVJPEG2K_STATUS_SUCCESS)
    throw std::runtime_error(std::string("nvJPEG2000 ") + what + ": status " + std::to_string(int(s)));
}

// ---- frames ----------------------------------------------------------------

enum class Format { Gray8, Rgb, I420 };
const char *format_name(Format f) { return f == Format::Gray8 ? "GRAY8" : f == Format::Rgb ? "RGB" : "I420"; }

// A frame as tight planes one after another (host copy and device copy).
struct Frame {
  Format format = Format::Rgb;
  int n = 0;
  int width[3] = {}, height[3] = {};
  std::size_t offset[3] = {};
  std::vector<std::uint8_t> host;
  std::uint8_t *device = nullptr;

  std::size_t plane_size(int c) const { return std::size_t(width[c]) * height[c]; }
  ~Frame() {
    if (device) cudaFree(device);
  }
};

// The photos tiled (tiled_photos.hpp), converted to the format (GRAY8 and
// I420's luma: BT.601 Y; I420's chroma: Cb, Cr of each 2 x 2's top-left
// sample).
void tile_photos(const std::vector<cft::CameraPhoto> &photos, Format format, int w, int h, Frame &f) {
  const std::vector<std::uint8_t> rgb = cft::tile_photos_rgb(photos, w, h);
  f.format = format;
  f.n = format == Format::Gray8 ? 1 : 3;
  for (int c = 0; c < f.n; ++c) {
    const bool sub = format == Format::I420 && c > 0;
    f.width[c] = sub ? (w + 1) / 2 : w;
    f.height[c] = sub ? (h + 1) / 2 : h;
    f.offset[c] = c == 0 ? 0 : f.offset[c - 1] + f.plane_size(c - 1);
  }
  f.host.assign(f.offset[f.n - 1] + f.plane_size(f.n - 1), 0);
  auto clamp8 = [](double v) { return std::uint8_t(std::lround(std::min(255.0, std::max(0.0, v)))); };
  for (int c = 0; c < f.n; ++c) {
    const int step = f.width[c] == w ? 1 : 2;
    for (int y = 0; y < f.height[c]; ++y)
      for (int x = 0; x < f.width[c]; ++x) {
        const std::uint8_t *s = &rgb[(std::size_t(y * step) * w + std::size_t(x * step)) * 3];
        const double r = s[0], g = s[1], b = s[2];
        double v = 0;
        if (format == Format::Rgb)
          v = s[c];
        else if (c == 0)
          v = 0.299 * r + 0.587 * g + 0.114 * b;
        else if (c == 1)
          v = 128 - 0.168736 * r - 0.331264 * g + 0.5 * b;
        else
          v = 128 + 0.5 * r - 0.418688 * g - 0.081312 * b;
        f.host[f.offset[c] + std::size_t(y) * f.width[c] + x] = clamp8(v);
      }
  }
  cuda_check(cudaMalloc(reinterpret_cast<void **>(&f.device), f.host.size()), "frame");
  cuda_check(cudaMemcpy(f.device, f.host.data(), f.host.size(), cudaMemcpyHostToDevice), "frame upload");
}

// Device planes shaped like a frame, for decoded output.
struct Planes {
  const Frame *like;
  std::uint8_t *device = nullptr;
  explicit Planes(const Frame &f) : like(&f) {
    cuda_check(cudaMalloc(reinterpret_cast<void **>(&device), f.host.size()), "output");
  }
  ~Planes() { cudaFree(device); }
  std::vector<std::uint8_t> download() const {
    std::vector<std::uint8_t> h(like->host.size());
    cuda_check(cudaMemcpy(h.data(), device, h.size(), cudaMemcpyDeviceToHost), "output download");
    return h;
  }
};

cf::FrameView planar_view(const Frame &f, std::uint8_t *base) {
  cf::FrameView v;
  v.type = cf::SampleType::U8;
  v.memory = cf::Memory::Device;
  v.n_planes = v.n_components = f.n;
  for (int c = 0; c < f.n; ++c) {
    v.planes[c] = {base + f.offset[c], f.width[c], f.width[c], f.height[c]};
    v.components[c] = {c, 0, 1, f.width[c], f.height[c]};
  }
  return v;
}

double psnr(const std::vector<std::uint8_t> &a, const std::vector<std::uint8_t> &b) {
  double se = 0;
  for (std::size_t i = 0; i < a.size(); ++i) se += double(int(a[i]) - int(b[i])) * (int(a[i]) - int(b[i]));
  return se == 0 ? 99.0 : 10 * std::log10(255.0 * 255.0 * double(a.size()) / se);
}

int max_difference(const std::vector<std::uint8_t> &a, const std::vector<std::uint8_t> &b) {
  int m = 0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(int(a[i]) - int(b[i])));
  return m;
}

// ---- the cases -------------------------------------------------------------

struct Case {
  std::string name;  // e.g. part1-lossless-encode
  bool ht, lossless, encode;
};

std::vector<Case> all_cases() {
  std::vector<Case> v;
  for (bool lossless : {true, false})
    for (bool ht : {false, true})
      for (bool encode : {true, false})
        v.push_back(
            {std::string(ht ? "ht" : "part1") + (lossless ? "-lossless-" : "-1bpp-") + (encode ? "encode" : "decode"),
             ht, lossless, encode});
  return v;
}

// ---- ours ------------------------------------------------------------------

// --ht-rate-planes: HT at a rate, the planes coded per block (0: every
// plane, the exhaustive search), for runs that compare the two.
int ht_rate_planes = cf::J2kSettings{}.ht_rate_planes;
// --part1-planes-below: Part 1 at a rate, the planes coded below the
// estimated one (-1: every plane).
int part1_planes_below = cf::J2kSettings{}.part1_planes_below;

cf::J2kSettings our_settings(const Case &k) {
  cf::J2kSettings s;
  s.reversible = k.lossless;
  s.bitrate = k.lossless ? 0 : 1;
  s.block_coder = k.ht ? cf::J2kBlockCoder::Ht : cf::J2kBlockCoder::Part1;
  s.ht_rate_planes = ht_rate_planes;
  s.part1_planes_below = part1_planes_below;
  return s;
}

cf::J2kInput our_input(const Frame &f) {
  cf::J2kInput in;
  in.frame = planar_view(f, f.device);
  in.rgb = f.format == Format::Rgb;
  if (f.format == Format::I420)
    for (int c = 1; c < 3; ++c) in.subsampling_x[c] = in.subsampling_y[c] = 2;
  return in;
}

// One instance of our codec: an engine (its own CUDA stream), an encoder,
// a decoder and an output frame.
struct Ours {
  cf::Engine engine{cf::Backend::Cuda};
  cf::J2kEncoder encoder{engine};
  cf::J2kDecoder decoder{engine};
  Planes out;
  std::vector<std::uint8_t> stream;
  explicit Ours(const Frame &f) : out(f) {}
  void encode(const Frame &f, const Case &k) { encoder.encode(our_input(f), our_settings(k), stream); }
  void decode(const std::vector<std::uint8_t> &cs) {
    decoder.decode(cs.data(), cs.size(), cf::J2kDecodeSettings{}, planar_view(*out.like, out.device));
    if (!decoder.problem().empty()) throw std::runtime_error("our decoder: " + decoder.problem());
  }
};

// ---- nvJPEG2000 -------------------------------------------------------------

// A frame's planes at `base` (device memory) as nvJPEG2000 takes them.
struct Planar {
  void *planes[3] = {};
  std::size_t pitch[3] = {};
  nvjpeg2kImage_t image;
  Planar(const Frame &f, std::uint8_t *base) : image{planes, pitch, NVJPEG2K_UINT8, std::uint32_t(f.n)} {
    for (int c = 0; c < f.n; ++c) {
      planes[c] = base + f.offset[c];
      pitch[c] = std::size_t(f.width[c]);
    }
  }
  Planar(const Planar &) = delete;  // image points at its own arrays
  Planar &operator=(const Planar &) = delete;
};

// One instance of nvJPEG2000: its handles, states, CUDA stream and output.
struct Nv {
  nvjpeg2kHandle_t handle = nullptr;
  nvjpeg2kDecodeState_t decode_state = nullptr;
  nvjpeg2kStream_t parsed = nullptr;
  nvjpeg2kDecodeParams_t decode_params = nullptr;
  nvjpeg2kEncoder_t encoder = nullptr;
  nvjpeg2kEncodeState_t encode_state = nullptr;
  nvjpeg2kEncodeParams_t encode_params = nullptr;
  cudaStream_t cuda = nullptr;
  Planes out;
  std::vector<std::uint8_t> stream;
  nvjpeg2kImageComponentInfo_t components[3] = {};

  explicit Nv(const Frame &f) : out(f) {
    nv_check(nvjpeg2kCreateSimple(&handle), "create");
    nv_check(nvjpeg2kDecodeStateCreate(handle, &decode_state), "decode state");
    nv_check(nvjpeg2kStreamCreate(&parsed), "stream");
    nv_check(nvjpeg2kDecodeParamsCreate(&decode_params), "decode params");
    nv_check(nvjpeg2kEncoderCreateSimple(&encoder), "encoder");
    nv_check(nvjpeg2kEncodeStateCreate(encoder, &encode_state), "encode state");
    nv_check(nvjpeg2kEncodeParamsCreate(&encode_params), "encode params");
    cuda_check(cudaStreamCreateWithFlags(&cuda, cudaStreamNonBlocking), "stream");
  }
  ~Nv() {
    nvjpeg2kEncodeParamsDestroy(encode_params);
    nvjpeg2kEncodeStateDestroy(encode_state);
    nvjpeg2kEncoderDestroy(encoder);
    nvjpeg2kDecodeParamsDestroy(decode_params);
    nvjpeg2kStreamDestroy(parsed);
    nvjpeg2kDecodeStateDestroy(decode_state);
    nvjpeg2kDestroy(handle);
    cudaStreamDestroy(cuda);
  }

  // The settings ours uses; lossy at quality factor q. Fresh parameters
  // each time: a quality factor once given stays in them, and nvJPEG2000
  // then refuses a reversible configuration.
  void configure(const Frame &f, const Case &k, double q) {
    nvjpeg2kEncodeParamsDestroy(encode_params);
    encode_params = nullptr;
    nv_check(nvjpeg2kEncodeParamsCreate(&encode_params), "encode params");
    nvjpeg2kEncodeConfig_t c;
    std::memset(&c, 0, sizeof c);
    c.stream_type = NVJPEG2K_STREAM_J2K;
    c.color_space = f.format == Format::Rgb     ? NVJPEG2K_COLORSPACE_SRGB
                    : f.format == Format::Gray8 ? NVJPEG2K_COLORSPACE_GRAY
                                                : NVJPEG2K_COLORSPACE_SYCC;
    c.rsiz = k.ht ? NVJPEG2K_RSIZ_HT : 0;
    c.image_width = std::uint32_t(f.width[0]);
    c.image_height = std::uint32_t(f.height[0]);
    c.num_components = std::uint32_t(f.n);
    for (int i = 0; i < f.n; ++i) components[i] = {std::uint32_t(f.width[i]), std::uint32_t(f.height[i]), 8, 0};
    c.image_comp_info = components;
    c.prog_order = NVJPEG2K_LRCP;
    c.num_layers = 1;
    c.mct_mode = f.format == Format::Rgb ? 1 : 0;
    c.num_resolutions = 6;
    c.code_block_w = c.code_block_h = 64;
    c.encode_modes = k.ht ? NVJPEG2K_MODE_HT : 0;
    c.irreversible = k.lossless ? 0 : 1;
    nv_check(nvjpeg2kEncodeParamsSetEncodeConfig(encode_params, &c), "encode config");
    if (!k.lossless)
      nv_check(nvjpeg2kEncodeParamsSpecifyQuality(encode_params, NVJPEG2K_QUALITY_TYPE_Q_FACTOR, q), "quality");
  }

  void encode(const Frame &f) {
    Planar img(f, f.device);
    nv_check(nvjpeg2kEncode(encoder, encode_state, encode_params, &img.image, cuda), "encode");
    std::size_t length = 0;
    nv_check(nvjpeg2kEncodeRetrieveBitstream(encoder, encode_state, nullptr, &length, cuda), "bitstream size");
    cuda_check(cudaStreamSynchronize(cuda), "nvJPEG2000 encode");
    stream.resize(length);
    nv_check(nvjpeg2kEncodeRetrieveBitstream(encoder, encode_state, stream.data(), &length, cuda), "bitstream");
    cuda_check(cudaStreamSynchronize(cuda), "nvJPEG2000 bitstream");
  }

  void decode(const std::vector<std::uint8_t> &cs) {
    nv_check(nvjpeg2kStreamParse(handle, cs.data(), cs.size(), 0, 0, parsed), "parse");
    Planar img(*out.like, out.device);
    nv_check(nvjpeg2kDecodeImage(handle, decode_state, parsed, decode_params, &img.image, cuda), "decode");
    cuda_check(cudaStreamSynchronize(cuda), "nvJPEG2000 decode");
  }
};

// The quality factor whose codestream comes closest to `bytes` without
// passing it (bisection over 1..100; size grows with the factor).
double quality_for(Nv &nv, const Frame &f, const Case &k, std::size_t bytes) {
  double lo = 1, hi = 100, best = 1;
  for (int i = 0; i < 14; ++i) {
    const double q = (lo + hi) / 2;
    nv.configure(f, k, q);
    nv.encode(f);
    if (nv.stream.size() <= bytes) {
      best = q;
      lo = q;
    } else {
      hi = q;
    }
  }
  nv.configure(f, k, best);
  return best;
}

// ---- timing ----------------------------------------------------------------

// Frames per second of `instances` working side by side, one thread each,
// for about `seconds` (the instances warmed up before); `work(i)` does one
// complete frame on instance i.
double stream_fps(int instances, double seconds, const std::function<void(int)> &work) {
  std::atomic<long long> frames{0};
  std::atomic<bool> failed{false};
  std::string failure;
  const auto start_at = Clock::now() + std::chrono::milliseconds(50);
  const auto stop_at = start_at + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  std::vector<std::thread> threads;
  for (int i = 0; i < instances; ++i)
    threads.emplace_back([&, i] {
      std::this_thread::sleep_until(start_at);
      try {
        while (Clock::now() < stop_at) {
          work(i);
          ++frames;
        }
      } catch (const std::exception &e) {
        if (!failed.exchange(true)) failure = e.what();
      }
    });
  for (auto &t : threads) t.join();
  if (failed) throw std::runtime_error(failure);
  const double elapsed = std::chrono::duration<double>(Clock::now() - start_at).count();
  return double(frames) / elapsed;
}

// ms per frame of one instance, each frame complete before the next.
double one_at_a_time_ms(double seconds, const std::function<void()> &work) {
  for (int w = 0; w < 3; ++w) work();
  long long n = 0;
  const auto t0 = Clock::now();
  double elapsed = 0;
  do {
    work();
    ++n;
    elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
  } while (elapsed < seconds || n < 5);
  return 1000.0 * elapsed / double(n);
}

// ---- the run ---------------------------------------------------------------

struct Options {
  std::vector<std::pair<int, int>> sizes = {{1280, 720}, {1920, 1080}, {3840, 2160}};
  std::vector<Format> formats = {Format::Rgb, Format::Gray8, Format::I420};
  std::vector<Case> cases = all_cases();
  std::vector<int> streams = {1, 4, 8};
  double seconds = 0.5;
  std::string photos = "/usr/share/doc/opencv-doc/examples/data";
  std::string markdown;
};

std::vector<std::string> split(const std::string &s) {
  std::vector<std::string> v;
  std::size_t at = 0;
  while (at <= s.size()) {
    const std::size_t comma = std::min(s.find(',', at), s.size());
    if (comma > at) v.push_back(s.substr(at, comma - at));
    at = comma + 1;
  }
  return v;
}

bool read_options(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : nullptr;
    if (!v) {
      std::fprintf(stderr, "%s needs a value\n", a.c_str());
      return false;
    }
    ++i;
    if (a == "--sizes") {
      o.sizes.clear();
      for (const std::string &s : split(v)) {
        int w = 0, h = 0;
        if (std::sscanf(s.c_str(), "%dx%d", &w, &h) != 2 || w < 1 || h < 1) {
          std::fprintf(stderr, "--sizes: %s is not WxH\n", s.c_str());
          return false;
        }
        o.sizes.push_back({w, h});
      }
    } else if (a == "--formats") {
      o.formats.clear();
      for (const std::string &s : split(v)) {
        if (s == "RGB")
          o.formats.push_back(Format::Rgb);
        else if (s == "GRAY8")
          o.formats.push_back(Format::Gray8);
        else if (s == "I420")
          o.formats.push_back(Format::I420);
        else {
          std::fprintf(stderr, "--formats: %s is not RGB, GRAY8 or I420\n", s.c_str());
          return false;
        }
      }
    } else if (a == "--cases") {
      const std::vector<Case> all = all_cases();
      o.cases.clear();
      for (const std::string &s : split(v)) {
        auto it = std::find_if(all.begin(), all.end(), [&](const Case &k) { return k.name == s; });
        if (it == all.end()) {
          std::fprintf(stderr, "--cases: no case %s\n", s.c_str());
          return false;
        }
        o.cases.push_back(*it);
      }
    } else if (a == "--streams") {
      o.streams.clear();
      for (const std::string &s : split(v)) o.streams.push_back(std::max(1, std::atoi(s.c_str())));
    } else if (a == "--seconds") {
      o.seconds = std::atof(v);
    } else if (a == "--photos") {
      o.photos = v;
    } else if (a == "--markdown") {
      o.markdown = v;
    } else if (a == "--ht-rate-planes") {
      ht_rate_planes = std::atoi(v);
    } else if (a == "--part1-planes-below") {
      part1_planes_below = std::atoi(v);
    } else {
      std::fprintf(stderr, "unknown option %s\n", a.c_str());
      return false;
    }
  }
  return true;
}

struct Row {
  std::string name, size, format;
  double ours_fps = 0, nv_fps = 0;  // stream rate (best K)
  int ours_k = 0, nv_k = 0;
  double ours_ms = 0, nv_ms = 0;       // one frame at a time
  std::vector<double> ours_at, nv_at;  // fps per --streams entry
  double ours_bpp = 0, nv_bpp = 0, ours_psnr = 0, nv_psnr = 0;
  int cross_difference = 0;  // lossless: must be 0
  bool interchange_ok = true;
  std::string stages;  // ours, one frame
};

// The instances of both codecs for one frame, kept for all its cases.
struct Instances {
  std::vector<std::unique_ptr<Ours>> ours;
  std::vector<std::unique_ptr<Nv>> nv;
  Instances(const Frame &f, int count) {
    for (int i = 0; i < count; ++i) {
      ours.push_back(std::make_unique<Ours>(f));
      nv.push_back(std::make_unique<Nv>(f));
    }
  }
};

// Both codecs on one case of one frame.
Row run_case(const Options &o, const Frame &f, const Case &k, Instances &in) {
  Row r;
  r.name = k.name;
  r.size = std::to_string(f.width[0]) + "x" + std::to_string(f.height[0]);
  r.format = format_name(f.format);
  const double pixels = double(f.width[0]) * f.height[0];
  const int most = int(in.ours.size());
  auto &ours = in.ours;
  auto &nv = in.nv;
  // The codestreams each codec makes of the frame, and the checks.
  ours[0]->encode(f, k);
  const std::vector<std::uint8_t> our_stream = ours[0]->stream;
  double q = 0;
  if (k.lossless)
    nv[0]->configure(f, k, 0);
  else
    q = quality_for(*nv[0], f, k, our_stream.size());
  nv[0]->encode(f);
  const std::vector<std::uint8_t> nv_stream = nv[0]->stream;
  for (int i = 1; i < most; ++i) nv[i]->configure(f, k, q);
  r.ours_bpp = 8.0 * double(our_stream.size()) / pixels;
  r.nv_bpp = 8.0 * double(nv_stream.size()) / pixels;
  ours[0]->decode(our_stream);
  const std::vector<std::uint8_t> ours_own = ours[0]->out.download();
  ours[0]->decode(nv_stream);
  const std::vector<std::uint8_t> ours_of_nv = ours[0]->out.download();
  nv[0]->decode(nv_stream);
  const std::vector<std::uint8_t> nv_own = nv[0]->out.download();
  nv[0]->decode(our_stream);
  const std::vector<std::uint8_t> nv_of_ours = nv[0]->out.download();
  r.ours_psnr = psnr(f.host, ours_own);
  r.nv_psnr = psnr(f.host, nv_own);
  if (k.lossless) {
    r.interchange_ok = ours_own == f.host && nv_of_ours == f.host && ours_of_nv == f.host && nv_own == f.host;
    r.cross_difference = std::max({max_difference(f.host, nv_of_ours), max_difference(f.host, ours_of_nv)});
  } else {
    r.cross_difference = std::max(max_difference(ours_own, nv_of_ours), max_difference(nv_own, ours_of_nv));
  }
  // Timing: each codec on its own codestream.
  auto ours_work = [&](int i) {
    if (k.encode)
      ours[i]->encode(f, k);
    else
      ours[i]->decode(our_stream);
  };
  auto nv_work = [&](int i) {
    if (k.encode)
      nv[i]->encode(f);
    else
      nv[i]->decode(nv_stream);
  };
  for (int i = 0; i < most; ++i)
    for (int w = 0; w < 2; ++w) {
      ours_work(i);
      nv_work(i);
    }
  r.ours_ms = one_at_a_time_ms(o.seconds, [&] { ours_work(0); });
  if (k.encode) {
    const cf::J2kEncoder::StageTimes t = ours[0]->encoder.stage_times();
    char b[160];
    std::snprintf(b, sizeof b, "blocks %.2f, codestream %.2f", t.blocks_ms, t.codestream_ms);
    r.stages = b;
  } else {
    const cf::J2kDecoder::StageTimes t = ours[0]->decoder.stage_times();
    char b[160];
    std::snprintf(b, sizeof b, "packets %.2f, tier-1 %.2f, reconstruction %.2f", t.packets_ms, t.blocks_ms,
                  t.reconstruction_ms);
    r.stages = b;
  }
  r.nv_ms = one_at_a_time_ms(o.seconds, [&] { nv_work(0); });
  for (int k_instances : o.streams) {
    const double a = stream_fps(k_instances, o.seconds, ours_work);
    const double b = stream_fps(k_instances, o.seconds, nv_work);
    r.ours_at.push_back(a);
    r.nv_at.push_back(b);
    if (a > r.ours_fps) r.ours_fps = a, r.ours_k = k_instances;
    if (b > r.nv_fps) r.nv_fps = b, r.nv_k = k_instances;
  }
  return r;
}

void print_tables(std::FILE *out, const Options &o, const std::vector<Row> &rows, const std::string &device) {
  std::fprintf(out,
               "# Our JPEG 2000 codec beside nvJPEG2000\n\n%s; frames in device memory: opencv-doc's photos at "
               "their own resolution tiled to the size; 5 levels, 64 x 64 code-blocks, LRCP, one layer, one tile. "
               "Stream rate: the best of %zu instance counts (threads, each its own state and CUDA stream); "
               "each instance count also as a row of its own below.\n\n",
               device.c_str(), o.streams.size());
  std::fprintf(
      out,
      "## Stream rate\n\n| case | size | format | ours fps | nvJPEG2000 fps | ratio |\n|---|---|---|---:|---:|---:|\n");
  for (const Row &r : rows)
    std::fprintf(out, "| %s | %s | %s | %.1f | %.1f | %.2f |\n", r.name.c_str(), r.size.c_str(), r.format.c_str(),
                 r.ours_fps, r.nv_fps, r.ours_fps / r.nv_fps);
  for (std::size_t s = 0; s < o.streams.size(); ++s) {
    if (o.streams[s] == 1) continue;
    for (const Row &r : rows)
      std::fprintf(out, "| %d-streams-%s | %s | %s | %.1f | %.1f | %.2f |\n", o.streams[s], r.name.c_str(),
                   r.size.c_str(), r.format.c_str(), r.ours_at[s], r.nv_at[s], r.ours_at[s] / r.nv_at[s]);
  }
  std::fprintf(out,
               "\n## One frame at a time\n\n| case | size | format | ours ms/frame | nvJPEG2000 ms/frame | ratio "
               "|\n|---|---|---|---:|---:|---:|\n");
  for (const Row &r : rows)
    std::fprintf(out, "| %s | %s | %s | %.2f | %.2f | %.2f |\n", r.name.c_str(), r.size.c_str(), r.format.c_str(),
                 r.ours_ms, r.nv_ms, r.nv_ms / r.ours_ms);
  std::fprintf(out,
               "\n## Sizes, quality, interchange and our stages\n\n| case | size | format | best K ours / nv | ours "
               "bpp | nvJPEG2000 bpp | ours PSNR dB | nvJPEG2000 PSNR dB | interchange | largest cross-decoder "
               "difference | our stages, one frame (ms) |\n|---|---|---|---|---:|---:|---:|---:|---|---:|---|\n");
  for (const Row &r : rows)
    std::fprintf(out, "| %s | %s | %s | %d / %d | %.3f | %.3f | %.2f | %.2f | %s | %d | %s |\n", r.name.c_str(),
                 r.size.c_str(), r.format.c_str(), r.ours_k, r.nv_k, r.ours_bpp, r.nv_bpp, r.ours_psnr, r.nv_psnr,
                 r.name.find("lossless") == std::string::npos ? "lossy"
                 : r.interchange_ok                           ? "exact"
                                                              : "DIFFERS",
                 r.cross_difference, r.stages.c_str());
}

}  // namespace

int main(int argc, char **argv) {
  Options o;
  if (!read_options(argc, argv, o)) return 2;
  try {
    const std::vector<cft::CameraPhoto> photos = cft::load_camera_photos(o.photos);
    cudaDeviceProp prop;
    cuda_check(cudaGetDeviceProperties(&prop, 0), "device");
    int version = 0, major = 0, minor = 0, patch = 0;
    cudaDriverGetVersion(&version);
    nvjpeg2kGetProperty(MAJOR_VERSION, &major);
    nvjpeg2kGetProperty(MINOR_VERSION, &minor);
    nvjpeg2kGetProperty(PATCH_LEVEL, &patch);
    char device[256];
    std::snprintf(device, sizeof device, "%s, CUDA driver %d.%d, nvJPEG2000 %d.%d.%d", prop.name, version / 1000,
                  (version % 1000) / 10, major, minor, patch);
    std::vector<Row> rows;
    int failures = 0;
    for (const auto &[w, h] : o.sizes)
      for (Format fmt : o.formats) {
        Frame f;
        tile_photos(photos, fmt, w, h, f);
        Instances instances(f, *std::max_element(o.streams.begin(), o.streams.end()));
        for (const Case &k : o.cases) {
          try {
            const auto started = Clock::now();
            rows.push_back(run_case(o, f, k, instances));
            const Row &r = rows.back();
            failures += !r.interchange_ok;
            std::printf(
                "%s %s %s: ours %.1f fps (K=%d) %.2f ms | nvJPEG2000 %.1f fps (K=%d) %.2f ms | %.3f / %.3f bpp | %s | "
                "%s | %.1f s\n",
                r.name.c_str(), r.size.c_str(), r.format.c_str(), r.ours_fps, r.ours_k, r.ours_ms, r.nv_fps, r.nv_k,
                r.nv_ms, r.ours_bpp, r.nv_bpp, r.interchange_ok ? "interchange ok" : "INTERCHANGE DIFFERS",
                r.stages.c_str(), std::chrono::duration<double>(Clock::now() - started).count());
            std::fflush(stdout);
          } catch (const std::exception &e) {
            std::printf("%s %dx%d %s: FAILED: %s\n", k.name.c_str(), w, h, format_name(fmt), e.what());
            ++failures;
          }
        }
      }
    if (!o.markdown.empty()) {
      std::FILE *out = std::fopen(o.markdown.c_str(), "w");
      if (!out) throw std::runtime_error("cannot write " + o.markdown);
      print_tables(out, o, rows, device);
      std::fclose(out);
    }
    print_tables(stdout, o, rows, device);
    return failures ? 1 : 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "j2k_vs_nvjpeg2k: %s\n", e.what());
    return 1;
  }
}
