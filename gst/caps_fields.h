// Reading caps fields strictly, with messages that name the field
// ("caps field 'width' is missing"), and the fields raw video and its
// coefficient stream share.
#pragma once

#include <gst/gst.h>

#include <string>
#include <vector>

namespace cfgst {

constexpr const char *kCoeffMediaType = "video/x-coefficients";

// Stores `msg` in *why (when why is set) and returns false.
bool refuse(std::string *why, const std::string &msg);

// "caps field '<field>' <what>".
std::string field_message(const char *field, const std::string &what);

// "(type)value" for messages; safe on any value a caps string can hold.
std::string describe_value(const GValue *v);

// Strict readers: false with a message when the field is missing (and
// required), unfixed, of another type or out of range.
bool read_string(const GstStructure *s, const char *field, bool required, std::string *out, bool *present,
                 std::string *why);
bool read_int(const GstStructure *s, const char *field, int lo, int hi, int *out, std::string *why);
// An optional fraction: absent, or fixed with numerator >= 0 (> 0 when
// `positive`) and denominator > 0.
bool check_fraction(const GstStructure *s, const char *field, bool positive, std::string *why);

// The strings a field allows: one, a list of them, or none when absent.
std::vector<std::string> string_values(const GstStructure *s, const char *field);

// Copies the fields raw video and its coefficient stream share, besides
// format (width, height, framerate, pixel-aspect-ratio, colorimetry,
// chroma-site, interlace-mode), where `from` has them.
void copy_shared_fields(const GstStructure *from, GstStructure *to);

}  // namespace cfgst
