// The predictors' forward for 8-bit samples with S16 residuals on aligned
// planes (internal to kernels/): the common case (GRAY8, I420, RGBA, ...)
// at memory speed. predict_forward in predictor_kernels.cuh takes the rest.
//
// A thread owns kPix consecutive pixels of kRows rows: it loads each row once
// as one 8- or 16-byte word (all its rows first, so that many loads are in
// flight), takes the two pixels left of its run and the one right of it from
// its neighbour lanes (__shfl; lanes 0 and 31 load them), and stores each
// component's kPix residuals as one 16- or 8-byte word. Columns and rows
// outside the frame are clamped when loaded, which is the border rule for
// columns; a lane whose run reaches the last column gathers its pixels one by
// one. NC = 1: planar components, 8 pixels a lane; NC = 4: pixels of 4 bytes
// (RGBA, BGRx, ...) holding 3 or 4 components, 4 pixels a lane.
// The arithmetic is cpu/predict.hpp's.
#pragma once

#include <cstdint>

#include "cpu/predict.hpp"
#include "kernels/samples.cuh"
#include "kernels/unroll.cuh"
#include "kernels/vector_access.cuh"

namespace cf::cuda {

struct PredictForwardU8Plane {
  const unsigned char *in;  // NC = 4: the pixel's first byte
  long long in_stride;
  unsigned char *out[4];  // residual plane of the pixel's byte b (NC = 4), or out[0]; nullptr: none
  long long out_stride[4];
  int w, h, tiles_x, first_tile;
};

struct PredictForwardU8Params {
  PredictForwardU8Plane plane[kMaxPlanes];
  int n;
  int slice_height, threshold;
  predict::Range range;
};

// What a lane holds: kPix pixels of NC bytes (kIn words), kOut words of
// residuals per component, a window of columns x0-2 .. x0+kPix.
template <int NC>
struct PredictForwardU8Lane {
  static constexpr int kPix = NC == 1 ? 8 : 4, kIn = kPix * NC / 4, kOut = kPix / 2, kWin = kPix + 3;
};

struct PredictForwardU8Shape {
  static constexpr int kRows = 8;   // rows per thread
  // 8 blocks of 4 warps per SM (at most 64 registers): a 4K GRAY8 frame in one wave.
  static constexpr int kMinBlocks = 8;
  static constexpr int kWarps = 4;  // warps per block, stacked vertically
  static constexpr int kThreads = 32 * kWarps;
  template <int NC>
  static constexpr int tile_w() { return 32 * PredictForwardU8Lane<NC>::kPix; }
  static constexpr int kTileH = kRows * kWarps;
};

template <Predictor P, int NC>
__global__ void __launch_bounds__(PredictForwardU8Shape::kThreads, PredictForwardU8Shape::kMinBlocks)
    predict_forward_u8(PredictForwardU8Params p) {
  using S = PredictForwardU8Shape;
  constexpr unsigned kAll = 0xffffffffu;
  using L = PredictForwardU8Lane<NC>;
  static_assert(NC == 1 || NC == 4, "planar bytes or 4-byte pixels");
  const int tile = int(blockIdx.x);
  int c = 0;
  while (c + 1 < p.n && tile >= p.plane[c + 1].first_tile) ++c;
  const unsigned char *const in = p.plane[c].in;
  const long long in_stride = p.plane[c].in_stride;
  const int w = p.plane[c].w, h = p.plane[c].h;
  const int local = tile - p.plane[c].first_tile, ty = local / p.plane[c].tiles_x, tx = local - ty * p.plane[c].tiles_x;
  const int lane = int(threadIdx.x) % 32, warp = int(threadIdx.x) / 32;
  const int wx0 = tx * S::tile_w<NC>(), x0 = wx0 + lane * L::kPix;
  const int y_begin = ty * S::kTileH + warp * S::kRows;
  if (wx0 >= w || y_begin >= h) return;  // the whole warp
  const bool inside = x0 + L::kPix < w;     // own run and its right neighbour in the row

  // Rows y_begin-2 .. y_begin+kRows-1, clamped into the frame (rows outside
  // the slice are loaded but never read).
  auto row_of = [&](int j) { return predict::clamp_(y_begin - 2 + j, 0, h - 1); };
  const PlaneRef src{const_cast<unsigned char *>(in), in_stride, NC};
  auto pixel_word = [&](int y, int x) {  // pixel x (clamped) of row y, in the low byte(s)
    const int xc = predict::clamp_(x, 0, w - 1);
    if constexpr (NC == 1) return unsigned(load<std::uint8_t>(src, xc, y));
    else return load_words<1>(in + y * in_stride + (long long)xc * NC).w[0];
  };
  Words<L::kIn> rows[S::kRows + 2];
CF_UNROLL
  for (int j = 0; j < S::kRows + 2; ++j) {
    const int y = row_of(j);
    if (inside) {
      rows[j] = load_words<L::kIn>(in + y * in_stride + (long long)x0 * NC);
    } else {
      for (int q = 0; q < L::kIn; ++q) {
        unsigned v = 0;
        for (int b = 0; b < 4 / NC; ++b) v |= pixel_word(y, x0 + q * (4 / NC) + b) << (8 * b * NC);
        rows[j].w[q] = v;
      }
    }
  }

  // Window of row j: component b, columns x0-2 .. x0+L::kPix.
  auto window = [&](int j, int (&win)[NC][L::kWin]) {
    const Words<L::kIn> &r = rows[j];
    unsigned left1, left2, right;  // pixels x0-2, x0-1 (NC = 1: one word, bytes 2 and 3), x0+L::kPix
    if constexpr (NC == 1) {
      left1 = __shfl_up_sync(kAll, r.w[L::kIn - 1], 1);
      right = __shfl_down_sync(kAll, r.w[0], 1);
      if (lane == 0) left1 = x0 > 0 ? load_words<1>(in + row_of(j) * in_stride + x0 - 4).w[0] : (r.w[0] & 0xffu) * 0x01010101u;
      left2 = left1 >> 24;
      left1 = left1 >> 16;
    } else {
      left1 = __shfl_up_sync(kAll, r.w[L::kIn - 2], 1);
      left2 = __shfl_up_sync(kAll, r.w[L::kIn - 1], 1);
      right = __shfl_down_sync(kAll, r.w[0], 1);
      if (lane == 0) {
        left1 = pixel_word(row_of(j), x0 - 2);
        left2 = pixel_word(row_of(j), x0 - 1);
      }
    }
    if (lane == 31) right = pixel_word(row_of(j), x0 + L::kPix);
CF_UNROLL
    for (int b = 0; b < NC; ++b) {
      win[b][0] = int((left1 >> (8 * b)) & 0xffu);
      win[b][1] = int((left2 >> (8 * b)) & 0xffu);
CF_UNROLL
      for (int i = 0; i < L::kPix; ++i) win[b][i + 2] = int((r.w[i * NC / 4] >> (8 * ((i * NC) % 4 + b))) & 0xffu);
      win[b][L::kPix + 2] = int((right >> (8 * b)) & 0xffu);
    }
  };

  int up2[NC][L::kWin], up1[NC][L::kWin], cur[NC][L::kWin];
  window(0, up2);
  window(1, up1);
CF_UNROLL
  for (int j = 2; j < S::kRows + 2; ++j) {
    window(j, cur);
    const int y = y_begin + j - 2;
    if (y < h) {
      const int top = p.slice_height > 0 ? y - y % p.slice_height : 0;
      const bool has1 = y > top, has2 = y > top + 1;
CF_UNROLL
      for (int b = 0; b < NC; ++b) {
        unsigned char *const out = p.plane[c].out[b];
        if (!out) continue;
        int res[L::kPix];
CF_UNROLL
        for (int i = 0; i < L::kPix; ++i) {
          // Two rows above: the row above on the slice's second row.
          const int nn = has2 ? up2[b][i + 2] : up1[b][i + 2], nne = has2 ? up2[b][i + 3] : up1[b][i + 3];
          const predict::Neighbours nb{cur[b][i + 1], cur[b][i], up1[b][i + 2], nn, up1[b][i + 1], up1[b][i + 3], nne};
          res[i] = cur[b][i + 2] - predict::prediction(P, p.threshold, p.range, nb, !has1, x0 + i == 0);
        }
        const long long out_stride = p.plane[c].out_stride[b];
        if (inside) {
          Words<L::kOut> v;
CF_UNROLL
          for (int q = 0; q < L::kOut; ++q) v.w[q] = (unsigned(res[2 * q]) & 0xffffu) | (unsigned(res[2 * q + 1]) << 16);
          store_words<L::kOut>(out + y * out_stride + (long long)x0 * 2, v);
        } else {
          const PlaneRef ref{out, out_stride, 1};
          for (int i = 0; i < L::kPix; ++i)
            if (x0 + i < w) store<std::int16_t>(ref, x0 + i, y, res[i]);
        }
      }
    }
CF_UNROLL
    for (int b = 0; b < NC; ++b)
CF_UNROLL
      for (int i = 0; i < L::kWin; ++i) {
        up2[b][i] = up1[b][i];
        up1[b][i] = cur[b][i];
      }
  }
}

}  // namespace cf::cuda
