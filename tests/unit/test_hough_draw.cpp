// cf::hough_draw on the CPU backends: the closed-form points of
// core/shared/hough_draw_rules.hpp equal the incremental Bresenham walk (every segment in a
// 12 x 12 grid, and long random ones); hand-computed colours; cpu and openmp
// equal the reference drawing of hough_draw_check.hpp at odd sizes,
// thicknesses and padded rows; bad input gives clear errors.
#include <random>

#include "core/shared/hough_draw_rules.hpp"
#include "hough_draw_check.hpp"

using namespace cft;

static bool contains_text(const std::string &s, const char *text) { return s.find(text) != std::string::npos; }

static void closed_form_is_the_walk() {
  long long segments = 0;
  auto same = [&](int x0, int y0, int x1, int y1) {
    const cf::hough::Segment s{x0, y0, x1, y1};
    const auto want = hough_draw::walk(x0, y0, x1, y1);
    bool ok = cf::hough::segment_points(s) == int(want.size());
    for (int k = 0; ok && k < int(want.size()); ++k) {
      int x, y;
      cf::hough::segment_point(s, k, x, y);
      ok = x == want[std::size_t(k)].first && y == want[std::size_t(k)].second;
    }
    CHECK_MSG(ok, "segment (%d,%d)-(%d,%d): the closed form leaves the walk", x0, y0, x1, y1);
    ++segments;
  };
  for (int a = 0; a < 144; ++a)
    for (int b = 0; b < 144; ++b) same(a % 12, a / 12, b % 12, b / 12);
  std::mt19937 rng(5);
  for (int i = 0; i < 2000; ++i) same(int(rng() % 16384), int(rng() % 16384), int(rng() % 16384), int(rng() % 16384));
  std::printf("%lld segments: closed form = walk\n", segments);
}

// Red and grey by hand: BT.601 red is Y 82, U 90, V 240; grey 0x808080 has luma 128.
static void colours() {
  cf::Engine cpu(cf::Backend::Cpu);
  cf::HoughLine l;
  l.visible = true;  // a single point at (1, 1)
  l.x0 = l.y0 = l.x1 = l.y1 = 1;
  OwnedFrame yuv = make_raw(Packing::Planar3, 4, 4, cf::SampleType::U8);
  fill_bytes(yuv, 0);
  cf::hough_draw(cpu, {l}, {cf::HoughPaint::Yuv, 0xff0000, 1}, yuv.view, yuv.view);
  CHECK(read_sample(yuv.view, 0, 1, 1) == 82 && read_sample(yuv.view, 1, 0, 0) == 90 &&
        read_sample(yuv.view, 2, 0, 0) == 240);
  CHECK(read_sample(yuv.view, 0, 0, 0) == 0 && read_sample(yuv.view, 1, 1, 1) == 0);
  OwnedFrame gray = make_raw(Packing::Gray, 4, 4, cf::SampleType::U8);
  fill_bytes(gray, 0);
  cf::hough_draw(cpu, {l}, {cf::HoughPaint::Gray, 0x808080, 2}, gray.view, gray.view);
  // thickness 2: offsets 0..1, so (1..2, 1..2)
  int painted = 0;
  for (int y = 0; y < 4; ++y)
    for (int x = 0; x < 4; ++x) painted += read_sample(gray.view, 0, x, y) == 128;
  CHECK(painted == 4 && read_sample(gray.view, 0, 2, 2) == 128);
}

static void bad_input() {
  cf::Engine cpu(cf::Backend::Cpu);
  OwnedFrame f = make_raw(Packing::Packed3, 8, 6, cf::SampleType::U8);
  cf::HoughLine l;
  l.visible = true;
  l.x1 = 7;
  l.y1 = 5;
  auto error_of = [&](const std::vector<cf::HoughLine> &lines, const cf::HoughDrawParams &d, const cf::FrameView &src,
                      const cf::FrameView &dst) {
    try {
      cf::hough_draw(cpu, lines, d, src, dst);
    } catch (const cf::Error &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error_of({l}, {cf::HoughPaint::Rgb, 0xff, 0}, f.view, f.view).find("thickness=0 must be 1..64") == 0);
  CHECK(error_of({l}, {cf::HoughPaint::Rgb, 0xff, 65}, f.view, f.view).find("thickness=65") == 0);
  cf::HoughLine out = l;
  out.x1 = 8;
  CHECK(contains_text(error_of({out}, {}, f.view, f.view), "outside the 8x6 frame"));
  out.visible = false;  // invisible lines are not drawn, whatever their end points
  CHECK(error_of({out}, {}, f.view, f.view).empty());
  OwnedFrame small = make_raw(Packing::Packed3, 8, 5, cf::SampleType::U8);
  CHECK(contains_text(error_of({}, {}, f.view, small.view), "differ"));
  OwnedFrame gray = make_raw(Packing::Gray, 8, 6, cf::SampleType::U8);
  CHECK(contains_text(error_of({}, {cf::HoughPaint::Rgb, 0, 1}, gray.view, gray.view), "needs 3 components"));
  cf::FrameView dev = f.view;
  dev.memory = cf::Memory::Device;
  CHECK(contains_text(error_of({}, {}, dev, dev), "needs backend=cuda"));
}

int main() {
  closed_form_is_the_walk();
  colours();
  bad_input();
  cf::Engine cpu(cf::Backend::Cpu), omp(cf::Backend::OpenMP, 3);
  const std::vector<hough::Size> sizes = {{1, 1}, {2, 3}, {7, 5}, {321, 241}};
  hough_draw::check(cpu, sizes, {1, 2, 3, 4, 7});
  hough_draw::check(omp, sizes, {1, 2, 3, 4, 7});
  std::printf("%lld drawings equal the reference\n", hough::comparisons());
  return test_result();
}
