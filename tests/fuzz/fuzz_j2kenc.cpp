// Fuzz target: cudaj2kenc over its sink formats, frame sizes, both output
// media types and its own properties (backend cpu or openmp). One frame is
// pushed, then the properties change (and sometimes the caps: another
// format or size) and a second frame follows.
//
// Oracle per frame: whether the settings break one of the encoder's rules
// is worked out here from the rules themselves (T.800 A.6.1 for the
// code-block size, docs/j2k-encoder.md for the rest); a frame that breaks
// one must give a clean error (an ERROR message on the bus, caps or flow
// refused), any other must give one buffer that is a well-formed
// codestream: SOC, then SIZ describing this frame (size, components,
// precision, subsampling, tiles), COD and QCD in the main header, one
// tile-part per tile (SOT lengths leading from one to the next, each with
// its SOD), and EOC as its last two bytes; image/x-j2c in a 'jp2c' box.
#include <algorithm>
#include <array>

#include "fuzz_util.hpp"

namespace {

// The element's sink formats and what T.800's SIZ must say of each: the
// components coded, bits per sample, and the subsampling of components 1, 2.
struct J2kFormat {
  const char *name;
  int components, depth, chroma_dx, chroma_dy;
};
constexpr std::array<J2kFormat, 11> kFormats = {{{"GRAY8", 1, 8, 1, 1},
                                                 {"GRAY16_LE", 1, 16, 1, 1},
                                                 {"RGB", 3, 8, 1, 1},
                                                 {"BGR", 3, 8, 1, 1},
                                                 {"RGBA", 4, 8, 1, 1},
                                                 {"BGRA", 4, 8, 1, 1},
                                                 {"RGBx", 3, 8, 1, 1},
                                                 {"BGRx", 3, 8, 1, 1},
                                                 {"I420", 3, 8, 2, 2},
                                                 {"Y42B", 3, 8, 2, 1},
                                                 {"Y444", 3, 8, 1, 1}}};
constexpr int kMaxSide = 96;

struct Settings {
  bool reversible = true;
  int levels = 5, cb_w = 64, cb_h = 64;
  double bitrate = 0;
  int layers = 1, progression = 0, tile_w = 0, tile_h = 0;
  unsigned style = 0, markers = 0;
  int tile_parts = 0;  // kTileParts
};

const char *const kProgressions[] = {"lrcp", "rlcp", "rpcl", "pcrl", "cprl"};
const char *const kTileParts[] = {"one", "resolution", "layer", "component"};

// Mostly powers of two (what the rules accept), sometimes any side in the
// property's range.
int codeblock_side(cffuzz::Input &in) { return in.u8() < 200 ? 4 << in.below(9) : 4 + int(in.below(1021)); }

// Changes some of `s` (each setting with a chance), mostly to values the
// encoder codes, with the edges and refused values among them.
void fuzz_settings(cffuzz::Input &in, Settings &s) {
  const std::uint8_t which = in.u8();
  if (which & 0x01) s.reversible = in.u8() & 1;
  if (which & 0x02) s.levels = in.u8() < 220 ? int(in.below(7)) : int(in.below(33));
  if (which & 0x04) s.cb_w = codeblock_side(in), s.cb_h = codeblock_side(in);
  if (which & 0x08) {
    const std::uint8_t k = in.u8();
    s.bitrate = k < 96 ? 0 : k < 192 ? in.u16() / 4096.0 : k < 250 ? in.u8() / 256.0 : 1024.0 * in.u16() / 65535.0;
  }
  if (which & 0x10) s.layers = in.u8() < 230 ? 1 + int(in.below(8)) : 1 + int(in.below(300));
  if (which & 0x20) s.progression = int(in.below(5));
  if (which & 0x40) {
    const auto side = [&in]() {
      const std::uint8_t k = in.u8();
      return k < 96 ? 0 : k < 240 ? 1 + int(in.below(kMaxSide + 8)) : k < 250 ? 1 + int(in.below(4)) : G_MAXINT;
    };
    s.tile_w = side(), s.tile_h = side();
  }
  if (which & 0x80) s.style = in.below(64), s.markers = in.below(4), s.tile_parts = int(in.below(4));
}

void apply(GstElement *e, const Settings &s, std::string *log) {
  g_object_set(e, "reversible", gboolean(s.reversible), "levels", s.levels, "codeblock-width", s.cb_w,
               "codeblock-height", s.cb_h, "bitrate", s.bitrate, "layers", s.layers, "tile-width", s.tile_w,
               "tile-height", s.tile_h, "codeblock-style", guint(s.style), "markers", guint(s.markers), nullptr);
  gst_util_set_object_arg(G_OBJECT(e), "progression", kProgressions[s.progression]);
  gst_util_set_object_arg(G_OBJECT(e), "tile-parts", kTileParts[s.tile_parts]);
  *log += " reversible=" + std::to_string(s.reversible) + " levels=" + std::to_string(s.levels) +
          " codeblock=" + std::to_string(s.cb_w) + "x" + std::to_string(s.cb_h) +
          " bitrate=" + std::to_string(s.bitrate) + " layers=" + std::to_string(s.layers) +
          " progression=" + kProgressions[s.progression] + " tile=" + std::to_string(s.tile_w) + "x" +
          std::to_string(s.tile_h) + " style=" + std::to_string(s.style) + " markers=" + std::to_string(s.markers) +
          " tile-parts=" + kTileParts[s.tile_parts];
}

std::uint32_t ceil_div(std::uint64_t a, std::uint64_t b) { return std::uint32_t((a + b - 1) / b); }

// The tile size SIZ must carry: the property, or the frame's side for 0.
std::uint32_t tile_side(int property, int frame_side) { return property > 0 ? std::uint32_t(property) : frame_side; }

// Tile-parts per tile: the packets in the order's loops (T.800 B.12.1, one
// precinct per resolution; PCRL and CPRL alike), a new tile-part wherever
// the divided index (resolution, layer or component) changes.
std::uint64_t expected_tile_parts(const Settings &s, int components) {
  if (s.tile_parts == 0) return 1;
  const int size[3] = {s.layers, s.levels + 1, components};                               // L, R, C
  static const int nest[5][3] = {{0, 1, 2}, {1, 0, 2}, {1, 2, 0}, {2, 1, 0}, {2, 1, 0}};  // outermost first
  const int field = s.tile_parts == 1 ? 1 : s.tile_parts == 2 ? 0 : 2;
  const int *o = nest[s.progression];
  std::uint64_t parts = 0;
  int last = -1, at[3];
  for (at[o[0]] = 0; at[o[0]] < size[o[0]]; ++at[o[0]])
    for (at[o[1]] = 0; at[o[1]] < size[o[1]]; ++at[o[1]])
      for (at[o[2]] = 0; at[o[2]] < size[o[2]]; ++at[o[2]]) {
        parts += at[field] != last ? 1 : 0;
        last = at[field];
      }
  return parts;
}

// The rule the settings break for a frame of format f, w x h, or "".
// Levels: every resolution of every tile-component needs a sample each way
// (docs/j2k-encoder.md), so 2^levels <= the shortest side of any
// tile-component when levels > 0; tile-component bounds per T.800 B.3 (B-12).
std::string broken_rule(const J2kFormat &f, int w, int h, const Settings &s) {
  const auto pow2 = [](int v) { return v > 0 && (v & (v - 1)) == 0; };
  if (!pow2(s.cb_w) || !pow2(s.cb_h)) return "code-block side not a power of two";
  if (s.cb_w * s.cb_h > 4096) return "code-block area over 4096 (xcb + ycb <= 12)";
  if (s.reversible && s.bitrate > 0) return "bitrate with reversible coding";
  const std::uint32_t tw = tile_side(s.tile_w, w), th = tile_side(s.tile_h, h);
  std::uint32_t shortest = 0xFFFFFFFFu;
  for (int c = 0; c < f.components; ++c) {
    const std::uint32_t dx = c == 0 ? 1 : f.chroma_dx, dy = c == 0 ? 1 : f.chroma_dy;
    for (std::uint64_t tx0 = 0; tx0 < std::uint64_t(w); tx0 += tw)
      shortest = std::min(shortest, ceil_div(std::min<std::uint64_t>(tx0 + tw, w), dx) - ceil_div(tx0, dx));
    for (std::uint64_t ty0 = 0; ty0 < std::uint64_t(h); ty0 += th)
      shortest = std::min(shortest, ceil_div(std::min<std::uint64_t>(ty0 + th, h), dy) - ceil_div(ty0, dy));
  }
  // A subsampled component can leave a tile-component empty (T.800 B.3),
  // which is codable (and OpenJPEG decodes it) with no decomposition.
  if (s.levels > 0 && (std::uint64_t(shortest) >> s.levels) == 0)
    return "more levels than the shortest tile-component side allows";
  if (expected_tile_parts(s, f.components) > 255) return "more than 255 tile-parts per tile (TNsot)";
  return "";
}

std::uint32_t be16(const std::uint8_t *p) { return std::uint32_t(p[0]) << 8 | p[1]; }
std::uint32_t be32(const std::uint8_t *p) { return be16(p) << 16 | be16(p + 2); }

// What is wrong with `cs` as the codestream of this frame, or "".
std::string codestream_problem(const std::uint8_t *cs, std::size_t n, const J2kFormat &f, int w, int h,
                               const Settings &s) {
  const std::size_t siz_len = 38 + 3 * std::size_t(f.components);
  if (n < 4 + siz_len + 2) return "shorter than SOC, SIZ and EOC";
  if (be16(cs) != 0xFF4F) return "does not start with SOC (FF4F)";
  if (be16(cs + 2) != 0xFF51) return "SOC is not followed by SIZ (FF51)";
  const std::uint8_t *siz = cs + 4;
  if (be16(siz) != siz_len) return "Lsiz " + std::to_string(be16(siz)) + ", not " + std::to_string(siz_len);
  const std::uint32_t xsiz = be32(siz + 4), ysiz = be32(siz + 8), xo = be32(siz + 12), yo = be32(siz + 16);
  const std::uint32_t xt = be32(siz + 20), yt = be32(siz + 24), xto = be32(siz + 28), yto = be32(siz + 32);
  if (xsiz != std::uint32_t(w) || ysiz != std::uint32_t(h) || xo || yo)
    return "SIZ image " + std::to_string(xsiz) + "x" + std::to_string(ysiz) + " at " + std::to_string(xo) + "," +
           std::to_string(yo) + ", not the frame's";
  if (xt != tile_side(s.tile_w, w) || yt != tile_side(s.tile_h, h) || xto || yto)
    return "SIZ tiles " + std::to_string(xt) + "x" + std::to_string(yt) + " at " + std::to_string(xto) + "," +
           std::to_string(yto) + ", not the tile properties'";
  if (be16(siz + 36) != std::uint32_t(f.components))
    return "Csiz " + std::to_string(be16(siz + 36)) + ", not " + std::to_string(f.components);
  for (int c = 0; c < f.components; ++c) {
    const std::uint8_t *comp = siz + 38 + 3 * c;
    const int dx = c == 0 ? 1 : f.chroma_dx, dy = c == 0 ? 1 : f.chroma_dy;
    if (comp[0] != f.depth - 1 || comp[1] != dx || comp[2] != dy)
      return "component " + std::to_string(c) + ": Ssiz " + std::to_string(comp[0]) + " XRsiz " +
             std::to_string(comp[1]) + " YRsiz " + std::to_string(comp[2]) + ", not unsigned " +
             std::to_string(f.depth) + " bits subsampled " + std::to_string(dx) + "x" + std::to_string(dy);
  }
  if (be16(cs + n - 2) != 0xFFD9) return "does not end with EOC (FFD9)";
  const std::size_t eoc = n - 2;
  // The main header: marker segments up to the first SOT.
  std::size_t pos = 4 + siz_len;
  bool cod = false, qcd = false;
  while (pos + 4 <= eoc && be16(cs + pos) != 0xFF90) {
    const std::uint32_t marker = be16(cs + pos), len = be16(cs + pos + 2);
    if ((marker >> 8) != 0xFF || len < 2) return "main header: no marker segment at byte " + std::to_string(pos);
    cod |= marker == 0xFF52, qcd |= marker == 0xFF5C;
    pos += 2 + len;
  }
  if (!cod || !qcd) return "the main header lacks COD or QCD";
  // Tile-parts, each exactly Psot bytes from its SOT, the last ending at EOC;
  // each tile's TPsot 0, 1, ... with TNsot the count the division gives.
  const std::uint32_t tiles = ceil_div(w, xt) * ceil_div(h, yt);
  const std::uint64_t parts = expected_tile_parts(s, f.components);
  std::vector<std::uint64_t> seen(tiles, 0);
  while (pos < eoc) {
    if (pos + 14 > eoc || be16(cs + pos) != 0xFF90 || be16(cs + pos + 2) != 10)
      return "no SOT (FF90, Lsot 10) at byte " + std::to_string(pos);
    const std::uint32_t isot = be16(cs + pos + 4), psot = be32(cs + pos + 6);
    const std::size_t end = psot ? pos + psot : eoc;
    if (isot >= tiles || seen[isot] == parts || cs[pos + 10] != seen[isot] || cs[pos + 11] != parts)
      return "tile-part " + std::to_string(cs[pos + 10]) + " of " + std::to_string(cs[pos + 11]) + " of tile " +
             std::to_string(isot) + " unexpected (" + std::to_string(parts) + " per tile)";
    if (end > eoc || end < pos + 14) return "Psot " + std::to_string(psot) + " of tile " + std::to_string(isot);
    ++seen[isot];
    std::size_t p = pos + 12;
    while (p + 2 <= end && be16(cs + p) != 0xFF93) {
      if (p + 4 > end || (be16(cs + p) >> 8) != 0xFF || be16(cs + p + 2) < 2)
        return "tile " + std::to_string(isot) + ": no SOD (FF93) ending its header";
      p += 2 + be16(cs + p + 2);
    }
    if (p + 2 > end) return "tile " + std::to_string(isot) + ": no SOD (FF93) within Psot";
    pos = end;
  }
  if (pos != eoc) return "the last tile-part does not end at EOC";
  const auto short_of = std::count_if(seen.begin(), seen.end(), [&](std::uint64_t n) { return n != parts; });
  if (short_of) return std::to_string(short_of) + " of " + std::to_string(tiles) + " tiles lack tile-parts";
  return "";
}

// An output buffer of the frame: its caps and a well-formed codestream.
void check_output(GstBuffer *out, GstCaps *caps, bool j2c, const J2kFormat &f, int w, int h, const Settings &s,
                  const std::string &log) {
  const std::string caps_text = cfgt::caps_string(caps);
  const GstStructure *st = caps ? gst_caps_get_structure(caps, 0) : nullptr;
  int cw = 0, ch = 0, cn = 0;
  if (!st || !gst_structure_has_name(st, j2c ? "image/x-j2c" : "image/x-jpc") ||
      !gst_structure_get_int(st, "width", &cw) || !gst_structure_get_int(st, "height", &ch) ||
      !gst_structure_get_int(st, "num-components", &cn) || cw != w || ch != h || cn != f.components)
    cffuzz::fail(log + ": output caps " + caps_text + " do not describe the frame");
  GstMapInfo m;
  if (!gst_buffer_map(out, &m, GST_MAP_READ)) cffuzz::fail(log + ": output buffer cannot be mapped");
  const std::uint8_t *cs = m.data;
  std::size_t n = m.size;
  std::string why;
  if (j2c) {
    // T.800 Annex I: LBox (the whole box), TBox 'jp2c', then the codestream.
    if (n < 8 || be32(m.data) != n || std::string(reinterpret_cast<const char *>(m.data) + 4, 4) != "jp2c")
      why = "not one 'jp2c' box of its size";
    cs += 8, n = n < 8 ? 0 : n - 8;
  }
  if (why.empty()) why = codestream_problem(cs, n, f, w, h, s);
  // `bitrate`: bits per pixel of the whole codestream, an upper bound.
  const double target = s.bitrate * w * h / 8;
  if (why.empty() && s.bitrate > 0 && double(n) > target)
    why = "the codestream exceeds the bitrate's " + std::to_string(target) + " bytes";
  gst_buffer_unmap(out, &m);
  if (!why.empty()) cffuzz::fail(log + ": output of " + std::to_string(gst_buffer_get_size(out)) + " bytes: " + why);
}

// A frame whose samples come from the fuzz bytes: a pattern of up to 32
// bytes repeated, sometimes mixed with a generator, so flat, periodic,
// extreme and noisy pictures all occur.
GstBuffer *fuzz_frame(cffuzz::Input &in, const GstVideoInfo &info) {
  GstBuffer *b = gst_buffer_new_allocate(nullptr, GST_VIDEO_INFO_SIZE(&info), nullptr);
  std::vector<std::uint8_t> pattern(1 + in.below(32));
  for (auto &v : pattern) v = in.u8();
  const std::uint8_t noise = in.u8();  // 0..63: none; else bits of random noise
  std::uint32_t x = 0x9E3779B9u ^ noise;
  GstMapInfo m;
  gst_buffer_map(b, &m, GST_MAP_WRITE);
  for (gsize i = 0; i < m.size; ++i) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    m.data[i] = pattern[i % pattern.size()] ^ (noise < 64 ? 0 : std::uint8_t(x) & noise);
  }
  gst_buffer_unmap(b, &m);
  return b;
}

struct Frame {
  const J2kFormat *format;
  int w, h;
};
Frame fuzz_frame_shape(cffuzz::Input &in) {
  return {&kFormats[in.below(kFormats.size())], 1 + int(in.below(kMaxSide)), 1 + int(in.below(kMaxSide))};
}

// The encoder's work grows with tiles x components x resolutions x layers
// (packets, and the layout's resolutions): a 96 x 96 frame in 1 x 1 tiles
// takes seconds under the sanitizers, and millions of packets with hundreds
// of layers, which is only slow (linear in the tiles). Past 20,000 of those
// units the frame gets one tile, so that every input runs in well under a
// second.
void keep_small(const Frame &fr, Settings &s) {
  const std::uint64_t tiles =
      std::uint64_t(ceil_div(fr.w, tile_side(s.tile_w, fr.w))) * ceil_div(fr.h, tile_side(s.tile_h, fr.h));
  if (tiles * fr.format->components * (s.levels + 1) * s.layers > 20000) s.tile_w = s.tile_h = 0;
}

// Pushes caps (when new) and one frame; applies the oracle. False once the
// element has refused (the stream ends there).
bool push_frame(cfgt::Harness &hx, cffuzz::Input &in, const Frame &fr, bool new_caps, bool j2c, const Settings &s,
                std::string &log) {
  const J2kFormat &f = *fr.format;
  const std::string rule = broken_rule(f, fr.w, fr.h, s);
  log += " | " + std::string(f.name) + " " + std::to_string(fr.w) + "x" + std::to_string(fr.h) +
         (rule.empty() ? "" : " (breaks: " + rule + ")");
  std::string errors;
  if (new_caps) {
    const bool took = hx.set_caps(cfgt::raw_caps(f.name, fr.w, fr.h).c_str());
    errors = hx.errors();
    if (!took) {
      if (errors.empty()) cffuzz::fail(log + ": caps refused without an error message");
      if (rule.empty()) cffuzz::fail(log + ": caps refused, though no rule is broken: " + errors);
      return false;
    }
  }
  const GstVideoInfo info = cfgt::video_info(f.name, fr.w, fr.h);
  const GstFlowReturn ret = hx.push(fuzz_frame(in, info));
  errors += hx.errors();
  GstBuffer *out = hx.pull();
  if (ret != GST_FLOW_OK) {
    if (out) gst_buffer_unref(out);
    if (errors.empty())
      cffuzz::fail(log + ": push returned " + gst_flow_get_name(ret) + " without an error message on the bus");
    // A target rate below the headers' size is refused at the frame, once
    // the headers are written (docs/j2k-encoder.md, `bitrate`).
    const bool below_headers = s.bitrate > 0 && cfgt::contains(errors, "less than the headers need");
    if (rule.empty() && !below_headers) cffuzz::fail(log + ": refused, though no rule is broken: " + errors);
    return false;
  }
  if (!out) cffuzz::fail(log + ": push returned OK but no output buffer came");
  if (!rule.empty()) cffuzz::fail(log + ": coded, though a rule is broken");
  if (!errors.empty()) cffuzz::fail(log + ": coded, but with an error on the bus: " + errors);
  GstCaps *caps = hx.out_caps();
  check_output(out, caps, j2c, f, fr.w, fr.h, s, log);
  if (caps) gst_caps_unref(caps);
  gst_buffer_unref(out);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  cffuzz::init();
  cffuzz::Input in(data, size);
  Frame fr = fuzz_frame_shape(in);
  // Downstream takes image/x-jpc, image/x-j2c, or anything (then image/x-jpc).
  const std::uint8_t downstream = in.u8() % 3;
  const bool j2c = downstream == 1;
  const bool openmp = in.u8() & 1;
  const int threads = 1 + int(in.below(2));
  GstElement *enc = GST_ELEMENT(gst_object_ref_sink(gst_element_factory_make("cudaj2kenc", nullptr)));
  gst_util_set_object_arg(G_OBJECT(enc), "backend", openmp ? "openmp" : "cpu");
  gst_util_set_object_arg(G_OBJECT(enc), "threads", std::to_string(threads).c_str());
  std::string log = std::string("cudaj2kenc backend=") + (openmp ? "openmp" : "cpu") +
                    " threads=" + std::to_string(threads) + " into " +
                    (downstream == 0   ? "image/x-jpc"
                     : downstream == 1 ? "image/x-j2c"
                                       : "ANY") +
                    ":";
  Settings s;
  fuzz_settings(in, s);
  keep_small(fr, s);
  apply(enc, s, &log);
  {
    cfgt::Harness hx(GST_ELEMENT(gst_object_ref(enc)));
    if (downstream < 2) gst_harness_set_sink_caps_str(hx.h, j2c ? "image/x-j2c" : "image/x-jpc");
    if (push_frame(hx, in, fr, true, j2c, s, log)) {
      // The second frame: other settings (they apply at the next frame),
      // sometimes other caps.
      const bool new_caps = in.u8() < 64;
      if (new_caps) fr = fuzz_frame_shape(in);
      fuzz_settings(in, s);
      keep_small(fr, s);
      log += " | then";
      apply(enc, s, &log);
      push_frame(hx, in, fr, new_caps, j2c, s, log);
    }
  }
  gst_object_unref(enc);
  return 0;
}
