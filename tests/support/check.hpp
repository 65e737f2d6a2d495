// Minimal test harness shared by the unit tests: CHECK records a failure and
// goes on; a test's main returns test_result() (0 pass, 1 fail, 77 skip).
#pragma once

#include <cstdio>
#include <cstdlib>

namespace cft {
inline int &failures() {
  static int n = 0;
  return n;
}
inline int test_result() {
  if (failures()) std::fprintf(stderr, "%d check(s) failed\n", failures());
  return failures() ? 1 : 0;
}
constexpr int kSkip = 77;  // meson's exit code for a skipped test

// stdout line by line even into a log file, as stderr (the failed checks)
// is: a program stopped by a time limit or a signal keeps every line it
// printed, in order with its failures.
inline const bool kStdoutLineBuffered = std::setvbuf(stdout, nullptr, _IOLBF, 0) == 0;
}  // namespace cft

#define CHECK(cond)                                                                 \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      ++cft::failures();                                                            \
    }                                                                               \
  } while (0)

#define CHECK_MSG(cond, ...)                                                        \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s: ", __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                                            \
      std::fputc('\n', stderr);                                                     \
      ++cft::failures();                                                            \
    }                                                                               \
  } while (0)
