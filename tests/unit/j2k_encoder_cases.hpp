// The JPEG 2000 encoder's end-to-end cases, shared by the encoder test
// programs: test frames of every layout (planar of any subsampling, packed
// RGB and RGBA, 8 or 16 bits, random, smooth or photo content), a case
// coded on cpu and openmp (the same bytes) and decoded by opj_decompress
// (and ojph_expand for HT) to the input exactly when reversible, and a
// codestream walked by its own marker structure (T.800 A.4, A.7).
#pragma once

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "check.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/j2k.hpp"
#include "frames.hpp"
#include "pnm.hpp"
#include "shell.hpp"

namespace j2k_cases {

// A frame of planar components of any subsampling (U8 or U16), or packed
// RGB, with the J2kInput describing it.
struct TestImage {
  std::string name;
  std::vector<std::vector<std::uint8_t>> planes;  // one per component (packed: one in all)
  cf::J2kInput in;

  int sample_bytes() const { return in.frame.type == cf::SampleType::U8 ? 1 : 2; }
  unsigned sample(int c, int x, int y) const {
    const void *p = in.frame.sample(c, x, y);
    return sample_bytes() == 1 ? *static_cast<const std::uint8_t *>(p) : *static_cast<const std::uint16_t *>(p);
  }
};

enum class Content { Random, Smooth, Photo };

inline unsigned content_value(Content k, int c, int x, int y, int depth, std::mt19937 &rng,
                              const std::vector<cft::Photo> &photos) {
  const unsigned top = (1u << depth) - 1;
  switch (k) {
    case Content::Random: return rng() & top;
    case Content::Smooth: return unsigned((x * 7 + y * 3 + c * 50) * (top / 255.0 + 0.01)) % (top + 1);
    case Content::Photo: {
      const cft::Photo &ph = photos[std::size_t(c) % photos.size()];
      const unsigned v = ph.rgb[(std::size_t(y % ph.height) * ph.width + x % ph.width) * 3 + c % 3];
      return depth >= 8 ? v << (depth - 8) : v >> (8 - depth);
    }
  }
  return 0;
}

inline TestImage planar_image(const std::string &name, int w, int h, int n, bool u16, int depth, const int *sx,
                              const int *sy, bool rgb, Content k, std::uint32_t seed,
                              const std::vector<cft::Photo> &photos) {
  TestImage t;
  t.name = name;
  cf::FrameView &f = t.in.frame;
  f.type = u16 ? cf::SampleType::U16 : cf::SampleType::U8;
  f.n_planes = f.n_components = n;
  t.in.bit_depth = depth;
  t.in.rgb = rgb;
  t.planes.resize(n);
  std::mt19937 rng(seed);
  for (int c = 0; c < n; ++c) {
    const int cw = (w + sx[c] - 1) / sx[c], ch = (h + sy[c] - 1) / sy[c];
    t.in.subsampling_x[c] = sx[c];
    t.in.subsampling_y[c] = sy[c];
    t.planes[c].resize(std::size_t(cw) * ch * t.sample_bytes());
    f.planes[c] = {t.planes[c].data(), cw * t.sample_bytes(), cw * t.sample_bytes(), ch};
    f.components[c] = {c, 0, 1, cw, ch};
    for (int y = 0; y < ch; ++y)
      for (int x = 0; x < cw; ++x) {
        const unsigned v = content_value(k, c, x, y, depth, rng, photos);
        if (u16)
          reinterpret_cast<std::uint16_t *>(t.planes[c].data())[y * cw + x] = std::uint16_t(v);
        else
          t.planes[c][y * cw + x] = std::uint8_t(v);
      }
  }
  return t;
}

// Packed RGB (3 samples a pixel, rows padded by 5 bytes) or RGBA.
inline TestImage packed_image(const std::string &name, int w, int h, int n, Content k, std::uint32_t seed,
                              const std::vector<cft::Photo> &photos) {
  TestImage t;
  t.name = name;
  cf::FrameView &f = t.in.frame;
  f.type = cf::SampleType::U8;
  f.n_planes = 1;
  f.n_components = n;
  t.in.rgb = true;
  const int stride = w * n + 5;
  t.planes.assign(1, std::vector<std::uint8_t>(std::size_t(stride) * h, 0xEE));
  f.planes[0] = {t.planes[0].data(), stride, w * n, h};
  std::mt19937 rng(seed);
  for (int c = 0; c < n; ++c) {
    f.components[c] = {0, c, n, w, h};
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        t.planes[0][y * stride + x * n + c] = std::uint8_t(content_value(k, c, x, y, 8, rng, photos));
  }
  return t;
}

inline std::string temp_dir;

inline void write_file(const std::string &path, const std::vector<std::uint8_t> &bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
}

inline std::vector<std::uint8_t> read_file(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(f), {});
}

inline std::vector<std::uint8_t> encode(cf::Backend b, const TestImage &t, const cf::J2kSettings &s) {
  cf::Engine e(b, 2);
  cf::J2kEncoder enc(e);
  std::vector<std::uint8_t> out;
  enc.encode(t.in, s, out);
  return out;
}

inline std::string describe(const cf::J2kSettings &s) {
  return std::string(cf::j2k_block_coder_name(s.block_coder)) + (s.reversible ? " rev" : " irr") + " L" +
         std::to_string(s.levels) + " cb" + std::to_string(s.codeblock_width) + "x" +
         std::to_string(s.codeblock_height) + " " + cf::j2k_progression_name(s.progression) + " layers" +
         std::to_string(s.layers) + " tile" + std::to_string(s.tile_width) + "x" + std::to_string(s.tile_height) +
         " style" + std::to_string(s.codeblock_style) +
         (s.precincts.empty() ? "" : " precincts " + cf::j2k_precincts_text(s.precincts));
}

inline int decoded = 0, decoded_ht = 0;

// What a case gave: codestream bytes and the PSNR of OpenJPEG's decoding.
struct Outcome {
  std::size_t bytes = 0;
  double psnr = 0;  // dB; infinity when exact
};

inline double psnr_of(double squared_error, double samples, int depth) {
  const double peak = double((1u << depth) - 1);
  return squared_error == 0 ? INFINITY : 10 * std::log10(peak * peak * samples / squared_error);
}

inline Outcome compare_samples(const TestImage &t, const cf::J2kSettings &s, const std::vector<std::uint8_t> &raw,
                               const std::string &what);

// Irreversible coding keeping every pass: the PSNR a decoding must pass
// (random 8-bit noise loses most to the 9/7's rounding); none at a target
// rate (the cases check the rate instead).
// Whether the codestream must give the input back exactly: reversible and
// no byte limit (which may drop passes).
inline bool lossless(const cf::J2kSettings &s) { return s.reversible && s.max_bytes == 0; }

inline double min_psnr(const TestImage &t, const cf::J2kSettings &s) {
  if (lossless(s)) return 1e300;  // only INFINITY: exact
  if (s.bitrate > 0 || s.max_bytes > 0) return 0;
  return t.name.rfind("gray8 random", 0) == 0 ? 45 : 48;
}

// OpenJPH's decoding of base.j2k as compare_samples reads it. ojph_expand
// writes one component as .pgm, RGB through the colour transform as .ppm
// (interleaved, 16-bit samples big-endian) and other components one after
// another as .yuv; it has no four-component format but .tif.
inline bool ojph_expand_samples(const TestImage &t, const std::string &base, const std::string &what,
                                std::vector<std::uint8_t> &raw) {
  const cf::FrameView &f = t.in.frame;
  const std::string ext = f.n_components == 1 ? ".pgm" : t.in.rgb ? ".ppm" : ".yuv";
  std::string log;
  const int rc = cft::run_command("ojph_expand -i '" + base + ".j2k' -o '" + base + ext + "'", log);
  CHECK_MSG(rc == 0, "%s: ojph_expand (%d):\n%s", what.c_str(), rc, log.c_str());
  if (rc != 0) return false;
  if (ext == ".yuv") {
    raw = read_file(base + ext);
  } else {
    std::string why;
    const std::vector<cft::PnmPlane> planes = cft::read_pnm(base + ext, why);
    CHECK_MSG(why.empty(), "%s: %s", what.c_str(), why.c_str());
    for (const cft::PnmPlane &pl : planes)
      for (std::uint32_t v : pl.samples) {
        raw.push_back(std::uint8_t(v));
        if (t.sample_bytes() == 2) raw.push_back(std::uint8_t(v >> 8));
      }
  }
  std::filesystem::remove(base + ext);
  return true;
}

// Codes `t` on cpu and openmp (same bytes), decodes with opj_decompress
// (component by component) and, for HT code-blocks when `ojph`, with
// ojph_expand, and, reversible, compares every sample.
inline Outcome check_case(const TestImage &t, const cf::J2kSettings &s, bool ojph = true) {
  const std::string what = t.name + " " + describe(s);
  std::vector<std::uint8_t> cs;
  try {
    cs = encode(cf::Backend::Cpu, t, s);
  } catch (const cf::Error &e) {
    CHECK_MSG(false, "%s: %s", what.c_str(), e.what());
    return {};
  }
  const std::vector<std::uint8_t> omp = encode(cf::Backend::OpenMP, t, s);
  CHECK_MSG(omp == cs, "%s: openmp codestream differs from cpu (%zu vs %zu bytes)", what.c_str(), omp.size(),
            cs.size());
  const std::string base = temp_dir + "/case" + std::to_string(decoded++);
  write_file(base + ".j2k", cs);
  // opj_decompress turns 3 components with subsampled chroma into RGB (it
  // guesses sYCC); decoding one component at a time (-c) keeps the samples.
  const cf::FrameView &f = t.in.frame;
  bool subsampled = false;
  for (int c = 0; c < f.n_components; ++c) subsampled |= t.in.subsampling_x[c] > 1 || t.in.subsampling_y[c] > 1;
  std::vector<std::uint8_t> raw;
  if (ojph && s.block_coder == cf::J2kBlockCoder::Ht && f.n_components != 4) {
    std::vector<std::uint8_t> theirs;
    if (ojph_expand_samples(t, base, what, theirs)) {
      const Outcome o = compare_samples(t, s, theirs, what + " (ojph_expand)");
      CHECK_MSG(o.psnr > min_psnr(t, s), "%s: ojph_expand's PSNR %.2f dB", what.c_str(), o.psnr);
      ++decoded_ht;
    }
  }
  for (int c = 0; c < (subsampled ? f.n_components : 1); ++c) {
    std::string log;
    const std::string only = subsampled ? " -c " + std::to_string(c) : "";
    const int rc = cft::run_command("opj_decompress -i '" + base + ".j2k' -o '" + base + ".rawl'" + only, log);
    CHECK_MSG(rc == 0 && log.find("[ERROR]") == std::string::npos && log.find("[WARNING]") == std::string::npos,
              "%s: opj_decompress (%d):\n%s", what.c_str(), rc, log.c_str());
    if (rc != 0) return {};
    const std::vector<std::uint8_t> part = read_file(base + ".rawl");
    raw.insert(raw.end(), part.begin(), part.end());
  }
  const Outcome o = compare_samples(t, s, raw, what);
  std::filesystem::remove(base + ".j2k");
  std::filesystem::remove(base + ".rawl");
  return {cs.size(), o.psnr};
}

// A decoder's samples (component after component, 16-bit ones
// little-endian) against the input: every one equal when reversible; the
// PSNR.
inline Outcome compare_samples(const TestImage &t, const cf::J2kSettings &s, const std::vector<std::uint8_t> &raw,
                               const std::string &what) {
  const cf::FrameView &f = t.in.frame;
  std::size_t at = 0;
  long differ = 0;
  double squared_error = 0;
  std::string first;
  // .rawl: component after component, 16-bit samples little-endian.
  for (int c = 0; c < f.n_components; ++c)
    for (int y = 0; y < f.components[c].height; ++y)
      for (int x = 0; x < f.components[c].width; ++x) {
        unsigned got = 0;
        if (t.sample_bytes() == 1) {
          got = at < raw.size() ? raw[at] : 0x100;
          at += 1;
        } else {
          got = at + 1 < raw.size() ? unsigned(raw[at + 1]) << 8 | raw[at] : 0x10000;
          at += 2;
        }
        squared_error += (double(got) - t.sample(c, x, y)) * (double(got) - t.sample(c, x, y));
        if (got != t.sample(c, x, y) && differ++ == 0)
          first = "component " + std::to_string(c) + " (" + std::to_string(x) + "," + std::to_string(y) +
                  "): " + std::to_string(got) + " for " + std::to_string(t.sample(c, x, y));
      }
  CHECK_MSG(raw.size() == at, "%s: decoded %zu bytes, expected %zu", what.c_str(), raw.size(), at);
  if (lossless(s)) CHECK_MSG(differ == 0, "%s: %ld samples differ, first %s", what.c_str(), differ, first.c_str());
  return {raw.size(), psnr_of(squared_error, double(at / t.sample_bytes()), t.in.bit_depth)};
}

inline const int kOne[4] = {1, 1, 1, 1};
inline const int k420x[4] = {1, 2, 2, 1}, k420y[4] = {1, 2, 2, 1};
inline const int k422x[4] = {1, 2, 2, 1};

inline std::vector<TestImage> images_of_size(int w, int h, std::uint32_t seed, const std::vector<cft::Photo> &photos) {
  std::vector<TestImage> v;
  const std::string sz = std::to_string(w) + "x" + std::to_string(h);
  v.push_back(planar_image("gray8 random " + sz, w, h, 1, false, 8, kOne, kOne, false, Content::Random, seed, photos));
  v.push_back(planar_image("gray16 smooth " + sz, w, h, 1, true, 16, kOne, kOne, false, Content::Smooth, seed, photos));
  v.push_back(packed_image("rgb8 photo " + sz, w, h, 3, Content::Photo, seed, photos));
  v.push_back(packed_image("rgba8 random " + sz, w, h, 4, Content::Random, seed, photos));
  v.push_back(planar_image("rgb16 random " + sz, w, h, 3, true, 16, kOne, kOne, true, Content::Random, seed, photos));
  v.push_back(planar_image("i420 photo " + sz, w, h, 3, false, 8, k420x, k420y, false, Content::Photo, seed, photos));
  v.push_back(planar_image("y42b random " + sz, w, h, 3, false, 8, k422x, kOne, false, Content::Random, seed, photos));
  v.push_back(planar_image("y444 smooth " + sz, w, h, 3, false, 8, kOne, kOne, false, Content::Smooth, seed, photos));
  return v;
}

inline int most_levels(int w, int h, const TestImage &t) {
  int shortest = std::min(w, h);
  for (int c = 0; c < t.in.frame.n_components; ++c)
    shortest = std::min({shortest, t.in.frame.components[c].width, t.in.frame.components[c].height});
  int l = 0;
  while ((shortest >> (l + 1)) > 0) ++l;
  return l;
}

inline unsigned be16(const std::vector<std::uint8_t> &b, std::size_t at) { return unsigned(b[at]) << 8 | b[at + 1]; }
inline std::uint32_t be32(const std::vector<std::uint8_t> &b, std::size_t at) {
  return std::uint32_t(be16(b, at)) << 16 | be16(b, at + 2);
}

// A codestream walked by its own structure (T.800 A.4, A.7): the TLM
// entries of the main header, each tile-part's SOT fields, the packet
// lengths of its PLT and the bytes after its SOD; `stripped` gets the
// codestream without TLM and PLT (each Psot less the PLT bytes).
struct TilePart {
  unsigned isot, tpsot, tnsot;
  std::uint32_t psot;
  std::vector<std::uint32_t> plt;
  std::size_t data;
};
struct Walk {
  std::vector<std::pair<unsigned, std::uint32_t>> tlm;
  std::vector<TilePart> parts;
  std::vector<std::uint8_t> stripped;
  bool complete = false;  // every tile-part inside the codestream, then EOC
};
inline Walk walk(const std::vector<std::uint8_t> &cs) {
  Walk r;
  r.stripped.assign(cs.begin(), cs.begin() + 2);  // SOC
  const auto copy = [&](std::size_t from, std::size_t to) {
    r.stripped.insert(r.stripped.end(), cs.begin() + std::ptrdiff_t(from), cs.begin() + std::ptrdiff_t(to));
  };
  std::size_t pos = 2;
  for (unsigned m; pos + 4 <= cs.size() && (m = be16(cs, pos)) != 0xFF90;) {
    const std::size_t l = be16(cs, pos + 2);
    if (m == 0xFF55) {
      CHECK_MSG(cs[pos + 5] == 0x60, "Stlm 0x%02X", cs[pos + 5]);
      for (std::size_t e = pos + 6; e + 6 <= pos + 2 + l; e += 6) r.tlm.push_back({be16(cs, e), be32(cs, e + 2)});
    } else {
      copy(pos, pos + 2 + l);
    }
    pos += 2 + l;
  }
  while (pos + 12 <= cs.size() && be16(cs, pos) == 0xFF90) {
    TilePart t{be16(cs, pos + 4), cs[pos + 10], cs[pos + 11], be32(cs, pos + 6), {}, 0};
    const std::size_t at = r.stripped.size();
    copy(pos, pos + 12);
    std::size_t p = pos + 12;
    for (unsigned m; p + 4 <= cs.size() && (m = be16(cs, p)) != 0xFF93;) {
      const std::size_t l = be16(cs, p + 2);
      if (m == 0xFF58) {
        std::uint32_t v = 0;
        for (std::size_t i = p + 5; i < p + 2 + l; ++i) {
          v = v << 7 | (cs[i] & 0x7Fu);
          if ((cs[i] & 0x80) == 0) t.plt.push_back(v), v = 0;
        }
      } else {
        copy(p, p + 2 + l);
      }
      p += 2 + l;
    }
    const std::size_t end = pos + t.psot;
    if (end > cs.size() || end < p + 2) return r;
    t.data = end - (p + 2);
    copy(p, end);
    const std::uint32_t length = std::uint32_t(r.stripped.size() - at);
    for (int k = 0; k < 4; ++k) r.stripped[at + 6 + std::size_t(k)] = std::uint8_t(length >> (24 - 8 * k));
    r.parts.push_back(std::move(t));
    pos = end;
  }
  r.complete = pos + 2 == cs.size() && be16(cs, pos) == 0xFFD9;
  copy(pos, cs.size());
  return r;
}

}  // namespace j2k_cases
