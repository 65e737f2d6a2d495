// Source frames for the measuring tools (cf-bench, cf-soak): a photo decoded
// and scaled once, or random samples, in system memory.
#pragma once

#include <gst/gst.h>

#include <cstdint>
#include <string>

// One frame of `image` (any format decodebin reads) converted and scaled to
// format/size; nullptr (with a message) when it cannot be decoded.
GstBuffer *decode_frame(const std::string &image, const std::string &format, int w, int h);

// One frame of uniformly random bytes in GStreamer's default layout.
GstBuffer *random_video_frame(const std::string &format, int w, int h, std::uint32_t seed);
