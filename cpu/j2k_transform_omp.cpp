// OpenMP schedule of the JPEG 2000 transform stage: the serial reference's
// passes (cpu/j2k_transform_stages.hpp). A frame of many tiles gives each
// thread whole tiles; a frame of few shares each pass's rows or columns
// over the threads. Every item gets the same operations in the same order
// either way, so the bits are the reference's.
#include <vector>

#include "cpu/j2k_transform.hpp"
#include "cpu/j2k_transform_stages.hpp"
#include "cpu/omp_threads.hpp"

namespace cf::omp {

void j2k_transform(const J2kInput &in, const j2k::Layout &layout, const std::vector<float> &step_reciprocals,
                   std::int32_t *coefficients, int threads) {
  namespace t = j2k::transform;
  const t::Frame f{in, layout, step_reciprocals, coefficients};
  t::check(f);
  const int team = thread_count(threads, layout.coefficient_count);
  const auto serial = [](std::size_t n, std::size_t lines, auto &&body) {
    thread_local t::Scratch scratch;
    scratch.reserve(lines);
    for (std::size_t i = 0; i < n; ++i) body(i, scratch.ints.data(), scratch.floats.data());
  };
  const long long tiles = (long long)layout.tiles.size();

  if (tiles >= 2 * team) {
#pragma omp parallel for num_threads(team) schedule(dynamic)
    for (long long tile = 0; tile < tiles; ++tile) {
      thread_local std::vector<float> work;
      work.resize(t::tile_work_size(layout, std::uint32_t(tile)));
      t::run_tile(f, std::uint32_t(tile), work.data(), serial);
    }
    return;
  }

  std::vector<float> work;
  const auto parallel = [&](std::size_t n, std::size_t lines, auto &&body) {
    const int pass_team = thread_count(team, n * lines);
#pragma omp parallel num_threads(pass_team)
    {
      thread_local t::Scratch scratch;
      scratch.reserve(lines);
#pragma omp for schedule(static)
      for (long long i = 0; i < (long long)n; ++i) body(std::size_t(i), scratch.ints.data(), scratch.floats.data());
    }
  };
  for (std::uint32_t tile = 0; tile < layout.tiles.size(); ++tile) {
    work.resize(t::tile_work_size(layout, tile));
    t::run_tile(f, tile, work.data(), parallel);
  }
}

}  // namespace cf::omp
