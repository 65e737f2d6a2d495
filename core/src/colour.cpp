// Colour transforms: validation and backend dispatch.
#include "cudafilters/colour.hpp"

#include "cpu/colour_cpu.hpp"
#include "cudafilters/error.hpp"
#include "cudafilters/wavelet.hpp"  // coefficient_type_for
#include "kernels/colour_cuda.hpp"

namespace cf {

const char *colour_name(ColourTransform t) { return t == ColourTransform::Rct ? "rct" : "ycocg"; }

ValueRange colour_output_range(ColourTransform, SampleType raw) {
  const ValueRange r = type_range(raw);
  return {-r.hi, r.hi};
}

namespace {

// Components of one size, 3 or 4 of them; "" or what is wrong.
std::string check_components(const FrameView &f, const char *which) {
  if (f.n_components != 3 && f.n_components != 4)
    return std::string(which) + " frame has " + std::to_string(f.n_components) +
           " components; a colour transform needs R, G, B (and optionally alpha)";
  for (int c = 1; c < f.n_components; ++c)
    if (f.components[c].width != f.components[0].width || f.components[c].height != f.components[0].height)
      return std::string(which) + " frame: component " + std::to_string(c) +
             " is not the size of component 0 (subsampled chroma is not RGB)";
  return "";
}

std::string check_pair(const FrameView &a, const FrameView &b) {
  if (const char *why = check_frame(a); *why) return std::string("source frame: ") + why;
  if (const char *why = check_frame(b); *why) return std::string("destination frame: ") + why;
  if (std::string why = check_components(a, "source"); !why.empty()) return why;
  if (a.n_components != b.n_components) return "source and destination component counts differ";
  for (int c = 0; c < a.n_components; ++c)
    if (a.components[c].width != b.components[c].width || a.components[c].height != b.components[c].height)
      return "source and destination component sizes differ";
  return "";
}

void run(Engine &e, bool inverse, ColourTransform t, const FrameView &src, const FrameView &dst) {
  const colour::Direction d = inverse ? colour::Direction::Inverse : colour::Direction::Forward;
  switch (e.backend()) {
    case Backend::Cuda: return cuda::colour_transform(e.cuda(), inverse, t, src, dst);
    case Backend::OpenMP: return omp::colour_transform(d, t, src, dst, e.threads());
    default: return cpu::colour_transform(d, t, src, dst);
  }
}

}  // namespace

std::string colour_check(const FrameView &src, const FrameView &dst) {
  if (std::string why = check_pair(src, dst); !why.empty()) return why;
  if (src.type != SampleType::U8 && src.type != SampleType::U16)
    return std::string("colour transforms take U8 or U16 samples, not ") + sample_type_name(src.type);
  const ValueRange out = colour_output_range(ColourTransform::Rct, src.type), fits = type_range(dst.type);
  if (!is_signed(dst.type) || out.lo < fits.lo || out.hi > fits.hi)
    return std::string("colour differences of ") + sample_type_name(src.type) + " samples do not fit " +
           sample_type_name(dst.type) + " (" + sample_type_name(src.type) + " needs " +
           sample_type_name(coefficient_type_for(src.type)) + ")";
  return "";
}

void colour_forward(Engine &e, ColourTransform t, const FrameView &src, const FrameView &dst) {
  if (std::string why = colour_check(src, dst); !why.empty()) throw Error(why);
  run(e, false, t, src, dst);
}

void colour_inverse(Engine &e, ColourTransform t, const FrameView &src, const FrameView &dst) {
  if (std::string why = check_pair(src, dst); !why.empty()) throw Error(why);
  if (src.type != SampleType::S16 && src.type != SampleType::S32)
    throw Error(std::string("colour coefficients must be S16 or S32, not ") + sample_type_name(src.type));
  run(e, true, t, src, dst);
}

}  // namespace cf
