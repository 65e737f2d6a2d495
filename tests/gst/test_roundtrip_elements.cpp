// Round trips through the elements: cudahaar ! cudainverse and
// cudacdf53 ! cudainverse, every input format, odd sizes, levels 1..3, both
// layouts; the output buffer equals the input buffer byte for byte (the
// input's row padding is 0 and its RGBx/BGRx padding byte 0xff, which is what
// cudainverse writes).
#include "cudafilters/wavelet.hpp"
#include "gst_util.hpp"

using namespace cfgt;

int main(int argc, char **argv) {
  init(&argc, &argv);
  const int sizes[][2] = {{1, 1}, {2, 1}, {1, 5}, {17, 13}, {33, 7}, {64, 48}};
  int runs = 0, skipped = 0;
  for (const char *element : {"cudahaar", "cudacdf53"}) {
    const cf::Wavelet wavelet = element[4] == 'h' ? cf::Wavelet::Haar : cf::Wavelet::Cdf53;
    for (const FormatSpec &f : formats())
      for (const auto &sz : sizes)
        for (int levels = 1; levels <= 3; ++levels)
          for (const char *layout : {"mallat", "standard"}) {
            const int w = sz[0], h = sz[1];
            // Levels deeper than the smallest plane allows are refused at
            // caps time (test_bad_input); they are not round trips.
            const cf::Layout lay = layout[0] == 'm' ? cf::Layout::Mallat : cf::Layout::Standard;
            const cf::SampleType in = f.coeff_bytes == 4 ? cf::SampleType::U16 : cf::SampleType::U8;
            const cf::SampleType co = f.coeff_bytes == 4 ? cf::SampleType::S32 : cf::SampleType::S16;
            const int cw = f.subsampled ? (w + 1) / 2 : w, ch = f.subsampled ? (h + 1) / 2 : h;
            if (levels > cf::wavelet_max_levels(wavelet, lay, w, h, in, co) ||
                levels > cf::wavelet_max_levels(wavelet, lay, cw, ch, in, co)) {
              ++skipped;
              continue;
            }
            const std::string desc =
                std::string(element) + " levels=" + std::to_string(levels) + " layout=" + layout + " ! cudainverse";
            Harness hx(desc.c_str());
            const bool ok = hx.set_caps(raw_caps(f.name, w, h).c_str());
            CHECK_MSG(ok, "%s %s %dx%d: caps refused: %s", desc.c_str(), f.name, w, h, hx.errors().c_str());
            if (!ok) continue;
            const GstVideoInfo info = video_info(f.name, w, h);
            for (std::uint32_t seed = 1; seed <= 2; ++seed) {
              GstBuffer *in_buf = random_frame(info, seed * 1000 + w * 31 + h, Padding::Zero);
              gst_buffer_ref(in_buf);
              const GstFlowReturn ret = hx.push(in_buf);
              CHECK_MSG(ret == GST_FLOW_OK, "%s %s %dx%d: %s %s", desc.c_str(), f.name, w, h, gst_flow_get_name(ret),
                        hx.errors().c_str());
              GstBuffer *out = hx.pull();
              CHECK_MSG(out != nullptr, "%s %s %dx%d: no output", desc.c_str(), f.name, w, h);
              if (out) {
                const std::string diff = compare_buffers(info, in_buf, out);
                CHECK_MSG(diff.empty(), "%s %s %dx%d: %s", desc.c_str(), f.name, w, h, diff.c_str());
                gst_buffer_unref(out);
              }
              gst_buffer_unref(in_buf);
              ++runs;
            }
          }
  }
  std::printf("%d round trips, %d level/size combinations skipped as too deep\n", runs, skipped);
  return cft::test_result();
}
