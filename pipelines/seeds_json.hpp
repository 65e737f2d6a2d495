// The seeds experiments' programs print one JSON object each, which
// pipelines/seeds/make_seeds.py reads. These helpers write its pieces: a
// missing measurement (no GPU, a chain the types cannot hold) is null.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace cfseeds {

inline std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  char s[32];
  std::snprintf(s, sizeof s, "%.6g", v);
  return s;
}

inline std::string json_string(const std::string &v) {
  std::string out = "\"";
  for (char c : v) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) continue;  // names only: no control characters
    out += c;
  }
  return out + "\"";
}

// Missing measurements are NaN until printed.
constexpr double kMissing = NAN;

// CF_SEEDS_QUICK=1: a smoke run (small frames, one repetition).
inline bool quick_run() {
  const char *q = std::getenv("CF_SEEDS_QUICK");
  return q && *q && *q != '0';
}

}  // namespace cfseeds
