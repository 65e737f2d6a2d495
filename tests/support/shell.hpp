// Running a third-party tool from a test (OpenJPEG's opj_decompress and
// opj_dump check our codestreams).
#pragma once

#include <stdlib.h>

#include <cstdio>
#include <string>

namespace cft {

// Runs `command` in a shell; `output` gets its stdout and stderr. Returns
// pclose's status (0: success), or -1 when it cannot start.
inline int run_command(const std::string &command, std::string &output) {
  output.clear();
  FILE *pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return -1;
  char buffer[4096];
  std::size_t got;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, got);
  return pclose(pipe);
}

// Whether `name` is a command on the PATH.
inline bool have_tool(const char *name) {
  std::string out;
  return run_command(std::string("command -v ") + name, out) == 0;
}

// A fresh folder under /tmp for a tool's files, removed with what it holds
// (path empty when it cannot be made).
struct TempDir {
  std::string path;
  TempDir() {
    char t[] = "/tmp/cf-test-XXXXXX";
    path = mkdtemp(t) ? t : "";
  }
  ~TempDir() {
    std::string out;
    if (!path.empty()) run_command("rm -rf '" + path + "'", out);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
};

}  // namespace cft
