// The run-length size of the CDF 9/7 report (seed document 004), for
// pipelines/cdf97_seeds.cpp.
//
// What the report's text shows of its coder: compress_image_rle(image,
// width, height, &segments, &count) fills one array of CompressedSegment
// for the whole quantised, thresholded image, and the program prints
// "Original Size" = sizeof(float) * width * height and "Compressed size" =
// sizeof(compressed_data) * count, where compressed_data is a
// CompressedSegment *: the size of a pointer (8 bytes on a 64-bit build)
// times the number of segments, whatever a segment holds. The coder's body
// is not in the text; we read it as the usual one: a segment is a value and
// the count of equal values that follow one another in raster order over the
// whole image (rows concatenated, so a run may go on from the end of one row
// into the next). A {float value; int count} segment is 8 bytes too, so
// both readings give 8 bytes per segment.
#pragma once

#include <cstddef>

namespace cfseeds {

// Bytes per segment in the report's printed size: sizeof(CompressedSegment *)
// on a 64-bit build.
constexpr std::size_t kReportBytesPerSegment = 8;

// The number of runs of equal values in v[0..n): 0 for n = 0, else one
// plus the number of positions i > 0 with v[i] != v[i-1].
template <class T>
std::size_t run_count(const T *v, std::size_t n) {
  if (n == 0) return 0;
  std::size_t runs = 1;
  for (std::size_t i = 1; i < n; ++i) runs += v[i] != v[i - 1];
  return runs;
}

}  // namespace cfseeds
