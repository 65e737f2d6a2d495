// OpenMP schedule of the JPEG 2000 reconstruction stage: the serial
// reference's passes (cpu/j2k_reconstruct_stages.hpp). A frame of many
// tiles gives each thread whole tiles; a frame of few shares each pass's
// rows or columns over the threads. Every item gets the same operations in
// the same order either way, so the bits are the reference's.
#include "cpu/j2k_reconstruct.hpp"
#include "cpu/j2k_reconstruct_stages.hpp"
#include "cpu/omp_threads.hpp"

namespace cf::omp {

void j2k_reconstruct(const j2k::Layout &layout, const std::int32_t *coefficients, const j2k::Reconstruction &r,
                     const FrameView &out, int threads) {
  namespace s = j2k::reconstruct;
  const s::Frame f{layout, coefficients, r, out};
  s::check(f);
  const int team = thread_count(threads, layout.coefficient_count);
  const auto serial = [](std::size_t n, std::size_t lines, auto &&body) {
    thread_local s::Scratch scratch;
    scratch.reserve(lines);
    for (std::size_t i = 0; i < n; ++i) body(i, scratch.ints.data(), scratch.floats.data());
  };
  const long long tiles = (long long)layout.tiles.size();

  if (tiles >= 2 * team) {
#pragma omp parallel for num_threads(team) schedule(dynamic)
    for (long long tile = 0; tile < tiles; ++tile) {
      thread_local s::Work work;
      s::run_tile(f, std::uint32_t(tile), work, serial);
    }
    return;
  }

  s::Work work;
  const auto parallel = [&](std::size_t n, std::size_t lines, auto &&body) {
    const int pass_team = thread_count(team, n * lines);
#pragma omp parallel num_threads(pass_team)
    {
      thread_local s::Scratch scratch;
      scratch.reserve(lines);
#pragma omp for schedule(static)
      for (long long i = 0; i < (long long)n; ++i) body(std::size_t(i), scratch.ints.data(), scratch.floats.data());
    }
  };
  for (std::uint32_t tile = 0; tile < layout.tiles.size(); ++tile) s::run_tile(f, tile, work, parallel);
}

}  // namespace cf::omp
