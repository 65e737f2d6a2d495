#include "frames.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <jpeglib.h>

namespace cft {

using cf::FrameView;
using cf::SampleType;

OwnedFrame make_raw(Packing packing, int width, int height, SampleType type, int pad, bool subsampled) {
  const int ss = cf::sample_size(type);
  const int cw = subsampled ? (width + 1) / 2 : width, ch = subsampled ? (height + 1) / 2 : height;
  OwnedFrame f;
  FrameView &v = f.view;
  v.type = type;
  struct PlaneSpec {
    int row_samples, rows;
  };
  // A fixed array: GCC 12 warns (-Wnonnull, a false positive) when a
  // std::vector of these is assigned from a braced list.
  PlaneSpec planes[3] = {};
  int n_planes = 1;
  switch (packing) {
    case Packing::Gray:
      planes[0] = {width, height};
      v.n_components = 1;
      v.components[0] = {0, 0, 1, width, height};
      break;
    case Packing::Packed3:
    case Packing::Packed4: {
      const int n = packing == Packing::Packed3 ? 3 : 4;
      planes[0] = {width * n, height};
      v.n_components = n;
      for (int c = 0; c < n; ++c) v.components[c] = {0, c * ss, n, width, height};
      break;
    }
    case Packing::Planar3:
      planes[0] = {width, height};
      planes[1] = planes[2] = {cw, ch};
      n_planes = 3;
      v.n_components = 3;
      v.components[0] = {0, 0, 1, width, height};
      v.components[1] = {1, 0, 1, cw, ch};
      v.components[2] = {2, 0, 1, cw, ch};
      break;
    case Packing::SemiPlanar:
      planes[0] = {width, height};
      planes[1] = {cw * 2, ch};
      n_planes = 2;
      v.n_components = 3;
      v.components[0] = {0, 0, 1, width, height};
      v.components[1] = {1, 0, 2, cw, ch};
      v.components[2] = {1, ss, 2, cw, ch};
      break;
  }
  v.n_planes = n_planes;
  std::size_t total = 0;
  std::vector<std::size_t> offsets;
  for (int i = 0; i < n_planes; ++i) {
    const PlaneSpec &p = planes[i];
    offsets.push_back(total);
    total += std::size_t(p.row_samples * ss + pad) * p.rows;
  }
  f.bytes.assign(total + 1, 0xA5);  // +1 so a zero-size frame still has an address
  for (int i = 0; i < v.n_planes; ++i)
    v.planes[i] = {f.bytes.data() + offsets[i], planes[i].row_samples * ss + pad, planes[i].row_samples * ss,
                   planes[i].rows};
  return f;
}

OwnedFrame copy_of(const OwnedFrame &f) {
  OwnedFrame c = f;
  for (int p = 0; p < c.view.n_planes; ++p)
    c.view.planes[p].data =
        c.bytes.data() + (static_cast<const std::uint8_t *>(f.view.planes[p].data) - f.bytes.data());
  return c;
}

OwnedFrame make_planar_like(const FrameView &like, SampleType type) {
  cf::PlanarLayout l;
  l.n = like.n_components;
  for (int c = 0; c < l.n; ++c) {
    l.width[c] = like.components[c].width;
    l.height[c] = like.components[c].height;
  }
  OwnedFrame f;
  f.bytes.assign(cf::planar_size(l, type) + 1, 0xA5);
  f.view = cf::planar_view(f.bytes.data(), l, type, cf::Memory::Host);
  return f;
}

std::int64_t read_sample(const FrameView &f, int c, int x, int y) {
  const void *p = f.sample(c, x, y);
  switch (f.type) {
    case SampleType::U8: return *static_cast<const std::uint8_t *>(p);
    case SampleType::U16: {
      std::uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case SampleType::S16: {
      std::int16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    case SampleType::S32: {
      std::int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    case SampleType::F32: {
      float v;
      std::memcpy(&v, p, 4);
      return std::llround(v);
    }  // nearest integer
  }
  return 0;
}

void write_sample(const FrameView &f, int c, int x, int y, std::int64_t v) {
  void *p = f.sample(c, x, y);
  switch (f.type) {
    case SampleType::U8: *static_cast<std::uint8_t *>(p) = std::uint8_t(v); break;
    case SampleType::U16: {
      std::uint16_t s = std::uint16_t(v);
      std::memcpy(p, &s, 2);
      break;
    }
    case SampleType::S16: {
      std::int16_t s = std::int16_t(v);
      std::memcpy(p, &s, 2);
      break;
    }
    case SampleType::S32: {
      std::int32_t s = std::int32_t(v);
      std::memcpy(p, &s, 4);
      break;
    }
    case SampleType::F32: {
      float s = float(v);
      std::memcpy(p, &s, 4);
      break;
    }
  }
}

void fill_random(OwnedFrame &f, std::uint32_t seed) {
  std::mt19937 rng(seed);
  const FrameView &v = f.view;
  for (int c = 0; c < v.n_components; ++c)
    for (int y = 0; y < v.components[c].height; ++y)
      for (int x = 0; x < v.components[c].width; ++x) {
        std::int64_t s = rng();
        switch (v.type) {
          case SampleType::U8: s &= 0xff; break;
          case SampleType::U16: s &= 0xffff; break;
          case SampleType::S16: s = std::int16_t(s); break;
          case SampleType::S32: s = std::int32_t(s); break;
          case SampleType::F32: s = std::int16_t(s); break;  // integers, exact in float
        }
        write_sample(v, c, x, y, s);
      }
}

void fill_bytes(OwnedFrame &f, std::uint8_t value) { std::memset(f.bytes.data(), value, f.bytes.size()); }

bool load_rgb8(const std::string &path, int &width, int &height, std::vector<std::uint8_t> &rgb) {
  FILE *file = std::fopen(path.c_str(), "rb");
  if (!file) return false;
  jpeg_decompress_struct info;
  jpeg_error_mgr err;
  info.err = jpeg_std_error(&err);
  jpeg_create_decompress(&info);
  jpeg_stdio_src(&info, file);
  jpeg_read_header(&info, TRUE);
  info.out_color_space = JCS_RGB;
  jpeg_start_decompress(&info);
  width = int(info.output_width);
  height = int(info.output_height);
  rgb.resize(std::size_t(width) * height * 3);
  while (info.output_scanline < info.output_height) {
    JSAMPROW row = rgb.data() + std::size_t(info.output_scanline) * width * 3;
    jpeg_read_scanlines(&info, &row, 1);
  }
  jpeg_finish_decompress(&info);
  jpeg_destroy_decompress(&info);
  std::fclose(file);
  return true;
}

void fill_from_rgb(OwnedFrame &f, int width, int height, const std::vector<std::uint8_t> &rgb) {
  const FrameView &v = f.view;
  const int fw = v.components[0].width, fh = v.components[0].height;
  for (int c = 0; c < v.n_components; ++c) {
    const cf::Component &k = v.components[c];
    for (int y = 0; y < k.height; ++y)
      for (int x = 0; x < k.width; ++x) {
        // Position in the full-resolution frame, then in the photo.
        const int fx = int(std::int64_t(x) * fw / k.width), fy = int(std::int64_t(y) * fh / k.height);
        const int sx = int(std::int64_t(fx) * width / fw), sy = int(std::int64_t(fy) * height / fh);
        std::int64_t s = rgb[(std::size_t(sy) * width + sx) * 3 + (c % 3)];
        if (v.type == SampleType::U16) s = s * 257 ^ (x & 0xff);  // use all 16 bits
        write_sample(v, c, x, y, s);
      }
  }
}

std::string image_dir() {
  const char *env = std::getenv("CF_TEST_IMAGES");
  const std::string dir = env ? env : "/usr/share/doc/opencv-doc/examples/data";
  return std::filesystem::exists(dir + "/baboon.jpg") ? dir : std::string();
}

std::vector<Photo> load_photos() {
  std::vector<Photo> photos;
  const std::string dir = image_dir();
  if (dir.empty()) {
    std::printf("note: no test photos (set CF_TEST_IMAGES): photo part skipped\n");
    return photos;
  }
  for (const char *name : {"baboon.jpg", "fruits.jpg", "building.jpg"}) {
    Photo p;
    p.name = name;
    if (load_rgb8(dir + "/" + name, p.width, p.height, p.rgb)) photos.push_back(std::move(p));
  }
  return photos;
}

long long count_differences(const FrameView &a, const FrameView &b, std::string *first) {
  long long n = 0;
  for (int c = 0; c < a.n_components; ++c)
    for (int y = 0; y < a.components[c].height; ++y)
      for (int x = 0; x < a.components[c].width; ++x) {
        const auto va = read_sample(a, c, x, y), vb = read_sample(b, c, x, y);
        if (va != vb && n++ == 0 && first)
          *first = "component " + std::to_string(c) + " at (" + std::to_string(x) + "," + std::to_string(y) +
                   "): " + std::to_string(va) + " vs " + std::to_string(vb);
      }
  return n;
}

}  // namespace cft
