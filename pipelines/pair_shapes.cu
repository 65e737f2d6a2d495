// Times the U8 -> S16 pair kernels of kernels/predictor_forward_pairs.cuh
// alone at 3840x2160 for several block shapes (PairShape): 200 launches back
// to back on one stream, best of 3, against a device-to-device copy in the
// same run. Every shape's residuals are compared with the first shape's,
// which the parity tests compare with the serial backend. A tool, not a test
// (pipelines/results/h100-predictor-pair-shapes.md). Arguments: launches, then
// optional filters layout (RGBA, GRAY8, I420), predictor, shape index.
// Exits 1 when a shape's residuals differ from the first's.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "kernels/predictor_forward_pairs.cuh"

using namespace cf;
using namespace cf::cuda;

#define CK(x)                                                                                 \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

constexpr int W = 3840, H = 2160;

struct Layout {
  const char *name;
  bool pixels;  // RGBA (pixel kernel) or planar
  int planes;   // planar: 1 (GRAY8) or 3 (I420)
};

struct Bufs {
  unsigned char *in, *out;
  size_t in_bytes, out_bytes;
};

// The parameters of one launch and its block count (predictor.cu's forward_u8
// for these tight frames).
static PredictForwardU8Params params(const Layout &L, const Bufs &b, int tile_w, int tile_h, int slice,
                                     long long &tiles) {
  PredictForwardU8Params p{};
  p.slice_height = slice;
  p.threshold = 40;
  p.range = predict::range_of(SampleType::U8);
  tiles = 0;
  auto add = [&](PredictForwardU8Plane &k, int w, int h, int tw) {
    k.w = w, k.h = h;
    k.tiles_x = (w + tw - 1) / tw;
    k.first_tile = int(tiles);
    tiles += (long long)k.tiles_x * ((h + tile_h - 1) / tile_h);
  };
  if (L.pixels) {
    p.n = 1;
    auto &k = p.plane[0];
    k.in = b.in;
    k.in_stride = W * 4;
    for (int c = 0; c < 4; ++c) {
      k.out[c] = b.out + (size_t)c * W * H * 2;
      k.out_stride[c] = W * 2;
    }
    add(k, W, H, tile_w);
  } else {
    p.n = L.planes;
    size_t in_off = 0, out_off = 0;
    for (int c = 0; c < L.planes; ++c) {
      const int w = c ? W / 2 : W, h = c ? H / 2 : H;
      auto &k = p.plane[c];
      k.in = b.in + in_off;
      k.in_stride = w;
      k.out[0] = b.out + out_off;
      k.out_stride[0] = w * 2;
      in_off += (size_t)w * h;
      out_off += (size_t)w * h * 2;
      add(k, w, h, tile_w);
    }
  }
  return p;
}

// The kernels of one shape for pixels (S) and planar samples (SP).
template <class S, class SP>
struct Variant {
  static void (*kernel(bool pixels, Predictor pr))(PredictForwardU8Params) {
    if (pixels)
      return pr == Predictor::Med   ? predict_forward_pairs<Predictor::Med, S>
             : pr == Predictor::Gap ? predict_forward_pairs<Predictor::Gap, S>
                                    : predict_forward_pairs<Predictor::Ged, S>;
    return pr == Predictor::Med   ? predict_forward_planar_pairs<Predictor::Med, SP>
           : pr == Predictor::Gap ? predict_forward_planar_pairs<Predictor::Gap, SP>
                                  : predict_forward_planar_pairs<Predictor::Ged, SP>;
  }
};

struct Shape {
  const char *name;
  void (*(*kernel)(bool, Predictor))(PredictForwardU8Params);
  int tile_w[2], tile_h[2], threads[2];  // [0] planar, [1] pixels
};

template <class S, class SP>
Shape row(const char *name) {
  return Shape{
      name, &Variant<S, SP>::kernel, {SP::kTileW, S::kTileW}, {SP::kTileH, S::kTileH}, {SP::kThreads, S::kThreads}};
}

int main(int argc, char **argv) {
  const int reps = argc > 1 ? std::atoi(argv[1]) : 200;
  // Optional filters: layout, predictor, shape index (for ncu).
  const char *only_layout = argc > 2 ? argv[2] : nullptr, *only_pred = argc > 3 ? argv[3] : nullptr;
  const int only_shape = argc > 4 ? std::atoi(argv[4]) : -1;
  // PairShape<columns per lane (2 pixels, 8 samples), rows per lane, warps, blocks per SM>
  const std::vector<Shape> rows = {
      row<PredictForwardPairsShape, PredictForwardPlanarPairsShape>("in use (4 rows; 8 warps pixels, 4 planar)"),
      row<PairShape<2, 4, 4>, PairShape<8, 4, 4>>("4 rows, 4 warps"),
      row<PairShape<2, 4, 8>, PairShape<8, 4, 8>>("4 rows, 8 warps"),
      row<PairShape<2, 3, 4>, PairShape<8, 3, 4>>("3 rows, 4 warps"),
      row<PairShape<2, 6, 4>, PairShape<8, 6, 4>>("6 rows, 4 warps"),
      row<PairShape<2, 8, 4>, PairShape<8, 8, 4>>("8 rows, 4 warps (the previous shape)"),
      row<PairShape<2, 4, 4, 6>, PairShape<8, 4, 4, 6>>("4 rows, 4 warps, 6 blocks per SM"),
  };
  const Layout layouts[] = {{"RGBA", true, 1}, {"GRAY8", false, 1}, {"I420", false, 3}};
  const Predictor preds[] = {Predictor::Gap, Predictor::Ged, Predictor::Med};
  const char *pred_names[] = {"med", "gap", "ged"};

  Bufs b{};
  b.in_bytes = (size_t)W * H * 4;
  b.out_bytes = (size_t)W * H * 2 * 4;
  CK(cudaMalloc(&b.in, b.in_bytes));
  CK(cudaMalloc(&b.out, b.out_bytes));
  unsigned char *ref;
  CK(cudaMalloc(&ref, b.out_bytes));
  {
    std::vector<unsigned char> host(b.in_bytes);
    unsigned s = 12345;
    for (size_t i = 0; i < host.size(); ++i) {  // smooth ramps plus noise: every GAP branch
      s = s * 1664525u + 1013904223u;
      const size_t x = i % (W * 4), y = i / (W * 4);
      host[i] = (unsigned char)(((x / 7 + y / 3) & 0xff) ^ ((s >> 24) & ((x / 512) % 2 ? 0x3f : 0x03)));
    }
    CK(cudaMemcpy(b.in, host.data(), b.in_bytes, cudaMemcpyHostToDevice));
  }
  cudaStream_t st;
  CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  auto time_us = [&](auto &&f) {
    for (int i = 0; i < 20; ++i) f();
    float best = 1e30f;
    for (int t = 0; t < 3; ++t) {
      CK(cudaEventRecord(e0, st));
      for (int i = 0; i < reps; ++i) f();
      CK(cudaEventRecord(e1, st));
      CK(cudaEventSynchronize(e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, e0, e1));
      best = ms < best ? ms : best;
    }
    return 1000.0 * best / reps;
  };
  double copy_gbps;
  {
    const size_t bytes = 256u << 20;
    void *a, *c;
    CK(cudaMalloc(&a, bytes));
    CK(cudaMalloc(&c, bytes));
    const double us = time_us([&] { CK(cudaMemcpyAsync(c, a, bytes, cudaMemcpyDeviceToDevice, st)); });
    copy_gbps = 2.0 * bytes / (us * 1e3);
    CK(cudaFree(a));
    CK(cudaFree(c));
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# pair kernel shapes, %dx%d, %s, %d launches back to back (best of 3)\n\n", W, H, prop.name, reps);
  std::printf("device-to-device copy: %.0f GB/s (read + written)\n\n", copy_gbps);
  std::printf(
      "| layout | predictor | slice-height | shape | registers | blocks/SM | us | %% of copy | same as the first |\n");
  std::printf("|---|---|---:|---|---:|---:|---:|---:|---|\n");
  bool all_same = true;
  for (const Layout &L : layouts) {
    if (only_layout && std::strcmp(only_layout, L.name)) continue;
    const size_t in_bytes = L.pixels ? (size_t)W * H * 4 : L.planes == 1 ? (size_t)W * H : (size_t)W * H * 3 / 2;
    const size_t out_bytes = 2 * (L.pixels ? (size_t)W * H * 4 : in_bytes);
    for (Predictor pr : preds) {
      if (only_pred && std::strcmp(only_pred, pred_names[int(pr)])) continue;
      for (int slice : {0, 64}) {
        for (size_t v = 0; v < rows.size(); ++v) {
          if (only_shape >= 0 && v != size_t(only_shape) && v != 0) continue;
          const Shape &r = rows[v];
          const int px = L.pixels ? 1 : 0, threads = r.threads[px];
          long long tiles = 0;
          const PredictForwardU8Params p = params(L, b, r.tile_w[px], r.tile_h[px], slice, tiles);
          auto k = r.kernel(L.pixels, pr);
          cudaFuncAttributes fa;
          CK(cudaFuncGetAttributes(&fa, k));
          int per_sm = 0;
          CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k, threads, 0));
          CK(cudaMemsetAsync(b.out, 0xa5, b.out_bytes, st));
          const double us = time_us([&] { k<<<unsigned(tiles), threads, 0, st>>>(p); });
          CK(cudaGetLastError());
          CK(cudaStreamSynchronize(st));
          bool same = true;
          if (v == 0)
            CK(cudaMemcpy(ref, b.out, out_bytes, cudaMemcpyDeviceToDevice));
          else {
            std::vector<unsigned char> x(out_bytes), y(out_bytes);
            CK(cudaMemcpy(x.data(), ref, out_bytes, cudaMemcpyDeviceToHost));
            CK(cudaMemcpy(y.data(), b.out, out_bytes, cudaMemcpyDeviceToHost));
            same = std::memcmp(x.data(), y.data(), out_bytes) == 0;
            all_same = all_same && same;
          }
          const double share = 100.0 * (in_bytes + out_bytes) / (us * 1e3) / copy_gbps;
          std::printf("| %s | %s | %d | %s | %d | %d | %.1f | %.0f%% | %s |\n", L.name, pred_names[int(pr)], slice,
                      r.name, fa.numRegs, per_sm, us, share,
                      v == 0 ? "-"
                      : same ? "yes"
                             : "NO");
          std::fflush(stdout);
        }
      }
    }
  }
  return all_same ? 0 : 1;  // a shape that changes the residuals is a bug
}
