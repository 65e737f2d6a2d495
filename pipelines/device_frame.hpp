// A host frame's bytes copied to the engine's GPU, for the measuring tools
// that time calls on frames already in device memory.
#pragma once

#include <cstdint>

#include "cudafilters/engine.hpp"
#include "frames.hpp"

namespace cfbench {

// The device copy lives as long as this object; `view` is the host frame's
// view with every plane pointing at the same offset in the copy.
struct OnDevice {
  cf::Engine &e;
  void *p;
  cf::FrameView view;
  OnDevice(cf::Engine &engine, const cft::OwnedFrame &f) : e(engine), p(engine.device_alloc(f.bytes.size())) {
    e.upload(p, f.bytes.data(), f.bytes.size());
    view = f.view;
    view.memory = cf::Memory::Device;
    for (int i = 0; i < view.n_planes; ++i)
      view.planes[i].data =
          static_cast<std::uint8_t *>(p) + (static_cast<const std::uint8_t *>(f.view.planes[i].data) - f.bytes.data());
  }
  ~OnDevice() { e.device_free(p); }
  OnDevice(const OnDevice &) = delete;
  OnDevice &operator=(const OnDevice &) = delete;
  // The device bytes back into f (the frame this was made from, or one of its layout).
  void to_host(cft::OwnedFrame &f) { e.download(f.bytes.data(), p, f.bytes.size()); }
};

}  // namespace cfbench
