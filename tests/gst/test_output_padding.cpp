// Raw video out is written whole: the samples, and 0 in every byte that holds
// none (the tail of each row up to its stride, e.g. RGB 7x3 rows of 21 bytes
// in 24; the luma row GStreamer leaves before the chroma of I420/NV12 of odd
// height), by every element that writes raw video, on the cpu and openmp
// backends alike. Inputs carry 0xa5 in their padding, and every output goes
// back to its pool with all its bytes 0x5a, so a byte an element leaves
// unwritten shows in the next frame. Lossless chains must give the input back
// with its padding zeroed, byte for byte; the others must give zero padding
// and the same bytes on both backends.
#include "gst_util.hpp"

using namespace cfgt;

namespace {

struct Format {
  const char *name;
  int w, h;
};

struct Case {
  const char *chain;  // elements separated by " ! "; each gets backend=...
  bool lossless;
  std::vector<Format> formats;
};

const int kFrames = 3;

// "a x=1 ! b" -> "a x=1 backend=cpu ! b backend=cpu"
std::string with_backend(const std::string &chain, const char *backend) {
  std::string out, rest = chain;
  for (;;) {
    const std::size_t bang = rest.find(" ! ");
    out += rest.substr(0, bang) + " backend=" + backend;
    if (bang == std::string::npos) return out;
    out += " ! ";
    rest = rest.substr(bang + 3);
  }
}

// Empty when every padding byte of `buf` (a raw frame of `info`) is 0.
std::string padding_not_zero(const GstVideoInfo &info, GstBuffer *buf) {
  const std::vector<bool> pixel = pixel_bytes(info);
  GstMapInfo map;
  gst_buffer_map(buf, &map, GST_MAP_READ);
  std::string what;
  long long count = 0;
  for (gsize i = 0; i < map.size; ++i)
    if ((i >= pixel.size() || !pixel[i]) && map.data[i] != 0 && count++ == 0)
      what = "padding byte " + std::to_string(i) + " is " + std::to_string(map.data[i]);
  gst_buffer_unmap(buf, &map);
  if (count) what += " (" + std::to_string(count) + " padding bytes not 0)";
  return what;
}

// Runs kFrames frames of `f` through `chain` on `backend`; returns copies of
// the outputs (empty where there was none) and their video info.
std::vector<GstBuffer *> run(const Case &c, const Format &f, const char *backend, GstVideoInfo *out_info) {
  const std::string desc = with_backend(c.chain, backend);
  const std::string what = desc + " " + f.name + " " + std::to_string(f.w) + "x" + std::to_string(f.h);
  std::vector<GstBuffer *> outs;
  Harness hx(desc.c_str());
  if (!hx.set_caps(raw_caps(f.name, f.w, f.h).c_str())) {
    CHECK_MSG(false, "%s: caps refused: %s", what.c_str(), hx.errors().c_str());
    return outs;
  }
  const GstVideoInfo info = video_info(f.name, f.w, f.h);
  for (int frame = 0; frame < kFrames; ++frame) {
    GstBuffer *in = random_frame(info, std::uint32_t(100 * frame + f.w * 7 + f.h));
    fill_padding(info, in, 0xa5);
    gst_buffer_ref(in);
    const GstFlowReturn ret = hx.push(in);
    CHECK_MSG(ret == GST_FLOW_OK, "%s: %s %s", what.c_str(), gst_flow_get_name(ret), hx.errors().c_str());
    GstBuffer *out = hx.pull();
    CHECK_MSG(out != nullptr, "%s frame %d: no output", what.c_str(), frame);
    if (!out) {
      outs.push_back(nullptr);
      gst_buffer_unref(in);
      continue;
    }
    GstCaps *caps = hx.out_caps();
    CHECK(caps && gst_video_info_from_caps(out_info, caps));
    if (caps) gst_caps_unref(caps);
    if (c.lossless) {
      // Known answer: the samples come back, the padding is 0.
      GstBuffer *want = with_zero_padding(info, in);
      const std::string diff = compare_buffers(info, want, out);
      CHECK_MSG(diff.empty(), "%s frame %d: %s", what.c_str(), frame, diff.c_str());
      gst_buffer_unref(want);
    } else {
      const std::string bad = padding_not_zero(*out_info, out);
      CHECK_MSG(bad.empty(), "%s frame %d: %s", what.c_str(), frame, bad.c_str());
    }
    outs.push_back(gst_buffer_copy_deep(out));
    // Back to the pool with every byte scribbled over.
    if (gst_buffer_is_writable(out)) {
      GstMapInfo map;
      if (gst_buffer_map(out, &map, GST_MAP_WRITE)) {
        std::memset(map.data, 0x5a, map.size);
        gst_buffer_unmap(out, &map);
      }
    }
    gst_buffer_unref(out);
    gst_buffer_unref(in);
  }
  return outs;
}

}  // namespace

int main(int argc, char **argv) {
  init(&argc, &argv);
  const std::vector<Format> all = {{"RGB", 7, 3},  {"I420", 7, 5},      {"I420", 9, 5},
                                   {"NV12", 7, 5}, {"GRAY16_LE", 7, 3}, {"GRAY8", 7, 3}};
  const std::vector<Format> rgb = {{"RGB", 7, 3}, {"BGR", 9, 5}};
  const std::vector<Format> eight_bit = {{"RGB", 7, 3}, {"I420", 9, 5}, {"NV12", 7, 5}, {"GRAY8", 7, 3}};
  const std::vector<Format> hough = {{"RGB", 9, 5}, {"I420", 9, 5}, {"GRAY8", 7, 5}};
  const Case cases[] = {
      {"cudahaar levels=2 ! cudainverse", true, all},
      {"cudacdf53 levels=2 layout=standard ! cudainverse", true, all},
      {"cudamed ! cudainverse", true, all},
      {"cudagap ! cudainverse", true, eight_bit},
      {"cudarct ! cudainverse", true, rgb},
      {"cudaycocg ! cudacdf53 ! cudainverse", true, rgb},
      {"cudacdf97 levels=1 ! cudainverse", true, eight_bit},
      {"cudadct quality=50 ! cudainverse", false, eight_bit},
      {"cudahalftone", false, eight_bit},
      {"cudahough output=overlay threshold=2", false, hough},
      {"cudahough output=edges", false, hough},
      {"cudahough output=accumulator theta-bins=45", false, hough},
      {"cudahaar ! cudaview", false, all},
      {"cudacdf53 ! cudaview component=1", false, {{"I420", 9, 5}, {"RGB", 7, 3}}},
  };
  int runs = 0;
  for (const Case &c : cases)
    for (const Format &f : c.formats) {
      GstVideoInfo info_cpu, info_omp;
      std::vector<GstBuffer *> cpu = run(c, f, "cpu", &info_cpu);
      std::vector<GstBuffer *> omp = run(c, f, "openmp", &info_omp);
      for (std::size_t i = 0; i < cpu.size() && i < omp.size(); ++i)
        if (cpu[i] && omp[i]) {
          const std::string diff = compare_buffers(info_cpu, cpu[i], omp[i]);
          CHECK_MSG(diff.empty(), "%s %s %dx%d frame %zu: cpu and openmp differ: %s", c.chain, f.name, f.w, f.h, i,
                    diff.c_str());
          ++runs;
        }
      for (GstBuffer *b : cpu)
        if (b) gst_buffer_unref(b);
      for (GstBuffer *b : omp)
        if (b) gst_buffer_unref(b);
    }
  std::printf("%d frames compared on cpu and openmp\n", runs);
  return cft::test_result();
}
