// Precinct sizes as text ("W,H,W,H,...", samples), for the element's
// property and the command line.
#include <cctype>
#include <string>
#include <vector>

#include "cudafilters/j2k.hpp"

namespace cf {

namespace {
// A side in samples: a power of two from 1 to 2^15, as its exponent; -1 otherwise.
int side_exponent(const std::string &digits) {
  if (digits.empty() || digits.size() > 5) return -1;
  long v = 0;
  for (char c : digits) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
    v = v * 10 + (c - '0');
  }
  for (int e = 0; e <= 15; ++e)
    if (v == 1L << e) return e;
  return -1;
}
}  // namespace

std::string j2k_parse_precincts(const std::string &text, std::vector<J2kPrecinctSize> &out) {
  const auto trim = [](std::string f) {
    while (!f.empty() && f.front() == ' ') f.erase(0, 1);
    while (!f.empty() && f.back() == ' ') f.pop_back();
    return f;
  };
  std::vector<int> sides;
  if (!trim(text).empty())
    for (std::size_t at = 0;;) {
      const std::size_t comma = text.find(',', at);
      const std::string field = trim(text.substr(at, comma == std::string::npos ? comma : comma - at));
      const int e = side_exponent(field);
      if (e < 0)
        return "precincts \"" + text + "\": " + (field.empty() ? "an empty entry" : "\"" + field + "\"") +
               " is not a power of two from 1 to 32768";
      sides.push_back(e);
      if (comma == std::string::npos) break;
      at = comma + 1;
    }
  if (sides.size() % 2)
    return "precincts \"" + text + "\": " + std::to_string(sides.size()) +
           " numbers; sizes are width,height pairs, the highest resolution first";
  std::vector<J2kPrecinctSize> sizes;
  for (std::size_t i = 0; i < sides.size(); i += 2) sizes.push_back({sides[i], sides[i + 1]});
  out = std::move(sizes);
  return "";
}

std::string j2k_precincts_text(const std::vector<J2kPrecinctSize> &sizes) {
  std::string t;
  for (const J2kPrecinctSize &z : sizes) {
    for (int e : {z.width_exp, z.height_exp}) {
      if (!t.empty()) t += ',';
      t += e >= 0 && e < 31 ? std::to_string(1L << e) : "2^" + std::to_string(e);
    }
  }
  return t;
}

}  // namespace cf
